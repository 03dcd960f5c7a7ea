"""sphinx/chart-comparison: proportions read back from pies and bars, options that are clearly different
permutations, planted rendering faults."""

from __future__ import annotations

import collections
import itertools

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import chart_comparison as cc
from bench_plugin_sphinx import comparison_words as words
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.verifiers import chart_comparison as verifier
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, assert_rejected, encode_png, plan, score

TASK = task_of("chart_comparison")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("top").choices == words.TOPS
    categories = TASK.parameter("categories")
    assert (categories.minimum, categories.maximum) == cc.CATEGORY_RANGE


@pytest.mark.parametrize(("top", "k"), [("pie", 3), ("bar", 3), ("pie", 10), ("bar", 10), ("pie", 6), ("bar", 7)])
def test_every_chart_reads_back_its_percentages(top, k):
    built = build(TASK, {"top": top, "categories": k}, seed=k)
    scene = built.item.metadata["scene"]
    image = built.images[0]
    _shares, order, failures = verifier.read_chart(image, top, scene["top_box"])
    assert not failures and order == scene["colours"]
    other = "bar" if top == "pie" else "pie"
    for box, values in zip(scene["option_boxes"], scene["option_values"], strict=True):
        read, order, failures = verifier.read_chart(image, other, box)
        assert not failures and order == scene["colours"]
        for colour, value in zip(scene["colours"], values, strict=True):
            assert abs(read[colour] - value) < 1.0, (colour, read[colour], value)
    answer = scene["option_values"]["ABCD".index(built.item.answer)]
    assert answer == scene["percentages"]


def test_options_are_clearly_different_permutations():
    for built in build_run(TASK, 12, seed=4):
        scene = built.item.metadata["scene"]
        options = scene["option_values"]
        assert all(sorted(o) == sorted(scene["percentages"]) for o in options)
        for a, b in itertools.combinations(options, 2):
            assert cc.far_apart(a, b), (a, b)


def test_far_apart_thresholds():
    assert cc.far_apart([50, 30, 20], [30, 50, 20])          # two categories 20 points apart
    assert not cc.far_apart([40, 35, 25], [35, 40, 25])      # 5 points: L1 10, too close
    assert not cc.far_apart([10, 11, 12, 67], [11, 12, 10, 67])


def test_letters_and_tops_balance():
    items = [b.item for b in build_run(TASK, 16, seed=5)]
    assert collections.Counter(item.answer for item in items) == {letter: 4 for letter in "ABCD"}
    assert collections.Counter(item.metadata["top"] for item in items) == {"pie": 8, "bar": 8}
    for item in items:
        assert item.metadata["paper_answer"] == f"({item.answer.lower()})"


def test_every_answer_form_scores():
    item = build(TASK, seed=2).item
    letter = item.answer.lower()
    for response in (f"({letter})", letter, item.answer, f"\\boxed{{({letter})}}"):
        assert score(item, response, host=HOST).value == 1.0, response


def _recomposed(built, **changes) -> list[str]:
    scene = {**built.item.metadata["scene"], **changes}
    return assert_rejected(HOST, TASK, built.item, [cc.compose(scene)], "planted rendering fault")


@pytest.mark.parametrize("top", words.TOPS)
def test_planted_rendering_faults_are_caught(top):
    built = build(TASK, {"top": top, "categories": 5}, seed=8)
    scene = built.item.metadata["scene"]
    answer = "ABCD".index(built.item.answer)
    values = [list(v) for v in scene["option_values"]]

    nudged = [list(v) for v in values]  # the answer drawn with two categories 8 points off
    order = sorted(range(5), key=lambda i: nudged[answer][i])
    nudged[answer][order[-1]] -= 8
    nudged[answer][order[0]] += 8
    failures = _recomposed(built, option_values=nudged)
    assert any("match" in f for f in failures), failures

    doubled = [list(v) for v in values]  # a wrong option drawn as a second copy of the answer
    doubled[(answer + 1) % 4] = list(values[answer])
    failures = _recomposed(built, option_values=doubled)
    assert any("2 options match" in f for f in failures), failures

    reordered = list(scene["colours"])  # the top chart drawn with two colours exchanged
    reordered[0], reordered[1] = reordered[1], reordered[0]
    picture = np.array(built.images[0].convert("RGB"))
    top_only = np.array(cc.compose({**scene, "colours": reordered}))
    left, t, right, bottom = scene["top_box"]
    picture[t:bottom, left:right] = top_only[t:bottom, left:right]
    assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "top chart recoloured")


def test_a_stem_naming_the_wrong_top_chart_is_caught():
    built = build(TASK, {"top": "pie"}, seed=1)
    stem = next(s for s in words.STEMS["pie"] if built.item.question.startswith(s + " "))
    other = words.STEMS["bar"][words.STEMS["pie"].index(stem)]
    bad = attrs.evolve(built.item, question=built.item.question.replace(stem, other, 1))
    assert_rejected(HOST, TASK, bad, built.images, "the stem names a bar chart on top")


def test_categories_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="categories or difficulty"):
        job = plan(TASK, {"categories": 5, "difficulty": 0.5}, 0, 1)[0]
        cc.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (len(built.item.metadata["scene"]["colours"]) >= 9) is hard


@pytest.mark.parametrize("top", words.TOPS)
def test_the_palette_picture_is_the_rgb_picture(top):
    """generate draws the picture straight into palette indices (``palette_compose``): its PNG must be the one the
    core writes for ``compose``'s RGB picture, on items of every size, and on scenes whose top chart hides a
    colour (a slice too thin to show), once with the colour shown in the options and once hidden everywhere (a
    bar no taller than its outline), so the palette leaves it out."""
    for built in build_run(TASK, 12, {"top": top}, seed=21):
        scene = built.item.metadata["scene"]
        assert encode_png(cc.palette_compose(scene)) == encode_png(cc.compose(scene)) == built.pngs[0]
    scene = build(TASK, {"top": "pie", "categories": 3}, seed=3).item.metadata["scene"]
    sizes = []
    for options in ([1, 49, 50], [0.6, 49.4, 50]):
        thin = {**scene, "percentages": [0.001, 49.999, 50], "option_values": [options] * 4}
        picture = cc.palette_compose(thin)
        assert encode_png(picture) == encode_png(cc.compose(thin))
        sizes.append(len(picture.getpalette()) // 3)
    assert sizes[1] == sizes[0] - 1  # the hidden colour is left out
