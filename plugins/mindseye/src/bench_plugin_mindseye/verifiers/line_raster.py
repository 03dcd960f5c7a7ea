"""A crude stroke rasteriser for the verifiers' sketches and pixel checks (numpy only).

Coordinates are continuous tile pixels: pixel (i, j) covers [i, i + 1) x [j, j + 1), x to the right, y down.
A stroke is made by marking the pixels that hold points sampled densely along its centre line and growing
that mark by a disc of half the pen width (on a grid ``FACTOR`` times finer, averaged back down, which gives
the stroke soft edges).  Nothing here knows how a generator draws: it only strokes line segments.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: Sub-pixel grid of ``stroke_coverage``.
FACTOR = 2


def circle_polyline(cx: float, cy: float, r: float, step: float = 3.0) -> np.ndarray:
    """A closed polyline (m + 1 points, last = first) on the circle, points ``step`` pixels apart or closer."""
    count = max(16, int(np.ceil(2 * np.pi * r / step)))
    angles = np.linspace(0.0, 2 * np.pi, count + 1)
    return np.stack([cx + r * np.cos(angles), cy + r * np.sin(angles)], axis=1)


def polyline_segments(points: np.ndarray, closed: bool) -> np.ndarray:
    """The segments (m x 2 x 2) of a polyline, closing it back to its first point when ``closed``."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    q = np.roll(p, -1, axis=0) if closed else p[1:]
    p = p if closed else p[:-1]
    return np.stack([p, q], axis=1)


def samples(segments: np.ndarray, step: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Points every ``step`` pixels or closer along each segment (m x 2 x 2), both ends included, and the
    segment each belongs to: the k-th of a segment's n points is its start plus k / (n - 1) of its run."""
    seg = np.asarray(segments, dtype=float).reshape(-1, 2, 2)
    run = seg[:, 1] - seg[:, 0]
    length = np.hypot(run[:, 0], run[:, 1])
    count = np.maximum(2, np.ceil(length / step).astype(int) + 1)
    owner = np.repeat(np.arange(len(seg)), count)
    firsts = np.cumsum(count) - count
    k = np.arange(int(count.sum())) - np.repeat(firsts, count)
    t = k / np.repeat(count - 1, count)
    points = np.repeat(run, count, axis=0)
    points *= t[:, None]
    points += np.repeat(seg[:, 0], count, axis=0)
    return points, owner


def mark(points: np.ndarray, size: int) -> np.ndarray:
    """A size x size boolean grid with the pixels that hold ``points`` set (points off the grid ignored)."""
    grid = np.zeros((size, size), dtype=bool)
    ij = np.floor(points).astype(int)
    keep = (ij >= 0).all(axis=1) & (ij < size).all(axis=1)
    grid[ij[keep, 1], ij[keep, 0]] = True
    return grid


def _shift_or(target: np.ndarray, source: np.ndarray, dy: int, dx: int) -> None:
    """target |= source moved by (dy, dx)."""
    h, w = source.shape
    if abs(dy) >= h or abs(dx) >= w:
        return
    target[max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] |= \
        source[max(-dy, 0):h + min(-dy, 0), max(-dx, 0):w + min(-dx, 0)]


def dilate(grid: np.ndarray, radius: float) -> np.ndarray:
    """``grid`` grown by a disc of ``radius`` pixels (offsets dx^2 + dy^2 <= radius^2): rows of the disc are
    built from horizontal runs, so the cost grows with the radius, not its square."""
    reach = int(np.floor(max(radius, 0.0)))
    runs = [grid]
    for w in range(1, reach + 1):
        run = runs[-1].copy()
        _shift_or(run, grid, 0, w)
        _shift_or(run, grid, 0, -w)
        runs.append(run)
    out = grid.copy()
    for dy in range(-reach, reach + 1):
        w = int(np.floor(np.sqrt(max(radius * radius - dy * dy, 0.0))))
        _shift_or(out, runs[w], dy, 0)
    return out


def grown_box(points: np.ndarray, size: int, radius: float, align: int = 1,
              ) -> tuple[tuple[int, int], np.ndarray] | None:
    """``dilate(mark(points, size), radius)`` worked out only where it can hold marks: on the box of the marked
    pixels widened by more than the radius and clipped to the grid, its corner (x, y) moved down to multiples of
    ``align``.  Returns (that corner, the grown marks on the box): exactly that part of the whole grid, every
    other pixel of which is blank (no mark grows further than the radius); None if no point lies on the grid.
    The cost grows with the box, not the grid."""
    found = _marked_box(points, size, radius, align)
    if found is None:
        return None
    corner, box = found
    return corner, dilate(box, radius)


def _marked_box(points: np.ndarray, size: int, radius: float, align: int = 1,
                ) -> tuple[tuple[int, int], np.ndarray] | None:
    """The box of ``grown_box`` (its corner, and the marks on it before they are grown), or None."""
    ij = np.floor(points).astype(int).reshape(-1, 2)
    if not len(ij) or ij.min() < 0 or ij.max() >= size:  # only some points on the grid
        ij = ij[(ij >= 0).all(axis=1) & (ij < size).all(axis=1)]
    if not len(ij):
        return None
    margin = int(np.floor(max(radius, 0.0))) + 1
    # column by column (a reduction down the long axis of a k x 2 array is many times slower in numpy)
    x0, y0 = (max(0, int(ij[:, c].min()) - margin) // align * align for c in (0, 1))
    x1, y1 = (min(size, int(ij[:, c].max()) + margin + 1) for c in (0, 1))
    box = np.zeros((y1 - y0, x1 - x0), dtype=bool)
    box[ij[:, 1] - y0, ij[:, 0] - x0] = True
    return (x0, y0), box


def grown_boxes(point_sets: Sequence[tuple[np.ndarray, int]], radius: float, align: int = 1,
                ) -> list[tuple[tuple[int, int], np.ndarray] | None]:
    """``[grown_box(points, size, radius, align) for points, size in point_sets]`` with one dilation: the boxes
    are found for all sets at once and stacked one under the other, more than the radius apart, so that no mark
    grows into another box (a dilation costs a few whole-array steps per pixel of radius, whatever the array's
    size)."""
    n = len(point_sets)
    if not n:
        return []
    counts = np.array([len(np.asarray(points).reshape(-1, 2)) for points, _ in point_sets])
    ij = np.floor(np.concatenate([np.asarray(points, dtype=float).reshape(-1, 2) for points, _ in point_sets])
                  ).astype(int)
    owner = np.repeat(np.arange(n), counts)
    sizes = np.array([size for _, size in point_sets])
    size = sizes[owner]
    on = (ij[:, 0] >= 0) & (ij[:, 1] >= 0) & (ij[:, 0] < size) & (ij[:, 1] < size)  # the points on their grid
    ij, owner = ij[on], owner[on]
    present = np.bincount(owner, minlength=n) > 0
    if not present.any():
        return [None] * n
    starts = np.searchsorted(owner, np.flatnonzero(present))
    margin = int(np.floor(max(radius, 0.0))) + 1
    # column by column (a reduction down the long axis of a k x 2 array is many times slower in numpy)
    low = np.stack([np.minimum.reduceat(ij[:, c], starts) for c in (0, 1)], axis=1)
    high = np.stack([np.maximum.reduceat(ij[:, c], starts) for c in (0, 1)], axis=1)
    corner = np.maximum(0, low - margin) // align * align
    far = np.minimum(sizes[present, None], high + margin + 1)
    extent = far - corner  # (width, height) of each box
    tops = np.concatenate([[0], np.cumsum(extent[:-1, 1] + margin)])
    canvas = np.zeros((int(tops[-1] + extent[-1, 1]), int(extent[:, 0].max())), dtype=bool)
    place = np.cumsum(present) - 1  # each set's place among the boxes
    k = place[owner]
    canvas[tops[k] + ij[:, 1] - corner[k, 1], ij[:, 0] - corner[k, 0]] = True
    grown = dilate(canvas, radius)
    out: list[tuple[tuple[int, int], np.ndarray] | None] = []
    for s in range(n):
        if not present[s]:
            out.append(None)
            continue
        b = place[s]
        top, (width, height) = int(tops[b]), extent[b]
        out.append(((int(corner[b, 0]), int(corner[b, 1])), grown[top:top + height, :width]))
    return out


def read_grown(found: tuple[tuple[int, int], np.ndarray] | None, pixels: np.ndarray) -> np.ndarray:
    """The grid of ``grown_box``'s result ``found`` (blank off its box) read at ``pixels`` (k x 2 integer (x, y)):
    a k-vector of booleans."""
    pixels = np.asarray(pixels).reshape(-1, 2)
    out = np.zeros(len(pixels), dtype=bool)
    if found is None:
        return out
    (x0, y0), box = found
    x, y = pixels[:, 0] - x0, pixels[:, 1] - y0
    on = (x >= 0) & (y >= 0) & (x < box.shape[1]) & (y < box.shape[0])
    out[on] = box[y[on], x[on]]
    return out


def grown(points: np.ndarray, size: int, radius: float) -> np.ndarray:
    """``dilate(mark(points, size), radius)``, the same size x size grid, grown on the box of the marks only
    (``grown_box``)."""
    grid = np.zeros((size, size), dtype=bool)
    found = grown_box(points, size, radius)
    if found is not None:
        (x0, y0), box = found
        grid[y0:y0 + box.shape[0], x0:x0 + box.shape[1]] = box
    return grid


def grown_at(points: np.ndarray, size: int, radius: float, pixels: np.ndarray) -> np.ndarray:
    """``grown(points, size, radius)`` read at ``pixels`` (k x 2 integer (x, y) on the grid) only, the marks grown
    on their box (``grown_box``, ``read_grown``).  A k-vector of booleans."""
    return read_grown(grown_box(points, size, radius), pixels)


def stroke_counts(side: int, segments: np.ndarray, width: float) -> tuple[tuple[int, int], np.ndarray] | None:
    """How many of its ``FACTOR * FACTOR`` sub-pixels the strokes of ``stroke_coverage`` cover in each pixel,
    on the box of pixels the strokes can reach: (the box's corner (x, y), the counts on it, uint8); every
    pixel off the box is covered by none.  None if no stroke reaches the tile."""
    return stroke_counts_many([(side, segments, width)])[0]


def stroke_counts_many(strokes: Sequence[tuple[int, np.ndarray, float]],
                       ) -> list[tuple[tuple[int, int], np.ndarray] | None]:
    """``[stroke_counts(side, segments, width) for side, segments, width in strokes]``, the strokes of one width
    grown together (``grown_boxes``)."""
    out: list[tuple[tuple[int, int], np.ndarray] | None] = [None] * len(strokes)
    by_width: dict[float, list[int]] = {}
    segs = [np.asarray(segments, dtype=float).reshape(-1, 2, 2) for _, segments, _ in strokes]
    if not any(len(seg) for seg in segs):
        return out
    # the samples of all strokes from one call (a segment's samples depend on it alone), cut per stroke
    fine, owner = samples(np.concatenate(segs) * FACTOR, step=0.7)
    points = np.split(fine, np.searchsorted(owner, np.cumsum([len(seg) for seg in segs])[:-1]))
    for k, (_, _, width) in enumerate(strokes):
        if len(segs[k]):
            by_width.setdefault(float(width), []).append(k)
    for width, members in by_width.items():
        grown = grown_boxes([(points[k], strokes[k][0] * FACTOR) for k in members], width * FACTOR / 2 - 0.5, FACTOR)
        for k, found in zip(members, grown, strict=True):
            if found is not None:
                out[k] = _counted(found)
    return out


def _counted(found: tuple[tuple[int, int], np.ndarray]) -> tuple[tuple[int, int], np.ndarray]:
    """Sub-pixels covered per pixel of a grown box on the ``FACTOR`` times finer grid (``stroke_counts``)."""
    (x0, y0), fine = found
    # the box's corner lies on a pixel's corner; its far edge may cut a pixel: those sub-pixels are off the
    # grown box, so blank
    counts = np.zeros((-(-fine.shape[0] // FACTOR), -(-fine.shape[1] // FACTOR)), dtype=np.uint8)
    cells = np.ascontiguousarray(fine).view(np.uint8)
    for dy in range(FACTOR):
        for dx in range(FACTOR):
            part = cells[dy::FACTOR, dx::FACTOR]
            counts[:part.shape[0], :part.shape[1]] += part
    return (x0 // FACTOR, y0 // FACTOR), counts


def stroke_coverage(side: int, segments: np.ndarray, width: float) -> np.ndarray:
    """Ink coverage (side x side, float32 in [0, 1]) of strokes ``width`` pixels wide along ``segments``
    (m x 2 x 2, continuous tile pixels): the centre lines' samples marked on a grid ``FACTOR`` times finer,
    grown by a disc of half the pen less half a sub-pixel, and the sub-pixels covered in each pixel counted
    (on the box the strokes can reach only, ``stroke_counts``)."""
    coverage = np.zeros((side, side), dtype=np.float32)
    found = stroke_counts(side, segments, width)
    if found is not None:
        (x0, y0), counts = found
        coverage[y0:y0 + counts.shape[0], x0:x0 + counts.shape[1]] = counts.astype(np.float32) / (FACTOR * FACTOR)
    return coverage


def near(side: int, segments: np.ndarray, reach: float) -> np.ndarray:
    """Pixels (side x side booleans) within about ``reach`` pixels of a segment's centre line."""
    seg = np.asarray(segments, dtype=float).reshape(-1, 2, 2)
    if not len(seg):
        return np.zeros((side, side), dtype=bool)
    points, _ = samples(seg, step=0.7)
    return grown(points, side, reach)


def paint(side: int, layers: Sequence[tuple[np.ndarray, Sequence[int]]]) -> np.ndarray:
    """An RGB tile (uint8): white paper with each (coverage, colour) layer laid on in turn (only the pixels a
    layer covers are touched)."""
    image = np.full((side, side, 3), 255, dtype=np.uint8)
    for cov, colour in layers:
        where = np.nonzero(cov > 0)
        c = cov[where][:, None]
        old = image[where].astype(np.float32)
        image[where] = np.rint(old * (1 - c) + np.asarray(colour, dtype=np.float32)[None, :] * c).astype(np.uint8)
    return image


def darkness(tile: np.ndarray) -> np.ndarray:
    """255 minus the darkest channel of every pixel (int16): 0 on white paper, large on ink of any colour."""
    t = np.asarray(tile)
    return 255 - np.minimum(np.minimum(t[..., 0], t[..., 1]), t[..., 2]).astype(np.int16)


def pixel_at(tile: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The RGB values (k x 3, int) of the pixels containing ``points`` (continuous tile pixels), clipped."""
    side_y, side_x = tile.shape[:2]
    x = np.clip(np.floor(points[:, 0]).astype(int), 0, side_x - 1)
    y = np.clip(np.floor(points[:, 1]).astype(int), 0, side_y - 1)
    return tile[y, x].astype(int)
