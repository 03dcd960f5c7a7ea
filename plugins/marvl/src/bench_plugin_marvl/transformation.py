"""``marvl/transformation``: which single transformation turns Plot A into Plot B (paper §3.2.2, A.4, A.5).

One image shows a surface z = f(x, y) twice, Plot A on the left and Plot B on the right, in one of the
nine styles each.  B is A rotated 90° clockwise or 180° about the window centre, or shifted along x or y
by 8-25 % of the window; the five numbered options are the paper's (the fifth, "No Change", is never
right).  Both plots use one square window and identical ticks, so axis labels say nothing (§3.2.2: the
task is "OCR-proof"): the window is the square around the family's domain, used for every transformation
so that its shape cannot hint at the answer either.

Acceptance (Algorithm 1, Table 6, extended to every pair of options as the paper's Table 7 motivates):
similarity is the NRMSE of two grids in display space (values mapped through the pair's shared colour
range to [0, 1]), "similar" means NRMSE < 0.07.  A pair (f, T) is kept only if B is not similar to what
any *other* option would show: no change, the other rotation, and the best translation along either axis
other than T's own, within ±35 % of the window.  Translations also need a prominent feature (A.4).  The
generator decides on a coarse grid with formulas, then checks its decision once more on the plotted
400x400 grid (array rotations, FFT registration) with a margin of PLOTTED_MARGIN, so that an independent
verifier working on the drawn samples agrees with it.  The drawn grids are quantised and the item stores a
scene record (``metadata["scene"]``: function, sampling, panels, colour range, transformation, option
order); ``verifiers.transformation`` proves the item from that record and the PNG alone.

Sampling (issue 10): the families follow one seeded order, repeated (``family_order``), so any 32 consecutive
items show all 32; the transformation is balanced over aligned blocks of four, each family getting one it
can host (``UNHOSTED``); Plot A's style repeats one seeded order of the nine and the pairing alternates.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from PIL.Image import Image

from bench_core import (
    PNG_LEVEL,
    GenerationError,
    Item,
    ItemRandom,
    ParameterError,
    Problem,
    Score,
    TaskImplementation,
    score_item,
)
from bench_core import parse_numbered_option as core_parse_numbered_option
from bench_plugin_marvl import plotting
from bench_plugin_marvl.descriptions.transformation import PAIRINGS, TRANSFORMS

#: The five options in the paper's order (§3.2.2, Table 7, Table 13); keys are ours.
OPTION_KEYS: tuple[str, ...] = ("r90", "r180", "tx", "ty", "none")
OPTION_TEXT: dict[str, str] = {
    "r90": "Rotation 90 degrees clockwise",
    "r180": "Rotation 180 degrees",
    "tx": "Translation in X",
    "ty": "Translation in Y",
    "none": "No Change",
}
#: The question of the paper (Fig. 1, Table 7).
QUESTION = "Which single transformation has been applied to plot A to produce plot B?"
#: The zlib level of the item's PNG (``bench_core.PNG_LEVEL``; the core's RGB default is 4), chosen by measurement on
#: 30 items (seed 77): these 1024 x 512 pairs of anti-aliased plots (RGB, row filters on) encode in ~15.7 ms at level 1
#: against ~20.2 at 4 and ~31.9 at 6, writing ~253 KiB against ~221 and ~205; decoding takes ~5 ms at any of them.
ZLIB_LEVEL = 1

#: NRMSE below which two grids count as the same picture (Table 6, "Significance Threshold").
SIMILARITY = 0.07
#: Candidate translation distances tried per item (Table 6, "Candidate Samples").
CANDIDATE_SHIFTS = 10
#: Largest translation, as a fraction of the window side (system prompt, A.7).
MAX_SHIFT = 0.25
#: Smallest translation drawn (ours: shorter shifts may pass the NRMSE test on sharp edges yet be hard to see).
MIN_SHIFT = 0.08
#: How far the search for an equivalent translation looks (ours; the paper gives no range): a wrong
#: translation option counts as confusable if a shift of up to 35 % of the window reproduces B, because a
#: viewer told "at most 25 %" cannot tell a 27 % shift from a 25 % one.
EQUIVALENCE_RANGE = 0.35
#: A translated function needs a feature whose prominence is at least this fraction of its range (A.4).
PROMINENCE = 0.10
#: The generator keeps a pair only if every wrong option is at least this far above the threshold on its own
#: coarse grid, so that the check on the plotted grid (a different grid) agrees with it.
GENERATOR_MARGIN = 0.006
#: Last acceptance rule, on the plotted grid: every wrong option at least this far above the threshold
#: (translations at their best whole-sample shift), so that an independent verifier computing the same
#: errors on the drawn samples cannot land on the other side of the threshold by rounding.
PLOTTED_MARGIN = 0.002
#: Lines averaged into one by the lower bound that screens a translation on the plotted grid (``shift_floor``),
#: and how far above a threshold the bound must lie to settle it (far above the FFT's rounding).
FLOOR_LINES = 20
FLOOR_SLACK = 1e-6
#: Samples per axis of the generator's analysis grid, and its extension for translation searches.
ANALYSIS_GRID = 160
#: Parameter draws tried per (family, transformation) before the next family (or transformation) is tried.
DRAWS = 12
#: Display value given to undefined samples (NaN): unlike any defined value, as the grey "bad" colour is.
UNDEFINED = -0.5
#: Families whose salient features are ridges or discontinuities rather than peaks.  The paper re-admitted
#: such functions to the translation pool by manual review (A.4); this list stands in for that review.
FEATURE_ALLOW_LIST = frozenset({"step-function", "sharp-ridge", "extruded-witch-of-agnesi"})
#: The mini preset (§3.3): per half (same / different style), this many items per transformation.
MINI_PER_BLOCK = 150
#: Validated (f, T) pairs of the paper's full set (79,542 = 982 x 81), the length of the styles81 preset.
FULL_BASES = 982

_DIFFERENT_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for a in plotting.STYLES for b in plotting.STYLES if a != b
)
#: Difficulty: how far apart the two plots' styles are, in four tiers (the paper's own proxy of difficulty is
#: style consistency, Table 2: accuracy drops when the colour maps differ and more when the plot types do).
#: 0: one style; 1: the same plot type, another colour map; 2: another plot type that still shares one
#: visual channel (colours: heatmap | heatmap-contour; lines: heatmap-contour | contour); 3: a heatmap against
#: contour lines alone, no channel shared [I: the split of "different plot type" by shared channel is ours].
STYLE_TIERS = 4
#: Translation shift (fraction of the window) at difficulty level 0 and 1, and the half-width of the band a
#: level draws its candidate shifts from: smaller shifts bring Plot B nearer to "No Change", o4-mini's most
#: common wrong answer (paper §4.2) [I].
LEVEL_SHIFTS = (MAX_SHIFT, MIN_SHIFT)
LEVEL_SHIFT_BAND = 0.04
#: Transformations a family cannot host: the filters rejected every one of 16 batches of DRAWS draws (a
#: plane, saddle or cylinder has no prominent feature to translate), or most of them (parabolic-cylinder
#: r180: 15 of 48 batches accepted).  Every other pair was accepted in at least 14 of 16 batches (the
#: weakest, extruded-witch-of-agnesi r180, in 37 of 48).  The default design never asks a family for these.
UNHOSTED: dict[str, frozenset[str]] = {
    "plane": frozenset({"tx", "ty"}),
    "hyperbolic-paraboloid": frozenset({"tx", "ty"}),
    "parabolic-cylinder": frozenset({"r180", "tx", "ty"}),
    "monkey-saddle": frozenset({"tx", "ty"}),
}
#: Batches of DRAWS draws tried for the requested (family, transformation) before the generator falls back
#: to another family: with the weakest hosted pair's 37 in 48, four batches all fail about once in 600 items.
BATCHES = 4


def _channels(style: str) -> set[str]:
    kind, _ = plotting.style_parts(style)
    return {"heatmap": {"colour"}, "heatmap-contour": {"colour", "lines"}, "contour": {"lines"}}[kind]


def style_tier(style_a: str, style_b: str) -> int:
    """The difficulty tier (0-3, ``STYLE_TIERS``) of a style pair."""
    if style_a == style_b:
        return 0
    kind_a, _ = plotting.style_parts(style_a)
    kind_b, _ = plotting.style_parts(style_b)
    if kind_a == kind_b:
        return 1
    return 2 if _channels(style_a) & _channels(style_b) else 3


def tier_pairs(tier: int) -> list[tuple[str, str]]:
    """The ordered style pairs of a tier, in the order of ``plotting.STYLES``."""
    return [(a, b) for a in plotting.STYLES for b in plotting.STYLES if style_tier(a, b) == tier]


def level_knobs(level: float) -> tuple[int, tuple[float, float]]:
    """The style tier and the translation band (fractions of the window) of a difficulty ``level``: the tier
    is the quarter of [0, 1] the level falls in; the band is centred on a shift sliding from 25 % of the
    window at level 0 to 8 % at level 1."""
    tier = min(STYLE_TIERS - 1, int(float(level) * STYLE_TIERS))
    centre = LEVEL_SHIFTS[0] + (LEVEL_SHIFTS[1] - LEVEL_SHIFTS[0]) * float(level)
    return tier, (max(MIN_SHIFT, centre - LEVEL_SHIFT_BAND), min(MAX_SHIFT, centre + LEVEL_SHIFT_BAND))


# ---------------------------------------------------------------------------------------------------
# Families, geometry and display space
# ---------------------------------------------------------------------------------------------------


def fft_size(length: int) -> int:
    """The smallest 5-smooth number (2^a 3^b 5^c) at least ``length``: FFTs of such sizes are fast."""
    best = 1 << max(0, (length - 1).bit_length())
    power5 = 1
    while power5 < best:
        power35 = power5
        while power35 < best:
            size = power35
            while size < length:
                size *= 2
            best = min(best, size)
            power35 *= 3
        power5 *= 5
    return best


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def families() -> list[tuple[str, Any]]:
    """``(key, FunctionFamily)`` of every family, in the paper's order (the mini preset's round-robin order)."""
    from bench_plugin_marvl.functions import FAMILIES

    return list(FAMILIES.items())


def hosts(key: str) -> tuple[str, ...]:
    """The transformations family ``key`` can host (``UNHOSTED``), in the order of ``TRANSFORMS``."""
    return tuple(t for t in TRANSFORMS if t not in UNHOSTED.get(key, ()))


def _block_assignments(block: Sequence[str]) -> list[tuple[str, ...]]:
    """Every order of the four transformations that gives each family of ``block`` one it can host."""
    return [order for order in itertools.permutations(TRANSFORMS)
            if all(t in hosts(key) for key, t in zip(block, order, strict=True))]


@functools.lru_cache(maxsize=64)
def _family_order(task_id: str, version: str, seed: int, transform: str | None) -> tuple[str, ...]:
    random = ItemRandom(task_id, version, seed, 0)
    keys = [k for k, _ in families() if transform is None or transform in hosts(k)]
    for attempt in range(1000):
        order = [keys[int(k)] for k in random.stream("family-order", transform or "*", attempt).permutation(len(keys))]
        blocks = [order[b:b + len(TRANSFORMS)] for b in range(0, len(order), len(TRANSFORMS))]
        if transform is not None or all(_block_assignments(block) for block in blocks):
            return tuple(order)
    raise GenerationError("marvl/transformation: no family order gives every block of four a transformation each")


def family_order(random: ItemRandom, transform: str | None = None) -> tuple[str, ...]:
    """The seed's order of the families (of those that host ``transform``, when it is fixed): a seeded
    permutation, the same for every index, that item ``source`` takes at ``source % len(order)``.  Repeating
    one order is what makes *any* run of n consecutive sources show min(n, len(order)) families: with a new
    permutation per block, a run across two blocks could meet a family twice.  With the transformation
    drawn, every aligned block of four families can host the four transformations (``_block_assignments``);
    orders that fail are redrawn."""
    return _family_order(random.task_id, random.version, random.seed, transform)


def block_transforms(random: ItemRandom, order: Sequence[str], block: int) -> tuple[str, ...]:
    """The transformations of the four sources ``4 block .. 4 block + 3``: each once (the answer stays exactly
    balanced over every aligned block of four), each family one it can host, the order drawn uniformly
    among those that qualify from a stream keyed by the block."""
    size = len(TRANSFORMS)
    members = [order[(block * size + k) % len(order)] for k in range(size)]
    choices = _block_assignments(members)
    return choices[int(random.stream("transform-block", block).integers(len(choices)))]


def window(domain: Sequence[float]) -> tuple[float, float, float, float]:
    """The square window around a family's domain: same centre, side = the longer side of the domain.

    It contains the domain and its image under both rotations (the paper's "unified, expanded domain"),
    and it is used for translations too, so the window does not depend on the transformation."""
    xmin, xmax, ymin, ymax = (float(v) for v in domain)
    cx, cy = (xmin + xmax) / 2, (ymin + ymax) / 2
    half = max(xmax - xmin, ymax - ymin) / 2
    return cx - half, cx + half, cy - half, cy + half


def source_coordinates(kind: str, x: np.ndarray, y: np.ndarray, centre: tuple[float, float],
                       shift: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Where B looks up f: B(x, y) = f(u, v) for the returned (u, v).

    r90 turns the picture clockwise about the centre c, so B(p) = f(c + R⁻¹(p - c)) with R⁻¹ the
    counter-clockwise quarter turn (u, v) -> (-v, u); r180 is B(p) = f(2c - p); tx / ty move the surface by
    ``shift`` along x / y, B(x, y) = f(x - shift, y) (content moves right / up for a positive shift)."""
    cx, cy = centre
    if kind == "r90":
        return cx - (y - cy), cy + (x - cx)
    if kind == "r180":
        return 2 * cx - x, 2 * cy - y
    if kind == "tx":
        return x - shift, y
    if kind == "ty":
        return x, y - shift
    if kind == "none":
        return x, y
    raise ValueError(f"unknown transformation {kind!r}")


def colour_range(*grids: np.ndarray) -> tuple[float, float, bool]:
    """The pair's shared colour range ``(lo, hi, clipped)``: min and max of the finite values, except that
    a tail reaching more than four times the 0.5-99.5 % body past it (a singularity) is cut at the
    percentile, so the rest of the surface stays visible (spec: percentile clipping for singular families)."""
    parts = [a for a in (np.asarray(g, dtype=float).ravel() for g in grids) if a.size]
    # a grid whose min and max are finite is finite throughout (a NaN makes both NaN, an infinity one of them
    # infinite): two passes that are needed anyway instead of a finiteness test of every value first
    lows, highs = [float(a.min()) for a in parts], [float(a.max()) for a in parts]
    if not all(math.isfinite(v) for v in (*lows, *highs)):
        parts = [a[np.isfinite(a)] for a in parts]
        parts = [a for a in parts if a.size]
        lows, highs = [float(a.min()) for a in parts], [float(a.max()) for a in parts]
    if not parts:
        return 0.0, 1.0, False
    # min, max and the tail test grid by grid: the same numbers as on the grids joined, without joining them
    lo, hi = min(lows), max(highs)
    if _no_far_tail(parts, lo, hi):
        return (*plotting.value_range(np.array([lo, hi])), False)
    values = np.concatenate(parts) if len(parts) > 1 else parts[0]
    q_lo, q_hi = (float(v) for v in np.percentile(values, (0.5, 99.5)))
    body = q_hi - q_lo
    clipped = False
    if body > 0:
        if lo < q_lo - 4 * body:
            lo, clipped = q_lo, True
        if hi > q_hi + 4 * body:
            hi, clipped = q_hi, True
    lo, hi = plotting.value_range(np.array([lo, hi]))
    return lo, hi, clipped


def _no_far_tail(parts: Sequence[np.ndarray], lo: float, hi: float) -> bool:
    """Whether ``colour_range`` certainly cuts no tail of the values ``parts`` hold together, without their
    percentiles: when 1 % of the values lie in the lowest tenth of the range and 1 % in the highest, the 0.5
    and 99.5 percentiles lie inside those tenths, so the body between them is at least 0.8 of the range and
    no tail reaches four bodies past it."""
    span = hi - lo
    if not span > 0:
        return False
    need = math.ceil(0.01 * sum(a.size for a in parts)) + 2
    return (sum(int(np.count_nonzero(a <= lo + 0.1 * span)) for a in parts) >= need
            and sum(int(np.count_nonzero(a >= hi - 0.1 * span)) for a in parts) >= need)


def to_display(z: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Values as the viewer sees them: mapped to [0, 1] by the colour range, clipped, NaN -> UNDEFINED."""
    z = np.asarray(z, dtype=float)
    # clip((z - lo) / (hi - lo), 0, 1), worked in one array: grid-sized temporaries are fresh pages of memory
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.subtract(z, lo)
        d /= hi - lo
        np.clip(d, 0.0, 1.0, out=d)
    finite = np.isfinite(z)
    if not finite.all():
        np.copyto(d, UNDEFINED, where=~finite)  # what ``d[~finite] = UNDEFINED`` sets, without gathering indices
    return d


def nrmse(a: np.ndarray, b: np.ndarray) -> float:
    """Root-mean-square difference of two display-space grids (their range is 1, so this is the NRMSE)."""
    difference = np.subtract(a, b)
    np.square(difference, out=difference)  # what ``** 2`` computes, in place
    return float(np.sqrt(np.mean(difference)))


def feature_depth(d: np.ndarray) -> float:
    """How far the most prominent peak or valley of the display grid ``d`` stands out, in display units.

    A peak's depth here is its height above the highest level at which it connects to higher ground or to
    the window's edge: the topographic prominence of A.4 with the edge counted as higher ground, i.e. the
    depth of the closed contours around it.  Computed by morphological reconstruction of the edge under the
    surface (for valleys, under the negated surface)."""
    surfaces = np.stack([d, -d])  # peaks, then valleys as peaks of the negated surface: reconstructed together
    return max(0.0, *(float(np.max(s - f)) for s, f in zip(surfaces, edge_reconstruction(surfaces), strict=True)))


def edge_reconstruction(surfaces: np.ndarray) -> np.ndarray:
    """For each surface of the stack ``surfaces`` (k, rows, columns): the morphological reconstruction
    (4-connected) of its edge under it, i.e. at every sample the highest level at which a path of samples
    leads from it to the edge without dipping below that level (at most the sample's own value).  The least
    fixpoint of "each sample is the largest of itself and its four neighbours, capped by the surface",
    grown from the edge's values (-inf inside).

    Reached by sweeps rather than one-step dilations: the rows are passed down and up and the columns right
    and left, each line taking the larger of itself and the line before it, capped by the surface, so a level
    runs along a whole straight stretch of path in one sweep.  Every sweep stays at or below the least
    fixpoint, and the rounds of four sweeps stop at the first that ends on a fixpoint (``_is_fixpoint``), so
    the result is that of one-step dilations repeated until nothing changes, bit for bit (only maxima and
    minima of the values; a zero's sign aside, which no comparison sees)."""
    surfaces = np.asarray(surfaces, dtype=float)
    filled = np.full_like(surfaces, -np.inf)
    for edge in ((slice(None), 0), (slice(None), -1), (slice(None), slice(None), 0), (slice(None), slice(None), -1)):
        filled[edge] = surfaces[edge]
    rows = np.ascontiguousarray(surfaces.transpose(1, 0, 2))  # (row, surface, column): row i is one slice
    columns = np.ascontiguousarray(surfaces.transpose(2, 0, 1))  # (column, surface, row)
    by_row = np.ascontiguousarray(filled.transpose(1, 0, 2))
    while True:
        _sweep(by_row, rows)
        by_column = np.ascontiguousarray(by_row.transpose(2, 1, 0))
        _sweep(by_column, columns)
        by_row = np.ascontiguousarray(by_column.transpose(2, 1, 0))
        result = np.ascontiguousarray(by_row.transpose(1, 0, 2))
        # a fixpoint is found by one step of the rule over the whole grid at once, where a round of four
        # sweeps that changes nothing would take as long as a round that does
        if _is_fixpoint(result, surfaces):
            return result


def _is_fixpoint(filled: np.ndarray, surfaces: np.ndarray) -> bool:
    """Whether every sample of ``filled`` (k, rows, columns) is the largest of itself and its four neighbours,
    capped by ``surfaces``: the rule of ``edge_reconstruction`` changes nothing."""
    step = filled.copy()
    np.maximum(step[:, 1:], filled[:, :-1], out=step[:, 1:])
    np.maximum(step[:, :-1], filled[:, 1:], out=step[:, :-1])
    np.maximum(step[:, :, 1:], filled[:, :, :-1], out=step[:, :, 1:])
    np.maximum(step[:, :, :-1], filled[:, :, 1:], out=step[:, :, :-1])
    np.minimum(step, surfaces, out=step)
    return bool(np.array_equal(step, filled))


def _sweep(filled: np.ndarray, cap: np.ndarray) -> None:
    """Slices ``filled[i]`` forwards and then backwards, each raised to the one before it and capped by
    ``cap[i]``, in place."""
    # the slices as views made once (indexing the arrays anew at every step costs as much as the step)
    lines, caps = list(filled), list(cap)
    count = len(lines)
    maximum, minimum = np.maximum, np.minimum
    for order, step in ((range(1, count), 1), (range(count - 2, -1, -1), -1)):
        for i in order:
            line = lines[i]
            maximum(line, lines[i - step], out=line)
            minimum(line, caps[i], out=line)


# ---------------------------------------------------------------------------------------------------
# The generator's route: formulas on a coarse grid, brute-force translation search (Algorithm 1)
# ---------------------------------------------------------------------------------------------------


#: ``_Analysis.transformed`` reads a transformed grid from the grown grid where its samples are there bit for
#: bit (False evaluates every one from the formula; the tests compare the two).
READ_TRANSFORMED = True


def evaluate_grid(family: Any, params: Mapping[str, Any], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """f on the tensor grid ``xs`` x ``ys`` (rows = y ascending), by the family's fast grid route if it has one."""
    grid = getattr(family, "evaluate_grid", None)
    if grid is not None:
        return np.asarray(grid(params, xs, ys), dtype=float)
    return np.asarray(family.evaluate(params, xs[None, :], ys[:, None]), dtype=float)


def transformed_grid(family: Any, params: Mapping[str, Any], kind: str, extent: Sequence[float], n: int,
                     shift: float = 0.0) -> np.ndarray:
    """B = T f sampled at the ``n`` x ``n`` pixel centres of ``extent``, by evaluating f where
    :func:`source_coordinates` sends each sample.  Every transformation keeps the grid a tensor grid (r90
    swaps the roles of the axes, hence the transpose)."""
    us, vs = transformed_axes(kind, extent, n, shift)
    if kind == "r90":
        # B[i, j] = f(u(y_i), v(x_j)): f evaluated with u along the columns, then transposed
        return evaluate_grid(family, params, us, vs).T
    return evaluate_grid(family, params, us, vs)


def transformed_axes(kind: str, extent: Sequence[float], n: int, shift: float = 0.0
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The axes ``(us, vs)`` at which ``transformed_grid`` evaluates f on the tensor grid ``us`` x ``vs``
    (for r90 the grid it then transposes)."""
    xmin, xmax, ymin, ymax = extent
    xs, ys = plotting.sample_axis(xmin, xmax, n), plotting.sample_axis(ymin, ymax, n)
    centre = ((xmin + xmax) / 2, (ymin + ymax) / 2)
    if kind == "r90":
        us, _ = source_coordinates("r90", np.zeros_like(ys), ys, centre)
        _, vs = source_coordinates("r90", xs, np.zeros_like(xs), centre)
        return us, vs
    us, _ = source_coordinates(kind, xs, np.zeros_like(xs), centre, shift)
    _, vs = source_coordinates(kind, np.zeros_like(ys), ys, centre, shift)
    return us, vs


def _run_in(axis: np.ndarray, coords: np.ndarray) -> slice | None:
    """The slice of ``axis`` that is ``coords`` bit for bit (consecutive entries, forwards or backwards), or
    None.  Bits, not values: 0.0 and -0.0 are different coordinates to a formula such as ``arctan2``."""
    axis_bits = np.ascontiguousarray(axis, dtype=float).view(np.int64)
    bits = np.ascontiguousarray(coords, dtype=float).view(np.int64)
    count = len(bits)
    if count == 0 or count > len(axis_bits):
        return None
    for start in np.flatnonzero(axis_bits == bits[0]).tolist():
        for step in (1, -1):
            stop = start + step * count
            if not -1 <= stop <= len(axis_bits):
                continue
            run = slice(start, None if stop < 0 else stop, step)
            if np.array_equal(axis_bits[run], bits):
                return run
    return None


@attrs.define
class _Analysis:
    """One function instance on the generator's grid: the window plus a margin of EQUIVALENCE_RANGE per side."""

    family: Any
    params: Mapping[str, Any]
    extent: tuple[float, float, float, float]
    n: int = ANALYSIS_GRID
    margin: int = attrs.field(init=False)
    step: float = attrs.field(init=False)
    ext: np.ndarray = attrs.field(init=False)
    _cache: dict = attrs.field(init=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        self.margin = math.ceil(EQUIVALENCE_RANGE * self.n)
        xmin, xmax, ymin, _ = self.extent
        self.step = (xmax - xmin) / self.n
        k = np.arange(self.n + 2 * self.margin) - self.margin + 0.5
        self.ext = evaluate_grid(self.family, self.params, xmin + k * self.step, ymin + k * self.step)

    @property
    def a(self) -> np.ndarray:
        m = self.margin
        return self.ext[m:m + self.n, m:m + self.n]

    def transformed(self, kind: str, shift: float = 0.0) -> np.ndarray:
        """T f on the window grid, evaluated from the formula at the transformed coordinates (read from
        ``ext`` where they are, bit for bit, samples of it: ``_read_transformed``)."""
        key = (kind, shift)
        if key not in self._cache:
            if kind == "none" and self._window_is_middle():
                self._cache[key] = self.a  # the same sample coordinates, so the same values
            else:
                grid = self._read_transformed(kind, shift) if READ_TRANSFORMED else None
                if grid is None:
                    grid = transformed_grid(self.family, self.params, kind, self.extent, self.n, shift)
                self._cache[key] = grid
        return self._cache[key]

    def displayed(self, kind: str, shift: float = 0.0) -> tuple[float, float, np.ndarray]:
        """``(lo, hi, target)``: the colour range of A and B = ``transformed(kind, shift)`` together
        (``colour_range``) and B in display space (``to_display``); worked out once per (kind, shift)."""
        key = ("displayed", kind, shift)
        if key not in self._cache:
            b = self.transformed(kind, shift)
            lo, hi, _ = colour_range(self.a, b)
            self._cache[key] = (lo, hi, to_display(b, lo, hi))
        return self._cache[key]

    def ext_displayed(self, lo: float, hi: float) -> np.ndarray:
        """``to_display(self.ext, lo, hi)``, worked out once per colour range (read, never written)."""
        key = ("ext_displayed", lo, hi)
        if key not in self._cache:
            self._cache[key] = to_display(self.ext, lo, hi)
        return self._cache[key]

    def _read_transformed(self, kind: str, shift: float) -> np.ndarray | None:
        """``transformed_grid(..., kind, ..., shift)`` read from ``ext``, or None where its sample coordinates
        are not, bit for bit, runs of ``ext``'s (then it is evaluated).  f is evaluated sample by sample, so
        the same coordinates give the same values; the grid is laid out in memory as ``transformed_grid``
        lays it out (a fresh C-ordered array, transposed for r90), so that sums over it add in the same order.
        On the 160-sample grid of a window of side 10 (a step of 1/16, exact in binary) both rotations are
        always read."""
        us, vs = transformed_axes(kind, self.extent, self.n, shift)
        m, size = self.margin, self.ext.shape[0]
        k = np.arange(size) - m + 0.5
        xmin, _, ymin, _ = self.extent
        cols, rows = _run_in(xmin + k * self.step, us), _run_in(ymin + k * self.step, vs)
        if cols is None or rows is None:
            return None
        grid = np.ascontiguousarray(self.ext[rows, cols])  # grid[r, c] = f(us[c], vs[r])
        return grid.T if kind == "r90" else grid

    def _window_is_middle(self) -> bool:
        """Whether the middle of ``ext`` sits exactly (bit for bit) at the window grid's sample coordinates."""
        xmin, xmax, ymin, ymax = self.extent
        k = np.arange(self.n) + 0.5
        return (np.array_equal(xmin + k * self.step, plotting.sample_axis(xmin, xmax, self.n))
                and np.array_equal(ymin + k * self.step, plotting.sample_axis(ymin, ymax, self.n)))

    def best_translation(self, target: np.ndarray, axis: str, lo: float, hi: float, stop_below: float) -> float:
        """The smallest NRMSE between ``target`` (display space) and f shifted along ``axis`` by at most
        EQUIVALENCE_RANGE (including no shift): every whole step of the coarse grid, then quarter steps
        around the best one by formula when that is close to the threshold.  Stops early once a value below
        ``stop_below`` is found (the pair is rejected anyway)."""
        ext = self.ext_displayed(lo, hi)
        m = self.margin
        # every whole shift at once (``shift_profile``: the same errors as ``nrmse`` of each shifted view, to
        # rounding); the first shift in increasing order below ``stop_below`` ends the search
        profile = shift_profile(target, ext, axis, m)
        below = np.flatnonzero(profile < stop_below)
        if below.size:
            return float(profile[below[0]])
        best_s = int(np.argmin(profile)) - m
        best = float(profile[best_s + m])
        if best < SIMILARITY + 0.05:
            # sharp edges make the error a cusp in the shift: look between the grid steps as well
            for frac in (-0.75, -0.5, -0.25, 0.25, 0.5, 0.75):
                shift = (best_s + frac) * self.step
                if abs(shift) <= EQUIVALENCE_RANGE * (self.extent[1] - self.extent[0]):
                    best = min(best, nrmse(target, to_display(self.transformed(axis, shift), lo, hi)))
        return best


    def best_shift_2d(self, target: np.ndarray, lo: float, hi: float) -> float:
        """The smallest NRMSE between ``target`` and f shifted along x and y at once (each within
        EQUIVALENCE_RANGE), by 2-D FFT cross-correlation.  Not an acceptance rule (no option names a diagonal
        shift): recorded for rotations, which on radial or lattice-like surfaces look like such a shift."""
        ext = self.ext_displayed(lo, hi)
        n, size = self.n, ext.shape[0]
        shape = (fft_size(size),) * 2  # circular is enough: the lags used never wrap (see ``shift_profile``)
        cross = np.fft.irfft2(np.conj(np.fft.rfft2(target, shape)) * np.fft.rfft2(ext, shape), shape)
        cross = cross[: size - n + 1, : size - n + 1]
        table = np.zeros((size + 1, size + 1))
        table[1:, 1:] = np.cumsum(np.cumsum(ext ** 2, axis=0), axis=1)
        energy = table[n:, n:] - table[:-n, n:] - table[n:, :-n] + table[:-n, :-n]
        ssd = (target ** 2).sum() + energy - 2 * cross
        return float(np.sqrt(max(float(ssd.min()), 0.0) / target.size))


def _wrong_option_errors(an: _Analysis, answer: str, shift: float) -> tuple[dict[str, float], bool]:
    """The generator's NRMSE of B against every wrong option, and whether they all clear the threshold
    plus margin.  Cheapest checks first; stops at the first failure."""
    lo, hi, target = an.displayed(answer, shift)
    need = SIMILARITY + GENERATOR_MARGIN
    errors: dict[str, float] = {}
    for option in ("none", "r180", "r90", "tx", "ty"):
        if option == answer:
            continue
        if option in ("tx", "ty"):
            errors[option] = an.best_translation(target, option, lo, hi, stop_below=need)
        else:
            errors[option] = nrmse(target, to_display(an.transformed(option), lo, hi))
        if errors[option] < need:
            return errors, False
    return errors, True


def _has_feature(an: _Analysis, allow_listed: bool) -> tuple[bool, float]:
    lo, hi, _ = colour_range(an.a)
    depth = feature_depth(to_display(an.a, lo, hi)[::2, ::2])
    return allow_listed or depth >= PROMINENCE, depth


def plotted_grids(family: Any, params: Mapping[str, Any], transform: str, shift_px: int,
                  window_values: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, float, float, bool]:
    """The drawn grids of A and B (quantised, ``plotting.quantise``) and their colour range ``(lo, hi,
    clipped)``, rounded to ``plotting.GRID_DECIMALS`` places: what the image shows is a function of the
    stored parameters and these rounded numbers only.  ``window_values`` is f already evaluated at Plot A's
    samples (the same coordinates, bit for bit), if the caller has it."""
    extent = window(family.domain)
    n = plotting.PLOT_GRID
    shift = shift_px * (extent[1] - extent[0]) / n
    if window_values is None:
        window_values = transformed_grid(family, params, "none", extent, n)
    z_a = plotting.quantise(window_values)
    z_b = plotting.quantise(transformed_grid(family, params, transform, extent, n, shift))
    lo, hi, clipped = colour_range(z_a, z_b)
    lo, hi = round(lo, plotting.GRID_DECIMALS), round(hi, plotting.GRID_DECIMALS)
    if hi <= lo:
        hi = lo + 10.0 ** -plotting.GRID_DECIMALS
    return z_a, z_b, lo, hi, clipped


def plotted_errors(family: Any, params: Mapping[str, Any], transform: str, shift_px: int) -> dict[str, Any]:
    """Every option's NRMSE against B on the plotted grid (``option_errors_on_grid``), with the drawn
    colour range: the generator's last acceptance check."""
    return plotted_check(family, params, transform, shift_px)[0]


def plotted_check(family: Any, params: Mapping[str, Any], transform: str, shift_px: int
                  ) -> tuple[dict[str, Any], tuple[np.ndarray, np.ndarray, float, float, bool]]:
    """``plotted_errors`` and the ``plotted_grids`` it measured them on (an accepted pair draws them).

    f is evaluated once on the window grown by the translation search's margin (the cross of it that is read,
    ``cross_grid``); where that grid's middle
    has exactly Plot A's sample coordinates (a square window: both axes use one spacing), Plot A's values are
    read from it instead of evaluating f there again (f is evaluated sample by sample, so the same
    coordinates give the same values)."""
    extent = window(family.domain)
    n = plotting.PLOT_GRID
    margin = math.ceil(EQUIVALENCE_RANGE * n)
    step = (extent[1] - extent[0]) / n
    k = np.arange(n + 2 * margin) - margin + 0.5
    ext_x, ext_y = extent[0] + k * step, extent[2] + k * step
    inner = slice(margin, margin + n)
    ext = cross_grid(family, params, ext_x, ext_y, inner)
    same = (np.array_equal(ext_x[inner], plotting.sample_axis(extent[0], extent[1], n))
            and np.array_equal(ext_y[inner], plotting.sample_axis(extent[2], extent[3], n)))
    grids = plotted_grids(family, params, transform, shift_px, ext[inner, inner] if same else None)
    _, z_b, lo, hi, _ = grids
    known = (transform, shift_px) if transform in ("tx", "ty") else None
    return option_errors_on_grid(ext, z_b, margin, lo, hi, known, screen=SIMILARITY + PLOTTED_MARGIN), grids


def cross_grid(family: Any, params: Mapping[str, Any], xs: np.ndarray, ys: np.ndarray, inner: slice
               ) -> np.ndarray:
    """``evaluate_grid(family, params, xs, ys)`` where row or column lies in ``inner``, NaN elsewhere: the
    part of the grown grid ``option_errors_on_grid`` reads (the window's rows across the whole width, its
    columns down the whole height; not the four corners, a sixth of the samples at a margin of 35 %).  f is
    evaluated sample by sample, so each sample has the value the whole grid would give it."""
    if not CROSS_GRID:
        return evaluate_grid(family, params, xs, ys)
    out = np.empty((len(ys), len(xs)))  # every sample is written once below (a NaN fill would write them twice)
    out[inner, :] = evaluate_grid(family, params, xs, ys[inner])
    for rows in (slice(None, inner.start), slice(inner.stop, None)):
        out[rows, :inner.start] = np.nan
        out[rows, inner.stop:] = np.nan
        if len(ys[rows]):
            out[rows, inner] = evaluate_grid(family, params, xs[inner], ys[rows])
    return out


#: ``plotted_check`` evaluates f on the cross of the grown grid that is read (``cross_grid``); False on the
#: whole grid (the tests compare the two).
CROSS_GRID = True


def plotted_ok(errors: Mapping[str, Any], transform: str) -> bool:
    """The answer reproduces B on the plotted grid and every other option is PLOTTED_MARGIN clear of it."""
    return errors[transform] < SIMILARITY - PLOTTED_MARGIN and all(
        errors[key] >= SIMILARITY + PLOTTED_MARGIN for key in OPTION_KEYS if key != transform)


@attrs.frozen
class Accepted:
    """A pair (f, T) that passed the filters, with what the generator measured."""

    family_key: str
    params: Mapping[str, Any]
    transform: str
    shift_px: int  # translation in rendered-grid pixels (0 for rotations)
    errors: Mapping[str, float]
    draws: int
    candidate: int | None
    feature_depth: float | None
    diagonal_shift_error: float | None  # rotations: NRMSE of B against the best 2-D shift of A
    #: ``plotted_grids`` of the pair, as the last check measured them (None: ``generate`` computes them)
    plotted: tuple | None = attrs.field(default=None, eq=False, repr=False)


def _shift_candidates(rng: np.random.Generator, band: tuple[float, float] | None = None) -> list[int]:
    """Ten candidate translations in rendered-grid pixels: 8-25 % of the window (or ``band``, fractions of the
    window within that), either direction (Table 6)."""
    low, high = band or (MIN_SHIFT, MAX_SHIFT)
    lo, hi = math.ceil(low * plotting.PLOT_GRID), math.floor(high * plotting.PLOT_GRID)
    sizes = rng.integers(lo, hi + 1, size=CANDIDATE_SHIFTS)
    signs = rng.choice(np.array([-1, 1]), size=CANDIDATE_SHIFTS)
    return [int(a * b) for a, b in zip(sizes, signs, strict=True)]


def try_family(key: str, family: Any, transform: str, rng: np.random.Generator, draws: int = DRAWS,
               rejections: dict[str, int] | None = None, shift_band: tuple[float, float] | None = None
               ) -> Accepted | None:
    """Algorithm 1 for one family and transformation: up to ``draws`` parameter draws; the first accepted
    pair, or None.  ``rejections`` (if given) counts why draws failed; ``shift_band`` narrows the candidate
    translations (a difficulty level's band)."""
    extent = window(family.domain)
    side = extent[1] - extent[0]
    allow_listed = bool({_slug(key), _slug(family.name), _slug(getattr(family, "title", ""))} & FEATURE_ALLOW_LIST)

    def reject(reason: str) -> None:
        if rejections is not None:
            rejections[reason] = rejections.get(reason, 0) + 1

    for draw in range(1, draws + 1):
        params = family.sample(rng)
        an = _Analysis(family, params, extent)
        if transform in ("r90", "r180"):
            errors, ok = _wrong_option_errors(an, transform, 0.0)
            plotted = plotted_check(family, params, transform, 0) if ok else None
            if ok and not plotted_ok(plotted[0], transform):
                reject(f"{transform} ambiguous on the plotted grid")
                continue
            if ok:
                lo, hi, target = an.displayed(transform)
                diagonal = an.best_shift_2d(target, lo, hi)
                return Accepted(key, params, transform, 0, errors, draw, None, None, diagonal, plotted[1])
            reject(f"{transform} similar to {min(errors, key=errors.__getitem__)}")
            continue
        ok, depth = _has_feature(an, allow_listed)
        if not ok:
            reject("no prominent feature")
            continue
        failed = "none"
        for number, shift_px in enumerate(_shift_candidates(rng, shift_band)):
            errors, ok = _wrong_option_errors(an, transform, shift_px * side / plotting.PLOT_GRID)
            plotted = plotted_check(family, params, transform, shift_px) if ok else None
            if ok and not plotted_ok(plotted[0], transform):
                failed = "the plotted grid"
                continue
            if ok:
                return Accepted(key, params, transform, shift_px, errors, draw, number, depth, None, plotted[1])
            failed = min(errors, key=errors.__getitem__)
        reject(f"{transform}: all {CANDIDATE_SHIFTS} shifts similar (last to {failed})")
    return None


# ---------------------------------------------------------------------------------------------------
# The last acceptance check: the plotted grid, array rotations and FFT registration
# ---------------------------------------------------------------------------------------------------


def shift_profile(target: np.ndarray, source: np.ndarray, axis: str, margin: int) -> np.ndarray:
    """NRMSE between ``target`` (n x n) and every shift of ``source`` along ``axis``.

    ``source`` covers the window plus ``margin`` samples on every side ((n + 2 margin) squared); entry k
    of the result is the shift s = k - margin, i.e. ``source`` shifted by s samples (content moving towards
    larger x or y).  Computed by FFT cross-correlation, summed over the rows (or columns)."""
    n = target.shape[0]
    # the lines along the shift (rows for x, columns for y) that the window sees; the transforms run along
    # the shift axis of the arrays as they are (a transposed view would make every transform gather)
    band = source[margin:margin + n, :] if axis == "tx" else source[:, margin:margin + n]
    return _band_profile(target, band, 1 if axis == "tx" else 0)


def _band_profile(target: np.ndarray, band: np.ndarray, along: int) -> np.ndarray:
    """``shift_profile`` of ``target`` against ``band``: as many lines as ``target`` (rows if ``along`` is 1,
    columns if 0), each longer than ``target``'s along ``along``; entry k is the shift s = k - (width - n) / 2."""
    n = target.shape[along]
    width = band.shape[along]
    # a circular correlation of length >= width is enough: the lags used, t + j <= width - 1, never wrap
    size = fft_size(width)
    cross = np.fft.irfft(
        (np.conj(np.fft.rfft(target, size, axis=along)) * np.fft.rfft(band, size, axis=along)).sum(axis=1 - along),
        size,
    )[: width - n + 1]  # cross[t] = sum_ij target[i, j] band[i, t + j] (x; for y, rows and columns swap)
    energy = np.concatenate(([0.0], np.cumsum((band ** 2).sum(axis=1 - along))))
    window_energy = energy[n:] - energy[:-n]  # sum over columns t .. t + n - 1
    ssd = (target ** 2).sum() + window_energy - 2 * cross
    # offset t corresponds to the shift s = margin - t; return in increasing s
    return np.sqrt(np.maximum(ssd, 0.0) / target.size)[::-1]


def shift_floor(target: np.ndarray, source: np.ndarray, axis: str, margin: int) -> float | None:
    """A lower bound of ``shift_profile(target, source, axis, margin).min()``, or None when the window's side
    is not a multiple of ``FLOOR_LINES``.

    The same search on lines averaged in groups of FLOOR_LINES (rows for ``tx``, columns for ``ty``): a
    shift along the lines moves the lines of a group together, and the squared differences of k lines sum
    to at least k times the squared difference of their means, so every shift's mean squared difference is
    at least the grouped one.  One FLOOR_LINES-th of the transforms."""
    n, k = target.shape[0], FLOOR_LINES
    if n % k:
        return None
    if axis == "tx":  # groups of rows of the window, every column of the extension
        band = source[margin:margin + n, :]
        grouped = band.reshape(n // k, k, band.shape[1]).mean(axis=1), target.reshape(n // k, k, n).mean(axis=1)
        return float(_band_profile(grouped[1], grouped[0], 1).min())
    band = source[:, margin:margin + n]  # groups of columns of the window, every row of the extension
    grouped = band.reshape(band.shape[0], n // k, k).mean(axis=2), target.reshape(n, n // k, k).mean(axis=2)
    return float(_band_profile(grouped[1], grouped[0], 0).min())


def option_errors_on_grid(a_ext: np.ndarray, b: np.ndarray, margin: int, lo: float, hi: float,
                          known: tuple[str, int] | None = None, screen: float | None = None) -> dict[str, Any]:
    """Verify's NRMSE of B against every option, from the extended grid of f alone (no formula).

    Rotations are array rotations of the window part (exact on a pixel-centred square grid: the r90 image
    of a sample point is a sample point); translations are every whole-sample shift within the margin.
    ``known`` = (axis, shift) is B's own translation: that axis is measured at that shift alone when B is
    already below the acceptance threshold there (the best shift can only be lower, and below the threshold
    is all the acceptance rule asks); its error and ``_best_shift`` are then that shift's.

    ``screen`` (a threshold): a translation axis whose lower bound over every shift (``shift_floor``) lies
    ``FLOOR_SLACK`` or more above it is not searched; its error is that bound and its ``_best_shift`` None.
    ``plotted_ok`` decides the same either way (the exact error is at least the bound), and every error
    below the threshold, or near it, is the searched one.

    Only the window's rows and columns of ``a_ext`` are read (its four corners, ``cross_grid``, are not)."""
    n = b.shape[0]
    ext = to_display(a_ext, lo, hi)
    target = to_display(b, lo, hi)
    a = ext[margin:margin + n, margin:margin + n]
    # rows run up the y axis, so np.rot90 (counter-clockwise in array index order) is clockwise on screen
    errors: dict[str, Any] = {"none": nrmse(target, a), "r90": nrmse(target, np.rot90(a, 1)),
                              "r180": nrmse(target, a[::-1, ::-1])}
    for axis in ("tx", "ty"):
        if known is not None and known[0] == axis and abs(known[1]) <= margin:
            s = known[1]
            view = ext[margin:margin + n, margin - s:margin - s + n] if axis == "tx" else (
                ext[margin - s:margin - s + n, margin:margin + n])
            error = nrmse(target, view)
            if error < SIMILARITY - PLOTTED_MARGIN:
                errors[axis], errors[f"{axis}_best_shift"] = error, s
                continue
        if screen is not None:
            floor = shift_floor(target, ext, axis, margin)
            if floor is not None and floor >= screen + FLOOR_SLACK:
                errors[axis], errors[f"{axis}_best_shift"] = floor, None
                continue
        profile = shift_profile(target, ext, axis, margin)
        k = int(np.argmin(profile))
        errors[axis] = float(profile[k])
        errors[f"{axis}_best_shift"] = k - margin
    return errors


# ---------------------------------------------------------------------------------------------------
# Options, question and answer parsing
# ---------------------------------------------------------------------------------------------------


def question_text(option_texts: Sequence[str]) -> str:
    """The paper's question with its instructions (system prompt, A.7, in our words) and numbered options."""
    numbered = "\n".join(f"{k}. {text}" for k, text in enumerate(option_texts, 1))
    return (
        "The image shows two 2D plots of a 3D surface z = f(x, y), each a heatmap or a contour plot: "
        "Plot A on the left and Plot B on the right. "
        f"{QUESTION} "
        "A translation moves the surface by at most 25% of the axis range. Exactly one option is correct; "
        "if unsure, pick the closest one.\n"
        f"{numbered}\n"
        "Answer with the option number only, as <final_answer>option_number</final_answer>."
    )


#: Words models use for the options' words, for answers that name an option by its content ("shifted
#: horizontally", "the plots are identical"); the core scorer applies them (``scoring_hints``).
SYNONYMS: dict[str, str] = {
    "horizontal": "x", "horizontally": "x", "vertical": "y", "vertically": "y", "cw": "clockwise",
    "shift": "translation", "shifted": "translation", "moved": "translation", "move": "translation",
    "identical": "no change", "unchanged": "no change", "the same": "no change", "quarter turn": "rotation 90",
    "half turn": "rotation 180", "upside down": "rotation 180",
}  # fmt: skip


def parse_numbered_option(response: object, options: Sequence[str]) -> tuple[int | None, str | None]:
    """``(number, via)`` chosen by ``response`` among numbered ``options`` (1-based), else ``(None, None)``:
    the core's reading (``bench_core.parse_numbered_option``: the final answer's option number in range, or
    the option its words name -- "a rotation 90 degrees clockwise" is option 1, never 90) with this task's
    synonyms; ``via`` is ``"text"`` where the answer named no number in range."""
    number = core_parse_numbered_option(response, options, synonyms=SYNONYMS)
    if number is None:
        return None, None
    by_number = core_parse_numbered_option(response, [""] * len(options))
    return number, "number" if by_number == number else "text"


# ---------------------------------------------------------------------------------------------------
# The task
# ---------------------------------------------------------------------------------------------------


#: Items per cycle of the pairing: same and different alternate, and the phase turns over after each cycle.
#: 18 = 2 x 9, so every Plot A style (``index % 9``) is once same-style and once different-style per cycle,
#: and a family (``source % 32``) meets both pairings, which strict alternation would forbid (32 is even).
PAIRING_CYCLE = 18


def pairing_slot(random: ItemRandom, index: int | None = None) -> int:
    """The pairing of item ``index`` (default: the item's) as an index into PAIRINGS: alternating, with a seeded
    phase that turns over every PAIRING_CYCLE items.  Every aligned pair of items has one of each; two
    neighbours agree only across a cycle boundary."""
    index = random.index if index is None else index
    phase = random.balanced(2, "pairing-phase", position=0)
    return (index + index // PAIRING_CYCLE + phase) % 2


def _same_style_least(start: int, count: int) -> int:
    """The fewest same-style items among ``start .. start + count - 1`` over both phases of ``pairing_slot``."""
    return min(sum((i + i // PAIRING_CYCLE + phase) % 2 == 0 for i in range(start, start + count))
               for phase in (0, 1))


def _block_parts(start: int, count: int, size: int) -> list[int]:
    """How many of the positions ``start .. start + count - 1`` fall in each aligned block of ``size``."""
    parts: dict[int, int] = {}
    for position in range(start, start + count):
        parts[position // size] = parts.get(position // size, 0) + 1
    return list(parts.values())


def _plot_type_relation(style_a: str, style_b: str) -> tuple[str, str]:
    """('same'|'different' plot type, 'same'|'different'|'n/a' colour map) of a style pair (Table 2's
    splits; the colour-map split only covers pairs where both plots have a colour map)."""
    kind_a, cmap_a = plotting.style_parts(style_a)
    kind_b, cmap_b = plotting.style_parts(style_b)
    plot_type = "same" if kind_a == kind_b else "different"
    if cmap_a is None or cmap_b is None:
        return plot_type, "n/a"
    return plot_type, "same" if cmap_a == cmap_b else "different"


@attrs.frozen
class _Structure:
    """What render, distractors and tests need: the function, the drawn grids, the colour range, the window
    (verify never reads it: it works from the written item)."""

    family_key: str
    params: Mapping[str, Any]
    extent: tuple[float, float, float, float]
    transform: str
    shift_px: int
    z_a: np.ndarray = attrs.field(eq=False, repr=False)
    z_b: np.ndarray = attrs.field(eq=False, repr=False)
    lo: float
    hi: float
    style_a: str
    style_b: str
    option_keys: tuple[str, ...]


class Transformation(TaskImplementation):
    """Generate, render, verify and score marvl/transformation items."""

    _DESIGN_KEYS = ("transform", "family", "pairing", "style_a", "style_b", "source")

    # -- parameters and presets -----------------------------------------------------------------
    def check_params(self, params: Mapping[str, Any]) -> None:
        if params.get("difficulty") is not None:
            fixed = [k for k in ("pairing", "style_a", "style_b") if params[k] is not None]
            if params["preset"] != "none" or fixed:
                what = f"preset={params['preset']} sets them itself" if params["preset"] != "none" else (
                    f"--set {', '.join(fixed)} fixes them")
                raise ParameterError(f"difficulty picks the style pair (and the translation size), but {what}; "
                                     "drop --set difficulty or the other setting")
        if params["preset"] != "none":
            fixed = [k for k in self._DESIGN_KEYS if params.get(k) is not None]
            if fixed:
                raise ParameterError(f"preset={params['preset']} sets {', '.join(self._DESIGN_KEYS)} itself; "
                                     f"drop --set {', '.join(fixed)}")
        if params["family"] is not None:
            keys = [k for k, _ in families()]
            if params["family"] not in keys:
                raise ParameterError(
                    f"parameter 'family': {params['family']!r} is not allowed; allowed: {', '.join(keys)}"
                )
            if (params["transform"] is not None and params["transform"] not in hosts(params["family"])
                    and not params["family_fallback"]):
                raise ParameterError(
                    f"parameters 'family' {params['family']} and 'transform' {params['transform']}: this family cannot "
                    f"host this transformation (the generator's filters reject most or all of such draws); allowed "
                    f"transforms for {params['family']}: {', '.join(hosts(params['family']))}"
                )
        a, b, pairing = params["style_a"], params["style_b"], params["pairing"]
        if a is not None and b is not None and pairing is not None and (a == b) != (pairing == "same"):
            raise ParameterError(f"style_a={a} and style_b={b} contradict pairing={pairing}")

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        if params["preset"] == "mini":
            return self._mini_design(params)
        if params["preset"] == "styles81":
            bases = FULL_BASES if count is None else -(-count // 81)
            return [{**params, "preset": "none", "source": source, "style_a": a, "style_b": b}
                    for source in range(bases) for a in plotting.STYLES for b in plotting.STYLES]
        return super().expand(params, count)

    @staticmethod
    def _mini_design(params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """MaRVL-QA-Mini's transformation part (§3.3): 600 same-style and 600 different-style items, 150 per
        transformation in each half, families round-robin within each block (the next family where the
        filters reject one).  Each block picks up the round-robin where the previous one stopped, so the 32
        families get 37 or 38 items each overall.  Interleaved: every prefix of 8 items covers both halves
        x 4 types."""
        keys = [k for k, _ in families()]
        design = []
        for r in range(MINI_PER_BLOCK):
            for p, pairing in enumerate(PAIRINGS):
                for t, transform in enumerate(TRANSFORMS):
                    block = p * len(TRANSFORMS) + t
                    if pairing == "same":
                        style_a = style_b = plotting.STYLES[(r + 2 * t) % len(plotting.STYLES)]
                    else:
                        style_a, style_b = _DIFFERENT_PAIRS[(r + 18 * t) % len(_DIFFERENT_PAIRS)]
                    design.append({**params, "preset": "none", "transform": transform, "pairing": pairing,
                                   "family": keys[(block * MINI_PER_BLOCK + r) % len(keys)], "family_fallback": True,
                                   "style_a": style_a, "style_b": style_b, "source": len(design)})
        return design

    # -- generation --------------------------------------------------------------------------------
    def _styles(self, params: Mapping[str, Any], random: ItemRandom) -> tuple[str, str]:
        """Plot A's and Plot B's styles.  Unset, Plot A's style repeats one seeded order of the nine
        (``random.balanced`` at position ``index % 9``: any n consecutive items show min(n, 9) of them); the
        pairing alternates (``pairing_slot``); a different-style Plot B is Plot A's style moved along that
        order by a shift balanced over the cycles, so every one of the 72 different pairs comes up once in
        every 144 items."""
        a, b, pairing = params["style_a"], params["style_b"], params["pairing"]
        styles = plotting.STYLES
        count = len(styles)
        if params.get("difficulty") is not None:
            tier, _ = level_knobs(params["difficulty"])
            pairs = tier_pairs(tier)
            return pairs[random.balanced(len(pairs), "difficulty-style", tier)]
        if a is not None and b is not None:
            return a, b
        index = random.index
        if pairing is None:
            pairing = PAIRINGS[pairing_slot(random)]
        residue = index % count
        own = styles[random.balanced(count, "style-order", position=residue)]
        if pairing == "same":
            style = a or b or own
            return style, style
        if a is not None or b is not None:
            # one style fixed: the other cycles through one seeded order of the remaining eight
            fixed = a or b
            others = [s for s in styles if s != fixed]
            other = others[random.balanced(len(others), "other-style", fixed, position=(index // 2) % len(others))]
            return (fixed, other) if a is not None else (other, fixed)
        # one different-style item of each Plot A style per cycle of PAIRING_CYCLE items: the shift is balanced
        # over the cycles, so each of the 72 different pairs comes up once every 8 cycles (144 items)
        shift = 1 + random.balanced(count - 1, "style-shift", residue, position=index // PAIRING_CYCLE)
        return own, styles[random.balanced(count, "style-order", position=(residue + shift) % count)]

    def _base(self, params: Mapping[str, Any], random: ItemRandom) -> tuple[Accepted, dict[str, Any]]:
        """The accepted (f, T) of this item's source.  Unset, the family is the seed's ``family_order`` at
        the source and the transformation comes from ``block_transforms`` (each once per aligned block of
        four sources, each family one it can host); a fixed transformation takes the order of the families
        that host it; a fixed family draws its transformation balanced among those it hosts.  The requested
        pair gets ``BATCHES`` batches of draws; then the next family of the order (or, with a fixed family,
        its next transformation) is tried."""
        source = params["source"] if params["source"] is not None else random.index
        table = families()
        keys = [k for k, _ in table]
        pinned_family, pinned_transform = params["family"], params["transform"]
        if pinned_family is None:
            order = family_order(random, pinned_transform)
            key = order[source % len(order)]
            if pinned_transform is None:
                block, slot = divmod(source, len(TRANSFORMS))
                transform = block_transforms(random, order, block)[slot]
            else:
                transform = pinned_transform
            following = [order[(source + k) % len(order)] for k in range(1, len(order))]
            plan = [(key, transform)] + [(other, transform) for other in following if transform in hosts(other)]
        else:
            key = pinned_family
            hosted = hosts(key) or TRANSFORMS
            transform = pinned_transform or hosted[random.balanced(len(hosted), "transform", key, position=source)]
            start = keys.index(key)
            if params["family_fallback"]:
                plan = [(keys[(start + k) % len(keys)], transform) for k in range(len(keys))]
            elif pinned_transform is None:
                # a pinned family with a drawn transformation: try its others when the filters reject it
                first = TRANSFORMS.index(transform)
                plan = [(key, TRANSFORMS[(first + k) % len(TRANSFORMS)]) for k in range(len(TRANSFORMS))]
            else:
                plan = [(key, transform)]
        rejections: dict[str, int] = {}
        tried = []
        band = None if params.get("difficulty") is None else level_knobs(params["difficulty"])[1]
        for step, (family_key, kind) in enumerate(plan):
            for batch in range(BATCHES if step == 0 else 1):
                stream = ("base", source, family_key, kind) + (("retry", batch) if batch else ())
                rng = random.stream(*stream) if band is None else random.stream(*stream, "shift-band", *band)
                accepted = try_family(family_key, dict(table)[family_key], kind, rng, rejections=rejections,
                                      shift_band=band)
                if accepted is not None:
                    info = {"source": source, "family_requested": key, "transform_requested": transform,
                            "fallbacks": len(tried), "rejections": rejections}
                    return accepted, info
            tried.append((family_key, kind))
        raise GenerationError(
            f"marvl/transformation: no accepted pair for {', '.join(f'{k}/{t}' for k, t in tried)} "
            f"after {DRAWS} draws each; rejections: {rejections}"
        )

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        accepted, info = self._base(params, random)
        family = dict(families())[accepted.family_key]
        extent = window(family.domain)
        side = extent[1] - extent[0]
        shift = accepted.shift_px * side / plotting.PLOT_GRID
        n = plotting.PLOT_GRID
        z_a, z_b, lo, hi, clipped = accepted.plotted or plotted_grids(family, accepted.params, accepted.transform,
                                                                      accepted.shift_px)
        style_a, style_b = self._styles(params, random)
        if params["option_order"] == "shuffled":
            # the answer's position is balanced over the five slots; the other options are shuffled
            others = [k for k in OPTION_KEYS if k != accepted.transform]
            order = [others[int(k)] for k in random.rng.permutation(len(others))]
            order.insert(random.balanced(len(OPTION_KEYS), "answer-position"), accepted.transform)
            option_keys = tuple(order)
        else:
            option_keys = OPTION_KEYS
        options = tuple(OPTION_TEXT[k] for k in option_keys)
        answer = option_keys.index(accepted.transform) + 1
        plot_type, colormap = _plot_type_relation(style_a, style_b)
        pairing = "same" if style_a == style_b else "different"
        # the values of the design parameters under their own names, whether set or drawn (``bench score --by
        # family`` finds a drawn value here, as params hold None), then the older, more specific keys
        metadata = {
            "transform": accepted.transform,
            "family": accepted.family_key,
            "pairing": pairing,
            "style_a": style_a,
            "style_b": style_b,
            "transformation": accepted.transform,
            "transformation_text": OPTION_TEXT[accepted.transform],
            "function_family": accepted.family_key,
            "family_title": getattr(family, "title", family.name),
            "tier": family.tier,
            "a_style": style_a,
            "b_style": style_b,
            "style_pair": f"{style_a}|{style_b}",
            "style_pairing": pairing,
            "plot_type": plot_type,
            "colormap": colormap,
            "shift": accepted.shift_px / plotting.PLOT_GRID,
            "shift_px": accepted.shift_px,
            "window": list(extent),
            "function_params": dict(accepted.params),
            "colour_range": [lo, hi],
            "colour_clipped": clipped,
            "option_keys": list(option_keys),
            "generator_errors": {k: round(v, 6) for k, v in sorted(accepted.errors.items())},
            "draws": accepted.draws,
            "shift_candidate": accepted.candidate,
            "feature_depth": None if accepted.feature_depth is None else round(accepted.feature_depth, 6),
            "diagonal_shift_error": (None if accepted.diagonal_shift_error is None
                                     else round(accepted.diagonal_shift_error, 6)),
            **info,
        }
        if params.get("difficulty") is not None:
            _, band = level_knobs(params["difficulty"])
            metadata["difficulty_knobs"] = {
                "style_tier": style_tier(style_a, style_b),
                "shift_band": list(band) if accepted.transform in ("tx", "ty") else None,
            }
        panels = []
        for name, style, box in zip(("A", "B"), (style_a, style_b), plotting.axes_rects_px("pair", plotting.PAIR_SIZE),
                                    strict=True):
            kind, cmap = plotting.style_parts(style)
            panels.append({"plot": name, "box": box, "style": style, "plot_type": kind, "colormap": cmap})
        metadata["scene"] = {
            "image_size": list(plotting.PAIR_SIZE),
            "function": {"family": accepted.family_key, "params": dict(accepted.params)},
            "sampling": {"samples": n, "extent": list(extent), "decimals": plotting.GRID_DECIMALS},
            "panels": panels,
            "value_range": [lo, hi],
            "range_clipped": clipped,
            "contour_levels": plotting.contour_levels(lo, hi).tolist(),
            "dashed_below": 0.0,
            "transformation": {"kind": accepted.transform, "shift": shift, "shift_samples": accepted.shift_px,
                               "centre": [(extent[0] + extent[1]) / 2, (extent[2] + extent[3]) / 2]},
            "options": list(option_keys),
        }
        structure = _Structure(accepted.family_key, dict(accepted.params), extent, accepted.transform,
                               accepted.shift_px, z_a, z_b, lo, hi, style_a, style_b, option_keys)
        # items that name one source share their base pair (f, T) whatever their styles (the 81 variants)
        pair = None
        if params["source"] is not None:
            pair = f"{random.seed}:{info['source']}:{params['transform'] or '*'}:{params['family'] or '*'}"
        return Problem(
            question=question_text(options),
            answer=str(answer),
            image_size=plotting.PAIR_SIZE,
            params=params,
            options=options,
            answer_type="integer",
            variant=f"{pairing}-style",
            pair=pair,
            metadata=metadata,
            structure=structure,
        )

    def categorical_coverage(self, name: str, params: Mapping[str, Any], start: int, count: int
                             ) -> tuple[int, str] | None:
        """The fewest distinct values of the drawn parameter ``name`` that items ``start .. start + count - 1``
        can show, with the reason, where the design cannot promise min(count, number of choices); None where
        it can.  (Read by the repository's categorical-coverage test.)"""
        if (params.get("preset", "none") != "none" or params.get("difficulty") is not None
                or any(params.get(k) is not None for k in self._DESIGN_KEYS)):
            return 1, "the spread is designed for the default draws; set parameters and presets make no promise"
        if name == "transform":
            parts = _block_parts(start, count, len(TRANSFORMS))
            if min(count, len(TRANSFORMS)) <= max(parts):
                return None
            return max(parts), ("the transformation (the answer) is balanced over aligned blocks of four sources; "
                                "it cannot also repeat one order, or with the 32-family order each family would "
                                "always get the same one; a run across two blocks shows at least the larger part")
        if name == "pairing":
            if count != 2 or (start + 1) % PAIRING_CYCLE:
                return None
            return 1, f"same and different alternate, but the phase turns over every {PAIRING_CYCLE} items"
        if name == "style_b":
            # Plot A's styles differ within any nine items, and Plot B shows them on the same-style items
            guaranteed = max(1, _same_style_least(start, min(count, len(plotting.STYLES))))
            if guaranteed >= min(count, len(plotting.STYLES)):
                return None
            return guaranteed, ("Plot B repeats Plot A's style on same-style items and all 72 different pairs stay "
                                "balanced (a shift per cycle), so only the same-style items are certain to show "
                                "distinct Plot B styles; runs of nine show about six on average")
        return None

    def difficulty_position(self, params: Mapping[str, Any], random: ItemRandom) -> int:
        """Items of one source share their level (and so their base pair's translation band)."""
        return params["source"] if params.get("source") is not None else random.index

    def hardness(self, item: Item) -> float:
        """The style tier of the pair (0-3, ``style_tier`` of the recorded styles) plus, for a translation, how
        short its shift is: 0 at 25 % of the window, 1 at 8 %."""
        meta = item.metadata
        value = float(style_tier(meta["a_style"], meta["b_style"]))
        if meta["transformation"] in ("tx", "ty"):
            closeness = (MAX_SHIFT - abs(float(meta["shift"]))) / (MAX_SHIFT - MIN_SHIFT)
            value += min(1.0, max(0.0, closeness))
        return value

    def render(self, problem: Problem) -> list[Image]:
        s: _Structure = problem.structure
        picture = plotting.render_pair(s.z_a, s.z_b, s.extent, s.style_a, s.style_b, vmin=s.lo, vmax=s.hi)
        picture.info[PNG_LEVEL] = ZLIB_LEVEL
        return [picture]

    # -- verification ------------------------------------------------------------------------------
    def verify(self, item: Item, images: Sequence[Image]) -> list[str]:
        """Prove the item from its record and pixels alone (``verifiers.transformation``): apply every
        option's transformation to the recorded function with the verifier's own code, show that exactly
        the answer reproduces Plot B, and confirm that the left panel's pixels show A and the right B."""
        from bench_plugin_marvl.verifiers.transformation import verify

        return verify(item, images)

    # -- scoring and distractors ---------------------------------------------------------------------
    def score(self, item: Item, response: Any) -> Score:
        """The core scorer of numbered options (``score_item`` with this task's synonyms: what a trainer's
        scoring record gives too), with the chosen transformation's key."""
        base = score_item(item, response, synonyms=SYNONYMS)
        number = base.parsed if isinstance(base.parsed, int) else None
        keys = item.metadata.get("option_keys") or list(OPTION_KEYS)  # shuffled items record their order
        chosen = keys[number - 1] if number is not None and 1 <= number <= len(keys) else None
        # option numbers go into the details as text, so a report does not average them like quantities
        details: dict[str, Any] = {"parsed": None if number is None else str(number), "answered": number is not None,
                                   "gold": item.answer.strip(), "chosen": chosen}
        return Score(base.value, parsed=number, answered=number is not None, details=details)

    def scoring_hints(self, item: Item) -> Mapping[str, Any]:
        """The synonyms the scorer applies to answers given in words."""
        return {"synonyms": SYNONYMS}

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        """The other option numbers, most confusable first (smallest verify-side NRMSE is unknown here, so
        the generator's)."""
        s: _Structure = problem.structure
        errors = problem.metadata.get("generator_errors", {})
        wrong = sorted((key for key in s.option_keys if key != s.transform), key=lambda k: errors.get(k, math.inf))
        return [str(s.option_keys.index(key) + 1) for key in wrong][:count]


TASK = Transformation()
