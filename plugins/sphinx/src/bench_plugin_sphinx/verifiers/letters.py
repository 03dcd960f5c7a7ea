"""Reading a capital letter back from the picture: the crop around where a label was drawn is compared with
each of the 26 capitals drawn afresh in Pillow's bundled font at the recorded size and anchor (the same
glyphs, so the true letter matches pixel for pixel; the closest pair of capitals, O and Q, overlap 0.93)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: A pixel is ink when its luminance is below this.
INK = 128


def _box(size: int, anchor: str = "lm") -> tuple[int, int, int, int]:
    """The crop around a capital anchored at its left middle (anchor "lm") or its middle ("mm"), relative to
    the anchor: every capital of the font fits inside with a few pixels to spare."""
    if anchor == "mm":
        half = size // 2 + size // 8 + 4
        return -half, -(size // 2) - 4, half, size // 2 + 4
    return -4, -(size // 2) - 4, size + size // 8 + 4, size // 2 + 4


@lru_cache(maxsize=16)
def _templates(size: int, anchor: str, threshold: int = INK) -> tuple[np.ndarray, np.ndarray]:
    """The 26 capitals' ink masks (grey below ``threshold``), flattened: a (26, pixels) float32 matrix and each
    mask's ink count."""
    left, top, right, bottom = _box(size, anchor)
    font = ImageFont.load_default(size=size)
    rows = []
    for letter in CAPITALS:
        canvas = Image.new("L", (right - left, bottom - top), 255)
        ImageDraw.Draw(canvas).text((-left, -top), letter, fill=0, font=font, anchor=anchor)
        rows.append((np.asarray(canvas) < threshold).ravel())
    matrix = np.array(rows, dtype=np.float32)
    return matrix, matrix.sum(axis=1)


def read_letter(rgb: np.ndarray, at: tuple[int, int], size: int, anchor: str = "lm", threshold: int = INK) -> tuple[
        str | None, float, float]:
    """(letter, best overlap, second-best overlap) of the capital drawn at ``at`` with ``anchor`` in Pillow's
    bundled font of ``size`` px; the overlap is intersection over union of the ink masks (grey below
    ``threshold``).  None when the crop leaves the picture or holds no ink.  ``rgb`` is (h, w, 3), or (h, w)
    grey values (luminance, or the brightest channel to read black text among coloured strokes)."""
    left, top, right, bottom = _box(size, anchor)
    x, y = int(at[0]), int(at[1])
    h, w = rgb.shape[:2]
    if x + left < 0 or y + top < 0 or x + right > w or y + bottom > h:
        return None, 0.0, 0.0
    crop = rgb[y + top: y + bottom, x + left: x + right].astype(np.float32)
    grey = crop if crop.ndim == 2 else crop @ np.array([0.299, 0.587, 0.114], dtype=np.float32)
    ink = (grey < threshold).ravel().astype(np.float32)
    count = float(ink.sum())
    if not count:
        return None, 0.0, 0.0
    matrix, sizes = _templates(size, anchor, threshold)
    shared = matrix @ ink
    scores = shared / np.maximum(sizes + count - shared, 1.0)
    order = np.argsort(scores)[::-1]
    return CAPITALS[int(order[0])], float(scores[order[0]]), float(scores[order[1]])
