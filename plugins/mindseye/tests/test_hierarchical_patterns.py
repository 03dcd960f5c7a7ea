"""Hierarchical Pattern Equivalence (HPE): the self-similarity solver against the constructions, the distractor
templates, the difficulty knobs, legibility, and the core's conformance suite on a private host."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.generation import build_item, plan
from bench_core.host import create_host
from bench_plugin_mindseye import recursion
from bench_plugin_mindseye.base import option_features
from bench_plugin_mindseye.descriptions.hierarchical_patterns import TASK
from bench_plugin_mindseye.hierarchical_patterns import STROKE
from bench_plugin_mindseye.hierarchical_patterns import TASK as IMPL
from bench_plugin_mindseye.layout import SIZES, Layout


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-hierarchical_patterns", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

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


# -- items: answer, templates, knobs --------------------------------------------------------------------
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


def test_families_knob():
    for index in range(6):
        single = _build(6, index, families="single").item.metadata["options"]
        assert len({o["latent"]["generator"] for o in single}) == 1
        paired = _build(6, index, families="paired").item.metadata["options"]
        assert sorted(Counter(o["latent"]["generator"] for o in paired).values()) == [2, 2]


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
def test_violator_is_not_an_ink_outlier_on_average():
    """Over many items the violator is the most- or least-inked panel about as often as chance (2 in 4)."""
    extremes, count = 0, 36
    for index in range(count):
        built = _build(11, index)
        answer = "ABCD".index(built.item.answer)
        ink = [option_features(t)["ink"] for t in IMPL.option_tiles(built.problem, built.images[0])]
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
