"""VRA (Visual Relation Abstraction): the attribute calculator on known drawings, the odd-one-out
construction over many seeds (the solver agrees with the construction, no positive is singled out by any
attribute, the negative lacks the concept), the difficulty knobs, legibility, and the core's conformance
suite on a private host."""

from __future__ import annotations

import numpy as np
import pytest

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.generation import build_item, plan
from bench_core.host import create_host
from bench_plugin_mindseye.attributes import AMBIGUOUS, LINE_ATTRIBUTES, isolations, line_attributes
from bench_plugin_mindseye.base import option_features
from bench_plugin_mindseye.descriptions.relation_abstraction import CONCEPTS as DESCRIBED
from bench_plugin_mindseye.descriptions.relation_abstraction import TASK
from bench_plugin_mindseye.layout import SIZES, Layout
from bench_plugin_mindseye.relation_abstraction import (
    CONCEPTS,
    FIT,
    SIZE_RANGE,
    STROKE,
    Stroke,
    edit_open_gap,
    edit_straighten,
    edit_uncross,
    fam_pierced,
    flatten,
)
from bench_plugin_mindseye.relation_abstraction import (
    TASK as IMPL,
)


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-relation-abstraction", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

    def bench_host(self):
        return _HOST


# -- the attribute calculator on drawings whose attributes are known ----------------------------------
def _arc(centre, radius, start, stop, step=5.0):
    t = np.radians(np.linspace(start, stop, int(abs(stop - start) / step) + 1))
    return np.column_stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)])


def _closed(points):
    p = np.asarray(points, dtype=float)
    return np.vstack([p, p[:1]])


SQUARE = [_closed([[0, 0], [1, 0], [1, 1], [0, 1]])]
TRIANGLE = [_closed([[0, 0], [1, 0], [0.2, 0.9]])]
PENTAGRAM = [_closed(np.array([[np.cos(a), np.sin(a)] for a in np.radians(90 + 144 * np.arange(5))]))]


def _circle():
    ring = _arc((0, 0), 1, 0, 360)
    ring[-1] = ring[0]
    return [ring]


def _sector(sweep):
    arc = _arc((0, 0), 1, 0, sweep)
    return [np.vstack([[[0, 0]], arc, [[0, 0]]])]


@pytest.mark.parametrize(
    ("strokes", "expected"),
    [
        (SQUARE, {"closed": True, "convex": True, "symmetric": True, "regular": True, "lines": 4, "quadrangle": True,
                  "triangle": False, "curved": False, "crossing": False, "parts": 1, "acute": False}),
        (TRIANGLE, {"closed": True, "convex": True, "symmetric": False, "triangle": True, "lines": 3, "acute": True,
                    "regular": False}),
        (PENTAGRAM, {"crossing": True, "convex": False, "symmetric": True, "triangle": True, "lines": 5}),
        (_circle(), {"closed": True, "convex": True, "curved": True, "lines": 0, "angle": False, "symmetric": True}),
        (_sector(70), {"sector": True, "convex": True, "lines": 2, "curved": True}),
        (_sector(300), {"sector": True, "convex": False}),
        ([np.array([[0, 0], [1, 0], [1.3, 1], [0.4, 1.4]])], {"closed": False, "lines": 3, "parts": 1}),
        ([np.array([[0, 0], [1, 1]]), np.array([[1, 0], [0, 1]])], {"crossing": True, "parts": 1, "closed": False}),
        ([np.array([[0, 0], [1, 0]]), np.array([[0.5, 0], [0.5, 1]])], {"crossing": False, "parts": 1}),
        ([SQUARE[0], np.array([[1.4, 0.2], [1.7, 0.9]])], {"parts": 2, "convex": False}),
        ([_closed([[0, 0], [3, 0], [3, 0.5], [0, 0.5]])], {"thin": True, "regular": False}),
        ([_closed([[0, 0], [1, 0], [1, 1], [0.5, 0.6], [0, 1]])], {"convex": False, "lines": 5, "symmetric": True}),
    ],
)
def test_attributes_of_known_drawings(strokes, expected):
    measured = line_attributes(strokes)
    for name, value in expected.items():
        assert measured[name] == value, (name, measured[name])


def test_a_barely_bent_edge_is_undecidable_not_a_curve():
    # a 9-degree kink between two long edges is neither a clear corner nor an arc: the figure is rejected
    strokes = [_closed([[0, 0], [1, 0], [2, 0.16], [1.2, 1.2]])]
    assert line_attributes(strokes)["curved"] == AMBIGUOUS


def test_edits_remove_exactly_their_attribute():
    rng = np.random.default_rng(3)
    square = [Stroke.make([[0, 0], [1, 0], [1, 1], [0, 1]], True)]
    opened = edit_open_gap(square, rng, 0.12)
    assert line_attributes([flatten(s, 0.02) for s in opened])["closed"] is False
    drop = [Stroke.make([[0, -2], [0.8, 0.6], [-0.8, 0.6]], True, [0, -1.5, 0])]
    straight = edit_straighten(drop, rng, 0.1)
    assert line_attributes([flatten(s, 0.02) for s in straight])["curved"] is False
    for _ in range(20):
        pierced = fam_pierced(rng)
        touched = edit_uncross(pierced, rng, 0.1)
        if touched is not None:
            assert line_attributes([flatten(s, 0.01) for s in touched])["crossing"] is False
            break
    else:
        pytest.fail("no crossing could be uncrossed")


# -- the construction over many seeds -----------------------------------------------------------------
def _build(concept, difficulty, seed, size="1024x1024"):
    return IMPL.build(np.random.default_rng(seed), difficulty, {"concept": concept, "size": size})


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@pytest.mark.parametrize("concept", sorted(CONCEPTS))
def test_solver_agrees_and_every_positive_is_really_wrong(concept, difficulty):
    for seed in (1, 2):
        stimulus = _build(concept, difficulty, seed)
        options = list(stimulus.options)
        correct = next(k for k, o in enumerate(options) if o.role == "correct")
        assert IMPL.solve(stimulus, options) == [correct]
        table = [line_attributes(o.content.polylines) for o in options]
        assert all(AMBIGUOUS not in row.values() for row in table)
        # no attribute of the vocabulary singles out a positive (spec §7.2 odd-one-out uniqueness) ...
        assert set(isolations(table, LINE_ATTRIBUTES).values()) == {correct}
        # ... and the concept attribute itself separates the negative from five agreeing positives
        key = CONCEPTS[concept].attribute
        positives = [row[key] for k, row in enumerate(table) if k != correct]
        assert len(set(positives)) == 1 and table[correct][key] != positives[0]
        if concept == "lines":
            assert positives[0] == stimulus.facts["concept_value"]


def test_roles_templates_and_confound():
    stimulus = _build("closed", "medium", 5)
    roles = [o.role for o in stimulus.options]
    assert roles.count("correct") == 1 and roles.count("confound") == 1 and roles.count("filler") == 4
    templates = [o.template for o in stimulus.options if o.role != "correct"]
    assert len(set(templates)) == 5 and "lookalike-positive" in templates
    assert stimulus.correct.template == "near-miss-negative-closed"


def test_difficulty_knobs():
    easy = _build("convex", "easy", 4).facts
    medium = _build("convex", "medium", 4).facts
    hard = _build("convex", "hard", 4).facts
    assert easy["knobs"]["arity"] == 1 and easy["knobs"]["negative"] == "far"
    assert medium["knobs"]["arity"] == 1 and medium["knobs"]["negative"] == "near-miss"
    assert hard["knobs"]["arity"] == 2 and hard["knobs"]["negative"] == "near-miss"
    assert hard["knobs"]["edit_magnitude"] < medium["knobs"]["edit_magnitude"]


@pytest.mark.parametrize("seed", range(4))
def test_hard_items_share_the_second_attribute(seed):
    from bench_plugin_mindseye.relation_abstraction import PAIR_VALUES

    stimulus = _build(sorted(CONCEPTS)[seed * 3 % len(CONCEPTS)], "hard", seed)
    _, second = stimulus.facts["concept"]
    key, value = PAIR_VALUES[second]
    assert all(line_attributes(o.content.polylines)[key] == value for o in stimulus.options)


def test_near_miss_keeps_the_superficial_match():
    # the near-miss negative is drawn like the positives: same stroke width, sizes from one range (the drawn
    # sizes vary on purpose, in an order that carries no information: see the next test)
    stimulus = _build("symmetric", "medium", 8)
    extents = []
    for option in stimulus.options:
        pts = np.vstack(option.content.polylines)
        extents.append(max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1])))
    assert max(extents) <= FIT[1] + 1e-9 and max(extents) / min(extents) <= SIZE_RANGE + 1e-6


def test_the_negative_takes_every_place_in_the_size_order():
    # balanced_sizes: ink, ink extent (and saturation) rank the six figures in one order, and the negative's
    # place in it is balanced over consecutive items like the answer letter, so no nuisance solver beats chance
    places = []
    for job in plan(TASK, {"size": "600x800"}, 4, 12):
        built = build_item(_HOST, TASK, job.seed, job.index, job.params)
        tiles = [built.images[0].crop(tuple(o["bbox"])) for o in built.item.metadata["options"]]
        features = [option_features(t) for t in tiles]
        answer = "ABCDEF".index(built.item.answer)
        ink = sorted(range(6), key=lambda k: features[k]["ink"])
        assert ink == sorted(range(6), key=lambda k: features[k]["extent"])
        places.append(ink.index(answer))
    assert sorted(places) == sorted(list(range(6)) * 2)  # each (place, atypical end) once per 12 items


def test_deterministic_and_seed_dependent():
    a = _build("triangle", "medium", 11)
    b = _build("triangle", "medium", 11)
    c = _build("triangle", "medium", 12)
    flat = [np.vstack(o.content.polylines) for o in a.options]
    assert all(np.array_equal(x, np.vstack(o.content.polylines)) for x, o in zip(flat, b.options, strict=True))
    assert not all(np.array_equal(x, np.vstack(o.content.polylines)) for x, o in zip(flat, c.options, strict=True))


def test_descriptions_list_every_concept():
    assert set(DESCRIBED) == set(CONCEPTS)


def test_concepts_and_answers_are_balanced_over_a_run():
    jobs = plan(TASK, {}, 9, 13)
    built = [build_item(_HOST, TASK, job.seed, job.index, job.params) for job in jobs]
    assert sorted(b.item.metadata["concept"][0] for b in built) == sorted(CONCEPTS)
    letters = [b.item.answer for b in built[:12]]
    assert sorted(letters) == sorted("ABCDEF" * 2)


def test_strokes_stay_legible_at_600x800():
    side = Layout(SIZES["600x800"], 0, 6, 3).tile
    assert STROKE * side >= 2.0
    built = build_item(_HOST, TASK, 3, 0, plan(TASK, {"size": "600x800"}, 3, 1)[0].params)
    assert built.images[0].size == (600, 800)
