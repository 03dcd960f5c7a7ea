"""Reading a MaRVL-QA plot back from its pixels and checking it against values the verifier computed itself.

A plot panel is described by its scene record: the pixel rectangle where the data extent is drawn, the
extent, the number of samples per axis (values are drawn at the pixel centres of the extent, nearest
sample per pixel), the plot type, the colour map, the colour range and the contour levels.  Given the
verifier's own evaluation ``z`` of the recorded function on those samples, :func:`check_plot` confirms:

* heatmap pixels: every pixel's colour is an entry of the colour map's lookup table, and its index is the
  one ``z`` gives at that pixel (within one step, and within the values of the neighbouring samples, since
  a pixel on a sample boundary may show either sample); the colour indices and ``z`` also correlate;
* contour lines (black lines alone, or pale lines over a heatmap): every line pixel has a level of ``z``
  within two pixels (a level between the smallest and largest value of ``z`` there), and the level sets
  of ``z`` are drawn: pixels where a level of the interpolated ``z`` passes through the pixel centre have
  line ink on them or next to them (dashed levels less often: the gaps of the dashes; a plot that dashes
  the rings of hollows has ink within two pixels of every such place).  A level passes there if its
  first-order distance is under ``ON_LINE_PX`` and the drawn samples around the pixel actually cross it
  (a level a hair above a trough's flat floor has a distance that runs on through the floor, but no line
  where the samples stay above it).  Both are also counted per tile of the panel, because a misdrawn
  patch (the rings of an extra bump) is local.  Both allow for the rounding the scene declares
  (``sampling.decimals``: the drawn values are rounded to that many places, and the recorded levels to as
  many): where a level lies within that of the values, the rounding decides whether a line is drawn
  (along a trough floor at the level's value, say), and neither a line nor its absence tells anything.

The thresholds leave room for anti-aliasing and interpolation and nothing more: a plot of another
function, a panel of the other plot, an extra bump or a reversed colour map fails by a wide margin.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

#: Pixels kept clear of the panel frame (the spines are drawn over the data edge).
FRAME = 3
#: Lattice step (pixels) of the sampled pixels.
STRIDE = 3
#: Heatmap: largest fraction of colour-map pixels whose index disagrees with the computed value, and the
#: smallest fraction of the sampled pixels that must be colour-map entries (heatmap alone / under lines).
MAX_VALUE_MISMATCH = 0.002
MIN_COLOUR_MAP_PIXELS = {"heatmap": 0.995, "heatmap-contour": 0.15}
#: Smallest correlation between pixel-derived colour indices and computed values.
MIN_CORRELATION = 0.99
#: Contours: an ink pixel is explained if a level set passes within this many pixels of its centre.
INK_REACH_PX = 2.0
#: Largest fraction of ink pixels that no level set explains, overall and as a count within one tile of
#: TILE x TILE sampled pixels (a misdrawn patch, e.g. the rings of an extra bump, is local).
MAX_STRAY_INK = 0.01
MAX_STRAY_INK_TILE = 3
TILE = 16
#: Largest count, within one tile, of sampled pixels on a solid level set with no line next to them.
MAX_MISSING_TILE = 3
MAX_MISSING_TILE_HOLLOWS = 8  # with the dashed rings of hollows (scene "dashed": "hollows")
#: A level set passing within this many pixels of a pixel centre is "on" the pixel; such pixels must have
#: ink on them or on one of their 4 neighbours at least this often (solid lines, dashed lines).
ON_LINE_PX = 0.3
MIN_LINE_COVERAGE = {"solid": 0.9, "dashed": 0.7}
#: Pixels with a local value slope below this fraction of the level spacing per sample are skipped by the
#: contour checks (near extrema and saddles a first-order distance to a level means little).
MIN_SLOPE = 0.05
#: Contour-only style: ink is a pixel whose brightest channel is at most this; white is at least WHITE; at
#: most MAX_COLOURED of the pixels may be coloured (neither grey nor white).
INK_LEVEL = 160
WHITE = 250
MAX_COLOURED = 0.01

#: Contour-only plots that dash the rings of hollows (scene "dashed": "hollows"): a line passes next to a
#: pixel if ink is within two pixels of it (a dash's gap is under two and a half pixels), and every line is
#: then held to the solid bounds; whether a ring is dashed is judged per feature by the counting verifier.
_HOLLOW_REACH = tuple((dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if 0 < dr * dr + dc * dc <= 4)

_TABLES: dict[str, tuple[np.ndarray, np.ndarray, dict[int, list[tuple[int, int]]]]] = {}


def colour_table(name: str) -> tuple[np.ndarray, np.ndarray, dict[int, list[tuple[int, int]]]]:
    """The lookup table of matplotlib colour map ``name`` as RGB bytes (the bytes matplotlib draws), and
    an index by red-green pair: ``first[r << 8 | g]`` is the entry with that pair (-1 none, -2 several,
    listed in ``several`` as (blue, entry) pairs)."""
    if name not in _TABLES:
        import matplotlib

        cmap = matplotlib.colormaps[name]
        lut = np.asarray(cmap(np.arange(cmap.N), bytes=True))[:, :3].astype(np.int32)
        first = np.full(1 << 16, -1, dtype=np.int32)
        several: dict[int, list[tuple[int, int]]] = {}
        for index, (r, g, b) in enumerate(lut.tolist()):
            key = r << 8 | g
            if first[key] == -1:
                first[key] = index
            elif first[key] >= 0 and lut[first[key], 2] != b:
                several[key] = [(int(lut[first[key], 2]), int(first[key])), (b, index)]
                first[key] = -2
            elif first[key] == -2:
                several[key].append((b, index))
        _TABLES[name] = (lut, first, several)
    return _TABLES[name]


def colour_indices(rgb: np.ndarray, name: str) -> np.ndarray:
    """The colour-map entry of every pixel of ``rgb`` (..., 3), or -1 where the colour is not an entry."""
    lut, first, several = colour_table(name)
    rgb = rgb.astype(np.int32)
    key = rgb[..., 0] << 8 | rgb[..., 1]
    index = first[key]
    found = index >= 0
    index = np.where(found & (lut[np.maximum(index, 0), 2] == rgb[..., 2]), index, -1)
    for pair, entries in several.items():
        at = key == pair
        if at.any():
            for blue, entry in entries:
                index[at & (rgb[..., 2] == blue)] = entry
    return index


class Plot:
    """One plot panel as its scene record describes it (see the module docstring)."""

    def __init__(self, box: Sequence[float], extent: Sequence[float], samples: int, kind: str,
                 colormap: str | None, value_range: Sequence[float], levels: Sequence[float],
                 dashed_below: float | None, hollows: bool = False, decimals: int | None = None) -> None:
        self.left, self.top, self.right, self.bottom = (float(v) for v in box)
        self.extent = tuple(float(v) for v in extent)
        self.samples = int(samples)
        self.kind = kind
        self.colormap = colormap
        self.vmin, self.vmax = (float(v) for v in value_range)
        self.levels = np.sort(np.asarray(levels, dtype=float))
        self.dashed_below = dashed_below
        self.hollows = hollows
        #: How far a level may be from the drawn values at a crossing that rounding decides: the values are
        #: drawn rounded to ``decimals`` places (half a step from the function) and the recorded levels are
        #: rounded to as many (half a step from the drawn ones); 0 when the scene does not say.
        self.precision = 0.0 if decimals is None else 1.000001 * 10.0 ** -int(decimals)

    @classmethod
    def from_record(cls, panel: Mapping[str, Any], scene: Mapping[str, Any]) -> Plot:
        """A panel from a scene record (``panel`` holds box, plot_type and colormap; ``scene`` the rest)."""
        sampling = scene["sampling"]
        contour = panel["plot_type"] == "contour"
        dashed = scene.get("dashed_below") if contour else None
        return cls(panel["box"], sampling["extent"], sampling["samples"], panel["plot_type"], panel.get("colormap"),
                   scene["value_range"], scene.get("contour_levels") or [], dashed,
                   hollows=contour and scene.get("dashed") == "hollows", decimals=sampling.get("decimals"))

    def sample_axes(self) -> tuple[np.ndarray, np.ndarray]:
        """x and y of the drawn samples: the pixel centres of the extent, ``lo + (k + 1/2) (hi - lo) / n``."""
        xmin, xmax, ymin, ymax = self.extent
        k = np.arange(self.samples) + 0.5
        return xmin + k * (xmax - xmin) / self.samples, ymin + k * (ymax - ymin) / self.samples

    def pixel_rows_cols(self, stride: int = STRIDE) -> tuple[np.ndarray, np.ndarray]:
        """Image rows and columns of the sampled pixels, clear of the frame."""
        cols = np.arange(int(np.ceil(self.left)) + FRAME, int(np.floor(self.right)) - FRAME, stride)
        rows = np.arange(int(np.ceil(self.top)) + FRAME, int(np.floor(self.bottom)) - FRAME, stride)
        return rows, cols

    def to_samples(self, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Continuous sample coordinates (row = along y upwards, col = along x) of pixel centres, in units
        of samples from the extent's low edge (sample k is centred at k + 1/2)."""
        n = self.samples
        u = (cols + 0.5 - self.left) / (self.right - self.left) * n
        v = (self.bottom - (rows + 0.5)) / (self.bottom - self.top) * n
        return v, u

    @property
    def px_per_sample(self) -> float:
        return (self.right - self.left) / self.samples


def check_plot(image: np.ndarray, plot: Plot, z: np.ndarray, label: str,
               stats: dict[str, float] | None = None) -> list[str]:
    """Failures of the panel ``plot`` of ``image`` (H x W x 3 bytes) against the computed grid ``z``
    (samples x samples, rows = y ascending); ``label`` names the panel in messages.  The measured
    fractions are put in ``stats`` when given (for tests and for tuning the thresholds)."""
    stats = {} if stats is None else stats
    if z.shape != (plot.samples, plot.samples):
        return [f"{label}: computed grid is {z.shape}, the scene says {plot.samples} samples"]
    if not np.isfinite(z).all():
        return [f"{label}: the recorded function is undefined at some drawn samples"]
    height, width = image.shape[:2]
    if plot.left < 0 or plot.top < 0 or plot.right > width or plot.bottom > height or not (
            plot.left < plot.right and plot.top < plot.bottom):
        return [f"{label}: plot box {[plot.left, plot.top, plot.right, plot.bottom]} is not inside the image"]
    if not plot.vmax > plot.vmin:
        return [f"{label}: empty colour range {[plot.vmin, plot.vmax]}"]
    if plot.kind not in ("heatmap", "heatmap-contour", "contour"):
        return [f"{label}: unknown plot type {plot.kind!r}"]
    if (plot.colormap is None) != (plot.kind == "contour"):
        return [f"{label}: a {plot.kind} panel {'with' if plot.colormap else 'without'} a colour map"]
    rows, cols = plot.pixel_rows_cols()
    sampled = _pixels_at(image, rows, cols)
    failures: list[str] = []
    indices = colour_indices(sampled, plot.colormap) if plot.colormap else None
    if indices is not None:
        failures += _heatmap_failures(plot, z, indices, rows, cols, label, stats)
    if plot.kind == "heatmap":
        return failures
    if plot.kind == "contour":
        darkest, brightest = _channels(sampled, np.minimum), _channels(sampled, np.maximum)
        coloured = float(np.mean((darkest < WHITE) & (brightest.astype(np.int16) - darkest > 8)))
        stats["coloured"] = coloured
        if coloured > MAX_COLOURED:
            failures.append(f"{label}: {coloured:.1%} of the panel is coloured; a contour plot is black on white")
    # ink at the sampled pixels, and (for "a line passes next to this pixel") at their four neighbours
    ink = _ink(plot, sampled, indices)
    reach = _HOLLOW_REACH if plot.hollows else ((-1, 0), (1, 0), (0, -1), (0, 1))

    def near(mask: np.ndarray) -> np.ndarray:
        """Whether ink lies on or next to (within ``reach``) each sampled pixel where ``mask`` holds, in the
        order of ``np.nonzero(mask)``: the neighbours of those pixels alone are read."""
        at_r, at_c = np.nonzero(mask)
        out = ink[at_r, at_c]
        image_r, image_c = rows[at_r], cols[at_c]
        for dr, dc in reach:
            shifted = image[image_r + dr, image_c + dc, :3]
            out |= _ink(plot, shifted, colour_indices(shifted, plot.colormap) if plot.colormap else None)
        return out

    return failures + _contour_failures(plot, z, ink, near, rows, cols, label, stats)


def _pixels_at(image: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The colour channels of ``image`` at every (row, col) of ``rows`` x ``cols``: a strided view where both are
    evenly spaced (the sampled lattice always is), else a gathered copy."""
    steps_r, steps_c = np.diff(rows), np.diff(cols)
    if (len(rows) > 1 and len(cols) > 1 and rows[0] >= 0 and cols[0] >= 0 and rows[-1] < image.shape[0]
            and cols[-1] < image.shape[1] and steps_r[0] > 0 and steps_c[0] > 0
            and (steps_r == steps_r[0]).all() and (steps_c == steps_c[0]).all()):
        return image[rows[0]:rows[-1] + 1:steps_r[0], cols[0]:cols[-1] + 1:steps_c[0], :3]
    return image[np.ix_(rows, cols)][..., :3]


def _ink(plot: Plot, pixels: np.ndarray, indices: np.ndarray | None) -> np.ndarray:
    """Contour-line ink: dark pixels of a black-on-white plot, or pixels of a heatmap that are no colour-map
    entry (pale lines blended over it)."""
    if plot.kind == "contour":
        return _channels(pixels, np.maximum) <= INK_LEVEL
    return indices < 0


def _channels(pixels: np.ndarray, pick: Any) -> np.ndarray:
    """``pick`` (np.minimum or np.maximum) over the three colour channels, element by element (a reduction
    over a trailing axis of 3 is many times slower)."""
    return pick(pick(pixels[..., 0], pixels[..., 1]), pixels[..., 2])


def _value_index(plot: Plot, z: np.ndarray, entries: int) -> np.ndarray:
    """The colour-map entry each value maps to: floor of its position in the colour range x entries."""
    position = (z - plot.vmin) / (plot.vmax - plot.vmin)
    return np.clip(np.floor(position * entries), 0, entries - 1).astype(np.int32)


def _heatmap_failures(plot: Plot, z: np.ndarray, seen: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                      label: str, stats: dict[str, float]) -> list[str]:
    """Colour-map pixels show the colour of the computed value at their sample (see the module docstring)."""
    lut, _, _ = colour_table(plot.colormap)
    v, u = plot.to_samples(rows, cols)
    n = plot.samples
    i = np.clip(np.floor(v).astype(int), 0, n - 1)
    j = np.clip(np.floor(u).astype(int), 0, n - 1)
    expected = _value_index(plot, z, len(lut))
    # the smallest and largest entry over each pixel's sample and its 8 neighbours
    low, high = _lattice_range(expected, i, j, 1, 1)
    matched = seen >= 0
    share = float(matched.mean())
    stats["colour_map_share"] = share
    failures = []
    if share < MIN_COLOUR_MAP_PIXELS[plot.kind]:
        failures.append(f"{label}: only {share:.1%} of the plot area shows {plot.colormap} colours")
    if not matched.any():
        return failures
    wrong = matched & ((seen < low - 1) | (seen > high + 1))
    mismatch = float(wrong.sum() / matched.sum())
    stats["value_mismatch"] = mismatch
    if mismatch > MAX_VALUE_MISMATCH:
        failures.append(f"{label}: {mismatch:.2%} of the heatmap pixels show a colour that the recorded function "
                        f"does not have there")
    centre = expected[np.ix_(i, j)][matched].astype(float)
    shown = seen[matched].astype(float)
    centre, shown = centre - centre.mean(), shown - shown.mean()
    spread = float(np.sqrt((centre * centre).sum() * (shown * shown).sum()))
    if spread > 0:
        correlation = float((centre * shown).sum() / spread)  # Pearson, without a BLAS call
        stats["correlation"] = correlation
        if correlation < MIN_CORRELATION:
            failures.append(f"{label}: colours correlate with the recorded function's values at only "
                            f"{correlation:.3f}")
    return failures


def _contour_failures(plot: Plot, z: np.ndarray, ink: np.ndarray, near: Callable[[np.ndarray], np.ndarray],
                      rows: np.ndarray, cols: np.ndarray, label: str, stats: dict[str, float]) -> list[str]:
    """Line pixels near level sets, and level sets drawn (see the module docstring).  ``near(mask)`` says, for
    each sampled pixel where ``mask`` holds (``np.nonzero`` order), whether ink is on it or next to it."""
    levels = plot.levels
    if levels.size < 2:
        return [f"{label}: a {plot.kind} panel without contour levels"]
    v, u = plot.to_samples(rows, cols)
    n = plot.samples
    # bilinear interpolation between sample centres (contour lines run straight between crossings on the
    # sample grid's cell edges, which this follows to a fraction of a sample)
    fv, fu = v - 0.5, u - 0.5
    i0 = np.clip(np.floor(fv).astype(int), 0, n - 2)
    j0 = np.clip(np.floor(fu).astype(int), 0, n - 2)
    ty = np.clip(fv - i0, 0.0, 1.0)[:, None]
    tx = np.clip(fu - j0, 0.0, 1.0)[None, :]
    z00, z01 = z[np.ix_(i0, j0)], z[np.ix_(i0, j0 + 1)]
    z10, z11 = z[np.ix_(i0 + 1, j0)], z[np.ix_(i0 + 1, j0 + 1)]
    lower = z00 + (z01 - z00) * tx
    upper = z10 + (z11 - z10) * tx
    value = lower + (upper - lower) * ty
    per_sample = np.hypot((z01 - z00) * (1 - ty) + (z11 - z10) * ty, upper - lower)
    per_pixel = per_sample / plot.px_per_sample
    spacing = float(np.min(np.diff(levels)))
    usable = per_sample >= MIN_SLOPE * spacing
    above = np.clip(np.searchsorted(levels, value), 1, levels.size - 1)
    gap_low = np.abs(value - levels[above - 1])
    gap_high = np.abs(levels[above] - value)
    nearest = np.where(gap_low < gap_high, above - 1, above)
    distance = np.minimum(gap_low, gap_high) / np.maximum(per_pixel, 1e-300)  # pixels to the nearest level set
    failures = []
    if ink.sum() < 20:
        return [f"{label}: the panel has (almost) no contour lines"]
    # an ink pixel is explained if some level lies between the smallest and largest value within reach
    reach = int(np.ceil(INK_REACH_PX / plot.px_per_sample))
    cells = int(np.ceil(ON_LINE_PX / plot.px_per_sample))
    if SHARED_SLABS:  # the three ranges below from one gathering of the rows they read
        (low, high), (low_next, high_next), (cell_low, cell_high) = _lattice_ranges(
            z, i0, j0, ((-reach, reach), (1 - reach, 1 + reach), (-cells, cells + 1)))
    else:
        low, high = _lattice_range(z, i0, j0, reach, reach)
        low_next, high_next = _lattice_range(z, i0 + 1, j0 + 1, reach, reach)
        cell_low, cell_high = _lattice_range(z, i0, j0, cells, cells + 1)
    np.minimum(low, low_next, out=low)
    np.maximum(high, high_next, out=high)
    first = np.searchsorted(levels, low - plot.precision)
    explained = (first < levels.size) & (levels[np.minimum(first, levels.size - 1)] <= high + plot.precision)
    lost = ink & ~explained
    stray = float(lost.sum() / ink.sum())
    stats["stray_ink"] = stray
    stats["stray_ink_tile"] = float(_tile_sums(lost).max())
    if stray > MAX_STRAY_INK:
        failures.append(f"{label}: {stray:.1%} of the contour-line pixels lie on no level set of the recorded "
                        f"function")
    elif stats["stray_ink_tile"] > MAX_STRAY_INK_TILE:
        failures.append(f"{label}: a patch of contour lines ({int(stats['stray_ink_tile'])} sampled pixels) lies on "
                        f"no level set of the recorded function")
    # the first-order distance runs straight on through a trough or a crest; a level set of the interpolated z
    # passes within ON_LINE_PX of a pixel centre only through the sample cells there, and only if the level
    # lies between the smallest and largest value of their corners (a level just off a trough's floor is
    # not crossed by the drawn samples, and no line is drawn there), by more than the rounding of the drawn
    # values and the recorded levels (within it, the rounding decides whether the drawn samples cross it)
    # the corners of the cells within ``cells`` of cell (i0, j0) (cell indices clamped to the grid of cells)
    # are the samples from row i0 - cells to i0 + cells + 1 (clamped to the samples), and likewise columns
    # (``cell_low`` and ``cell_high`` above)
    level = levels[nearest]
    crossed = (cell_low <= level - plot.precision) & (level + plot.precision <= cell_high)
    on_line = usable & (distance <= ON_LINE_PX) & crossed
    dashed = np.zeros(on_line.shape, dtype=bool)
    if plot.dashed_below is not None and not plot.hollows:
        dashed = level < plot.dashed_below
    for kind, mask in (("solid", on_line & ~dashed), ("dashed", on_line & dashed)):
        if mask.sum() < 20:
            continue
        lined = near(mask)
        coverage = float(lined.mean())
        stats[f"{kind}_coverage"] = coverage
        missing = np.zeros_like(mask)
        missing[mask] = ~lined  # boolean indexing walks the pixels in ``np.nonzero`` order
        stats[f"{kind}_missing_tile"] = float(_tile_sums(missing).max())
        if kind == "solid" and stats["solid_missing_tile"] > (MAX_MISSING_TILE_HOLLOWS if plot.hollows
                                                              else MAX_MISSING_TILE):
            failures.append(f"{label}: a patch of a level set of the recorded function "
                            f"({int(stats['solid_missing_tile'])} sampled pixels) has no contour line")
        stats[f"{kind}_coverage_centre"] = float(ink[mask].mean())
        if coverage < MIN_LINE_COVERAGE[kind]:
            failures.append(f"{label}: only {coverage:.0%} of the places where a {kind} level set of the recorded "
                            f"function runs show a contour line")
    return failures


def _lattice_range(z: np.ndarray, rows: np.ndarray, cols: np.ndarray, before: int, after: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The smallest and the largest value of ``z`` over rows r - before .. r + after and columns c - before ..
    c + after (indices clamped to the grid) for every r of ``rows`` and c of ``cols``: two arrays of shape
    (len(rows), len(cols)), a running minimum and maximum of the grid read at those samples alone.  Whole rows
    are gathered first (contiguous copies), then the columns of the few rows kept; each gather serves both."""
    n0, n1 = z.shape
    row_index = np.minimum(np.maximum(rows[None, :] + np.arange(-before, after + 1)[:, None], 0), n0 - 1)
    col_index = np.minimum(np.maximum(cols[None, :] + np.arange(-before, after + 1)[:, None], 0), n1 - 1)
    low = z.take(row_index[0], axis=0)
    high = low.copy()
    for index in row_index[1:]:
        taken = z.take(index, axis=0)
        np.minimum(low, taken, out=low)
        np.maximum(high, taken, out=high)
    out_low, out_high = low.take(col_index[0], axis=1), high.take(col_index[0], axis=1)
    for index in col_index[1:]:
        np.minimum(out_low, low.take(index, axis=1), out=out_low)
        np.maximum(out_high, high.take(index, axis=1), out=out_high)
    return out_low, out_high


#: ``_contour_failures`` takes its three lattice ranges from ``_lattice_ranges`` (rows gathered once, the
#: running extremes they share computed once); False: three ``_lattice_range`` calls (the tests compare them).
SHARED_SLABS = True


def _lattice_ranges(z: np.ndarray, rows: np.ndarray, cols: np.ndarray, spans: Sequence[tuple[int, int]]
                    ) -> list[tuple[np.ndarray, np.ndarray]]:
    """``_lattice_range(z, rows + a, cols + a, a - first, last - a)`` for every ``(first, last)`` of ``spans``
    (offsets from ``rows`` and ``cols``, inclusive; any ``a``): the smallest and largest value of ``z`` over rows
    r + first .. r + last and columns c + first .. c + last, indices clamped to the grid.  Every row of ``z``
    at an offset is gathered once for all the spans, and the running extremes over the offsets every span
    holds are taken once; the minimum and maximum of a set of numbers do not depend on the order they are
    taken in, so the values are those of the separate calls."""
    n0, n1 = z.shape
    slabs: dict[int, np.ndarray] = {}

    def slab(k: int) -> np.ndarray:
        if k not in slabs:
            slabs[k] = z.take(np.minimum(np.maximum(rows + k, 0), n0 - 1), axis=0)
        return slabs[k]

    common = (max(first for first, _ in spans), min(last for _, last in spans))
    shared = None
    if common[0] <= common[1]:
        low = slab(common[0]).copy()
        high = low.copy()
        for k in range(common[0] + 1, common[1] + 1):
            np.minimum(low, slab(k), out=low)
            np.maximum(high, slab(k), out=high)
        shared = (low, high)
    out = []
    for first, last in spans:
        if shared is not None:
            low, high = shared[0].copy(), shared[1].copy()
            extra = [k for k in range(first, last + 1) if not common[0] <= k <= common[1]]
        else:
            low = slab(first).copy()
            high = low.copy()
            extra = list(range(first + 1, last + 1))
        for k in extra:
            np.minimum(low, slab(k), out=low)
            np.maximum(high, slab(k), out=high)
        col_index = np.minimum(np.maximum(cols[None, :] + np.arange(first, last + 1)[:, None], 0), n1 - 1)
        out_low, out_high = low.take(col_index[0], axis=1), high.take(col_index[0], axis=1)
        for index in col_index[1:]:
            np.minimum(out_low, low.take(index, axis=1), out=out_low)
            np.maximum(out_high, high.take(index, axis=1), out=out_high)
        out.append((out_low, out_high))
    return out


def _tile_sums(mask: np.ndarray, tile: int = TILE) -> np.ndarray:
    """Counts of ``mask`` over square tiles of ``tile`` x ``tile`` sampled pixels."""
    rows = np.add.reduceat(mask.astype(np.int32), np.arange(0, mask.shape[0], tile), axis=0)
    return np.add.reduceat(rows, np.arange(0, mask.shape[1], tile), axis=1)
