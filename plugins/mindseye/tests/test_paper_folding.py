"""Paper Folding (PF): exact folding geometry, the artefact verifier (scene solver, record consistency, holes
and fills found on the pixels), planted faults it must catch, the distractor templates, difficulty knobs,
legibility, and the core's conformance suite (with golden digests) on a private host."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import attrs
import numpy as np
import pytest
from shapely.geometry import Point

from bench_core import (
    ConformanceSuite,
    assert_rejected,
    build_item,
    create_host,
    decode_png,
    full_run,
    hookimpl,
    plan,
    verify_item,
)
from bench_plugin_mindseye import folding
from bench_plugin_mindseye import paper_folding as pf
from bench_plugin_mindseye.descriptions.paper_folding import TASK
from bench_plugin_mindseye.layout import SIZES, Layout
from bench_plugin_mindseye.options import arrange
from bench_plugin_mindseye.verifiers import paper_folding as verifier


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-paper-folding", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return _HOST


def _stimuli(count: int = 45, **params):
    """(difficulty, stimulus) over many seeds, every difficulty."""
    out = []
    for seed in range(count):
        difficulty = ("easy", "medium", "hard")[seed % 3]
        out.append((difficulty, pf.TASK.build(np.random.default_rng(seed), difficulty, params)))
    return out


#: Stimuli the per-stimulus checks run over: 45 in a full run (CI), 18 in a developer's fast run.
STIMULI = _stimuli(45 if full_run() else 18)


def _forward(stimulus, point):
    """Where a point of the unfolded sheet ends up after the folds (the physical fold of the whole stack)."""
    x = np.asarray(point, dtype=float)
    for step in stimulus.query[1:-1]:
        fold = step.fold
        t = math.radians(fold.angle)
        n = np.array([-math.sin(t), math.cos(t)]) * fold.side
        s = float((x - np.asarray(fold.anchor)) @ n)
        if s > 0:
            x = x - 2 * s * n
    return x


def _lands_on_punch(stimulus, hole) -> bool:
    punches = stimulus.query[-1].punches
    return min(math.dist(_forward(stimulus, hole), p) for p in punches) < 1e-6


# -- geometry ---------------------------------------------------------------------------------------------------
def test_reflection_is_an_involution_about_its_line():
    m = folding.reflection((0.3, 0.6), 37.0)
    p = np.array([[0.1, 0.2], [0.9, 0.4]])
    assert np.allclose(folding.apply(m, folding.apply(m, p)), p)
    on_line = [0.3 + math.cos(math.radians(37)), 0.6 + math.sin(math.radians(37))]
    assert np.allclose(folding.apply(m, [on_line]), [on_line])


def test_second_fold_reflects_about_the_actual_crease_not_the_sheet_centre():
    # the release's bug (spec §2.7): V then V reflects the second copy about x = centre, not the real crease
    sheet = folding.sheet_polygon("square")
    lo = 0.5 - folding.SQUARE_HALF_SIDE
    # fold 1 lays the left half onto the right, fold 2 the right quarter back onto the middle strip
    folds = [folding.Fold((0.5, 0.5), 90.0, 1), folding.Fold(((1.0 + folding.SQUARE_HALF_SIDE) / 2, 0.5), 90.0, -1)]
    layers = folding.fold_sequence(sheet, folds)[-1]
    crease = folds[1].anchor[0]
    punch = (crease - 0.05, 0.4)
    holes = sorted(round(h[0][0], 6) for h in folding.punch(layers, punch))
    # layers: the kept strip, the strip folded over it, and the two layers of the left half folded twice
    p = punch[0]
    expected = sorted(round(x, 6) for x in (p, 2 * crease - p, 1.0 - p, 1.0 - (2 * crease - p)))
    assert holes == expected
    assert all(lo < x < 1 - lo for x in holes)


def test_a_hole_appears_only_where_paper_is():
    sheet = folding.sheet_polygon("hexagon")
    # an off-centre fold leaves a one-layer overhang: a punch there makes a single hole
    fold = folding.Fold((0.62, 0.5), 90.0, 1)
    layers = folding.fold_sequence(sheet, [fold])[-1]
    overhang = (0.95, 0.5)  # the bigger left part, laid over, sticks out beyond the right edge
    assert folding.layers_under(layers, [(0.7, 0.5)])[0] == 2
    assert folding.layers_under(layers, [overhang])[0] == 1
    assert len(folding.punch(layers, overhang)) == 1


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_true_holes_are_exactly_the_layers_under_each_punch(difficulty, stimulus):
    correct = stimulus.correct
    assert correct.latent["holes"] == sum(stimulus.facts["layers_per_punch"])
    sheet = folding.sheet_polygon(stimulus.facts["sheet"])
    for hole in correct.content.holes:
        assert sheet.contains(Point(hole))
        assert _lands_on_punch(stimulus, hole)
    assert folding.min_separation(correct.content.holes) >= 2 * pf.CLEARANCE - 1e-9


# -- the scene solver and the distractors -----------------------------------------------------------------------
def _scene(stimulus, shown, size="1024x1024"):
    """The scene record of a stimulus with the options in ``shown`` order, as JSON would give it back."""
    import json

    return json.loads(json.dumps(pf.TASK.scene(stimulus, shown, size)))


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_scene_solver_singles_out_the_constructed_answer(difficulty, stimulus):
    options = list(stimulus.options)
    scene = _scene(stimulus, options)
    assert pf.TASK.solve_scene(scene) == [0]
    assert verifier.record_failures(scene) == []
    assert pf.TASK.solve_scene(_scene(stimulus, options[::-1])) == [len(options) - 1]


def test_unfolding_walks_each_punch_back_through_the_folds():
    # the moving side is where side * n . (x - anchor) > 0, n = (-sin, cos): the right half turns onto the left
    # (vertical line, side -1), then the top onto the bottom (horizontal line, side -1)
    sheet = [[0.13, 0.13], [0.87, 0.13], [0.87, 0.87], [0.13, 0.87]]
    folds = [{"anchor": [0.5, 0.5], "angle": 90.0, "side": -1}, {"anchor": [0.5, 0.5], "angle": 0.0, "side": -1}]
    holes, problems = verifier.unfold(sheet, folds, [[0.3, 0.7]])
    assert not problems
    assert verifier.same_holes(holes, [[0.3, 0.7], [0.7, 0.7], [0.3, 0.3], [0.7, 0.3]])
    assert verifier.forward([0.7, 0.3], folds) == pytest.approx((0.3, 0.7))
    # a punch where the first fold left no paper makes no hole
    assert verifier.unfold(sheet, folds[:1], [[0.7, 0.5]])[0] == []


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_every_foil_is_a_different_hole_set_and_really_wrong(difficulty, stimulus):
    sets = [o.content.holes for o in stimulus.options]
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            assert not folding.same_set(sets[i], sets[j], pf.SAME_TOLERANCE)
    truth = stimulus.correct.content.holes
    n = len(truth)
    punches = stimulus.query[-1].punches
    for option in stimulus.options[1:]:
        holes = option.content.holes
        assert option.template in pf.TEMPLATES
        # some hole of every foil does not unfold from a punch, or a true hole is missing
        assert len(holes) < n or not all(_lands_on_punch(stimulus, h) for h in holes)
        assert folding.min_separation(holes) >= pf.FOIL_SEPARATION - 1e-9
        if option.template == "minus_one":
            assert len(holes) == n - 1
        if option.template in ("parity", "skip_fold"):
            assert 0 < len(holes) < n
        if option.template == "no_unfold":
            assert len(holes) == len(punches)
        if option.template == "random_shift":
            assert len(holes) == n
        if option.template == "extra_layer":  # every true hole plus one where no layer reaches
            assert len(holes) == n + 1 and all(min(math.dist(t, h) for h in holes) < 1e-9 for t in truth)
        if option.template == "phantom_fold":  # every true hole plus its mirror images about an unfolded axis
            assert len(holes) > n and all(min(math.dist(t, h) for h in holes) < 1e-9 for t in truth)
        if option.role == "confound":
            assert option.template in pf.CONFOUNDS
    assert [o.role for o in stimulus.options].count("confound") == 1


MANY = _stimuli(150)


def test_every_template_occurs():
    seen = {o.template for _, stimulus in MANY for o in stimulus.options[1:]}
    assert seen == set(pf.TEMPLATES)
    confounds = {o.template for _, stimulus in MANY for o in stimulus.options if o.role == "confound"}
    assert {"mirrored_fold", "point_reflect", "extra_layer"} <= confounds <= set(pf.CONFOUNDS)


def test_hole_count_tells_nothing_about_the_answer():
    """The truth's hole count is sometimes the highest, sometimes the lowest, sometimes in between, and every
    hole-count shortcut (max, min, nearest to / furthest from the median or mean, shared, unique, sole max or
    min) picks it at chance, within three binomial standard deviations."""
    hits = np.zeros(len(pf.COUNT_SHORTCUTS))
    places = {"highest": 0, "lowest": 0, "strictly lowest": 0, "between": 0}
    for _, stimulus in MANY:
        counts = [len(o.content.holes) for o in stimulus.options]
        hits += pf.count_shortcut_hits(counts)
        n, others = counts[0], counts[1:]
        places["highest"] += n > max(others)
        places["lowest"] += n <= min(others)
        places["strictly lowest"] += n < min(others)
        places["between"] += min(others) < n < max(others)
    rates = dict(zip(pf.COUNT_SHORTCUTS, hits / len(MANY), strict=True))
    bound = 3 * math.sqrt(0.25 * 0.75 / len(MANY))
    for rate in rates.values():
        assert abs(rate - 0.25) <= bound, rates
    assert min(places["highest"], places["lowest"], places["between"]) >= 0.1 * len(MANY), places
    assert places["strictly lowest"] >= 1, places  # rarer: it needs three foils with extra holes


@pytest.mark.slow
def test_foil_choice_balances_the_count_shortcuts_in_expectation(monkeypatch):
    """Per item, the weights over foil sets bring every fully weighted count shortcut within 0.03 of chance, so
    over many items the expected hit rates sit at chance (no sampling noise in this check)."""
    expected = []
    real = pf.balanced_weights

    def spy(hits, target, **kwargs):
        weights = real(hits, target, **kwargs)
        expected.append((hits @ weights) / pf.SHORTCUT_WEIGHTS)
        return weights

    monkeypatch.setattr(pf, "balanced_weights", spy)
    kept = []
    real_choose = pf.choose_foils

    def choose(rng, foils, *args):
        chosen = real_choose(rng, foils, *args)
        if chosen is not None:
            kept.append(expected[-1])
        return chosen

    monkeypatch.setattr(pf, "choose_foils", choose)
    _stimuli(60)
    rates = dict(zip(pf.COUNT_SHORTCUTS, np.mean(kept, axis=0), strict=True))
    for name, weight in zip(pf.COUNT_SHORTCUTS, pf.SHORTCUT_WEIGHTS, strict=True):
        assert abs(rates[name] - 0.25) <= (0.015 if weight == 1 else 0.05), rates


@pytest.mark.slow
def test_foil_choice_keeps_the_elongation_shortcuts_near_chance(monkeypatch):
    """The option whose ink is the most (least) elongated is the truth about a quarter of the time in expectation
    over the square choice's weights (the generator's layout model, 90 stimuli): an exact unfolding lines its
    holes up about the creases, and with the elongation shortcuts pulled as weakly as the others
    (``LAYOUT_WEIGHTS`` 0.5) the most elongated option was the truth 31.8% of the time in the blind audit (this
    check gave 0.28 and 0.23 then; 0.254 and 0.245 with 0.2.3's solver)."""
    rows = {rule: 2 + pf.LAYOUT_SHORTCUTS.index(f"{rule} elongation") for rule in ("max", "min")}
    pulls: list[np.ndarray] = []
    expected: list[dict[str, float]] = []
    real_pulls, real_weights, real_choose = pf.square_pulls, pf.balanced_weights, pf.choose_foils

    def pulls_spy(*args):
        out = real_pulls(*args)  # the rows pulled towards their targets, one column per square
        pulls.append(out)
        return out

    def weights_spy(hits, target, **kwargs):
        weights = real_weights(hits, target, **kwargs)
        rates = pulls[-1] @ (weights / weights.sum())
        expected.append({rule: float(rates[row]) for rule, row in rows.items()})
        return weights

    def choose_spy(rng, foils, *args):
        pulls.clear()
        expected.clear()
        chosen = real_choose(rng, foils, *args)
        if chosen is not None:
            kept.append(expected[-1])
        return chosen

    kept: list[dict[str, float]] = []
    monkeypatch.setattr(pf, "square_pulls", pulls_spy)
    monkeypatch.setattr(pf, "balanced_weights", weights_spy)
    monkeypatch.setattr(pf, "choose_foils", choose_spy)
    _stimuli(90)
    for rule in rows:
        rate = float(np.mean([k[rule] for k in kept]))
        assert abs(rate - 0.25) <= 0.02, (rule, rate)


def test_count_shortcut_hits_break_ties_at_random():
    assert pf.count_shortcut_hits([4, 4, 4, 4]).tolist() == [0.25] * len(pf.COUNT_SHORTCUTS)
    hits = dict(zip(pf.COUNT_SHORTCUTS, pf.count_shortcut_hits([8, 2, 4, 4]), strict=True))
    assert hits["max"] == 1 and hits["min"] == 0 and hits["odd"] == 1 and hits["unique"] == 0.5
    hits = dict(zip(pf.COUNT_SHORTCUTS, pf.count_shortcut_hits([4, 4, 5, 8]), strict=True))
    assert hits["min"] == 0.5 and hits["max"] == 0 and hits["shared"] == 0.5


# -- difficulty knobs -------------------------------------------------------------------------------------------
def test_difficulty_sets_the_knob_score():
    for difficulty, stimulus in STIMULI:
        score = stimulus.facts["knob_score"]
        assert score == {"easy": 0, "medium": 1}.get(difficulty, score)
        if difficulty == "hard":
            assert score >= 2
        knobs = stimulus.facts["knobs"]
        assert score == pf.knob_score(knobs["sheet"], knobs["fold_group"], knobs["punches"])
        assert len(stimulus.facts["punch_points"]) == knobs["punches"]


def test_explicit_knobs_override_the_difficulty():
    for seed in range(6):
        stimulus = pf.TASK.build(np.random.default_rng(seed), "easy", {"sheet": "hexagon", "fold_group": "diagonal"})
        assert stimulus.facts["sheet"] == "hexagon"
        angles = {f["angle"] for f in stimulus.facts["folds"]}
        assert angles <= {30.0, 60.0, 120.0, 150.0}  # the hexagon's own oblique axes, never 45 degrees


def test_fold_lines_follow_the_group():
    for _, stimulus in STIMULI:
        angles = {f["angle"] for f in stimulus.facts["folds"]}
        assert angles <= set(pf.FOLD_ANGLES[(stimulus.facts["sheet"], stimulus.facts["fold_group"])])


# -- rendering and legibility -----------------------------------------------------------------------------------
def test_holes_and_strokes_stay_legible_on_the_small_canvas():
    tile = Layout(SIZES["600x800"], pf.TASK.query_count, 4, 4).tile
    assert pf.HOLE_RADIUS * tile >= 5.0
    assert (pf.CLEARANCE - pf.HOLE_RADIUS) * tile >= 2.0  # a visible gap between a hole and a crease or edge


def test_fold_panels_shade_the_flap_grey_and_options_show_every_hole():
    built = _built(4, 0, size="600x800", difficulty="medium")
    pixels = np.asarray(built.images[0].convert("RGB"))
    scene = built.item.metadata["scene"]
    for box in scene["query_boxes"][1:3]:
        panel = pixels[box[1]:box[3], box[0]:box[2]]
        assert (np.abs(panel.astype(int) - 211).max(axis=2) <= 2).mean() > 0.02  # the #D3D3D3 flap
    tile = scene["tile"]
    for option, box in zip(scene["options"], scene["option_boxes"], strict=True):
        for x, y in option["holes"]:
            assert pixels[round(box[1] + y * tile), round(box[0] + x * tile)].max() < 60  # a dark dot at each hole
        found = verifier.find_discs(pixels[box[1]:box[3], box[0]:box[2]], option["radius"] * tile)
        assert len(found) == len(option["holes"])


# -- planted faults: verify must catch each -----------------------------------------------------------------------
def _built(seed, index, **settings):
    job = plan(TASK, settings, seed, index + 1)[index]
    return build_item(_HOST, TASK, seed, index, job.params, job.suffix)


FAULT_ITEMS = [(seed, index) for seed in (1, 2, 3) for index in (0, 1)]


def _render(problem, **patches):
    """The problem's image drawn with some drawing methods replaced."""
    with pytest.MonkeyPatch.context() as mp:
        for name, function in patches.items():
            mp.setattr(pf.PaperFolding, name, function)
        return pf.TASK.render(problem)


def _scene_item(item, change):
    """A copy of ``item`` whose scene record ``change`` edits in place."""
    metadata = copy.deepcopy(item.metadata)
    change(metadata["scene"])
    return attrs.evolve(item, metadata=metadata)


def _answer_index(item):
    return "ABCD".index(item.answer)


@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_options_drawn_one_slot_off(seed, index):
    built = _built(seed, index)
    stimulus, shown = built.problem.structure
    rolled = attrs.evolve(built.problem, structure=(stimulus, tuple(shown[-1:]) + tuple(shown[:-1])))
    failures = assert_rejected(_HOST, TASK, built.item, pf.TASK.render(rolled), "options drawn one slot off")
    assert any("holes" in f for f in failures), failures  # the holes found on the pixels disagree


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_a_distractor_made_correct(seed, index):
    built = _built(seed, index)
    answer = _answer_index(built.item)
    truth = built.item.metadata["scene"]["options"][answer]["holes"]
    stimulus, shown = built.problem.structure
    for wrong in (k for k in range(4) if k != answer):
        # in the record only
        bad = _scene_item(built.item, lambda scene, w=wrong: scene["options"][w].update(holes=copy.deepcopy(truth)))
        assert_rejected(_HOST, TASK, bad, [decode_png(p) for p in built.pngs], f"option {wrong} made correct (record)")
        # in the record and the picture
        fixed = list(shown)
        fixed[wrong] = attrs.evolve(shown[wrong], content=attrs.evolve(shown[wrong].content,
                                                                       holes=shown[answer].content.holes))
        image = pf.TASK.render(attrs.evolve(built.problem, structure=(stimulus, tuple(fixed))))
        assert_rejected(_HOST, TASK, bad, image, f"option {wrong} made correct (record and picture)")


def _mirror_x(points):
    return tuple((1.0 - x, y) for x, y in points)


def _mirror_y(points):
    return tuple((x, 1.0 - y) for x, y in points)


@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_holes_drawn_mirrored(seed, index):
    built = _built(seed, index)
    real = pf.PaperFolding.draw_option
    for flip in (_mirror_x, _mirror_y):
        changed = [o for o in built.problem.structure[1]
                   if not verifier.same_holes(flip(o.content.holes), o.content.holes, 0.02)]
        if not changed:
            continue  # every hole pattern is symmetric about this axis: mirroring draws the same picture
        target = changed[0].content

        def mirrored(self, content, side, target=target, flip=flip):
            if content is target:
                content = attrs.evolve(content, holes=flip(content.holes))
            return real(self, content, side)

        assert_rejected(_HOST, TASK, built.item, _render(built.problem, draw_option=mirrored),
                        f"holes of one option drawn mirrored ({flip.__name__})")


@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_punch_drawn_elsewhere(seed, index):
    built = _built(seed, index)
    real = pf.PaperFolding.draw_query

    def moved(self, content, side):
        if content.punches:
            (x, y), rest = content.punches[0], content.punches[1:]
            content = attrs.evolve(content, punches=((x + 0.06, y), *rest))
        return real(self, content, side)

    assert_rejected(_HOST, TASK, built.item, _render(built.problem, draw_query=moved), "punch drawn elsewhere")


@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_flap_shading_swapped(seed, index):
    built = _built(seed, index)
    real_polygon = pf.PaperFolding._polygon

    def swapped(self, tile, ring, fill):
        return real_polygon(self, tile, ring, pf.PAPER if fill == pf.FLAP else pf.FLAP)

    assert_rejected(_HOST, TASK, built.item, _render(built.problem, _polygon=swapped), "flap and paper shading swapped")


@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_fold_recorded_on_the_other_side(seed, index):
    built = _built(seed, index)

    def flip(scene):
        scene["query"][1]["fold"]["side"] = -scene["query"][1]["fold"]["side"]

    bad = _scene_item(built.item, flip)
    assert_rejected(_HOST, TASK, bad, [decode_png(p) for p in built.pngs], "first fold recorded on the other side")


@pytest.mark.parametrize(("seed", "index"), FAULT_ITEMS)
def test_planted_fault_second_fold_drawn_about_another_line(seed, index):
    built = _built(seed, index)
    stimulus, shown = built.problem.structure
    sheet = folding.sheet_polygon(stimulus.facts["sheet"])
    first, second = stimulus.query[1].fold, stimulus.query[2].fold
    other = folding.Fold(second.anchor, (second.angle + 90.0) % 180.0, second.side)
    states = folding.fold_sequence(sheet, [first, other])
    query = list(stimulus.query)
    query[2] = attrs.evolve(query[2], layers=tuple(states[2]), fold=other)
    query[3] = attrs.evolve(query[3], layers=tuple(states[2]), fold=other)
    image = pf.TASK.render(attrs.evolve(built.problem, structure=(attrs.evolve(stimulus, query=tuple(query)), shown)))
    assert_rejected(_HOST, TASK, built.item, image, "second fold drawn about another line")


def test_unmutated_items_verify_on_both_canvases():
    for size in ("1024x1024", "600x800"):
        built = _built(9, 0, size=size)
        assert not verify_item(_HOST, TASK, built.item, [decode_png(p) for p in built.pngs])


def test_arrange_keeps_the_answer_where_the_record_says():
    stimulus = STIMULI[0][1]
    shown = arrange(stimulus.options, 2, np.random.default_rng(0))
    assert pf.TASK.solve_scene(_scene(stimulus, shown)) == [2]
