"""Image comparison used to prove rendered options visually distinct or the same (spec section 4,
"Image-equality thresholds"): the fraction of pixels whose luminance moved by more than 8, and a
difference hash per colour channel (8 x 8 on a box-blurred 64 x 64 downsample).

``distinct``: at least 5 % of pixels changed, or at least 10 hash bits apart in some channel.
``same``: at most 1 % changed, or at most 4 bits apart in every channel.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

#: A pixel has changed when its luminance moved by more than this (0-255).
LUMA_STEP = 8
DISTINCT_FRACTION, DISTINCT_BITS = 0.05, 10
SAME_FRACTION, SAME_BITS = 0.01, 4


def as_rgb(image) -> np.ndarray:
    """An (h, w, 3) uint8 array of a PIL image or an array (grey arrays are repeated over channels)."""
    if isinstance(image, Image.Image):
        return np.asarray(image.convert("RGB"))
    array = np.asarray(image)
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    return array[:, :, :3].astype(np.uint8)


def luminance(image) -> np.ndarray:
    """Rec. 601 luminance as float32, shape (h, w)."""
    pixels = as_rgb(image).astype(np.float32)
    return pixels @ np.array([0.299, 0.587, 0.114], dtype=np.float32)


def diff_fraction(a, b) -> float:
    """Fraction of pixels whose luminance differs by more than ``LUMA_STEP``; the images must share a size."""
    la, lb = luminance(a), luminance(b)
    if la.shape != lb.shape:
        raise ValueError(f"images differ in size: {la.shape} and {lb.shape}")
    return float((np.abs(la - lb) > LUMA_STEP).mean())


def dhash(image, bits: int = 8) -> np.ndarray:
    """A (3, bits * bits) boolean difference hash per channel: the image resampled to 64 x 64 (box filter),
    reduced to (bits) x (bits + 1) block means, each compared with its right neighbour."""
    small = np.asarray(Image.fromarray(as_rgb(image)).resize((64, 64), Image.Resampling.BOX), dtype=np.float32)
    blocks = np.asarray(Image.fromarray(small.astype(np.uint8)).resize((bits + 1, bits), Image.Resampling.BOX),
                        dtype=np.int16)
    return np.stack([(blocks[:, 1:, c] > blocks[:, :-1, c]).ravel() for c in range(3)])


def dhash_distance(a, b) -> int:
    """The largest Hamming distance over the three channels' hashes."""
    return int(np.max(np.sum(dhash(a) != dhash(b), axis=1)))


def distinct(a, b) -> bool:
    """True when ``a`` and ``b`` are strongly distinct: >= 5 % of pixels changed or >= 10 hash bits apart."""
    return diff_fraction(a, b) >= DISTINCT_FRACTION or dhash_distance(a, b) >= DISTINCT_BITS


def same(a, b) -> bool:
    """True when ``a`` and ``b`` look the same: <= 1 % of pixels changed or <= 4 hash bits apart."""
    return diff_fraction(a, b) <= SAME_FRACTION or dhash_distance(a, b) <= SAME_BITS


def all_distinct(images) -> bool:
    """Whether every two of ``images`` are ``distinct``, each image's luminance (and, when a pair needs it, its
    hash) computed once rather than once per pair: the same verdict as ``distinct`` pair by pair."""
    lumas = [luminance(image) for image in images]
    hashes: dict[int, np.ndarray] = {}

    def hashed(k: int) -> np.ndarray:
        if k not in hashes:
            hashes[k] = dhash(images[k])
        return hashes[k]

    for a in range(len(images)):
        for b in range(a + 1, len(images)):
            if lumas[a].shape != lumas[b].shape:
                raise ValueError(f"images differ in size: {lumas[a].shape} and {lumas[b].shape}")
            if float((np.abs(lumas[a] - lumas[b]) > LUMA_STEP).mean()) >= DISTINCT_FRACTION:
                continue
            if int(np.max(np.sum(hashed(a) != hashed(b), axis=1))) < DISTINCT_BITS:
                return False
    return True
