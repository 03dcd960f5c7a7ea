"""The base class of every Mind's Eye task: balanced answer positions, layout, prompt styles, option
roles in metadata, the scene record, and the generic verify checks on the written item.

Verify reads only the item: ``metadata.scene`` holds a JSON description of every panel as drawn (query
panels and options in letter order, with their boxes on the canvas).  The task's ``solve_scene`` re-derives
from those descriptions which options satisfy the rule (exactly one must, and it must be the answer); its
``sketch`` draws each description crudely by code of its own, and every panel cut from the PNG at its box
must look like its own sketch and not like the sketch of any other panel (so an option drawn in the wrong
slot, or a panel that shows something else than its record, fails).  Options must differ visibly and no
nuisance feature (ink, extent, saturation) may single out the answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, product
from typing import Any, ClassVar

import numpy as np
from PIL import Image

from bench_core import Item, ItemRandom, Problem, TaskImplementation, option_letters
from bench_plugin_mindseye.descriptions.common import DIFFICULTIES, PROMPT_STYLES, tier_of
from bench_plugin_mindseye.layout import SIZES, Layout, best_layout, grey_palette_image, grey_panel
from bench_plugin_mindseye.nuisance import FRAME, INK_THRESHOLD, plane_features, singled_out
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus, arrange
from bench_plugin_mindseye.prompts import PromptTexts, build_question
from bench_plugin_mindseye.spreading import cycled, least_shown

#: Parameter name -> its values (``MindsEyeTask.cycled_choices``).
Choices = dict[str, tuple[Any, ...]]
#: Parameter name -> (turn, why) (``MindsEyeTask.turns``).
Turns = dict[str, tuple[int, str]]
#: Parameter name -> tier -> the values that tier can take (``MindsEyeTask.tier_values``).
TierValues = dict[str, dict[str, tuple[Any, ...]]]


def follows(by_tier: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    """A ``tier_values`` entry for a parameter that takes one value per tier (``by_tier``: tier -> value)."""
    return {tier: (value,) for tier, value in by_tier.items()}


class MindsEyeTask(TaskImplementation):
    """Subclasses set the class attributes and implement ``build``, ``draw_query``, ``draw_option``, ``solve``."""

    code: ClassVar[str]
    art: ClassVar[str]
    texts: ClassVar[PromptTexts]
    option_count: ClassVar[int] = 4
    option_columns: ClassVar[int] = 4
    query_count: ClassVar[int] = 1
    #: Nuisance audit: how far (times the foils' spread, plus a floor) the answer may stand out.
    nuisance_factor: ClassVar[float] = 2.0
    nuisance_floor: ClassVar[dict[str, float]] = {"ink": 0.01, "extent": 0.05, "saturation": 0.03}
    #: Mean absolute pixel difference (0-255) below which two options count as looking the same.
    min_option_difference: ClassVar[float] = 1.0
    #: Least fraction of a panel's drawn pixels (ink in the panel or in its sketch) that must agree with its
    #: sketch.
    sketch_agreement: ClassVar[float] = 0.5
    #: Parameters that, when unset, ``generate`` fills in per source from one seeded order of their values
    #: repeated (``spreading.cycled``), so any run of n items shows min(n, values) of them: name -> values.
    #: They reach ``build`` in ``params`` and are recorded there.  The difficulty tier is always spread so.
    cycled_choices: ClassVar[Choices] = {}
    #: Spread parameters (or "difficulty") whose order turns (``spreading``) so that they do not lock to
    #: another spread parameter: name -> (turn, why).
    turns: ClassVar[Turns] = {}
    #: Parameters that, when unset, follow the difficulty tier: name -> tier -> the values that tier can take.
    tier_values: ClassVar[TierValues] = {}

    # -- what a task implements ------------------------------------------------------------------
    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        """The stimulus: query contents and options (one correct, one confound, fillers).  ``plan`` is the
        item's size plan (``plan``) for tasks that draw options at free sizes; None when the task has none or
        the stimulus is built on its own (a task that uses one then draws it from ``rng``)."""
        raise NotImplementedError

    def plan(self, params: Mapping[str, Any], random: ItemRandom, source: int) -> SizePlan | None:
        """The choices ``build`` must honour that are balanced over consecutive items of one run (keyed by
        ``source``, like the answer letter): None here; tasks whose options are drawn at free sizes return where
        the answer sits in the size order (``balancing``)."""
        return None

    def draw_query(self, content: Any, side: int) -> Image.Image:
        """One query panel, ``side`` x ``side`` pixels."""
        raise NotImplementedError

    def draw_option(self, content: Any, side: int) -> Image.Image:
        """One option panel, ``side`` x ``side`` pixels."""
        raise NotImplementedError

    def describe(self, content: Any, side: int) -> dict[str, Any]:
        """A JSON description of one panel's content as drawn in a ``side`` x ``side`` tile (geometry, colours;
        floats quantised), complete enough for ``solve_scene`` and ``sketch``."""
        raise NotImplementedError

    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        """Indices of the options (``scene["options"]``, letter order) that satisfy the task's rule, found from
        the descriptions alone by code that shares nothing with the generator's construction or acceptance
        checks, and without reading roles or templates."""
        raise NotImplementedError

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        """A crude RGB rendering (``side`` x ``side`` x 3, uint8) of one description by code independent of
        ``draw_query``/``draw_option``, used to confirm which panel the pixels at each box show."""
        raise NotImplementedError

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        if params["prompt"] != "all":
            return super().expand(params, count)
        base = super().expand(params, count)
        return [{**p, "prompt": style, "source": p["source"] if p["source"] is not None else i}
                for i, p in enumerate(base) for style in PROMPT_STYLES]

    # -- the shared machinery --------------------------------------------------------------------
    def layout(self, size: str) -> Layout:
        """The item's layout on the canvas ``size``: of the legible arrangements of its panels that keep the
        reading order (``layout.arrangements``: the paper's query row over option rows, the options in fewer
        columns, a single query panel beside an option grid), the one with the largest tile."""
        return best_layout(SIZES[size], self.query_count, self.option_count, self.option_columns)

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        source = params["source"] if params["source"] is not None else random.index
        level = params["difficulty"]
        if level is None:  # unset: the paper's three tiers spread over consecutive items
            difficulty = DIFFICULTIES[cycled(random, len(DIFFICULTIES), "difficulty", source, self._turn("difficulty"))]
        else:
            difficulty = level if level in DIFFICULTIES else tier_of(level)
        params = self.spread(params, random, source)
        rng = random.stream("stimulus", source, difficulty)
        stimulus = self.build(rng, difficulty, params, self.plan(params, random, source))
        if len(stimulus.options) != self.option_count:
            raise ValueError(f"{self.code} built {len(stimulus.options)} options, needs {self.option_count}")
        position = random.balanced(self.option_count, "answer", position=source)
        shown = arrange(stimulus.options, position, rng)
        letters = option_letters(self.option_count)
        query_boxes, option_boxes = self.layout(params["size"]).boxes()
        metadata = {
            "code": self.code,
            "art": self.art,
            "difficulty": difficulty,
            "prompt": params["prompt"],
            "source": source,
            "confound": letters[next(k for k, o in enumerate(shown) if o.role == "confound")],
            "options": [
                {"label": letters[k], "role": o.role, "template": o.template, "latent": dict(o.latent),
                 "bbox": list(option_boxes[k])}
                for k, o in enumerate(shown)
            ],
            "query_bboxes": [list(b) for b in query_boxes],
            **dict(stimulus.facts),
            "scene": self.scene(stimulus, shown, params["size"]),
        }
        if level is not None:  # a normalised level was asked for: the tier and knobs it gave
            metadata["difficulty_knobs"] = {"tier": difficulty, **dict(stimulus.facts.get("knobs") or {})}
        pair = f"{random.seed}:{source}:{difficulty}:{params['size']}" if params["source"] is not None else None
        return Problem(
            question=build_question(self.texts, params["prompt"], letters),
            answer=letters[position],
            image_size=tuple(SIZES[params["size"]]),
            params=params,
            options=tuple(letters),
            answer_type="option",
            variant=params["prompt"],
            pair=pair,
            metadata=metadata,
            structure=(stimulus, tuple(shown)),
        )

    def spread_choices(self) -> dict[str, tuple[Any, ...]]:
        """The parameters spread over the sources when unset, with their values (``cycled_choices``)."""
        return dict(self.cycled_choices)

    def _turn(self, name: str) -> int | None:
        return self.turns[name][0] if name in self.turns else None

    def spread(self, params: Mapping[str, Any], random: ItemRandom, source: int) -> dict[str, Any]:
        """``params`` with every unset spread parameter (``spread_choices``) filled in for ``source``."""
        filled = dict(params)
        for name, values in self.spread_choices().items():
            if filled.get(name) is None:
                filled[name] = values[cycled(random, len(values), name, source, self._turn(name))]
        return filled

    def categorical_coverage(self, name: str, params: Mapping[str, Any], start: int, count: int
                             ) -> tuple[int, str] | None:
        """The fewest distinct values of parameter ``name`` that items ``start .. start + count - 1`` of a run
        with ``params`` can show, and why, where that is less than min(count, number of values); None where
        the run is certain to show that many.  (Read by the repository's categorical-coverage test.)

        Spread parameters and the difficulty tier show one value per place of their order the run reaches
        (fewer across a turn); a parameter that follows the tier shows what the fewest tiers the run is
        certain to reach can take; a set parameter shows one value.  Items of one source share all of them
        (``prompt=all`` writes five items per source)."""
        spread = {"difficulty": DIFFICULTIES, **self.spread_choices()}
        values = spread.get(name) or tuple({v for vs in self.tier_values.get(name, {}).values() for v in vs})
        if not values:
            return None
        wanted = min(count, len(values))
        if params.get(name) is not None:
            return 1, f"{name} is set"
        sources = self._sources(params, start, count)
        tiers = least_shown(len(DIFFICULTIES), sources, self._turn("difficulty"))
        if name in spread:
            least = least_shown(len(values), sources, self._turn(name))
            why = (f"{name} comes from one seeded order of its {len(values)} values repeated over the sources, "
                   + (f"turning every {self.turns[name][0]} ({self.turns[name][1]}): a run across a turn shows "
                      "one value fewer" if name in self.turns else "and the run covers fewer sources"))
        elif params.get("difficulty") is not None:
            least, why = 1, f"{name} follows the difficulty, which is set"
        else:
            by_tier = self.tier_values[name]
            least = min(len(set(pick)) for shown in combinations(DIFFICULTIES, tiers)
                        for pick in product(*(by_tier[t] for t in shown)))
            why = (f"{name} follows the difficulty tier ({_tier_summary(by_tier)}) and the run is certain to "
                   f"reach only {tiers} of the three tiers, not which")
        return None if least >= wanted else (least, why)

    @staticmethod
    def _sources(params: Mapping[str, Any], start: int, count: int) -> range:
        """The sources of items ``start .. start + count - 1``: one when ``source`` is set, one per five items
        with ``prompt=all``, else one per item."""
        if params.get("source") is not None:
            return range(int(params["source"]), int(params["source"]) + 1)
        if params.get("prompt") == "all":
            styles = len(PROMPT_STYLES)
            return range(start // styles, (start + count - 1) // styles + 1)
        return range(start, start + count)

    def difficulty_position(self, params: Mapping[str, Any], random: ItemRandom) -> int:
        """Items of one ``source`` (the prompt styles of one stimulus) share their difficulty level."""
        return params["source"] if params["source"] is not None else random.index

    def hardness(self, item: Item) -> float:
        """The task's hardness proxy (its ``Difficulty.proxy``) from the knobs recorded in the item."""
        return float(self.knob_hardness(item.metadata["knobs"]))

    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Knob points of a stimulus's structural knobs, rising from the easy to the hard tier."""
        raise NotImplementedError(f"{type(self).__name__} declares no hardness proxy")

    def scene(self, stimulus: Stimulus, shown: Sequence[Option], size: str) -> dict[str, Any]:
        """The scene record: canvas size, tile side, panel boxes and a description of every panel."""
        layout = self.layout(size)
        query_boxes, option_boxes = layout.boxes()
        side = layout.tile
        return {
            "image_size": list(SIZES[size]),
            "arrangement": layout.name,
            "tile": side,
            "query_boxes": [list(b) for b in query_boxes],
            "option_boxes": [list(b) for b in option_boxes],
            "query": [self.describe(content, side) for content in stimulus.query],
            "options": [self.describe(o.content, side) for o in shown],
        }

    def render(self, problem: Problem) -> list[Image.Image]:
        stimulus, shown = problem.structure
        layout = self.layout(problem.params["size"])
        side = layout.tile
        query = [self.draw_query(content, side) for content in stimulus.query]
        options = [self.draw_option(o.content, side) for o in shown]
        greys = [grey_panel(panel) for panel in (*query, *options)]
        if all(panel is not None for panel in greys):
            # every panel in neutral greys (as the frame and captions are): the composite is composed in one
            # channel and handed to the core as the palette image it would make of its RGB form (same PNG)
            query, options = greys[:len(query)], greys[len(query):]
            image, _ = layout.compose(query, options, stimulus.query_captions, option_letters(self.option_count))
            return [grey_palette_image(image)]
        image, _ = layout.compose(query, options, stimulus.query_captions, option_letters(self.option_count))
        return [image]

    def sketches(self, descriptions: Sequence[Mapping[str, Any]], side: int) -> list[np.ndarray]:
        """``sketch`` of every description, in order (the panels ``verify`` compares with their pixels); a task
        whose verifier sketches several panels more cheaply at once overrides this."""
        return [self.sketch(d, side) for d in descriptions]

    def verify(self, item: Item, images: Sequence[Image.Image],
               tiles: tuple[list[np.ndarray], list[np.ndarray]] | None = None) -> list[str]:
        """The generic checks.  ``tiles``: the query and option panels already cut from ``images[0]`` as these
        checks cut them (``panel_tiles``), for a task whose own checks read the same panels; cut here if None."""
        scene = item.metadata["scene"]
        letters = option_letters(len(scene["options"]))
        failures = []
        if list(item.options or ()) != list(letters):
            failures.append(f"options {item.options} are not the letters {list(letters)} of the scene's options")
            return failures
        satisfied = self.solve_scene(scene)
        answer = letters.index(item.answer)
        if satisfied != [answer]:
            found = [letters[k] for k in satisfied]
            failures.append(f"the scene solver finds options {found} correct, the answer is {item.answer}")
        image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
        side = scene["tile"]
        if tiles is None:
            option_tiles = _tiles(image, scene["option_boxes"])
            query_tiles = _tiles(image, scene["query_boxes"])
        else:
            query_tiles, option_tiles = tiles
        failures += panel_identity_failures(
            option_tiles, self.sketches(scene["options"], side), list(letters), self.sketch_agreement
        )
        failures += panel_identity_failures(
            query_tiles, self.sketches(scene["query"], side),
            [f"query {k + 1}" for k in range(len(query_tiles))], self.sketch_agreement,
        )
        planar = [np.ascontiguousarray(tile.transpose(2, 0, 1)) for tile in option_tiles]  # channels first
        failures += [f"options {letters[i]} and {letters[j]} look the same"
                     for i, j in lookalike_pairs(planar, self.min_option_difference)]
        features = [plane_features([p[c, FRAME:-FRAME, FRAME:-FRAME] for c in range(3)]) for p in planar]
        for name, floor in self.nuisance_floor.items():
            if singled_out([f[name] for f in features], answer, self.nuisance_factor, floor):
                failures.append(f"nuisance feature {name!r} singles out the answer")
        return failures

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        """The letters of wrong options, the designated confound first."""
        confound = problem.metadata["confound"]
        others = [o["label"] for o in problem.metadata["options"] if o["role"] == "filler"]
        return [confound, *others][:count]


def _tier_summary(by_tier: Mapping[str, Sequence[Any]]) -> str:
    return ", ".join(f"{tier} {' or '.join(str(v) for v in values)}" for tier, values in by_tier.items())


#: Two colours closer than this (largest channel difference) count as the same colour.
COLOUR_MATCH = 80
#: Pixels where two sketches differ that a panel must have before they can tell panels apart.
MIN_DISCRIMINATING_PIXELS = 12


def _tiles(image: Image.Image, boxes: Sequence[Sequence[int]]) -> list[np.ndarray]:
    """The pixels of ``image`` (RGB) inside each box (a box off the canvas padded as Pillow pads), as arrays.  Each
    box is cropped before its pixels are converted: the panels need not cover the canvas."""
    return [np.asarray(image.crop(tuple(int(v) for v in box))) for box in boxes]


def panel_tiles(image: Image.Image, scene: Any) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """The query and the option panels of ``scene`` cut from ``image`` as ``MindsEyeTask.verify`` cuts them, for
    a task that reads them in its own checks too: only when ``image`` is RGB and every box four whole numbers
    (so a box reads the same however it is rounded); None otherwise, or when the scene cannot be read (the
    checks then cut, and report, on their own)."""
    try:
        if getattr(image, "mode", None) != "RGB":
            return None
        boxes = [scene["query_boxes"], scene["option_boxes"]]
        if not all(isinstance(group, list) and all(
                isinstance(box, list) and len(box) == 4 and all(type(v) is int for v in box) for box in group)
                for group in boxes):
            return None
        return _tiles(image, boxes[0]), _tiles(image, boxes[1])
    except Exception:
        return None


def _planes_sum(planes: np.ndarray) -> np.ndarray:
    """Red + green + blue of a panel given channels first (3 x rows x columns), as int16 (three times the grey
    level of the channel mean)."""
    total = planes[0].astype(np.int16)
    total += planes[1]
    total += planes[2]
    return total


def lookalike_pairs(planar: Sequence[np.ndarray], min_difference: float) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, of panels of one size (each channels first: 3 x rows x columns, uint8) whose grey
    levels (channel means) differ by less than ``min_difference`` on average: the absolute differences of the
    channel sums (thirds of a level, whole numbers) summed, first over the middle third of the rows only.  No
    term being negative, a pair whose middle rows already differ by enough differs by enough in all, and only
    the other pairs are summed over every row."""
    bands = [slice(p.shape[1] // 3, p.shape[1] // 3 + -(-p.shape[1] // 3)) for p in planar]
    middle = [_planes_sum(p[:, band]) for p, band in zip(planar, bands, strict=True)]
    whole: dict[int, np.ndarray] = {}
    pairs = []
    for i in range(len(planar)):
        for j in range(i + 1, len(planar)):
            if planar[i].shape != planar[j].shape:
                continue
            limit = 3 * min_difference * (planar[i].shape[1] * planar[i].shape[2])
            if float(np.abs(middle[i] - middle[j]).sum()) >= limit:
                continue
            for k in (i, j):
                if k not in whole:
                    whole[k] = _planes_sum(planar[k])
            if float(np.abs(whole[i] - whole[j]).sum()) < limit:
                pairs.append((i, j))
    return pairs


class _HalfPanel:
    """A panel's pixels inside its frame at half resolution (2x2 box means, rounded down; an odd last row or
    column dropped), computed once for all of panel identity's checks: panel identity needs no finer detail, and a
    quarter of the pixels makes the comparison four times cheaper.  ``shape`` is (rows, columns, channels),
    ``colours`` the int16 channel planes flattened (channels, pixels), ``darkest`` each pixel's darkest channel."""

    def __init__(self, pixels: np.ndarray):
        inner = pixels[FRAME:-FRAME, FRAME:-FRAME]
        h, w, channels = inner.shape[0] // 2 * 2, inner.shape[1] // 2 * 2, inner.shape[2]
        rows = inner[0:h:2, :w].astype(np.int16)  # each pair of rows summed, then each pair of columns
        rows += inner[1:h:2, :w]
        flat = rows.reshape(h // 2, w * channels)
        planes = np.empty((channels, h // 2, w // 2), np.int16)
        for c in range(channels):  # channel c of the even and of the odd columns
            np.add(flat[:, c :: 2 * channels], flat[:, channels + c :: 2 * channels], out=planes[c])
        planes >>= 2  # the sums are not negative: the same as // 4
        self.shape = (h // 2, w // 2, channels)
        self.colours = planes.reshape(channels, -1)
        self.darkest = self.colours.min(axis=0)

    def at(self, indices: np.ndarray) -> np.ndarray:
        """The colours (channels, len(indices)) of the pixels at flat ``indices``."""
        return self.colours.take(indices, axis=1)

    def ink(self) -> np.ndarray:
        """Pixels whose darkest channel is more than ``INK_THRESHOLD`` below white."""
        return self.darkest < 255 - INK_THRESHOLD


def _colour_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Largest channel difference between two int16 colour arrays of shape (3, ...), channels first."""
    d = np.abs(a - b)
    return np.maximum(np.maximum(d[0], d[1]), d[2])


def panel_identity_failures(
    tiles: Sequence[np.ndarray], sketches: Sequence[np.ndarray], names: Sequence[str], agreement: float
) -> list[str]:
    """Panels whose pixels do not show their own description (``tiles`` and ``sketches``: uint8 RGB arrays).

    Panel k must agree with its own sketch, both at half resolution, on at least ``agreement`` of the pixels
    drawn in either (the frame excluded), and on the pixels where sketch k and sketch j differ, its colours
    must be nearer to sketch k than to sketch j for most of them (so a panel drawn in another panel's slot is
    caught).  Each pair of sketches is compared once, and panels only at the pixels where the pair differs.
    """
    failures = []
    inner = [_HalfPanel(t) for t in tiles]
    drawn = [_HalfPanel(s) for s in sketches]
    usable = []
    for k, (tile, own) in enumerate(zip(inner, drawn, strict=True)):
        if tile.shape != own.shape:
            failures.append(f"panel {names[k]}: sketch is {own.shape}, panel is {tile.shape}")
            continue
        usable.append(k)
        support = np.flatnonzero(tile.ink() | own.ink())
        if support.size:
            distance = _colour_distance(tile.at(support), own.at(support))
            match = float((distance < COLOUR_MATCH).mean())
            if match < agreement:
                failures.append(f"panel {names[k]} does not show what the scene records ({match:.0%} agreement)")
    # two colours both nearer than COLOUR_MATCH / 2 to white cannot differ by COLOUR_MATCH: only pixels
    # drawn in one of the two sketches can tell them apart
    drawn_at = {k: _colour_distance(drawn[k].colours, np.int16(255)) >= COLOUR_MATCH / 2 for k in usable}
    for a_pos, a in enumerate(usable):
        for b in usable[a_pos + 1 :]:
            if drawn[a].shape != drawn[b].shape:
                continue
            candidates = np.flatnonzero(drawn_at[a] | drawn_at[b])
            differ = _colour_distance(drawn[a].at(candidates), drawn[b].at(candidates)) >= COLOUR_MATCH
            where = candidates[differ]
            if where.size < MIN_DISCRIMINATING_PIXELS:
                continue
            sketch_a, sketch_b = drawn[a].at(where), drawn[b].at(where)
            for k, j, own, other in ((a, b, sketch_a, sketch_b), (b, a, sketch_b, sketch_a)):
                pixels = inner[k].at(where)
                if float((_colour_distance(pixels, own) < _colour_distance(pixels, other)).mean()) <= 0.5:
                    failures.append(f"panel {names[k]} looks more like the record of panel {names[j]}")
    return failures
