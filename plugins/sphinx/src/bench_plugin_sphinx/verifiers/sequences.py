"""Pixel reading shared by the sequence verifiers (rotation, arithmetic, multi-column): panel crops, ink, the
pieces of ink (8-connected, counted by runs joined row to row: a different route from the generators' flood
fill), and the polar signature of a panel, from which turns are measured.

A panel's polar signature samples its ink on rings about the panel's centre, one sample per degree, angles
counterclockwise on screen (x right, y down: the point at angle a and radius r is (cx + r cos a, cy - r sin a)).
A turn of the panel by t degrees counterclockwise shifts every ring's samples by +t, so the turn between two
panels is the shift that best matches their signatures (circular cross-correlation).
"""

from __future__ import annotations

import statistics
from functools import cache

import numpy as np

RINGS, BINS = 28, 360


def content(pixels: np.ndarray, box: list[int], border: int) -> np.ndarray:
    """The inside of a bordered panel (RGB)."""
    left, top, right, bottom = box
    return pixels[top + border: bottom - border, left + border: right - border]


def darkest(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel (``rgb.min(axis=-1)``, as two elementwise minima: numpy reduces a last
    axis of three slowly)."""
    return np.minimum(np.minimum(rgb[..., 0], rgb[..., 1]), rgb[..., 2])


def darkness(rgb: np.ndarray) -> np.ndarray:
    """How far each pixel's darkest channel is below white, 0..1 (float32)."""
    return (255.0 - darkest(rgb).astype(np.float32)) / 255.0


#: A pixel is ink when its darkest channel lies at least this far below white.
INK_STEP = 40


def ink(rgb: np.ndarray, step: int = INK_STEP) -> np.ndarray:
    """Pixels whose darkest channel is at least ``step`` below white."""
    return darkest(rgb) < 255 - step


@cache
def _polar_grid(side: int) -> tuple[np.ndarray, ...]:
    """The bilinear sampling of the rings of a side x side panel: the flat index of each sample's top-left pixel
    (RINGS x BINS), its fractions right and down, and the rings' radii."""
    centre = (side - 1) / 2
    radii = np.linspace(4, side / 2 - 3, RINGS, dtype=np.float32)
    angles = np.radians(np.arange(BINS, dtype=np.float32))
    x = centre + radii[:, None] * np.cos(angles)[None, :]
    y = centre - radii[:, None] * np.sin(angles)[None, :]
    x0, y0 = np.floor(x).astype(np.int32), np.floor(y).astype(np.int32)
    fx, fy = (x - x0).astype(np.float32), (y - y0).astype(np.float32)
    x0, y0 = np.clip(x0, 0, side - 2), np.clip(y0, 0, side - 2)
    return y0 * side + x0, fx, fy, radii


def signature(rgb: np.ndarray) -> np.ndarray:
    """The polar signature (RINGS x BINS) of a square panel's darkness, bilinearly sampled, each ring weighted
    by its radius (its length)."""
    side = rgb.shape[0]
    at, fx, fy, radii = _polar_grid(side)
    dark = darkness(rgb).ravel()
    top = dark[at] * (1 - fx) + dark[at + 1] * fx
    bottom = dark[at + side] * (1 - fx) + dark[at + side + 1] * fx
    return (top * (1 - fy) + bottom * fy) * (radii[:, None] / radii[-1])


def mismatch(a: np.ndarray, b: np.ndarray) -> float:
    """How different two signatures are: sum |a - b| / sum (a + b), 0 for equal ones, 1 for disjoint ink."""
    total = float((a + b).sum())
    return float(np.abs(a - b).sum()) / total if total > 0 else 0.0


def turned(sig: np.ndarray, degrees: int) -> np.ndarray:
    """The signature of the panel turned ``degrees`` counterclockwise."""
    return np.roll(sig, int(degrees) % BINS, axis=1)


def _mismatches(a: np.ndarray, b: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """``mismatch(turned(a, s), b)`` for every shift s in ``shifts`` (0..BINS-1): a's bins laid out twice in a
    row, angle-major, so the turn by s is the contiguous block of bins from BINS - s."""
    total = float(a.sum() + b.sum())
    if total <= 0:
        return np.zeros(len(shifts))
    twice = np.ascontiguousarray(np.concatenate([a, a], axis=1).T)  # (2 * BINS, RINGS)
    target = np.ascontiguousarray(b.T)
    difference = np.empty_like(target)
    out = np.empty(len(shifts))
    for k, shift in enumerate(shifts.tolist()):
        np.subtract(twice[BINS - shift: 2 * BINS - shift], target, out=difference)
        out[k] = float(np.abs(difference, out=difference).sum())
    return out / total


def turn_between(a: np.ndarray, b: np.ndarray) -> tuple[int, float, float]:
    """The turn t (degrees counterclockwise, -179..180) that best takes signature ``a`` to ``b``, the mismatch
    there, and the smallest mismatch at any turn at least 20 degrees away from t (how clear t is)."""
    spectrum = np.conj(np.fft.rfft(a, axis=1)) * np.fft.rfft(b, axis=1)
    correlation = np.fft.irfft(spectrum.sum(axis=0), n=BINS)
    best = int(np.argmax(correlation))
    coarse = np.arange(0, BINS, 4)
    gaps = np.minimum((coarse - best) % BINS, (best - coarse) % BINS)
    fine = (best + np.arange(-3, 4)) % BINS
    fine_scores = _mismatches(a, b, fine)
    at = int(fine[np.argmin(fine_scores)])
    signed = ((at + 179) % BINS) - 179
    return signed, float(fine_scores.min()), float(_mismatches(a, b, coarse[gaps >= 20]).min())


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every run of True of every row of ``mask``, in row-major order: (row, start, end exclusive) arrays."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), np.int8)
    padded[:, 1:-1] = mask
    rows, columns = np.nonzero(np.diff(padded, axis=1))  # row-major: each row's starts and ends alternate
    return rows[0::2], columns[0::2], columns[1::2]


def _touching(rows: np.ndarray, starts: np.ndarray, ends: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (upper, lower) of runs on neighbouring rows that touch, diagonally included: run j of row y - 1
    and run k of row y touch when start_j <= end_k and start_k <= end_j (ends exclusive).  The runs of one row
    are disjoint and in order, so the runs above that touch run k are one span, found by binary search on the
    keys row * (width + 2) + column."""
    line = width + 2
    first = np.searchsorted(rows * line + ends, (rows - 1) * line + starts, side="left")
    last = np.searchsorted(rows * line + starts, (rows - 1) * line + ends, side="right")
    spans = np.maximum(last - first, 0)
    lower = np.repeat(np.arange(len(rows)), spans)
    upper = np.repeat(first - np.cumsum(spans) + spans, spans) + np.arange(int(spans.sum()))
    return upper, lower


def _roots(count: int, upper: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """Each run's piece as the lowest run index in it: roots hooked under the smaller root of every link that
    joins two trees, paths halved until every run points at its root, repeated until no link joins two trees."""
    root = np.arange(count)
    while True:
        while True:
            jumped = root[root]
            if np.array_equal(jumped, root):
                break
            root = jumped
        a, b = root[upper], root[lower]
        apart = a != b
        if not apart.any():
            return root
        np.minimum.at(root, np.maximum(a, b)[apart], np.minimum(a, b)[apart])


def pieces(mask: np.ndarray) -> list[dict[str, int]]:
    """The 8-connected pieces of a boolean mask, each as {"area", "top", "bottom", "left", "right"}, in the order
    of their first pixel (row-major): runs of each row, joined to the runs of the row above that touch them."""
    rows, starts, ends = _runs(mask)
    if len(rows) == 0:
        return []
    root = _roots(len(rows), *_touching(rows, starts, ends, mask.shape[1]))
    names, piece = np.unique(root, return_inverse=True)  # roots ascending: the order of first runs
    count = len(names)
    area = np.bincount(piece, weights=ends - starts, minlength=count)
    top, left = np.full(count, mask.shape[0]), np.full(count, mask.shape[1])
    bottom, right = np.full(count, -1), np.full(count, -1)
    np.minimum.at(top, piece, rows)
    np.maximum.at(bottom, piece, rows)
    np.minimum.at(left, piece, starts)
    np.maximum.at(right, piece, ends - 1)
    return [{"area": int(a), "top": int(t), "bottom": int(b), "left": int(lf), "right": int(r)}
            for a, t, b, lf, r in zip(area.tolist(), top.tolist(), bottom.tolist(), left.tolist(), right.tolist(),
                                      strict=True)]


def grown(mask: np.ndarray, reach: int = 2) -> np.ndarray:
    """``mask`` grown by ``reach`` pixels in the chessboard metric (no wrap-around): a square of side
    2 * reach + 1 is a row segment swept along a column segment, so the rows are grown first, then the columns."""
    rows = mask.copy()
    for d in range(1, reach + 1):
        rows[:, d:] |= mask[:, :-d]
        rows[:, :-d] |= mask[:, d:]
    out = rows.copy()
    for d in range(1, reach + 1):
        out[d:] |= rows[:-d]
        out[:-d] |= rows[d:]
    return out


def copies(rgb: np.ndarray, reach: int = 2) -> list[dict[str, int]]:
    """The motif copies of a panel or column: pieces of ink grown by ``reach`` px, each piece's area counted on
    the ink itself (not the grown mask)."""
    return copies_of(ink(rgb), reach)


def copies_of(mask: np.ndarray, reach: int = 2) -> list[dict[str, int]]:
    """``copies`` of a panel or column whose ink is ``mask``."""
    found = pieces(grown(mask, reach))
    for piece in found:
        box = mask[piece["top"]: piece["bottom"] + 1, piece["left"]: piece["right"] + 1]
        piece["ink"] = int(box.sum())
    return found


def copies_side_by_side(masks: list[np.ndarray], reach: int = 2) -> list[list[dict[str, int]]]:
    """``copies_of`` of each of ``masks`` (ink masks of one shape), read in one pass: the masks laid side by side,
    each followed by a gap of 2 * reach + 1 empty columns, the ink grown and the gaps cleared again (so each
    mask's grown ink is its own ``grown``: nothing reaches across a gap), the pieces found, and each piece, which
    cannot cross a gap, given to the mask it lies in, its columns counted from that mask's left edge."""
    height, width = masks[0].shape
    pitch = width + 2 * reach + 1
    laid = np.zeros((height, len(masks), pitch), bool)
    for k, mask in enumerate(masks):
        laid[:, k, :width] = mask
    laid = laid.reshape(height, -1)
    spread = grown(laid, reach).reshape(height, len(masks), pitch)
    spread[:, :, width:] = False
    found: list[list[dict[str, int]]] = [[] for _ in masks]
    for piece in pieces(spread.reshape(height, -1)):
        box = laid[piece["top"]: piece["bottom"] + 1, piece["left"]: piece["right"] + 1]
        piece["ink"] = int(box.sum())
        k = piece["left"] // pitch
        piece["left"] -= k * pitch
        piece["right"] -= k * pitch
        found[k].append(piece)
    return found


def uniform(found: list[dict[str, int]], tolerance: float = 0.12) -> bool:
    """Whether every copy has the same ink area and box size within ``tolerance`` of the median (copies of one
    motif at one size, none cut, merged or half drawn); box sizes may always miss the median by 2 px."""
    measures = (([p["ink"] for p in found], 0.0), ([p["right"] - p["left"] for p in found], 2.0),
                ([p["bottom"] - p["top"] for p in found], 2.0))
    for values, slack in measures:
        if values:
            middle = statistics.median(values)
            bound = max(slack, tolerance * middle)
            if any(abs(v - middle) > bound for v in values):
                return False
    return True
