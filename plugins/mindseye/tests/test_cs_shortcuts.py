"""VCS (conceptual slippage): the second round of speed shortcuts give exactly what they replace.

The affine maps applied to coordinate arrays (``affine_each``, ``affine_chain``, ``rotation``) against
``shapely.affinity``; the mirror image of a symmetry pair against the three affinity calls it was first made
with; the versions a builder declares ``sure`` (border, hollowness: made only when asked for) against making
every one; the verifier's shape kinds read for all marks at once against the profile of one ring at a time as
first written."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely import affinity
from shapely.geometry import box

from bench_plugin_mindseye.slippage_concepts import BUILDERS, Unbuildable, _mirrored
from bench_plugin_mindseye.slippage_panels import (
    affine_chain,
    affine_each,
    draw_look,
    outline,
    rotation,
    shape_polygon,
)
from bench_plugin_mindseye.verifiers import conceptual_slippage as verifier

KINDS = ("circle", "square", "triangle", "pentagon", "hexagon", "star", "diamond", "ellipse")


def _shapes(seed: int, count: int):
    """Filled shapes and outlines (with a hole) of every kind, at random places, sizes and turns."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        shape = shape_polygon(KINDS[k % len(KINDS)], rng.uniform(0.1, 0.9, 2), rng.uniform(0.04, 0.2),
                              rng.uniform(0, 2 * np.pi))
        yield outline(shape, 0.01) if k % 3 == 0 else shape


def test_affine_maps_are_shapelys_bit_for_bit():
    rng = np.random.default_rng(5)
    shapes = list(_shapes(6, 240))
    same = 0
    for shape in shapes:
        dx, dy = rng.uniform(-0.3, 0.3, 2).tolist()
        scale = float(rng.uniform(0.4, 1.6))
        matrix = [scale, 0.0, 0.0, scale, *rng.uniform(-0.2, 0.2, 2).tolist()]
        angle = float(rng.uniform(-7, 7))
        origin = tuple(rng.uniform(0, 1, 2).tolist())
        same += shapely.equals_identical(affine_each([shape], [(1.0, 0.0, 0.0, 1.0, dx, dy)])[0],
                                         affinity.translate(shape, dx, dy))
        same += shapely.equals_identical(affine_each([shape], [matrix])[0], affinity.affine_transform(shape, matrix))
        same += shapely.equals_identical(affine_each([shape], [rotation(angle, origin)])[0],
                                         affinity.rotate(shape, angle, origin=origin, use_radians=True))
    assert same == 3 * len(shapes)
    # many polygons, each by its own map, in one pass
    matrices = [[float(s), 0.0, 0.0, float(s), float(x), float(y)]
                for s, x, y in rng.uniform(0.5, 1.5, (len(shapes), 3))]
    for moved, shape, matrix in zip(affine_each(shapes, matrices), shapes, matrices, strict=True):
        assert shapely.equals_identical(moved, affinity.affine_transform(shape, matrix))
    # a chain of maps on a polygon without holes, and the quarter turns whose sine or cosine shapely zeroes
    for shape in shapes:
        if shape.interiors:
            continue
        turn = float(rng.choice([0.0, np.pi / 2, np.pi, -np.pi / 2, rng.uniform(-4, 4)]))
        chained = affine_chain(shape, [rotation(turn, (0.5, 0.5)), (1.0, 0.0, 0.0, 1.0, 0.1, -0.2)])
        expected = affinity.translate(affinity.rotate(shape, turn, origin=(0.5, 0.5), use_radians=True), 0.1, -0.2)
        assert shapely.equals_identical(chained, expected)


@pytest.mark.parametrize("axis", [0.0, 45.0, 90.0, 135.0])
def test_a_mirror_image_is_the_three_affinity_calls_it_replaces(axis):
    for shape in _shapes(int(axis) + 1, 80):
        if shape.interiors:
            continue
        expected = affinity.rotate(affinity.scale(affinity.rotate(shape, -axis, origin=(0.5, 0.5)), 1, -1,
                                                  origin=(0.5, 0.5)), axis, origin=(0.5, 0.5))
        assert shapely.equals_identical(_mirrored(shape, axis), expected)


def test_a_mirror_image_reflects_about_the_axis_through_the_panel_centre():
    shape = box(0.1, 0.2, 0.3, 0.45)
    assert _mirrored(shape, 90.0).symmetric_difference(box(0.7, 0.2, 0.9, 0.45)).area < 1e-12  # vertical axis
    assert _mirrored(shape, 0.0).symmetric_difference(box(0.1, 0.55, 0.3, 0.8)).area < 1e-12  # horizontal axis
    assert _mirrored(shape, 45.0).symmetric_difference(box(0.2, 0.1, 0.45, 0.3)).area < 1e-12  # y = x


@pytest.mark.parametrize("concept", ["border", "hollowness"])
def test_sure_versions_can_all_be_made_whenever_the_conformer_can(concept):
    """Border and hollowness versions are made only when asked for, without the proof that one can be made
    (``Versions.sure``): every version of every buildable draw can be made, and making them leaves the
    generator where it was."""
    meta = np.random.default_rng(17)
    built = 0
    for _ in range(150):
        slippage, strength = ("low", "strong") if meta.random() < 0.5 else ("high", "weak")
        majority = str(meta.choice({"border": ["thick", "thin"], "hollowness": ["solid", "hollow"]}[concept]))
        rng = np.random.default_rng(int(meta.integers(1 << 30)))
        look = draw_look(rng, concept, slippage, "pentagon", None)
        try:
            plain, versions = BUILDERS[concept](rng, look, strength, majority)
        except Unbuildable:
            continue
        assert versions.sure
        state = rng.bit_generator.state
        made = versions.every()
        assert rng.bit_generator.state == state
        assert len(made) == len(versions._recipes)  # no version is refused
        assert all(len(marks) == len(plain) for marks in made)
        built += 1
    assert built > 60


def _profile_as_first_written(ring: np.ndarray) -> np.ndarray:
    """``outline_profile`` of one ring, one step at a time as first written."""
    ring = np.asarray(ring, dtype=float)
    closed = np.vstack([ring, ring[:1]])
    length = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(closed, axis=0).T))])
    t = np.linspace(0.0, length[-1], 8 * verifier.PROFILE_BINS, endpoint=False)
    points = np.column_stack([np.interp(t, length, closed[:, 0]), np.interp(t, length, closed[:, 1])])
    hull = shapely.convex_hull(shapely.multipoints(ring))
    offset = points - np.array(hull.centroid.coords[0])
    bins = np.floor((np.arctan2(offset[:, 1], offset[:, 0]) + np.pi) / (2 * np.pi) * verifier.PROFILE_BINS)
    profile = np.full(verifier.PROFILE_BINS, -1.0)
    np.maximum.at(profile, bins.astype(int) % verifier.PROFILE_BINS, np.hypot(*offset.T))
    seen = profile >= 0
    index = np.arange(verifier.PROFILE_BINS)
    profile = np.interp(index, index[seen], profile[seen], period=verifier.PROFILE_BINS)
    return profile / profile.mean()


def _distance_as_first_written(profile: np.ndarray, others: np.ndarray) -> np.ndarray:
    both = np.concatenate([others, others[:, ::-1]])
    correlation = np.fft.irfft(np.fft.rfft(both, axis=1) * np.conj(np.fft.rfft(profile)), n=verifier.PROFILE_BINS,
                               axis=1)
    squares = (profile ** 2).sum() + (both ** 2).sum(axis=1, keepdims=True) - 2.0 * correlation
    best = np.sqrt(np.maximum(squares, 0.0).min(axis=1) / verifier.PROFILE_BINS)
    return np.minimum(best[:len(others)], best[len(others):])


def test_shape_kinds_read_all_at_once_are_read_one_at_a_time():
    shapes = list(_shapes(9, 120))
    # a ring sampled so coarsely that some directions see no outline point (filled in by interpolation)
    shapes.append(shapely.Polygon([(0.1, 0.1), (0.9, 0.12), (0.5, 0.13)]))
    rings = [np.asarray(s.exterior.coords)[:-1] for s in shapes]
    profiles = verifier.outline_profiles(rings)
    templates = np.array([_profile_as_first_written(verifier._kind_outline(kind)) for kind in verifier.KINDS])
    assert np.array_equal(templates, verifier._KIND_PROFILES)
    expected_kinds = []
    for ring, profile, shape in zip(rings, profiles, shapes, strict=True):
        first = _profile_as_first_written(ring)
        assert np.array_equal(profile, first)
        distance = _distance_as_first_written(first, templates)
        assert np.array_equal(verifier.profile_distance(first, templates), distance)
        nearest, second = np.argsort(distance)[:2]
        kind = (verifier.KINDS[int(nearest)] if distance[nearest] <= verifier.KIND_MATCH
                and distance[second] >= verifier.KIND_APART else verifier.UNDECIDED)
        if not shape.interiors and verifier._relative_stroke(shape) < verifier.SOLID:
            kind = None
        expected_kinds.append(kind)
    assert verifier.mark_kinds(shapes) == expected_kinds
    assert [verifier.mark_kind(s) for s in shapes] == expected_kinds
    assert {k for k in expected_kinds} >= set(KINDS)  # every kind is read


def _fill_as_first_written(marks, side):
    """``verifiers.conceptual_slippage._fill_marks`` over the whole panel, as first written."""
    starts, ends, weights = [], [], []
    for k, rings in enumerate(marks):
        for r, ring in enumerate(rings):
            nxt = np.roll(ring, -1, axis=0)
            area = float((ring[:, 0] * nxt[:, 1] - nxt[:, 0] * ring[:, 1]).sum())
            turn = (1.0 if area > 0 else -1.0) * (1.0 if r == 0 else -1.0)
            weights.append(-np.sign(nxt[:, 1] - ring[:, 1]) * turn * (k + 1))
            starts.append(ring)
            ends.append(nxt)
    labels = np.full((side, side), -1, dtype=np.int16)
    if not starts:
        return labels
    p, q, w = np.vstack(starts), np.vstack(ends), np.concatenate(weights)
    sloped = w != 0
    p, q, w = p[sloped], q[sloped], w[sloped]
    low, high = np.minimum(p[:, 1], q[:, 1]), np.maximum(p[:, 1], q[:, 1])
    first = np.clip(np.ceil(low - 0.5), 0, side).astype(np.int64)
    last = np.clip(np.ceil(high - 0.5), 0, side).astype(np.int64)
    counts = np.maximum(last - first, 0)
    edge = np.repeat(np.arange(len(w)), counts)
    rows = first[edge] + np.arange(len(edge)) - np.repeat(np.cumsum(counts) - counts, counts)
    x = p[edge, 0] + (rows + 0.5 - p[edge, 1]) * (q[edge, 0] - p[edge, 0]) / (q[edge, 1] - p[edge, 1])
    columns = np.clip(np.ceil(x - 0.5), 0, side).astype(np.int64)
    steps = np.bincount(rows * (side + 1) + columns, weights=w[edge], minlength=side * (side + 1))
    labels[:] = np.rint(np.cumsum(steps.reshape(side, side + 1)[:, :side], axis=1)).astype(np.int16) - 1
    return labels


def test_the_fill_in_the_window_of_the_marks_is_the_whole_panels_fill():
    rng = np.random.default_rng(23)
    shapes = list(_shapes(29, 200))
    side = 120
    for start in range(0, len(shapes), 4):
        marks = []
        for shape in shapes[start:start + 4]:
            shift = rng.uniform(-0.3, 0.3, 2)  # some marks reach past the panel's edges
            marks.append([(np.asarray(ring.coords)[:-1] + shift) * side for ring in (shape.exterior, *shape.interiors)])
        assert np.array_equal(verifier._fill_marks(marks, side), _fill_as_first_written(marks, side))
    assert np.array_equal(verifier._fill_marks([], side), _fill_as_first_written([], side))
    outside = [[np.array([[-5.0, -5.0], [-1.0, -5.0], [-1.0, -1.0]])]]  # no pixel centre crossed
    assert np.array_equal(verifier._fill_marks(outside, side), _fill_as_first_written(outside, side))


def test_a_chain_of_maps_refuses_a_polygon_with_holes():
    with pytest.raises(ValueError, match="without holes"):
        affine_chain(outline(shape_polygon("circle", (0.5, 0.5), 0.2, 0.0), 0.02), [(1.0, 0.0, 0.0, 1.0, 0.1, 0.1)])
