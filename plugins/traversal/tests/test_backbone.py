"""Tests of the cell-targeted TraversalBench backbone generator."""

from __future__ import annotations

import time

import numpy as np
import pytest

from bench_plugin_traversal import backbone as bb
from bench_plugin_traversal import cells
from bench_plugin_traversal.backbone import (
    UNREACHABLE_REASONS,
    UNREACHABLE_STRICT,
    Backbone,
    CellUnreachable,
    gate_penalty,
    generate_backbone,
)
from bench_plugin_traversal.geometry import (
    PAPER,
    STRICT,
    batch_fit_to_view,
    check_gates,
    count_crossings,
    find_crossings,
    tortuosity,
)


def _all_cells(profile_name: str):
    for v in cells.VERTEX_COUNTS:
        for t, s in sorted(cells.POPULATED_CELLS[v]):
            if profile_name == "paper" or (v, t, s) not in UNREACHABLE_STRICT:
                yield v, t, s


def _assert_valid(b: Backbone, vertices: int, t: int, s: int, profile) -> None:
    assert isinstance(b, Backbone)
    assert b.points.shape == (vertices, 2)
    assert cells.tortuosity_bin(tortuosity(b.points)) == t
    assert cells.crossing_bin(count_crossings(b.points)) == s
    assert b.tortuosity == pytest.approx(tortuosity(b.points))
    assert len(b.crossings) == count_crossings(b.points)
    assert check_gates(b.points, profile) == []
    assert b.attempts >= 1 and b.family


@pytest.mark.slow
@pytest.mark.parametrize("vertices", cells.VERTEX_COUNTS)
def test_every_reachable_strict_cell_yields_valid_backbones(vertices):
    """(a) Every cell not in UNREACHABLE_STRICT, at every vertex count, for 2 seeds."""
    for v, t, s in _all_cells("strict"):
        if v != vertices:
            continue
        for seed in range(2):
            b = generate_backbone(np.random.default_rng([v, t, s, seed, 11]), v, t, s)
            _assert_valid(b, v, t, s, STRICT)


@pytest.mark.parametrize("vertices", cells.VERTEX_COUNTS)
def test_every_cell_works_under_paper(vertices):
    for v, t, s in _all_cells("paper"):
        if v == vertices:
            b = generate_backbone(np.random.default_rng([v, t, s, 12]), v, t, s, PAPER)
            _assert_valid(b, v, t, s, PAPER)


@pytest.mark.parametrize("cell", sorted(UNREACHABLE_STRICT))
def test_unreachable_strict_cells_work_under_paper(cell):
    """(c) Cells left out under STRICT are generated under PAPER, for 2 seeds."""
    v, t, s = cell
    for seed in range(2):
        b = generate_backbone(np.random.default_rng([v, t, s, seed]), v, t, s, PAPER)
        _assert_valid(b, v, t, s, PAPER)


def test_unreachable_cells_are_populated_and_explained():
    assert set(UNREACHABLE_REASONS) == set(UNREACHABLE_STRICT)
    for v, t, s in UNREACHABLE_STRICT:
        assert (t, s) in cells.POPULATED_CELLS[v]
        assert len(UNREACHABLE_REASONS[(v, t, s)]) > 20
    summary = bb.load_recipes()["unreachable_strict"]["cells"]
    assert sorted(tuple(c) for c in summary) == sorted(UNREACHABLE_STRICT)


def _cells_by_mode(mode: str) -> list[tuple[int, int, int]]:
    out = []
    for key, entry in bb.load_recipes()["cells"]["strict"].items():
        v, t, s = (int(x) for x in key.split(":"))
        if isinstance(entry, dict) and entry.get("mode") == mode and (v, t, s) not in UNREACHABLE_STRICT:
            out.append((v, t, s))
    return sorted(out)


@pytest.mark.parametrize("mode", ["sample", "repair", "grow"])
def test_deterministic_given_seed(mode):
    """(b) Same rng state, same backbone, in each generation mode; another seed gives another one."""
    found = _cells_by_mode(mode)
    if not found:
        pytest.skip(f"no cell uses mode {mode}")
    v, t, s = found[len(found) // 2]
    a = generate_backbone(np.random.default_rng(42), v, t, s)
    b = generate_backbone(np.random.default_rng(42), v, t, s)
    assert np.array_equal(a.points, b.points)
    assert (a.family, a.attempts) == (b.family, b.attempts)
    c = generate_backbone(np.random.default_rng(43), v, t, s)
    assert not np.array_equal(a.points, c.points)


def test_no_global_random_state_used():
    cell = _cells_by_mode("repair")[0]
    for v, t, s in ((9, 2, 2), cell):
        np.random.seed(0)
        a = generate_backbone(np.random.default_rng(7), v, t, s)
        np.random.seed(1)
        b = generate_backbone(np.random.default_rng(7), v, t, s)
        assert np.array_equal(a.points, b.points)


def test_diverse_shapes_within_a_cell():
    for v, t, s in [(13, 2, 2), *_cells_by_mode("repair")[:1], *_cells_by_mode("grow")[:1]]:
        pts = [generate_backbone(np.random.default_rng(k), v, t, s).points for k in range(5)]
        assert len({p.round(3).tobytes() for p in pts}) == 5


def test_gate_penalty_is_zero_for_accepted_candidates():
    """The repair objective never penalises an accepted in-cell backbone, and 0 means the screen passes."""
    rng = np.random.default_rng(5)
    for profile in (STRICT, PAPER):
        raw = bb.propose(rng, "walk", 400, 11, {"turn_sd": (0.2, 1.0), "curl": (0.0, 1.2)})
        pts = batch_fit_to_view(raw)
        pen, tau, cnt = gate_penalty(pts, profile, (1.0, np.inf), (0, None))
        assert np.allclose(tau, [tortuosity(p) for p in pts])
        assert np.array_equal(cnt, [count_crossings(p) for p in pts])
        ok = np.array([check_gates(p, profile) == [] for p in pts])
        assert ok.any()
        assert np.all(pen[ok] == 0.0)
        # penalty 0 fails, if at all, only on the gates the penalty leaves to check_gates
        for p in pts[(pen == 0.0) & ~ok]:
            assert set(check_gates(p, profile)) <= {"degenerate", "dense_gap"}
        in_cell = (cnt >= 2) & (cnt <= 3)
        pen_cell = gate_penalty(pts, profile, (2.0, 3.0), (2, 3))[0]
        in_cell &= (tau >= 2.0) & (tau < 3.0)
        assert np.all(pen_cell[ok & in_cell] == 0.0)
        assert np.all(pen_cell[~in_cell] > 0.0)


def test_grow_keeps_the_cell():
    rng = np.random.default_rng(3)
    base = generate_backbone(rng, 9, 3, 3)
    t_rng, c_rng = cells.tortuosity_range(3), cells.crossing_range(3)
    p, used = bb.grow(rng, base.points, 13, STRICT, t_rng, c_rng, repair_gens=20)
    assert used > 0
    if p is not None:
        assert p.shape == (13, 2)
        assert cells.tortuosity_bin(tortuosity(p)) == 3
        assert cells.crossing_bin(count_crossings(p)) == 3


def test_impossible_cell_raises_in_bounded_time():
    t0 = time.perf_counter()
    with pytest.raises(CellUnreachable) as exc:
        generate_backbone(np.random.default_rng(0), 9, 0, 6)
    assert time.perf_counter() - t0 < 15.0
    e = exc.value
    assert (e.vertices, e.tort_bin, e.cross_bin) == (9, 0, 6) and e.attempts > 0
    assert "PAPER" in str(e)


@pytest.mark.parametrize("mode", ["sample", "repair", "grow"])
def test_small_budget_is_respected(mode):
    with pytest.raises(CellUnreachable) as exc:
        generate_backbone(np.random.default_rng(0), 9, 0, 6, max_proposals=500)
    assert exc.value.attempts <= 500
    found = _cells_by_mode(mode)
    if found:
        v, t, s = found[0]
        try:
            b = generate_backbone(np.random.default_rng(0), v, t, s, max_proposals=300)
        except CellUnreachable as e:
            assert e.attempts <= 300 + 64  # at most one batch or repair generation past the budget
        else:
            assert b.attempts <= 300 + 64


def test_repr_is_short():
    b = generate_backbone(np.random.default_rng(3), 9, 1, 1)
    r = repr(b)
    assert "points" in r and len(r) < 200
    assert find_crossings(b.points) == b.crossings
