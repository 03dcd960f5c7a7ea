"""HPE verifier fast path held to the code it replaced: ``_near_both`` marking each row offset from the pixels
made once (and skipping the rows no point's inner radius reaches) marks the same pixels, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier


def _near_both_row_by_row(points, inner_points, side, inner, outer):
    """``_near_both`` as it was: every row offset's pixel indices made afresh, the inner radius tried on every
    row."""
    if outer <= 0 or not len(points):
        return np.zeros((side, side), dtype=bool), np.zeros((side, side), dtype=bool)
    span = int(np.ceil(outer))
    base = np.floor(points).astype(int)
    on = ((base >= -span) & (base < side + span)).all(axis=1)
    if not on.all():
        points, base, inner_points = points[on], base[on], inner_points[on]
    pad = 2 * span
    wide = side + 2 * pad
    grids = np.zeros(wide * wide, dtype=bool), np.zeros(wide * wide, dtype=bool)
    steps = range(-span, span + 1)
    left, x, y = base[:, 0].astype(float), points[:, 0], points[:, 1]
    across = np.empty((len(steps), len(points)))
    for row, dx in zip(across, steps, strict=True):
        np.subtract(left + (dx + 0.5), x, out=row)
    np.square(across, out=across)
    origin = ((base[:, 1] + pad) * wide + base[:, 0] + pad).astype(np.int32)
    columns = np.array(steps, dtype=np.int32)[:, None]
    outer_limit, inner_limit = outer * outer, inner * inner
    for dy in steps:
        nearest = max(abs(dy) - 0.5, 0.0)
        if nearest > outer:
            continue
        down = ((base[:, 1] + (dy + 0.5)) - y) ** 2
        if nearest + 1.0 > outer:
            live = np.flatnonzero(down <= outer_limit)
            d2 = across[:, live] + down[None, live]
            where = origin[None, live] + (columns + dy * wide)
            flagged = inner_points[None, live]
        else:
            d2 = across + down[None, :]
            where = origin[None, :] + (columns + dy * wide)
            flagged = inner_points[None, :]
        grids[1][where[d2 <= outer_limit]] = True
        if inner > 0:
            grids[0][where[(d2 <= inner_limit) & flagged]] = True
    return tuple(g.reshape(wide, wide)[pad:pad + side, pad:pad + side].copy() for g in grids)


@pytest.mark.parametrize("seed", range(6))
def test_near_both_marks_each_row_as_row_by_row(seed):
    rng = np.random.default_rng(seed)
    side = 60
    for _ in range(12):
        # points on and off the tile, whole and fractional, some on pixel centres' rims
        points = rng.uniform(-9, side + 9, (int(rng.integers(1, 300)), 2))
        points[::5] = np.round(points[::5] * 2) / 2
        flagged = rng.random(len(points)) < 0.6
        for inner, outer in ((0.0, 2.2), (0.58, 2.67), (0.92, 3.0), (1.5, 1.5), (2.5, 4.1), (-0.3, 1.0)):
            got = verifier._near_both(points, flagged, side, inner, outer)
            want = _near_both_row_by_row(points, flagged, side, inner, outer)
            assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))
