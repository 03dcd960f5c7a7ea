"""Pixel reads shared by the algorithmic-logic verifiers: which cells hold ink of a colour (read through the
layout's inverse map ``cells_at``), whether a wall line is drawn, which label (digit, letter) is drawn at a
point (template match against the kit's font), and a guard that turns a malformed record into one failure
instead of a crash."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from bench_plugin_polaris.kit.pixels import gather

Cell = tuple[int, int]
#: The errors reading a malformed record raises.
MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def guarded(verify: Callable[..., list[str]]) -> Callable[..., list[str]]:
    """``verify`` returning one failure naming the problem when the item's record is malformed (a missing key,
    a short list, a wrong type) instead of raising."""

    @functools.wraps(verify)
    def checked(item, images, *args, **kwargs) -> list[str]:
        if not isinstance(getattr(item, "metadata", None), dict) or not isinstance(item.metadata.get("scene"), dict):
            return ["the item's record is malformed: metadata.scene is missing or not an object"]
        try:
            return verify(item, images, *args, **kwargs)
        except MALFORMED as exc:
            return [f"the item's record is malformed: {type(exc).__name__}: {exc}"]

    return checked


def pixels(image) -> np.ndarray:
    """The image as a read-only (h, w, 3) uint8 array (``kit.pixels.as_array``)."""
    from bench_plugin_polaris.kit.pixels import as_array

    return as_array(image)


def _key(colour: Sequence[int]) -> int:
    r, g, b = (int(v) for v in colour)
    return r | g << 8 | b << 16


#: Pixel stride of the sample grid ``cells_with`` reads (every third pixel each way: 9 px per sample).
INK_STRIDE = 3
#: Inset sample grids kept, keyed by the layout (its repr: every field) and the image size (about 0.5 MB each).
INK_GRID_CACHE = 64
_INK_GRIDS: dict[tuple, tuple[np.ndarray, np.ndarray, int]] = {}


def ink_samples(layout, h: int, w: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(pixel index y * w + x, flat cell index row * width + column, width) of the ``INK_STRIDE`` sample grid of
    the layout's grid box, keeping only the samples at least 3 px inside their cell (the four points 3 px away map
    to the same cell, so a polygon edge rounded one pixel over its neighbour's boundary is not read as ink there).
    Computed once per layout and image size through the inverse map ``cells_at`` (items of one geometry share
    it; int32 arrays, about 8 bytes a sample)."""
    key = (type(layout).__name__, repr(layout), h, w)
    found = _INK_GRIDS.get(key)
    if found is None:
        x0, y0, x1, y1 = layout.grid_box()
        xs = np.arange(max(0, int(x0)), min(w, int(np.ceil(x1)) + 1), INK_STRIDE)
        ys = np.arange(max(0, int(y0)), min(h, int(np.ceil(y1)) + 1), INK_STRIDE)
        gx, gy = (a.ravel() for a in np.meshgrid(xs, ys))
        px, py = gx + 0.5, gy + 0.5
        rows, cols = layout.cells_at(px, py)
        keep = rows >= 0
        for dx, dy in ((3.0, 0.0), (-3.0, 0.0), (0.0, 3.0), (0.0, -3.0)):
            r2, c2 = layout.cells_at(px + dx, py + dy)
            keep &= (r2 == rows) & (c2 == cols)
        width = int(layout.columns_drawn)
        found = ((gy[keep] * w + gx[keep]).astype(np.int32), (rows[keep] * width + cols[keep]).astype(np.int32),
                 width)
        if len(_INK_GRIDS) >= INK_GRID_CACHE:
            _INK_GRIDS.pop(next(iter(_INK_GRIDS)))
        _INK_GRIDS[key] = found
    return found


def cells_with(array: np.ndarray, layout, colour: Sequence[int], minimum: int) -> set[Cell]:
    """The cells holding at least ``minimum`` pixels of exactly ``colour``, counted on the ``ink_samples`` grid
    (each sample stands for ``INK_STRIDE``^2 pixels; samples within 3 px of a cell's border are not read)."""
    return cells_with_colours(array, layout, [colour], minimum)[0]


def cells_with_colours(array: np.ndarray, layout, colours: Sequence[Sequence[int]], minimum: int
                       ) -> list[set[Cell]]:
    """``cells_with`` for each of ``colours``, all read in one gather of the sample grid's pixels."""
    h, w = array.shape[:2]
    lin, flat, width = ink_samples(layout, h, w)
    sample = np.take(array.reshape(h * w, 3), lin, axis=0).astype(np.uint32)
    keys = sample[:, 0] | sample[:, 1] << 8 | sample[:, 2] << 16
    found = []
    for colour in colours:
        counts = np.bincount(flat[keys == _key(colour)])
        hits = np.nonzero((counts > 0) & (counts * INK_STRIDE * INK_STRIDE >= minimum))[0]
        found.append({(int(k) // width, int(k) % width) for k in hits})
    return found


def dark_along(array: np.ndarray, points: Iterable[tuple[float, float]], threshold: int = 60) -> float:
    """The share of ``points`` (pixels) whose darkest channel is below ``threshold``: how much of a drawn line
    is ink."""
    h, w = array.shape[:2]
    hits = total = 0
    for x, y in points:
        xi, yi = round(x), round(y)
        if 0 <= xi < w and 0 <= yi < h:
            total += 1
            hits += int(array[yi, xi].max() < threshold)
    return hits / total if total else 0.0


def compare_cells(found: set[Cell], recorded: set[Cell], what: str) -> list[str]:
    """Failures when the cells read off the picture differ from the recorded ones."""
    failures = []
    if found - recorded:
        failures.append(f"{what} drawn in cells the record does not list: {sorted(found - recorded)}")
    if recorded - found:
        failures.append(f"{what} recorded but not drawn in cells {sorted(recorded - found)}")
    return failures


def glyph_mask(label: str, at: tuple[float, float], px: int) -> tuple[np.ndarray, int, int]:
    """Where ``label`` would be ink if drawn centred at ``at`` (``kit.draw``'s font at ``px``, no anti-aliasing):
    the template a drawn label is compared with, as (mask, x0, y0) of a small window whose top-left pixel is
    (x0, y0).  The mask (read-only) depends on the label and px only: it is rendered once and shared."""
    side = 3 * px
    return _glyph(label, px), round(at[0]) - side // 2, round(at[1]) - side // 2


@functools.lru_cache(maxsize=256)
def _glyph(label: str, px: int) -> np.ndarray:
    """``label``'s ink drawn centred in a (3 px)^2 window (read-only)."""
    from PIL import Image, ImageDraw

    from bench_plugin_polaris.kit.draw import font

    side = 3 * px
    canvas = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(canvas)
    draw.fontmode = "1"
    draw.text((side // 2, side // 2), label, fill=255, font=font(px), anchor="mm")
    mask = np.asarray(canvas) > 0
    mask.flags.writeable = False
    return mask


@functools.lru_cache(maxsize=64)
def _templates(labels: tuple[str, ...], px: int) -> tuple[tuple[int, int, int, int], dict[str, np.ndarray]] | None:
    """The box (x0, x1, y0, y1, in the 3 px window) the ``labels``' templates cover, grown by 2 px, and each
    template cropped to it; None when no label has ink."""
    masks = {label: _glyph(label, px) for label in labels}
    union_mask = np.zeros_like(masks[labels[0]])
    for mask in masks.values():
        union_mask |= mask
    ys, xs = np.nonzero(union_mask)
    if not len(xs):
        return None
    lx0, lx1 = max(0, int(xs.min()) - 2), min(union_mask.shape[1], int(xs.max()) + 3)
    ly0, ly1 = max(0, int(ys.min()) - 2), min(union_mask.shape[0], int(ys.max()) + 3)
    return (lx0, lx1, ly0, ly1), {label: mask[ly0:ly1, lx0:lx1] for label, mask in masks.items()}


def read_label(array: np.ndarray, at: tuple[float, float], px: int, candidates: Iterable[str],
               threshold: int = 60) -> tuple[str | None, float]:
    """Which of ``candidates`` is drawn centred at ``at``: the dark ink inside the box the candidates' templates
    cover (grown by 2 px; lines further out are not read) against each template, by overlap (intersection over
    union).  ("", 1.0) when that box holds no ink; (None, best) when ink is there but no candidate fits at least
    half of it."""
    h, w = array.shape[:2]
    labels = tuple(candidates)
    found = _templates(labels, px)
    if found is None:
        return None, 0.0
    (lx0, lx1, ly0, ly1), templates = found
    side = 3 * px
    wx, wy = round(at[0]) - side // 2, round(at[1]) - side // 2
    if wx + lx0 < 0 or wy + ly0 < 0 or wx + lx1 > w or wy + ly1 > h:
        return None, 0.0
    ink = array[wy + ly0: wy + ly1, wx + lx0: wx + lx1].max(axis=2) < threshold
    if not ink.any():
        return "", 1.0
    best, score = None, 0.0
    for label in labels:
        template = templates[label]
        union = np.count_nonzero(ink | template)
        value = np.count_nonzero(ink & template) / union if union else 0.0
        if value > score:
            best, score = label, value
    return (best, score) if score >= 0.5 else (None, score)


def read_labels(array: np.ndarray, points: Sequence[tuple[float, float]], px: int, candidates: Iterable[str],
                threshold: int = 60) -> list[str | None]:
    """``read_label``'s label (not its score) at each of ``points``, all windows compared at once."""
    labels = tuple(candidates)
    found = _templates(labels, px)
    if found is None or not len(points):
        return [None] * len(points)
    (lx0, lx1, ly0, ly1), templates = found
    h, w = array.shape[:2]
    side = 3 * px
    corners = np.array([(round(x) - side // 2, round(y) - side // 2) for x, y in points])
    wx, wy = corners[:, 0], corners[:, 1]
    inside = (wx + lx0 >= 0) & (wy + ly0 >= 0) & (wx + lx1 <= w) & (wy + ly1 <= h)
    out: list[str | None] = [None] * len(points)
    chosen = np.nonzero(inside)[0]
    if not len(chosen):
        return out
    ys = (wy[chosen] + ly0)[:, None] + np.arange(ly1 - ly0)[None, :]
    xs = (wx[chosen] + lx0)[:, None] + np.arange(lx1 - lx0)[None, :]
    shape = (len(chosen), ys.shape[1], xs.shape[1])
    ink = gather(array, np.broadcast_to(ys[:, :, None], shape), np.broadcast_to(xs[:, None, :], shape)
                 ).max(axis=-1) < threshold  # (points, height, width)
    stack = np.stack([templates[label] for label in labels])  # (labels, height, width)
    inter = np.count_nonzero(ink[:, None] & stack[None], axis=(2, 3))
    union = np.count_nonzero(ink[:, None] | stack[None], axis=(2, 3))
    value = np.where(union > 0, inter / np.maximum(union, 1), 0.0)
    best = value.argmax(axis=1)
    for k, index in enumerate(chosen):
        if not ink[k].any():
            out[index] = ""
        elif value[k, best[k]] >= 0.5:
            out[index] = labels[best[k]]
    return out


def dark_share(array: np.ndarray, x: float, y: float, half: int = 3, threshold: int = 60) -> float:
    """The share of dark pixels in the (2 * half + 1)^2 square around pixel (x, y): about 0.85 on a 6 px wall
    line, under 0.45 on a 2 px grid line, 0 on an empty cell (robust to the pinholes Pillow leaves in wide
    polylines)."""
    h, w = array.shape[:2]
    xi, yi = round(x), round(y)
    window = array[max(0, yi - half): min(h, yi + half + 1), max(0, xi - half): min(w, xi + half + 1)]
    return float(np.count_nonzero(window.max(axis=2) < threshold)) / max(1, window.shape[0] * window.shape[1])


def thick_at(array: np.ndarray, x: float, y: float) -> bool:
    """Whether a thick (wall) line passes through pixel (x, y)."""
    return dark_share(array, x, y) >= 0.6


def thick_at_points(array: np.ndarray, xs, ys, half: int = 3, threshold: int = 60) -> np.ndarray:
    """``thick_at`` for many pixels at once (one gather of their (2 * half + 1)^2 windows, clipped to the image
    as ``dark_share`` clips them): a boolean array, one per point."""
    h, w = array.shape[:2]
    xi = np.rint(np.asarray(xs, float)).astype(int)[:, None]
    yi = np.rint(np.asarray(ys, float)).astype(int)[:, None]
    offsets = np.arange(-half, half + 1)
    gx = (xi + offsets[None, :])[:, None, :]
    gy = (yi + offsets[None, :])[:, :, None]
    inside = (gx >= 0) & (gx < w) & (gy >= 0) & (gy < h)
    dark = gather(array, np.broadcast_to(np.clip(gy, 0, h - 1), inside.shape),
                  np.broadcast_to(np.clip(gx, 0, w - 1), inside.shape)).max(axis=-1) < threshold
    counts = np.count_nonzero(dark & inside, axis=(1, 2))
    return counts / np.maximum(1, np.count_nonzero(inside, axis=(1, 2))) >= 0.6


def seam_cut_failures(array: np.ndarray, layout, why: str) -> list[str]:
    """A polar picture whose rings run on round the seam: one failure per ring a thick wall cuts at 12 o'clock
    (read in the middle of the ring, beside the radial), ``why`` saying why it must be open."""
    inner, _outer = layout.seam()
    failures = []
    for ring in range(layout.rows):
        mid = (layout.ring_radius(ring) + layout.ring_radius(ring + 1)) / 2
        if thick_at(array, inner[0], layout.center[1] - mid):
            failures.append(f"ring {ring + 1} is cut by a wall at 12 o'clock ({why})")
    return failures

