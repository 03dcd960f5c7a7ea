"""Drawing MaRVL-QA plots: the paper's nine styles (A.2), one plot or an A | B pair, deterministic and fast.

A plot is a grid of function values (rows = y ascending, columns = x ascending, sampled at pixel centres
of ``extent``) drawn as a heatmap, a heatmap with contour lines over it, or black contour lines alone.
Axes, numeric ticks and the labels "x" / "y" are always drawn (paper §3.1) and depend only on the extent,
so two plots of one extent carry identical tick labels; there is no colour bar (it would leak values and
change under translation).  Output depends only on the inputs: the matplotlib settings that affect pixels
are pinned for every draw and nothing carries a timestamp, so a fresh process draws the same pixels.

Speed: one figure per layout and size is reused; its frame, ticks, labels and titles are drawn once per
extent into a background, and each plot restores that background and paints only its data (an image
and contour lines) and the frame over it.  A heatmap's pixels are the colour-map bytes of each pixel's
nearest sample: which sample that is depends only on the panel and the grid's shape, so it is read once
from matplotlib's own image resampling (``_nearest_samples``) and every heatmap is then one table lookup,
handed to the same Agg call matplotlib's image artist ends in -- the same pixels at a fraction of the
cost.  matplotlib (Agg) is imported on first use, so importing this module is cheap.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import numpy as np
from PIL import Image

#: The four colour maps of the paper (A.2); all map high values to bright colours.
COLORMAPS: tuple[str, ...] = ("viridis", "plasma", "inferno", "magma")
#: The three plot types of the paper (A.2).
PLOT_TYPES: tuple[str, ...] = ("heatmap", "heatmap-contour", "contour")
#: The nine styles (A.4): heatmap x 4 colour maps, heatmap-contour x 4, and black-and-white contour.
STYLES: tuple[str, ...] = (
    *(f"heatmap-{c}" for c in COLORMAPS),
    *(f"heatmap-contour-{c}" for c in COLORMAPS),
    "contour",
)
#: Samples per axis of the rendered grid (paper A.2: "all functions were sampled over a 400x400 grid").
PLOT_GRID = 400
#: Contour levels, evenly spaced strictly inside the colour range (not given by the paper).
CONTOUR_LEVELS = 15
#: Decimal places of the plotted values (``quantise``) and of the colour range stored with an item.
GRID_DECIMALS = 6
#: Contour lines are not drawn through samples whose 3 x 3 neighbourhood of values spans less than this (ten
#: steps of their rounding; a thousandth of the colour range if that is less): there a level's line would
#: trace the rounding of a flat stretch lying at the level (the far field of a pattern that dies out, at the
#: level 0 of a symmetric colour range) instead of the function.  The verifier demands no line there: its
#: level sets need a slope of 0.05 level spacings per sample.
FLAT_SPAN = 10 * 10.0 ** -GRID_DECIMALS
#: Default image sizes in pixels: a single plot, and an A | B pair.
PLOT_SIZE: tuple[int, int] = (640, 640)
PAIR_SIZE: tuple[int, int] = (1024, 512)
DPI = 100

# Axes rectangles in figure fractions (left, bottom, width, height).  Fixed, so the plot area of every
# image of one size is the same and tick labels sit at the same pixels.
_PLOT_RECT = (0.12, 0.10, 0.82, 0.80)
_PAIR_RECTS = ((0.068, 0.11, 0.40, 0.78), (0.568, 0.11, 0.40, 0.78))
_BAD_COLOUR = "#c8c8c8"  # undefined samples (NaN), e.g. inside a masked hole
_OVERLAY = {"colors": "white", "linewidths": 0.8, "alpha": 0.65}  # contour lines over a heatmap
_LINES = {"colors": "black", "linewidths": 0.9}  # contour-only style
#: Which lines the contour-only style dashes: "negative" (matplotlib's convention: levels below zero) or
#: "hollows" (closed rings with lower ground just inside them; every other line is solid), which tells a
#: peak's rings from a valley's whatever the sign of the values.
DASHES: tuple[str, ...] = ("negative", "hollows")
_HOLLOW_DASH = (0.0, (3.0, 2.5))  # on, off in line widths: gaps wide enough to see on the smallest ring


def style_parts(style: str) -> tuple[str, str | None]:
    """``(plot type, colour map or None)`` of one of :data:`STYLES`; ValueError for anything else."""
    if style == "contour":
        return "contour", None
    for kind in ("heatmap-contour", "heatmap"):
        prefix = kind + "-"
        if style.startswith(prefix) and style[len(prefix):] in COLORMAPS:
            return kind, style[len(prefix):]
    raise ValueError(f"unknown style {style!r}; styles are: {', '.join(STYLES)}")


def sample_axis(lo: float, hi: float, n: int = PLOT_GRID) -> np.ndarray:
    """``n`` pixel-centre coordinates covering ``[lo, hi]``: ``lo + (k + 0.5) (hi - lo) / n``."""
    return lo + (np.arange(n) + 0.5) * ((hi - lo) / n)


def sample_grid(extent: Sequence[float], n: int = PLOT_GRID) -> tuple[np.ndarray, np.ndarray]:
    """Coordinate arrays ``(X, Y)`` of shape (n, n) at the pixel centres of ``extent`` (rows = y ascending)."""
    xmin, xmax, ymin, ymax = (float(v) for v in extent)
    return np.meshgrid(sample_axis(xmin, xmax, n), sample_axis(ymin, ymax, n))


def value_range(*grids: np.ndarray) -> tuple[float, float]:
    """The finite min and max over ``grids`` (a degenerate or empty range is widened to width 1)."""
    lo, hi = math.inf, -math.inf
    for z in grids:
        finite = np.asarray(z, dtype=float)
        if finite.size:
            # a finite minimum and maximum mean every value is finite (NaN and +-inf would be among them), so
            # they are the finite values' own: the mask and copy below only where that fails
            low, high = float(finite.min()), float(finite.max())
            if not (math.isfinite(low) and math.isfinite(high)):
                finite = finite[np.isfinite(finite)]
                if not finite.size:
                    continue
                low, high = float(finite.min()), float(finite.max())
            lo, hi = min(lo, low), max(hi, high)
    if not math.isfinite(lo):
        return 0.0, 1.0
    if hi - lo <= 1e-12 * max(1.0, abs(lo), abs(hi)):
        return lo - 0.5, hi + 0.5
    return lo, hi


def contour_levels(vmin: float, vmax: float, count: int = CONTOUR_LEVELS) -> np.ndarray:
    """``count`` evenly spaced levels strictly between ``vmin`` and ``vmax``."""
    return vmin + (vmax - vmin) * np.arange(1, count + 1) / (count + 1)


def tick_values(lo: float, hi: float) -> np.ndarray:
    """The tick positions drawn for an axis spanning ``[lo, hi]``: 4 to 7 round numbers inside it."""
    span = hi - lo
    for step_count in (6, 5, 4, 7, 8):
        raw = span / step_count
        magnitude = 10.0 ** math.floor(math.log10(raw))
        for mult in (1.0, 2.0, 2.5, 5.0, 10.0):
            step = mult * magnitude
            first = math.ceil(lo / step - 1e-9) * step
            ticks = np.arange(first, hi + step * 1e-9, step)
            if 4 <= len(ticks) <= 7:
                return np.round(ticks, 10) + 0.0
    return np.linspace(lo, hi, 5)


def tick_labels(ticks: np.ndarray) -> list[str]:
    """Labels for ``ticks`` with the fewest decimals that tell them apart, a true minus sign and no '-0'."""
    for decimals in range(0, 5):
        labels = [f"{v:.{decimals}f}" for v in ticks]
        if len(set(labels)) == len(labels) and np.allclose([float(s) for s in labels], ticks, atol=1e-9):
            break
    return [(s.lstrip("-") if float(s) == 0 else s).replace("-", "\u2212") for s in labels]


# ---------------------------------------------------------------------------------------------------
# matplotlib surfaces (imported lazily, one figure per (layout, size) reused for every draw)
# ---------------------------------------------------------------------------------------------------

_RC_GROUPS = ("font", "text", "mathtext", "axes", "xtick", "ytick", "lines", "image", "contour", "path", "agg",
              "patch", "hatch", "grid", "legend")
_RC_OVERRIDES: dict[str, Any] = {
    "font.family": ["DejaVu Sans"],  # ships with matplotlib, so every machine draws the same glyphs
    "font.size": 11.0,
    "axes.titlesize": 13.0,
    "axes.labelsize": 11.0,
    "xtick.labelsize": 10.0,
    "ytick.labelsize": 10.0,
    "axes.unicode_minus": True,
    "text.usetex": False,
    "path.simplify": True,
    "image.resample": True,
}
_rc: dict[str, Any] | None = None


def _rc_params() -> dict[str, Any]:
    """matplotlib's defaults for everything that affects pixels, plus ours: a user's matplotlibrc or
    style cannot change the images."""
    global _rc
    if _rc is None:
        import matplotlib

        base = {k: v for k, v in matplotlib.rcParamsDefault.items() if k.split(".")[0] in _RC_GROUPS}
        _rc = {**base, **_RC_OVERRIDES}
    return _rc


_rc_validated: dict[str, Any] | None = None


@contextlib.contextmanager
def _pinned_rc() -> Iterator[None]:
    """matplotlib's settings set to ``_rc_params()`` for the block and restored after it, like
    ``matplotlib.rc_context(_rc_params())``.  The first time that is what runs, and the values matplotlib's
    validation made of ours are kept; later blocks store those values directly, without validating some
    three hundred settings twice per image (the same values, so the same pixels)."""
    import matplotlib

    global _rc_validated
    params = matplotlib.rcParams
    if _rc_validated is None:
        with matplotlib.rc_context(_rc_params()):
            _rc_validated = {key: dict.__getitem__(params, key) for key in _rc_params()}
    before = {key: dict.__getitem__(params, key) for key in _rc_validated}
    dict.update(params, _rc_validated)
    try:
        yield
    finally:
        dict.update(params, before)


@attrs.define
class _Surface:
    """A figure reused for every draw of one layout and size, with its decorated-but-empty backgrounds."""

    figure: Any
    canvas: Any
    axes: list[Any]
    backgrounds: dict[tuple, Any] = attrs.field(factory=dict)
    current: tuple | None = None
    #: (axes index, grid shape, extent) -> the heatmap's nearest-sample maps (``_nearest_samples``), or None
    #: where they could not be read and matplotlib's image artist draws the heatmap.
    pixel_maps: dict[tuple, Any] = attrs.field(factory=dict)


_surfaces: dict[tuple[str, tuple[int, int]], _Surface] = {}
#: Backgrounds kept per surface (one per extent and title set); the oldest is dropped beyond this.
_MAX_BACKGROUNDS = 16


def _surface(layout: str, size_px: tuple[int, int]) -> _Surface:
    key = (layout, size_px)
    surface = _surfaces.get(key)
    if surface is None:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        width, height = size_px
        figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor="white")
        canvas = FigureCanvasAgg(figure)
        rects = (_PLOT_RECT,) if layout == "plot" else _PAIR_RECTS
        axes = [figure.add_axes(rect) for rect in rects]
        surface = _Surface(figure, canvas, axes)
        _surfaces[key] = surface
    return surface


def axes_boxes(layout: str, size_px: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """Pixel boxes ``(left, top, right, bottom)`` of the plot areas of a ``"plot"`` or ``"pair"`` image."""
    width, height = size_px
    rects = (_PLOT_RECT,) if layout == "plot" else _PAIR_RECTS
    boxes = []
    for left, bottom, w, h in rects:
        boxes.append((round(left * width), round((1 - bottom - h) * height),
                      round((left + w) * width), round((1 - bottom) * height)))
    return boxes


def axes_rects_px(layout: str, size_px: tuple[int, int]) -> list[list[float]]:
    """Exact pixel rectangles ``[left, top, right, bottom]`` (floats, 2 decimals) of the plot areas of a
    ``"plot"`` or ``"pair"`` image: where the data extent is drawn, so that image pixel (column c, row r)
    has its centre at x = xmin + (c + 1/2 - left) (xmax - xmin) / (right - left), and likewise for y
    downwards from ymax.  ``axes_boxes`` gives the same areas rounded to whole pixels."""
    width, height = size_px
    rects = (_PLOT_RECT,) if layout == "plot" else _PAIR_RECTS
    return [[round(left * width, 2), round((1 - bottom - h) * height, 2), round((left + w) * width, 2),
             round((1 - bottom) * height, 2)] for left, bottom, w, h in rects]


def quantise(z: np.ndarray) -> np.ndarray:
    """``z`` rounded to ``GRID_DECIMALS`` places: the values drawn.  Float noise in the last digits of an
    evaluation (another CPU's SIMD path for exp or sin) cannot move a colour or a contour line."""
    return np.round(np.asarray(z, dtype=float), GRID_DECIMALS) + 0.0


def _cmap(name: str) -> Any:
    import matplotlib

    return matplotlib.colormaps[name].with_extremes(bad=_BAD_COLOUR)


_COLOUR_WORDS: dict[tuple, tuple] = {}


def _colour_words(name: str) -> tuple[np.ndarray, int, int, int, int] | None:
    """The colour map ``_cmap(name)`` as the table its ``__call__(x, bytes=True)`` reads -- every entry as one
    4-byte word (read-only), with the table's length N and the entries it gives values under the range, over
    it and undefined -- made once per colour map."""
    key = (name, _cmap)  # the colour map as ``_cmap`` makes it now (a test may plant another)
    found = _COLOUR_WORDS.get(key)
    if found is None:
        cmap = _cmap(name)
        cmap(0.5)  # builds its table
        try:
            lut = np.ascontiguousarray((cmap._lut * 255).astype(np.uint8)).view(np.uint32)[:, 0].copy()
            found = (lut, int(cmap.N), int(cmap._i_under), int(cmap._i_over), int(cmap._i_bad))
        except (AttributeError, TypeError, ValueError):  # another matplotlib's colour map: call it instead
            found = ()
        if found:
            lut.setflags(write=False)
        if len(_COLOUR_WORDS) >= 16:  # a whole clear: safe beside another thread's lookup
            _COLOUR_WORDS.clear()
        _COLOUR_WORDS[key] = found
    return found or None


def colour_words(position: np.ndarray, name: str) -> np.ndarray | None:
    """``_cmap(name)(position, bytes=True)`` for a float array ``position`` (NaN where undefined), each pixel's
    four bytes as one word: the same steps as matplotlib's ``Colormap._get_rgba_and_mask`` (scale by N, the
    top of the range to the last entry, out-of-range and undefined values to their entries, the table
    read with clipping); None where the colour map's table cannot be read (the caller calls it)."""
    table = _colour_words(name)
    if table is None:
        return None
    lut, n, under, over, bad = table
    xa = position * n
    if FAST_RANGE and xa.size:
        # every value inside [0, N] (a NaN fails both tests): no entry for under, over or undefined values is
        # read, and the top of the range is the last entry -- the steps below, without their masks
        low, high = xa.min(), xa.max()
        if low >= 0 and high <= n:
            index = xa.astype(int)
            if high == n:
                np.minimum(index, n - 1, out=index)
            return lut.take(index, mode="clip")
    xa[xa == n] = n - 1
    mask_under = xa < 0
    mask_over = xa >= n
    mask_bad = np.isnan(xa)
    with np.errstate(invalid="ignore"):
        index = xa.astype(int)
    index[mask_under] = under
    index[mask_over] = over
    index[mask_bad] = bad
    return lut.take(index, mode="clip")


def _decorate(surface: _Surface, extent: tuple[float, float, float, float], titles: tuple[str | None, ...]) -> None:
    """Put the axes of ``surface`` in the state for ``extent`` and ``titles``; draw and keep the empty
    background (frame, ticks, labels, titles) the first time this state is seen.

    The background is the whole figure drawn without data; a plot is that background with the data drawn
    over the plot areas and the frames redrawn on top, which is how a full draw layers them too (data
    under the spines).  Text layout, the slowest part of a full draw, is then done once per state."""
    key = (extent, titles)
    xmin, xmax, ymin, ymax = extent
    for ax in surface.axes:
        ax.set_xlim(xmin, xmax)
        ax.set_ylim(ymin, ymax)
    if key in surface.backgrounds:
        surface.current = key
        return
    xt, yt = tick_values(xmin, xmax), tick_values(ymin, ymax)
    for ax, title in zip(surface.axes, titles, strict=True):
        for artist in [*ax.images, *ax.collections, *ax.lines]:
            artist.remove()
        ax.set_facecolor("white")
        ax.set_xticks(xt, tick_labels(xt))
        ax.set_yticks(yt, tick_labels(yt))
        ax.set_xlim(xmin, xmax)
        ax.set_ylim(ymin, ymax)
        ax.set_xlabel("x")
        ax.set_ylabel("y", rotation=0, labelpad=10)
        ax.set_title(title or "")
    surface.canvas.draw()
    if len(surface.backgrounds) >= _MAX_BACKGROUNDS:
        surface.backgrounds.pop(next(iter(surface.backgrounds)))
    surface.backgrounds[key] = surface.canvas.copy_from_bbox(surface.figure.bbox)
    surface.current = key


def hollow_rings(lines: Sequence[np.ndarray], level: float, z: np.ndarray, xs: np.ndarray, ys: np.ndarray
                 ) -> list[bool]:
    """For each contour line of ``level`` (an (n, 2) array of x, y from contourpy), whether it is a closed
    ring around lower ground: its ends meet, and the values just inside it (a third of a sample in from
    the midpoint of every segment, on the side its winding puts inside) are mostly below the level."""
    hx, hy = xs[1] - xs[0], ys[1] - ys[0]
    out = []
    for line in lines:
        if len(line) < 4 or not np.array_equal(line[0], line[-1]):
            out.append(False)
            continue
        x, y = line[:, 0], line[:, 1]
        area = float(np.sum(x[:-1] * y[1:] - x[1:] * y[:-1]))  # > 0: counter-clockwise, inside on the left
        dx, dy = np.diff(x) / hx, np.diff(y) / hy  # in samples
        length = np.hypot(dx, dy)
        keep = length > 0
        if not keep.any() or area == 0:
            out.append(False)
            continue
        turn = 1.0 if area > 0 else -1.0
        u = ((x[:-1] + x[1:]) / 2 - xs[0]) / hx - turn * dy / np.maximum(length, 1e-300) / 3
        v = ((y[:-1] + y[1:]) / 2 - ys[0]) / hy + turn * dx / np.maximum(length, 1e-300) / 3
        inside = _bilinear(z, v[keep], u[keep])
        out.append(bool(np.count_nonzero(inside < level) * 2 > inside.size))
    return out


def _bilinear(z: np.ndarray, v: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``z`` (rows = v, columns = u, in samples) interpolated bilinearly at (v, u), clamped to the grid."""
    rows, cols = z.shape
    v = np.clip(v, 0, rows - 1)
    u = np.clip(u, 0, cols - 1)
    i = np.minimum(np.floor(v).astype(int), rows - 2)
    j = np.minimum(np.floor(u).astype(int), cols - 2)
    ty, tx = v - i, u - j
    low = z[i, j] + (z[i, j + 1] - z[i, j]) * tx
    high = z[i + 1, j] + (z[i + 1, j + 1] - z[i + 1, j]) * tx
    return low + (high - low) * ty


def flat_samples(z: np.ndarray, span: float) -> np.ndarray:
    """Samples of ``z`` whose 3 x 3 neighbourhood (clamped at the edges) spans less than ``span``: every
    cell between sample centres that touches one has its four values within ``span`` of each other, so a
    level crossing it runs where the values' rounding puts it (False next to undefined samples)."""
    padded = np.pad(z, 1, mode="edge")
    rows, cols = z.shape
    spans = []
    for pick in (np.minimum, np.maximum):  # separable: along the rows, then down the columns
        across = pick(padded[:, :cols], padded[:, 1:cols + 1])
        pick(across, padded[:, 2:], out=across)
        out = pick(across[:rows], across[1:rows + 1])
        pick(out, across[2:], out=out)
        spans.append(out)
    low, high = spans
    with np.errstate(invalid="ignore"):
        return (high - low) < span


def _data_artists(ax: Any, z: np.ndarray, extent: tuple[float, float, float, float], style: str,
                  vmin: float, vmax: float, dashes: str = "negative", maps: _PixelMaps | None = None) -> list[Any]:
    """The heatmap and / or contour lines of one plot, created on ``ax`` (not yet drawn).  ``dashes`` says
    which lines of the black-only style are dashed (see ``DASHES``); no line crosses a flat stretch
    (``flat_samples``, ``FLAT_SPAN``).  With ``maps`` (``_nearest_samples``) the heatmap is drawn from its
    pixels (``_heatmap_pixels``), else by matplotlib's image artist: the same pixels either way."""
    from matplotlib.collections import LineCollection
    from matplotlib.image import AxesImage

    xmin, xmax, ymin, ymax = extent
    kind, cmap = style_parts(style)
    artists: list[Any] = []
    if cmap is not None:
        if maps is not None:
            image = _pixel_artist(_heatmap_pixels(z, cmap, vmin, vmax, maps), maps.left, maps.bottom)
        else:
            image = AxesImage(ax, cmap=_cmap(cmap), origin="lower", extent=extent, interpolation="nearest")
            image.set_data(z)
            image.set_clim(vmin, vmax)
            image.set_transform(ax.transData)
        image.set_clip_path(ax.patch)
        artists.append(image)
    if kind != "heatmap":
        rows, cols = z.shape
        xs = sample_axis(xmin, xmax, cols)
        ys = sample_axis(ymin, ymax, rows)
        hidden = ~np.isfinite(z) | flat_samples(z, min(FLAT_SPAN, 1e-3 * (vmax - vmin)))
        generator = _line_generator(xs, ys, z, hidden)
        levels = contour_levels(vmin, vmax)
        solid: list[np.ndarray] = []
        dashed: list[np.ndarray] = []
        for level, lines in zip(levels, generator.multi_lines(levels), strict=True):
            # black-only contours dash some lines so that a reader can tell valleys from peaks without
            # colour (over a heatmap the colour already tells): matplotlib's negative levels, or the rings
            # around hollows
            if kind != "contour":
                solid.extend(lines)
            elif dashes == "hollows":
                for line, hollow in zip(lines, hollow_rings(lines, float(level), z, xs, ys), strict=True):
                    (dashed if hollow else solid).append(line)
            else:
                (dashed if level < 0 else solid).extend(lines)
        spec = _OVERLAY if kind == "heatmap-contour" else _LINES
        for segments, linestyle in ((solid, "solid"), (dashed, _HOLLOW_DASH if dashes == "hollows" else "dashed")):
            if segments:
                lines = LineCollection(segments, linestyles=linestyle, **spec)
                lines.set_transform(ax.transData)
                lines.set_clip_path(ax.patch)
                artists.append(lines)
    for artist in artists:
        artist.axes = ax
        artist.set_figure(ax.figure)
    return artists


def _line_generator(xs: np.ndarray, ys: np.ndarray, z: np.ndarray, hidden: np.ndarray) -> Any:
    """contourpy's serial generator of the contour lines (``line_type="Separate"``) of ``z`` on the tensor grid
    ``xs`` x ``ys`` with the samples ``hidden`` masked (which holds every undefined one): what
    ``contourpy.contour_generator(xs, ys, np.ma.masked_where(hidden, z), line_type="Separate")`` makes (the same
    class, grid, values, mask and settings), built directly: that function's masked-array round trip and
    argument checks cost about as much as tracing the lines does.  ``DIRECT_LINES`` False (or another
    contourpy's constructor) takes the public route."""
    import contourpy

    if DIRECT_LINES and z.ndim == 2 and z.shape == (len(ys), len(xs)) and min(z.shape) >= 2:
        cls = contourpy.SerialContourGenerator
        grid_x, grid_y = _mesh(np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64))
        try:
            return cls(grid_x, grid_y, np.asarray(z, dtype=np.float64), hidden if hidden.any() else None,
                       corner_mask=cls.supports_corner_mask(), line_type=contourpy.LineType.Separate,
                       fill_type=cls.default_fill_type, quad_as_tri=False, z_interp=contourpy.ZInterp.Linear,
                       x_chunk_size=0, y_chunk_size=0)
        except TypeError:
            pass
    field = np.ma.masked_where(hidden, z) if hidden.any() else z
    return contourpy.contour_generator(xs, ys, field, line_type="Separate")


_MESHES: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}


def _mesh(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.meshgrid(xs, ys)``, kept (read-only) for the few axes a run draws: every plot of one extent and grid
    size has the same sample axes, and the two grids cost more to fill than a small window of lines to trace."""
    key = xs.tobytes() + b"|" + ys.tobytes()
    found = _MESHES.get(key)
    if found is None:
        found = np.meshgrid(xs, ys)
        for grid in found:
            grid.setflags(write=False)
        if len(_MESHES) >= 8:  # a whole clear: safe beside another thread's lookup
            _MESHES.clear()
        _MESHES[key] = found
    return found


#: Build the contour-line generator directly (``_line_generator``); False by ``contourpy.contour_generator``
#: (the tests compare the two).
DIRECT_LINES = True


#: Colour heatmap samples from a kept table of the colour map (``colour_words``); False by calling the colour
#: map (the tests compare the two).
FAST_COLOURS = True


#: Skip the masks of undefined and out-of-range values where no value needs them (``colour_words``,
#: ``_heatmap_pixels``); False applies them always (the tests compare the two).
FAST_RANGE = True


#: Draw heatmaps from their pixels (``_heatmap_pixels``); False draws them with matplotlib's image artist
#: (the tests compare the two).
FAST_HEATMAPS = True


@attrs.frozen
class _PixelMaps:
    """Where matplotlib puts a heatmap of one grid shape in one panel: the image it hands to Agg has
    ``len(rows)`` x ``len(cols)`` pixels, pixel (i, j) shows sample (rows[i], cols[j]), and its corner is
    drawn at (left, bottom) in display pixels."""

    rows: np.ndarray
    cols: np.ndarray
    left: float
    bottom: float


def _nearest_samples(surface: _Surface, index: int, shape: tuple[int, int], extent: tuple[float, float, float, float],
                     renderer: Any) -> _PixelMaps | None:
    """The heatmap's pixel maps of panel ``index`` for grids of ``shape`` over ``extent``, read once from
    matplotlib: two calibration heatmaps, whose samples' colours are all different, one numbering the
    columns and one the rows, go through the image artist's own resampling (``make_image``), and each
    output pixel's colour names its sample.  Nearest-sample resampling is a map of positions only, so
    every heatmap of this shape is that map applied to its colours.  None (the image artist draws) unless
    every pixel is opaque, names a sample, each output column (row) shows one sample column (row), and a
    test field (undefined samples, values beyond the colour range) comes out as the image artist makes it."""
    key = (index, tuple(shape), tuple(extent))
    if key not in surface.pixel_maps:
        surface.pixel_maps[key] = _read_nearest_samples(surface.axes[index], shape, extent, renderer)
    return surface.pixel_maps[key]


def _read_nearest_samples(ax: Any, shape: tuple[int, int], extent: tuple[float, float, float, float],
                          renderer: Any) -> _PixelMaps | None:
    from matplotlib.colors import ListedColormap, Normalize
    from matplotlib.image import AxesImage

    found = []
    for axis in (0, 1):
        count = shape[axis]
        if count > 1024:
            return None
        ids = np.arange(count)
        table = np.stack([ids % 256, 40 + 50 * (ids // 256), np.full(count, 90), np.full(count, 255)], axis=1)
        cmap = ListedColormap(table / 255.0)
        colours = cmap(ids, bytes=True).astype(np.int64)
        codes = colours[:, 0] | colours[:, 1] << 8 | colours[:, 2] << 16
        if len(np.unique(codes)) != count:
            return None
        data = np.broadcast_to((ids[:, None] if axis == 0 else ids[None, :]).astype(float), shape)
        probe = AxesImage(ax, cmap=cmap, norm=Normalize(-0.5, count - 0.5), origin="lower", extent=extent,
                          interpolation="nearest")
        probe.set_data(np.array(data))
        probe.set_transform(ax.transData)
        probe.set_clip_path(ax.patch)
        pixels, left, bottom, _ = probe.make_image(renderer, renderer.get_image_magnification())
        if pixels is None or not (pixels[..., 3] == 255).all():
            return None
        seen = pixels[..., :3].astype(np.int64)
        seen = seen[..., 0] | seen[..., 1] << 8 | seen[..., 2] << 16
        order = np.argsort(codes)
        at = np.minimum(np.searchsorted(codes[order], seen), count - 1)
        named = np.where(codes[order][at] == seen, ids[order][at], -1)
        line = named[:, :1] if axis == 0 else named[:1, :]
        if (named < 0).any() or not (named == line).all():
            return None
        found.append((line.ravel(), float(left), float(bottom)))
    (rows, left, bottom), (cols, left_again, bottom_again) = found
    if (left, bottom) != (left_again, bottom_again):
        return None
    maps = _PixelMaps(rows, cols, left, bottom)
    # and a check of the whole route on a field with undefined samples and values outside the colour range
    field = np.sin(np.arange(shape[0] * shape[1], dtype=float).reshape(shape) * 0.37)
    field.ravel()[::97] = np.nan
    field.ravel()[5::89] = np.inf
    probe = AxesImage(ax, cmap=_cmap("viridis"), origin="lower", extent=extent, interpolation="nearest")
    probe.set_data(field)
    probe.set_clim(-0.8, 0.9)
    probe.set_transform(ax.transData)
    probe.set_clip_path(ax.patch)
    pixels, *_ = probe.make_image(renderer, renderer.get_image_magnification())
    return maps if np.array_equal(pixels, _heatmap_pixels(field, "viridis", -0.8, 0.9, maps)) else None


def _heatmap_pixels(z: np.ndarray, cmap: str, vmin: float, vmax: float, maps: _PixelMaps) -> np.ndarray:
    """The RGBA bytes matplotlib's image artist hands to Agg for the heatmap of ``z``: each sample's colour
    as its ``Normalize(vmin, vmax)`` and colour map give it (undefined samples in the "bad" colour), at the
    pixels ``maps`` says show it."""
    with np.errstate(invalid="ignore"):
        position = (z - vmin) / (vmax - vmin)
    # undefined samples are NaN; with a finite least and greatest position every sample is defined (NaN and
    # infinities would be among them), and the mask below would change nothing
    if not (FAST_RANGE and position.size and np.isfinite(position.min()) and np.isfinite(position.max())):
        position[~np.isfinite(z)] = np.nan
    colours = colour_words(position, cmap) if FAST_COLOURS and position.dtype == np.float64 else None
    if colours is None:
        colours = np.ascontiguousarray(_cmap(cmap)(position, bytes=True)).view(np.uint32)[..., 0]
    pixels = colours.take(maps.rows, axis=0).take(maps.cols, axis=1)  # one 4-byte word per pixel
    return pixels.view(np.uint8).reshape(*pixels.shape, 4)


_PIXEL_ARTIST: Any = None


def _pixel_artist(pixels: np.ndarray, left: float, bottom: float) -> Any:
    """An artist that draws ready RGBA ``pixels`` with their corner at (left, bottom), as matplotlib's image
    artist draws its resampled image: one ``draw_image`` call, clipped like the image artist."""
    global _PIXEL_ARTIST
    if _PIXEL_ARTIST is None:
        from matplotlib.artist import Artist

        class PixelArtist(Artist):
            def __init__(self, pixels: np.ndarray, left: float, bottom: float) -> None:
                super().__init__()
                self.pixels, self.left, self.bottom = pixels, left, bottom

            def draw(self, renderer: Any) -> None:
                gc = renderer.new_gc()
                self._set_gc_clip(gc)
                gc.set_alpha(1.0)
                renderer.draw_image(gc, self.left, self.bottom, self.pixels)
                gc.restore()

        _PIXEL_ARTIST = PixelArtist
    return _PIXEL_ARTIST(pixels, left, bottom)


def _draw(surface: _Surface, panels: Sequence[tuple[np.ndarray, str]], extent: tuple[float, float, float, float],
          vmin: float, vmax: float, dashes: str = "negative") -> Image.Image:
    """Restore the current background, draw every panel's data and the frames over it, return the pixels."""
    canvas = surface.canvas
    renderer = canvas.get_renderer()
    maps = [_nearest_samples(surface, k, z.shape, extent, renderer) if FAST_HEATMAPS and style_parts(style)[1]
            else None for k, (z, style) in enumerate(panels)]
    canvas.restore_region(surface.backgrounds[surface.current])
    for ax, (z, style), panel_maps in zip(surface.axes, panels, maps, strict=True):
        for artist in _data_artists(ax, z, extent, style, vmin, vmax, dashes, panel_maps):
            artist.draw(renderer)
        for spine in ax.spines.values():
            spine.draw(renderer)
    width, height = canvas.get_width_height()
    # the canvas's RGBA bytes read as RGB, the fourth byte of each pixel skipped: what converting the RGBA image
    # to RGB gives (that conversion drops the alpha), in one pass instead of two
    return Image.frombytes("RGB", (width, height), canvas.buffer_rgba(), "raw", "RGBX")


def _check_grid(z: Any, name: str) -> np.ndarray:
    z = np.asarray(z, dtype=float)
    if z.ndim != 2 or min(z.shape) < 2:
        raise ValueError(f"{name} must be a 2-D grid of at least 2x2 values, got shape {z.shape}")
    return z


def _check_extent(extent: Sequence[float]) -> tuple[float, float, float, float]:
    xmin, xmax, ymin, ymax = (float(v) for v in extent)
    if not (xmin < xmax and ymin < ymax) or not all(map(math.isfinite, (xmin, xmax, ymin, ymax))):
        raise ValueError(f"extent must be finite (xmin, xmax, ymin, ymax) with min < max, got {extent}")
    return xmin, xmax, ymin, ymax


def render_plot(z: np.ndarray, extent: Sequence[float], style: str, *, vmin: float | None = None,
                vmax: float | None = None, size_px: tuple[int, int] = PLOT_SIZE, title: str | None = None,
                dashes: str = "negative") -> Image.Image:
    """One plot of the grid ``z`` (rows = y ascending) over ``extent`` in ``style``, as an RGB image of
    ``size_px``.  Colours and contour levels span ``[vmin, vmax]`` (default: the finite range of ``z``);
    ``dashes`` picks the dashed lines of the contour-only style (``DASHES``).  The same arguments always give
    the same pixels."""
    if dashes not in DASHES:
        raise ValueError(f"dashes must be one of {', '.join(DASHES)}, got {dashes!r}")
    z = _check_grid(z, "z")
    extent = _check_extent(extent)
    style_parts(style)
    lo, hi = value_range(z) if vmin is None or vmax is None else (0.0, 0.0)  # the grid's range only if needed
    lo, hi = (lo if vmin is None else float(vmin)), (hi if vmax is None else float(vmax))
    if not hi > lo:
        raise ValueError(f"vmax must exceed vmin, got vmin={lo}, vmax={hi}")
    with _pinned_rc():
        surface = _surface("plot", tuple(size_px))
        _decorate(surface, extent, (title,))
        return _draw(surface, [(z, style)], extent, lo, hi, dashes)


def render_pair(z_a: np.ndarray, z_b: np.ndarray, extent: Sequence[float], style_a: str, style_b: str, *,
                vmin: float | None = None, vmax: float | None = None, size_px: tuple[int, int] = PAIR_SIZE,
                ) -> Image.Image:
    """"Plot A" (left) and "Plot B" (right) side by side with identical axes, ticks and labels.

    Both panels share one colour range and one set of contour levels, ``[vmin, vmax]``, by default the
    finite range of A and B together, so equal values look equal in the two plots (also when one panel is
    contour-only: its levels are then the other panel's levels)."""
    z_a, z_b = _check_grid(z_a, "z_a"), _check_grid(z_b, "z_b")
    extent = _check_extent(extent)
    style_parts(style_a)
    style_parts(style_b)
    lo, hi = value_range(z_a, z_b) if vmin is None or vmax is None else (0.0, 0.0)  # the range only if needed
    lo, hi = (lo if vmin is None else float(vmin)), (hi if vmax is None else float(vmax))
    if not hi > lo:
        raise ValueError(f"vmax must exceed vmin, got vmin={lo}, vmax={hi}")
    with _pinned_rc():
        surface = _surface("pair", tuple(size_px))
        _decorate(surface, extent, ("Plot A", "Plot B"))
        return _draw(surface, [(z_a, style_a), (z_b, style_b)], extent, lo, hi)
