"""VCS (Visual Conceptual Slippage): scene and word attributes on known panels, the odd-one-out construction
over many seeds (the artefact verifier agrees, no other concept singles out a conformer, no nuisance value
singles out any panel, the violator uses the conformers' shape vocabulary), the verifier's own concept
measures and letter model, planted faults in the rendering and the record that verify must catch, the
difficulty knobs, legibility, and the core's conformance suite (with golden digests) on a private host."""

from __future__ import annotations

from pathlib import Path

import attrs
import numpy as np
import pytest
from PIL import Image
from shapely import affinity
from shapely.geometry import Polygon

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
from bench_plugin_mindseye.attributes import (
    AMBIGUOUS,
    GLYPHS,
    SCENE_ATTRIBUTES,
    isolations,
    mirror_letter_table,
    scene_attributes,
    word_attributes,
)
from bench_plugin_mindseye.conceptual_slippage import (
    TASK as IMPL,
)
from bench_plugin_mindseye.descriptions.conceptual_slippage import CONCEPTS as DESCRIBED
from bench_plugin_mindseye.descriptions.conceptual_slippage import TASK
from bench_plugin_mindseye.layout import SIZES, Layout
from bench_plugin_mindseye.nuisance import option_features
from bench_plugin_mindseye.slippage_concepts import CONCEPT_ATTRIBUTE, random_word, word_strokes
from bench_plugin_mindseye.slippage_panels import (
    CONCEPTS,
    GRID,
    MIN_WIDTH,
    PALETTE,
    WORD_STROKE,
    Look,
    Mark,
    Panel,
    draw_look,
    outline,
    shape_polygon,
)
from bench_plugin_mindseye.verifiers import conceptual_slippage as verifier


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-conceptual-slippage", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"
    golden_dir = Path(__file__).parent / "golden"

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


def _scene(stimulus, side=300):
    """The verifier's view of a stimulus: its panels described as drawn, in the stimulus's order."""
    return {"options": [IMPL.describe(o.content, side) for o in stimulus.options],
            "concept": stimulus.facts["concept"], "grid": GRID}


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@pytest.mark.parametrize("concept", CONCEPTS)
def test_solver_agrees_and_no_rival_or_nuisance_singles_out_a_panel(concept, difficulty):
    for seed in (1, 2, 3):
        stimulus = _build(concept, difficulty, seed)
        options = list(stimulus.options)
        v = next(k for k, o in enumerate(options) if o.role == "correct")
        scene = _scene(stimulus)
        assert verifier.solve_scene(scene) == [v]  # the verifier's own measures, from the record alone
        assert verifier.isolations(scene) == {n: v for n in verifier.isolations(scene)}
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


# -- the artefact verifier: its own measures ----------------------------------------------------------------------
def _marks_scene(*panels):
    """A scene of panels given as lists of (polygon, colour)."""
    return {"options": [IMPL.describe(Panel(marks=tuple(Mark(p, c) for p, c in marks)), 300) for marks in panels],
            "grid": GRID}


def _values(marks):
    return verifier.mark_values(verifier.read_marks(_marks_scene(marks)["options"][0], GRID))


def test_verifier_measures_known_panels():
    even = _values(_row([0.2, 0.4, 0.6, 0.8]))
    assert even["aligned"] is True and even["spacing"] == "even" and even["number"] == 4
    assert even["symmetric"] is True and even["fill"] == "solid" and even["border"] is None
    uneven = _values(_row([0.15, 0.25, 0.6, 0.85]))
    assert uneven["aligned"] is True and uneven["spacing"] == "uneven"
    bent = _values([(shape_polygon("circle", (x, y), 0.05, 0.0), INK)
                    for x, y in [(0.2, 0.5), (0.4, 0.65), (0.6, 0.4), (0.8, 0.5)]])
    assert bent["aligned"] is False and bent["spacing"] is None
    ring = outline(shape_polygon("square", (0.5, 0.5), 0.3, 0.0), 0.02)
    inside = _values([(ring, INK), (shape_polygon("circle", (0.5, 0.5), 0.05, 0.0), INK)])
    assert inside["enclosure"] is True and inside["fill"] == "mixed" and inside["topology"] == "closed"
    assert inside["aligned"] is None and inside["number"] == 2
    apart = _values([(ring, INK), (shape_polygon("circle", (0.92, 0.9), 0.04, 0.0), INK)])
    assert apart["enclosure"] is False
    thin = _values([(outline(shape_polygon("circle", (x, 0.5), 0.1, 0.0), 0.02), INK) for x in (0.3, 0.7)])
    thick = _values([(outline(shape_polygon("circle", (x, 0.5), 0.1, 0.0), 0.062), INK) for x in (0.3, 0.7)])
    assert thin["border"] == "thin" and thick["border"] == "thick" and thin["fill"] == thick["fill"] == "hollow"
    left = shape_polygon("triangle", (0.3, 0.4), 0.08, 0.3)
    right = affinity.scale(left, -1, 1, origin=(0.5, 0.5))
    assert _values([(left, INK), (right, INK)])["symmetric"] is True
    assert _values([(left, INK), (right, (200, 30, 30))])["symmetric"] is False  # colours must match too
    assert _values([(left, INK), (affinity.translate(right, 0.0, 0.15), INK)])["symmetric"] is False


def test_verifier_solver_finds_the_single_odd_panel_and_refuses_two():
    closed = [(outline(shape_polygon("circle", (x, 0.5), 0.1, 0.0), 0.02), INK) for x in (0.3, 0.7)]
    solid = [(shape_polygon("circle", (x, 0.5), 0.1, 0.0), INK) for x in (0.3, 0.7)]
    scene = {**_marks_scene(*([closed] * 5), solid), "concept": "hollowness"}
    assert verifier.solve_scene(scene) == [5]
    two = {**_marks_scene(*([closed] * 4), solid, solid), "concept": "hollowness"}
    assert verifier.solve_scene(two) == []
    wrong_concept = {**scene, "concept": "symmetry"}
    assert verifier.solve_scene(wrong_concept) == []


# -- panel-level nuisance: mixed colours and mixed kinds (issue 10) -----------------------------------------
def _mixedness(description):
    """From a panel's record alone: whether its marks show two colours, and two recorded shape kinds."""
    marks = description.get("marks", [])
    return {"colours": len({tuple(m["colour"]) for m in marks}) > 1, "kinds": len({m["kind"] for m in marks}) > 1}


@pytest.mark.slow
def test_no_panel_alone_mixes_colours_or_kinds_nor_alone_does_not():
    # issue 10: a conformer that alone mixed colours was a second odd one out; one that alone mixed kinds too,
    # and a violator that alone mixed kinds a shortcut.  Each such property holds for no panel or for two or
    # more, and fails for none or two or more.  (Hard items mix inside panels; easy enclosure panels mix a
    # container's kind with the contents'.)
    cases = [(concept, "hard", seed) for concept in CONCEPTS for seed in (1, 2, 3)]
    cases += [("enclosure", level, seed) for level in ("easy", "medium") for seed in (1, 2, 3, 4)]
    for concept, level, seed in cases:
        scene = _scene(_build(concept, level, seed))
        rows = [_mixedness(d) for d in scene["options"]]
        for name in ("colours", "kinds"):
            holders = sum(row[name] for row in rows)
            assert holders not in (1, 5), (concept, level, seed, name, [row[name] for row in rows])


def test_mixed_colours_are_clearly_two_colours():
    rng = np.random.default_rng(5)
    pairs = 0
    for _ in range(400):
        look = draw_look(rng, "number", "high", "circle", None)
        if len(look.colours) == 2:
            pairs += 1
            assert max(abs(a - b) for a, b in zip(*look.colours, strict=True)) >= 100, look.colours
    assert pairs > 100


def _hollow(kind, x, colour=INK):
    return outline(shape_polygon(kind, (x, 0.5), 0.1, 0.4), 0.02), colour


RED = (200, 40, 40)


def test_verifier_refuses_a_panel_that_alone_mixes_colours_or_kinds():
    plain = [_hollow("circle", 0.3), _hollow("circle", 0.7)]
    solid = [(shape_polygon("circle", (x, 0.5), 0.1, 0.0), INK) for x in (0.3, 0.7)]
    sound = {**_marks_scene(*([plain] * 5), solid), "concept": "hollowness"}
    assert verifier.solve_scene(sound) == [5]
    # a conformer alone in two colours, or alone with two kinds: a second odd one out
    two_colours = {**_marks_scene(plain, [_hollow("circle", 0.3), _hollow("circle", 0.7, RED)], *([plain] * 3),
                                  solid), "concept": "hollowness"}
    assert verifier.solve_scene(two_colours) == [1, 5]
    two_kinds = {**_marks_scene(plain, plain, [_hollow("circle", 0.3), _hollow("pentagon", 0.7)], plain, plain,
                                solid), "concept": "hollowness"}
    assert verifier.solve_scene(two_kinds) == [2, 5]
    # the violator alone mixing kinds is a shortcut; a conformer alone not mixing them a second odd one out
    shortcut = {**_marks_scene(*([plain] * 5), [solid[0], (shape_polygon("star", (0.7, 0.5), 0.1, 0.0), INK)]),
                "concept": "hollowness"}
    assert verifier.solve_scene(shortcut) == [5]
    assert verifier.isolations(shortcut)["mixed kinds"] == 5
    mixed = [_hollow("circle", 0.3), _hollow("hexagon", 0.7)]
    star = [solid[0], (shape_polygon("star", (0.7, 0.5), 0.1, 0.0), INK)]
    alone_plain = {**_marks_scene(plain, *([mixed] * 4), star), "concept": "hollowness"}
    assert verifier.solve_scene(alone_plain) == [0, 5]
    # two panels of two colours each single out nothing
    red = [_hollow("circle", 0.3), _hollow("circle", 0.7, RED)]
    pair = {**_marks_scene(red, red, plain, plain, plain, solid), "concept": "hollowness"}
    assert verifier.solve_scene(pair) == [5]


def test_verifier_reads_shape_kinds_from_the_outlines():
    rng = np.random.default_rng(3)
    for kind in ("circle", "square", "triangle", "pentagon", "hexagon", "star", "diamond", "ellipse"):
        for _ in range(6):
            centre, radius, turn = rng.uniform(0.3, 0.7, 2), rng.uniform(0.045, 0.25), rng.uniform(0, 2 * np.pi)
            shape = shape_polygon(kind, centre, radius, turn)
            description = IMPL.describe(Panel(marks=(Mark(shape, INK, kind),
                                                     Mark(outline(shape, 0.1 * radius), INK, kind))), 300)
            for polygon, _ in verifier.read_marks(description, GRID):
                assert verifier.mark_kind(polygon) == kind
            mirrored = affinity.scale(shape, -1, 1)
            assert verifier.mark_kind(verifier.read_marks(
                IMPL.describe(Panel(marks=(Mark(mirrored, INK, kind),)), 300), GRID)[0][0]) == kind


def test_verify_refuses_a_wrong_kind_or_colours_too_alike_to_tell():
    built = _built("hollowness")
    scene = built.item.metadata["scene"]
    image = decode_png(built.pngs[0])
    assert not verifier.scene_failures(scene, image)
    options = [dict(d, marks=[dict(m) for m in d["marks"]]) for d in scene["options"]]
    first = options[0]["marks"][0]
    first["kind"] = "star" if first["kind"] != "star" else "circle"
    failures = verifier.scene_failures({**scene, "options": options}, image)
    assert any("recorded as a" in f for f in failures), failures
    options = [dict(d, marks=[dict(m) for m in d["marks"]]) for d in scene["options"]]
    marks = options[0]["marks"]
    marks[-1]["colour"] = [min(255, c + 40) for c in marks[0]["colour"]]
    failures = verifier.scene_failures({**scene, "options": options}, image)
    assert any("cannot tell whether it shows mixed colours" in f for f in failures), failures


def _glyph(letter, mirrored):
    strokes = [np.asarray(s, dtype=float) for s in GLYPHS[letter]]
    return [np.column_stack([4.0 - s[:, 0], s[:, 1]]) for s in strokes] if mirrored else strokes


def test_letter_model_reads_every_letter_either_way_round_and_confuses_none():
    symmetric = {k for k, v in mirror_letter_table().items() if v}
    for shown in GLYPHS:
        for shown_mirrored in (False, True):
            strokes = _glyph(shown, shown_mirrored)
            for letter in GLYPHS:
                for mirrored in (False, True):
                    expected = shown == letter and (mirrored == shown_mirrored or letter in symmetric)
                    assert verifier.reads_as(strokes, letter, mirrored, 0.0, 1.0) == expected, (
                        shown, shown_mirrored, letter, mirrored)


def test_verifier_reads_words_as_drawn():
    rng = np.random.default_rng(3)
    for length in range(3, 7):
        for asym in (1, length):
            word = random_word(rng, length, asym)
            for mirrored in (False, True):
                strokes = word_strokes(word, 0.13, (0.5, 0.45), mirrored)
                panel = Panel(word=tuple(strokes), word_colour=INK, text=word)
                values = verifier.word_values(IMPL.describe(panel, 300)["word"], GRID)
                assert values == {"mirrored": mirrored, "number": length}, (word, mirrored)


def test_verifier_sketch_matches_the_drawing():
    for concept in ("border", "topology", "word"):
        stimulus = _build(concept, "hard", 5)
        for option in stimulus.options:
            drawn = np.asarray(IMPL.draw_option(option.content, 300))
            description = IMPL.describe(option.content, 300)
            assert verifier.fidelity_misses(drawn, description, GRID) == 0
            sketch = IMPL.sketch(description, 300)
            assert sketch.shape == (300, 300, 3) and sketch.dtype == np.uint8
            agree = (np.abs(sketch.astype(int) - drawn.astype(int)).max(axis=2) < 80).mean()
            assert agree > 0.98


# -- planted faults: verify must catch every one --------------------------------------------------------------------
def _built(concept, seed=2, index=1, size="1024x1024"):
    job = plan(TASK, {"concept": concept, "size": size}, seed, index + 1)[index]
    built = build_item(_HOST, TASK, job.seed, job.index, job.params)
    assert not verify_item(_HOST, TASK, built.item, [decode_png(p) for p in built.pngs])
    return built


def _compose(built, contents):
    """The item's picture with these panel contents in letter order (drawn by the generator's own code)."""
    layout = IMPL.layout(built.item.params["size"])
    tiles = [IMPL.draw_option(c, layout.tile) for c in contents]
    image, _ = layout.compose([], tiles, (), "ABCDEF")
    return image


def _answer(built):
    return "ABCDEF".index(built.item.answer)


def _moved(panel, dx, dy):
    if panel.word:
        shift = np.array([dx, dy])
        return Panel(word=tuple(s + shift for s in panel.word), word_colour=panel.word_colour, text=panel.text)
    return Panel(marks=tuple(Mark(affinity.translate(m.polygon, dx, dy), m.colour, m.kind) for m in panel.marks))


@pytest.mark.slow
@pytest.mark.parametrize("concept", CONCEPTS)
def test_options_drawn_one_slot_off_are_caught(concept):
    built = _built(concept)
    contents = [o.content for o in built.problem.structure[1]]
    for shift in (1, -1):
        rolled = contents[-shift:] + contents[:-shift]
        assert_rejected(_HOST, TASK, built.item, [_compose(built, rolled)], f"{concept}: options {shift:+d} slot")
    swapped = list(contents)  # the answer swapped with its neighbour only
    a = _answer(built)
    swapped[a], swapped[(a + 1) % 6] = swapped[(a + 1) % 6], swapped[a]
    assert_rejected(_HOST, TASK, built.item, [_compose(built, swapped)], f"{concept}: answer swapped")


def _with_scene(item, options):
    scene = {**item.metadata["scene"], "options": options}
    return attrs.evolve(item, metadata={**item.metadata, "scene": scene})


@pytest.mark.slow
@pytest.mark.parametrize("concept", CONCEPTS)
def test_a_distractor_made_to_break_the_concept_is_caught(concept):
    built = _built(concept)
    contents = [o.content for o in built.problem.structure[1]]
    a = _answer(built)
    side = IMPL.layout(built.item.params["size"]).tile
    k = (a + 2) % 6
    broken = list(contents)
    broken[k] = _moved(contents[a], 0.012, 0.0)  # a second violator, slightly moved so it is not a twin
    item = _with_scene(built.item, [IMPL.describe(c, side) for c in broken])
    # record and picture agree: only the solver can object
    failures = assert_rejected(_HOST, TASK, item, [_compose(built, broken)], f"{concept}: two violators")
    assert any("scene solver" in f for f in failures), failures
    # the record changed but not the picture: the pixels object too
    failures = assert_rejected(_HOST, TASK, item, [decode_png(built.pngs[0])], f"{concept}: record only")
    assert any("pixels" in f or "looks more like" in f or "does not show" in f for f in failures), failures


def _changed_drawings(panel):
    """Panels drawn with one object changed relative to ``panel`` (its record), by name."""
    if panel.word:
        word = list(panel.word)
        flips = []
        for stroke in word:
            flipped = stroke.copy()
            flipped[:, 0] = stroke[:, 0].min() + stroke[:, 0].max() - stroke[:, 0]
            flips.append(flipped)
        moved = [np.linalg.norm(f[:, None] - s[None], axis=2).min(axis=1).max()
                 for f, s in zip(flips, word, strict=True)]
        k = int(np.argmax(moved))  # a stroke that is not its own mirror image
        return {
            "a stroke left out": attrs.evolve(panel, word=tuple(word[1:]), tiles={}),
            "a stroke mirrored": attrs.evolve(panel, word=(*word[:k], flips[k], *word[k + 1:]), tiles={}),
            "a stroke moved": attrs.evolve(panel, word=(word[0] + [0.0, 0.02], *word[1:]), tiles={}),
            "recoloured": attrs.evolve(panel, word_colour=(200, 40, 40), tiles={}),
        }
    marks = list(panel.marks)
    first = marks[0]
    other = next(c for c in PALETTE if max(abs(a - b) for a, b in zip(c, first.colour, strict=True)) > 90)
    out = {
        "an object moved": [attrs.evolve(first, polygon=affinity.translate(first.polygon, 0.02, 0.0)), *marks[1:]],
        "an object left out": marks[:-1],
        "an object recoloured": [attrs.evolve(first, colour=other), *marks[1:]],
        "an object scaled": [attrs.evolve(first, polygon=affinity.scale(first.polygon, 1.15, 1.15)), *marks[1:]],
    }
    corners = next((i for i, m in enumerate(marks) if len(m.polygon.exterior.coords) > 4), None)
    if corners is not None:  # a triangle drawn with two corners swapped is the same triangle
        ring = list(marks[corners].polygon.exterior.coords)[:-1]
        j = 1 if len(ring) == 4 else len(ring) // 2  # (opposite corners of a quadrangle swap into itself)
        ring[0], ring[j] = ring[j], ring[0]
        swapped = attrs.evolve(marks[corners], polygon=Polygon(ring, marks[corners].polygon.interiors))
        out["two vertices swapped"] = [*marks[:corners], swapped, *marks[corners + 1:]]
    hollow = [i for i, m in enumerate(marks) if m.polygon.interiors]
    if hollow:
        i = hollow[0]
        filled = Mark(Polygon(marks[i].polygon.exterior), marks[i].colour)
        out["an outline filled"] = [*marks[:i], filled, *marks[i + 1:]]
    return {name: Panel(marks=tuple(m)) for name, m in out.items()}


@pytest.mark.slow
@pytest.mark.parametrize("concept", CONCEPTS)
def test_a_panel_drawn_unlike_its_record_is_caught(concept):
    built = _built(concept)
    contents = [o.content for o in built.problem.structure[1]]
    for k in (_answer(built), (_answer(built) + 3) % 6):
        for name, changed in _changed_drawings(contents[k]).items():
            drawn = list(contents)
            drawn[k] = changed
            assert_rejected(_HOST, TASK, built.item, [_compose(built, drawn)], f"{concept}: panel {k} {name}")


def test_the_picture_is_a_function_of_the_record():
    # the generator draws the recorded integers: float noise in the geometry (a SIMD path's last digits) moves
    # no pixel and no recorded value
    stimulus = _build("symmetry", "medium", 4)
    panel = stimulus.options[0].content
    nudged = _moved(panel, 1e-12, -1e-12)
    assert not np.array_equal(nudged.marks[0].polygon.exterior.coords, panel.marks[0].polygon.exterior.coords)
    assert IMPL.describe(nudged, 300) == IMPL.describe(panel, 300)
    assert np.array_equal(np.asarray(IMPL.draw_option(nudged, 300)), np.asarray(IMPL.draw_option(panel, 300)))
    assert isinstance(IMPL.draw_option(panel, 300), Image.Image)


def test_a_broken_record_fails_verification_without_a_crash():
    built = _built("border")
    options = [dict(d) for d in built.item.metadata["scene"]["options"]]
    options[0] = {"marks": [{"kind": "circle", "colour": [0, 0, 0], "rings": [[10, 20]]}]}
    failures = assert_rejected(_HOST, TASK, _with_scene(built.item, options), [decode_png(built.pngs[0])],
                               "a ring of one point")
    assert any("cannot be verified" in f for f in failures), failures


# -- speed-ups that must not change a value ------------------------------------------------------------------
def _rows_residual_everywhere(centres: np.ndarray, apart: float) -> float:
    """``rows_residual`` by its definition: every split into two rows of at least two, every candidate normal
    (the split's least-squares normal and the normal of every pair of centres), no split left out."""
    import itertools
    import math

    n = len(centres)
    if n < 4:
        return math.inf
    best = math.inf
    pairs = list(itertools.combinations(range(n), 2))
    for code in range(2 ** (n - 1)):
        group = np.array([(code >> k) & 1 for k in range(n)], dtype=bool)
        if not 2 <= group.sum() <= n - 2:
            continue
        weights = np.stack([group, ~group]).astype(float)[None]
        means = (weights @ centres / weights.sum(axis=2, keepdims=True))[0]
        deviation = centres - np.where(group[:, None], means[0], means[1])
        fitted = np.linalg.eigh((deviation.T @ deviation)[None])[1][0, :, 0]
        steps = np.array([centres[j] - centres[i] for i, j in pairs])
        shared = np.column_stack([-steps[:, 1], steps[:, 0]]) / np.maximum(np.hypot(*steps.T), 1e-12)[:, None]
        normals = np.vstack([fitted, shared])
        residual = np.abs(normals @ deviation.T).max(axis=1)
        distance = np.abs(normals @ (means[0] - means[1]))
        best = min(best, float(np.where(distance >= apart, residual, math.inf).min()))
    return best


def test_rows_residual_is_the_least_over_every_split():
    """``rows_residual`` measures only the splits that can win (a floor from triangles within a group, row
    means far enough apart); its value is the least over every split all the same."""
    from bench_plugin_mindseye.slippage_panels import ROWS_APART, ROWS_CLEAR, rows_residual

    rng = np.random.default_rng(4)
    for trial in range(150):
        n = int(rng.integers(4, 9))
        if trial % 3 == 0:
            centres = rng.uniform(0.1, 0.9, size=(n, 2))
        else:  # two rows, one object pushed off its row now and then
            angle = rng.uniform(0, np.pi)
            along, across = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
            centres = np.array([0.5 + t * along + (0.17 if k < n // 2 else -0.17) * across
                                for k, t in enumerate(rng.uniform(-0.3, 0.3, n))])
            if trial % 3 == 1:
                centres[rng.integers(n)] += rng.uniform(-0.1, 0.1, 2)
        for apart in (ROWS_APART, ROWS_CLEAR):
            assert rows_residual(centres, apart) == _rows_residual_everywhere(centres, apart)


def test_measurements_are_memoised_while_their_object_lives():
    """``memo.memoised`` computes a measurement once per live object and forgets it when the object goes."""
    import gc

    from bench_plugin_mindseye import memo

    calls = []

    def area(polygon: Polygon) -> float:
        calls.append(polygon)
        return polygon.area

    square = Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
    gc.collect()  # entries of earlier tests' dead objects go now, not during the count below
    before = memo.entries()
    assert memo.memoised(square, "test-area", area) == 1.0
    assert memo.memoised(square, "test-area", area) == 1.0
    assert len(calls) == 1 and memo.entries() == before + 1
    other = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])  # an equal-looking key never shares another's value
    assert memo.memoised(other, "test-area", area) == 4.0
    del square, other, calls[:]
    gc.collect()
    assert memo.entries() == before


@pytest.mark.parametrize("concept", ["border", "alignment", "word"])
def test_panel_measures_are_made_once_and_are_the_fresh_ones(concept):
    """The generator measures each panel's nuisance features (``_features``), its room and its spread layout
    once per panel; the verifier measures each panel's mixed colours and kinds once per scene
    (``_scene_measures``, read by the solver and by ``scene_failures``): every memoised value is the one
    measured afresh."""
    from bench_plugin_mindseye.conceptual_slippage import _spread

    stimulus = _build(concept, "medium", 5)
    side = IMPL.layout("1024x1024").tile
    panels = [o.content for o in stimulus.options]
    for panel in panels:
        fresh = option_features(IMPL._render(panel, side))
        assert IMPL._features(panel, side) == fresh and IMPL._features(panel, side) == fresh
        if not panel.word:
            assert panel.room() == panel._room() and panel.room() == panel._room()
            for target in (0.5, 3.0, 9.0):  # (the panel itself, or its marks moved apart)
                made = _spread(panel, target)
                assert made is _spread(panel, target)
                assert [m.polygon.wkb for m in made.marks] == [m.polygon.wkb for m in panel.spread(target).marks]
    scene = _scene(stimulus)
    grid = scene["grid"]
    in_rows = concept == "alignment"
    assert verifier.measure_scene(scene) == [verifier.panel_values(d, grid, in_rows) for d in scene["options"]]
    for description, (values, mixed, notes) in zip(scene["options"], verifier._scene_measures(scene), strict=True):
        if "marks" in description:
            assert (mixed, notes) == verifier.mixed_values(description, grid)
            assert values == {**verifier.mark_values(verifier.read_marks(description, grid), in_rows, grid), **mixed}
        else:
            assert (mixed, notes) == ({}, [])


def _scatter_one_try_at_a_time(rng, n, radius, low=0.12, high=0.88, avoid=()):
    """``slippage_panels.scatter`` as first written: every try tested in turn against every centre placed, in
    Python's float arithmetic (the reference the tracked version must reproduce exactly)."""
    import math

    from bench_plugin_mindseye.slippage_panels import SCATTER_TRIES, unused_from

    near = 2.4 * radius + 0.03
    keep_off = [(float(c[0]), float(c[1]), r + radius + 0.04) for c, r in avoid]
    state = rng.bit_generator.state
    tries = rng.uniform(low + radius, high - radius, size=(SCATTER_TRIES, 2))
    spots, placed = [], []
    for t, (x, y) in enumerate(tries.tolist()):
        if all(math.sqrt((x - u) ** 2 + (y - v) ** 2) > near for u, v in spots) and all(
                math.sqrt((x - u) ** 2 + (y - v) ** 2) > clear for u, v, clear in keep_off):
            placed.append(t)
            spots.append((x, y))
            if len(placed) == n:
                unused_from(rng, state, 2 * (t + 1))
                return [tries[k].copy() for k in placed]
    return None


def test_scatter_places_the_centres_one_try_at_a_time_would():
    """``scatter`` tracks the free tries as a whole: the centres, the draws that fail and the generator's state
    afterwards are those of testing every try in turn, and ``_apart`` decides a distance at the limit (set to
    Python's own distance, or a last bit either side of it) as Python's arithmetic does."""
    import math

    from bench_plugin_mindseye.slippage_panels import _apart, scatter

    meta = np.random.default_rng(3)
    outcomes = {True: 0, False: 0}
    for _ in range(1500):
        n, radius = int(meta.integers(1, 10)), float(meta.uniform(0.03, 0.14))
        avoid = [(meta.uniform(0.1, 0.9, 2), float(meta.uniform(0.02, 0.1))) for _ in range(int(meta.integers(0, 4)))]
        seed = int(meta.integers(1 << 30))
        old_rng, new_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        old = _scatter_one_try_at_a_time(old_rng, n, radius, avoid=avoid)
        new = scatter(new_rng, n, radius, avoid=avoid)
        assert (old is None) == (new is None)
        outcomes[old is None] += 1
        if old is not None:
            assert len(old) == len(new) and all(np.array_equal(a, b) for a, b in zip(old, new, strict=True))
        assert old_rng.bit_generator.state == new_rng.bit_generator.state
    assert min(outcomes.values()) > 200
    points = meta.uniform(0, 1, size=(3000, 2))
    u, v = 0.4123, 0.5877
    for x, y in points.tolist():
        exact = math.sqrt((x - u) ** 2 + (y - v) ** 2)
        for limit in (exact, float(np.nextafter(exact, -1.0)), float(np.nextafter(exact, 2.0))):
            assert bool(_apart(np.array([[x, y]]), u, v, limit)[0]) == (exact > limit)


def _marks_key(marks):
    """A builder's marks as comparable values (geometry bit for bit, colour, kind)."""
    return [(m.polygon.wkb, m.colour, m.kind) for m in marks]


@pytest.mark.parametrize("concept", CONCEPTS)
def test_a_conformer_alone_is_built_as_its_twin_would_be(concept):
    """A builder draws every version's random values before it returns; its versions are made when asked for
    (``Versions``).  Asking for the first version that can be made (a draw for a conformer's slot) refuses
    exactly the draws that asking for every version refuses, makes the first of the same versions, and leaves
    the generator where asking for every one does: so the items do not depend on which of the two the
    generator asks for."""
    from bench_plugin_mindseye.slippage_concepts import BUILDERS, Unbuildable

    meta = np.random.default_rng(11)
    refused = built = 0
    for _ in range(60):
        slippage, strength = ("low", "strong") if meta.random() < 0.5 else ("high", "weak")
        majority = str(meta.choice({"topology": ["closed", "open"], "border": ["thick", "thin"],
                                    "hollowness": ["solid", "hollow"]}.get(concept, [""])))
        seed = int(meta.integers(1 << 30))
        made = {}
        for every in (True, False):
            rng = np.random.default_rng(seed)
            look = draw_look(rng, concept, slippage, "circle", 4 if concept == "number" else None)
            try:
                plain, versions = BUILDERS[concept](rng, look, strength, majority)
                if concept != "word":
                    versions = versions.every() if every else [versions.first()]
                made[every] = ((plain, versions), rng.bit_generator.state)
            except Unbuildable:
                made[every] = (None, rng.bit_generator.state)
        (full, full_state), (alone, alone_state) = made[True], made[False]
        assert full_state == alone_state
        assert (full is None) == (alone is None)
        if full is None:
            refused += 1
            continue
        built += 1
        if concept == "word":
            assert [s.tolist() for s in full[0].word] == [s.tolist() for s in alone[0].word]
            continue
        assert _marks_key(full[0]) == _marks_key(alone[0])
        assert 1 <= len(alone[1]) <= len(full[1])
        assert _marks_key(full[1][0]) == _marks_key(alone[1][0])
    assert built >= 10
