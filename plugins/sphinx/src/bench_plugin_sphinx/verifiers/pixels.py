"""Pixel reading shared by the verifiers: colours snapped to the named colours a scene may use."""

from __future__ import annotations

import numpy as np

#: The colours a SPHINX scene draws with, besides white and black (the palettes of spec section 4).
NAMED = {
    "white": "#ffffff", "black": "#000000",
    "red": "#e6194b", "green": "#3cb44b", "blue": "#1976d2", "orange": "#ff8c00", "purple": "#4b0082",
    "cyan": "#42d4f4", "magenta": "#ff00ff", "yellow": "#edc001", "brown": "#8b4513", "gray": "#666666",
}


def hex_rgb(text: str) -> np.ndarray:
    text = text.lstrip("#")
    return np.array([int(text[k: k + 2], 16) for k in (0, 2, 4)], dtype=np.int32)


def packed(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's colour as one integer 0xRRGGBB, shape (h, w)."""
    h, w = rgb.shape[:2]
    four = np.zeros((h, w, 4), np.uint8)
    four[:, :, 0], four[:, :, 1], four[:, :, 2] = rgb[:, :, 2], rgb[:, :, 1], rgb[:, :, 0]
    return four.view("<u4")[:, :, 0].astype(np.int32)  # little-endian: b + g << 8 + r << 16


def snap(rgb: np.ndarray, names: tuple[str, ...] = tuple(NAMED)) -> np.ndarray:
    """Each pixel's index into ``names`` where it has exactly that named colour (PNG is lossless, so the
    inside of every drawn shape does), or -1 (an anti-aliased edge, or a colour no scene uses): shape (h, w)."""
    keys = packed(rgb)
    refs = np.array([int(NAMED[n].lstrip("#"), 16) for n in names], dtype=np.int64)
    order = np.argsort(refs)
    sorted_refs = refs[order]
    at = np.clip(np.searchsorted(sorted_refs, keys), 0, len(refs) - 1)
    found = sorted_refs[at] == keys
    return np.where(found, order[at], -1)
