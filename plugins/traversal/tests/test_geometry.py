"""Tests of the TraversalBench geometry core: crossings, degenerate contacts, metrics, fitting, gates."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench_plugin_traversal import cells
from bench_plugin_traversal.geometry import (
    PAPER,
    STRICT,
    check_gates,
    count_crossings,
    degenerate_contacts,
    find_crossings,
    fit_to_view,
    point_segment_distance,
    segment_segment_distance,
    tortuosity,
    turn_angles,
)

FIXTURES = Path(__file__).parent / "fixtures"


def test_bowtie_has_one_crossing_at_known_point_and_angle():
    pts = np.array([[0.0, 0.0], [20.0, 10.0], [0.0, 10.0], [20.0, 0.0]])
    (c,) = find_crossings(pts)
    assert (c.seg_a, c.seg_b) == (0, 2)
    assert c.point == pytest.approx((10.0, 5.0))
    assert c.t == pytest.approx(0.5) and c.u == pytest.approx(0.5)
    assert c.angle_deg == pytest.approx(math.degrees(2 * math.atan(0.5)))
    assert degenerate_contacts(pts) == 0


def test_crossings_sorted_by_segment_then_parameter():
    # a long first segment crossed twice, the farther crossing listed second
    pts = np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 20.0], [70.0, -20.0], [30.0, -20.0], [10.0, 20.0]])
    cs = find_crossings(pts)
    assert [(c.seg_a, c.seg_b) for c in cs] == [(0, 4), (0, 2)]
    assert cs[0].t < cs[1].t


def test_adjacent_segments_never_count():
    # a sharp V: segments 0 and 1 share a vertex and nearly overlap but are adjacent
    pts = np.array([[0.0, 0.0], [100.0, 0.0], [0.0, 1.0]])
    assert find_crossings(pts) == []
    assert count_crossings(pts) == 0
    assert degenerate_contacts(pts) == 0


def test_fold_back_is_degenerate():
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 0.0]])
    assert find_crossings(pts) == []
    assert degenerate_contacts(pts) == 1


def test_touching_at_vertex_is_degenerate_not_crossing():
    # segment 2 ends exactly on segment 0
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [5.0, 0.0]])
    assert find_crossings(pts) == []
    assert degenerate_contacts(pts) == 1


def test_segment_through_vertex_is_degenerate():
    # segment 3 passes exactly through vertex (10, 0) shared by segments 0 and 1
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [4.0, 4.0], [16.0, -4.0]])
    assert find_crossings(pts) == []
    assert degenerate_contacts(pts) >= 1


def test_collinear_overlap_is_degenerate():
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 5.0], [15.0, 5.0], [15.0, 0.0], [5.0, 0.0]])
    assert find_crossings(pts) == []
    assert degenerate_contacts(pts) >= 1


def test_distances():
    assert point_segment_distance([0.0, 5.0], [-1.0, 0.0], [1.0, 0.0]) == pytest.approx(5.0)
    assert point_segment_distance([4.0, 3.0], [-1.0, 0.0], [1.0, 0.0]) == pytest.approx(math.hypot(3, 3))
    d = segment_segment_distance([0.0, 0.0], [10.0, 0.0], [0.0, 3.0], [10.0, 4.0])
    assert d == pytest.approx(3.0)
    assert segment_segment_distance([0.0, 0.0], [10.0, 10.0], [0.0, 10.0], [10.0, 0.0]) == 0.0
    # broadcasting over a batch
    a = np.zeros((5, 2))
    b = np.tile([10.0, 0.0], (5, 1))
    p = np.stack([np.full(5, 5.0), np.arange(5.0)], axis=1)
    assert point_segment_distance(p, a, b) == pytest.approx(np.arange(5.0))


def test_turn_angles():
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [20.0, 10.0], [10.0, 10.5]])
    ang = turn_angles(pts)
    assert ang[:2] == pytest.approx([90.0, 90.0])
    assert ang[2] > 170.0


def test_fit_to_view_longer_side_spans_inner_window():
    pts = np.array([[3.0, 1.0], [7.0, 2.0], [5.0, -4.0]])
    f = fit_to_view(pts)
    lo, hi = f.min(0), f.max(0)
    assert lo[1] == pytest.approx(40.32, abs=1e-9) and hi[1] == pytest.approx(631.68, abs=1e-9)
    assert (lo[0] + hi[0]) / 2 == pytest.approx(336.0)
    # shape preserved: tortuosity and crossings are invariant
    assert tortuosity(f) == pytest.approx(tortuosity(pts))


def test_gates_accept_clean_zigzag_and_reject_hairpin():
    zig = fit_to_view(np.array([[i, (i % 2) * 0.4] for i in range(9)], dtype=float))
    assert check_gates(zig, STRICT) == []
    hair = fit_to_view(np.array([[0, 0], [4, 0], [8, 0], [4, 0.3], [0, 0.6], [4, 3]], dtype=float))
    failed = check_gates(hair, PAPER)
    assert "hairpin" in failed


def test_strict_rejects_shallow_crossing_paper_accepts():
    # a shallow X: crossing angle ~ 22.6 deg
    pts2 = fit_to_view(np.array([[0.0, 0.0], [10.0, 2.0], [10.0, 0.0], [0.0, 2.0]]))
    (c,) = find_crossings(pts2)
    assert c.angle_deg < 25.0
    assert "crossing_angle" in check_gates(pts2, STRICT)
    assert "crossing_angle" not in check_gates(pts2, PAPER)


def _records():
    with open(FIXTURES / "published_backbones.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.mark.parametrize("rec", _records(), ids=lambda r: f"id{r['id']}")
def test_published_metrics_reproduced(rec):
    pts = np.array([[p["x"], p["y"]] for p in rec["points"]])
    assert count_crossings(pts) == rec["metrics"]["self_intersections"]
    assert len(find_crossings(pts)) == rec["metrics"]["self_intersections"]
    assert tortuosity(pts) == pytest.approx(rec["metrics"]["tortuosity"], rel=1e-12)
    assert cells.tortuosity_bin(tortuosity(pts)) == rec["target"]["tort_bin"]
    assert cells.crossing_bin(count_crossings(pts)) == rec["target"]["self_int_bin"]
    assert degenerate_contacts(pts) == 0
    # the published generator's gates (PAPER profile) accept every published record
    assert check_gates(pts, PAPER) == []
    # the stored points are already fitted to the view
    assert fit_to_view(pts) == pytest.approx(pts, abs=1e-6)


def test_fixture_covers_crossing_bins():
    bins = {r["target"]["self_int_bin"] for r in _records()}
    assert bins >= {0, 1, 2, 3, 4, 5}


# ---- property tests (integer coordinates keep the orientation predicates exact under the transforms)

polylines = st.lists(
    st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=4, max_size=12, unique=True
).map(lambda xs: np.array(xs, dtype=np.float64))


@settings(max_examples=150, deadline=None)
@given(pts=polylines, dx=st.integers(-1000, 1000), dy=st.integers(-1000, 1000), k=st.integers(-3, 3))
def test_crossing_count_invariant_under_similarity_and_reversal(pts, dx, dy, k):
    n = count_crossings(pts)
    assert count_crossings(pts + np.array([dx, dy])) == n
    assert count_crossings(pts * 2.0**k) == n
    assert count_crossings(np.stack([-pts[:, 1], pts[:, 0]], axis=1)) == n
    assert count_crossings(pts[::-1]) == n
    assert degenerate_contacts(pts[::-1]) == degenerate_contacts(pts)


@settings(max_examples=100, deadline=None)
@given(pts=polylines)
def test_tortuosity_at_least_one(pts):
    if np.any(pts[0] != pts[-1]):
        assert tortuosity(pts) >= 1.0


@settings(max_examples=100, deadline=None)
@given(pts=polylines)
def test_fit_to_view_extent(pts):
    f = fit_to_view(pts)
    ext = f.max(0) - f.min(0)
    ax = int(np.argmax(ext))
    assert f[:, ax].min() == pytest.approx(40.32, abs=1e-9)
    assert f[:, ax].max() == pytest.approx(631.68, abs=1e-9)
    assert ext.max() == pytest.approx(0.88 * 672, abs=1e-9)
    assert count_crossings(f) + degenerate_contacts(f) >= count_crossings(pts)


def test_cells_bins():
    assert cells.tortuosity_bin(1.0) == 0
    assert cells.tortuosity_bin(1.2999) == 0
    assert cells.tortuosity_bin(1.3) == 1
    assert cells.tortuosity_bin(86.0) == 5
    with pytest.raises(ValueError):
        cells.tortuosity_bin(0.9)
    assert [cells.crossing_bin(c) for c in (0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 13, 35)] == [
        0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    ]
    assert cells.crossing_range(6) == (13, None)
    assert cells.tortuosity_range(5) == (6.5, math.inf)
    assert all(len(c) == 33 for c in cells.POPULATED_CELLS.values())
    assert (1, 5) in cells.POPULATED_CELLS[15] and (5, 6) not in cells.POPULATED_CELLS[17]
