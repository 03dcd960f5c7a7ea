"""Tests of the cell-targeted TraversalBench backbone generator."""

from __future__ import annotations

import time

import numpy as np
import pytest

from bench_plugin_traversal import cells
from bench_plugin_traversal.backbone import UNREACHABLE_STRICT, Backbone, CellUnreachable, generate_backbone
from bench_plugin_traversal.geometry import (
    PAPER,
    STRICT,
    check_gates,
    count_crossings,
    find_crossings,
    tortuosity,
)

SAMPLE_CELLS = [(0, 0), (0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 0), (5, 6)]


def _sample():
    for v in (9, 13, 17):
        for t, s in SAMPLE_CELLS:
            if (t, s) in cells.POPULATED_CELLS[v] and (v, t, s) not in UNREACHABLE_STRICT:
                yield v, t, s


@pytest.mark.parametrize(("vertices", "t", "s"), list(_sample()))
def test_backbone_lands_in_cell_and_passes_gates(vertices, t, s):
    for seed in range(2):
        b = generate_backbone(np.random.default_rng([vertices, t, s, seed]), vertices, t, s)
        assert isinstance(b, Backbone)
        assert b.points.shape == (vertices, 2)
        assert cells.tortuosity_bin(tortuosity(b.points)) == t
        assert cells.crossing_bin(count_crossings(b.points)) == s
        assert b.tortuosity == pytest.approx(tortuosity(b.points))
        assert len(b.crossings) == count_crossings(b.points)
        assert check_gates(b.points, STRICT) == []
        assert b.attempts >= 1 and b.family


@pytest.mark.parametrize("cell", sorted(UNREACHABLE_STRICT)[:3])
def test_unreachable_strict_cells_work_under_paper(cell):
    v, t, s = cell
    b = generate_backbone(np.random.default_rng(0), v, t, s, PAPER)
    assert cells.tortuosity_bin(b.tortuosity) == t
    assert cells.crossing_bin(len(b.crossings)) == s
    assert check_gates(b.points, PAPER) == []


def test_deterministic_given_seed():
    a = generate_backbone(np.random.default_rng(42), 11, 3, 3)
    b = generate_backbone(np.random.default_rng(42), 11, 3, 3)
    assert np.array_equal(a.points, b.points)
    assert (a.family, a.attempts) == (b.family, b.attempts)
    c = generate_backbone(np.random.default_rng(43), 11, 3, 3)
    assert not np.array_equal(a.points, c.points)


def test_no_global_random_state_used():
    np.random.seed(0)
    a = generate_backbone(np.random.default_rng(7), 9, 2, 2)
    np.random.seed(1)
    b = generate_backbone(np.random.default_rng(7), 9, 2, 2)
    assert np.array_equal(a.points, b.points)


def test_diverse_shapes_within_a_cell():
    pts = [generate_backbone(np.random.default_rng(k), 13, 2, 2).points for k in range(5)]
    assert len({p.round(3).tobytes() for p in pts}) == 5


def test_impossible_cell_raises_in_bounded_time():
    t0 = time.perf_counter()
    with pytest.raises(CellUnreachable) as exc:
        generate_backbone(np.random.default_rng(0), 9, 0, 6)
    assert time.perf_counter() - t0 < 15.0
    e = exc.value
    assert (e.vertices, e.tort_bin, e.cross_bin) == (9, 0, 6) and e.attempts > 0
    assert "PAPER" in str(e)


def test_small_budget_is_respected():
    with pytest.raises(CellUnreachable) as exc:
        generate_backbone(np.random.default_rng(0), 9, 0, 6, max_proposals=500)
    assert exc.value.attempts <= 500


def test_repr_is_short():
    b = generate_backbone(np.random.default_rng(3), 9, 1, 1)
    r = repr(b)
    assert "points" in r and len(r) < 200
    assert find_crossings(b.points) == b.crossings
