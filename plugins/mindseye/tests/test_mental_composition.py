"""Mental Composition (MC): solids, valid nets, the generator's refolding check and the artefact verifier's own
folding, every distractor template really wrong, options that say nothing about the answer on their own,
colour-confound balance, difficulty knobs, the faults verify must catch, and the core's conformance suite."""

from __future__ import annotations

import copy
import functools
import math
from collections import Counter
from pathlib import Path

import attrs
import numpy as np
import pytest

from bench_core import (
    ConformanceSuite,
    assert_rejected,
    build_item,
    create_host,
    decode_png,
    hookimpl,
    plan,
    verify_item,
)
from bench_plugin_mindseye import mental_composition as mc
from bench_plugin_mindseye import nuisance
from bench_plugin_mindseye.descriptions.mental_composition import TASK
from bench_plugin_mindseye.layout import Layout
from bench_plugin_mindseye.verifiers import mental_composition as verifier


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-mental-composition", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return _HOST


SIDE = mc.TASK.layout("600x800").tile


#: Every solid the task can show, in every proportion it uses.
ALL_SOLIDS = (
    [("cube", ())]
    + [("cuboid", tuple(float(d) for d in dims)) for dims in mc.CUBOIDS]
    + [("triangular_prism", (x,)) for x in mc.PRISM_LENGTHS]
    + [("square_pyramid", (h,)) for h in mc.PYRAMID_HEIGHTS]
    + [("cone", (r,)) for r in mc.CONE_RATIOS]
    + [("tetrahedron", ()), ("triangular_pyramid", (mc.TALL_TETRA_HEIGHT,)), ("octahedron", ()),
       ("bipyramid", (mc.STRETCHED_OCTA,)), ("dodecahedron", ()), ("dodecahedron", (mc.STRETCHED_ROUND,)),
       ("icosahedron", ()), ("icosahedron", (mc.STRETCHED_ROUND,))]
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


@pytest.mark.parametrize(("kind", "proportion"), ALL_SOLIDS)
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


@pytest.mark.parametrize("target", ALL_SOLIDS)
def test_the_generator_and_the_verifier_accept_only_the_solid_the_net_came_from(target):
    net = _net(*target, seed=7)
    drawn = mc.net_layout(net, SIDE)
    rng = np.random.default_rng(0)
    for other in ALL_SOLIDS:
        solid = mc.Solid(*other, (10, 20, 30), mc.presentation(rng, other[0]))
        solid.size = 0.8
        assert mc.folds_into(net, solid) == _same_solid(target, other), other
        assert verifier.folds_into(drawn, solid.drawn()) == _same_solid(target, other), other


def test_the_verifier_folds_along_the_drawn_hinges_only():
    square = [[0, 0], [10, 0], [10, 10], [0, 10]]
    cube = mc.Solid("cube", (), (0, 0, 0), np.eye(3)).drawn()
    cross = {"net": "polygons", "faces": [
        [[x + dx, y + dy] for x, y in square] for dx, dy in ((10, 0), (0, 10), (10, 10), (20, 10), (10, 20), (10, 30))
    ]}
    assert verifier.folds_into(cross, cube)
    strip = {"net": "polygons", "faces": [[[x + 10 * k, y] for x, y in square] for k in range(6)]}
    assert not verifier.folds_into(strip, cube)  # six squares in a row overlap when folded
    loose = copy.deepcopy(cross)
    loose["faces"][5] = [[x + 0.5, y] for x, y in loose["faces"][5]]  # the last face cut off its hinge
    assert not verifier.folds_into(loose, cube)


def test_the_verifier_rolls_a_sector_only_into_its_cone():
    cone = mc.ConeNet(1.0, 2 * math.pi * 0.45, 0.3, 0.45, (0, 0, 0))
    drawn = mc.net_layout(cone, SIDE)
    for ratio in mc.CONE_RATIOS:
        solid = mc.Solid("cone", (ratio,), (0, 0, 0), np.eye(3))
        assert verifier.folds_into(drawn, solid.drawn()) == (ratio == 0.45)
    short = {**drawn, "end": drawn["end"] - 20}  # the arc no longer wraps the base circle
    assert not verifier.folds_into(short, mc.Solid("cone", (0.45,), (0, 0, 0), np.eye(3)).drawn())


# -- items ---------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_exactly_one_option_folds_and_each_template_is_its_error(difficulty):
    for seed in range(15):
        stimulus = _stimulus(seed, difficulty)
        options = list(stimulus.options)
        scene = {"query": [mc.TASK.describe(stimulus.query[0], SIDE)],
                 "options": [mc.TASK.describe(o.content, SIDE) for o in options]}
        assert verifier.solve_scene(scene) == [k for k, o in enumerate(options) if o.role == "correct"]
        by = {o.template: o.content for o in options}
        target = by["folded_net"]
        family = _family(target.kind)
        assert len({(o.content.kind, tuple(sorted(o.content.proportion))) for o in options}) == 4
        assert sorted(Counter(_family(o.content.kind) for o in options).values()) == [1, 1, 2]  # one pair
        if "proportion" in by:  # the net comes from the pair
            assert _family(by["proportion"].kind) == family
            assert not _same_solid((by["proportion"].kind, by["proportion"].proportion),
                                   (target.kind, target.proportion))
            similar = by["similar_face_count"]
            gap = abs(mc.FACES[similar.kind] - mc.FACES[target.kind])
            assert gap <= abs(mc.FACES[by["different_solid"].kind] - mc.FACES[target.kind])
        else:  # the net comes from a single solid: the pair is a decoy
            assert set(by) == {"folded_net", "decoy_pair", "decoy_pair_variant", "different_solid"}
            assert _family(by["decoy_pair"].kind) == _family(by["decoy_pair_variant"].kind) != family
        net_colour = stimulus.query[0].colour
        coloured = [o for o in options if o.content.colour == net_colour]
        if stimulus.facts["knobs"]["colour_confound"]:
            assert len(coloured) == 1 and len({o.content.colour for o in options}) == 4
            if coloured[0].role != "correct":
                assert coloured[0].role == "confound"
        else:
            assert len(coloured) == 4  # one colour for everything


def _family(kind: str) -> str:
    return mc.FAMILY.get(kind, kind)


@pytest.mark.slow
def test_the_options_alone_do_not_tell_which_solid_the_net_is_cut_from():
    # the shortcut of issue 7: the right solid's kind used to be shown twice (pick the regular one of the pair)
    count = 120
    parts: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    for seed in range(count):
        stimulus = _stimulus(300 + seed, ("easy", "medium", "hard")[seed % 3])
        options = list(stimulus.options)
        parts[stimulus.facts["net_from"]] += 1
        families = [_family(o.content.kind) for o in options]
        pair = [k for k, f in enumerate(families) if families.count(f) == 2]
        correct = next(k for k, o in enumerate(options) if o.role == "correct")
        hits["a kind shown twice"] += (correct in pair) / 2
        regular = [k for k in pair if not options[k].content.proportion or options[k].content.kind == "cube"]
        hits["the regular one of the pair"] += (correct in regular) / len(regular) if regular else 0.25
    bound = 0.25 + 3 * math.sqrt(0.25 * 0.75 / count)
    for name, hit in hits.items():
        assert hit / count <= bound, f"{name}: {hit / count:.2f}"
    assert set(parts) == set(mc.WORLD) and min(parts.values()) >= count / 4 - 3 * math.sqrt(count * 3 / 16)


@pytest.mark.slow
def test_colour_is_no_cue_when_colour_confounds_are_on():
    shares = [_stimulus(200 + s, "medium").facts["correct_shares_net_colour"] for s in range(45)]
    assert 0.1 <= sum(shares) / len(shares) <= 0.45  # one time in four, the chance of any option


def test_difficulty_knobs_follow_the_paper():
    for seed in range(10):
        easy, medium, hard = (_stimulus(seed, d) for d in ("easy", "medium", "hard"))
        simple = {_family(k) for k in mc.SIMPLE}
        regular = {_family(k) for k in mc.COMPLEX}
        assert all(_family(o.content.kind) in simple for o in easy.options)
        assert all(_family(o.content.kind) in regular for o in hard.options)
        assert not easy.facts["knobs"]["colour_confound"] and hard.facts["knobs"]["colour_confound"]
        assert medium.facts["knobs"] == {"solids": "mixed", "colour_confound": True}
        assert len({o.content.colour for o in easy.options}) == 1
        assert len({o.content.colour for o in hard.options}) == 4


def test_explicit_knobs_override_the_difficulty_defaults():
    plain_hard = _stimulus(3, "hard", colour_confound=False)
    assert all(_family(o.content.kind) in {_family(k) for k in mc.COMPLEX} for o in plain_hard.options)
    assert len({o.content.colour for o in plain_hard.options}) == 1
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
                                1.8, floors, mc.SIZE_STEP, mc.SIZE_RANGE)
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
        features = [nuisance.option_features(mc.TASK.draw_option(o.content, side)) for o in stimulus.options]
        orders = {name: _order([f[name] for f in features]) for name in ("ink", "extent", "saturation")}
        assert len({tuple(o) for o in orders.values()}) == 1, orders
        answer = next(k for k, o in enumerate(stimulus.options) if o.role == "correct")
        ranks.add(orders["ink"].index(answer))
        sizes = sorted(o.content.size for o in stimulus.options)
        assert sizes[-1] == pytest.approx(1.0) and sizes[0] > 0.3
    assert ranks == {0, 1, 2, 3}


# -- the artefact verifier and planted faults ------------------------------------------------------------------
def _built(seed: int = 0, index: int = 1, **settings):
    job = plan(TASK, {"difficulty": "medium", **settings}, seed, index + 1)[index]
    return build_item(_HOST, TASK, seed, index, job.params, job.suffix)


def _redrawn(built) -> list:
    """The item's picture drawn again by the task's own render (panel caches emptied), under whatever fault a
    test has planted."""
    _, shown = built.problem.structure
    for option in shown:
        option.content.cache = {}
    return list(mc.TASK.render(built.problem))


def _answer_index(built) -> int:
    return "ABCD".index(built.item.answer)


DRAW_NET = mc.MentalComposition.draw_query


def test_the_unmutated_items_verify_from_their_pixels():
    for seed in range(3):
        built = _built(seed)
        assert not verify_item(_HOST, TASK, built.item, [decode_png(p) for p in built.pngs])
        assert not verify_item(_HOST, TASK, built.item, _redrawn(built))  # the redraw itself is faithful


def test_options_drawn_one_slot_off_are_caught(monkeypatch):
    built = _built(1)
    compose = Layout.compose

    def shifted(self, query, options, captions=None, labels=None):
        return compose(self, query, [*options[1:], options[0]], captions, labels)

    monkeypatch.setattr(Layout, "compose", shifted)
    assert_rejected(_HOST, TASK, built.item, _redrawn(built), "options drawn one slot off")


def test_a_distractor_made_correct_in_the_scene_is_caught():
    for seed in range(3):
        built = _built(seed)
        scene = copy.deepcopy(dict(built.item.metadata["scene"]))
        answer = _answer_index(built)
        wrong = next(k for k in range(4) if k != answer)
        # the wrong option's record replaced by the right solid's geometry, turned a quarter about the vertical
        right = scene["options"][answer]
        turn = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], dtype=float)
        copied = {**copy.deepcopy(right), "colour": scene["options"][wrong]["colour"]}
        for key in ("vertices", "base", "axis", "start"):
            if key in copied:
                copied[key] = (np.asarray(copied[key]) @ turn.T).tolist()
        scene["options"][wrong] = copied
        item = attrs.evolve(built.item, metadata={**built.item.metadata, "scene": scene})
        failures = assert_rejected(_HOST, TASK, item, [decode_png(p) for p in built.pngs], "distractor made correct")
        assert any("scene solver finds" in f for f in failures), failures


def test_the_net_drawn_from_another_solid_is_caught(monkeypatch):
    for seed in range(3):
        built = _built(seed)
        stimulus, shown = built.problem.structure
        wrong = next(o.content for o in shown if o.role != "correct")
        other = mc.TASK._net(np.random.default_rng(seed), wrong.kind, wrong.proportion, stimulus.query[0].colour)
        monkeypatch.setattr(mc.MentalComposition, "draw_query",
                            lambda self, content, side, net=other: DRAW_NET(self, net, side))
        assert_rejected(_HOST, TASK, built.item, _redrawn(built), f"the net of a {wrong.kind} drawn instead")
        monkeypatch.undo()


def test_a_net_face_drawn_off_its_hinge_is_caught(monkeypatch):
    for seed in range(6):
        built = _built(seed, solids="complex")
        net = built.problem.structure[0].query[0]
        moved = mc.PolyNet([f + (0.25 if k == 0 else 0.0) for k, f in enumerate(net.faces)], net.hinges, net.colour)
        monkeypatch.setattr(mc.MentalComposition, "draw_query",
                            lambda self, content, side, net=moved: DRAW_NET(self, net, side))
        assert_rejected(_HOST, TASK, built.item, _redrawn(built), "a net face moved off its hinge")
        monkeypatch.undo()


def test_a_solid_drawn_in_another_colour_is_caught():
    for seed in range(3):
        built = _built(seed)
        _, shown = built.problem.structure
        solid = shown[_answer_index(built)].content
        images = _redrawn(built)
        side = next(iter(solid.cache))
        other = next(c for c in mc.PALETTE if c != solid.colour)
        recoloured = mc.raster3d.Mesh(solid.mesh().vertices, solid.mesh().faces, [other] * len(solid.mesh().faces),
                                      solid.mesh().groups)
        solid.cache[side] = mc.raster3d.render(recoloured, side, solid.pixel_scale(side)).image
        images = list(mc.TASK.render(built.problem))
        failures = assert_rejected(_HOST, TASK, built.item, images, "the answer drawn in another colour")
        assert any("recorded colour" in f for f in failures), failures
