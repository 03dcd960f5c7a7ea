"""``PairedTask``: the base class every Polaris task derives from (one logical problem, two items).

Parameter ``variant`` (``descriptions.common.VARIANT``): with ``both`` (default) item ``i`` is rendering
``("cartesian", "polar")[i % 2]`` of pair ``p = i // 2``; with one rendering item ``i`` is that rendering of
pair ``p = i``.  The logical instance is drawn only from ``random.stream("pair", p)`` (keyed by task id,
version, seed and ``p``; never the item index), so both items of a pair share the problem, the option order
and the letters; the correct letter is balanced over pairs (``random.balanced(k, "answer", position=p)``);
``difficulty_position`` returns ``p``, so a pair shares its difficulty level.  ``Problem.variant`` is the
rendering and ``Problem.pair`` the pair's key.

A task declares ``CATEGORY``, ``SUB_CATEGORY``, ``BOUNDARY`` (bounded / wrapping / invariant), ``ALIGNMENT``
(full / partial: the 44/9 reading of the paper that reproduces its Figure 5(a); it drives the solver assertions),
``TABLE_ALIGNMENT`` (what the paper's Tables 3-7 mark, when it differs; default ``ALIGNMENT``), ``ANSWER_TYPE``
and ``OPTION_COUNT`` (0: no options) and implements ``build(params, rng, level) -> Instance`` (the logical
problem with the answer of each rendering; or
``build_pair(params, random, pair, rng, level)`` to spread a knob over pairs with ``pair_choice``),
``question(instance, variant, letters, contents) -> str``, ``draw(instance, variant, letters, contents) ->
Image`` and ``verify`` (its own, independent).  The base writes the metadata every item carries: category,
sub_category, boundary, alignment, alignment_table, rendering, pair_index, dims of both renderings (rows x
columns, rings x sectors) and, for partially aligned tasks, ``other_answer`` (the other rendering's answer);
``pair_failures`` checks them in verify.  The pair's instance depends only on (task, version, seed, pair,
params), so a process keeps the last few (``PAIR_CACHE``) and the second item of a pair reuses the first's.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from bench_core import GenerationError, Problem, TaskImplementation, option_letters
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.grid import ALIGNMENTS, BOUNDARIES, VARIANTS

#: Pairs whose instance a process keeps, per task (the second item of a pair reuses the first's).
PAIR_CACHE = 8
_PAIR_CACHE: dict[int, dict[tuple, tuple]] = {}

#: Metadata keys the base writes on every item.
PAIR_KEYS = ("category", "sub_category", "boundary", "alignment", "alignment_table", "rendering", "pair_index", "dims")


def pair_position(index: int, setting: str) -> tuple[int, str]:
    """(pair, rendering) of item ``index`` under the ``variant`` setting ("both", "cartesian", "polar")."""
    if setting == "both":
        return index // 2, VARIANTS[index % 2]
    if setting in VARIANTS:
        return index, setting
    raise ValueError(f"variant {setting!r} is not one of both, {', '.join(VARIANTS)}")


def pair_key(task_id: str, seed: int, pair: int) -> str:
    """The ``Problem.pair`` of pair ``pair``: the same string for its two items."""
    return f"{task_id}:{seed}:{pair}"


def other(variant: str) -> str:
    """The other rendering."""
    return VARIANTS[1 - VARIANTS.index(variant)]


@attrs.frozen
class Instance:
    """One logical problem in index space, shared by the two items of a pair.

    ``rows`` x ``cols`` is the logical board (the polar picture has ``cols + geometry["extra_sectors"]``
    sectors); ``scene`` is the task's JSON record of the problem (index space only); ``answers`` maps each
    rendering to its answer (the option content for a multiple-choice task; equal for fully aligned tasks);
    ``distractors`` are wrong option contents in order of preference, already checked by the task under both
    boundary readings; ``geometry`` is the shared calibration and layout settings (``kit.draw.calibrate``:
    r0, font_px, icon_radius; plus orientation, rings, extra_sectors, wrap); ``frame`` the frame settings
    (legend_lines, options for picture panels, option_side); ``params`` the drawn parameter values to report;
    ``knobs`` the difficulty knobs; ``facts`` extra metadata; ``structure`` anything the drawing wants (never
    serialised)."""

    rows: int
    cols: int
    scene: Mapping[str, Any]
    answers: Mapping[str, str]
    distractors: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    geometry: Mapping[str, Any] = attrs.field(factory=dict)
    frame: Mapping[str, Any] = attrs.field(factory=dict)
    params: Mapping[str, Any] = attrs.field(factory=dict)
    knobs: Mapping[str, Any] = attrs.field(factory=dict)
    facts: Mapping[str, Any] = attrs.field(factory=dict)
    structure: Any = attrs.field(default=None, eq=False, repr=False)

    def dims(self) -> dict[str, list[int]]:
        """{"cartesian": [rows, cols], "polar": [rings, sectors]}."""
        return {"cartesian": [self.rows, self.cols],
                "polar": [self.rows, self.cols + int(self.geometry.get("extra_sectors", 0))]}


def arrange(count: int, position: int, answers: Mapping[str, str], distractors: Sequence[str], rng
            ) -> tuple[str, ...]:
    """The option contents in display order: the Cartesian answer at ``position``, the polar answer (when it
    differs: a partially aligned task) at another slot drawn from ``rng``, the first distractors in the
    remaining slots in an order drawn from ``rng``.  ValueError when the options would not be distinct or
    there are too few distractors."""
    first, second = answers["cartesian"], answers["polar"]
    need = count - (1 if first == second else 2)
    pool = [d for d in distractors if d not in (first, second)]
    if len(set(pool[:need])) < need or len(pool) < need:
        raise ValueError(f"{count} options need {need} distinct distractors besides the answers, "
                         f"got {list(distractors)}")
    slots: list[str | None] = [None] * count
    slots[position] = first
    free = [k for k in range(count) if k != position]
    if second != first:
        slots[free.pop(int(rng.integers(len(free))))] = second
    chosen = pool[:need]
    for k, idx in zip(free, rng.permutation(need), strict=True):
        slots[k] = chosen[int(idx)]
    return tuple(str(s) for s in slots)


class PairedTask(TaskImplementation):
    """The base of every Polaris task: see the module docstring.  Subclasses set the class attributes and
    implement ``build``, ``question``, ``draw``, ``verify`` and ``hardness``."""

    CATEGORY = ""
    SUB_CATEGORY = ""
    BOUNDARY = "bounded"
    ALIGNMENT = "full"
    #: What the paper's Tables 3-7 mark for the task (full / partial) when it differs from ``ALIGNMENT`` (spec
    #: 2.3: the tables mark 10 tasks partial, Figure 5(a) reproduces only with 9, Rule-Based Navigation counted
    #: full); None: the same as ``ALIGNMENT``.  Recorded as ``alignment_table``; it changes no answer.
    TABLE_ALIGNMENT: str | None = None
    ANSWER_TYPE = "integer"
    OPTION_COUNT = 0
    #: True when the options are picture panels in the image (``Problem.options`` are then the letters);
    #: False when they are values listed in the question (``Problem.options`` are the values).
    PICTURE_OPTIONS = False
    #: Partially aligned tasks whose two renderings may share the answer (Random Walk) set this.
    SAME_ANSWER_ALLOWED = False
    #: True: each item gets its own options (a partially aligned multiple-choice task, ``kit.options``):
    #: ``instance.facts["options"][variant]``, its answer at ``facts["answer_rank"]`` in both items (the same
    #: letter), the other reading's answer never among them; False: one option list for the pair (``arrange``).
    OWN_OPTIONS = False
    #: The module ``bench_plugin_polaris.verifiers.<VERIFIER>`` whose ``verify(item, images, layout_of)`` is the
    #: task's own independent check; the default ``verify`` runs it after ``pair_failures`` (imported on first use).
    VERIFIER = ""
    #: Polar geometry defaults (per task, spec 2.1 / 5.2): inner radius fraction, radial orientation ("out":
    #: top row = outermost ring; "in": row 1 = ring 1), ring spacing, extra sectors, label font px.
    R0 = 0.25
    ORIENTATION = "out"
    RINGS = "uniform"
    EXTRA_SECTORS = 0
    FONT_PX = kdraw.FONT_PX

    def geometry(self, rows: int, cols: int, **overrides: Any) -> dict[str, Any]:
        """The shared geometry record of a ``rows`` x ``cols`` instance: the class defaults (or
        ``overrides``: r0, orientation, rings, extra_sectors, font_px, wrap, and calibrate's keywords)
        calibrated by ``kit.draw.calibrate`` (the legibility guard raises r0 or raises
        ``kit.draw.Illegible``); ``wrap`` (default False) makes the Cartesian picture show dashed side
        edges."""
        settings = {"r0": self.R0, "orientation": self.ORIENTATION, "rings": self.RINGS,
                    "extra_sectors": self.EXTRA_SECTORS, "font_px": self.FONT_PX, **overrides}
        wrap = bool(settings.pop("wrap", False))
        calibration = kdraw.calibrate(rows, cols, **settings)
        return {"orientation": settings["orientation"], "rings": settings["rings"],
                "extra_sectors": settings["extra_sectors"], "wrap": wrap, **calibration.record()}

    # --- what a task implements -------------------------------------------------------------------------
    def build(self, params: Mapping[str, Any], rng, level: float | None) -> Instance:
        """The logical problem of one pair from the pair's generator ``rng`` (raise GenerationError when
        bounded retries find none)."""
        raise NotImplementedError

    def build_pair(self, params: Mapping[str, Any], random, pair: int, rng, level: float | None) -> Instance:
        """``build`` with the pair's identity, for tasks that spread a knob evenly over consecutive pairs
        (``pair_choice``); the default calls ``build(params, rng, level)``."""
        return self.build(params, rng, level)

    @staticmethod
    def pair_choice(random, pair: int, count: int, key: str) -> int:
        """A choice in ``range(count)`` balanced over consecutive pairs (every block of ``count`` pairs takes
        each value once; ``ItemRandom.balanced`` keyed by ``key`` at position ``pair``): both items of a pair
        get the same value."""
        return random.balanced(count, key, position=pair)

    def question(self, instance: Instance, variant: str, letters: str, contents: tuple[str, ...] | None) -> str:
        """The question of ``variant``'s item (the vocabulary of ``kit.text``)."""
        raise NotImplementedError

    def draw(self, instance: Instance, variant: str, letters: str, contents: tuple[str, ...] | None):
        """The composite image of ``variant``'s item."""
        raise NotImplementedError

    # --- the pair machinery -----------------------------------------------------------------------------
    def items_per_count(self, params) -> int:
        """2 with both renderings (``--count 50`` writes 50 pairs, 100 items), else 1."""
        return 2 if (params.get("variant") or "both") == "both" else 1

    def difficulty_position(self, params, random) -> int:
        """The pair index: both items of a pair take the same level."""
        return pair_position(random.index, params.get("variant") or "both")[0]

    def generate(self, params, random) -> Problem:
        self._check_declaration()
        pair, variant = pair_position(random.index, params.get("variant") or "both")
        level = params.get("difficulty")
        instance, shared = self.pair_problem(params, random, pair)
        answers = {v: str(instance.answers[v]) for v in VARIANTS}
        if self.ALIGNMENT == "full" and answers["cartesian"] != answers["polar"]:
            raise GenerationError(f"{random.task_id}: a fully aligned task gave different answers {answers} (a bug)")
        if self.ALIGNMENT == "partial" and not self.SAME_ANSWER_ALLOWED and answers["cartesian"] == answers["polar"]:
            raise GenerationError(f"{random.task_id}: a partially aligned pair with equal answers {answers} (the "
                                  "task must reject it)")
        letters = ""
        answer = answers[variant]
        other_answer = answers[other(variant)]
        contents = shared
        if self.OPTION_COUNT:
            letters = option_letters(self.OPTION_COUNT)
            contents = self.item_options(instance, variant, shared, random.task_id)
            answer = letters[contents.index(answers[variant])]
            other_contents = self.item_options(instance, other(variant), shared, random.task_id)
            other_answer = letters[other_contents.index(answers[other(variant)])]
        question = self.question(instance, variant, letters, contents)
        metadata = self.pair_metadata(instance, variant, pair, other_answer, answers, contents)
        if level is not None:
            metadata["difficulty_knobs"] = dict(instance.knobs)
        options = None
        if self.OPTION_COUNT:
            options = tuple(letters) if self.PICTURE_OPTIONS else contents
        fr = self.frame_for(instance, variant)
        return Problem(question=question, answer=answer, image_size=fr.size, params={**params, **instance.params},
                       options=options, answer_type=self.ANSWER_TYPE, variant=variant,
                       pair=pair_key(random.task_id, random.seed, pair), metadata=metadata,
                       structure=(instance, letters, contents))

    def pair_problem(self, params, random, pair: int) -> tuple[Instance, tuple[str, ...] | None]:
        """The pair's instance and option contents (None without options): built from ``random.stream("pair",
        pair)`` only, then the options arranged with the correct letter at ``random.balanced(k, "answer",
        position=pair)``.  The result depends only on (task, version, seed, pair, params), so the last few are
        kept (``PAIR_CACHE``): the second item of a pair reuses the first's instead of building it again."""
        key = (random.task_id, random.version, random.seed, pair, _params_key(params))
        cache = _PAIR_CACHE.setdefault(id(self), {})
        if key in cache:
            return cache[key]
        rng = random.stream("pair", pair)
        instance = self.build_pair(params, random, pair, rng, params.get("difficulty"))
        contents = None
        if self.OPTION_COUNT and not self.OWN_OPTIONS:
            answers = {v: str(instance.answers[v]) for v in VARIANTS}
            position = random.balanced(self.OPTION_COUNT, "answer", position=pair)
            try:
                contents = arrange(self.OPTION_COUNT, position, answers, instance.distractors, rng)
            except ValueError as exc:
                raise GenerationError(f"{random.task_id}: {exc}") from None
        if len(cache) >= PAIR_CACHE:
            cache.pop(next(iter(cache)))
        cache[key] = (instance, contents)
        return instance, contents

    def item_options(self, instance: Instance, variant: str, shared: tuple[str, ...] | None, task_id: str
                     ) -> tuple[str, ...]:
        """``variant``'s option contents: the pair's shared list, or with ``OWN_OPTIONS`` the item's own
        (``instance.facts["options"][variant]``), checked: distinct, the item's answer at ``facts["answer_rank"]``
        and the other reading's answer absent (GenerationError otherwise: a bug of the task)."""
        if not self.OWN_OPTIONS:
            return shared
        contents = tuple(str(v) for v in instance.facts["options"][variant])
        rank = int(instance.facts["answer_rank"])
        mine, theirs = str(instance.answers[variant]), str(instance.answers[other(variant)])
        if (len(set(contents)) != len(contents) or len(contents) != self.OPTION_COUNT or contents[rank] != mine
                or theirs in contents):
            raise GenerationError(f"{task_id}: the {variant} options {list(contents)} must be {self.OPTION_COUNT} "
                                  f"distinct values with the answer {mine} at rank {rank} and without the other "
                                  f"reading's {theirs}")
        return contents

    def pair_metadata(self, instance: Instance, variant: str, pair: int, other_answer: str,
                      answers: Mapping[str, str], contents: tuple[str, ...] | None) -> dict[str, Any]:
        """The metadata the base writes (``PAIR_KEYS``, ``other_answer`` for partial tasks, the scene with
        ``rows``, ``cols``, ``geometry``, ``frame``, ``image_size`` and, for picture options, ``option_boxes``
        (the core's conformance suite rolls the panels)) plus the instance's facts."""
        metadata: dict[str, Any] = {
            "category": self.CATEGORY, "sub_category": self.SUB_CATEGORY, "boundary": self.BOUNDARY,
            "alignment": self.ALIGNMENT, "alignment_table": self.table_alignment(), "rendering": variant,
            "pair_index": pair, "dims": instance.dims(),
        }
        if self.ALIGNMENT == "partial":
            metadata["other_answer"] = other_answer
            if contents is not None:
                metadata["other_answer_content"] = answers[other(variant)]
        metadata.update(instance.facts)
        fr = self.frame_for(instance, variant)
        metadata["scene"] = {**instance.scene, "rows": instance.rows, "cols": instance.cols,
                             "geometry": dict(instance.geometry), "frame": dict(instance.frame),
                             "image_size": list(fr.size)}
        if self.PICTURE_OPTIONS:
            metadata["scene"]["option_boxes"] = [[int(v) for v in box] for box in fr.options]
        return metadata

    def frame_for(self, instance: Instance, variant: str) -> kdraw.Frame:
        """The frame of ``variant``'s image from the instance's frame settings."""
        return frame_from(instance.frame, variant, instance.geometry)

    def canvas_for(self, instance: Instance, variant: str, rows: int | None = None,
                   cols: int | None = None) -> kdraw.Canvas:
        """A blank canvas for ``variant``'s image: its frame (``frame_for``) and the layout of a ``rows`` x
        ``cols`` grid (default the instance's) with the instance's geometry; ``canvas.layout`` is the layout."""
        fr = self.frame_for(instance, variant)
        layout = kdraw.make_layout(variant, instance.rows if rows is None else rows,
                                   instance.cols if cols is None else cols, fr, instance.geometry)
        return kdraw.Canvas(fr, layout)

    def render(self, problem: Problem):
        instance, letters, contents = problem.structure
        return [self.draw(instance, problem.variant, letters, contents)]

    def scoring_hints(self, item) -> dict[str, Any]:
        """For a coordinate answer, the words that name its components in the item's rendering, in the
        answer's order ((row, column) or (ring, sector)), so that "sector 5, ring 3" reads as (3, 5)."""
        if item.answer_type != "coordinate":
            return {}
        if item.variant == "polar":
            return {"keywords": [["ring"], ["sector"]]}
        return {"keywords": [["row"], ["column", "col"]]}

    def distractors(self, problem: Problem, count: int, random) -> list[str]:
        """Wrong answers: the other letters for a multiple-choice task; for a count, the other rendering's
        answer first (a partially aligned task's most plausible slip), then near misses >= 0."""
        if problem.options is not None and problem.answer_type == "option":
            return [x for x in option_letters(len(problem.options)) if x != problem.answer][:count]
        if problem.answer_type != "integer":
            return []
        value = int(problem.answer)
        out: list[str] = []
        other_answer = problem.metadata.get("other_answer")
        if other_answer is not None and other_answer != problem.answer:
            out.append(str(other_answer))
        for delta in (1, -1, 2, -2, 3, -3, 5, -5):
            text = str(value + delta)
            if value + delta >= 0 and text not in out and text != problem.answer:
                out.append(text)
        return out[:count]

    def table_alignment(self) -> str:
        """The alignment the paper's tables mark: ``TABLE_ALIGNMENT``, or ``ALIGNMENT`` when it is None."""
        return self.ALIGNMENT if self.TABLE_ALIGNMENT is None else self.TABLE_ALIGNMENT

    def _check_declaration(self) -> None:
        if (self.BOUNDARY not in BOUNDARIES or self.ALIGNMENT not in ALIGNMENTS or not self.CATEGORY
                or self.table_alignment() not in ALIGNMENTS):
            raise GenerationError(f"{type(self).__name__}: declare CATEGORY, BOUNDARY in {BOUNDARIES} and ALIGNMENT "
                                  f"and TABLE_ALIGNMENT (or None) in {ALIGNMENTS} (got {self.CATEGORY!r}, "
                                  f"{self.BOUNDARY!r}, {self.ALIGNMENT!r}, {self.TABLE_ALIGNMENT!r})")

    def verify(self, item, images) -> list[str]:
        """The pair metadata's failures (``pair_failures``) and those of the task's verifier module
        (``VERIFIER``), reading the pixels through ``layout_of``."""
        if not self.VERIFIER:
            raise NotImplementedError(f"{type(self).__name__}: set VERIFIER or override verify")
        module = importlib.import_module(f"bench_plugin_polaris.verifiers.{self.VERIFIER}")
        return self.pair_failures(item) + module.verify(item, images, self.layout_of)

    # --- helpers for verifiers ---------------------------------------------------------------------------
    def pair_failures(self, item) -> list[str]:
        """What is inconsistent in the pair metadata the base wrote: the rendering against the item's index and
        ``variant`` setting, the declared category / boundary / alignment / table alignment, the dims against the
        scene, and ``other_answer`` (present, and different unless allowed, for partial tasks; absent for full ones)."""
        failures = []
        meta = item.metadata
        missing = [k for k in PAIR_KEYS if k not in meta]
        if missing:
            return [f"the record lacks the pair metadata {missing}"]
        try:
            pair, variant = pair_position(item.index, item.params.get("variant") or "both")
        except ValueError as exc:
            return [str(exc)]
        if (meta["rendering"], meta["pair_index"], item.variant) != (variant, pair, variant):
            failures.append(f"item {item.index} should be the {variant} item of pair {pair}, the record says "
                            f"{meta['rendering']} / pair {meta['pair_index']} / variant {item.variant}")
        declared = (self.CATEGORY, self.SUB_CATEGORY, self.BOUNDARY, self.ALIGNMENT, self.table_alignment())
        recorded = (meta["category"], meta["sub_category"], meta["boundary"], meta["alignment"],
                    meta["alignment_table"])
        if declared != recorded:
            failures.append(f"category/sub-category/boundary/alignment/alignment_table {recorded} differ from the "
                            f"task's {declared}")
        scene = meta.get("scene") or {}
        extra = int((scene.get("geometry") or {}).get("extra_sectors", 0))
        want = {"cartesian": [scene.get("rows"), scene.get("cols")],
                "polar": [scene.get("rows"), (scene.get("cols") or 0) + extra]}
        if meta["dims"] != want:
            failures.append(f"dims {meta['dims']} do not match the scene's {want}")
        if self.ALIGNMENT == "partial":
            if "other_answer" not in meta:
                failures.append("a partially aligned item lacks other_answer")
            elif self.OWN_OPTIONS:
                theirs = str(meta.get("other_answer_content"))
                if meta["other_answer"] != item.answer or theirs in (item.options or ()):
                    failures.append(f"own options: the other reading's answer {theirs!r} must be absent from the "
                                    f"options {list(item.options or ())} and its letter {meta['other_answer']!r} "
                                    f"equal the answer {item.answer!r}")
            elif meta["other_answer"] == item.answer and not self.SAME_ANSWER_ALLOWED:
                failures.append(f"other_answer {meta['other_answer']!r} equals the answer (a partial pair must differ)")
        elif "other_answer" in meta:
            failures.append("a fully aligned item records an other_answer")
        return failures

    def layout_of(self, item):
        """The main panel's layout of the item's rendering, rebuilt from the recorded scene (rows, cols,
        geometry, frame): what the verifier reads pixels through (``cell_at``)."""
        scene = item.metadata["scene"]
        fr = frame_from(scene["frame"], item.variant, scene["geometry"])
        return kdraw.make_layout(item.variant, scene["rows"], scene["cols"], fr, scene["geometry"])


def first_found(attempts: int, draw: Callable[[], Any], failure: str) -> Any:
    """The first of up to ``attempts`` results of ``draw()`` that is not None (bounded retries of a task's
    rejection sampling); GenerationError(``failure``) when every draw is rejected."""
    for _attempt in range(attempts):
        found = draw()
        if found is not None:
            return found
    raise GenerationError(failure)


def _params_key(params: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in params.items()}, sort_keys=True, default=str)


def frame_from(settings: Mapping[str, Any], variant: str, geometry: Mapping[str, Any] | None = None) -> kdraw.Frame:
    """The frame of ``variant`` from recorded frame settings (panel, legend_lines, options, option_side,
    font_px -- from ``geometry`` when the frame does not say; defaults of ``kit.draw.frame`` for the rest)."""
    keys = ("panel", "legend_lines", "options", "option_side", "font_px")
    chosen = {k: settings[k] for k in keys if k in settings}
    if "font_px" not in chosen and geometry and "font_px" in geometry:
        chosen["font_px"] = geometry["font_px"]
    return kdraw.frame(variant, **chosen)
