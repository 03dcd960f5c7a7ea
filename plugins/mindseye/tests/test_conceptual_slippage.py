"""VCS (Visual Conceptual Slippage): scene and word attributes on known panels, the odd-one-out construction
over many seeds (the solver agrees, no other concept singles out a conformer, no nuisance value singles out
any panel, the violator uses the conformers' shape vocabulary), the difficulty knobs, legibility, and the
core's conformance suite on a private host."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import Polygon

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.generation import build_item, plan
from bench_core.host import create_host
from bench_plugin_mindseye.attributes import (
    AMBIGUOUS,
    GLYPHS,
    SCENE_ATTRIBUTES,
    isolations,
    mirror_letter_table,
    scene_attributes,
    word_attributes,
)
from bench_plugin_mindseye.base import option_features
from bench_plugin_mindseye.conceptual_slippage import (
    CONCEPT_ATTRIBUTE,
    CONCEPTS,
    MIN_WIDTH,
    WORD_STROKE,
    Look,
    outline,
    random_word,
    shape_polygon,
    word_strokes,
)
from bench_plugin_mindseye.conceptual_slippage import (
    TASK as IMPL,
)
from bench_plugin_mindseye.descriptions.conceptual_slippage import CONCEPTS as DESCRIBED
from bench_plugin_mindseye.descriptions.conceptual_slippage import TASK
from bench_plugin_mindseye.layout import SIZES, Layout


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-conceptual-slippage", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

    def bench_host(self):
        return _HOST


# -- attributes of known panels ---------------------------------------------------------------------------
INK = (25, 25, 25)


def _row(xs, y=0.5, kind="circle", radius=0.05):
    return [(shape_polygon(kind, (x, y), radius, 0.0), INK) for x in xs]


def test_spacing_alignment_and_number():
    even = scene_attributes(_row([0.2, 0.4, 0.6, 0.8]))
    assert even["aligned"] is True and even["spacing"] == "even" and even["number"] == 4
    uneven = scene_attributes(_row([0.15, 0.25, 0.6, 0.85]))
    assert uneven["aligned"] is True and uneven["spacing"] == "uneven"
    bent = scene_attributes([(shape_polygon("circle", (x, y), 0.05, 0.0), INK)
                             for x, y in [(0.2, 0.5), (0.4, 0.65), (0.6, 0.4), (0.8, 0.5)]])
    assert bent["aligned"] is False and bent["spacing"] is None


def test_enclosure_fill_border_topology():
    box = outline(shape_polygon("square", (0.5, 0.5), 0.3, 0.0), 0.02)
    inside = scene_attributes([(box, INK), (shape_polygon("circle", (0.5, 0.5), 0.05, 0.0), INK)])
    assert inside["enclosure"] is True and inside["fill"] == "mixed" and inside["topology"] == "closed"
    apart = scene_attributes([(box, INK), (shape_polygon("circle", (0.92, 0.9), 0.04, 0.0), INK)])
    assert apart["enclosure"] is False
    solid = scene_attributes(_row([0.3, 0.7], radius=0.1))
    assert solid["fill"] == "solid" and solid["border"] is None
    thin = scene_attributes([(outline(shape_polygon("circle", (x, 0.5), 0.1, 0.0), 0.012), INK) for x in (0.3, 0.7)])
    thick = scene_attributes([(outline(shape_polygon("circle", (x, 0.5), 0.1, 0.0), 0.06), INK) for x in (0.3, 0.7)])
    assert thin["border"] == "thin" and thick["border"] == "thick" and thin["fill"] == thick["fill"] == "hollow"


def test_symmetry():
    left = shape_polygon("triangle", (0.3, 0.4), 0.08, 0.3)
    from shapely import affinity

    right = affinity.scale(left, -1, 1, origin=(0.5, 0.5))
    assert scene_attributes([(left, INK), (right, INK)])["symmetric"] is True
    moved = affinity.translate(right, 0.0, 0.15)  # the pair's line is no longer square to an axis
    assert scene_attributes([(left, INK), (moved, INK)])["symmetric"] is False


def test_letters_and_mirrored_words():
    same = mirror_letter_table()
    assert {k for k, v in same.items() if v} == set("AHIMOTUVWXY")
    for letter in GLYPHS:
        plain = word_attributes(word_strokes(letter * 3, 0.15, (0.5, 0.5), False))
        flipped = word_attributes(word_strokes(letter * 3, 0.15, (0.5, 0.5), True))
        if same[letter]:
            assert plain["mirrored"] == flipped["mirrored"] == AMBIGUOUS  # reads the same both ways
        else:
            assert plain["mirrored"] is False and flipped["mirrored"] is True, letter
        assert plain["number"] == 3


def test_random_words_never_read_the_same_mirrored():
    rng = np.random.default_rng(0)
    for length in range(3, 7):
        for asym in range(1, length + 1):
            word = random_word(rng, length, asym)
            assert sum(not mirror_letter_table()[c] for c in word) == asym
            assert word_attributes(word_strokes(word, 0.14, (0.5, 0.5), False))["mirrored"] is False
            assert word_attributes(word_strokes(word, 0.14, (0.5, 0.5), True))["mirrored"] is True


# -- the construction over many seeds -----------------------------------------------------------------
def _build(concept, difficulty, seed, size="1024x1024"):
    return IMPL.build(np.random.default_rng(seed), difficulty, {"concept": concept, "size": size})


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@pytest.mark.parametrize("concept", CONCEPTS)
def test_solver_agrees_and_no_rival_or_nuisance_singles_out_a_panel(concept, difficulty):
    for seed in (1, 2, 3):
        stimulus = _build(concept, difficulty, seed)
        options = list(stimulus.options)
        v = next(k for k, o in enumerate(options) if o.role == "correct")
        assert IMPL.solve(stimulus, options) == [v]
        table = [o.content.attributes() for o in options]
        assert all(AMBIGUOUS not in row.values() for row in table)
        names = ("mirrored",) if concept == "word" else SCENE_ATTRIBUTES
        found = isolations(table, names)
        assert found[CONCEPT_ATTRIBUTE[concept]] == v and set(found.values()) == {v}
        if concept != "number":  # counts slip but never single a panel out
            assert not isolations(table, ["number"])
        looks = [o.latent["look"] for o in options]
        for key in ("kinds", "colours"):
            column = [{"value": tuple(map(str, look[key]))} for look in looks]
            assert not isolations(column, ["value"]), key
        # the violator draws its shapes from the same vocabulary as the conformers (no default-shape leak)
        kinds = {k for look in looks for k in look["kinds"]}
        assert set(looks[v]["kinds"]) <= kinds


def test_number_violator_differs_by_the_violation_strength():
    for difficulty, step in (("easy", 2), ("hard", 1)):
        stimulus = _build("number", difficulty, 4)
        counts = [o.content.attributes()["number"] for o in stimulus.options]
        v = next(k for k, o in enumerate(stimulus.options) if o.role == "correct")
        others = {c for k, c in enumerate(counts) if k != v}
        assert len(others) == 1 and abs(counts[v] - others.pop()) == step


def test_difficulty_sets_slippage_and_strength():
    for difficulty, slippage, strength in (("easy", "low", "strong"), ("medium", "medium", "strong"),
                                           ("hard", "high", "weak")):
        knobs = _build("hollowness", difficulty, 2).facts["knobs"]
        assert knobs["slippage"] == slippage and knobs["violation"] == strength
    easy = _build("number", "easy", 6)
    assert len({tuple(o.latent["look"]["kinds"]) for o in easy.options}) == 1  # one shape kind for the item


def test_roles_and_metadata():
    stimulus = _build("word", "medium", 3)
    roles = [o.role for o in stimulus.options]
    assert roles.count("correct") == 1 and roles.count("confound") == 1
    templates = [o.template for o in stimulus.options if o.role != "correct"]
    assert len(set(templates)) == 5
    assert stimulus.facts["concept"] == "word" and stimulus.facts["word"] == stimulus.correct.latent["word"]
    assert all(len(o.latent["word"]) >= 3 for o in stimulus.options)


def test_descriptions_list_every_concept():
    assert set(DESCRIBED) == set(CONCEPTS)


def test_concepts_and_answers_are_balanced_over_a_run():
    jobs = plan(TASK, {}, 5, 12)
    built = [build_item(_HOST, TASK, job.seed, job.index, job.params) for job in jobs]
    assert sorted(b.item.metadata["concept"] for b in built[:9]) == sorted(CONCEPTS)
    assert sorted(b.item.answer for b in built) == sorted("ABCDEF" * 2)


def test_legible_at_600x800():
    side = Layout(SIZES["600x800"], 0, 6, 3).tile
    assert MIN_WIDTH * side >= 2.0 and WORD_STROKE * side >= 2.0
    built = build_item(_HOST, TASK, 3, 0, plan(TASK, {"size": "600x800", "concept": "border"}, 3, 1)[0].params)
    assert built.images[0].size == (600, 800)


def test_looks_are_drawn_from_one_distribution():
    # nuisance per panel comes from the same generator whichever panel violates: a Look is only data
    look = Look(("circle",), (INK,), 3, 0.1, 0.0)
    assert look.kind(5) == "circle" and look.colour(2) == INK


@pytest.mark.parametrize("concept", [c for c in CONCEPTS if c != "word"])
def test_objects_and_holes_stay_visible_at_600x800(concept):
    side = Layout(SIZES["600x800"], 0, 6, 3).tile
    for difficulty in ("easy", "hard"):
        stimulus = _build(concept, difficulty, 7, size="600x800")
        for option in stimulus.options:
            for mark in option.content.marks:
                hull = mark.polygon.convex_hull
                assert np.sqrt(hull.area / np.pi) * side >= 5.0  # objects at least 5 px in radius
                for ring in mark.polygon.interiors:
                    hole = Polygon(ring)
                    assert 2 * hole.area / hole.length * side >= 4.5  # holes stay open


def test_the_violator_takes_every_place_in_the_size_order():
    # ink, ink extent and saturation rank the six panels in one order (spacing and word panels excepted: their
    # violator has its own conformer draw's features), and the violator's place in it is balanced over
    # consecutive items like the answer letter, so no nuisance solver beats chance
    places = []
    for job in plan(TASK, {"size": "600x800", "concept": "border"}, 4, 12):
        built = build_item(_HOST, TASK, job.seed, job.index, job.params)
        tiles = [built.images[0].crop(tuple(o["bbox"])) for o in built.item.metadata["options"]]
        features = [option_features(t) for t in tiles]
        answer = "ABCDEF".index(built.item.answer)
        order = sorted(range(6), key=lambda k: features[k]["ink"])
        for name in ("extent", "saturation"):
            assert order == sorted(range(6), key=lambda k: features[k][name])
        places.append(order.index(answer))
    assert sorted(places) == sorted(list(range(6)) * 2)  # each (place, atypical end) once per 12 items
