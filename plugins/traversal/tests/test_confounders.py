"""Tests for grey-spur placement (confounders.py): rules, counts, paired windows, determinism, failures."""

from __future__ import annotations

import json
import math
import time

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from bench_plugin_traversal import confounders as cf
from bench_plugin_traversal.confounders import (
    CONFOUND_WINDOWS,
    SPUR_STYLE,
    Spur,
    SpursUnplaceable,
    check_spurs,
    place_paired_spurs,
    place_spurs,
    spur_passage_index,
)

# --- hand-made backbones (view pixels, 672 px canvas) --------------------------------------------------

#: 9-vertex zig-zag across the canvas: 8 long steep segments (~376 px).
ZIGZAG9 = np.stack([np.linspace(60.0, 612.0, 9), np.where(np.arange(9) % 2 == 0, 180.0, 480.0)], axis=1)

#: 17-vertex gentle meander (short ~60-90 px segments; spurs clamp to 60-72 px).
_x = np.linspace(40.32, 631.68, 17)
MEANDER17 = np.stack([_x, 336.0 + 90.0 * np.sin(_x / 95.0)], axis=1)

#: A path whose segment 3 (horizontal, y = 300) runs exactly through the midpoint (300, 300) of segment 1
#: and also crosses segment 0: two true crossings; segment 1 must never host a spur.
CROSSING = np.array([[60.0, 560.0], [100.0, 100.0], [500.0, 500.0], [560.0, 300.0], [40.0, 300.0]])

#: 3 tiny segments: no midpoint is 20.5 px from every vertex.
TINY = np.array([[300.0, 300.0], [330.0, 300.0], [330.0, 330.0], [360.0, 330.0]])


def _crossings(points) -> list[tuple[float, float]]:
    """Proper crossings of non-adjacent segments, computed here with shapely (test-side oracle)."""
    segs = [LineString([points[k], points[k + 1]]) for k in range(len(points) - 1)]
    out = []
    for i in range(len(segs)):
        for j in range(i + 2, len(segs)):
            if segs[i].crosses(segs[j]):
                x = segs[i].intersection(segs[j])
                out.append((x.x, x.y))
    return out


def _angle_to_host(points, sp: Spur) -> float:
    h = points[sp.seg_idx + 1] - points[sp.seg_idx]
    s = np.subtract(sp.p1, sp.p0)
    c = abs(float(h @ s)) / (np.hypot(*h) * np.hypot(*s))
    return math.degrees(math.acos(min(1.0, c)))


# --- constants and record ------------------------------------------------------------------------------


def test_constants_match_spec():
    assert SPUR_STYLE == {"stroke": "#7a7a7a", "width_px": 3.2}
    assert CONFOUND_WINDOWS == {"low": (2, 4), "high": (5, 7)}


def test_spur_record_is_frozen_and_json_friendly():
    sp = Spur(3, 0.5, (1, 2), np.array([4.0, 6.0]))
    assert sp.p0 == (1.0, 2.0) and sp.p1 == (4.0, 6.0)
    assert sp.length == pytest.approx(5.0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        sp.seg_idx = 1  # type: ignore[misc]
    d = json.loads(json.dumps(sp.as_dict()))
    assert d == {"seg_idx": 3, "anchor_t": 0.5, "p0": [1.0, 2.0], "p1": [4.0, 6.0]}
    assert Spur.from_dict(d) == sp


def test_spur_length_clamp():
    assert cf.spur_length_for(40.0) == 60.0
    assert cf.spur_length_for(100.0) == 80.0
    assert cf.spur_length_for(400.0) == 100.0


def test_passage_index_is_first_post_spur_token():
    assert spur_passage_index(Spur(0, 0.5, (0, 0), (1, 1))) == 1
    assert spur_passage_index(Spur(7, 0.5, (0, 0), (1, 1))) == 8


# --- placement ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(8))
@pytest.mark.parametrize("backbone", [ZIGZAG9, MEANDER17], ids=["zigzag9", "meander17"])
def test_exact_count_and_all_rules(backbone, count):
    cps = _crossings(backbone)
    for seed in range(5):
        spurs = place_spurs(np.random.default_rng(seed), backbone, cps, count)
        assert len(spurs) == count
        assert check_spurs(backbone, cps, spurs) == []
        idx = [s.seg_idx for s in spurs]
        assert idx == sorted(set(idx))  # one per segment, sorted
        for s in spurs:
            a, b = backbone[s.seg_idx], backbone[s.seg_idx + 1]
            assert s.anchor_t == 0.5
            # the spur ends are quantised to 1/100 px (geometry.quantise_points)
            assert np.allclose(s.p0, 0.5 * (a + b), rtol=0, atol=0.005)
            assert s.length == pytest.approx(cf.spur_length_for(float(np.hypot(*(b - a)))), abs=0.02)
            assert 30.0 - 0.02 <= _angle_to_host(backbone, s) <= 90.0 + 0.02
            assert all(6.0 <= c <= 666.0 for c in s.p1)


def test_perpendicular_is_first_choice():
    # A single long horizontal segment in open space: both perpendicular sides are free.
    line = np.array([[100.0, 336.0], [572.0, 336.0]])
    sides = set()
    for seed in range(20):
        (sp,) = place_spurs(np.random.default_rng(seed), line, [], 1)
        assert _angle_to_host(line, sp) == pytest.approx(90.0, abs=0.02)
        assert sp.length == pytest.approx(100.0, abs=0.02)
        sides.add(np.sign(sp.p1[1] - sp.p0[1]))
    assert sides == {-1.0, 1.0}  # either side is used


def test_rotates_away_from_perpendicular_when_blocked():
    # In the steep zig-zag a perpendicular 100-px spur runs into the neighbouring segments, so the placer
    # must fall back to rotated directions (>= 30 degrees to the host) and still pass the re-check.
    angles = []
    for seed in range(10):
        spurs = place_spurs(np.random.default_rng(seed), ZIGZAG9, [], 7)
        assert check_spurs(ZIGZAG9, [], spurs) == []
        angles += [_angle_to_host(ZIGZAG9, s) for s in spurs]
    assert min(angles) >= 30.0 - 0.02
    assert any(a < 89.0 for a in angles)
    # A right-angle wedge: spurs on both legs still pass.
    wedge = np.array([[100.0, 500.0], [500.0, 500.0], [500.0, 100.0]])
    for seed in range(10):
        assert check_spurs(wedge, [], place_spurs(np.random.default_rng(seed), wedge, [], 2)) == []


@pytest.mark.parametrize("given_crossings", [True, False], ids=["given", "recomputed"])
def test_no_anchor_near_crossing(given_crossings):
    cps = _crossings(CROSSING)
    assert len(cps) == 2 and any(math.dist(c, (300.0, 300.0)) < 1e-9 for c in cps)
    placed = 0
    for seed in range(30):
        for count in (1, 2, 3):
            try:
                spurs = place_spurs(
                    np.random.default_rng(seed), CROSSING, cps if given_crossings else [], count
                )
            except SpursUnplaceable:
                continue
            placed += 1
            assert check_spurs(CROSSING, cps, spurs) == []
            for s in spurs:
                # segment 1's midpoint is the crossing: it may only host a spur at an off-centre anchor
                assert s.seg_idx != 1 or s.anchor_t != 0.5
                assert min(math.dist(s.p0, c) for c in cps) >= 22.0
    assert placed > 0


def test_determinism():
    a = place_paired_spurs(np.random.default_rng(42), MEANDER17, [])
    b = place_paired_spurs(np.random.default_rng(42), MEANDER17, [])
    assert a == b
    c = place_spurs(np.random.default_rng(7), ZIGZAG9, [], 5)
    d = place_spurs(np.random.default_rng(7), ZIGZAG9, [], 5)
    assert c == d


def test_paired_windows():
    seen = {"low": set(), "high": set()}
    for seed in range(40):
        pair = place_paired_spurs(np.random.default_rng(seed), ZIGZAG9, [])
        assert set(pair) == {"low", "high"}
        for name, spurs in pair.items():
            lo, hi = CONFOUND_WINDOWS[name]
            assert lo <= len(spurs) <= hi
            assert check_spurs(ZIGZAG9, [], spurs) == []
            seen[name].add(len(spurs))
    assert seen == {"low": {2, 3, 4}, "high": {5, 6, 7}}


def test_paired_raises_when_high_cannot_fit():
    # Three long segments can host at most three spurs: the high window (5-7) cannot be met.
    pts = np.array([[100.0, 100.0], [560.0, 100.0], [560.0, 560.0], [100.0, 560.0]])
    with pytest.raises(SpursUnplaceable):
        place_paired_spurs(np.random.default_rng(0), pts, [])


def test_unplaceable_on_tiny_backbone():
    with pytest.raises(SpursUnplaceable, match="host a spur"):
        place_spurs(np.random.default_rng(0), TINY, [], 1)
    with pytest.raises(SpursUnplaceable):
        place_spurs(np.random.default_rng(0), ZIGZAG9, [], 9)  # only 8 segments
    assert place_spurs(np.random.default_rng(0), TINY, [], 0) == ()


def test_bad_input():
    with pytest.raises(ValueError):
        place_spurs(np.random.default_rng(0), ZIGZAG9, [], -1)
    with pytest.raises(ValueError):
        place_spurs(np.random.default_rng(0), np.zeros((1, 2)), [], 1)


def test_speed_seven_spurs_on_17_vertices():
    rng = np.random.default_rng(0)
    place_spurs(rng, MEANDER17, [], 7)  # warm-up
    t = time.perf_counter()
    n = 50
    for _ in range(n):
        place_spurs(rng, MEANDER17, [], 7)
    per_call_ms = (time.perf_counter() - t) / n * 1e3
    assert per_call_ms < 25.0  # a few ms in practice; loose bound against slow CI machines


# --- the independent re-check flags broken placements ---------------------------------------------------


def _good_spurs():
    return place_spurs(np.random.default_rng(3), ZIGZAG9, [], 3)


def test_check_flags_off_midpoint_and_wrong_length():
    s = _good_spurs()[0]
    moved = attrs.evolve(s, p0=(s.p0[0] + 3.0, s.p0[1]), p1=(s.p1[0] + 3.0, s.p1[1]))
    assert "spur_anchor_midpoint" in check_spurs(ZIGZAG9, [], [moved])
    p0, p1 = np.array(s.p0), np.array(s.p1)
    short = attrs.evolve(s, p1=tuple(p0 + 0.5 * (p1 - p0)))
    assert "spur_length" in check_spurs(ZIGZAG9, [], [short])
    assert "spur_anchor_midpoint" in check_spurs(ZIGZAG9, [], [attrs.evolve(s, anchor_t=0.4)])


def test_check_flags_duplicates_index_and_spur_spur():
    spurs = _good_spurs()
    assert "spur_duplicate_segment" in check_spurs(ZIGZAG9, [], [spurs[0], spurs[0]])
    assert "spur_seg_idx" in check_spurs(ZIGZAG9, [], [attrs.evolve(spurs[0], seg_idx=8)])
    assert "spur_spur_clearance" in check_spurs(ZIGZAG9, [], [spurs[0], spurs[0]])


def test_check_flags_crossing_glyph_canvas_and_angle():
    line = np.array([[100.0, 336.0], [300.0, 336.0], [500.0, 336.0]])
    # a spur on segment 0 tilted 10 degrees: too shallow and hugging its host
    mid = np.array([200.0, 336.0])
    d = np.array([math.cos(math.radians(10)), -math.sin(math.radians(10))]) * 100.0
    shallow = Spur(0, 0.5, tuple(mid), tuple(mid + d))
    codes = check_spurs(line, [], [shallow])
    assert "spur_angle" in codes and "spur_backbone_clearance" in codes
    # a spur running towards another segment of the path
    zz = np.array([[100.0, 300.0], [300.0, 300.0], [300.0, 500.0]])
    dx = -math.sqrt(100.0**2 - 95.0**2)
    hit = Spur(1, 0.5, (300.0, 400.0), (300.0 + dx, 305.0))
    assert "spur_backbone_clearance" in check_spurs(zz, [], [hit])
    # a spur passing 10 px from a glyph it does not belong to
    glyph = np.array([[100.0, 300.0], [300.0, 300.0], [300.0, 500.0], [190.0, 390.0]])
    assert "spur_glyph_exclusion" in check_spurs(glyph, [], [Spur(0, 0.5, (200.0, 300.0), (200.0, 400.0))])
    # off canvas
    edge = np.array([[40.32, 40.32], [40.32, 631.68]])
    out = Spur(0, 0.5, (40.32, 336.0), (40.32 - 100.0, 336.0))
    assert check_spurs(edge, [], [out]) == ["spur_canvas"]
    # anchor on a crossing (crossing list given explicitly)
    assert "spur_anchor_crossing" in check_spurs(
        line, [(200.0, 340.0)], [Spur(0, 0.5, (200, 336), (200, 236))]
    )
    # crossing the backbone
    loop = np.array([[100.0, 300.0], [500.0, 300.0], [500.0, 380.0], [100.0, 380.0]])
    cross = Spur(0, 0.5, (300.0, 300.0), (300.0, 400.0))
    assert "spur_crosses_backbone" in check_spurs(loop, [], [cross])


# --- property: everything the placer emits passes the re-check ------------------------------------------


@st.composite
def _backbones(draw):
    """Random polylines in the canvas: half random walks with 40-160 px steps, half arbitrary points."""
    n = draw(st.integers(3, 17))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        pts = [rng.uniform(150, 520, 2)]
        heading = rng.uniform(0, 2 * np.pi)
        for _ in range(n - 1):
            heading += rng.normal(0, 1.0)
            step = rng.uniform(40, 160)
            pts.append(np.clip(pts[-1] + step * np.array([np.cos(heading), np.sin(heading)]), 40.32, 631.68))
        return np.array(pts)
    return rng.uniform(40.32, 631.68, size=(n, 2))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(backbone=_backbones(), seed=st.integers(0, 2**32 - 1), count=st.integers(1, 7))
def test_property_every_placement_passes_recheck(backbone, seed, count):
    cps = _crossings(backbone)
    try:
        spurs = place_spurs(np.random.default_rng(seed), backbone, cps, count)
    except SpursUnplaceable:
        return
    assert len(spurs) == count
    assert check_spurs(backbone, cps, spurs) == []


def test_many_seeds_on_fixtures_pass_recheck():
    for backbone in (ZIGZAG9, MEANDER17, CROSSING):
        cps = _crossings(backbone)
        for seed in range(60):
            try:
                pair = place_paired_spurs(np.random.default_rng(seed), backbone, cps)
            except SpursUnplaceable:
                continue
            for spurs in pair.values():
                assert check_spurs(backbone, cps, spurs) == []
