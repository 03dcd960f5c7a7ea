"""sphinx/transform-pair-infer: exactly one operation maps left to right on the pixels, "none" last and the answer
one time in six, planted rendering faults."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from bench_plugin_sphinx import transform_pair as tp
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.verifiers import transforms as px
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, operations_found, task_of

from bench_core import ParameterError, assert_rejected, plan, score

TASK = task_of("transform_pair_infer")

TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("transform").choices == words.TRANSFORMS == tf.TRANSFORMS
    assert TASK.parameter("motif").choices == tp.FAMILIES


def _layers(built):
    scene = built.item.metadata["scene"]
    pixels = np.asarray(built.images[0].convert("RGB"))
    return [px.motif_layer(px.tile_content(pixels, scene[k], scene["border"]), tf.paper())
            for k in ("left_box", "right_box")]


@pytest.mark.parametrize("transform", words.TRANSFORMS)
def test_exactly_the_true_operation_maps_left_to_right(transform):
    built = build(TASK, {"transform": transform}, seed=2)
    left, right = _layers(built)
    found, unclear = operations_found(left, right)
    assert found == [transform] and not unclear
    if transform != "translate":
        assert np.array_equal(px.mapped(left, transform), right)


def test_none_is_always_last_and_the_answer_one_time_in_six():
    items = build_run(TASK, 24, seed=3)
    assert collections.Counter(b.item.answer for b in items) == {letter: 4 for letter in "ABCDEF"}
    for built in items:
        keys = [words.class_of(text) for text in built.item.options]
        assert keys[-1] == "none" and len(set(keys)) == 6
        truth = built.item.metadata["transform"]
        if built.item.answer == "F":
            assert truth not in keys and built.item.metadata["answer_class"] == "none"
        else:
            assert keys["ABCDEF".index(built.item.answer)] == truth
    for built in items[:3]:
        letter = built.item.answer.lower()
        assert built.item.metadata["paper_answer"] == f"({letter})"
        for response in (f"({letter})", letter, f"\\boxed{{{letter}}}"):
            assert score(built.item, response, host=HOST).value == 1.0


def _rendered_with(built, picture) -> list[str]:
    return assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "planted rendering fault")


def test_planted_rendering_faults_are_caught():
    for transform, other in (("rot90", "rot270"), ("transverse", "transpose"), ("flip", "rot180")):
        built = build(TASK, {"transform": transform}, seed=5)
        scene = built.item.metadata["scene"]
        # the target drawn with the reversed convention: another operation, which the options may or may not list
        _rendered_with(built, tp.compose({**scene, "transform": other}))
    built = build(TASK, {"transform": "translate"}, seed=5)
    scene = built.item.metadata["scene"]
    # a translated target that is also turned
    picture = tp.compose(scene).copy()
    left, top, right, bottom = scene["right_box"]
    picture[top + 4:bottom - 4, left + 4:right - 4] = np.rot90(picture[top + 4:bottom - 4, left + 4:right - 4], 2)
    _rendered_with(built, picture)


def test_transform_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="transform or difficulty"):
        job = plan(TASK, {"transform": "rot90", "difficulty": 0.5}, 0, 1)[0]
        tp.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 4, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (built.item.metadata["transform"] in ("transpose", "transverse")) is hard
