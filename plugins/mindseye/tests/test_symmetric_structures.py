"""Symmetric Structures (SS): the drawn-symmetry solver, the construction of conformers and the odd figure,
leak checks (stroke count, size, box shape, stroke length), difficulty knobs, legibility, and the core's
conformance suite on a private host."""

from __future__ import annotations

import numpy as np
import pytest

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.host import create_host
from bench_plugin_mindseye import folding
from bench_plugin_mindseye import symmetric_structures as ss
from bench_plugin_mindseye.base import option_features
from bench_plugin_mindseye.descriptions.symmetric_structures import TASK
from bench_plugin_mindseye.layout import SIZES, Layout, Tile


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-symmetric-structures", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

    def bench_host(self):
        return _HOST


def _stimuli(count: int, **params):
    return [(("easy", "medium", "hard")[seed % 3], ss.TASK.build(np.random.default_rng(seed), ("easy", "medium",
                                                                                                 "hard")[seed % 3],
                                                                    params))
            for seed in range(count)]


STIMULI = _stimuli(48)
EXPECTED = {"vertical": (True, 1), "horizontal": (True, 1), "rot2": (False, 2), "rot4": (False, 4)}


# -- the solver on hand-made figures --------------------------------------------------------------------------------
def _figure(points, *copies):
    return ss.normalise([np.asarray(points, dtype=float), *[np.asarray(c, dtype=float) for c in copies]])


def test_drawn_symmetry_recognises_textbook_figures():
    arrow = _figure([(-1, 1), (0, 0), (1, 1)], [(0, 0), (0, 2)])
    zed = _figure([(-1, 1), (1, 1), (-1, -1), (1, -1)])
    arms = [[(0, 0), (1, 0), (1, 0.6)]]
    pinwheel = _figure(*[folding.apply(folding.rotation((0, 0), 90 * k), arms[0]) for k in range(4)])
    hook = _figure([(0, 0), (2, 0), (2, 1), (1.4, 1.3)])
    assert ss.drawn_symmetry(arrow) == (True, 1)
    assert ss.drawn_symmetry(zed) == (False, 2)
    assert ss.drawn_symmetry(pinwheel) == (False, 4)
    assert ss.drawn_symmetry(hook) == (False, 1)
    # an oblique mirror axis counts as well as a vertical one
    tilted = tuple(folding.apply(folding.rotation((0, 0), 33.0), p) for p in arrow)
    assert ss.drawn_symmetry(tilted) == (True, 1)


# -- construction ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_solver_agrees_with_the_construction(difficulty, stimulus):
    options = list(stimulus.options)
    assert ss.TASK.solve(stimulus, options) == [0]
    assert ss.TASK.solve(stimulus, options[1:] + options[:1]) == [3]


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_conformers_have_exactly_the_shared_symmetry_and_the_odd_one_none(difficulty, stimulus):
    kind = stimulus.facts["symmetry"]
    for option in stimulus.options:
        found = ss.drawn_symmetry(option.content.polylines)
        assert found == ((False, 1) if option.role == "correct" else EXPECTED[kind]), option.template
    assert [o.template for o in stimulus.options] == ["broken_copy", "perturbed_pair", "tilted", "plain"]
    assert stimulus.options[1].role == "confound"


@pytest.mark.parametrize(("difficulty", "stimulus"), STIMULI)
def test_no_stroke_count_or_size_leak(difficulty, stimulus):
    # the release's asymmetric panel had half the strokes and was scaled up (spec §2.5, §7.2)
    counts = {len(ss.segments_of(o.content.polylines)) for o in stimulus.options}
    assert counts == {stimulus.facts["strokes_per_figure"]}
    for option in stimulus.options:
        v = np.concatenate(option.content.polylines)
        extent = v.max(axis=0) - v.min(axis=0)
        assert abs(extent.max() - 1.0) < 1e-9
        assert np.allclose((v.max(axis=0) + v.min(axis=0)) / 2, 0.0)
        assert ss.clear(option.content.polylines) and ss.crossings(option.content.polylines) == 0
        if stimulus.facts["symmetry"] == "rot4":
            assert extent.min() >= 0.97  # four-fold figures have square boxes; the odd one nearly so


def test_axis_orientation_never_isolates_one_panel():
    for _, stimulus in STIMULI:
        assert sum(o.latent["oblique"] for o in stimulus.options) == 2
        assert stimulus.options[2].latent["oblique"]


def test_stroke_length_does_not_point_at_the_answer():
    ranks = []
    for _, stimulus in _stimuli(90, segments=5):
        lengths = [o.latent["length"] for o in stimulus.options]
        ranks.append(int(np.argsort(np.argsort(lengths))[0]))
    top = ranks.count(3) / len(ranks)
    bottom = ranks.count(0) / len(ranks)
    assert top < 0.4 and bottom < 0.4, (top, bottom)


# -- difficulty knobs -------------------------------------------------------------------------------------------
def test_difficulty_sets_segments_and_closeness():
    for difficulty, stimulus in STIMULI:
        segments, closeness = ss.DIFFICULTY_KNOBS[difficulty]
        assert stimulus.facts["segments_per_copy"] == segments
        assert stimulus.facts["knobs"]["closeness"] == closeness
        copies = {"vertical": 2, "horizontal": 2, "rot2": 2, "rot4": 4}[stimulus.facts["symmetry"]]
        assert stimulus.facts["strokes_per_figure"] == segments * copies
        stroke = stimulus.options[0].latent["break"]["stroke"]
        if closeness == "near":
            assert stroke == segments
        elif closeness == "mid":
            assert segments - 2 <= stroke <= segments - 1
        else:
            assert 2 <= stroke <= (segments + 1) // 2 + 1


def test_explicit_knobs_override_the_difficulty():
    for seed in range(4):
        stimulus = ss.TASK.build(np.random.default_rng(seed), "easy",
                                 {"symmetry": "rot4", "segments": 3, "closeness": "near"})
        assert stimulus.facts["symmetry"] == "rot4" and stimulus.facts["k"] == 4
        assert stimulus.facts["strokes_per_figure"] == 12
        assert stimulus.options[0].latent["break"]["stroke"] == 3


def test_every_symmetry_type_occurs():
    assert {s.facts["symmetry"] for _, s in STIMULI} == set(ss.SYMMETRIES)


# -- legibility -------------------------------------------------------------------------------------------------
def test_strokes_are_at_least_two_pixels_on_the_small_canvas():
    side = Layout(SIZES["600x800"], 0, 4, 4).tile
    tile = Tile(side)
    width = max(2 * tile.supersample, round(ss.STROKE * tile.scale))
    assert width / tile.supersample >= 2
    image = ss.TASK.draw_option(STIMULI[0][1].options[0].content, side)
    assert image.size == (side, side)
    assert (np.asarray(image.convert("L")) < 100).mean() > 0.01


def test_ink_and_box_follow_one_size_order_with_the_odd_figure_anywhere():
    side = ss.TASK.layout("1024x1024").tile
    ranks = set()
    for _, stimulus in STIMULI[:24]:
        features = [option_features(ss.TASK.draw_option(o.content, side)) for o in stimulus.options]
        orders = [list(np.argsort([f[name] for f in features])) for name in ("ink", "extent")]
        assert orders[0] == orders[1]
        ranks.add(orders[0].index(0))  # the odd figure is option 0
        scales = [o.content.scale for o in stimulus.options]
        assert max(scales) == pytest.approx(1.0) and min(scales) >= 1 / 1.6 - 1e-9
        assert [o.latent["scale"] for o in stimulus.options] == [round(s, 4) for s in scales]
    assert ranks == {0, 1, 2, 3}
