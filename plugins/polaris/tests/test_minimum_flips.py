"""polaris/minimum-flips: both solvers against hand-solved strips, the seam's parity effect, the partial pair
(different minima, both recorded), distractors right in neither reading, and planted rendering faults."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_polaris import minimum_flips as task_module
from bench_plugin_polaris import minimum_flips_logic as logic
from bench_plugin_polaris.kit import options as own_options
from bench_plugin_polaris.verifiers import minimum_flips as verifier
from PIL import ImageDraw
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, seam_line, task_of

from bench_core import assert_rejected

TASK = task_of("minimum_flips")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)


def test_hand_solved_strips():
    # 01010101 with the move at cells 1-3 (1-based) applied: one move back on the line and on the ring.
    assert logic.strip_minimum([1, 0, 1, 1, 0, 1, 0, 1], cyclic=False) == 1
    assert logic.strip_minimum([1, 0, 1, 1, 0, 1, 0, 1], cyclic=True) == 1
    # 01010101 with the wrapping move at cells 8, 1, 2: one move on the ring; on the line, eliminating the moves
    # left to right leaves cell 7 (phase 0101...) or cell 8 (phase 1010...) wrong, so neither phase is reachable.
    assert logic.strip_minimum([1, 0, 0, 1, 0, 1, 0, 0], cyclic=True) == 1
    assert logic.strip_minimum([1, 0, 0, 1, 0, 1, 0, 0], cyclic=False) is None
    assert logic.strip_minimum([0, 1] * 5, cyclic=False) == 0


@pytest.mark.parametrize("n", [8, 10, 12])
def test_both_routes_agree(n):
    rng = np.random.default_rng(n)
    for _ in range(30):
        strip = [int(v) for v in rng.integers(0, 2, size=n)]
        for ring in (False, True):  # one strip each, any pattern (solvable or not)
            assert logic.strip_minimum(strip, ring) == verifier.fewest_moves(strip, ring), (strip, ring)


def test_the_ring_of_twelve_has_parity_constraints():
    """3 divides 12: the ring's moves span only 2^10 of the 2^12 patterns, so one switched cell cannot be undone;
    on a ring of 10 every pattern is reachable."""
    assert len(logic.distances(12, True)) == 2 ** 10 and len(logic.distances(10, True)) == 2 ** 10
    one = [k % 2 for k in range(12)]
    one[0] ^= 1
    assert logic.strip_minimum(one, cyclic=True) is None
    assert len(logic.distances(8, False)) == 2 ** 6  # a line of n has n - 2 independent moves


def test_samples_differ_and_each_items_options_skip_the_other_reading():
    rng = np.random.default_rng(3)
    for n in logic.LENGTHS:
        for strips in logic.STRIPS:
            found = None
            while found is None:
                found = logic.sample(rng, n, strips)
            assert found["line"] != found["ring"] and found["ring"] >= 1
            assert verifier.minima(found["strips"]) == {"cartesian": found["line"], "polar": found["ring"]}
    assert own_options.window(5, 3, 2, 5) == [2, 4, 5, 6, 7]
    assert own_options.window(2, 5, 4, 5) is None  # four values below 2 would reach 0
    assert own_options.windows({"cartesian": 6, "polar": 4}, 1, 5) == {"cartesian": [5, 6, 7, 8, 9],
                                                                        "polar": [3, 4, 5, 7, 8]}


def test_pairs_share_the_letter_not_the_other_answer():
    built = build_run(TASK, 6, seed=8)
    for c, p in zip(built[::2], built[1::2], strict=True):
        assert c.item.answer == p.item.answer and c.item.options != p.item.options
        assert c.item.metadata["other_answer_content"] == p.item.options["ABCDE".index(p.item.answer)]
        assert p.item.metadata["other_answer_content"] not in p.item.options
        assert c.item.metadata["other_answer_content"] not in c.item.options
        assert [int(v) for v in c.item.options] == sorted(int(v) for v in c.item.options)
        assert "a line with two ends" in c.item.question and "Each ring is closed" in p.item.question


@pytest.mark.parametrize("index", [0, 1])
def test_a_switched_cell_is_caught(index):
    built = build(TASK, {"cells": 10, "strips": 2}, seed=4, index=index)
    strips = [list(s) for s in built.item.metadata["scene"]["strips"]]
    strips[0][3] ^= 1
    failures = assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, strips=strips)], "one cell drawn switched")
    assert any("cells drawn in cells the record does not list" in f for f in failures), failures


def test_a_seam_wall_on_the_ring_and_open_line_ends_are_caught():
    polar = build(TASK, {"cells": 8, "strips": 2}, seed=2, index=1)
    image = seam_line(IMPL, polar, (0, 0, 0), 7)
    failures = assert_rejected(HOST, TASK, polar.item, [image], "a wall drawn across the ring at 12 o'clock")
    assert any("cut by a wall" in f for f in failures), failures
    cart = build(TASK, {"cells": 8, "strips": 2}, seed=2, index=0)
    image = cart.images[0].copy()
    x0, y0, _x1, y1 = IMPL.layout_of(cart.item).grid_box()
    ImageDraw.Draw(image).line([(x0, y0 + 4), (x0, y1 - 4)], fill=(255, 255, 255), width=9)
    failures = assert_rejected(HOST, TASK, cart.item, [image], "the left border erased")
    assert any("thick borders" in f for f in failures), failures


def test_difficulty_walks_the_ladder():
    easy = build(TASK, {"difficulty": 0.0}, seed=1).item.metadata
    hard = build(TASK, {"difficulty": 1.0}, seed=1).item.metadata
    assert (easy["cells"], easy["strips"]) == (8, 2) and (hard["cells"], hard["strips"]) == (12, 3)
