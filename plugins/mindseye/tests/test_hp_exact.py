"""The HPE verifier's faster routines equal the plain computations they replace, bit for bit: the pixels near
the centre-line samples (``_near_both``), the samples themselves (``line_raster.samples``), the samples' own
stretch (``_own_samples``) and the sketch's paint."""

from __future__ import annotations

import numpy as np

from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier
from bench_plugin_mindseye.verifiers import line_raster


def _near_both_plainly(points: np.ndarray, inner_points: np.ndarray, side: int, inner: float, outer: float,
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Every point against every pixel centre within ``ceil(outer)`` rows and columns of its pixel."""
    grids = np.zeros((side, side), dtype=bool), np.zeros((side, side), dtype=bool)
    if outer <= 0:
        return grids
    span = int(np.ceil(outer))
    for (x, y), flagged in zip(points.tolist(), inner_points.tolist(), strict=True):
        bx, by = int(np.floor(x)), int(np.floor(y))
        for cy in range(by - span, by + span + 1):
            for cx in range(bx - span, bx + span + 1):
                if not (0 <= cx < side and 0 <= cy < side):
                    continue
                d2 = (cx + 0.5 - x) ** 2 + (cy + 0.5 - y) ** 2
                grids[1][cy, cx] |= d2 <= outer * outer
                grids[0][cy, cx] |= inner > 0 and flagged and d2 <= inner * inner
    return grids


def test_near_both_marks_the_pixel_centres_each_point_reaches():
    """On points off the grid, at its edges and on a quarter-pixel lattice (distances equal to the radius),
    with radii at and between whole and half pixels, both grids are those of the point-by-point test."""
    rng = np.random.default_rng(5)
    for k in range(300):
        size = int(rng.integers(1, 40))
        points = rng.uniform(-10.0, size + 10.0, (int(rng.integers(0, 30)), 2))
        if k % 3 == 0:
            points = np.round(points * 4) / 4
        outer = float(rng.choice([rng.uniform(-0.5, 5.0), 0.5, 1.0, 1.5, 2.5, np.sqrt(2.0), np.sqrt(5.0)]))
        inner = outer - float(rng.uniform(0.0, 2.0))
        flagged = rng.random(len(points)) < 0.5
        found = verifier._near_both(points, flagged, size, inner, outer)
        expected = _near_both_plainly(points, flagged, size, inner, outer)
        assert all(np.array_equal(a, b) for a, b in zip(found, expected, strict=True))


def test_samples_are_each_segments_start_plus_its_share_of_the_run():
    """``samples`` gives, to the bit, start + (end - start) * k / (n - 1) for the k-th of a segment's n points."""
    rng = np.random.default_rng(6)
    for k in range(100):
        segments = rng.uniform(-20.0, 500.0, (int(rng.integers(0, 20)), 2, 2))
        if k % 4 == 0:
            segments[::2, 1] = segments[::2, 0]
        for step in (0.7, 1.0, 3.0):
            points, owner = line_raster.samples(segments, step)
            expected, owners = [], []
            for m, (start, end) in enumerate(segments):
                n = max(2, int(np.ceil(np.hypot(*(end - start)) / step)) + 1)
                expected += [start + (end - start) * (j / (n - 1)) for j in range(n)]
                owners += [m] * n
            assert points.tobytes() == np.array(expected, dtype=float).reshape(-1, 2).tobytes()
            assert owner.tolist() == owners


def _own_plainly(points: np.ndarray, parts: np.ndarray, side: int, reach: float) -> np.ndarray:
    """A sample is its part's own when no pixel within ``reach`` of its pixel holds a sample of another part."""
    ij = np.floor(points).astype(int).clip(0, side - 1)
    held: dict[tuple[int, int], set[int]] = {}
    for (x, y), part in zip(ij.tolist(), parts.tolist(), strict=True):
        held.setdefault((x, y), set()).add(part)
    span = int(np.ceil(reach))
    out = []
    for (x, y), part in zip(ij.tolist(), parts.tolist(), strict=True):
        out.append(all(held.get((x + dx, y + dy), {part}) == {part}
                       for dy in range(-span, span + 1) for dx in range(-span, span + 1)
                       if dx * dx + dy * dy <= reach * reach))
    return np.array(out, dtype=bool)


def test_own_samples_are_those_no_other_part_comes_near():
    rng = np.random.default_rng(7)
    for _ in range(60):
        side = int(rng.integers(5, 40))
        count = int(rng.integers(1, 80))
        points = rng.uniform(-2.0, side + 2.0, (count, 2))
        parts = rng.integers(0, 6, count)
        reach = float(rng.uniform(0.5, 5.0))
        assert np.array_equal(verifier._own_samples(points, parts, side, reach),
                              _own_plainly(points, parts, side, reach))


def test_sketch_paints_the_pixels_within_half_the_pen_the_ink():
    """The sketch equals ``line_raster.paint`` of ``line_raster.near`` at half the pen for pens of every width, inks
    of three different channels and records with nothing to draw, inside ``shared_lines`` (twice) too."""
    rng = np.random.default_rng(8)
    descriptions = []
    for k in range(20):
        side = int(rng.integers(20, 90))
        description = {"pen": float(rng.uniform(1.0, 5.0)), "ink": [int(v) for v in rng.integers(0, 200, 3)],
                       "segments": rng.uniform(0.05, 0.95, (int(rng.integers(1, 6)), 4)).tolist(),
                       "polygons": [rng.uniform(0.1, 0.9, (3, 2)).tolist()], "circles": [[0.5, 0.5, 0.2]]}
        if k % 7 == 0:
            description.update(segments=[], polygons=[], circles=[])
        if k % 5 == 0:  # reaching off the tile
            description["segments"].append([-0.3, 0.5, 1.4, 0.6])
        descriptions.append((description, side))
        segments, _ = verifier._polylines(description, side)
        near = line_raster.near(side, segments, description["pen"] / 2)
        painted = line_raster.paint(side, [(near.astype(np.float32), description["ink"])])
        assert np.array_equal(verifier.sketch(description, side), painted)
    for description, side in descriptions:
        plain = [verifier.sketch(description, side), verifier.sketch(description, side)]
        with verifier.shared_lines():
            assert all(np.array_equal(verifier.sketch(description, side), b) for b in plain)
