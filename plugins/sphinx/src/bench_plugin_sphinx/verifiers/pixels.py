"""Pixel reading shared by the verifiers: colours snapped to the named colours a scene may use."""

from __future__ import annotations

import numpy as np

#: The colours a SPHINX scene draws with, besides white and black (the palettes of spec section 4).
NAMED = {
    "white": "#ffffff", "black": "#000000",
    "red": "#e6194b", "green": "#3cb44b", "blue": "#1976d2", "orange": "#ff8c00", "purple": "#4b0082",
    "cyan": "#42d4f4", "magenta": "#ff00ff", "yellow": "#edc001", "brown": "#8b4513", "gray": "#666666",
}


def rgb_pixels(image) -> np.ndarray:
    """The picture's pixels as a read-only uint8 (h, w, 3) array; an RGB picture (a decoded PNG) is read without
    the copy ``convert("RGB")`` makes."""
    return np.asarray(image if image.mode == "RGB" else image.convert("RGB"))


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


def image_keys(image) -> np.ndarray:
    """Each pixel's colour of a PIL RGB image as one integer 0xBBGGRR, shape (h, w), dtype uint32: Pillow's
    4-byte pixels (``tobytes("raw", "RGBX")``, read as little-endian words) with the pad byte masked off.  (Reading
    the packed 3-byte pixels through a strided view of unaligned words gives the same keys, two to four times
    slower with Pillow 13 and numpy 2.)"""
    image = image if image.mode == "RGB" else image.convert("RGB")
    words = np.frombuffer(image.tobytes("raw", "RGBX"), dtype="<u4")
    return (words & np.uint32(0xFFFFFF)).reshape(image.height, image.width)


def key_of(name: str) -> int:
    """The 0xBBGGRR key of a named colour."""
    r, g, b = (int(v) for v in hex_rgb(NAMED[name]))
    return r | g << 8 | b << 16


def snap_keys(keys: np.ndarray, names: tuple[str, ...] = tuple(NAMED)) -> np.ndarray:
    """``snap`` for keys from ``image_keys``: each pixel's index into ``names`` where it has exactly that named
    colour, or -1."""
    refs = np.array([key_of(n) for n in names], dtype=np.int64)
    order = np.argsort(refs)
    sorted_refs = refs[order]
    at = np.clip(np.searchsorted(sorted_refs, keys), 0, len(refs) - 1)
    return np.where(sorted_refs[at] == keys, order[at], -1)


def channels(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (r, g, b) planes of keys from ``image_keys``."""
    return keys & 0xFF, (keys >> 8) & 0xFF, keys >> 16


def luminance_of_keys(keys: np.ndarray) -> np.ndarray:
    """Rec. 601 luminance (float32) of keys from ``image_keys``."""
    r, g, b = channels(keys)
    return 0.299 * r.astype(np.float32) + 0.587 * g.astype(np.float32) + 0.114 * b.astype(np.float32)
