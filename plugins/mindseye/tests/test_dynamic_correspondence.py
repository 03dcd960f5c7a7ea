"""Dynamic Structural Correspondence (DSC): motions are inferable, the motion-fitting solver agrees with the
construction, every foil template is really wrong (also up to polygon symmetry), the knobs act, and the core's
conformance suite passes on a private host."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.generation import build_item, plan
from bench_core.host import create_host
from bench_plugin_mindseye import dynamic_correspondence as dsc
from bench_plugin_mindseye import motion
from bench_plugin_mindseye.descriptions.dynamic_correspondence import TASK
from bench_plugin_mindseye.layout import SIZES, Layout


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-dynamic_correspondence", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

    def bench_host(self):
        return _HOST


def _build(seed: int, index: int, **settings):
    job = plan(TASK, settings, seed, index + 1)[index]
    return build_item(_HOST, TASK, seed, index, job.params, job.suffix)


ALL_MOTIONS = motion.LINEAR + motion.PERIODIC + motion.COMPOUND


# -- motions and the solver -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL_MOTIONS)
def test_every_motion_is_inferable_from_four_frames(name):
    """For every shape and speed, the solver's one prediction from t = 0 ... 0.75 is the outline at t = 1."""
    rng = np.random.default_rng(ALL_MOTIONS.index(name))
    for shape in motion.SHAPES:
        for speed in motion.SPEEDS.values():
            m = motion.make_motion(name, shape, speed, rng)
            base = np.array([0.0, 0.0, rng.uniform(0, 2 * math.pi), math.log(0.25), math.log(0.25), 0.0])
            frames = [motion.outline(shape, base + m.delta(t)) for t in dsc.TIMES]
            frames = [np.roll(f, int(rng.integers(len(f))), axis=0) for f in frames]  # no vertex order to lean on
            truth = motion.outline(shape, base + m.delta(1.0))
            assert motion.recognise(frames[0]) == shape
            predicted = motion.predict(shape, frames)
            assert len(predicted) == 1, (name, shape, speed)
            assert motion.set_distance(predicted[0], truth) < 1e-6, (name, shape, speed)


def test_set_distance_sees_through_polygon_symmetry():
    base = np.array([0.1, -0.2, 0.3, math.log(0.3), math.log(0.3), 0.0])
    for shape, order in motion.SYMMETRY.items():
        turned = base + np.array([0, 0, 2 * math.pi / order, 0, 0, 0])
        assert motion.set_distance(motion.outline(shape, base), motion.outline(shape, turned)) < 1e-9
        half = base + np.array([0, 0, math.pi / order, 0, 0, 0])
        assert motion.set_distance(motion.outline(shape, base), motion.outline(shape, half)) > 0.1


def test_solver_agrees_with_the_construction_without_the_safety_net(monkeypatch):
    """``build`` drops any draw the solver reads differently; here the solver is consulted before that filter
    and must never disagree."""
    verdicts = []
    real = dsc.DynamicCorrespondence.solve

    def spy(self, stimulus, shown):
        verdicts.append(real(self, stimulus, shown))
        return [0]

    monkeypatch.setattr(dsc.DynamicCorrespondence, "solve", spy)
    for seed in range(240):
        rng = np.random.default_rng(seed)
        dsc.TASK._attempt(rng, ("linear", "periodic", "compound")[seed % 3], ("fast", "medium", "slow")[seed % 3])
    assert len(verdicts) > 60
    assert all(v == [0] for v in verdicts)


# -- items: foils, templates, knobs ---------------------------------------------------------------------
def _scenes(built):
    stimulus, shown = built.problem.structure
    return stimulus, shown


def test_foils_are_wrong_distinct_and_on_canvas():
    for index in range(30):
        built = _build(3, index)
        stimulus, shown = _scenes(built)
        truth = next(o for o in shown if o.role == "correct").content
        names = [o.template for o in shown if o.role != "correct"]
        assert len(set(names)) == 3 and set(names) <= set(dsc.TEMPLATES)
        assert [o.role for o in shown].count("confound") == 1
        for i, a in enumerate(shown):
            assert all(float(np.abs(v).max()) <= dsc.LIMIT for v in a.content.values())
            for b in shown[i + 1:]:
                assert dsc._distance(a.content, b.content) >= dsc.VISIBLE
        assert dsc.TASK.solve(stimulus, shown) == ["ABCD".index(built.item.answer)]
        for option in shown:
            if option.role != "correct":
                assert dsc._distance(option.content, truth) >= dsc.VISIBLE


def test_templates_mean_what_they_say():
    for index in range(24):
        built = _build(4, index)
        stimulus, shown = _scenes(built)
        facts = built.item.metadata
        shapes = facts["shapes"]
        truth = next(o for o in shown if o.role == "correct").content
        last = stimulus.query[-1]
        for option in shown:
            if option.template in ("frozen", "wrong_function", "overshoot"):
                key = option.latent["shape"]
                other = "B" if key == "A" else "A"
                assert motion.set_distance(option.content[other], truth[other]) < 1e-9
                assert motion.set_distance(option.content[key], truth[key]) >= dsc.VISIBLE
                if option.template == "frozen":
                    assert motion.set_distance(option.content[key], last[key]) < 1e-9
            elif option.template == "wrong_time":  # both shapes at a wrong time: neither is at t = 1
                assert all(motion.set_distance(option.content[k], truth[k]) > 0 for k in ("A", "B"))
                if option.latent["t"] == 0.75:  # a repeat of the last frame
                    assert all(motion.set_distance(option.content[k], last[k]) < 1e-9 for k in ("A", "B"))
            elif option.template == "out_of_step":  # one shape a step behind (its t = 0.75 pose), one ahead
                behind, ahead = option.latent["behind"], option.latent["ahead"]
                assert motion.set_distance(option.content[behind], last[behind]) < 1e-9
                assert motion.set_distance(option.content[ahead], truth[ahead]) > 0
            for key in ("A", "B"):  # every option shows the same two shapes in the same styles
                assert len(option.content[key]) == len(motion.SHAPES[shapes[key]])


def test_pose_voting_never_singles_out_the_truth():
    """Voting for each shape's most common pose across the options never picks the truth alone (every set of
    foils is checked for it), so the vote scores well below 50%."""
    votes = 0
    items = 0
    for index in range(40):
        shown = _scenes(_build(5, index))[1]
        items += 1
        votes += _majority_vote(shown) == next(k for k, o in enumerate(shown) if o.role == "correct")
    assert votes == 0
    assert votes / items < 0.5


def _majority_vote(shown):
    """The shortcut: per shape, count how many options share each option's pose; pick the highest total."""
    scores = []
    for option in shown:
        score = 0
        for key in ("A", "B"):
            score += sum(motion.set_distance(option.content[key], other.content[key]) < 1e-9 for other in shown)
        scores.append(score)
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else -1


@pytest.mark.parametrize("motion_class", ["linear", "periodic", "compound"])
def test_motion_class_knob(motion_class):
    for index in range(4):
        facts = _build(6, index, motion=motion_class).item.metadata
        names = {facts["motions"][k]["name"] for k in ("A", "B")}
        assert facts["knobs"]["motion"] == motion_class
        if motion_class == "linear":
            assert names <= set(motion.LINEAR)
        elif motion_class == "periodic":
            assert names & set(motion.PERIODIC) and names & set(motion.LINEAR)
        else:
            assert names & set(motion.COMPOUND)


def test_speed_knob_scales_the_steps():
    rng = np.random.default_rng(7)
    means = {}
    for speed, factor in motion.SPEEDS.items():
        steps = []
        for _ in range(40):
            for name in ALL_MOTIONS:
                m = motion.make_motion(name, "pentagon", factor, rng)
                steps.append(np.abs(m.delta(0.25)).sum())
        means[speed] = float(np.mean(steps))
    assert means["slow"] < means["medium"] < means["fast"]


def test_difficulty_sets_the_knobs():
    for difficulty in ("easy", "medium", "hard"):
        knobs = _build(8, 0, difficulty=difficulty).item.metadata["knobs"]
        assert knobs == {"motion": dsc.MOTION_CLASS[difficulty], "speed": dsc.SPEED[difficulty]}


def test_every_template_gets_used_and_shapes_differ():
    used = Counter()
    confounds = Counter()
    for index in range(60):
        built = _build(9, index)
        used.update(o["template"] for o in built.item.metadata["options"])
        confounds.update(o["template"] for o in built.item.metadata["options"] if o["role"] == "confound")
        shapes = built.item.metadata["shapes"]
        assert shapes["A"] != shapes["B"]
    assert all(used[name] > 0 for name in dsc.TEMPLATES)
    assert set(confounds) <= set(dsc.TEMPLATES) and confounds["frozen"] + confounds["wrong_function"] > 0


def test_shortcut_hits_follow_the_test_suite_solvers():
    """``shortcut_hits`` equals the answer-balance test's nuisance solvers averaged over every order of the
    options (the answer's place is random), ties included."""
    import itertools
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_answer_balance_and_shortcuts import _shortcut_solvers

    rng = np.random.default_rng(0)
    for _ in range(60):
        features = rng.integers(0, 3, size=(1, 4, 3)).astype(float)
        expected = np.zeros(len(dsc.SHORTCUTS))
        for order in itertools.permutations(range(4)):
            picks = _shortcut_solvers([dict(zip(dsc.FEATURES, features[0, k], strict=True)) for k in order])
            expected += [picks[name] == order.index(0) for name in dsc.SHORTCUTS]
        assert np.allclose(dsc.shortcut_hits(features)[0], expected / 24)


def test_the_truth_is_not_the_typical_option(monkeypatch):
    """Over many items no nuisance shortcut (most/least ink, extent or saturation, furthest from or closest to
    the median) picks the truth more often than chance allows, in expectation over the drawn foil sets."""
    expected = []
    real = dsc.shortcut_hits

    def spy(features):
        hits = real(features)
        logits = -hits @ dsc.TILT
        weights = np.exp(logits - logits.max())
        expected.append(weights / weights.sum() @ hits)
        return hits

    monkeypatch.setattr(dsc, "shortcut_hits", spy)
    for seed in range(120):
        dsc.TASK.build(np.random.default_rng(seed), ("easy", "medium", "hard")[seed % 3], {"size": "600x800"})
    rates = np.mean(expected, axis=0)
    assert np.abs(rates - 0.25).max() <= 0.06, dict(zip(dsc.SHORTCUTS, rates.round(3), strict=True))


def test_legible_at_600x800():
    tile = Layout(SIZES["600x800"], 4, 4, 4).tile
    assert tile * dsc.STROKE >= 2.0
    assert tile * dsc.DASH >= 5.0
    built = _build(10, 0, size="600x800")
    assert built.images[0].size == (600, 800)
