"""sphinx/transform-similarity-identify: similar options are similar on the pixels, breakers keep the moments but not
the shape, the variants and letters balanced, planted rendering faults."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from bench_plugin_sphinx import similarity_words as words
from bench_plugin_sphinx import transform_similarity as ts
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.verifiers import transform_similarity as verifier
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, assert_rejected, plan, score

TASK = task_of("transform_similarity_identify")

TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("variant").choices == words.VARIANTS
    assert TASK.parameter("motif").choices == ts.FAMILIES


def test_a_breaker_keeps_area_and_moments_but_is_no_similarity():
    covariance = np.array([[9.0, 2.0], [2.0, 3.0]])
    breaker = tf.moment_breaker(covariance, 80.0)
    assert np.allclose(breaker @ covariance @ breaker.T, covariance)
    assert abs(np.linalg.det(breaker) - 1) < 1e-9
    assert ts.distortion(breaker) > 1.4
    assert ts.distortion(3 * tf.turn(37.0, True)) == pytest.approx(1.0)


def _masks(built):
    scene = built.item.metadata["scene"]
    pixels = np.asarray(built.images[0].convert("RGB"))
    boxes = [scene["source_box"], *scene["option_boxes"]]
    b = scene["border"]
    return [tf.motif_mask(pixels[t + b:bo - b, left + b:r - b]) for left, t, r, bo in boxes]


@pytest.mark.parametrize("variant", words.VARIANTS)
def test_the_odd_option_is_the_one_the_variant_asks_for(variant):
    built = build(TASK, {"variant": variant}, seed=3)
    source, *options = _masks(built)
    similarity = verifier.scorer(source)
    scores = [similarity(mask) for mask in options]
    similar = [s >= verifier.SIMILAR for s in scores]
    slot = "ABCD".index(built.item.answer)
    assert similar[slot] is (variant == "one_similar")
    assert sum(similar) == (1 if variant == "one_similar" else 3)
    assert built.item.metadata["scene"]["options"][slot]["similar"] is (variant == "one_similar")


def test_variants_and_letters_are_balanced_and_the_paper_form_scores():
    items = build_run(TASK, 8, seed=4)
    assert collections.Counter(b.item.answer for b in items) == {letter: 2 for letter in "ABCD"}
    assert collections.Counter(b.item.metadata["variant"] for b in items) == {v: 4 for v in words.VARIANTS}
    for built in items[:3]:
        letter = built.item.answer.lower()
        assert built.item.metadata["paper_answer"] == f"({letter})"
        assert words.DEFINITION in built.item.question
        for response in (f"({letter})", letter, f"\\boxed{{({letter})}}"):
            assert score(built.item, response, host=HOST).value == 1.0


def _rendered_with(built, picture) -> list[str]:
    return assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "planted rendering fault")


def test_planted_rendering_faults_are_caught():
    for variant in words.VARIANTS:
        built = build(TASK, {"variant": variant}, seed=6)
        scene = built.item.metadata["scene"]
        slot = "ABCD".index(built.item.answer)
        options = [dict(o) for o in scene["options"]]
        # the similar answer drawn squashed (the paper's anisotropic-scale breaker), or the dissimilar answer drawn
        # without its breaker (a plain scaled turn)
        if variant == "one_similar":
            options[slot] = {**options[slot], "matrix": (np.array(options[slot]["matrix"]) @ np.diag([1.0, 0.55]))
                             .tolist()}
        else:
            options[slot] = {**options[slot], "matrix": (0.9 * tf.turn(30.0)).tolist()}
        _rendered_with(built, ts.compose({**scene, "options": options}))


def test_variant_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="variant or difficulty"):
        job = plan(TASK, {"variant": "one_similar", "difficulty": 0.5}, 0, 1)[0]
        ts.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 3, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (record["raw"] == 2) is hard
