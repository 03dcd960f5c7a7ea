"""The artefact verifier of ``marvl/counting``: recount the extrema of the recorded function, check the
answer and options against the recount, and confirm on the pixels that the plot shows that function.

The recount is this module's own: the family formula evaluated by ``surfaces`` on a grid of the
verifier's choosing (a spacing and offset unlike the drawn samples'), extended past the plot by the
border band.  A sample no neighbour exceeds is a candidate; a candidate counts as a feature only if it is
the top of its own hill, i.e. no higher sample is reachable from it within a small window without going
down by ``DROP`` of the value range.  That removes the extra grid maxima an oblique ridge produces next to
its true top, while every extremum the task may count (the task promises a topographic prominence of 6 %
of the range and 12 rendered pixels between extrema) keeps its top.  Exactly tied samples (values that
underflow to the same number far from every bump) are resolved by following the whole flat region:
it is a feature only if nothing around it is higher, and such a flat top inside the plot is a failure.

Features closer to a plot edge than the border band (3 % of the plot width, inside or outside) make the
count ambiguous and fail; the answer is the number of features inside the plot.

A contour-only plot tells peaks from valleys by its dashes, as its question says: a closed ring around
lower ground is dashed, every other line solid.  The verifier finds the innermost ring around every
recounted feature of both kinds on its own grid (``ring_styles``) and requires it, on the pixels, solid
around a maximum and dashed around a minimum.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bench_core import Item, option_letters
from bench_plugin_marvl.verifiers import surfaces
from bench_plugin_marvl.verifiers.pixels import Plot, check_plot

#: Grid steps across the plot of the recount grid, and the fractional offsets of its first sample.
STEPS = 300
OFFSET = (0.29, 0.61)
#: Window radius (grid steps) within which a candidate must not reach higher ground.
WINDOW = 6
#: The descent, as a fraction of the value range, that separates a hill from the one next to it.
DROP = 0.03
#: How far (grid steps) a recounted feature's position may stray: from the band's edge, and from the
#: extremum the scene records.
POSITION_SLACK = 1.5
MATCH_STEPS = 3.0
#: Contour-only rings (``ring_styles``): window half-width (samples) in which a feature's innermost ring
#: must close, the distance (pixels) from the level set of a ring pixel, the smallest slope (fraction of the
#: level spacing per sample) and pixel count of a ring worth judging, the darkest-channel bound of ink.
RING_WINDOW = 60
ON_RING_PX = 0.3
MIN_RING_SLOPE = 0.05
MIN_RING_PIXELS = 16
RING_INK = 160
#: A ring whose pixels are at least this often ink is solid (solid rings measure 1.0, dashed ones 0.8 at most).
SOLID_RING = 0.9
#: Phrases of the question's dashed-ring rule for contour-only plots.
_DASH_RULE = ("contour line is dashed when the values just inside it are lower", "solid when they are higher")
#: A top of at most this many exactly equal samples is a point top between samples, not a plateau.
SMALL_TIE = 4
#: The wording of the question for each set of counted kinds.
_WHAT = {("maxima",): "local maxima", ("minima",): "local minima", ("maxima", "minima"): "local extrema"}


def verify(item: Item, images: Sequence[Any], stats: dict[str, float] | None = None) -> list[str]:
    """Every failure of a ``marvl/counting`` item: recount, answer, options, scene consistency, pixels
    (the pixel measurements go into ``stats`` when given)."""
    scene = item.metadata["scene"]
    try:
        name = scene["function"]["family"]
        params = scene["function"]["params"]
        extent = [float(v) for v in scene["sampling"]["extent"]]
        kinds = tuple(sorted(scene["count"]["kinds"]))
        band = float(scene["count"]["border_band"])
    except (KeyError, TypeError, ValueError) as exc:
        return [f"the scene record lacks {exc}"]
    if name not in surfaces.KNOWN:
        return [f"unknown function family {name!r} in the scene record"]
    if kinds not in _WHAT:
        return [f"the scene counts {list(kinds)}, not maxima, minima or both"]
    failures: list[str] = []
    if f"How many {_WHAT[kinds]}" not in item.question:
        failures.append(f"the question does not ask for {_WHAT[kinds]}")
    lines_only = scene.get("plot_type") == "contour"
    if lines_only and scene.get("dashed") != "hollows":
        failures.append("a contour-only plot whose scene does not say that the rings of hollows are dashed")
    if lines_only != all(phrase in item.question for phrase in _DASH_RULE):
        failures.append("the question " + ("does not state" if lines_only else "states")
                        + " the dashed-ring rule of contour-only plots")
    try:
        found = recount(name, params, extent, kinds, band)
        failures += found.problems
        failures += _answer_failures(item, found.count)
        failures += _record_failures(scene, found, extent)
        if images:
            features = dict(found.features)
            if lines_only:  # every feature's ring tells a rise from a hollow, counted or not
                others = tuple(k for k in ("maxima", "minima") if k not in kinds)
                if others:
                    features.update(recount(name, params, extent, others, band).features)
            failures += _pixel_failures(scene, name, params, images[0], stats, features)
    except surfaces.BadParameters as exc:
        failures.append(str(exc))
    return failures


class Recount:
    """What the recount found: interior features per kind (x, y), the count, and what made it doubtful."""

    def __init__(self) -> None:
        self.features: dict[str, list[tuple[float, float]]] = {}
        self.problems: list[str] = []
        self.step = 0.0

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.features.values())


def recount(name: str, params: Mapping[str, Any], extent: Sequence[float], kinds: Sequence[str],
            band: float) -> Recount:
    """The local extrema of ``kinds`` of the family ``name`` inside ``extent`` (see the module docstring)."""
    xmin, xmax, ymin, ymax = extent
    width, height = xmax - xmin, ymax - ymin
    pad = band + (WINDOW + 2) / STEPS
    count = math.ceil((1 + 2 * pad) * STEPS)
    xs = xmin - pad * width + (np.arange(count) + OFFSET[0]) * (width / STEPS)
    ys = ymin - pad * height + (np.arange(count) + OFFSET[1]) * (height / STEPS)
    f = surfaces.grid(name, params, xs, ys)
    result = Recount()
    result.step = width / STEPS
    if not np.isfinite(f).all():
        result.problems.append("the recorded function is undefined on the recount grid")
        return result
    inside_x = (xs >= xmin) & (xs <= xmax)
    inside_y = (ys >= ymin) & (ys <= ymax)
    part = f[np.ix_(inside_y, inside_x)]
    span = float(part.max() - part.min())
    if span <= 0:
        result.problems.append("the recorded function is constant on the plot")
        return result
    slack = POSITION_SLACK / STEPS
    for kind in kinds:
        g = f if kind == "maxima" else -f
        strict, tied = _candidates(g)
        tops, flats = _flat_tops(g, tied, xs, ys, extent)
        tops += _hill_tops(g, strict, DROP * span)
        kept = []
        for x, y in ((_at(xs, c), _at(ys, r)) for r, c in tops):
            edge = min((x - xmin) / width, (xmax - x) / width, (y - ymin) / height, (ymax - y) / height)
            if abs(edge) < band - slack:
                result.problems.append(f"a local {kind[:-1]}um at ({x:.3f}, {y:.3f}) lies within the border band "
                                       f"({band:.0%} of the plot) of an edge: the count is ambiguous")
            elif edge > 0:
                kept.append((x, y))
        if flats:
            result.problems.append(f"{flats} flat {kind} plateau(s) inside the plot: no point extremum to count")
        result.features[kind] = kept
    return result


def _at(axis: np.ndarray, index: float) -> float:
    """Position of a fractional grid index on ``axis`` (evenly spaced)."""
    return float(axis[0] + index * (axis[1] - axis[0]))


def _candidates(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inner samples of ``g`` that no neighbour exceeds, split into strict tops (every one of the 8
    neighbours lower) and tied ones (an equal neighbour and a lower one): two (k, 2) arrays of (row, col)."""
    where = _row_tops(g) if SPARSE_CANDIDATES else None
    if where is None:
        across = np.maximum(np.maximum(g[:, :-2], g[:, 1:-1]), g[:, 2:])
        around = np.maximum(np.maximum(across[:-2], across[1:-1]), across[2:])  # 3 x 3 maximum, centre included
        where = np.argwhere(g[1:-1, 1:-1] >= around) + 1
    if not len(where):
        return where, where
    value = g[where[:, 0], where[:, 1]]
    ring = np.stack([g[where[:, 0] + dr, where[:, 1] + dc]
                     for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc], axis=1)
    strict = (ring < value[:, None]).all(axis=1)
    tied = ~strict & (ring.min(axis=1) < value)
    return where[strict], where[tied]


#: ``_candidates`` reads the 3 x 3 neighbourhood only at the inner samples no lower than their two row
#: neighbours (``_row_tops``); False: every sample's (the tests compare the two).
SPARSE_CANDIDATES = True


def _row_tops(g: np.ndarray) -> np.ndarray | None:
    """``np.argwhere`` (+ 1) of the inner samples of ``g`` no lower than any of their 8 neighbours (NaN fails), as
    ``_candidates`` finds them over the whole grid: such a sample is no lower than its two row neighbours,
    which few samples of a landscape are, so the other six are read at those alone.  None where more than an
    eighth of the samples pass the row test (a flat grid: the whole-grid route is no slower)."""
    rows, cols = g.shape
    if rows < 3 or cols < 3:
        return None
    # the row test on the grid read as one long row (contiguous: quicker than column slices), kept on the inner
    # samples, whose neighbours there are their row neighbours
    line = np.ravel(g)
    passing = np.zeros(line.size, dtype=bool)
    np.greater_equal(line[1:-1], line[:-2], out=passing[1:-1])
    passing[1:-1] &= line[1:-1] >= line[2:]
    mask = passing.reshape(rows, cols)[1:-1, 1:-1]
    flat = np.flatnonzero(mask)
    if flat.size > mask.size // 8:
        return None
    r, c = flat // (cols - 2) + 1, flat % (cols - 2) + 1
    value = g[r, c]
    keep = value >= value  # NaN fails
    for dr in (-1, 1):
        for dc in (-1, 0, 1):
            keep &= value >= g[r + dr, c + dc]
    return np.stack([r[keep], c[keep]], axis=1)


def _hill_tops(g: np.ndarray, where: np.ndarray, drop: float) -> list[tuple[float, float]]:
    """(row, col), refined to a fraction of a step, of the strict tops ``where`` of ``g`` that are the
    highest point of their hill within ``WINDOW`` steps (no higher sample reachable without descending by
    ``drop``)."""
    if not len(where):
        return []
    r = WINDOW
    padded = np.pad(g, r, constant_values=-np.inf)
    offsets = np.arange(-r, r + 1)
    windows = padded[(where[:, 0] + r)[:, None, None] + offsets[None, :, None],
                     (where[:, 1] + r)[:, None, None] + offsets[None, None, :]]
    value = g[where[:, 0], where[:, 1]]
    allowed = windows >= (value - drop)[:, None, None]
    reach = np.zeros(windows.shape, dtype=bool)
    reach[:, r, r] = True
    for _ in range(4 * (2 * r + 1)):
        spread = _dilate(reach, axes=(1, 2)) & allowed
        if np.array_equal(spread, reach):
            break
        reach = spread
    higher = (reach & (windows > value[:, None, None])).any(axis=(1, 2))
    tops = []
    for (row, col), rejected in zip(where.tolist(), higher.tolist(), strict=True):
        if rejected:
            continue
        tops.append((row + _vertex(g[row - 1, col], g[row, col], g[row + 1, col]),
                     col + _vertex(g[row, col - 1], g[row, col], g[row, col + 1])))
    return tops


def _vertex(before: float, centre: float, after: float) -> float:
    """Offset (in steps, within half a step) of the vertex of the parabola through three samples."""
    curvature = before - 2 * centre + after
    if curvature >= 0:
        return 0.0
    return float(np.clip(0.5 * (before - after) / curvature, -0.5, 0.5))


def _flat_tops(g: np.ndarray, seeds: np.ndarray, xs: np.ndarray, ys: np.ndarray, extent: Sequence[float]
               ) -> tuple[list[tuple[float, float]], int]:
    """Tops of ``g`` made of exactly equal samples, grown from the tied candidates ``seeds``: the small ones
    (at most ``SMALL_TIE`` samples, a point top that falls between samples) as (row, col) of their centre,
    and the number of larger ones (flat plateaus) that reach into the plot.

    A flat region is a top only if none of its samples has a higher neighbour, so the regions are the
    connected components of equal neighbours among the samples with no higher neighbour, and a component
    that touches an equal sample outside that set is no top.  Components come from a vectorised
    union-find (hook every edge's larger root to the smaller, then compress paths), so a long flat trough
    floor costs a few array passes, not one pass per sample of its length."""
    if not len(seeds):
        return [], 0
    rows, cols = g.shape
    across = np.maximum(np.maximum(g[:, :-2], g[:, 1:-1]), g[:, 2:])
    around = np.maximum(np.maximum(across[:-2], across[1:-1]), across[2:])
    candidate = np.zeros(g.shape, dtype=bool)  # no higher neighbour (inner samples)
    candidate[1:-1, 1:-1] = g[1:-1, 1:-1] >= around
    index = np.arange(rows * cols).reshape(rows, cols)
    firsts, seconds, leaks = [], [], []
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        one = (slice(0, rows - dr), slice(max(-dc, 0), cols - max(dc, 0)))
        two = (slice(dr, rows), slice(max(dc, 0), cols + min(dc, 0)))
        equal = g[one] == g[two]
        inside_one, inside_two = candidate[one], candidate[two]
        linked = equal & inside_one & inside_two
        firsts.append(index[one][linked])
        seconds.append(index[two][linked])
        leaks += [index[one][equal & inside_one & ~inside_two], index[two][equal & inside_two & ~inside_one]]
    first, second = np.concatenate(firsts), np.concatenate(seconds)
    seed_index = seeds[:, 0] * cols + seeds[:, 1]
    nodes = np.unique(np.concatenate([first, second, seed_index]))
    a, b = np.searchsorted(nodes, first), np.searchsorted(nodes, second)
    root = np.arange(len(nodes))
    while True:
        ra, rb = root[a], root[b]
        apart = ra != rb
        if not apart.any():
            break
        np.minimum.at(root, np.maximum(ra[apart], rb[apart]), np.minimum(ra[apart], rb[apart]))
        while True:
            jumped = root[root]
            if np.array_equal(jumped, root):
                break
            root = jumped
    count = len(nodes)
    leaky = np.zeros(count, dtype=bool)
    leak = np.concatenate(leaks)
    known = np.isin(leak, nodes)
    leaky[root[np.searchsorted(nodes, leak[known])]] = True
    size = np.bincount(root, minlength=count)
    node_rows, node_cols = nodes // cols, nodes % cols
    xmin, xmax, ymin, ymax = extent
    in_plot = (xs[node_cols] >= xmin) & (xs[node_cols] <= xmax) & (ys[node_rows] >= ymin) & (ys[node_rows] <= ymax)
    reaches_in = np.zeros(count, dtype=bool)
    reaches_in[root[in_plot]] = True
    mean_row = np.bincount(root, weights=node_rows, minlength=count) / np.maximum(size, 1)
    mean_col = np.bincount(root, weights=node_cols, minlength=count) / np.maximum(size, 1)
    small: list[tuple[float, float]] = []
    plateaus = 0
    for top in np.unique(root[np.searchsorted(nodes, seed_index)]).tolist():
        if leaky[top]:
            continue
        if size[top] <= SMALL_TIE:
            small.append((float(mean_row[top]), float(mean_col[top])))
        elif reaches_in[top]:
            plateaus += 1
    return small, plateaus


def ring_styles(z: np.ndarray, plot: Plot, pixels: np.ndarray, features: Mapping[str, Sequence[tuple[float, float]]]
                ) -> list[tuple[str, tuple[float, float], float, int]]:
    """The drawn style of the innermost contour ring around every feature, as (kind, position, share of
    the ring's pixels that are ink, number of those pixels).

    ``z`` is the verifier's evaluation at the drawn samples.  A feature's innermost ring is the level just
    below a maximum (just above a minimum); its region is the part of the superlevel (sublevel) set that
    holds the feature, grown from it over the samples of a window around it (``_ring_region``).  Rings
    whose region reaches the window's or the plot's edge with 4- or with 8-connected growth are left out:
    the drawn line may run off the plot or be joined to another through a saddle cell.  The ring's pixels
    are the pixel centres within ``ON_RING_PX`` of the level set next to the region (by the local slope),
    with a usable slope."""
    levels = plot.levels
    n = plot.samples
    xmin, xmax, ymin, ymax = plot.extent
    hx, hy = (xmax - xmin) / n, (ymax - ymin) / n
    out = []
    for kind, points in features.items():
        s = 1.0 if kind == "maxima" else -1.0
        g = s * z
        for x, y in points:
            col = int(np.clip(round((x - xmin) / hx - 0.5), 0, n - 1))
            row = int(np.clip(round((y - ymin) / hy - 0.5), 0, n - 1))
            r0, r1, c0, c1 = max(row - 2, 0), min(row + 3, n), max(col - 2, 0), min(col + 3, n)
            local = g[r0:r1, c0:c1]
            dr, dc = np.unravel_index(int(np.argmax(local)), local.shape)
            row, col = r0 + int(dr), c0 + int(dc)
            top = float(g[row, col])
            ring = np.sort(s * levels)
            below = ring[ring < top]
            if not below.size:
                continue
            level = float(below[-1])  # in g's units
            found = _ring_region(g, row, col, level)
            if found is None:
                continue
            region, r0, c0 = found
            # the region's box with a margin: the ring's pixels lie inside it
            rows_in, cols_in = np.flatnonzero(region.any(axis=1)), np.flatnonzero(region.any(axis=0))
            r1, c1 = min(r0 + int(rows_in[-1]) + 4, n), min(c0 + int(cols_in[-1]) + 4, n)
            r0, c0 = max(r0 + int(rows_in[0]) - 3, 0), max(c0 + int(cols_in[0]) - 3, 0)
            region = _dilate(_dilate(_crop(found, r0, c0, r1, c1)))
            # pixels of the box: their continuous sample coordinates and interpolated values
            left = plot.left + c0 * plot.px_per_sample
            right = plot.left + c1 * plot.px_per_sample
            top_px = plot.bottom - r1 * (plot.bottom - plot.top) / n
            bottom_px = plot.bottom - r0 * (plot.bottom - plot.top) / n
            cols = np.arange(int(np.ceil(left)), int(np.floor(right)))
            rows = np.arange(int(np.ceil(top_px)), int(np.floor(bottom_px)))
            v, u = plot.to_samples(rows, cols)
            fv, fu = v[:, None] - 0.5, u[None, :] - 0.5
            i0 = np.clip(np.floor(fv).astype(int), 0, n - 2)
            j0 = np.clip(np.floor(fu).astype(int), 0, n - 2)
            ty, tx = np.clip(fv - i0, 0, 1), np.clip(fu - j0, 0, 1)
            z00, z01, z10, z11 = g[i0, j0], g[i0, j0 + 1], g[i0 + 1, j0], g[i0 + 1, j0 + 1]
            lower = z00 + (z01 - z00) * tx
            upper = z10 + (z11 - z10) * tx
            value = lower + (upper - lower) * ty
            slope = np.hypot((z01 - z00) * (1 - ty) + (z11 - z10) * ty, upper - lower) / plot.px_per_sample
            spacing = float(np.min(np.diff(levels)))
            near_region = region[np.clip(i0 - r0, 0, region.shape[0] - 1), np.clip(j0 - c0, 0, region.shape[1] - 1)]
            on_ring = (near_region & (slope * plot.px_per_sample >= MIN_RING_SLOPE * spacing)
                       & (np.abs(value - level) <= ON_RING_PX * slope))
            count = int(on_ring.sum())
            if count < MIN_RING_PIXELS:
                continue
            patch = pixels[np.ix_(rows, cols)]
            ink = np.maximum(np.maximum(patch[..., 0], patch[..., 1]), patch[..., 2]) <= RING_INK
            out.append((kind, (x, y), float(ink[on_ring].mean()), count))
    return out


def _ring_region(g: np.ndarray, row: int, col: int, level: float) -> tuple[np.ndarray, int, int] | None:
    """The samples of ``g > level`` 4-connected to (row, col), as (mask, first row, first column) of a
    square window around it that neither the 4- nor the 8-connected region reaches the edge of; windows
    grow up to ``RING_WINDOW``.  None if a region reaches the plot's or the largest window's edge."""
    n0, n1 = g.shape
    for half in (RING_WINDOW // 5, RING_WINDOW // 2, RING_WINDOW):
        r0, r1 = max(row - half, 0), min(row + half + 1, n0)
        c0, c1 = max(col - half, 0), min(col + half + 1, n1)
        allowed = g[r0:r1, c0:c1] > level
        seed = np.zeros(allowed.shape, dtype=bool)
        seed[row - r0, col - c0] = True
        # the 8-connected region holds the 4-connected one: where it keeps off the window's edges, so does the
        # other, which is then grown; where it does not, the window fails either way
        wide = _grow(seed, allowed, True)
        if not (wide[0].any() or wide[-1].any() or wide[:, 0].any() or wide[:, -1].any()):
            return _grow(seed, allowed, False), r0, c0
    return None


def _crop(found: tuple[np.ndarray, int, int], r0: int, c0: int, r1: int, c1: int) -> np.ndarray:
    """The rows r0:r1 and columns c0:c1 (plot samples) of a region ``(mask, first row, first column)``,
    False outside the mask."""
    mask, m0, n0 = found
    out = np.zeros((r1 - r0, c1 - c0), dtype=bool)
    a0, a1 = max(r0, m0), min(r1, m0 + mask.shape[0])
    b0, b1 = max(c0, n0), min(c1, n0 + mask.shape[1])
    out[a0 - r0:a1 - r0, b0 - c0:b1 - c0] = mask[a0 - m0:a1 - m0, b0 - n0:b1 - n0]
    return out


def _grow(seed: np.ndarray, allowed: np.ndarray, diagonal: bool) -> np.ndarray:
    """The part of ``allowed`` connected to ``seed`` (4-connected, or 8-connected with ``diagonal``).

    Each round spreads over whole runs of ``allowed`` along the rows, then along the columns (one step of
    a path that turns at most once per round), then (8-connected) one diagonal step; a handful of rounds
    fill a ring's region."""
    reach = seed & allowed
    while True:
        grown = _runs(_runs(reach, allowed), allowed, axis=0)
        if diagonal:
            grown = _runs(_runs(_dilate(grown) & allowed, allowed), allowed, axis=0)
        if np.array_equal(grown, reach):
            return reach
        reach = grown


def _runs(reach: np.ndarray, allowed: np.ndarray, axis: int = 1) -> np.ndarray:
    """``reach`` spread over every run of ``allowed`` (along ``axis``) that it touches."""
    if axis == 0:
        return _runs(reach.T, allowed.T).T
    starts = allowed.copy()
    starts[:, 1:] &= ~allowed[:, :-1]
    label = np.cumsum(starts.ravel()).reshape(allowed.shape)
    label[~allowed] = 0
    hit = np.zeros(int(label.max()) + 1, dtype=bool)
    hit[label[reach & allowed]] = True
    hit[0] = False
    return hit[label]


def _dilate(mask: np.ndarray, axes: tuple[int, int] = (0, 1)) -> np.ndarray:
    """``mask`` grown by one sample in all 8 directions (over the two ``axes``)."""
    first, second = axes
    out = mask.copy()
    lo, hi = [slice(None)] * mask.ndim, [slice(None)] * mask.ndim
    lo[first], hi[first] = slice(1, None), slice(None, -1)
    out[tuple(lo)] |= mask[tuple(hi)]
    out[tuple(hi)] |= mask[tuple(lo)]
    wide = out.copy()
    lo, hi = [slice(None)] * mask.ndim, [slice(None)] * mask.ndim
    lo[second], hi[second] = slice(1, None), slice(None, -1)
    wide[tuple(lo)] |= out[tuple(hi)]
    wide[tuple(hi)] |= out[tuple(lo)]
    return wide


def _answer_failures(item: Item, count: int) -> list[str]:
    """The answer (open format) or the one option holding the count and its letter (choice format)."""
    if item.options is None:
        if item.answer.strip() != str(count):
            return [f"answer {item.answer!r} differs from the recount {count}"]
        return []
    options = list(item.options)
    holding = [k for k, option in enumerate(options) if option.strip() == str(count)]
    if len(holding) != 1:
        return [f"{len(holding)} options hold the recount {count} (options {options})"]
    letter = option_letters(len(options))[holding[0]]
    if item.answer.strip() != letter:
        return [f"answer {item.answer!r} is not the letter {letter} of the option holding the recount {count}"]
    failures = [f"option {o!r} is not a count" for o in options if not re.fullmatch(r"\d+", o.strip())]
    return failures


def _record_failures(scene: Mapping[str, Any], found: Recount, extent: Sequence[float]) -> list[str]:
    """The scene's recorded extrema are the recounted features (one-to-one, within a few grid steps)."""
    recorded = scene.get("extrema") or {}
    failures = []
    tolerance = MATCH_STEPS * found.step
    for kind, mine in found.features.items():
        theirs = [tuple(p) for p in recorded.get(kind, [])]
        if len(theirs) != len(mine):
            failures.append(f"the scene records {len(theirs)} {kind}, the recount finds {len(mine)}")
            continue
        if mine and theirs:
            a, b = np.asarray(mine), np.asarray(theirs, dtype=float)
            gaps = np.hypot(a[:, None, 0] - b[None, :, 0], a[:, None, 1] - b[None, :, 1])
            if (gaps.min(axis=1) > tolerance).any() or (gaps.min(axis=0) > tolerance).any():
                failures.append(f"the recorded {kind} positions are not where the recount finds them")
    return failures


def _pixel_failures(scene: Mapping[str, Any], name: str, params: Mapping[str, Any], image: Any,
                    stats: dict[str, float] | None = None,
                    features: Mapping[str, Sequence[tuple[float, float]]] | None = None) -> list[str]:
    """The plot shows the recorded function in the recorded style (``pixels.check_plot``); in a
    contour-only plot the innermost ring of every feature (``features``) is solid around a maximum and
    dashed around a minimum (``ring_styles``), as the question says."""
    style, kind, colormap = scene.get("style"), scene.get("plot_type"), scene.get("colormap")
    expected = kind if colormap is None else f"{kind}-{colormap}"
    if style != expected:
        return [f"style {style!r} disagrees with plot type {kind!r} and colour map {colormap!r}"]
    plot = Plot.from_record({"box": scene["plot_box"], "plot_type": kind, "colormap": colormap}, scene)
    xs, ys = plot.sample_axes()
    z = surfaces.grid(name, params, xs, ys)
    failures = []
    decimals = int(scene["sampling"].get("decimals", 6))
    slack = 10.0 ** -decimals + 1e-9 * float(np.max(np.abs(z)))
    lo, hi = float(z.min()), float(z.max())
    if abs(lo - plot.vmin) > slack or abs(hi - plot.vmax) > slack:
        failures.append(f"colour range {[plot.vmin, plot.vmax]} is not the range {[lo, hi]} of the drawn values")
    levels = plot.levels
    if kind != "heatmap" and (levels.size == 0 or levels[0] <= plot.vmin or levels[-1] >= plot.vmax):
        failures.append("contour levels are missing or outside the colour range")
    pixels = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    failures += check_plot(pixels, plot, z, "the plot", stats)
    if plot.hollows and features:
        for kind, (x, y), share, _ in ring_styles(z, plot, pixels, features):
            solid = share >= SOLID_RING
            if solid != (kind == "maxima"):
                failures.append(f"the innermost contour ring around the local {kind[:-1]}um at ({x:.2f}, {y:.2f}) "
                                f"is {'solid' if solid else 'dashed'} ({share:.0%} ink), not "
                                f"{'solid' if kind == 'maxima' else 'dashed'}")
    return failures
