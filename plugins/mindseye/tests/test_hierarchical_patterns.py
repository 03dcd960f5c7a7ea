"""Hierarchical Pattern Equivalence (HPE): the generator's self-similarity solver and the artefact verifier's
search against the constructions, planted faults in the rendering and the record, the distractor templates,
the difficulty knobs, legibility, and the core's conformance suite (with golden digests) on a private host."""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from pathlib import Path

import attrs
import numpy as np
import pytest
from PIL import Image

from bench_core import (
    ConformanceSuite,
    Item,
    assert_rejected,
    build_item,
    create_host,
    decode_png,
    encode_png,
    hookimpl,
    plan,
    verify_item,
)
from bench_plugin_mindseye import hierarchical_patterns as hpe
from bench_plugin_mindseye import recursion
from bench_plugin_mindseye.descriptions.hierarchical_patterns import TASK
from bench_plugin_mindseye.hierarchical_patterns import STROKE, Panel
from bench_plugin_mindseye.hierarchical_patterns import TASK as IMPL
from bench_plugin_mindseye.layout import SIZES, Layout
from bench_plugin_mindseye.nuisance import option_features
from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-hierarchical_patterns", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return _HOST


def _build(seed: int, index: int, **settings):
    job = plan(TASK, settings, seed, index + 1)[index]
    return build_item(_HOST, TASK, seed, index, job.params, job.suffix)


# -- the solver against the constructions -------------------------------------------------------------
@pytest.mark.parametrize("generator", recursion.GENERATORS)
def test_valid_constructions_are_self_similar(generator):
    rng = np.random.default_rng(1)
    for k in range(24):
        rule = ("plain", "irregular")[k % 2]
        panel = recursion.construct(generator, rng, 3 + k % 3, rule)
        assert recursion.self_similar(panel.groups), panel.latent


@pytest.mark.parametrize("generator", recursion.GENERATORS)
def test_every_violation_breaks_self_similarity(generator):
    rng = np.random.default_rng(2)
    for violation in recursion.SUPPORTS[generator]:
        for k in range(12):
            subtlety = ("blatant", "moderate", "subtle")[k % 3]
            rule = ("plain", "irregular")[k % 2]
            panel = recursion.construct(generator, rng, 3 + k % 3, rule, violation=violation, subtlety=subtlety)
            assert not recursion.self_similar(panel.groups), panel.latent


def test_solver_reads_geometry_not_order():
    """Shuffling the drawn primitives, or drawing the panel mirrored, changes nothing."""
    rng = np.random.default_rng(3)
    for generator in recursion.GENERATORS:
        for violation in (None, recursion.SUPPORTS[generator][0]):
            panel = recursion.construct(generator, rng, 4, "irregular", violation=violation)
            shuffled = tuple(recursion.Group(g.kind, g.data[rng.permutation(len(g))]) for g in panel.groups)
            mirrored = tuple(recursion.Group(g.kind, _mirror(g)) for g in panel.groups)
            expected = violation is None
            assert recursion.self_similar(shuffled) is expected
            assert recursion.self_similar(mirrored) is expected


def _mirror(group):
    data = group.data.copy()
    data[..., 0] = 1 - data[..., 0]
    return data


def test_a_lone_shape_or_a_shallow_drawing_is_not_a_hierarchy():
    square = recursion.Group("poly", np.array([[[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]]))
    assert not recursion.self_similar((square,))
    spec = [recursion.ChildMap(1.0, 0.0, math.radians(30), 0.7), recursion.ChildMap(1.0, 0.0, -math.radians(30), 0.7)]
    frames, _ = recursion.expand((0.0, 0.0, math.pi / 2, 1.0), [spec])
    two_levels = recursion.fit([recursion.draw_motif(("seg", 2), f) for f in frames])
    assert not recursion.self_similar(two_levels)


# -- the artefact verifier's search against the constructions ------------------------------------------
def _description(groups) -> dict:
    return Panel(groups, {}).describe(460)


@pytest.mark.parametrize("generator", recursion.GENERATORS)
def test_verifier_finds_valid_constructions_self_similar(generator):
    rng = np.random.default_rng(21)
    for k in range(18):
        panel = recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2])
        verdict = verifier.figure_verdict(_description(panel.groups))
        assert verdict.status == "self-similar", panel.latent
        assert verdict.levels == panel.latent["levels"], (verdict, panel.latent)


@pytest.mark.parametrize("generator", recursion.GENERATORS)
def test_verifier_proves_every_violation_broken(generator):
    rng = np.random.default_rng(22)
    for violation in recursion.SUPPORTS[generator]:
        for k in range(9):
            subtlety = ("blatant", "moderate", "subtle")[k % 3]
            panel = recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2],
                                        violation=violation, subtlety=subtlety)
            assert verifier.figure_verdict(_description(panel.groups)).status == "broken", panel.latent


def test_verifier_reads_geometry_not_order():
    """Shuffled primitives, reversed segments and polygons, or a mirrored panel change no verdict."""
    rng = np.random.default_rng(23)
    for generator in recursion.GENERATORS:
        for violation in (None, recursion.SUPPORTS[generator][-1]):
            panel = recursion.construct(generator, rng, 4, "irregular", violation=violation)
            expected = "self-similar" if violation is None else "broken"
            shuffled = tuple(recursion.Group(g.kind, g.data[rng.permutation(len(g))][:, ::-1] if g.kind != "circle"
                                             else g.data[rng.permutation(len(g))]) for g in panel.groups)
            mirrored = tuple(recursion.Group(g.kind, _mirror(g)) for g in panel.groups)
            assert verifier.figure_verdict(_description(shuffled)).status == expected
            assert verifier.figure_verdict(_description(mirrored)).status == expected


def test_verifier_rejects_a_lone_shape_a_shallow_drawing_and_a_dropped_part():
    square = {"polygons": [[[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]]}
    assert verifier.figure_verdict(square).status == "broken"
    spec = [recursion.ChildMap(1.0, 0.0, math.radians(30), 0.7), recursion.ChildMap(1.0, 0.0, -math.radians(30), 0.7)]
    frames, _ = recursion.expand((0.0, 0.0, math.pi / 2, 1.0), [spec])
    two_levels = recursion.fit([recursion.draw_motif(("seg", 2), f) for f in frames])
    assert verifier.figure_verdict(_description(two_levels)).status == "broken"
    valid = _description(recursion.construct("binary_tree", np.random.default_rng(24), 4).groups)
    assert verifier.figure_verdict(valid).status == "self-similar"
    valid["segments"].pop(len(valid["segments"]) // 2)
    assert verifier.figure_verdict(valid).status == "broken"


# -- planted faults: each must make verify fail -----------------------------------------------------------
def _pixels(images) -> list[Image.Image]:
    """The images as a model would see them: encoded to PNG and decoded again."""
    return [decode_png(encode_png(image)) for image in images]


def _rerender(built, shown) -> list[Image.Image]:
    """The item's image drawn with other option contents (the record is left as it was)."""
    stimulus, _ = built.problem.structure
    return _pixels(IMPL.render(attrs.evolve(built.problem, structure=(stimulus, tuple(shown)))))


def _with_scene(item: Item, change) -> Item:
    """A copy of ``item`` whose scene record ``change`` edited in place."""
    record = json.loads(item.to_json())
    change(record["metadata"]["scene"])
    return Item.from_record(record)


def _valid_index(built) -> int:
    """A displayed option that is not the answer."""
    return next(k for k in range(4) if "ABCD"[k] != built.item.answer)


def _changed_part(panel: Panel, how: str) -> Panel:
    """The panel with one mid-sized part turned by 25 degrees about its centre (a circle moved by half its
    radius), or dropped."""
    groups = [recursion.Group(g.kind, g.data.copy()) for g in panel.groups]
    sizes = np.concatenate([recursion.sizes(g) for g in groups])
    owner = np.concatenate([np.full(len(g), k) for k, g in enumerate(groups)])
    row = np.concatenate([np.arange(len(g)) for g in groups])
    pick = int(np.argsort(-sizes)[len(sizes) // 4])
    group = groups[owner[pick]]
    if how == "drop":
        groups[owner[pick]] = recursion.Group(group.kind, np.delete(group.data, row[pick], axis=0))
    elif group.kind == "circle":
        group.data[row[pick], 0] += group.data[row[pick], 2] / 2
    else:
        part = group.data[row[pick]]
        centre = part.mean(axis=0)
        turn = np.radians(25)
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        group.data[row[pick]] = (part - centre) @ rotation.T + centre
    return Panel(tuple(g for g in groups if len(g)), dict(panel.recursion))


@pytest.mark.parametrize("size", ["1024x1024", "600x800"])
def test_options_drawn_one_slot_off_fail(size):
    for index in range(3):
        built = _build(30, index, size=size)
        _, shown = built.problem.structure
        rolled = [shown[-1], *shown[:-1]]
        assert_rejected(_HOST, TASK, built.item, _rerender(built, rolled), f"options drawn one slot off ({index})")


def test_a_distractor_made_correct_in_the_scene_fails():
    """One valid figure loses a part in the record only, and in the record and the drawing alike: either way the
    item has two figures that break their rule (the second time only the scene solver can see it)."""
    for index in range(3):
        built = _build(31, index)
        k = _valid_index(built)
        images = [decode_png(p) for p in built.pngs]

        def drop(scene, k=k):
            figure = scene["options"][k]
            kind = next(name for name in ("segments", "polygons", "circles") if figure[name])
            figure[kind].pop(len(figure[kind]) // 2)

        assert_rejected(_HOST, TASK, _with_scene(built.item, drop), images, f"distractor {k} broken in the record")
        _, shown = built.problem.structure
        broken = _changed_part(shown[k].content, "drop")
        redrawn = list(shown)
        redrawn[k] = attrs.evolve(shown[k], content=broken)

        def record(scene, k=k, broken=broken):
            scene["options"][k] = broken.describe(scene["tile"])

        failures = assert_rejected(_HOST, TASK, _with_scene(built.item, record), _rerender(built, redrawn),
                                   f"distractor {k} broken in record and drawing")
        assert any("scene solver" in f for f in failures), failures


@pytest.mark.slow
@pytest.mark.parametrize("how", ["turn", "drop"])
@pytest.mark.parametrize("size", ["1024x1024", "600x800"])
def test_a_figure_drawn_with_one_part_changed_fails(how, size):
    """A figure drawn with one sub-pattern changed relative to the record (the record left as it was).  A part
    whose every line other parts draw too (a triangle of a tiling left out) changes no pixel visibly (none by
    100 grey levels): no pixel check can see it, and it is not planted."""
    planted = 0
    for index in range(4):
        built = _build(32, index, size=size)
        _, shown = built.problem.structure
        picture = built.images[0].convert("RGB")  # as drawn (the render may hand over a palette image)
        boxes = built.item.metadata["scene"]["option_boxes"]
        tiles = [np.asarray(picture.crop(tuple(box)), dtype=int) for box in boxes]
        for k in (_valid_index(built), "ABCD".index(built.item.answer)):
            redrawn = list(shown)
            redrawn[k] = attrs.evolve(shown[k], content=_changed_part(shown[k].content, how))
            images = _rerender(built, redrawn)
            changed = np.asarray(images[0].crop(tuple(built.item.metadata["scene"]["option_boxes"][k])), dtype=int)
            if np.abs(changed - tiles[k]).max() < 100:
                continue
            planted += 1
            failures = assert_rejected(_HOST, TASK, built.item, images,
                                       f"figure {k} drawn with a part {how} ({index}, {size})")
            assert any(f"figure {'ABCD'[k]}" in f for f in failures), failures
    assert planted >= 6, f"only {planted} of 8 changes show"


def test_an_unchanged_rerender_verifies():
    """The planted-fault helpers themselves change nothing when no fault is planted."""
    built = _build(33, 0)
    _, shown = built.problem.structure
    assert not verify_item(_HOST, TASK, built.item, _rerender(built, shown))
    assert not verify_item(_HOST, TASK, _with_scene(built.item, lambda scene: None), _pixels(built.images))


def test_the_record_holds_the_drawn_primitives_and_recursion():
    built = _build(34, 1)
    scene = built.item.metadata["scene"]
    _, shown = built.problem.structure
    for description, option in zip(scene["options"], shown, strict=True):
        assert description == json.loads(json.dumps(option.content.describe(scene["tile"])))
        assert set(description["recursion"]) == {"generator", "motif", "levels", "branching"}
        values = [v for name in ("segments", "polygons", "circles") for v in np.ravel(description[name])]
        assert all(round(v, 5) == v for v in values)  # quantised before drawing
    assert not verifier.record_failures(copy.deepcopy(scene))


# -- items: answer, templates, knobs --------------------------------------------------------------------
@pytest.mark.slow
def test_items_answer_is_the_violator_and_templates_are_named():
    for index in range(24):
        built = _build(5, index)
        meta = built.item.metadata
        options = meta["options"]
        correct = [o for o in options if o["role"] == "correct"]
        assert [o["label"] for o in correct] == [built.item.answer]
        assert correct[0]["template"] == f"broken_{meta['knobs']['violation']}"
        wrong = sorted(o["template"] for o in options if o["role"] != "correct")
        assert wrong == ["irregular_rule", "plain_rule", "surface_match"]
        confound = next(o for o in options if o["role"] == "confound")
        assert confound["template"] == "surface_match" and meta["confound"] == confound["label"]
        # the look-alike shares the violator's generator; each rule type appears twice in the item
        assert confound["latent"]["generator"] == correct[0]["latent"]["generator"]
        assert Counter(o["latent"]["rule"] for o in options) == {"plain": 2, "irregular": 2}


@pytest.mark.slow
def test_families_knob():
    for index in range(6):
        single = _build(6, index, families="single").item.metadata["options"]
        assert len({o["latent"]["generator"] for o in single}) == 1
        paired = _build(6, index, families="paired").item.metadata["options"]
        assert sorted(Counter(o["latent"]["generator"] for o in paired).values()) == [2, 2]


@pytest.mark.slow
@pytest.mark.parametrize("violation", recursion.VIOLATIONS)
def test_violation_knob_is_obeyed(violation):
    for index in range(3):
        meta = _build(7, index, violation=violation).item.metadata
        assert meta["knobs"]["violation"] == violation
        assert meta["violator"]["violation"] == violation
        assert violation in recursion.SUPPORTS[meta["violator"]["generator"]]


def test_depth_knob_deepens_every_generator():
    rng = np.random.default_rng(8)
    for generator in recursion.GENERATORS:
        levels = [recursion.construct(generator, rng, depth).latent["levels"] for depth in (3, 4, 5)]
        assert levels == sorted(levels) and levels[0] < levels[-1] and levels[0] >= 3, (generator, levels)


def test_subtlety_knob_shrinks_the_break():
    rng = np.random.default_rng(9)
    factors = {s: [] for s in ("blatant", "moderate", "subtle")}
    turns = {s: [] for s in factors}
    for subtlety in factors:
        for _ in range(30):
            scale = recursion.construct("binary_tree", rng, 4, violation="scale", subtlety=subtlety).latent
            factors[subtlety].append(abs(math.log(scale["break_factor"])))
            angle = recursion.construct("binary_tree", rng, 4, violation="angle", subtlety=subtlety).latent
            turns[subtlety].append(abs(angle["break_turn"]))
    assert np.mean(factors["blatant"]) > np.mean(factors["moderate"]) > np.mean(factors["subtle"]) > 0.2
    assert np.mean(turns["blatant"]) > np.mean(turns["moderate"]) > np.mean(turns["subtle"]) >= 15


def test_difficulty_sets_the_knobs():
    for difficulty, depth, subtlety in (("easy", 3, "blatant"), ("medium", 4, "moderate"), ("hard", 5, "subtle")):
        knobs = _build(10, 0, difficulty=difficulty).item.metadata["knobs"]
        assert (knobs["depth"], knobs["subtlety"]) == (depth, subtlety)


# -- leaks and legibility -------------------------------------------------------------------------------
@pytest.mark.slow
def test_violator_is_not_an_ink_outlier_on_average():
    """Over many items the violator is the most- or least-inked panel about as often as chance (2 in 4)."""
    extremes, count = 0, 36
    for index in range(count):
        built = _build(11, index)
        answer = "ABCD".index(built.item.answer)
        tiles = [built.images[0].crop(tuple(box)) for box in built.item.metadata["scene"]["option_boxes"]]
        ink = [option_features(t)["ink"] for t in tiles]
        extremes += answer in (int(np.argmax(ink)), int(np.argmin(ink)))
    assert 0.2 < extremes / count < 0.8


def test_strokes_and_parts_stay_legible_at_600x800():
    tile = Layout(SIZES["600x800"], 0, 4, 2).tile
    assert tile * STROKE >= 2.0
    assert tile * recursion.MIN_PART["circle"] >= 5.0  # small circles read as rings, not dots
    assert tile * recursion.MIN_PART["seg"] >= 3.0
    for index in range(8):
        built = _build(12, index, size="600x800")
        assert built.images[0].size == (600, 800)
        for option in built.problem.structure[1]:
            assert recursion.legibility(option.content.groups) >= 1


# -- trees keep their branches apart ----------------------------------------------------------------------
def _segments(*pairs) -> recursion.Group:
    return recursion.Group("seg", np.array(pairs, dtype=float))


def test_crowded_tells_joints_from_contacts():
    """Strokes meeting at an end point are a joint, however narrow the angle; a crossing, a twig ending on another
    stroke, or two strokes closer than the clearance are contacts; strokes a little farther apart are clear."""
    c = recursion.CLEARANCE
    joint = _segments([[0.2, 0.2], [0.8, 0.2]], [[0.2, 0.2], [0.8, 0.21]])
    crossing = _segments([[0.2, 0.2], [0.8, 0.8]], [[0.2, 0.8], [0.8, 0.2]])
    touching = _segments([[0.2, 0.5], [0.8, 0.5]], [[0.5, 0.5], [0.5, 0.9]])
    near = _segments([[0.2, 0.5], [0.8, 0.5]], [[0.5, 0.5 + 0.8 * c], [0.5, 0.9]])
    apart = _segments([[0.2, 0.5], [0.8, 0.5]], [[0.1, 0.5 + 1.2 * c], [0.9, 0.5 + 1.2 * c]])
    assert not recursion.crowded([joint])
    assert recursion.crowded([crossing]) and recursion.gap([crossing]) == 0
    assert recursion.crowded([touching]) and recursion.gap([touching]) == pytest.approx(0)
    assert recursion.crowded([near]) and recursion.gap([near]) == pytest.approx(0.8 * c)
    assert not recursion.crowded([apart]) and recursion.gap([apart]) == pytest.approx(1.2 * c)
    # polygons: squares meeting at a corner are joined; a square's own edges are never compared; a square whose
    # edge runs along another's, or that overlaps it, is a contact
    square = np.array([[0.2, 0.2], [0.4, 0.2], [0.4, 0.4], [0.2, 0.4]])
    thin = np.array([[0.5, 0.5], [0.9, 0.5], [0.9, 0.5 + c / 2], [0.5, 0.5 + c / 2]])
    assert not recursion.crowded([recursion.Group("poly", np.stack([square, square + 0.2]))])
    assert not recursion.crowded([recursion.Group("poly", thin[None])])
    assert recursion.crowded([recursion.Group("poly", np.stack([square, square + np.array([0.2 + c / 2, 0.0])]))])
    assert recursion.crowded([recursion.Group("poly", np.stack([square, square + 0.1]))])
    # a segment ending on a polygon's edge is a contact
    assert recursion.crowded([recursion.Group("poly", square[None]), _segments([[0.3, 0.4], [0.3, 0.7]])])


@pytest.mark.parametrize("generator", ["binary_tree", "ternary_tree", "pythagoras_tree"])
def test_tree_ranges_keep_branches_apart_at_every_depth(generator):
    """A valid tree drawn from its ranges keeps clear and legible at the full number of levels without a redraw."""
    rng = np.random.default_rng(40)
    for depth in (3, 4, 5):
        levels = recursion.LEVELS[generator][depth - 3]
        for k in range(30):
            rule = ("plain", "irregular")[k % 2]
            spec = recursion._spec(generator, rng, rule, None, levels)
            panel = recursion._legible(generator, rng, spec, rule, levels, None, "moderate")
            assert panel.latent["levels"] == levels, panel.latent
            assert not recursion.crowded(panel.groups), (recursion.gap(panel.groups), panel.latent)


@pytest.mark.parametrize("generator", ["binary_tree", "ternary_tree", "pythagoras_tree"])
def test_broken_trees_keep_branches_apart(generator):
    """A broken level (a wider or narrower turn, an enlarged or shrunk sub-tree, a missing branch) never runs into a
    neighbour either."""
    rng = np.random.default_rng(41)
    for violation in recursion.SUPPORTS[generator]:
        for k in range(18):
            subtlety = ("blatant", "moderate", "subtle")[k % 3]
            panel = recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2],
                                        violation=violation, subtlety=subtlety)
            assert not recursion.crowded(panel.groups), (recursion.gap(panel.groups), panel.latent)


@pytest.mark.parametrize("generator", ["binary_tree", "ternary_tree", "pythagoras_tree"])
def test_crowded_measures_only_strokes_whose_boxes_come_close(generator):
    """``crowded`` measures only pairs of strokes whose boxes come within the clearance, and says what the full
    ``gap`` says; ``gap(within=w)`` is the full gap wherever that is below ``w`` (trees drawn a level deeper than
    their ranges allow, so that many are crowded)."""
    rng = np.random.default_rng(42)
    verdicts = Counter()
    for k in range(36):
        rule = ("plain", "irregular")[k % 2]
        violation = (None, *recursion.SUPPORTS[generator])[k % 4]
        levels = recursion.LEVELS[generator][k % 3] + 1
        spec = recursion._spec(generator, rng, rule, None, levels)
        groups = recursion._construct_levels(generator, rng, spec, rule, levels, violation, "blatant").groups
        full = recursion.gap(groups)
        assert recursion.crowded(groups) == (full < recursion.CLEARANCE)
        for within in (recursion.CLEARANCE, 0.05, 0.2):
            pruned = recursion.gap(groups, within=within)
            assert pruned == full if full < within else pruned >= within, (within, full, pruned)
        verdicts[full < recursion.CLEARANCE] += 1
    assert verdicts[True] and verdicts[False], verdicts


def _panels(count: int, side: int) -> list[Image.Image]:
    """Drawings of every generator, valid and broken, at ``side`` pixels."""
    rng = np.random.default_rng(43)
    out = []
    for k in range(count):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        violation = (None, *recursion.SUPPORTS[generator])[k % 3]
        construction = recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2],
                                           violation=violation)
        out.append(Panel(construction.groups).image(side))
    return out


@pytest.mark.parametrize("side", [407, 271])
def test_quick_layout_is_the_ink_layout_up_to_rounding(side):
    """``_quick_layout`` gives ``_ink_layout``'s amount of ink and ink box exactly, its elongation to 1e-12 and
    its edge strength to 1e-5 of its log (``_ink_layout`` sums it in float32): a few ten-thousandths of a match
    tolerance at most."""
    blank = Image.new("L", (side, side), 255)
    worst = 0.0
    for image in [*_panels(24, side), blank]:
        exact, quick = hpe._ink_layout(image), hpe._quick_layout(image)
        assert quick[1] == exact[1] and quick[3] == exact[3]
        assert abs(quick[0] - exact[0]) <= 1e-12 and abs(quick[2] - exact[2]) <= 1e-5, (quick, exact)
        tolerance = np.array([hpe.ELONGATION_MATCH[1], hpe.INK_MATCH, hpe.INK_MATCH, hpe.EXTENT_MATCH])
        worst = max(worst, float((np.abs(quick - exact) / tolerance).max()))
    assert worst <= 2.5e-4, worst


def _misfit(target, candidate):
    """How far ``candidate``'s layout is from ``target``'s in units of the match tolerances (target first)."""
    share, low, high = hpe.ELONGATION_MATCH
    tolerance = np.array([min(max(share * target[0], low), high), hpe.INK_MATCH, hpe.INK_MATCH, hpe.EXTENT_MATCH])
    return float((np.abs(candidate - target) / tolerance).max())


def _screened_matched(side, first, hidden, draw):
    """``_matched`` spelled out over every candidate, each measured both ways: of the candidates within ``SCREEN``
    on their geometry, the first within the tolerances on its pixels, else the closest on its pixels; if none is
    within the screen, the closest on its geometry."""
    pen = hpe._pen(side, hpe.SUPERSAMPLE) / hpe.SUPERSAMPLE / side
    pixels = hpe._quick_layout(Panel(hidden.groups).image(side))
    wire = hpe._wire_layout(hidden.groups, pen)
    screened, nearest = [], None
    for k in range(hpe.MATCH_DRAWS):
        candidate = first if k == 0 else draw()
        if candidate is None:
            continue
        rough = _misfit(wire, hpe._wire_layout(candidate.groups, pen))
        if rough > hpe.SCREEN:
            nearest = nearest if nearest is not None and nearest[0] <= rough else (rough, candidate)
            continue
        miss = _misfit(pixels, hpe._quick_layout(Panel(candidate.groups).image(side)))
        screened.append((miss, candidate))
        if miss <= 1.0:
            return candidate
    return min(screened, key=lambda m: m[0])[1] if screened else nearest[1]


def test_matched_draws_only_the_candidates_its_geometry_screen_lets_through(monkeypatch):
    """``_matched`` takes the figure ``_screened_matched`` takes and hands back its drawing, while drawing only the
    target and the candidates that pass the screen (fewer than it sees), on panels it measures at their own side
    (``MATCH_SIDE``; a larger one takes the same figure, ``test_hp_match_side``)."""
    side = hpe.MATCH_SIDE
    drawn = Counter()
    real_draw = hpe._draw_box

    def counting(groups, size, supersample):
        drawn["panels"] += 1
        return real_draw(groups, size, supersample)

    seen = 0
    for k in range(12):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        rule = ("plain", "irregular")[k % 2]
        chosen = []
        for matcher in (_screened_matched, hpe._matched):
            rng = np.random.default_rng(100 + k)
            first = recursion.construct(generator, rng, 4, rule)
            hidden = recursion.construct(generator, rng, 4, rule)
            made = Counter()

            def draw(rng=rng, g=generator, r=rule, made=made):
                made["candidates"] += 1
                return recursion.construct(g, rng, 4, r)

            if matcher is hpe._matched:
                monkeypatch.setattr(hpe, "_draw_box", counting)
                drawn.clear()
            chosen.append(matcher(side, first, hidden, draw))
            monkeypatch.setattr(hpe, "_draw_box", real_draw)
        expected, (got, image) = chosen
        assert got.latent == expected.latent
        assert all(np.array_equal(a.data, b.data) for a, b in zip(got.groups, expected.groups, strict=True))
        assert np.array_equal(np.asarray(image), np.asarray(Panel(expected.groups).image(side)))
        assert drawn["panels"] <= made["candidates"] + 2  # the target, and at most every candidate seen
        seen += made["candidates"] + 1
        drawn["total"] += drawn["panels"]
    assert drawn["total"] < 0.7 * seen, (drawn["total"], seen)


def test_geometry_screen_keeps_nearly_every_figure_that_matches_on_its_pixels():
    """Of candidates drawn against targets of their kind, those within the tolerances on their pixels are, all
    but a few, within ``SCREEN`` on their geometry (``_wire_layout``), while many others are not (the screen is
    what spares their drawing)."""
    side = 407
    pen = hpe._pen(side, hpe.SUPERSAMPLE) / hpe.SUPERSAMPLE / side
    rng = np.random.default_rng(77)
    matches = kept = screened_out = total = 0
    for k in range(24):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        rule = ("plain", "irregular")[k // 6 % 2]
        hidden = recursion.construct(generator, rng, 3 + k % 3, rule)
        pixels = hpe._quick_layout(Panel(hidden.groups).image(side))
        wire = hpe._wire_layout(hidden.groups, pen)
        for _ in range(20):
            violation = (None, *recursion.SUPPORTS[generator])[int(rng.integers(len(recursion.SUPPORTS[generator])))]
            candidate = recursion.construct(generator, rng, 3 + k % 3, rule, violation=violation)
            rough = _misfit(wire, hpe._wire_layout(candidate.groups, pen))
            miss = _misfit(pixels, hpe._quick_layout(Panel(candidate.groups).image(side)))
            total += 1
            screened_out += rough > hpe.SCREEN
            if miss <= 1.0:
                matches += 1
                kept += rough <= hpe.SCREEN
    assert matches >= 15 and kept >= 0.95 * matches, (kept, matches)
    assert screened_out >= 0.3 * total, (screened_out, total)


def _strokes(figure) -> list[tuple[tuple[tuple[float, float], ...], int]]:
    """The straight strokes of a recorded figure, each with its end points and the polygon it belongs to."""
    strokes = [(((x0, y0), (x1, y1)), -1) for x0, y0, x1, y1 in figure["segments"]]
    for k, polygon in enumerate(figure["polygons"]):
        corners = [tuple(p) for p in polygon]
        strokes += [((a, b), k) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)]
    return strokes


@pytest.mark.slow
def test_written_tree_panels_keep_branches_apart():
    """In written items, no two strokes of a tree that share no end point come closer than the clearance (measured
    on the scene record with shapely, independently of ``recursion.gap``)."""
    from shapely import STRtree
    from shapely.geometry import LineString

    trees, index = Counter(), 0
    while min(trees[g] for g in ("binary_tree", "ternary_tree")) < 6 or sum(trees.values()) < 16:
        built = _build(42, index, difficulty=("easy", "medium", "hard")[index % 3])
        index += 1
        for figure in built.item.metadata["scene"]["options"]:
            generator = figure["recursion"]["generator"]
            if generator not in ("binary_tree", "ternary_tree", "pythagoras_tree"):
                continue
            trees[generator] += 1
            strokes = _strokes(figure)
            lines = [LineString(ends) for ends, _ in strokes]
            search = STRtree(lines)
            for i, (ends, owner) in enumerate(strokes):
                for j in search.query(lines[i].buffer(recursion.CLEARANCE)):
                    other, other_owner = strokes[int(j)]
                    if int(j) <= i or set(ends) & set(other) or (owner >= 0 and owner == other_owner):
                        continue
                    assert lines[i].distance(lines[int(j)]) >= recursion.CLEARANCE, (index - 1, generator, ends, other)
    assert trees["binary_tree"] + trees["ternary_tree"] >= 12


# -- fast paths that give what the plain computations give (issue 12) ---------------------------------------------
def test_close_boxes_are_the_pairs_the_full_table_finds():
    """``recursion._close_boxes`` (a sweep over boxes sorted by their left edge) finds exactly the pairs of boxes
    less than ``within`` apart that testing every pair finds, each once, smaller index first."""
    rng = np.random.default_rng(8)
    for k in range(200):
        n = int(rng.integers(1, 90))
        low = rng.uniform(0.0, 1.0, (n, 2))
        high = low + rng.uniform(0.0, 0.15, (n, 2)) * (k % 5 != 0)  # every fifth: points, no extent
        within = float(rng.choice([0.0, 1e-3, recursion.CLEARANCE, 0.05, 2.0]))
        i, j = np.triu_indices(n, k=1)
        apart = np.maximum(low[i] - high[j], low[j] - high[i]).max(axis=1)
        expected = set(zip(i[apart < within].tolist(), j[apart < within].tolist(), strict=True))
        a, b = recursion._close_boxes(low, high, within)
        found = list(zip(a.tolist(), b.tolist(), strict=True))
        assert len(found) == len(set(found)) and set(found) == expected and (a < b).all()


def test_verifier_grows_marks_on_their_box_as_on_the_whole_grid():
    """``line_raster.grown_box`` (the verifier's growth on the box of the marks, aligned as its sketch needs)
    gives ``line_raster.dilate(line_raster.mark(...))`` exactly (points off the grid, at its edges and none at all
    included), ``_near_both`` gives the two ``_near`` grids, and ``sketch`` the pixels ``line_raster.near`` finds
    within half the pen of the centre lines painted the ink."""
    from bench_plugin_mindseye.verifiers import line_raster

    rng = np.random.default_rng(9)
    for k in range(120):
        size = int(rng.integers(8, 90))
        points = rng.uniform(-6.0, size + 6.0, (int(rng.integers(0, 60)), 2))
        radius = float(rng.uniform(-0.5, 6.0))
        align = (1, 2)[k % 2]
        expected = line_raster.dilate(line_raster.mark(points, size), radius)
        assert np.array_equal(line_raster.grown(points, size, radius), expected)
        found = line_raster.grown_box(points, size, radius, align)
        whole = np.zeros((size, size), dtype=bool)
        if found is not None:
            (x0, y0), box = found
            assert x0 % align == 0 and y0 % align == 0
            whole[y0:y0 + box.shape[0], x0:x0 + box.shape[1]] = box
        assert np.array_equal(whole, expected)
        inner = rng.random(len(points)) < 0.5
        small, large = verifier._near_both(points, inner, size, radius - 1.0, radius)
        assert np.array_equal(small, verifier._near(points[inner], size, radius - 1.0))
        assert np.array_equal(large, verifier._near(points, size, radius))
    for built in (_build(3, 0), _build(3, 1)):
        for description in built.item.metadata["scene"]["options"]:
            for side in (407, 271):
                segments, _ = verifier._polylines(description, side)
                near = line_raster.near(side, segments, float(description["pen"]) / 2)
                painted = line_raster.paint(side, [(near.astype(np.float32), description["ink"])])
                assert np.array_equal(verifier.sketch(description, side), painted)


def test_pixel_checks_given_the_samples_and_darkness_made_once_find_the_same_faults():
    """``panel_pixel_failures`` samples the centre lines and measures the tile's darkness once for both of its
    checks: ``exact_pixel_faults`` and ``pen_masks`` given them count exactly what they count making their own,
    on panels as written and with a part changed (faults to find)."""
    built = _build(3, 1)
    scene = built.item.metadata["scene"]
    pixels = np.asarray(built.images[0].convert("RGB"))
    side = scene["tile"]
    found = set()
    for box, description in zip(scene["option_boxes"], scene["options"], strict=True):
        left, top, right, bottom = box
        tile = pixels[top:bottom, left:right]
        changed = copy.deepcopy(description)
        for key in ("segments", "polygons", "circles"):
            if changed[key]:
                changed[key] = changed[key][1:]
                break
        for record in (description, changed):
            lines = verifier._polylines(record, side)
            fine = verifier.line_raster.samples(lines[0], step=0.7)
            darkness = verifier.line_raster.darkness(tile)
            given = verifier.exact_pixel_faults(tile, record, lines, fine, darkness)
            assert given == verifier.exact_pixel_faults(tile, record)
            masks = verifier.pen_masks(record, side, lines, fine)
            assert all(np.array_equal(a, b) for a, b in zip(masks, verifier.pen_masks(record, side), strict=True))
            found.add(given != (0, 0))
    assert found == {True, False}



def _parts_one_by_one(description: dict) -> dict:
    """The verifier's part table built part by part (its routine before it built each kind at once): type codes,
    vertices, radii, centres and sizes, in record order."""
    codes, verts, radii = [], [], []
    for x0, y0, x1, y1 in description.get("segments", ()):
        codes.append(2)
        verts.append(np.array([x0 + 1j * y0, x1 + 1j * y1]))
        radii.append(0.0)
    for poly in description.get("polygons", ()):
        z = np.array([complex(x, y) for x, y in poly])
        area = float(np.sum((z.conj() * np.roll(z, -1)).imag))
        codes.append(len(z))
        verts.append(z if area >= 0 else z[::-1])
        radii.append(0.0)
    for x, y, r in description.get("circles", ()):
        codes.append(0)
        verts.append(np.array([complex(x, y)]))
        radii.append(float(r))
    centre = np.array([v.mean() for v in verts], dtype=complex)
    size = np.array([radii[i] if c == 0 else (abs(v[1] - v[0]) if c == 2 else float(np.sqrt(np.mean(
        np.abs(v - v.mean()) ** 2)))) for i, (c, v) in enumerate(zip(codes, verts, strict=True))])
    return {"codes": np.array(codes, dtype=int), "verts": verts, "radius": np.array(radii, dtype=float),
            "centre": centre, "size": size}


def test_verifier_parts_built_per_kind_equal_those_built_part_by_part():
    """``_Parts`` builds each kind of part at once: the same codes, vertices, radii, centres and sizes to the bit
    as built part by part, on written figures of every generator, with a part dropped, a polygon turned the other
    way round, and parts of every kind added; and a self-similar verdict's root code is the type of the largest
    part (what the motif check compares)."""
    rng = np.random.default_rng(31)
    descriptions = []
    for index in range(8):
        for description in _build(5, index).item.metadata["scene"]["options"]:
            descriptions.append(description)
            changed = copy.deepcopy(description)
            for key in ("segments", "polygons", "circles"):
                if changed[key]:
                    changed[key].pop(int(rng.integers(len(changed[key]))))
                    break
            descriptions.append(changed)
            mixed = copy.deepcopy(description)
            if mixed["polygons"]:
                mixed["polygons"][0] = mixed["polygons"][0][::-1]
            mixed["polygons"].append([[0.1, 0.1], [0.3, 0.1], [0.2, 0.3]])
            mixed["circles"].append([0.5, 0.4, 0.1])
            mixed["segments"].append([0.1, 0.2, 0.3, 0.4])
            descriptions.append(mixed)
    descriptions.append({"segments": [], "polygons": [], "circles": []})
    roots = Counter()
    for description in descriptions:
        parts, expected = verifier._Parts(description), _parts_one_by_one(description)
        for key in ("codes", "radius", "centre", "size"):
            got = getattr(parts, key)
            assert got.dtype == expected[key].dtype and got.tobytes() == expected[key].tobytes(), key
        assert len(parts.verts) == len(expected["verts"])
        assert all(a.tobytes() == b.tobytes() for a, b in zip(parts.verts, expected["verts"], strict=True))
        verdict = verifier.figure_verdict(description)
        if verdict.status == "self-similar":
            assert verdict.root_code == int(expected["codes"][int(np.argmax(expected["size"]))])
            roots[verdict.root_code] += 1
    assert len(roots) >= 2


def _own_samples_by_least_and_most(points, parts, side, reach):
    """``_own_samples`` as it was: the least and the most part number per pixel, each read around every sample."""
    ij = np.floor(points).astype(int).clip(0, side - 1)
    parts = parts.astype(np.int32)
    span = int(np.ceil(reach))
    wide = side + 2 * span
    least = np.full((wide, wide), np.iinfo(np.int32).max, dtype=np.int32)
    most = np.full((wide, wide), -1, dtype=np.int32)
    rows, cols = ij[:, 1] + span, ij[:, 0] + span
    np.minimum.at(least, (rows, cols), parts)
    np.maximum.at(most, (rows, cols), parts)
    dy, dx = np.mgrid[-span:span + 1, -span:span + 1]
    inside = dx * dx + dy * dy <= reach * reach
    offsets = (dy[inside] * wide + dx[inside]).ravel()
    at = (rows * wide + cols)[:, None] + offsets[None, :]
    return (least.ravel()[at].min(axis=1) >= parts) & (most.ravel()[at].max(axis=1) <= parts)


def test_own_samples_read_once_per_pixel_as_by_least_and_most():
    """``_own_samples`` keeps one value per pixel (no sample, the one part whose samples lie there, or two parts
    meeting): it flags exactly the samples that the least and the most part number per pixel flag, on random
    samples (off the tile, few and many parts, small and large reaches) and on the centre lines of written
    figures."""
    rng = np.random.default_rng(41)
    cases = []
    for _ in range(200):
        size = int(rng.integers(5, 60))
        count = int(rng.integers(1, 300))
        cases.append((rng.uniform(-3.0, size + 3.0, (count, 2)), rng.integers(0, int(rng.integers(1, 8)), count),
                      size, float(rng.uniform(0.3, 6.0))))
    for description in _build(3, 2).item.metadata["scene"]["options"]:
        segments, owner = verifier._polylines(description, 407)
        points, which = verifier.line_raster.samples(segments)
        cases.append((points, owner[which], 407, float(description["pen"]) / 2 + verifier.STRAY_REACH + 1.0))
    flagged = set()
    for points, parts, side, reach in cases:
        own = verifier._own_samples(points, parts, side, reach)
        assert np.array_equal(own, _own_samples_by_least_and_most(points, parts, side, reach))
        flagged.update(own.tolist())
    assert flagged == {True, False}


def _expand_level_by_level(root, rules, fault=None):
    """``recursion.expand`` as it was: every level's child maps read from the rule and stacked anew."""

    def children(frames, rule):
        maps = np.array([[c.dx, c.dy, c.turn, c.ratio] for c in rule])
        x, y, a, s = (frames[:, None, k] for k in range(4))
        cos, sin = np.cos(a), np.sin(a)
        return np.stack([x + s * (cos * maps[:, 0] - sin * maps[:, 1]), y + s * (sin * maps[:, 0] + cos * maps[:, 1]),
                         a + maps[:, 2], s * maps[:, 3]], axis=2).reshape(-1, 4)

    levels, swapped = [np.array([root], dtype=float)], [np.zeros(1, dtype=bool)]
    for level, rule in enumerate(rules, start=1):
        parents = levels[-1]
        frames = children(parents, rule).reshape(len(parents), len(rule), 4)
        mask, keep = np.zeros(frames.shape[:2], dtype=bool), np.ones(frames.shape[:2], dtype=bool)
        if fault is not None and fault.level == level:
            chosen = slice(None) if fault.parent is None else slice(fault.parent, fault.parent + 1)
            if fault.rule is not None:
                frames[chosen] = children(parents[chosen], fault.rule).reshape(-1, len(rule), 4)
            if fault.motif is not None:
                mask[chosen] = True
            if fault.drop is not None:
                keep[chosen, fault.drop] = False
        levels.append(frames[keep])
        swapped.append(mask[keep])
    return levels, swapped


def test_expand_reads_each_rule_once_as_level_by_level():
    """``recursion.expand`` turns each rule into its table of child maps once: the frames and substitute-motif
    masks are those made level by level to the bit, valid and with a broken ratio, turn, motif or missing child, at
    one parent or over a whole level."""
    rng = np.random.default_rng(43)
    for k in range(60):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        spec = recursion._spec(generator, rng, ("plain", "irregular")[k % 2], None, 4)
        rules = [recursion._rule(generator, spec)] * 3
        broken = tuple(recursion._rule(generator, spec, break_turn=17.0, break_scale=0.8))
        level = 1 + k % 3
        parent = None if k % 4 == 0 else int(rng.integers(len(rules[0]) ** (level - 1)))
        faults = (None, recursion.Break(level, parent, rule=broken), recursion.Break(level, parent, motif=("poly", 5)),
                  recursion.Break(level, parent, drop=int(rng.integers(len(rules[0])))))
        root = (0.1, -0.2, float(rng.uniform(0, 6.28)), 1.0)
        for fault in faults:
            frames, swapped = recursion.expand(root, rules, fault)
            old_frames, old_swapped = _expand_level_by_level(root, rules, fault)
            assert [f.tobytes() for f in frames] == [f.tobytes() for f in old_frames]
            assert [m.tolist() for m in swapped] == [m.tolist() for m in old_swapped]
