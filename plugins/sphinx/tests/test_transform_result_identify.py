"""sphinx/transform-result-identify: the answer option is the source under the named map on the pixels, option sets
that say nothing about the answer, planted rendering faults."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from bench_plugin_sphinx import transform_result as tr
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import complexity, motifs
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.verifiers import transforms as px
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, Problem, assert_rejected, encode_png, plan, score

TASK = task_of("transform_result_identify")

TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("transform").choices == words.TRANSFORMS == tf.TRANSFORMS
    assert TASK.parameter("motif").choices == tr.FAMILIES
    assert set(tr.FAMILIES) <= set(motifs.FAMILIES)


def _layers(built):
    scene = built.item.metadata["scene"]
    pixels = np.asarray(built.images[0].convert("RGB"))
    blank = tf.paper()
    boxes = [scene["source_box"], *scene["option_boxes"]]
    return [px.motif_layer(px.tile_content(pixels, box, scene["border"]), blank) for box in boxes]


@pytest.mark.parametrize("transform", words.TRANSFORMS)
def test_the_answer_is_the_source_under_the_named_map(transform):
    built = build(TASK, {"transform": transform}, seed=4)
    source, *options = _layers(built)
    answer = options["ABCD".index(built.item.answer)]
    scene = built.item.metadata["scene"]
    if transform == "translate":
        dx, dy = scene["vector"]
        assert words.move_action((dx, dy)) in built.item.question
        expected = px.shifted(source, dx * tf.STEP, dy * tf.STEP)
    else:
        assert words.ACTIONS[transform] in built.item.question
        expected = px.mapped(source, transform)
    assert np.array_equal(expected, answer)
    assert sum(np.array_equal(expected, o) for o in options) == 1


def test_option_sets_leave_the_answer_uniform_among_the_options():
    """Every member of an option set is equally likely the answer: the translations of a set holding two are the
    answer half the time, and a D4 answer brings two translations one time in seven."""
    rng = np.random.default_rng(0)
    with_moves = collections.Counter()
    for answer in words.TRANSFORMS * 700:
        chosen = tr.option_set(answer, rng)
        assert len({(o["op"], tuple(o["vector"] or ())) for o in chosen}) == 4
        if any(o["op"] == "translate" for o in chosen):
            with_moves[answer == "translate"] += 1
    assert abs(with_moves[True] / sum(with_moves.values()) - 0.5) < 0.04


def test_letters_are_balanced_and_the_paper_form_scores():
    items = build_run(TASK, 16, seed=3)
    assert collections.Counter(b.item.answer for b in items) == {letter: 4 for letter in "ABCD"}
    assert collections.Counter(b.item.metadata["transform"] for b in items) == {t: 2 for t in words.TRANSFORMS}
    for built in items[:4]:
        letter = built.item.answer.lower()
        assert built.item.metadata["paper_answer"] == f"({letter})"
        for response in (f"({letter})", letter, f"\\boxed{{({letter})}}"):
            assert score(built.item, response, host=HOST).value == 1.0
        assert score(built.item, "the answer is up", host=HOST).value == 0.0


def _rendered_with(built, picture) -> list[str]:
    return assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "planted rendering fault")


def _redraw(scene, **changes) -> np.ndarray:
    return tr.compose({**scene, **changes})


def test_planted_rendering_faults_are_caught():
    for transform, other in (("rot90", "rot270"), ("transpose", "transverse"), ("mirror", "flip")):
        built = build(TASK, {"transform": transform}, seed=6)
        scene = built.item.metadata["scene"]
        slot = "ABCD".index(built.item.answer)
        options = [dict(o) for o in scene["options"]]
        # the renderer's convention reversed for the answer (clockwise for counterclockwise, the other diagonal)
        options[slot] = {"op": other, "vector": None}
        _rendered_with(built, _redraw(scene, options=options))
        # the source tile drawn turned a quarter
        picture = _redraw(scene).copy()
        left, top, right, bottom = scene["source_box"]
        picture[top + 4:bottom - 4, left + 4:right - 4] = np.rot90(picture[top + 4:bottom - 4, left + 4:right - 4])
        _rendered_with(built, picture)
    built = build(TASK, {"transform": "translate"}, seed=6)
    scene = built.item.metadata["scene"]
    slot = "ABCD".index(built.item.answer)
    options = [dict(o) for o in scene["options"]]
    dx, dy = options[slot]["vector"]
    options[slot] = {"op": "translate", "vector": [-dx, -dy]}  # moved the opposite way
    _rendered_with(built, _redraw(scene, options=options))


def test_transform_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="transform or difficulty"):
        job = plan(TASK, {"transform": "rot90", "difficulty": 0.5}, 0, 1)[0]
        tr.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 4, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (built.item.metadata["transform"] in ("transpose", "transverse")) is hard


def _composed_with_pil(scene) -> np.ndarray:
    """The picture as first composed: PIL pastes of the framed tiles and PIL captions on one canvas."""
    from bench_plugin_sphinx.kit import layout
    from bench_plugin_sphinx.transform_layout import BORDER, LABEL_SIZE, SIZE, SOURCE_BOX, option_box
    from PIL import ImageDraw

    motif = tf.motifs.render(scene["motif"], scene["motif_side"])
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    layout.paste(canvas, tf.framed(tf.place(motif), BORDER), *SOURCE_BOX[:2])
    draw = ImageDraw.Draw(canvas)
    for k, option in enumerate(scene["options"]):
        left, top, right, bottom = option_box(k)
        layout.paste(canvas, tf.framed(tr.option_tile(motif, option), BORDER), left, top)
        layout.caption(draw, ((left + right) / 2, bottom + 38), layout.label(k), LABEL_SIZE)
    return np.asarray(canvas)


def test_the_canvas_composition_with_the_kept_tiles_equals_pils():
    """generate composes the picture from the option tiles drawn for the distinctness check, written into a numpy
    canvas with kept caption bands: the very pixels of PIL's pastes and captions, whichever the answer's slot and
    the transformation (translations included).  It is put together as palette indices (``picture``) when it
    shows at most 256 colours: the PNG must be the one the core writes for the RGB picture, and so must the
    picture rendered from the scene alone."""
    built_run = build_run(TASK, 24, seed=21)
    assert {built.item.metadata["scene"]["transform"] for built in built_run} == set(tf.TRANSFORMS)
    modes = collections.Counter()
    for built in built_run:
        scene = built.item.metadata["scene"]
        expected = _composed_with_pil(scene)
        assert np.array_equal(np.asarray(built.images[0].convert("RGB")), expected)
        assert np.array_equal(tr.compose(scene), expected)
        png = encode_png(Image.fromarray(expected))
        assert built.pngs[0] == png
        again = tr.TASK.render(Problem(question="", answer="A", image_size=tr.SIZE, metadata={"scene": scene}))
        assert encode_png(again[0]) == png
        modes[built.images[0].mode] += 1
    assert modes["P"] > 12


def test_pairwise_distinct_with_the_inks_found_once_equals_the_pairwise_definition():
    """``kit.transforms.pairwise_distinct`` (each tile's ink found once) agrees with ``distinct_tiles`` on every
    pair, on option sets of drawn motifs, distinct and not (a set repeating a tile, a blank set)."""
    rng = np.random.default_rng(4)
    verdicts = collections.Counter()
    for family in tr.FAMILIES * 3:
        drawn = tf.draw_motif(family, rng)
        if drawn is None:
            continue
        motif = drawn[1]
        chosen = tr.option_set(str(rng.choice(tf.TRANSFORMS)), rng)
        tiles = [tr.option_tile(motif, option) for option in chosen]
        for group in (tiles, [tiles[0], tiles[1], tiles[2], tiles[0]], [tf.place(motif), *tiles[1:]],
                      [tf.paper()] * 4):
            expected = all(tf.distinct_tiles(a, b) for k, a in enumerate(group) for b in group[k + 1:])
            assert tf.pairwise_distinct(group) == expected
            verdicts[expected] += 1
    assert verdicts[True] > 5 and verdicts[False] > 5
