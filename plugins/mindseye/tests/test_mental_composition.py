"""Mental Composition (MC): solids, valid nets, the refolding solver, every distractor template really wrong,
colour-confound balance, difficulty knobs, and the core's conformance suite over the task."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.host import create_host
from bench_plugin_mindseye import mental_composition as mc
from bench_plugin_mindseye.descriptions.mental_composition import TASK


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-mental-composition", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

    def bench_host(self):
        return _HOST


#: Every solid the task can show, in every proportion it uses.
ALL_SOLIDS = (
    [("cube", ())]
    + [("cuboid", tuple(float(d) for d in dims)) for dims in mc.CUBOIDS]
    + [("triangular_prism", (x,)) for x in mc.PRISM_LENGTHS]
    + [("square_pyramid", (h,)) for h in mc.PYRAMID_HEIGHTS]
    + [("cone", (r,)) for r in mc.CONE_RATIOS]
    + [("tetrahedron", ()), ("triangular_pyramid", (mc.TALL_TETRA_HEIGHT,)), ("octahedron", ()),
       ("bipyramid", (mc.STRETCHED_OCTA,)), ("dodecahedron", ()), ("dodecahedron", (mc.STRETCHED_ROUND,)),
       ("icosahedron", ()), ("icosahedron", (mc.STRETCHED_ROUND,)), ("pentagonal_prism", ()),
       ("hexagonal_prism", ()), ("pentagonal_pyramid", ()), ("hexagonal_pyramid", ()), ("cylinder", (1.5,))]
)


def _same_solid(a, b) -> bool:
    """Same kind and proportions; a cuboid equals any reordering of its edge lengths."""
    if a[0] == b[0] == "cuboid":
        return sorted(a[1]) == sorted(b[1])
    return a == b


@functools.cache
def _stimulus(seed: int, difficulty: str, **params):
    return mc.TASK.build(np.random.default_rng(seed), difficulty, {"size": "600x800", **params})


def _net(kind, proportion, seed=0):
    return mc.TASK._net(np.random.default_rng(seed), kind, proportion, (200, 100, 100))


# -- solids and nets -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "faces", "sides"), [
    ("cube", 6, {4}), ("tetrahedron", 4, {3}), ("octahedron", 8, {3}), ("dodecahedron", 12, {5}),
    ("icosahedron", 20, {3}), ("triangular_prism", 5, {3, 4}), ("square_pyramid", 5, {3, 4}),
])
def test_hull_faces_are_complete_and_point_outwards(kind, faces, sides):
    vertices, cycles = mc.polyhedron(kind, ())
    assert len(cycles) == faces and {len(c) for c in cycles} == sides
    centre = vertices.mean(axis=0)
    for cycle in cycles:
        p = vertices[list(cycle)]
        normal = np.cross(p[1] - p[0], p[2] - p[0])
        assert normal @ (p.mean(axis=0) - centre) > 0
    edges = {frozenset((c[k], c[(k + 1) % len(c)])) for c in cycles for k in range(len(c))}
    assert len(vertices) - len(edges) + len(cycles) == 2  # Euler: a closed convex surface


@pytest.mark.parametrize(("kind", "proportion"), [s for s in ALL_SOLIDS if s[0] in mc.SIMPLE + mc.COMPLEX])
def test_nets_are_valid_unfoldings_of_their_solid(kind, proportion):
    for seed in range(3):
        net = _net(kind, proportion, seed)
        if kind == "cone":
            assert net.radius * net.sweep == pytest.approx(2 * math.pi * net.circle)  # the arc wraps the base
            continue
        vertices, faces = mc.polyhedron(kind, proportion)
        assert len(net.faces) == len(faces) and len(net.hinges) == len(faces) - 1  # a spanning tree
        assert mc.net_is_clean(net.faces, net.hinges)
        assert mc.refolds_onto(net, vertices, faces)
        # the drawn faces keep the solid's true edge lengths, so proportions match the rendered solid
        flat = sorted(round(float(np.linalg.norm(f[(k + 1) % len(f)] - f[k])), 6) for f in net.faces
                      for k in range(len(f)))
        solid = sorted(round(float(np.linalg.norm(vertices[c[(k + 1) % len(c)]] - vertices[c[k]])), 6)
                       for c in faces for k in range(len(c)))
        assert flat == pytest.approx(solid)


def test_a_cuboid_net_has_the_cuboids_rectangles():
    net = _net("cuboid", (1.0, 1.0, 3.0))
    sides = sorted(tuple(sorted(np.round(np.linalg.norm(np.diff(f, axis=0, append=f[:1]), axis=1), 6)))
                   for f in net.faces)
    assert sides == [(1, 1, 1, 1)] * 2 + [(1, 1, 3, 3)] * 4


def _shift(polygon: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return polygon + np.array([dx, dy])


def test_overlapping_or_loosely_touching_layouts_are_rejected():
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    assert mc.net_is_clean([square, _shift(square, 1, 0)], [(0, 1, 1, 3)])
    assert not mc.net_is_clean([square, _shift(square, 0.5, 0)], [(0, 1, 1, 3)])  # overlap
    # three in a row hinged 0-1 and 1-2, plus a fourth touching face 2 along an edge without a hinge there
    row = [square, _shift(square, 1, 0), _shift(square, 2, 0), _shift(square, 2, 1)]
    assert not mc.net_is_clean(row, [(0, 1, 1, 3), (1, 1, 2, 3), (1, 2, 3, 0)])


def test_a_strip_of_six_squares_does_not_fold_into_a_cube():
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    strip = mc.PolyNet([_shift(square, k, 0) for k in range(6)], [(k, 1, k + 1, 3) for k in range(5)], (0, 0, 0))
    vertices, faces = mc.polyhedron("cube", ())
    assert mc.net_is_clean(strip.faces, strip.hinges)  # flat and tidy, but not a net
    assert not mc.refolds_onto(strip, vertices, faces)
    cross = _net("cube", ())
    assert mc.refolds_onto(cross, vertices, faces)


@pytest.mark.parametrize("target", [s for s in ALL_SOLIDS if s[0] in mc.SIMPLE + mc.COMPLEX])
def test_the_solver_accepts_only_the_solid_the_net_came_from(target):
    net = _net(*target, seed=7)
    rng = np.random.default_rng(0)
    for other in ALL_SOLIDS:
        solid = mc.Solid(*other, (10, 20, 30), mc.presentation(rng, other[0]))
        assert mc.folds_into(net, solid) == _same_solid(target, other), other


# -- items ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_exactly_one_option_folds_and_each_template_is_its_error(difficulty):
    for seed in range(15):
        stimulus = _stimulus(seed, difficulty)
        options = list(stimulus.options)
        assert mc.TASK.solve(stimulus, options) == [k for k, o in enumerate(options) if o.role == "correct"]
        by = {o.template: o.content for o in options}
        target = by["folded_net"]
        family = mc.FAMILY.get(target.kind, target.kind)
        assert len({(o.content.kind, tuple(sorted(o.content.proportion))) for o in options}) == 4
        if "similar_face_count" in by:
            similar = by["similar_face_count"]
            assert mc.FAMILY.get(similar.kind, similar.kind) != family
            gap = abs(mc.FACES[similar.kind] - mc.FACES[target.kind])
            assert gap == min(abs(mc.FACES[k] - mc.FACES[target.kind]) for k in mc.FACES
                              if mc.FAMILY.get(k, k) != family)
        if "proportion" in by:
            variant = by["proportion"]
            assert mc.FAMILY.get(variant.kind, variant.kind) == family
            assert not _same_solid((variant.kind, variant.proportion), (target.kind, target.proportion))
        net_colour = stimulus.query[0].colour
        if "colour_match" in by:
            assert by["colour_match"].colour == net_colour
            assert all(o.content.colour != net_colour for o in options if o.role == "filler")
        else:
            assert {o.content.colour for o in options} == {net_colour}  # one colour for everything


def test_colour_is_no_cue_when_colour_confounds_are_on():
    shares = [_stimulus(200 + s, "medium").facts["correct_shares_net_colour"] for s in range(45)]
    assert 0.12 <= sum(shares) / len(shares) <= 0.6  # one time in three, like the 1/4 chance per option


def test_difficulty_knobs_follow_the_paper():
    for seed in range(10):
        easy, medium, hard = (_stimulus(seed, d) for d in ("easy", "medium", "hard"))
        assert easy.facts["net_solid"] in mc.SIMPLE and not easy.facts["knobs"]["colour_confound"]
        assert hard.facts["net_solid"] in mc.COMPLEX and hard.facts["knobs"]["colour_confound"]
        assert medium.facts["knobs"] == {"solids": "mixed", "colour_confound": True}
        assert "colour_match" not in {o.template for o in easy.options}
        assert any(o.role == "confound" and o.template == "colour_match" for o in hard.options)


def test_explicit_knobs_override_the_difficulty_defaults():
    plain_hard = _stimulus(3, "hard", colour_confound=False)
    assert plain_hard.facts["net_solid"] in mc.COMPLEX
    assert {o.template for o in plain_hard.options} == {"folded_net", "similar_face_count", "proportion",
                                                        "different_solid"}
    simple = _stimulus(3, "hard", solids="simple")
    assert simple.facts["net_solid"] in mc.SIMPLE


def test_rendered_solids_share_one_scale():
    stimulus = _stimulus(4, "medium")
    scales = {o.content.relative_scale for o in stimulus.options}
    assert len(scales) == 1 and scales.pop() > 0


# -- sizes: no nuisance feature points at the answer -------------------------------------------------------
def _order(values):
    return [int(k) for k in np.argsort(values)]


@pytest.mark.parametrize("rank", range(4))
def test_balanced_scales_put_the_answer_at_the_drawn_rank_in_every_feature(rank):
    # four "shapes" whose ink and box area disagree at equal scale (the answer the most compact and inkiest,
    # as a regular solid among stretched ones)
    ink, box = np.array([0.8, 0.5, 0.6, 0.45]), np.array([0.95, 0.9, 0.8, 1.0])
    floors = {"ink": 0.0, "extent": 0.0}

    def measure(scales):
        return [{"ink": i * s * s, "extent": b * s * s, "reach": math.sqrt(b) * s}
                for i, b, s in zip(ink, box, scales, strict=True)]

    scales = mc.balanced_scales(np.random.default_rng(rank), measure, 4, {"ink": 2.0, "extent": 2.0}, rank,
                                1.8, floors)
    assert scales is not None and scales.max() == pytest.approx(1.0)
    features = measure(scales)
    orders = {name: _order([f[name] for f in features]) for name in ("ink", "extent")}
    assert orders["ink"] == orders["extent"] and orders["ink"].index(0) == rank
    reach = [f["reach"] for f in features]
    assert max(reach) / min(reach) <= mc.SIZE_RANGE + 1e-9
    for name in ("ink", "extent"):
        v = sorted(f[name] for f in features)
        assert v[2] - v[0] > v[3] - v[2]  # the smallest is the most atypical, whoever it is


def test_size_ink_and_saturation_follow_one_order_with_the_right_solid_anywhere():
    side = mc.TASK.layout("600x800").tile
    ranks = set()
    for seed in range(16):
        stimulus = _stimulus(seed, ("easy", "medium", "hard")[seed % 3])
        features = [mc.raster3d.panel_features(mc.TASK.draw_option(o.content, side)) for o in stimulus.options]
        orders = {name: _order([f[name] for f in features]) for name in ("ink", "extent", "saturation")}
        assert len({tuple(o) for o in orders.values()}) == 1, orders
        answer = next(k for k, o in enumerate(stimulus.options) if o.role == "correct")
        ranks.add(orders["ink"].index(answer))
        sizes = sorted(o.content.size for o in stimulus.options)
        assert sizes[-1] == pytest.approx(1.0) and sizes[0] > 0.3
    assert ranks == {0, 1, 2, 3}
