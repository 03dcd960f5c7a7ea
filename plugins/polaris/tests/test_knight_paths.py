"""polaris/bounded-knight-paths and polaris/knight-paths: the readings per rendering, other_answer, the DP against
enumeration, and planted rendering faults."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_polaris import knight_paths as kp
from bench_plugin_polaris.kit.grid import Board
from bench_plugin_polaris.verifiers import knight_paths as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import assert_rejected

BOUNDED = task_of("bounded_knight_paths")
WRAPPING = task_of("knight_paths")

TestBoundedConformance = conformance_suite(BOUNDED)
TestWrappingConformance = conformance_suite(WRAPPING)


def test_bounded_pairs_share_the_answer_and_the_wall_decides():
    items = [b.item for b in build_run(BOUNDED, 8, seed=3)]
    for c, p in zip(items[::2], items[1::2], strict=True):
        assert c.answer == p.answer == str(c.metadata["bounded_count"]) and c.pair == p.pair
        assert c.metadata["bounded_count"] != c.metadata["wrap_count"]  # the seam wall matters in every pair
        assert "other_answer" not in c.metadata and c.metadata["alignment"] == "full"
        assert "wall at 12 o'clock" in p.question and "1 ring and 2 sectors" in p.question
        assert "border" in c.question and "2 rows and 1 column" in c.question


def test_knight_paths_pairs_differ_by_the_wrap_and_record_the_other_answer():
    items = [b.item for b in build_run(WRAPPING, 8, seed=3)]
    for c, p in zip(items[::2], items[1::2], strict=True):
        assert c.answer == str(c.metadata["bounded_count"]) and p.answer == str(p.metadata["wrap_count"])
        assert c.answer != p.answer
        assert c.metadata["other_answer"] == p.answer and p.metadata["other_answer"] == c.answer
        assert (c.metadata["boundary"], c.metadata["alignment"]) == ("wrapping", "partial")
        assert "dashed" not in c.question and "wraps" not in c.question  # the Cartesian twin declares no wrap
        assert "wraps around in the angular direction" in p.question


def test_the_move_dp_agrees_with_enumeration_under_both_readings():
    rng = np.random.default_rng(9)
    for _ in range(40):
        rows, cols, k = int(rng.integers(3, 7)), int(rng.integers(5, 9)), int(rng.integers(1, 5))
        start = (int(rng.integers(rows)), int(rng.integers(cols)))
        target = (int(rng.integers(rows)), int(rng.integers(cols)))
        for wrap in (False, True):
            assert kp.count_walks(Board(rows, cols, wrap), start, target, k) == verifier.enumerate_paths(
                rows, cols, start, target, k, wrap)[0]


def _picture(item, **changes):
    scene = item.metadata["scene"]
    return kp.picture(scene, scene["rows"], scene["cols"], scene["geometry"], scene["frame"], item.variant, **changes)


@pytest.mark.parametrize(("task", "variant"), [(BOUNDED, "polar"), (BOUNDED, "cartesian"), (WRAPPING, "polar"),
                                               (WRAPPING, "cartesian")])
def test_planted_rendering_faults_are_caught(task, variant):
    item = build(task, {"variant": variant}, seed=5).item
    scene = item.metadata["scene"]
    r, c = scene["start"]
    moved = (r, (c + 2) % scene["cols"]) if [r, (c + 2) % scene["cols"]] != scene["target"] else (r, (c + 3) % 5)
    failures = assert_rejected(HOST, task, item, [_picture(item, start=moved)], "the knight drawn elsewhere")
    assert any("knight" in f for f in failures), failures
    if variant == "polar":
        wrong = not scene["wraps"]["polar"]
        failures = assert_rejected(HOST, task, item, [_picture(item, wraps=wrong)], "the seam drawn the other way")
        assert any("seam wall" in f for f in failures), failures


def test_a_rare_two_move_pair_is_looked_for_past_the_first_400_boards():
    """0.1.3, seed 7002, item 8 (defaults): none of 400 boards gave a 2-move pair whose readings' counts lie in
    COUNT and differ, so ``bench generate`` stopped; the draws now go on (up to ATTEMPTS)."""
    built = build(BOUNDED, {}, 7002, 8)
    assert built.item.metadata["scene"] is not None
