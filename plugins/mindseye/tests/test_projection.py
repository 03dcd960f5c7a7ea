"""The verifiers' polygon fill (``verifiers.polygon_fill.rasterise``): it fills each pixel row as one run whose
ends it solves for, and must cover exactly the pixels whose centres pass the edge test, as testing every pixel
of every polygon's box does (the definition, written out here), with or without a depth test."""

from __future__ import annotations

import numpy as np
import pytest

from bench_plugin_mindseye.verifiers.polygon_fill import rasterise


def _every_pixel(xs: np.ndarray, ys: np.ndarray, side: int, depth: np.ndarray | None) -> np.ndarray:
    """The definition: every pixel centre of every polygon's box tested against every edge (-1e-9 slack), the
    nearest polygon kept where a depth is given, later polygons over earlier ones otherwise."""
    ids = np.full((side, side), -1, dtype=np.int32)
    nearest = np.full((side, side), -np.inf)
    for k in range(len(xs)):
        x, y = xs[k], ys[k]
        nx, ny = np.roll(x, -1), np.roll(y, -1)
        sign = np.sign((x * ny - nx * y).sum())
        x0, x1 = (int(np.clip(f(v), 0, side)) for f, v in ((np.floor, x.min()), (np.ceil, x.max())))
        y0, y1 = (int(np.clip(f(v), 0, side)) for f, v in ((np.floor, y.min()), (np.ceil, y.max())))
        if sign == 0 or x1 <= x0 or y1 <= y0:
            continue
        a, b = sign * (nx - x), sign * (ny - y)
        c = a * y - b * x
        rows, cols = np.mgrid[y0:y1, x0:x1]
        cx, cy = cols + 0.5, rows + 0.5
        inside = np.ones(rows.shape, dtype=bool)
        for e in range(len(x)):
            inside &= a[e] * cy - b[e] * cx - c[e] >= -1e-9
        rr, cc = rows[inside], cols[inside]
        if depth is None:
            ids[rr, cc] = k
            continue
        z = depth[k, 0] * (cc + 0.5) + depth[k, 1] * (rr + 0.5) + depth[k, 2]
        front = z > nearest[rr, cc]
        tie = z == nearest[rr, cc]
        nearest[rr[front], cc[front]] = z[front]
        ids[rr[front | tie], cc[front | tie]] = k
    return ids


def _polygons(rng: np.random.Generator, side: int, count: int, corners: int, style: int
              ) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = np.zeros((count, corners)), np.zeros((count, corners))
    for k in range(count):
        cx, cy, r = rng.uniform(-5, side + 5), rng.uniform(-5, side + 5), rng.uniform(0.3, side)
        angles = np.sort(rng.uniform(0, 2 * np.pi, corners))
        if style == 1:  # edges along the axes and diagonals
            angles = np.round(angles / (np.pi / 4)) * (np.pi / 4)
        xs[k], ys[k] = cx + r * np.cos(angles), cy + r * np.sin(angles)
        if style == 2:  # corners on pixel edges and centres
            xs[k], ys[k] = np.round(xs[k] * 2) / 2, np.round(ys[k] * 2) / 2
        if style == 3:  # a nearly flat edge
            ys[k, 1] = ys[k, 0] + rng.uniform(-1e-5, 1e-5)
        if rng.random() < 0.5:  # either winding
            xs[k], ys[k] = xs[k][::-1].copy(), ys[k][::-1].copy()
    return xs, ys


@pytest.mark.parametrize("style", [0, 1, 2, 3])
@pytest.mark.parametrize("with_depth", [False, True])
def test_rasterise_covers_exactly_the_pixels_that_pass_the_edge_test(style, with_depth):
    rng = np.random.default_rng(10 * style + with_depth)
    for _ in range(60):
        side = int(rng.integers(6, 90))
        count, corners = int(rng.integers(1, 7)), int(rng.integers(3, 7))
        xs, ys = _polygons(rng, side, count, corners, style)
        depth = rng.normal(size=(count, 3)) if with_depth else None
        got = rasterise(xs, ys, side, depth)
        assert np.array_equal(got, _every_pixel(xs, ys, side, depth))
