"""Convex polygons filled into label maps at pixel centres, for the verifiers' sketches of solids and nets
(``projection``): edge functions tested at pixel centres, each covered pixel row of a polygon one run, overlaps
settled by a per-pixel depth test; several canvases filled in one call, each as if filled alone.  Nothing here
comes from the generators' renderers (Pillow's polygon fill, supersampled)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def rasterise(xs: np.ndarray, ys: np.ndarray, side: int, depth: np.ndarray | None = None,
              ids: np.ndarray | None = None, labels: Sequence[int] | None = None) -> np.ndarray:
    """Fill convex polygons into a ``side`` x ``side`` map of polygon labels (-1 where none): polygon k has
    corners ``xs[k]``, ``ys[k]`` (pixel units, either winding; pad short ones by repeating a corner) and
    covers the pixels whose centres lie inside it.  Where polygons overlap, the one with the larger
    ``depth`` (k x 3: z = a x + b y + c over pixel centres) wins, the later one of equal depths; without
    depths the polygons must not overlap (they may share edges, whose pixels go to the later one).  ``ids``,
    if given, is filled in place at the covered pixels (it must be C-contiguous)."""
    ids = np.full((side, side), -1, dtype=np.int32) if ids is None else ids
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    labels = np.arange(len(xs)) if labels is None else np.asarray(labels)
    if not len(xs):
        return ids
    filled = fill_polygons(xs, ys, side, depth)
    if filled is not None:
        (r0, c0), owner = filled
        window = ids[r0:r0 + owner.shape[0], c0:c0 + owner.shape[1]]
        np.copyto(window, np.take(labels, owner), where=owner >= 0)
    return ids


def fill_polygons(xs: np.ndarray, ys: np.ndarray, side: int, depth: np.ndarray | None = None,
                  labels: np.ndarray | None = None) -> tuple[tuple[int, int], np.ndarray] | None:
    """``rasterise`` as the top-left (row, column) of the box of the covered pixels and, over that box, the
    index of the polygon that owns each pixel, or its entry of ``labels`` if given (int32, -1 where none); None
    if no pixel is covered (``fill_canvases`` of one canvas)."""
    return fill_canvases(xs, ys, side, depth, labels)[0]


def fill_canvases(xs: np.ndarray, ys: np.ndarray, side: int, depth: np.ndarray | None = None,
                  labels: np.ndarray | None = None, canvas: np.ndarray | None = None, canvases: int = 1
                  ) -> list[tuple[tuple[int, int], np.ndarray] | None]:
    """``fill_polygons`` of several ``side`` x ``side`` canvases at once, polygon k drawn on canvas
    ``canvas[k]`` (default: all on one): per canvas, the top-left of its covered box and the owners over it,
    or None.  Each canvas comes out as if filled alone.

    Every covered pixel row of every polygon is one run (``_row_spans``).  The boxes, laid end to end and read
    row after row, are cut where runs start and end into stretches that the same runs cover: a stretch that
    one run covers is that run's polygon's, and only pixels that several runs cover are settled pixel by pixel
    (``_settle``).  A depth that is not a finite number has every covered pixel settled that way (a pixel
    where some depth is NaN is nobody's)."""
    owner, row, first, last = _runs(xs, ys, side)
    boxes: list[tuple[tuple[int, int], np.ndarray] | None] = [None] * canvases
    if not len(owner):
        return boxes
    which = np.zeros(len(owner), dtype=np.int64) if canvas is None else np.asarray(canvas)[owner]
    r0, c0 = np.full(canvases, side), np.full(canvases, side)
    r1, c1 = np.full(canvases, -1), np.full(canvases, -1)
    np.minimum.at(r0, which, row)
    np.minimum.at(c0, which, first)
    np.maximum.at(r1, which, row)
    np.maximum.at(c1, which, last)
    used = r1 >= 0
    height = np.where(used, r1 + 1 - r0, 0)
    stride = np.where(used, c1 + 2 - c0, 0)  # one column more: where runs end
    offset = np.concatenate([[0], np.cumsum(height * stride)])
    at = offset[which] + (row - r0[which]) * stride[which] - c0[which]  # where each run's row starts, less c0
    starts, ends = at + first, at + last + 1
    # the stretches between consecutive places where some run starts or ends, and the runs over each
    place = np.concatenate([starts, ends])
    order = np.argsort(place, kind="stable")
    place = place[order]
    cover = np.cumsum(np.where(order < len(starts), 1, -1))
    sole = np.cumsum(np.concatenate([owner, -owner])[order])
    cut = np.flatnonzero(place[1:] != place[:-1])  # the last change at each place but the end
    bounds = np.concatenate([[0], place[cut], [place[-1]], [offset[-1]]])
    cover, sole = np.concatenate([[0], cover[cut], [0]]), np.concatenate([[-1], sole[cut], [-1]])
    lengths = np.diff(bounds)
    finite = depth is None or bool(np.isfinite(depth).all())
    crowded = cover > 1 if finite else cover > 0
    labels = np.arange(len(xs)) if labels is None else np.asarray(labels)
    settled = np.repeat(np.where(cover == 1, np.take(labels, sole, mode="clip"), -1).astype(np.int32), lengths)
    if crowded.any():
        contested = np.repeat(crowded, lengths)
        reach = np.concatenate([[0], np.cumsum(np.where(crowded, lengths, 0))])  # contested pixels before each bound
        edges = np.searchsorted(bounds, np.concatenate([starts, ends]))  # the bound each run starts and ends at
        before = reach[edges]
        runs = np.flatnonzero(before[len(starts):] > before[:len(starts)])  # runs over a contested pixel
        # each such run cut to its first and last contested stretch (the pixels between still sorted by
        # ``_settle``): the same (run, contested pixel) pairs in the same order
        stretch = np.arange(len(crowded))
        ahead = np.minimum.accumulate(np.where(crowded, stretch, len(crowded))[::-1])[::-1]  # next contested
        behind = np.maximum.accumulate(np.where(crowded, stretch, -1))  # last contested so far
        lead = bounds[ahead[edges[runs]]] - at[runs]
        tail = bounds[behind[edges[len(starts) + runs] - 1] + 1] - 1 - at[runs]
        _settle(settled, contested, owner[runs], row[runs], lead, tail, at[runs], depth, labels)
    for k in np.flatnonzero(used).tolist():
        box = settled[offset[k]:offset[k + 1]].reshape(int(height[k]), int(stride[k]))[:, :-1]
        boxes[k] = ((int(r0[k]), int(c0[k])), box)
    return boxes


def _settle(settled: np.ndarray, contested: np.ndarray, owner: np.ndarray, row: np.ndarray, first: np.ndarray,
            last: np.ndarray, at: np.ndarray, depth: np.ndarray | None, labels: np.ndarray) -> None:
    """Give each ``contested`` pixel (flat over the boxes of ``fill_canvases``; the pixel of column ``col`` of
    a run's row is ``at + col``) the label of its owner among the runs (``owner``, ``row``, ``first``,
    ``last``, in polygon order) that cover it, in place in ``settled`` (-1 if none): every such (polygon,
    pixel) pair has its depth worked out at the pixel centre and the nearest wins, the later polygon of equal
    depths; without depths the later polygon wins."""
    counts = last - first + 1
    run = np.repeat(np.arange(len(owner)), counts)
    col = np.repeat(first, counts) + np.arange(len(run)) - np.repeat(np.cumsum(counts) - counts, counts)
    pixel = at[run] + col
    keep = contested[pixel]
    run, col, pixel = run[keep], col[keep], pixel[keep]
    polygon = owner[run]
    settled[contested] = -1
    if depth is not None:  # keep, per pixel, the nearest polygon
        z = depth[polygon, 0] * (col + 0.5) + depth[polygon, 1] * (row[run] + 0.5) + depth[polygon, 2]
        nearest = np.full(len(settled), -np.inf)
        np.maximum.at(nearest, pixel, z)
        front = z >= nearest[pixel]
        pixel, polygon = pixel[front], polygon[front]
    settled[pixel] = labels[polygon]


def _runs(xs: np.ndarray, ys: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The covered pixel runs of every polygon (``rasterise``), polygon by polygon, top to bottom: its
    polygon, pixel row and first and last column."""
    x0 = np.clip(np.floor(xs.min(axis=1)), 0, side).astype(np.int64)
    x1 = np.clip(np.ceil(xs.max(axis=1)), 0, side).astype(np.int64)
    y0 = np.clip(np.floor(ys.min(axis=1)), 0, side).astype(np.int64)
    y1 = np.clip(np.ceil(ys.max(axis=1)), 0, side).astype(np.int64)
    nx, ny = np.concatenate([xs[:, 1:], xs[:, :1]], axis=1), np.concatenate([ys[:, 1:], ys[:, :1]], axis=1)
    sign = np.sign((xs * ny - nx * ys).sum(axis=1))
    width, height = x1 - x0, y1 - y0
    rows_of = np.where((sign != 0) & (width > 0) & (height > 0), height, 0)
    # corner k to k+1: inside where sign * (e x (p - corner)) >= 0, i.e. a * y - b * x - c >= 0
    a, b = sign[:, None] * (nx - xs), sign[:, None] * (ny - ys)
    c = a * ys - b * xs
    # one entry per pixel row of every polygon's box (polygon by polygon, top to bottom)
    owner = np.repeat(np.arange(len(xs)), rows_of)
    row = y0[owner] + np.arange(len(owner)) - np.repeat(np.cumsum(rows_of) - rows_of, rows_of)
    first, last = _row_spans(a, b, c, x0, x1, owner, row + 0.5)
    full = first <= last
    return owner[full], row[full], first[full], last[full]


#: Edges whose row step (``b`` in ``rasterise``) is smaller than this, but not 0, have their crossing of a pixel
#: row worked out pixel by pixel (a division by it would not place the crossing to a pixel).
_STEEP = 1e-3
#: Pixels tested either side of a row's estimated first and last covered pixel.
_BAND = 2
#: Columns tested on every row that is not tested whole: two bands of ``2 * _BAND + 1``.
_TESTED = np.arange(4 * _BAND + 2)


def _passing(a: np.ndarray, b: np.ndarray, c: np.ndarray, cy: np.ndarray, col: np.ndarray) -> np.ndarray:
    """Whether the pixel centre of each column ``col`` (columns x rows) of each row passes every edge test of the
    row's polygon (``a``, ``b``, ``c``: edges x rows), as ``rasterise`` defines it."""
    cx = col + 0.5
    inside = (a[0] * cy)[None, :] - b[0][None, :] * cx - c[0][None, :] >= -1e-9
    for k in range(1, a.shape[0]):
        inside &= (a[k] * cy)[None, :] - b[k][None, :] * cx - c[k][None, :] >= -1e-9
    return inside


def _hits(a: np.ndarray, b: np.ndarray, c: np.ndarray, cy: np.ndarray, col: np.ndarray,
          tested: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first and last of the ``tested`` columns ``col`` (columns x rows) of each row whose pixel centre
    passes every edge test of the row's polygon (``a``, ``b``, ``c``: edges x rows), as ``rasterise``
    defines it (int64 extremes where none does)."""
    inside = tested & _passing(a, b, c, cy, col)
    first = np.where(inside, col, np.iinfo(np.int64).max).min(axis=0, initial=np.iinfo(np.int64).max)
    last = np.where(inside, col, np.iinfo(np.int64).min).max(axis=0, initial=np.iinfo(np.int64).min)
    return first, last


def _row_spans(a: np.ndarray, b: np.ndarray, c: np.ndarray, x0: np.ndarray, x1: np.ndarray, owner: np.ndarray,
               cy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each pixel row (polygon ``owner``, centre ``cy``) the first and last column whose pixel centre
    passes the edge test of ``rasterise`` (first > last where none does), exactly as testing every pixel of
    the box would.

    Each edge's test, as computed in floating point, holds on a run of columns that starts or ends the row
    (its value moves one way as the column grows), so the covered pixels of a row are one run.  Its ends are
    estimated by solving each edge's test for the column and confirmed by testing the two estimates and the
    pixels just beyond them; rows where that fails are tested on the ``_BAND`` pixels either side of the
    estimates (``_banded``), rows with an edge too close to horizontal to solve for pixel by pixel, short rows
    on every pixel between the estimates' bands."""
    lo, hi = x0[owner], x1[owner] - 1
    a, b, c = a.T[:, owner], b.T[:, owner], c.T[:, owner]  # edges x rows
    rest = a * cy - c
    with np.errstate(divide="ignore", invalid="ignore"):
        at = (rest + 1e-9) / b - 0.5  # the column where each edge's test turns
    start = np.maximum(lo.astype(float), np.where(b < 0, np.ceil(at), -np.inf).max(axis=0))
    stop = np.minimum(hi.astype(float), np.where(b > 0, np.floor(at), np.inf).min(axis=0))
    # an edge too flat to solve for, or a flat edge the whole row lies outside of: tested pixel by pixel
    level = (((b == 0) & (rest < -1e-9)) | ((b != 0) & (np.abs(b) < _STEEP))).any(axis=0)
    start = np.clip(start, lo - 1, hi + 1).astype(np.int64)
    stop = np.clip(stop, lo - 1, hi + 1).astype(np.int64)
    # the estimates confirmed where they hold: both ends covered, the pixels just beyond them not (or off the box);
    # the covered pixels being one run, it is then exactly [start, stop]
    probe = np.stack([start - 1, start, stop, stop + 1])
    passed = _passing(a, b, c, cy, probe) & (probe >= lo) & (probe <= hi)
    sure = ~level & (start <= stop) & passed[1] & passed[2] & ~passed[0] & ~passed[3]
    if sure.all():
        return start, stop
    first, last = start.copy(), stop.copy()
    rows = np.flatnonzero(~sure)
    first[rows], last[rows] = _banded(a[:, rows], b[:, rows], c[:, rows], cy[rows], lo[rows], hi[rows], start[rows],
                                      stop[rows], level[rows])
    return first, last


def _banded(a: np.ndarray, b: np.ndarray, c: np.ndarray, cy: np.ndarray, lo: np.ndarray, hi: np.ndarray,
            start: np.ndarray, stop: np.ndarray, level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_row_spans`` of rows whose estimated ends (``start``, ``stop``, within ``lo - 1`` .. ``hi + 1``) are not
    confirmed: the ``_BAND`` pixels either side of each estimate tested, every pixel of a short row, and every
    pixel of the box of a row marked ``level``."""
    near_from = np.maximum(lo, start - _BAND)  # the covered run lies within [near_from, near_to]
    near_to = np.minimum(hi, stop + _BAND)
    whole = near_to - near_from < 4 * _BAND + 2  # at most 4 * _BAND + 2 pixels: every one tested
    # the pixels to test: those of a short row, or the two bands of a long one
    col = near_from + _TESTED[:, None]
    col[2 * _BAND + 1:] = np.where(whole, col[2 * _BAND + 1:], near_to - 4 * _BAND - 1 + _TESTED[2 * _BAND + 1:, None])
    tested = ~level & (~whole | (col <= near_to))
    first, last = _hits(a, b, c, cy, col, tested)
    levels = np.flatnonzero(level)
    if len(levels):  # every pixel of the row's box
        span = lo[levels] + np.arange(max(int((hi[levels] - lo[levels]).max()) + 1, 0))[:, None]
        first[levels], last[levels] = _hits(a[:, levels], b[:, levels], c[:, levels], cy[levels], span,
                                            span <= hi[levels])
    empty = first > last
    return np.where(empty, 0, first), np.where(empty, -1, last)


def padded(points: Sequence[Sequence[Sequence[float]]]) -> tuple[np.ndarray, np.ndarray]:
    """Polygons of different corner counts as two (polygons x most corners) arrays, short ones padded by
    repeating their last corner (a zero-length edge changes nothing)."""
    most = max(len(p) for p in points)
    padded = np.array([[*p, *[p[-1]] * (most - len(p))] for p in points], dtype=float)
    return padded[..., 0], padded[..., 1]


def padded_cycles(cycles: Sequence[Sequence[int]]) -> np.ndarray:
    """Vertex cycles of different lengths as one (cycles x longest) index array, short ones padded by
    repeating their last vertex (as ``padded`` pads corners)."""
    most = max(len(c) for c in cycles)
    if all(len(c) == most for c in cycles):
        return np.array(cycles, dtype=np.int64).reshape(len(cycles), most)
    return np.array([[*c, *[c[-1]] * (most - len(c))] for c in cycles], dtype=np.int64)
