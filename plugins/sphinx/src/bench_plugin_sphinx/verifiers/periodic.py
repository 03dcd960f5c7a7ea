"""Pixel reading for the frieze and wallpaper verifiers: darkness, tolerant comparison of two pictures, and
the best shift between two periodic pictures by cross-correlation (FFT).  Nothing here knows how a pattern
was built: these are measurements on the decoded PNG."""

from __future__ import annotations

import numpy as np

#: A pixel is ink when its darkness (1 - darkest channel / 255) exceeds this.
INK = 0.25
#: Two darknesses differ when they are this far apart.
STEP = 0.3


def darkness(rgb: np.ndarray) -> np.ndarray:
    """1 - (darkest channel) / 255 per pixel, float32 (h, w): white 0, any palette colour well above ``INK``.  An
    (h, w) array is taken as the darkest channels themselves."""
    rgb = np.asarray(rgb)
    low = rgb if rgb.ndim == 2 else np.minimum(np.minimum(rgb[:, :, 0], rgb[:, :, 1]), rgb[:, :, 2])
    if low.dtype != np.uint8:
        return 1.0 - low.astype(np.float32) / 255.0
    out = low.astype(np.float32)  # the same float32 steps, in place (no temporaries: several times faster)
    out /= np.float32(255.0)
    return np.subtract(np.float32(1.0), out, out=out)


def _one_way(x: np.ndarray, y_padded: np.ndarray, reach: int, step: float) -> tuple[int, int]:
    """(changed, inked): pixels inked in ``x`` whose value no pixel of ``y`` within ``reach`` pixels
    (8-neighbourhood) comes within ``step`` of.  ``y_padded`` is ``y`` padded by one on each side."""
    rows, cols = np.nonzero(x > INK)
    if not len(rows):
        return 0, 0
    values = x[rows, cols]
    same = np.zeros(len(rows), bool)
    span = range(1 - reach, 2 + reach)
    for dy in span:
        for dx in span:
            same |= np.abs(y_padded[rows + dy, cols + dx] - values) <= step
    return int((~same).sum()), len(rows)


def _pad(a: np.ndarray, wrap: tuple[bool, bool]) -> np.ndarray:
    out = np.pad(a, ((1, 1), (1, 1)), constant_values=0.0)
    if wrap[0]:
        out[0, 1:-1], out[-1, 1:-1] = a[-1], a[0]
    if wrap[1]:
        out[1:-1, 0], out[1:-1, -1] = a[:, -1], a[:, 0]
    if wrap[0] and wrap[1]:
        out[0, 0], out[0, -1], out[-1, 0], out[-1, -1] = a[-1, -1], a[-1, 0], a[0, -1], a[0, 0]
    return out


def mismatch(x: np.ndarray, y: np.ndarray, wrap: tuple[bool, bool] = (False, False), reach: int = 1,
             step: float = STEP) -> float:
    """The share of inked pixels (of ``x`` and of ``y``) with no pixel of like darkness (within ``step``) within
    ``reach`` pixels in the other picture (``reach=1``: one pixel out of register is no change; ``wrap`` says
    which axes are periodic).  ``reach=0`` compares pixel by pixel: the changed share of the pixels inked in
    either picture."""
    if reach == 0:
        inked = (x > INK) | (y > INK)
        total = int(np.count_nonzero(inked))
        return float(np.count_nonzero(inked & (np.abs(x - y) > step))) / total if total else 0.0
    a, b = _one_way(x, _pad(y, wrap), reach, step)
    c, d = _one_way(y, _pad(x, wrap), reach, step)
    return (a + c) / (b + d) if b + d else 0.0


def best_shift_from_spectra(spectrum: np.ndarray, moved: np.ndarray, length: int, exclude: int | None = None) -> int:
    """The circular shift along x that best lays a picture over another, given their row-wise real spectra
    (``np.fft.rfft(picture, axis=1)``, rows summed after the product): ``np.roll(moved_picture, shift, 1)`` is
    most like the picture.  ``exclude`` rules out shifts within that many columns of zero."""
    corr = np.fft.irfft((spectrum * np.conj(moved)).sum(axis=0), n=length)
    if exclude is not None:
        for d in range(-exclude, exclude + 1):
            corr[d % length] = -np.inf
    return int(np.argmax(corr))
