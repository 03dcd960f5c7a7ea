"""Verifier of ``sphinx/shape-counting``: the shapes are counted on the picture by brute force.

The scene records the figure's straight lines and circles in pixels.  The verifier checks them against the
PNG (every recorded line and circle is inked; no ink lies off them), finds the corner candidates as the
lines' endpoints and pairwise crossings (its own intersection code), and joins two candidates when the
straight segment between them is inked along its whole length.  Then it enumerates the asked shape over
that graph: triangles as inked three-cycles with a real corner at each vertex, parallelograms as p, q, r
with the fourth corner q + r - p present and inked to both, rectangles as parallelograms with a right
angle, squares as rectangles with equal sides.  That count must be the answer.  None of the generator's
formulas (grid combinatorics, occupancy windows, line triples) are used.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx import shape_words as words
from bench_plugin_sphinx.verifiers.records import guarded

#: A pixel is ink when its luminance is below this (black lines; the tints of the cells are light).
INK_LUMA = 90
#: Candidate corners closer than this (pixels) are one corner.
MERGE = 2.5
#: Samples along a segment are this many pixels apart.
STEP = 2.5


def ink_mask(image) -> np.ndarray:
    """Dark pixels: luminance below INK_LUMA."""
    return np.asarray(image.convert("L")) < INK_LUMA


def _grown(mask: np.ndarray, r: int) -> np.ndarray:
    """``mask`` dilated by ``r`` pixels (a square neighbourhood)."""
    out = mask.copy()
    for _ in range(r):
        grown = out.copy()
        grown[1:] |= out[:-1]
        grown[:-1] |= out[1:]
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def _on_ink(near: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    h, w = near.shape
    xi = np.clip(np.rint(xs).astype(int), 0, w - 1)
    yi = np.clip(np.rint(ys).astype(int), 0, h - 1)
    return near[yi, xi]


def corners(lines: np.ndarray) -> np.ndarray:
    """Endpoints and pairwise crossings of the segments ``lines`` (n x 4: x1, y1, x2, y2), merged within
    ``MERGE`` pixels."""
    p, d = lines[:, :2], lines[:, 2:] - lines[:, :2]
    i, j = np.triu_indices(len(lines), 1)
    cross = d[i, 0] * d[j, 1] - d[i, 1] * d[j, 0]
    ok = np.abs(cross) > 1e-9
    diff = p[j] - p[i]
    safe = np.where(ok, cross, 1.0)
    t = (diff[:, 0] * d[j, 1] - diff[:, 1] * d[j, 0]) / safe  # along line i
    u = (diff[:, 0] * d[i, 1] - diff[:, 1] * d[i, 0]) / safe  # along line j
    hit = ok & (t >= -1e-6) & (t <= 1 + 1e-6) & (u >= -1e-6) & (u <= 1 + 1e-6)
    crossings = p[i[hit]] + t[hit, None] * d[i[hit]]
    raw = np.concatenate([lines[:, :2], lines[:, 2:], crossings])
    close = np.hypot(raw[:, None, 0] - raw[None, :, 0], raw[:, None, 1] - raw[None, :, 1]) < MERGE
    first = np.argmax(close, axis=1)  # the first point of each one's neighbourhood stands for it
    return raw[np.unique(first)]


def joined(points: np.ndarray, near: np.ndarray) -> np.ndarray:
    """Boolean matrix: the straight segment between points i and j is inked along its whole length."""
    n = len(points)
    out = np.zeros((n, n), dtype=bool)
    i, j = np.triu_indices(n, 1)
    a, b = points[i], points[j]
    # a cheap first pass at nine fixed fractions, then every STEP pixels (or closer) for the pairs left
    alive = _along(near, a, b, np.linspace(0, 1, 9))
    if alive.any():
        longest = float(np.hypot(*(b[alive] - a[alive]).T).max())
        alive[alive] = _along(near, a[alive], b[alive], np.linspace(0, 1, max(2, int(longest / STEP) + 1)))
    out[i, j] = alive
    return out | out.T


def _along(near: np.ndarray, a: np.ndarray, b: np.ndarray, fractions: np.ndarray) -> np.ndarray:
    """For each segment a[k]-b[k]: inked at every fraction of its length."""
    xs = a[:, :1] + fractions * (b[:, :1] - a[:, :1])
    ys = a[:, 1:] + fractions * (b[:, 1:] - a[:, 1:])
    return _on_ink(near, xs, ys).all(axis=1)


def count_shapes(points: np.ndarray, edge: np.ndarray, shape: str) -> int:
    """How many of ``shape`` the inked graph holds (see the module docstring)."""
    n = len(points)
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    p, q, r = np.nonzero(edge[:, :, None] & edge[:, None, :] & upper[None, :, :])
    u, v = points[q] - points[p], points[r] - points[p]
    lu, lv = np.hypot(*u.T), np.hypot(*v.T)
    cross = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]) / (lu * lv)
    corner = cross >= 0.05  # not collinear: a real corner at p
    p, q, r, u, v, lu, lv = p[corner], q[corner], r[corner], u[corner], v[corner], lu[corner], lv[corner]
    if shape == "triangles":
        keep = edge[q, r]
        shapes = np.stack([p[keep], q[keep], r[keep]], axis=1)
    else:
        target = points[q] + points[r] - points[p]
        gaps = np.hypot(target[:, None, 0] - points[None, :, 0], target[:, None, 1] - points[None, :, 1])
        s = np.argmin(gaps, axis=1) if len(target) else np.zeros(0, dtype=int)
        keep = (gaps[np.arange(len(s)), s] <= 2 * MERGE) & edge[q, s] & edge[r, s] if len(s) else s.astype(bool)
        if shape in ("rectangles", "squares"):
            keep &= np.abs(np.einsum("ij,ij->i", u, v)) / (lu * lv) <= 0.03
        if shape == "squares":
            keep &= np.abs(lu - lv) <= 0.03 * np.maximum(lu, lv)
        shapes = np.stack([p[keep], q[keep], r[keep], s[keep]], axis=1)
    if not len(shapes):
        return 0
    return len(np.unique(np.sort(shapes, axis=1), axis=0))


def _drawn_mask(size: tuple[int, int], lines, circles, width: int) -> np.ndarray:
    canvas = Image.new("L", size, 0)
    draw = ImageDraw.Draw(canvas)
    for x1, y1, x2, y2 in lines:
        draw.line((x1, y1, x2, y2), fill=255, width=width)
        for x, y in ((x1, y1), (x2, y2)):
            draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=255)
    for cx, cy, r in circles:
        draw.ellipse((cx - r - width / 2, cy - r - width / 2, cx + r + width / 2, cy + r + width / 2), outline=255,
                     width=width)
    return np.asarray(canvas) > 0


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    shape = scene["shape"]
    if words.shape_of(item.question) != shape:
        failures.append(f"the question does not ask for {shape} as the scene records it")
    ink = ink_mask(images[0])
    lines = np.array(scene["lines"], dtype=float).reshape(-1, 4)
    circles = [tuple(c) for c in scene["circles"]]
    width = int(scene["line_width"])
    near = _grown(ink, 1)
    longest = float(np.hypot(lines[:, 2] - lines[:, 0], lines[:, 3] - lines[:, 1]).max()) if len(lines) else 0.0
    drawn = _along(near, lines[:, :2], lines[:, 2:], np.linspace(0, 1, max(2, int(longest / STEP) + 1)))
    if not drawn.all():
        x1, y1, x2, y2 = lines[int(np.argmin(drawn))]
        failures.append(f"the recorded line ({x1}, {y1})-({x2}, {y2}) is not drawn along its length")
    for cx, cy, r in circles:
        t = np.linspace(0, 2 * np.pi, 90, endpoint=False)
        if not _on_ink(near, cx + r * np.cos(t), cy + r * np.sin(t)).all():
            failures.append(f"the recorded circle at ({cx}, {cy}) r {r} is not drawn")
    allowed = _drawn_mask(images[0].size, lines, circles, width + 4)
    stray = int((ink & ~allowed).sum())
    if stray:
        failures.append(f"{stray} ink pixels lie off the recorded lines and circles")
    if failures:
        return failures
    points = corners(lines)
    count = count_shapes(points, joined(points, near), shape)
    try:
        claimed = int(str(item.answer).strip())
    except ValueError:
        return [f"answer {item.answer!r} is not an integer"]
    if count != claimed:
        failures.append(f"the picture holds {count} {shape}, but the answer is {claimed}")
    return failures
