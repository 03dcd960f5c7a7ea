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


def apply(op: str, array: np.ndarray) -> np.ndarray:
    """``array`` (h, w[, c]) transformed by the D4 operation ``op``; square arrays keep their shape."""
    if op == "identity":
        out = array
    elif op == "mirror":
        out = array[:, ::-1]
    elif op == "flip":
        out = array[::-1, :]
    elif op == "transpose":
        out = np.swapaxes(array, 0, 1)
    elif op == "transverse":
        out = np.swapaxes(array[::-1, ::-1], 0, 1)
    elif op == "rot90":
        out = np.rot90(array, 1)
    elif op == "rot180":
        out = array[::-1, ::-1]
    elif op == "rot270":
        out = np.rot90(array, 3)
    else:
        raise ValueError(f"unknown D4 operation {op!r}; known: {', '.join(D4)}")
    return np.ascontiguousarray(out)


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


def _far_from_all(a: np.ndarray, padded: np.ndarray, limit: int) -> np.ndarray:
    """Per pixel, whether |a - b'| exceeds ``limit`` for every ``b'`` among the (h, w) windows of ``padded`` shifted
    by at most one pixel each way: ``_nearest_difference(a, b) > limit`` for ``padded`` = b edge-padded by one."""
    h, w = a.shape
    out = np.ones(a.shape, dtype=bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            out &= np.abs(a - padded[1 + dy: 1 + dy + h, 1 + dx: 1 + dx + w]) > limit
    return out


def invariant_ops(rgb: np.ndarray, ops: Iterable[str] = D4[1:], fraction: float = INVARIANT_FRACTION) -> list[str]:
    """The operations among ``ops`` that leave the rendered motif ``rgb`` looking unchanged (fewer than
    ``fraction`` of its inked pixels change): the self-symmetries that make the motif degenerate for them.
    The same measure as ``change_fraction`` for every op, with the motif's luminance, red channel and ink read
    once: a D4 operation commutes with those per-pixel reads and with padding a square by its edge pixels."""
    square = centred_square(rgb)
    grey, red = _grey(square).astype(np.int16), square[:, :, 0].astype(np.int16)
    ink = ink_mask(square)
    grey_padded, red_padded = np.pad(grey, 1, mode="edge"), np.pad(red, 1, mode="edge")
    out = []
    for op in ops:
        if op == "identity":
            continue
        inked = ink | apply(op, ink)
        if not inked.any():
            changed = 0.0
        else:
            moved = _far_from_all(grey, apply(op, grey_padded), 48) | _far_from_all(red, apply(op, red_padded), 96)
            changed = float(moved[inked].mean())
        if changed < fraction:
            out.append(op)
    return out
