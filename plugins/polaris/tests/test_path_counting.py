"""polaris/path-counting: the pair machinery (variants, shared problem and letters, balance, metadata), the
solver against enumeration, the options, and planted rendering faults."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from bench_plugin_polaris import path_counting as pc
from bench_plugin_polaris.kit.grid import Board
from bench_plugin_polaris.verifiers import path_counting as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import assert_rejected, score

TASK = task_of("path_counting")

TestConformance = conformance_suite(TASK)


def test_both_items_of_a_pair_share_the_problem_the_options_and_the_letter():
    items = [b.item for b in build_run(TASK, 6, seed=4)]
    for p in range(3):
        c, pol = items[2 * p], items[2 * p + 1]
        assert (c.variant, pol.variant) == ("cartesian", "polar") and c.pair == pol.pair
        assert c.options == pol.options and c.answer == pol.answer
        assert c.metadata["scene"] == pol.metadata["scene"] and c.metadata["pair_index"] == p
        assert c.metadata["dims"] == {"cartesian": [c.metadata["scene"]["rows"], c.metadata["scene"]["cols"]],
                                      "polar": [c.metadata["scene"]["rows"], c.metadata["scene"]["cols"]]}
        assert (c.metadata["category"], c.metadata["boundary"], c.metadata["alignment"]) == (
            "combinatorics-probability", "bounded", "full")
        assert "other_answer" not in c.metadata
        assert "square" in c.question and "row" in c.question and "sector" not in c.question
        assert "cell" in pol.question and "12 o'clock" in pol.question and "CW" in pol.question
        assert "square" not in pol.question
        assert pol.question.split("How many")[-1] == c.question.split("How many")[-1] or "Count" in c.question


def test_one_variant_runs_take_the_same_pairs():
    both = [b.item for b in build_run(TASK, 4, seed=6)]
    polar = [b.item for b in build_run(TASK, 2, {"variant": "polar"}, seed=6)]
    cartesian = [b.item for b in build_run(TASK, 2, {"variant": "cartesian"}, seed=6)]
    for p in range(2):
        assert polar[p].variant == "polar" and polar[p].metadata["pair_index"] == p
        assert polar[p].question == both[2 * p + 1].question and polar[p].answer == both[2 * p + 1].answer
        assert cartesian[p].question == both[2 * p].question and cartesian[p].pair == both[2 * p].pair


def test_letters_and_distances_are_balanced_over_pairs():
    items = [b.item for b in build_run(TASK, 12, {"variant": "cartesian"}, seed=2)]
    assert collections.Counter(i.answer for i in items[:10]) == {x: 2 for x in "ABCDE"}
    assert collections.Counter(i.metadata["distance"] for i in items) == {d: 2 for d in range(5, 11)}


def test_the_answer_is_not_the_smallest_or_largest_option_more_often_than_a_distractor():
    rng = np.random.default_rng(1)
    smallest = largest = total = 0
    while total < 400:
        d = int(rng.integers(5, 11))
        instance = pc.TASK._draw(rng, d, bool(rng.integers(2)))
        if instance is None:
            continue
        answer = int(instance.answers["cartesian"])
        values = [answer, *(int(v) for v in instance.distractors)]
        assert len(set(values)) == 5 and all(v in pc.COUNT_TABLE[d] or v == answer for v in values)
        smallest += answer == min(values)
        largest += answer == max(values)
        total += 1
    assert 0.12 < smallest / total < 0.28 and 0.12 < largest / total < 0.28, (smallest, largest, total)


def test_options_exclude_the_wrapping_reading_and_the_seam_decides_in_at_least_half():
    items = [b.item for b in build_run(TASK, 16, {"variant": "polar"}, seed=8)]
    decided = 0
    for item in items:
        count, wrap = item.metadata["count"], item.metadata["wrap_count"]
        assert item.options.count(str(count)) == 1 and len(set(item.options)) == 5
        if wrap != count:
            decided += 1
            assert str(wrap) not in item.options
        assert score(item, item.answer, host=HOST).value == 1.0
    assert decided >= 6  # at least the half of the pairs that ask for it


def test_the_bfs_dp_agrees_with_enumeration_under_both_readings():
    rng = np.random.default_rng(5)
    for _ in range(60):
        rows, cols = int(rng.integers(3, 7)), int(rng.integers(3, 8))
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        picks = rng.choice(len(cells), size=5, replace=False)
        start, goal = cells[int(picks[0])], cells[int(picks[1])]
        blocked = {cells[int(i)] for i in picks[2:]}
        for wrap in (False, True):
            distance, count = pc.shortest_paths(Board(rows, cols, wrap, blocked), start, goal)
            assert (distance, count) == verifier.enumerate_shortest(rows, cols, blocked, start, goal, wrap)


def _picture(item, **changes):
    scene = {**item.metadata["scene"], **changes.pop("scene", {})}
    return pc.picture(scene, scene["rows"], scene["cols"], scene["geometry"], scene["frame"], item.variant, **changes)


@pytest.mark.parametrize("variant", ["cartesian", "polar"])
def test_planted_rendering_faults_are_caught(variant):
    built = build(TASK, {"variant": variant}, seed=11, index=0)
    item = built.item
    scene = item.metadata["scene"]
    dropped = scene["blocked"][1:]
    failures = assert_rejected(HOST, TASK, item, [_picture(item, scene={"blocked": dropped})], "a grey cell not drawn")
    assert any("should be grey" in f for f in failures), failures
    r, c = scene["start"]
    moved = next((r + dr, c + dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
             if 0 <= r + dr < scene["rows"] and 0 <= c + dc < scene["cols"]
             and [r + dr, c + dc] not in scene["blocked"] and [r + dr, c + dc] != scene["goal"])
    failures = assert_rejected(HOST, TASK, item, [_picture(item, scene={"start": list(moved)})], "P moved")
    assert any("start P" in f for f in failures), failures
    if variant == "polar":
        failures = assert_rejected(HOST, TASK, item, [_picture(item, seam=False)], "the seam wall left out")
        assert any("seam wall" in f for f in failures), failures
