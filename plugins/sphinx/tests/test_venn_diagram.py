"""sphinx/venn-diagram: layouts, regions, the four query modes, the reading verifier and planted faults."""

from __future__ import annotations

import collections
import itertools

import pytest
from bench_plugin_sphinx import venn_diagram as vd
from bench_plugin_sphinx import venn_words as words
from bench_plugin_sphinx.descriptions import venn_diagram as description
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.kit.palette import GEOMETRIC
from bench_plugin_sphinx.verifiers import venn as verifier
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, VerifyDisagreement, assert_rejected, plan

TASK = task_of("venn_diagram")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert description.MODES == words.MODES == tuple(dict.fromkeys(vd.MODE_CYCLE))
    assert verifier.POOL == GEOMETRIC


def test_query_modes_mean_what_the_question_says():
    blue, red, green = 1, 2, 4
    assert vd.matches("only", blue | red, blue | red, 0) and not vd.matches("only", blue | red | green, blue | red, 0)
    assert vd.matches("intersection", blue | red | green, blue | red, 0)
    assert not vd.matches("intersection", blue, blue | red, 0)
    assert vd.matches("butnot", blue | green, blue, red) and not vd.matches("butnot", blue | red, blue, red)
    assert vd.matches("union", green | red, blue | red, 0) and not vd.matches("union", green, blue | red, 0)
    for mode in words.MODES:
        assert all(vd.matches(mode, m, i, e) == verifier.selects(mode, m, i, e)
                   for m in range(16) for i in range(1, 16) for e in range(16) if not i & e)


def test_two_crossing_boxes_make_three_regions_and_a_split_pattern_two():
    assert sorted(r["mask"] for r in vd.regions([[0, 0, 100, 100], [50, 50, 150, 150]])) == [1, 2, 3]
    # a tall box across a wide one splits the wide one's own part in two
    masks = collections.Counter(r["mask"] for r in vd.regions([[0, 50, 300, 100], [100, 0, 200, 150]]))
    assert masks == {1: 2, 2: 2, 3: 1}


@pytest.mark.parametrize("count", [2, 3, 4])
def test_every_region_holds_one_digit_and_the_layout_keeps_its_rules(count):
    for built in build_run(TASK, 4, {"rectangles": count}, seed=7):
        scene = built.item.metadata["scene"]
        boxes = [r["box"] for r in scene["rectangles"]]
        assert len(boxes) == count and len({r["colour"] for r in scene["rectangles"]}) == count
        for axis in (0, 1):
            edges = sorted(v for b in boxes for v in (b[axis], b[axis + 2]))
            assert all(b - a >= vd.MIN_GAP for a, b in itertools.pairwise(edges))
        assert len(scene["numbers"]) == len(vd.regions(boxes)) == len(verifier.partition(boxes))
        assert all(1 <= n["value"] <= 9 for n in scene["numbers"])


def test_modes_are_spread_over_the_indices_and_questions_name_colours_with_hex():
    items = [b.item for b in build_run(TASK, 10, seed=1)]
    modes = [i.metadata["mode"] for i in items]
    assert all(len(set(modes[k:k + 4])) == 4 for k in range(7))  # any four consecutive ask all four
    for item in items:
        for colour in item.metadata["scene"]["query"]["include"]:
            assert f"{colour} ({GEOMETRIC[colour]})" in item.question
        assert words.RULE in item.question


def _scene(built) -> dict:
    scene = dict(built.item.metadata["scene"])
    scene["rectangles"] = [dict(r) for r in scene["rectangles"]]
    scene["numbers"] = [dict(n) for n in scene["numbers"]]
    return scene


def test_planted_rendering_faults_are_caught():
    for seed in range(3):
        built = build(TASK, {"rectangles": 3}, seed=seed)

        def digits_changed(scene):  # every digit one up (9 to 1): the selected ones no longer sum to the answer
            for number in scene["numbers"]:
                number["value"] = number["value"] % 9 + 1
            return vd.compose(scene)

        def a_rectangle_moved(scene):
            x0, y0, x1, y1 = scene["rectangles"][1]["box"]
            scene["rectangles"][1]["box"] = [x0 + 20, y0, x1 + 20, y1]
            return vd.compose(scene)

        def colours_swapped(scene):
            a, b = scene["rectangles"][0]["colour"], scene["rectangles"][1]["colour"]
            scene["rectangles"][0]["colour"], scene["rectangles"][1]["colour"] = b, a
            return vd.compose(scene)

        def an_extra_digit(scene):
            first = scene["numbers"][0]
            scene["numbers"].append({**first, "at": [first["at"][0] + 2 * first["size"], first["at"][1]]})
            return vd.compose(scene)

        for fault in (digits_changed, a_rectangle_moved, colours_swapped, an_extra_digit):
            assert_rejected(HOST, TASK, built.item, [fault(_scene(built))], fault.__name__)


def test_a_wrong_query_rule_is_caught_at_generation(monkeypatch):
    real = vd.matches

    def sloppy(mode, mask, inc, exc):  # "only" read as "intersection"
        return (mask & inc) == inc if mode == "only" else real(mode, mask, inc, exc)

    monkeypatch.setattr(vd, "matches", sloppy)
    with pytest.raises(VerifyDisagreement, match="but the answer is"):
        for seed in range(20):
            build(TASK, {"mode": "only", "rectangles": 4}, seed=seed)


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == len(built.item.metadata["scene"]["rectangles"])


def test_rectangles_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="not both"):
        plan(TASK, {"rectangles": 3, "difficulty": "hard"}, 0, 1)
