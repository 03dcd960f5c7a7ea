"""The verifiers' stroke rasteriser: growing marks on their box only (``line_raster.grown_box``, ``grown``) gives
exactly the whole-grid ``dilate(mark(...))``, and ``stroke_coverage`` (counted on the strokes' box,
``stroke_counts``) exactly the array of the whole-grid code it replaced (kept below as the reference), on random
grids, segments and radii, marks at the grid's edges, points off the grid and no marks at all."""

from __future__ import annotations

import numpy as np
import pytest

from bench_plugin_mindseye.verifiers import line_raster


def _whole_grid_coverage(side: int, segments: np.ndarray, width: float) -> np.ndarray:
    """``stroke_coverage`` as it was: marked and grown over the whole fine grid."""
    seg = np.asarray(segments, dtype=float).reshape(-1, 2, 2)
    if not len(seg):
        return np.zeros((side, side), dtype=np.float32)
    factor = line_raster.FACTOR
    points, _ = line_raster.samples(seg * factor, step=0.7)
    fine = line_raster.dilate(line_raster.mark(points, side * factor), width * factor / 2 - 0.5)
    counts = np.zeros((side, side), dtype=np.uint8)
    cells = fine.view(np.uint8)
    for dy in range(factor):
        for dx in range(factor):
            counts += cells[dy::factor, dx::factor]
    return counts.astype(np.float32) / (factor * factor)


def _random_points(rng: np.random.Generator, size: int) -> np.ndarray:
    """Points of one of several kinds: anywhere (some off the grid), in a corner, along an edge, on a random
    boolean grid's marked pixels (at random spots inside each), or none."""
    kind = int(rng.integers(0, 6))
    count = int(rng.integers(1, 50))
    if kind == 0:
        return rng.uniform(-6.0, size + 6.0, (count, 2))
    if kind == 1:  # hugging a corner, partly off the grid
        corner = rng.choice([0.0, float(size)], 2)
        return corner[None, :] + rng.uniform(-3.0, 3.0, (count, 2))
    if kind == 2:  # on the first or last row or column
        points = rng.uniform(0.0, size, (count, 2))
        points[:, int(rng.integers(0, 2))] = rng.choice([0.0, size - 1e-9, size - 0.5, 0.99], count)
        return points
    if kind == 3:  # the marked pixels of a random grid
        grid = rng.random((size, size)) < rng.uniform(0.0, 0.2)
        y, x = np.nonzero(grid)
        return np.column_stack([x, y]) + rng.uniform(0.0, 1.0, (len(x), 2))
    if kind == 4:  # all off the grid
        return rng.uniform(size + 0.01, size + 20.0, (count, 2)) * rng.choice([-1.0, 1.0], (count, 1))
    return np.zeros((0, 2))


@pytest.mark.parametrize("seed", range(4))
def test_growing_on_the_box_equals_growing_the_whole_grid(seed):
    rng = np.random.default_rng(seed)
    for k in range(150):
        size = int(rng.integers(1, 70))
        points = _random_points(rng, size)
        radius = float(rng.choice([rng.uniform(-0.99, 8.0), 0.0, 1.0, 2.0, float(rng.integers(0, 40))]))
        align = int(rng.choice([1, 2, 3]))
        expected = line_raster.dilate(line_raster.mark(points, size), radius)
        assert np.array_equal(line_raster.grown(points, size, radius), expected)
        found = line_raster.grown_box(points, size, radius, align)
        if found is None:
            assert not line_raster.mark(points, size).any() and not expected.any()
            continue
        (x0, y0), box = found
        assert x0 % align == 0 and y0 % align == 0 and box.dtype == bool
        assert x0 >= 0 and y0 >= 0 and x0 + box.shape[1] <= size and y0 + box.shape[0] <= size
        whole = np.zeros((size, size), dtype=bool)
        whole[y0:y0 + box.shape[0], x0:x0 + box.shape[1]] = box
        assert np.array_equal(whole, expected), (k, size, radius, align)


def test_growing_no_marks_gives_a_blank_grid():
    for size in (1, 5, 40):
        for points in (np.zeros((0, 2)), np.array([[-1.0, 3.0], [3.0, size + 0.0], [size + 4.0, -2.0]])):
            assert line_raster.grown_box(points, size, 3.0) is None
            grid = line_raster.grown(points, size, 3.0)
            assert grid.shape == (size, size) and not grid.any()


def test_marks_filling_the_grid_grow_to_the_whole_grid():
    size = 9
    y, x = np.mgrid[0:size, 0:size]
    points = np.column_stack([x.ravel(), y.ravel()]) + 0.5
    assert line_raster.grown(points, size, 2.5).all()
    (x0, y0), box = line_raster.grown_box(points, size, 2.5, 2)
    assert (x0, y0) == (0, 0) and box.shape == (size, size) and box.all()


@pytest.mark.parametrize("seed", range(3))
def test_stroke_coverage_equals_the_whole_grid_coverage(seed):
    rng = np.random.default_rng(100 + seed)
    for k in range(120):
        side = int(rng.integers(3, 90))
        kind = k % 4
        if kind == 0:  # anywhere, some off the tile
            ends = rng.uniform(-10.0, side + 10.0, (int(rng.integers(1, 6)), 2, 2))
        elif kind == 1:  # a closed outline
            ends = line_raster.polyline_segments(rng.uniform(0.0, side, (int(rng.integers(3, 7)), 2)), closed=True)
        elif kind == 2:  # a circle, maybe cut by the tile's edges
            centre = rng.uniform(0.0, side, 2)
            ends = line_raster.polyline_segments(
                line_raster.circle_polyline(centre[0], centre[1], rng.uniform(1.0, side / 2)), closed=False)
        else:  # along the tile's edges
            edge = rng.choice([0.0, 0.3, side - 0.2, float(side)])
            ends = np.array([[[edge, rng.uniform(0, side)], [edge, rng.uniform(0, side)]],
                             [[rng.uniform(0, side), edge], [rng.uniform(0, side), edge]]])
        width = float(rng.choice([rng.uniform(0.0, 9.0), 1.0, 2.0, 3.5, float(rng.integers(1, 14))]))
        new = line_raster.stroke_coverage(side, ends, width)
        old = _whole_grid_coverage(side, ends, width)
        assert new.dtype == old.dtype == np.float32 and new.shape == old.shape
        assert np.array_equal(new, old), (k, side, width)


def test_stroke_coverage_of_nothing_is_blank():
    for segments in (np.zeros((0, 2, 2)), [], np.array([[[-30.0, -30.0], [-20.0, -25.0]]])):
        cover = line_raster.stroke_coverage(12, segments, 3.0)
        assert cover.shape == (12, 12) and cover.dtype == np.float32 and not cover.any()
        assert np.array_equal(cover, _whole_grid_coverage(12, segments, 3.0))
        assert line_raster.stroke_counts(12, segments, 3.0) is None


def test_near_is_the_whole_grid_growth_of_the_samples():
    rng = np.random.default_rng(7)
    for _ in range(60):
        side = int(rng.integers(5, 80))
        segments = line_raster.polyline_segments(rng.uniform(-8, side + 8, (int(rng.integers(2, 6)), 2)), closed=True)
        reach = float(rng.uniform(0.0, 6.0))
        points, _ = line_raster.samples(segments, step=0.7)
        expected = line_raster.dilate(line_raster.mark(points, side), reach)
        assert np.array_equal(line_raster.near(side, segments, reach), expected)


@pytest.mark.parametrize("radius", [0.0, 1.5, 3.83, 6.33])
def test_boxes_grown_together_equal_each_grown_alone(radius):
    """``grown_boxes`` (all boxes found at once and grown with one dilation) equals ``grown_box`` of each set,
    with sets of mixed grid sizes, points off the grid, sets with no point on it and empty sets;
    ``read_grown`` / ``grown_at`` read the whole grid's ``grown`` at the pixels asked."""
    rng = np.random.default_rng(int(radius * 100))
    for align in (1, 2):
        sets = []
        for _ in range(9):
            size = int(rng.choice([20, 47, 60]))
            kind = rng.random()
            if kind < 0.15:
                points = np.zeros((0, 2))
            elif kind < 0.3:
                points = rng.uniform(size + 1, size + 9, size=(5, 2))  # all off the grid
            else:
                points = rng.uniform(-6, size + 6, size=(int(rng.integers(1, 40)), 2))
            sets.append((points, size))
        together = line_raster.grown_boxes(sets, radius, align)
        for (points, size), found in zip(sets, together, strict=True):
            alone = line_raster.grown_box(points, size, radius, align)
            assert (found is None) == (alone is None)
            if found is not None:
                assert found[0] == alone[0] and np.array_equal(found[1], alone[1])
            pixels = rng.integers(0, size, size=(50, 2))
            whole = line_raster.grown(points, size, radius)
            assert np.array_equal(line_raster.read_grown(found, pixels), whole[pixels[:, 1], pixels[:, 0]])
            assert np.array_equal(line_raster.grown_at(points, size, radius, pixels), whole[pixels[:, 1], pixels[:, 0]])
    assert line_raster.grown_boxes([], radius) == []


def test_strokes_counted_together_equal_each_counted_alone():
    rng = np.random.default_rng(3)
    strokes = []
    for _ in range(12):
        side = int(rng.choice([30, 64]))
        segments = line_raster.polyline_segments(rng.uniform(-5, side + 5, size=(int(rng.integers(2, 6)), 2)),
                                                 closed=bool(rng.random() < 0.5))
        if rng.random() < 0.15:
            segments = np.zeros((0, 2, 2))
        strokes.append((side, segments, float(rng.choice([2.0, 3.5, 4.3333]))))
    together = line_raster.stroke_counts_many(strokes)
    for stroke, found in zip(strokes, together, strict=True):
        alone = line_raster.stroke_counts(*stroke)
        assert (found is None) == (alone is None)
        if found is not None:
            assert found[0] == alone[0] and np.array_equal(found[1], alone[1])
        assert np.array_equal(line_raster.stroke_coverage(*stroke), _whole_grid_coverage(*stroke))
