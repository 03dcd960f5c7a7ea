"""Paper Folding (PF): exact folding geometry, the independent raster solver, the distractor templates,
difficulty knobs, legibility, and the core's conformance suite on a private host."""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import Point

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.host import create_host
from bench_core.seeding import ItemRandom
from bench_plugin_mindseye import folding
from bench_plugin_mindseye import paper_folding as pf
from bench_plugin_mindseye.descriptions.paper_folding import TASK
from bench_plugin_mindseye.layout import SIZES, Layout


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-paper-folding", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

    def bench_host(self):
        return _HOST


def _stimuli(count: int = 45, **params):
    """(difficulty, stimulus) over many seeds, every difficulty."""
    out = []
    for seed in range(count):
        difficulty = ("easy", "medium", "hard")[seed % 3]
        out.append((difficulty, pf.TASK.build(np.random.default_rng(seed), difficulty, params)))
    return out


STIMULI = _stimuli()


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


# -- the solver and the distractors ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_solver_singles_out_the_constructed_answer(difficulty, stimulus):
    options = list(stimulus.options)
    assert pf.TASK.solve(stimulus, options) == [0]
    assert pf.TASK.solve(stimulus, options[::-1]) == [len(options) - 1]


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

    def choose(rng, foils):
        chosen = real_choose(rng, foils)
        if chosen is not None:
            kept.append(expected[-1])
        return chosen

    monkeypatch.setattr(pf, "choose_foils", choose)
    _stimuli(60)
    rates = dict(zip(pf.COUNT_SHORTCUTS, np.mean(kept, axis=0), strict=True))
    for name, weight in zip(pf.COUNT_SHORTCUTS, pf.SHORTCUT_WEIGHTS, strict=True):
        assert abs(rates[name] - 0.25) <= (0.015 if weight == 1 else 0.05), rates


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
    impl = pf.TASK
    params = TASK.resolve_params({"size": "600x800", "difficulty": "medium"})
    problem = impl.generate(params, ItemRandom(TASK.id, TASK.version, 4, 0))
    image = impl.render(problem)[0]
    pixels = np.asarray(image)
    for box in problem.metadata["query_bboxes"][1:3]:
        panel = pixels[box[1]:box[3], box[0]:box[2]]
        assert (np.abs(panel.astype(int) - 211).max(axis=2) <= 2).mean() > 0.02  # the #D3D3D3 flap
    assert impl.verify(problem, [image]) == []
    _, shown = problem.structure
    for option, meta in zip(shown, problem.metadata["options"], strict=True):
        left, top = meta["bbox"][:2]
        tile = problem.metadata["options"][0]["bbox"][2] - problem.metadata["options"][0]["bbox"][0]
        for x, y in option.content.holes:
            assert pixels[round(top + y * tile), round(left + x * tile)].max() < 60  # a dark dot at each hole
