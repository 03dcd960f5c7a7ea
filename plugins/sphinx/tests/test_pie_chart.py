"""sphinx/pie-chart: rankings read back from the slice angles, options without a centre shortcut, planted
rendering faults."""

from __future__ import annotations

import collections

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import pie_chart as pc
from bench_plugin_sphinx import pie_words as words
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.verifiers import pie_chart as verifier
from bench_plugin_sphinx.verifiers.charts import pie_shares
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, assert_rejected, plan, score

TASK = task_of("pie_chart")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("direction").choices == words.DIRECTIONS
    categories = TASK.parameter("categories")
    assert (categories.minimum, categories.maximum) == pc.CATEGORY_RANGE


@pytest.mark.parametrize("k", range(3, 11))
def test_slice_shares_read_back_from_the_pixels(k):
    built = build(TASK, {"categories": k}, seed=k)
    scene = built.item.metadata["scene"]
    shares, order, failures = pie_shares(built.images[0], scene["pie_box"])
    assert not failures
    assert order == [c["colour"] for c in scene["categories"]]  # clockwise from 12 o'clock, legend order
    for category in scene["categories"]:
        assert abs(100 * shares[category["colour"]] - category["percent"]) < 0.6
    truth = pc.ranking(scene["categories"], scene["direction"])
    assert built.item.options["ABCD".index(built.item.answer)] == words.option_text(truth)


def _centre(options: list[str]) -> int:
    """The option with the fewest positions differing from the other three in total (the "medoid")."""
    def distance(a, b):
        return sum(x != y for x, y in zip(a.split(","), b.split(","), strict=True))
    totals = [sum(distance(o, p) for p in options) for o in options]
    return int(np.argmin(totals))


def test_letters_directions_balance_and_the_centre_is_no_shortcut():
    items = [b.item for b in build_run(TASK, 48, seed=5)]
    assert collections.Counter(item.answer for item in items) == {letter: 12 for letter in "ABCD"}
    assert collections.Counter(item.metadata["direction"] for item in items) == {"ascending": 24,
                                                                                "descending": 24}
    centre_hits = sum("ABCD"[_centre(list(item.options))] == item.answer for item in items)
    assert centre_hits <= 20, f"the option closest to the others is the answer in {centre_hits} of 48 items"


def test_paper_answer_form_and_every_form_scores():
    item = build(TASK, seed=2).item
    letter = item.answer.lower()
    assert item.metadata["paper_answer"] == letter
    text = item.options["ABCD".index(item.answer)]
    for response in (letter, f"({letter})", item.answer, f"\\boxed{{{letter}}}", f"The answer is ({letter}).", text):
        assert score(item, response, host=HOST).value == 1.0, response


def _with_scene(built, **changes) -> list[str]:
    """Verify the item against its picture recomposed from a changed scene (a fault in the renderer)."""
    scene = {**built.item.metadata["scene"], **changes}
    picture = pc.compose(scene)
    return assert_rejected(HOST, TASK, built.item, [picture], "planted rendering fault")


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"categories": 6}, seed=9)
    categories = [dict(c) for c in built.item.metadata["scene"]["categories"]]
    by_size = sorted(range(6), key=lambda i: categories[i]["percent"])
    small, large = by_size[0], by_size[-1]

    picture = np.array(built.images[0])  # two slices drawn in each other's colour, the legend unchanged
    a, b = (np.array(Image.new("RGB", (1, 1), c["hex"]))[0, 0] for c in (categories[small], categories[large]))
    pie = picture[:, : pc.LEGEND_LEFT]
    mask_a, mask_b = np.all(pie == a, axis=2), np.all(pie == b, axis=2)
    pie[mask_a], pie[mask_b] = b, a
    failures = assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "two slices' colours swapped")
    assert any("rank" in f or "covers" in f for f in failures), failures

    resized = [dict(c) for c in categories]  # the smallest slice drawn 12 points larger than recorded
    resized[small]["percent"] += 12
    resized[large]["percent"] -= 12
    _with_scene(built, categories=resized)

    relettered = [dict(c) for c in categories]  # two legend letters exchanged in the picture
    relettered[0]["letter"], relettered[1]["letter"] = relettered[1]["letter"], relettered[0]["letter"]
    failures = _with_scene(built, categories=relettered)
    assert any("legend reads" in f for f in failures), failures


def test_a_legend_swatch_recoloured_is_caught():
    built = build(TASK, {"categories": 4}, seed=1)
    picture = np.array(built.images[0])
    (left, top, right, bottom), _ = pc.legend_rows(built.item.metadata["scene"]["legend"], 4)[2]
    picture[top + 6: bottom - 6, left + 6: right - 6] = (0x42, 0xD4, 0xF4) if built.item.metadata["scene"][
        "categories"][2]["colour"] != "cyan" else (0xE6, 0x19, 0x4B)
    assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "a legend swatch recoloured")


def test_a_question_naming_the_other_direction_is_caught():
    built = build(TASK, {"direction": "ascending"}, seed=4)
    stem = next(s for s in words.STEMS["ascending"] if built.item.question.startswith(s + "\n"))
    other = words.STEMS["descending"][words.STEMS["ascending"].index(stem)]
    bad = built.item.question.replace(stem, other, 1)
    assert_rejected(HOST, TASK, attrs.evolve(built.item, question=bad), built.images, "direction flipped")


def test_categories_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="categories or difficulty"):
        job = plan(TASK, {"categories": 5, "difficulty": 0.5}, 0, 1)[0]
        pc.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 8, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == len(built.item.metadata["scene"]["categories"])
        assert (record["raw"] >= 9) is hard


def test_verifier_reads_no_stored_answer():
    built = build(TASK, seed=7)
    assert not verifier.verify(built.item, built.images)
    for wrong in "ABCD":
        if wrong != built.item.answer:
                    assert verifier.verify(attrs.evolve(built.item, answer=wrong), built.images)
