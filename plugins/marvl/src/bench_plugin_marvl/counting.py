"""``marvl/counting``: how many local maxima (or minima, or both) does the plotted landscape show?

MaRVL-QA's topological counting task (paper §3.2.1, appendix A.3).  An item is one function of a
countable family (paper Table 5), drawn aiming at a target count, counted by the extremum engine
(``extrema.analyse``), certified by the visibility gates (``certify.certify``) and drawn in one of the nine
styles.  Draws that fail a gate or miss the target are discarded and counted by reason code in the
item's metadata (``certifier.rejected``).  The drawn grid is quantised (``plotting.quantise``) and the item
stores a scene record (``metadata["scene"]``: the function, sampling, plot box, style, colour range,
contour levels, counted kinds and extrema); ``verifiers.counting`` proves the item from that record and
the PNG alone, with its own evaluation of the formula, its own extremum count and a reading of the pixels.

Design choices, with their sources:

* counts 1-20 in the paper's four bins with base-question weights 71/65/30/6 (Tables 10-12, spec §2.3);
* the choice format (ours: the paper asks for the number) shows four consecutive counts; the count is drawn
  with its window (``WINDOWS``) and its rank in the window balanced, so the options alone do not tell the
  answer (the blind-option audit);
* maxima and minima questions balanced (the paper has 81 and 91 base questions), "both" on request;
* families and styles spread over the indices (issue 10): one seeded order of the nine styles, repeated, and
  in every aligned block of 12 items the 12 families, matched to the items' own counts (``spread_families``);
* the question paraphrases the paper's system prompt rules (A.7) and asks for ``<final_answer>N</final_answer>``;
* the Mini preset is the paper's counting part of MaRVL-QA-Mini (§3.3): 172 functions x 9 styles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bench_core import (
    PNG_LEVEL,
    GenerationError,
    Item,
    ItemRandom,
    ParameterError,
    Problem,
    Score,
    TaskImplementation,
    option_letters,
)
from bench_plugin_marvl.certify import Verdict, certify
from bench_plugin_marvl.descriptions.counting import STYLES
from bench_plugin_marvl.extrema import BAND, Analysis, analyse
from bench_plugin_marvl.functions import COUNTABLE, FAMILIES, FunctionFamily, TargetUnreachable

#: The paper's count bins and their base-question counts (Tables 10-12: 639/585/270/54 items over 9 styles).
BINS: tuple[tuple[int, int, int], ...] = ((1, 5, 71), (6, 10, 65), (11, 15, 30), (16, 20, 6))
#: Base questions of the Mini counting part per feature and bin: 81 maxima and 91 minima functions (Table 12
#: item counts 729 and 819 over 9 styles), split over the bins in proportion ([I], the cross table is not
#: published; the column sums are the paper's 71/65/30/6).
MINI_BASES: dict[str, tuple[int, ...]] = {"maxima": (33, 31, 14, 3), "minima": (38, 34, 16, 3)}
#: Function draws per family before the generator turns to another family or a neighbouring count.
DRAWS = 40
#: The zlib level of the item's PNG (``bench_core.PNG_LEVEL``; the core's RGB default is 4), chosen by measurement on
#: 30 items (seed 77): these 640 x 640 anti-aliased plots (RGB, row filters on) encode in ~11.8 ms at level 1 against
#: ~15.0 at 4 and ~23.7 at 6, writing ~191 KiB against ~173 and ~166; decoding takes ~4 ms at any of them.
ZLIB_LEVEL = 1
#: Relief (fraction of the plot's range) below which an unresolved group of critical points is float noise
#: on a flat spot: a thousandth of the range is far below one of a colour map's 256 colours.
NOISE_RELIEF = 1e-3
#: Options of the multiple-choice format.
CHOICES = 4
#: Option windows of the multiple-choice format: the options are the four consecutive counts
#: ``[start, start + 3]``, and these are the weights (per 172 sources, like ``BINS``) of start = 1 .. 17.
#: The answer's place in its window is balanced separately, so among the options it is the smallest, the
#: second, third or largest value equally often and every option text is the answer a quarter of the times
#: it is shown: the options alone say nothing about which is right.  The answer's distribution is then the
#: windows' weights spread evenly over their four counts; these weights give exactly the paper's bin totals
#: 71/65/30/6 and come close to a flat distribution inside each bin (a non-negative least-squares fit with a
#: small pull towards even weights, which keeps the windows varied).  A flat one is impossible: the count 1
#: is in one window only, so it is the answer at most a quarter as often as that window is shown.
WINDOWS: tuple[int, ...] = (34, 19, 12, 10, 16, 13, 16, 13, 9, 7, 2, 8, 7, 3, 1, 1, 1)
#: Families a block of ``family_pool`` items can lack when its targets leave a family nothing it can show (e.g.
#: no target in 2-5 for gabor-function): measured over 1,600 blocks (seeds 0-7, open and choice formats),
#: 13 blocks lacked one family and one block two; the other 1,587 showed all 12.
MATCHING_SHORTFALL = 2
#: Counts a difficulty level draws among: the ``LEVEL_SPAN`` consecutive counts from ``level_counts``'s start,
#: which slides from 1 (level 0: counts 1-5) to 16 (level 1: counts 16-20), so that levels 0, 1/3, 2/3 and
#: 1 give exactly the paper's bins 1-5, 6-10, 11-15 and 16-20 (Table 10: accuracy falls with the bin).
LEVEL_SPAN = 5


def bucket(count: int) -> str:
    """The paper's count bin of ``count``: "1-5", "6-10", "11-15" or "16-20"."""
    for lo, hi, _ in BINS:
        if lo <= count <= hi:
            return f"{lo}-{hi}"
    return f"{count}"


def kinds_of(count_type: str) -> tuple[str, ...]:
    """The extremum kinds a ``count_type`` question counts."""
    return ("maxima", "minima") if count_type == "both" else (count_type,)


def eligible(count_type: str, target: int | None = None) -> list[str]:
    """Countable families that can show ``target`` features of ``count_type`` (any target when None)."""
    out = []
    for name in COUNTABLE:
        reach = FAMILIES[name].reachable(count_type)
        if reach and (target is None or target in reach):
            out.append(name)
    return out


#: What the contour-only style's dashes mean (``plotting.DASHES`` "hollows"), said in its questions.
DASH_RULE = ("The plot has black contour lines only: a closed contour line is dashed when the values just inside "
             "it are lower than on the line (it rings a hollow) and solid when they are higher (it rings a rise); "
             "lines that run into the edge of the plot are solid.")


def question(count_type: str, options: Sequence[str] | None = None, lines_only: bool = False) -> str:
    """The question: the paper's wording (Fig. 1) and its four counting rules (A.7), in our own words; for
    the contour-only style (``lines_only``) also how its dashes tell rises from hollows (``DASH_RULE``)."""
    what = {"maxima": "local maxima", "minima": "local minima",
            "both": "local extrema (local maxima and local minima together)"}[count_type]
    lines = [
        "The image is a 2-D plot (heatmap, contour lines, or both) of a surface z = f(x, y); in a heatmap, "
        "bright colours are high values and dark colours low values.",
        *([DASH_RULE] if lines_only else []),
        f"How many {what} are visible in this plot?",
        "Count each distinct peak (a point higher than everything around it) or valley (a point lower than "
        "everything around it) once. Do not count a feature whose highest or lowest point lies on the edge of "
        "the plot. A single flat plateau or flat-bottomed basin counts as one feature. Saddle points, which "
        "rise in some directions and fall in others, are not extrema.",
    ]
    if options is None:
        lines.append("Answer with one integer on its own line, as <final_answer>N</final_answer>.")
    else:
        lines.append("Which number is correct?")
        lines.extend(f"({letter}) {option}" for letter, option in zip(option_letters(len(options)), options,
                                                                      strict=True))
        lines.append("Answer with the letter of the correct option, as <final_answer>X</final_answer>.")
    return "\n".join(lines)


def near_counts(gold: int, rng: np.random.Generator, count: int) -> list[int]:
    """``count`` distinct counts >= 1 near ``gold`` and never equal to it: the closest first (ties in a
    random order), so they are the plausible miscounts of a reader who misses or doubles a feature."""
    pool = [c for c in range(max(1, gold - 2 * count - 2), gold + 2 * count + 3) if c != gold]
    keys = rng.random(len(pool))
    ranked = sorted(range(len(pool)), key=lambda i: (abs(pool[i] - gold), keys[i]))
    return [pool[i] for i in ranked[:count]]


def choice_window(random: ItemRandom, source: int) -> tuple[int, int]:
    """``(start, rank)`` of a multiple-choice item whose count is drawn with its options: the window
    ``[start, start + 3]`` balanced over consecutive sources in proportion to ``WINDOWS``, and the answer's
    rank in it (0 = the smallest option) balanced over consecutive sources, independently."""
    slot = random.balanced(sum(WINDOWS), "option-window", position=source)
    start = 1 + int(np.searchsorted(np.cumsum(WINDOWS), slot, side="right"))
    return start, random.balanced(CHOICES, "answer-rank", position=source)


def window_for(gold: int, rng: np.random.Generator) -> int:
    """Start of an option window holding a count that was fixed beforehand (a set ``count`` or ``family``,
    the Mini preset): drawn among the windows that hold ``gold`` with the weights ``WINDOWS``, the windows'
    conditional distribution when the count comes from ``choice_window``.  Only that draw keeps the rank
    exactly uniform; a fixed count keeps its windows' options as even as the count 1's single window allows."""
    starts = list(range(max(1, gold - CHOICES + 1), gold + 1))
    weights = np.array([WINDOWS[s - 1] if s <= len(WINDOWS) else 0 for s in starts], dtype=float)
    if weights.sum() <= 0:
        weights = np.ones(len(starts))
    return starts[int(rng.choice(len(starts), p=weights / weights.sum()))]


def plot_scale() -> tuple[tuple[int, int], float]:
    """Image size of one plot and rendered pixels per render-grid sample (from the renderer's layout)."""
    from bench_plugin_marvl import plotting

    left, _, right, _ = plotting.axes_boxes("plot", plotting.PLOT_SIZE)[0]
    return tuple(plotting.PLOT_SIZE), (right - left) / plotting.PLOT_GRID


def certify_analysis(analysis: Analysis, kinds: Sequence[str]) -> Verdict:
    """Run the certifier with the renderer's colour range and contour levels."""
    from bench_plugin_marvl import plotting

    vmin, vmax = plotting.value_range(analysis.z)
    _, px = plot_scale()
    return certify(analysis, kinds, levels=plotting.contour_levels(vmin, vmax), vmin=vmin, vmax=vmax,
                   px_per_sample=px)


class Counting(TaskImplementation):
    """Generate, render, verify, score and give distractors for marvl/counting items."""

    _DESIGN_KEYS = ("count_type", "count", "family", "style", "source")

    def __init__(self) -> None:
        super().__init__()
        #: The family matching of recent blocks (``_spread_family``), by (task, version, seed, params, block).
        self._block_cache: dict[tuple, list[str | None]] = {}

    # -- parameters --------------------------------------------------------------------------------------
    def check_params(self, params: Mapping[str, Any]) -> None:
        if params.get("difficulty") is not None and (params["preset"] == "mini" or params["count"] is not None):
            what = "preset=mini sets its own counts" if params["preset"] == "mini" else "count fixes it"
            raise ParameterError(f"difficulty sets the count to draw, but {what}; drop --set difficulty or the "
                                 "other setting")
        if params["preset"] == "mini":
            fixed = [k for k in self._DESIGN_KEYS if params.get(k) is not None]
            if fixed:
                raise ParameterError(f"preset=mini sets {', '.join(self._DESIGN_KEYS)} itself; drop --set "
                                     f"{', '.join(fixed)}")
            return
        count_type, target, name = params["count_type"], params["count"], params["family"]
        types = [count_type] if count_type else ["maxima", "minima"]
        if name is not None:
            family = FAMILIES[name]
            usable = [t for t in types if family.countable(t)]
            if not usable:
                raise ParameterError(
                    f"family {name!r} is not counted for {count_type}; it counts "
                    f"{' and '.join(sorted(family.counts))} (paper Table 5)")
            if target is not None and not any(target in family.reachable(t) for t in usable):
                reach = {t: family.reachable(t) for t in usable}
                raise ParameterError(
                    f"family {name!r} cannot show count={target}; allowed: "
                    + "; ".join(f"{t}: {_ranges(r)}" for t, r in reach.items()))
        elif target is not None and not any(eligible(t, target) for t in types):
            reach = {c for t in types for n in eligible(t) for c in FAMILIES[n].reachable(t)}
            raise ParameterError(f"no family shows count={target} for {count_type}; allowed: {_ranges(sorted(reach))}")

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        if params["preset"] == "mini":
            return mini_design(params)
        return super().expand(params, count)

    # -- generation --------------------------------------------------------------------------------------
    def _draw_design(self, params: Mapping[str, Any], random: ItemRandom, source: int) -> tuple[str, int, str]:
        """(count type, target, family) from the params, drawing what is not fixed.  The draws are keyed by
        the source, so the items of one source (the nine styles of a Mini function) agree."""
        count_type, target = self._type_and_target(params, random, source)
        name = params["family"]
        if name is None:
            name = self._spread_family(params, random, source, count_type, target)
        return count_type, target, name

    def _type_and_target(self, params: Mapping[str, Any], random: ItemRandom, source: int) -> tuple[str, int]:
        """The count type and target count of ``source``: what ``_draw_design`` draws before the family."""
        name = params["family"]
        if params["count_type"]:
            count_type = params["count_type"]
        else:
            types = ["maxima", "minima"]
            if name is not None:
                types = [t for t in types if FAMILIES[name].countable(t)
                         and (params["count"] is None or params["count"] in FAMILIES[name].reachable(t))]
            count_type = types[random.balanced(len(types), "count_type", len(types), position=source)]
        target = params["count"]
        if target is None and windowed(params):
            start, rank = choice_window(random, source)
            target = start + rank  # every counted type reaches 1-20 when the family is free
        if target is None:
            reach = FAMILIES[name].reachable(count_type) if name else sorted(
                {c for n in eligible(count_type) for c in FAMILIES[n].reachable(count_type)})
            if params.get("difficulty") is None:
                target = draw_target(random, source, reach)
            else:
                counts = level_counts(params["difficulty"], reach)
                slot = random.balanced(len(counts), "difficulty-count", counts[0], len(counts), position=source)
                target = counts[slot]
        return count_type, target

    def _spread_family(self, params: Mapping[str, Any], random: ItemRandom, source: int, count_type: str,
                       target: int) -> str:
        """The family of ``source``, spread over sources: the sources come in aligned blocks as long as the
        run's family pool (``family_pool``: 12 families when nothing is set), and within a block every
        source gets a different family that can show its own count type and target, by a maximum matching
        (``spread_families``) of the block's sources, whose types and targets are drawn first.  Where no
        family is left that can show a source's target, the source draws one among those that can."""
        pool = family_pool(params)
        block = source // len(pool)
        members = range(block * len(pool), (block + 1) * len(pool))
        key = (random.task_id, random.version, random.seed, repr(sorted(params.items())), block)
        assignment = self._block_cache.get(key)
        if assignment is None:
            # the block's matching depends on the seed and params alone (no item index): it is worked out once
            # and kept for the block's other items
            options = []
            for member in members:
                member_type, member_target = (count_type, target) if member == source else self._type_and_target(
                    params, random, member)
                options.append([n for n in eligible(member_type, member_target) if n in pool])
            assignment = spread_families(options, random.stream("family-block", block))
            if len(self._block_cache) >= 64:
                self._block_cache.pop(next(iter(self._block_cache)))
            self._block_cache[key] = assignment
        assigned = assignment[source - members.start]
        if assigned is not None:
            return assigned
        names = eligible(count_type, target)
        return names[int(random.stream("family", source, count_type, target).integers(len(names)))]

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        source = params["source"] if params["source"] is not None else random.index
        count_type, target, name = self._draw_design(params, random, source)
        # one seeded order of the nine styles, repeated: any n consecutive items show min(n, 9) styles
        style = params["style"] or STYLES[random.balanced(len(STYLES), "style", position=random.index % len(STYLES))]
        kinds = kinds_of(count_type)
        rng = random.stream("function", source, count_type, target, name)
        found = search(FAMILIES[name], count_type, target, rng, fixed_family=params["family"] is not None)
        family, fparams, analysis, verdict, rejected, draws = found
        gold = verdict.count
        from bench_plugin_marvl import plotting

        kind, cmap = plotting.style_parts(style)
        z = plotting.quantise(analysis.z)  # the values drawn; the scene's parameters rebuild them exactly
        vmin, vmax = plotting.value_range(z)
        size, _ = plot_scale()
        extrema = {k: [e.as_json() for e in analysis.counted(k)] for k in kinds}
        scene = {
            "image_size": list(size),
            "function": {"family": family.name, "params": fparams},
            "sampling": {"samples": plotting.PLOT_GRID, "extent": list(analysis.extent),
                         "decimals": plotting.GRID_DECIMALS},
            "plot_box": plotting.axes_rects_px("plot", size)[0],
            "style": style,
            "plot_type": kind,
            "colormap": cmap,
            "value_range": [vmin, vmax],
            "contour_levels": [] if kind == "heatmap" else plotting.contour_levels(vmin, vmax).tolist(),
            "dashed": "hollows" if kind == "contour" else None,
            "count": {"kinds": list(kinds), "border_band": BAND},
            "extrema": extrema,
        }
        metadata: dict[str, Any] = {
            # the design parameters under their own names, set or drawn (``bench score --by family``)
            "count_type": count_type,
            "family": family.name,
            "style": style,
            "feature": count_type,
            "count_bucket": bucket(gold),
            "target_count": target,
            "target_met": gold == target,
            "plot_style": style,
            "plot_type": kind,
            "colormap": cmap or "none",
            "function_family": family.name,
            "tier": family.tier,
            "source": source,
            "function_params": fparams,
            "extent": list(analysis.extent),
            "extrema": extrema,
            "certifier": {"draws": draws, "rejected": dict(sorted(rejected.items())),
                          "margins": dict(verdict.margins)},
            "scene": scene,
        }
        if params.get("difficulty") is not None:
            window = level_counts(params["difficulty"], range(1, 21))
            metadata["difficulty_knobs"] = {"count": gold, "count_window": [window[0], window[-1]]}
        options = None
        answer = str(gold)
        answer_type = "integer"
        if params["format"] == "choice":
            start, _ = choice_window(random, source)
            if not (windowed(params) and start <= gold < start + CHOICES):
                start = window_for(gold, random.stream("option-window", source, gold))
            wrong = [c for c in range(start, start + CHOICES) if c != gold]
            slot = random.balanced(CHOICES, "answer-slot")
            others = [str(c) for c in (wrong[int(k)] for k in random.rng.permutation(len(wrong)))]
            options = (*others[:slot], str(gold), *others[slot:])
            answer = option_letters(CHOICES)[slot]
            answer_type = "option"
        paired = params["source"] is not None or params["preset"] == "mini"
        pair = f"{random.seed}:{source}:{count_type}:{target}:{family.name}:{params['format']}" if paired else None
        return Problem(
            question=question(count_type, options, lines_only=kind == "contour"),
            answer=answer,
            image_size=size,
            params=params,
            options=options,
            answer_type=answer_type,
            variant=count_type,
            pair=pair,
            metadata=metadata,
            structure=(z, analysis.extent, style, (vmin, vmax)),
        )

    def categorical_coverage(self, name: str, params: Mapping[str, Any], start: int, count: int
                             ) -> tuple[int, str] | None:
        """The fewest distinct values of the drawn parameter ``name`` that items ``start .. start + count - 1``
        show, with the reason, where the design cannot promise min(count, number of choices); None where it
        can.  (Read by the repository's categorical-coverage test.)"""
        if (params.get("preset", "none") != "none" or params.get("difficulty") is not None
                or any(params.get(k) is not None for k in self._DESIGN_KEYS)):
            return 1, "the spread is designed for the default draws; set parameters and presets make no promise"
        if name == "count_type":
            both = 2 if count >= 3 or start % 2 == 0 else 1
            return min(count, both), ("'both' is only counted on request: unset, maxima and minima are balanced "
                                      "over aligned pairs of items")
        if name == "family":
            pool = len(family_pool(params))
            least = max(1, max(_block_parts(start, count, pool)) - MATCHING_SHORTFALL)
            return least, (f"a family must be able to show the item's own count, so the {pool} families are "
                           f"matched to the targets of each aligned block of {pool} items: all of them where the "
                           f"targets allow (a block lacked up to {MATCHING_SHORTFALL} in 13 of 1,600 measured), and "
                           "a run across two blocks is certain of the larger part only")
        return None

    def difficulty_position(self, params: Mapping[str, Any], random: ItemRandom) -> int:
        """Items of one source (the styles of one function) share their level, and so their count."""
        return params["source"] if params.get("source") is not None else random.index

    def hardness(self, item: Item) -> float:
        """The number of extrema to count (the recorded counted extrema; the paper's accuracy falls as it
        grows, Table 10)."""
        return float(sum(len(found) for found in item.metadata["extrema"].values()))

    def render(self, problem: Problem) -> list:
        from bench_plugin_marvl import plotting

        z, extent, style, (vmin, vmax) = problem.structure
        picture = plotting.render_plot(z, extent, style, vmin=vmin, vmax=vmax, size_px=tuple(problem.image_size),
                                       dashes="hollows")
        picture.info[PNG_LEVEL] = ZLIB_LEVEL
        return [picture]

    def verify(self, item: Item, images: Sequence[Any]) -> list[str]:
        """Prove the item from its record and pixels alone (``verifiers.counting``): recount the recorded
        function's extrema with the verifier's own evaluation and detection, check the answer and options
        against the recount, and confirm that the plot's pixels show that function."""
        from bench_plugin_marvl.verifiers.counting import verify

        return verify(item, images)

    # -- scoring -----------------------------------------------------------------------------------------
    def score(self, item: Item, response: Any) -> Score:
        """The core integer (or option) scorer, plus the paper's relaxed accuracies at 10% and 20%
        (|pred - gold| <= tol x gold, spec §3 [R]) and the signed and absolute error."""
        from bench_core import score_item

        base = score_item(item, response)
        details = dict(base.details)
        if item.answer_type == "integer":
            gold = int(item.answer)
            parsed = base.parsed if isinstance(base.parsed, int) else None
            error = None if parsed is None else parsed - gold
            details["relaxed_10"] = float(error is not None and 10 * abs(error) <= gold)
            details["relaxed_20"] = float(error is not None and 5 * abs(error) <= gold)
            if error is not None:
                details["signed_error"] = float(error)
                details["abs_error"] = float(abs(error))
        return Score(base.value, base.parsed, base.answered, details)

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        if problem.options is not None:
            return [letter for letter in option_letters(len(problem.options)) if letter != problem.answer][:count]
        return [str(c) for c in near_counts(int(problem.answer), random.rng, count)]


def windowed(params: Mapping[str, Any]) -> bool:
    """Whether the count of a multiple-choice item is drawn together with its options (``choice_window``):
    the choice format with neither a count, a family nor a difficulty set (the Mini preset sets the first
    two; a difficulty draws the count from its own window)."""
    return (params["format"] == "choice" and params["count"] is None and params["family"] is None
            and params.get("difficulty") is None)


def level_counts(level: float, reach: Sequence[int]) -> list[int]:
    """The counts a difficulty ``level`` draws among: the ``LEVEL_SPAN`` consecutive counts starting at
    ``1 + round(15 level)`` (1-5 at level 0, 16-20 at 1) that ``reach`` holds, or the reachable counts
    nearest that window when it holds none (a pinned family that cannot show them)."""
    start = 1 + int(15 * float(level) + 0.5)
    window = range(start, start + LEVEL_SPAN)
    inside = [c for c in sorted(reach) if c in window]
    if inside:
        return inside
    gap = {c: min(abs(c - start), abs(c - window[-1])) for c in reach}
    best = min(gap.values())
    return sorted(c for c, d in gap.items() if d == best)


def draw_target(random: ItemRandom, source: int, reach: Sequence[int]) -> int:
    """A count from the paper's distribution restricted to ``reach``: the bin balanced over consecutive
    sources in proportion 71:65:30:6, the count uniform inside the bin (nearest populated bin if the bin
    has no reachable count)."""
    weights = [n for _, _, n in BINS]
    slot = random.balanced(sum(weights), "count-bin", position=source)
    index = int(np.searchsorted(np.cumsum(weights), slot, side="right"))
    order = sorted(range(len(BINS)), key=lambda b: (abs(b - index), b))
    rng = random.stream("count", source)
    for b in order:
        lo, hi, _ = BINS[b]
        inside = [c for c in reach if lo <= c <= hi]
        if inside:
            return int(inside[int(rng.integers(len(inside)))])
    raise GenerationError(f"no reachable count in {list(reach)}")


def search(family: FunctionFamily, count_type: str, target: int, rng: np.random.Generator, *,
           fixed_family: bool) -> tuple[FunctionFamily, dict[str, Any], Analysis, Verdict, Counter[str], int]:
    """Draw functions aiming at ``target`` until one is certified with exactly that count.

    ``DRAWS`` draws of ``family`` first; then (unless the family was fixed) the other families that reach
    the target, ``DRAWS`` each.  Returns the family, its parameters, analysis and verdict, the reason codes
    of the discarded draws and the number of draws.  GenerationError if nothing passes."""
    kinds = kinds_of(count_type)
    rejected: Counter[str] = Counter()
    families = [family] + ([] if fixed_family else [FAMILIES[n] for n in eligible(count_type, target)
                                                    if n != family.name])
    draws = 0
    for candidate in families:
        budget = DRAWS * (4 if fixed_family else 1)
        for _ in range(budget):
            draws += 1
            try:
                fparams = candidate.sample_for_count(rng, count_type, target)
            except TargetUnreachable:
                rejected["target_unreachable"] += 1
                continue
            analysis = analyse(candidate, fparams, kinds)
            verdict = certify_analysis(analysis, kinds)
            if not verdict.accepted:
                rejected.update(verdict.codes())
                continue
            if verdict.count != target:
                rejected["target_missed"] += 1
                continue
            return candidate, fparams, analysis, verdict, rejected, draws
    raise GenerationError(f"marvl/counting: no certified {family.name} plot with {target} {count_type} in "
                          f"{draws} draws (rejections: {dict(rejected)})")


def family_pool(params: Mapping[str, Any]) -> list[str]:
    """The families a run with ``params`` can draw (a set count type or count narrows them), in COUNTABLE order."""
    types = [params["count_type"]] if params["count_type"] else ["maxima", "minima"]
    return [n for n in COUNTABLE if any(n in eligible(t, params["count"]) for t in types)]


def spread_families(options: Sequence[Sequence[str]], rng: np.random.Generator) -> list[str | None]:
    """A family for each slot, each family at most once, each slot's among its ``options``: a maximum matching
    (augmenting paths), with the slots and each slot's options visited in an order drawn from ``rng`` so
    that every matching can come up.  None for the slots a maximum matching leaves without a family."""
    order = [int(k) for k in rng.permutation(len(options))]
    shuffled = [[opts[int(k)] for k in rng.permutation(len(opts))] for opts in options]
    holder: dict[str, int] = {}

    def place(slot: int, seen: set[str]) -> bool:
        for name in shuffled[slot]:
            if name in seen:
                continue
            seen.add(name)
            if name not in holder or place(holder[name], seen):
                holder[name] = slot
                return True
        return False

    for slot in order:
        place(slot, set())
    result: list[str | None] = [None] * len(options)
    for name, slot in holder.items():
        result[slot] = name
    return result


def mini_design(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """MaRVL-QA-Mini counting part (paper §3.3, spec §2.5): 172 functions x 9 styles = 1,548 items.

    81 maxima and 91 minima functions spread over the count bins as ``MINI_BASES``; inside a bin the counts
    cycle through the bin's values.  Functions are interleaved in proportion so that any prefix is
    balanced, and the family rotates round-robin per feature over the countable families, skipping those
    that cannot show the count.  Each function's nine styles are consecutive (its items share ``source``
    and so the function)."""
    bases = []
    for count_type, per_bin in MINI_BASES.items():
        for (lo, hi, _), n in zip(BINS, per_bin, strict=True):
            values = list(range(lo, hi + 1))
            bases.extend(((k + 0.5) / n, count_type, values[k % len(values)]) for k in range(n))
    bases.sort()
    turn = Counter()
    design = []
    for source, (_, count_type, target) in enumerate(bases):
        names = eligible(count_type)
        for step in range(len(names)):
            name = names[(turn[count_type] + step) % len(names)]
            if target in FAMILIES[name].reachable(count_type):
                turn[count_type] += step + 1
                break
        for style in STYLES:
            design.append({**params, "count_type": count_type, "count": target, "family": name, "style": style,
                           "source": source})
    return design


def _block_parts(start: int, count: int, size: int) -> list[int]:
    """How many of the positions ``start .. start + count - 1`` fall in each aligned block of ``size``."""
    parts: dict[int, int] = {}
    for position in range(start, start + count):
        parts[position // size] = parts.get(position // size, 0) + 1
    return list(parts.values())


def _ranges(values: Sequence[int]) -> str:
    """"1-5, 8, 10-12" for a sorted list of integers."""
    values = sorted(values)
    if not values:
        return "none"
    parts, start, prev = [], values[0], values[0]
    for v in [*values[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return ", ".join(parts)


TASK = Counting()
