"""Pixel reading shared by the sequence verifiers (rotation, arithmetic, multi-column): panel crops, ink, the
pieces of ink (8-connected, counted by runs joined row to row: a different route from the generators' flood
fill), and the polar signature of a panel, from which turns are measured.

A panel's polar signature samples its ink on rings about the panel's centre, one sample per degree, angles
counterclockwise on screen (x right, y down: the point at angle a and radius r is (cx + r cos a, cy - r sin a)).
A turn of the panel by t degrees counterclockwise shifts every ring's samples by +t, so the turn between two
panels is the shift that best matches their signatures (circular cross-correlation).
"""

from __future__ import annotations

from functools import cache

import numpy as np

RINGS, BINS = 28, 360


def content(pixels: np.ndarray, box: list[int], border: int) -> np.ndarray:
    """The inside of a bordered panel (RGB)."""
    left, top, right, bottom = box
    return pixels[top + border: bottom - border, left + border: right - border]


def _darkest(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel (``rgb.min(axis=-1)``, as two elementwise minima: numpy reduces a last
    axis of three slowly)."""
    return np.minimum(np.minimum(rgb[..., 0], rgb[..., 1]), rgb[..., 2])


def darkness(rgb: np.ndarray) -> np.ndarray:
    """How far each pixel's darkest channel is below white, 0..1 (float32)."""
    return (255.0 - _darkest(rgb).astype(np.float32)) / 255.0


def ink(rgb: np.ndarray, step: int = 40) -> np.ndarray:
    """Pixels whose darkest channel is at least ``step`` below white."""
    return _darkest(rgb) < 255 - step


@cache
def _polar_grid(side: int) -> tuple[np.ndarray, ...]:
    centre = (side - 1) / 2
    radii = np.linspace(4, side / 2 - 3, RINGS, dtype=np.float32)
    angles = np.radians(np.arange(BINS, dtype=np.float32))
    x = centre + radii[:, None] * np.cos(angles)[None, :]
    y = centre - radii[:, None] * np.sin(angles)[None, :]
    x0, y0 = np.floor(x).astype(np.int32), np.floor(y).astype(np.int32)
    fx, fy = (x - x0).astype(np.float32), (y - y0).astype(np.float32)
    x0, y0 = np.clip(x0, 0, side - 2), np.clip(y0, 0, side - 2)
    return x0, y0, fx, fy, radii


def signature(rgb: np.ndarray) -> np.ndarray:
    """The polar signature (RINGS x BINS) of a square panel's darkness, bilinearly sampled, each ring weighted
    by its radius (its length)."""
    x0, y0, fx, fy, radii = _polar_grid(rgb.shape[0])

    def dark(ys: np.ndarray, xs: np.ndarray) -> np.ndarray:  # ``darkness`` at the sampled pixels only
        return (255.0 - _darkest(rgb[ys, xs]).astype(np.float32)) / 255.0

    top = dark(y0, x0) * (1 - fx) + dark(y0, x0 + 1) * fx
    bottom = dark(y0 + 1, x0) * (1 - fx) + dark(y0 + 1, x0 + 1) * fx
    return (top * (1 - fy) + bottom * fy) * (radii[:, None] / radii[-1])


def mismatch(a: np.ndarray, b: np.ndarray) -> float:
    """How different two signatures are: sum |a - b| / sum (a + b), 0 for equal ones, 1 for disjoint ink."""
    total = float((a + b).sum())
    return float(np.abs(a - b).sum()) / total if total > 0 else 0.0


def turned(sig: np.ndarray, degrees: int) -> np.ndarray:
    """The signature of the panel turned ``degrees`` counterclockwise."""
    return np.roll(sig, int(degrees) % BINS, axis=1)


def turn_between(a: np.ndarray, b: np.ndarray) -> tuple[int, float, float]:
    """The turn t (degrees counterclockwise, -179..180) that best takes signature ``a`` to ``b``, the mismatch
    there, and the smallest mismatch at any turn at least 20 degrees away from t (how clear t is)."""
    spectrum = np.conj(np.fft.rfft(a, axis=1)) * np.fft.rfft(b, axis=1)
    correlation = np.fft.irfft(spectrum.sum(axis=0), n=BINS)
    best = int(np.argmax(correlation))
    coarse = np.arange(0, BINS, 4)
    total = float(a.sum() + b.sum())

    def scores(shifts: np.ndarray) -> np.ndarray:
        index = (np.arange(BINS)[None, :] - shifts[:, None]) % BINS  # row k: a turned by shifts[k]
        return np.abs(a[:, index] - b[:, None, :]).sum(axis=(0, 2)) / total if total > 0 else np.zeros(len(shifts))

    gaps = np.minimum((coarse - best) % BINS, (best - coarse) % BINS)
    fine = (best + np.arange(-3, 4)) % BINS
    fine_scores = scores(fine)
    at = int(fine[np.argmin(fine_scores)])
    signed = ((at + 179) % BINS) - 179
    return signed, float(fine_scores.min()), float(scores(coarse[gaps >= 20]).min())


def pieces(mask: np.ndarray) -> list[dict[str, int]]:
    """The 8-connected pieces of a boolean mask, each as {"area", "top", "bottom", "left", "right"}: runs of
    each row, joined to the runs of the row above that touch them (union-find)."""
    parent: list[int] = []

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    runs: list[tuple[int, int, int]] = []  # (row, start, end exclusive)
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1)
    # every run of every row at once, in row-major order (a row's starts and ends alternate, so they pair up)
    start_rows, start_cols = np.nonzero(edges == 1)
    end_cols = np.nonzero(edges == -1)[1]
    previous: list[int] = []
    current: list[int] = []
    row = -1
    for y, s, e in zip(start_rows.tolist(), start_cols.tolist(), end_cols.tolist(), strict=True):
        if y != row:
            previous = current if y == row + 1 else []
            current, row = [], y
        k = len(runs)
        runs.append((y, s, e))
        parent.append(k)
        for j in previous:
            _, ps, pe = runs[j]
            if ps <= e and s <= pe:  # 8-connected: touching diagonally counts
                a, b = find(j), find(k)
                if a != b:
                    parent[b] = a
        current.append(k)
    found: dict[int, dict[str, int]] = {}
    for k, (y, s, e) in enumerate(runs):
        root = find(k)
        piece = found.setdefault(root, {"area": 0, "top": y, "bottom": y, "left": s, "right": e - 1})
        piece["area"] += e - s
        piece["bottom"] = y
        piece["left"] = min(piece["left"], s)
        piece["right"] = max(piece["right"], e - 1)
    return list(found.values())


def grown(mask: np.ndarray, reach: int = 2) -> np.ndarray:
    """``mask`` grown by ``reach`` pixels in the chessboard metric (no wrap-around)."""
    out = mask.copy()
    h, w = mask.shape
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
            xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
            out[yd, xd] |= mask[ys, xs]
    return out


def copies(rgb: np.ndarray, reach: int = 2) -> list[dict[str, int]]:
    """The motif copies of a panel or column: pieces of ink grown by ``reach`` px, each piece's area counted on
    the ink itself (not the grown mask)."""
    mask = ink(rgb)
    found = pieces(grown(mask, reach))
    for piece in found:
        box = mask[piece["top"]: piece["bottom"] + 1, piece["left"]: piece["right"] + 1]
        piece["ink"] = int(box.sum())
    return found


def uniform(found: list[dict[str, int]], tolerance: float = 0.12) -> bool:
    """Whether every copy has the same ink area and box size within ``tolerance`` of the median (copies of one
    motif at one size, none cut, merged or half drawn)."""
    if not found:
        return True
    inks = np.array([p["ink"] for p in found], dtype=float)
    widths = np.array([p["right"] - p["left"] for p in found], dtype=float)
    heights = np.array([p["bottom"] - p["top"] for p in found], dtype=float)
    ok = np.abs(inks - np.median(inks)) <= tolerance * np.median(inks)
    ok &= np.abs(widths - np.median(widths)) <= max(2.0, tolerance * np.median(widths))
    ok &= np.abs(heights - np.median(heights)) <= max(2.0, tolerance * np.median(heights))
    return bool(ok.all())
