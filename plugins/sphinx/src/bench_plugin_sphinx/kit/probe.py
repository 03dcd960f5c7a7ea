"""The D4 operations on bitmaps and the self-symmetry probe of spec 7.2 #1: a motif whose own symmetry makes
a mirror or a rotation look like the identity would let a symmetry or transform task be answered wrongly
(or by more than one option), so tasks probe the operations they need on the motif as rendered and reject
the motif when any of them leaves it (nearly) unchanged.

Conventions (image rows run downwards, spec 7.2 #3): ``mirror`` reflects across a vertical line (left and
right swap), ``flip`` across a horizontal line, ``transpose`` across the main diagonal (top-left to
bottom-right), ``transverse`` across the anti-diagonal; ``rot90`` turns a quarter counterclockwise (PIL's
``rotate(90)``), ``rot270`` a quarter clockwise.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

D4 = ("identity", "mirror", "flip", "transpose", "transverse", "rot90", "rot180", "rot270")
#: Operations that reverse orientation (the mirrors).
REFLECTIONS = ("mirror", "flip", "transpose", "transverse")
ROTATIONS = ("rot90", "rot180", "rot270")

#: A motif looks unchanged by an operation when fewer than this fraction of its inked pixels change.
INVARIANT_FRACTION = 0.12
#: A pixel is ink when its darkest channel is this far below white.
INK_STEP = 24
#: A pixel changes when its luminance changes by more than the first, or its red channel by more than the second.
_LIMITS = np.array([48, 96], dtype=np.int16)
#: The inverse of each D4 operation that is not its own.
_INVERSE = {"rot90": "rot270", "rot270": "rot90"}


def _view(op: str, array: np.ndarray) -> np.ndarray:
    """``array`` (h, w[, c]) transformed by the D4 operation ``op``, as a view."""
    if op == "identity":
        return array
    if op == "mirror":
        return array[:, ::-1]
    if op == "flip":
        return array[::-1, :]
    if op == "transpose":
        return np.swapaxes(array, 0, 1)
    if op == "transverse":
        return np.swapaxes(array[::-1, ::-1], 0, 1)
    if op == "rot90":
        return np.rot90(array, 1)
    if op == "rot180":
        return array[::-1, ::-1]
    if op == "rot270":
        return np.rot90(array, 3)
    raise ValueError(f"unknown D4 operation {op!r}; known: {', '.join(D4)}")


def view(op: str, array: np.ndarray) -> np.ndarray:
    """``array`` (h, w[, c]) transformed by the D4 operation ``op``, as a view (no copy): for writing into another
    array, where ``apply``'s contiguous copy would be copied once more."""
    return _view(op, array)


def apply(op: str, array: np.ndarray) -> np.ndarray:
    """``array`` (h, w[, c]) transformed by the D4 operation ``op``; square arrays keep their shape."""
    return np.ascontiguousarray(_view(op, array))


def compose(first: str, then: str) -> str:
    """The D4 operation equal to ``first`` followed by ``then`` (found on a probe array)."""
    probe = np.arange(9).reshape(3, 3)
    target = apply(then, apply(first, probe))
    return next(op for op in D4 if np.array_equal(apply(op, probe), target))


def _grey(rgb: np.ndarray) -> np.ndarray:
    """Luminance as uint8 (h, w)."""
    return (rgb[:, :, :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)).astype(np.uint8)


def ink_mask(rgb: np.ndarray) -> np.ndarray:
    """Boolean (h, w): pixels whose darkest channel lies more than ``INK_STEP`` below white."""
    return np.minimum(np.minimum(rgb[:, :, 0], rgb[:, :, 1]), rgb[:, :, 2]) < 255 - INK_STEP


def centred_square(rgb: np.ndarray) -> np.ndarray:
    """The inked part of ``rgb`` (white elsewhere) cropped to its bounding box and padded with white to a
    square with the box in the middle, so that a motif symmetric about its own centre compares as such."""
    ink = ink_mask(rgb)
    if not ink.any():
        return np.full((1, 1, 3), 255, np.uint8)
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    crop = rgb[rows[0]: rows[-1] + 1, cols[0]: cols[-1] + 1, :3]
    h, w = crop.shape[:2]
    side = max(h, w)
    out = np.full((side, side, 3), 255, np.uint8)
    top, left = (side - h) // 2, (side - w) // 2
    out[top: top + h, left: left + w] = crop
    return out


def _nearest_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the smallest |a - b'| over ``b`` shifted by at most one pixel each way (int16 arrays): a
    one-pixel misregistration of a thin stroke (rounding when the motif is centred) is no change."""
    padded = np.pad(b, 1, mode="edge")
    h, w = a.shape
    return np.min([np.abs(a - padded[1 + dy: 1 + dy + h, 1 + dx: 1 + dx + w])
                   for dy in (-1, 0, 1) for dx in (-1, 0, 1)], axis=0)


def change_fraction(rgb: np.ndarray, op: str, square: np.ndarray | None = None) -> float:
    """Fraction of the inked pixels (of the motif or its image under ``op``) whose colour changes under
    ``op``, measured on the motif cropped and centred (``centred_square``): in luminance (a change above 48)
    or in the red channel (above 96, telling apart colours of one luminance), with a one-pixel tolerance."""
    square = centred_square(rgb) if square is None else square
    moved = apply(op, square)
    ink = ink_mask(square) | ink_mask(moved)
    if not ink.any():
        return 0.0
    changed = _nearest_difference(_grey(square).astype(np.int16), _grey(moved).astype(np.int16)) > 48
    changed |= _nearest_difference(square[:, :, 0].astype(np.int16), moved[:, :, 0].astype(np.int16)) > 96
    return float(changed[ink].mean())


def invariant_ops(rgb: np.ndarray, ops: Iterable[str] = D4[1:], fraction: float = INVARIANT_FRACTION) -> list[str]:
    """The operations among ``ops`` that leave the rendered motif ``rgb`` looking unchanged (fewer than
    ``fraction`` of its inked pixels change): the self-symmetries that make the motif degenerate for them.
    The same measure as ``change_fraction`` for every op, with the motif's luminance, red channel, ink and
    one-pixel neighbourhoods read once.  A D4 operation commutes with those per-pixel reads and with padding a
    square by its edge pixels, and it only permutes the nine shifts of a neighbourhood, so each op's changed
    pixels are found as the inverse op's image of the motif against the motif's own neighbourhoods (the same
    count over the inked pixels, taken in another order).

    Most ops change far more than ``fraction`` of a motif, which a cheaper count shows first: a pixel whose
    value lies more than the limit below the smallest or above the largest of the nine neighbours' values
    differs from each of them by more than the limit, so it surely changed.  When the pixels that surely
    changed reach ``fraction`` already, the op is not invariant (the full count is at least as large); only
    otherwise are the nine neighbours compared one by one."""
    return _invariant(rgb, ops, fraction, first=False)


def any_invariant(rgb: np.ndarray, ops: Iterable[str] = D4[1:], fraction: float = INVARIANT_FRACTION) -> bool:
    """``bool(invariant_ops(rgb, ops, fraction))``, stopping at the first invariant op: whether the motif is
    degenerate for any of ``ops`` (the question a task that rejects degenerate motifs asks)."""
    return bool(_invariant(rgb, ops, fraction, first=True))


def _invariant(rgb: np.ndarray, ops: Iterable[str], fraction: float, first: bool) -> list[str]:
    square = centred_square(rgb)
    planes = np.stack([_grey(square), square[:, :, 0]]).astype(np.int16)  # luminance, red: (2, n, n)
    ink = ink_mask(square)
    neighbours = None
    per_pixel = planes.transpose(1, 2, 0)  # (n, n, 2) view, for the ops
    below, above = _window_bounds(planes)  # (2, n, n) each: a value surely changed below / above these
    out = []
    for op in ops:
        if op == "identity":
            continue
        back = _INVERSE.get(op, op)
        inked = ink | _view(back, ink)
        total = np.count_nonzero(inked)
        if not total:
            changed = 0.0
        else:
            lum, red = _view(back, planes[0]), _view(back, planes[1])
            sure = (lum < below[0]) | (lum > above[0]) | (red < below[1]) | (red > above[1])
            changed = np.count_nonzero(sure & inked) / total
            if changed < fraction:  # not enough surely: count exactly
                if neighbours is None:
                    neighbours = _neighbourhoods(planes)
                # |a - b| > limit exactly when b - (a - limit), read as unsigned, exceeds 2 limit; the nearest of
                # the nine neighbours decides
                low = _view(back, per_pixel).transpose(2, 0, 1) - _LIMITS[:, None, None]
                spread = (neighbours - low).view(np.uint16).min(axis=0)
                moved = (spread[0] > 2 * _LIMITS[0]) | (spread[1] > 2 * _LIMITS[1])
                changed = np.count_nonzero(moved & inked) / total
        if changed < fraction:
            out.append(op)
            if first:
                break
    return out


def _window_bounds(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the smallest of each pixel's nine edge-padded neighbours' values less the limit, the largest plus the
    limit), per plane, as (c, h, w) int16 arrays: a value outside [below, above] differs from all nine by more
    than the limit."""
    c, h, w = planes.shape
    padded = np.empty((c, h + 2, w + 2), planes.dtype)
    padded[:, 1:-1, 1:-1] = planes
    padded[:, 0, 1:-1], padded[:, -1, 1:-1] = planes[:, 0], planes[:, -1]
    padded[:, :, 0], padded[:, :, -1] = padded[:, :, 1], padded[:, :, -2]
    rows_low = np.minimum(np.minimum(padded[:, :-2], padded[:, 1:-1]), padded[:, 2:])
    rows_high = np.maximum(np.maximum(padded[:, :-2], padded[:, 1:-1]), padded[:, 2:])
    low = np.minimum(np.minimum(rows_low[:, :, :-2], rows_low[:, :, 1:-1]), rows_low[:, :, 2:])
    high = np.maximum(np.maximum(rows_high[:, :, :-2], rows_high[:, :, 1:-1]), rows_high[:, :, 2:])
    limits = _LIMITS[:, None, None]
    return low - limits, high + limits


def _neighbourhoods(planes: np.ndarray) -> np.ndarray:
    """The nine one-pixel shifts of ``planes`` (c, h, w) edge-padded by one pixel: (9, c, h, w), shift (dy, dx)
    at 3 (dy + 1) + dx + 1."""
    c, h, w = planes.shape
    padded = np.empty((c, h + 2, w + 2), planes.dtype)
    padded[:, 1:-1, 1:-1] = planes
    padded[:, 0, 1:-1], padded[:, -1, 1:-1] = planes[:, 0], planes[:, -1]
    padded[:, :, 0], padded[:, :, -1] = padded[:, :, 1], padded[:, :, -2]
    return np.stack([padded[:, dy: dy + h, dx: dx + w] for dy in range(3) for dx in range(3)])
