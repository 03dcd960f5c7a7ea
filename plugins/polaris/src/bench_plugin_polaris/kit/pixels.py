"""Reading a decoded image back through a layout's inverse map (for verifiers): which cells hold pixels of a
colour, what colours fill a cell, whether a straight pixel run is drawn in one colour."""

from __future__ import annotations

from collections import Counter

import numpy as np

from bench_plugin_polaris.kit.layouts import Box, Layout, Point

RGB = tuple[int, int, int]


def as_array(image) -> np.ndarray:
    """The image's pixels as a read-only (h, w, 3) uint8 array (RGB), through Pillow's public array interface:
    no Pillow setting is changed, so it is safe from any thread.  A verify pass calls it once per image."""
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    return np.asarray(rgb)


def gather(pixels: np.ndarray, ys, xs) -> np.ndarray:
    """``pixels[ys, xs]`` (integer index arrays of one shape, inside the image): the RGB of each point, shape
    ``ys.shape + (3,)``.  One ``take`` along the rows of the (h * w, 3) view, several times faster than numpy's
    two-array fancy indexing of an (h, w, 3) array."""
    ys, xs = np.asarray(ys), np.asarray(xs)
    h, w = pixels.shape[:2]
    flat = pixels.reshape(h * w, 3)
    lin = ys.astype(np.intp) * w + xs
    return np.take(flat, lin.ravel(), axis=0).reshape(*lin.shape, 3)


def colour_mask(pixels: np.ndarray, colour: RGB, box: Box | None = None) -> np.ndarray:
    """Boolean (h, w) mask of the pixels exactly ``colour`` (outside ``box``, when given, False)."""
    mask = np.all(pixels == np.array(colour, dtype=np.uint8), axis=2)
    if box is not None:
        x0, y0, x1, y1 = (round(v) for v in box)
        clipped = np.zeros_like(mask)
        clipped[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = mask[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
        mask = clipped
    return mask


def cells_with_colour(pixels: np.ndarray, layout: Layout, colour: RGB, box: Box | None = None) -> Counter:
    """For every cell of ``layout``, how many pixels (pixel centres mapped through ``cells_at``) have exactly
    ``colour``; only cells with at least one.  ``box`` limits the search (default: the grid's box)."""
    mask = colour_mask(pixels, colour, box if box is not None else layout.grid_box())
    ys, xs = np.nonzero(mask)
    rows, cols = layout.cells_at(xs + 0.5, ys + 0.5)
    keep = rows >= 0
    return Counter(zip(rows[keep].tolist(), cols[keep].tolist(), strict=True))


def cell_colours(pixels: np.ndarray, layout: Layout, r: int, c: int, shrink: float = 0.0) -> Counter:
    """The colours of the pixels inside cell ``(r, c)`` (those ``cells_at`` maps to it), as a Counter of RGB
    tuples; ``shrink`` > 0 keeps only pixels whose index point is at least that far (in cells) from the
    cell's edges (away from grid lines)."""
    polygon = np.array(layout.cell_polygon(r, c))
    x0, y0 = np.floor(polygon.min(axis=0)).astype(int)
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int)
    h, w = pixels.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1 + 1), min(h, y1 + 1)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    ix, iy, inside = layout.index_points(xs.ravel() + 0.5, ys.ravel() + 0.5)
    keep = inside & (np.floor(iy) == r) & (np.floor(ix) == c)
    if shrink > 0:
        keep &= (ix - c >= shrink) & (c + 1 - ix >= shrink) & (iy - r >= shrink) & (r + 1 - iy >= shrink)
    chosen = pixels[ys.ravel()[keep], xs.ravel()[keep]]
    return Counter(map(tuple, chosen.tolist()))


def share(counter: Counter, colour: RGB) -> float:
    """The fraction of a ``cell_colours`` counter that is ``colour`` (0 for an empty counter)."""
    total = sum(counter.values())
    return counter.get(tuple(colour), 0) / total if total else 0.0


def colour_near(pixels: np.ndarray, at: Point, colour: RGB, radius: int = 2) -> bool:
    """Whether a pixel of exactly ``colour`` lies within ``radius`` px (a square) of ``at``."""
    h, w = pixels.shape[:2]
    x, y = round(at[0]), round(at[1])
    patch = pixels[max(0, y - radius):min(h, y + radius + 1), max(0, x - radius):min(w, x + radius + 1)]
    return bool(np.any(np.all(patch == np.array(colour, dtype=np.uint8), axis=-1)))


def colours_near(pixels: np.ndarray, points, colour: RGB, radius: int = 2) -> np.ndarray:
    """``colour_near`` for many points at once: a boolean per point (one gather of their windows, clipped to the
    image as ``colour_near`` clips them)."""
    h, w = pixels.shape[:2]
    xy = np.asarray(points, float).reshape(-1, 2)
    xi = np.rint(xy[:, 0]).astype(int)[:, None]
    yi = np.rint(xy[:, 1]).astype(int)[:, None]
    offsets = np.arange(-radius, radius + 1)[None, :]
    gx, gy = (xi + offsets)[:, None, :], (yi + offsets)[:, :, None]
    inside = (gx >= 0) & (gx < w) & (gy >= 0) & (gy < h)
    window = gather(pixels, np.broadcast_to(np.clip(gy, 0, h - 1), inside.shape),
                    np.broadcast_to(np.clip(gx, 0, w - 1), inside.shape))
    hit = np.all(window == np.array(colour, dtype=np.uint8), axis=-1) & inside
    return hit.any(axis=(1, 2))


def run_share(pixels: np.ndarray, points: list[Point], colour: RGB, radius: int = 1) -> float:
    """The fraction of the pixel points ``points`` that have ``colour`` within ``radius`` px (a square; how
    much of a drawn line, wall or arc is really there).  Vectorised: one gather of every point's window."""
    if not len(points):
        return 0.0
    h, w = pixels.shape[:2]
    xy = np.rint(np.asarray(points, float)).astype(int)
    offsets = np.arange(-radius, radius + 1)
    x = (xy[:, 0][:, None, None] + offsets[None, None, :]) + np.zeros((1, len(offsets), 1), int)
    y = (xy[:, 1][:, None, None] + offsets[None, :, None]) + np.zeros((1, 1, len(offsets)), int)
    ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    window = gather(pixels, np.clip(y, 0, h - 1), np.clip(x, 0, w - 1))
    hit = np.all(window == np.array(colour, dtype=np.uint8), axis=-1) & ok
    return float(hit.any(axis=(1, 2)).mean())


def colour_key(colour: RGB) -> int:
    """The integer key of an RGB colour in ``PixelReader`` (r << 16 | g << 8 | b)."""
    r, g, b = colour
    return (int(r) << 16) | (int(g) << 8) | int(b)


#: Sample grids ``PixelReader`` keeps, keyed by the layout (its repr: every field), the image size and the
#: stride: the items of one geometry share the pixel positions and the cells they map to (compact: about 8 bytes
#: a sample, at most about 20 MB in all, so a run's few dozen geometries stay cached).
SAMPLE_CACHE = 64
_SAMPLE_GRIDS: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _samples(layout: Layout, h: int, w: int, stride: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pixel index y * w + x, flat cell index row * columns drawn + column, samples per cell) of every
    ``stride``-th pixel of the grid's box (pixel centres) that ``cells_at`` maps into the grid (read-only int32
    arrays, cached per layout, image size and stride)."""
    key = (type(layout).__name__, repr(layout), h, w, stride)
    found = _SAMPLE_GRIDS.get(key)
    if found is None:
        x0, y0, x1, y1 = layout.grid_box()
        xs = np.arange(max(0, int(x0)) + stride // 2, min(w, int(np.ceil(x1))), stride)
        ys = np.arange(max(0, int(y0)) + stride // 2, min(h, int(np.ceil(y1))), stride)
        gx, gy = np.meshgrid(xs, ys)
        gx, gy = gx.ravel(), gy.ravel()
        rows, cols = layout.cells_at(gx + 0.5, gy + 0.5)
        keep = rows >= 0
        width = int(layout.columns_drawn)
        flat = (rows[keep] * width + cols[keep]).astype(np.int32)
        found = ((gy[keep] * w + gx[keep]).astype(np.int32), flat,
                 np.bincount(flat, minlength=layout.rows * width))
        for array in found:
            array.flags.writeable = False
        if len(_SAMPLE_GRIDS) >= SAMPLE_CACHE:
            _SAMPLE_GRIDS.pop(next(iter(_SAMPLE_GRIDS)))
        _SAMPLE_GRIDS[key] = found
    return found


class PixelReader:
    """One pass over a decoded image (or its ``as_array`` pixels) through a layout's inverse map: every
    ``stride``-th pixel of the grid's box (pixel centres) with its colour key and the cell ``cells_at`` maps it
    to.  Queries are then cheap:
    which cells hold a colour (``cells_of``), what share of a cell a colour covers (``share``)."""

    def __init__(self, image, layout: Layout, stride: int = 6) -> None:
        pixels = image if isinstance(image, np.ndarray) else as_array(image)
        h, w = pixels.shape[:2]
        lin, self.flat, self.totals = _samples(layout, h, w, stride)
        sample = np.take(pixels.reshape(h * w, 3), lin, axis=0).astype(np.uint32)
        self.layout = layout
        self.stride = stride
        self.keys = (sample[:, 0] << 16) | (sample[:, 1] << 8) | sample[:, 2]
        self.width = int(layout.columns_drawn)

    def cells_of(self, colour: RGB) -> Counter:
        """Samples of exactly ``colour`` per cell (only cells with at least one)."""
        hits = self.flat[self.keys == colour_key(colour)]
        counts = np.bincount(hits, minlength=len(self.totals))
        return Counter({(int(k) // self.width, int(k) % self.width): int(counts[k]) for k in np.nonzero(counts)[0]})

    def share(self, colour: RGB) -> np.ndarray:
        """(rows, columns drawn) array: the fraction of each cell's samples that are exactly ``colour``."""
        hits = np.bincount(self.flat[self.keys == colour_key(colour)], minlength=len(self.totals))
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(self.totals > 0, hits / np.maximum(self.totals, 1), 0.0)
        return out.reshape(self.layout.rows, self.width)
