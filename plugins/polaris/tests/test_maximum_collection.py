"""polaris/maximum-collection: both searches against hand-solved mazes, the wrap raising the optimum, the node
budget, the partial pair, and planted rendering faults (a wall missing, a number changed, the mouse moved)."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_polaris import maximum_collection as task_module
from bench_plugin_polaris import maximum_collection_logic as logic
from bench_plugin_polaris.verifiers import maximum_collection as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, task_of

from bench_core import assert_rejected

TASK = task_of("maximum_collection")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)

#: One row of four cells: 5 | mouse | 1 | 7.
CHEESE = {(0, 0): 5, (0, 2): 1, (0, 3): 7}


@pytest.mark.parametrize(("walls", "bounded", "wrapping"), [
    ([], 8, 13),  # right: 1 + 7 = 8; with the wrap on to the 5 as well
    ([((0, 2), (0, 3))], 5, 12),  # the 7 only via the wrap: 5 then 7
    ([((0, 3), (0, 0))], 8, 8),  # a wall on the seam: the wrap adds nothing
])
def test_hand_solved_row(walls, bounded, wrapping):
    for wrap, want in ((False, bounded), (True, wrapping)):
        adj = logic.adjacency(1, 4, map(frozenset, walls), wrap)
        assert logic.best_collection(adj, CHEESE, (0, 1))[0] == want
        assert verifier.best_walk(1, 4, walls, CHEESE, (0, 1), wrap) == want


def test_a_simple_path_cannot_collect_both_branches():
    # 2 x 3:   4 | M | 6     walls under the 4 and under the 6, so each is a dead end reached only from M.
    #          1 | 1 | 1     Left gives 4, right 6, down at most 1 + 1 = 2; 4 + 6 would pass M twice.
    cheese = {(0, 0): 4, (0, 2): 6, (1, 0): 1, (1, 1): 1, (1, 2): 1}
    walls = [((0, 0), (1, 0)), ((0, 2), (1, 2))]
    adj = logic.adjacency(2, 3, map(frozenset, walls), False)
    assert logic.best_collection(adj, cheese, (0, 1))[0] == 6
    assert verifier.best_walk(2, 3, walls, cheese, (0, 1), False) == 6
    # wrapping, (0, 2) and (0, 0) become neighbours: right 6 then across the seam to 4 = 10
    assert verifier.best_walk(2, 3, walls, cheese, (0, 1), True) == 10
    assert logic.best_collection(logic.adjacency(2, 3, map(frozenset, walls), True), cheese, (0, 1))[0] == 10


def test_budget_overflow_is_reported():
    adj = logic.adjacency(5, 5, [], False)  # no walls: millions of self-avoiding walks
    assert logic.best_collection(adj, {(r, c): 1 for r in range(5) for c in range(5)}, (0, 0), budget=1000) is None


def test_samples_differ_and_the_verifier_agrees():
    rng = np.random.default_rng(4)
    seen = 0
    while seen < 12:
        found = logic.sample(rng, 5, 5, 2)
        if found is None:
            continue
        seen += 1
        assert found["wrapping"] > found["bounded"]
        cheese = {(r, c): v for r, c, v in found["cheese"]}
        walls = [(tuple(a), tuple(b)) for a, b in found["walls"]]
        for wrap, key in ((False, "bounded"), (True, "wrapping")):
            assert verifier.best_walk(5, 5, walls, cheese, tuple(found["mouse"]), wrap) == found[key]
        path = found["paths"]["wrapping"]
        assert len({tuple(p) for p in path}) == len(path)
        assert sum(cheese.get(tuple(p), 0) for p in path) == found["wrapping"]


def test_pairs_share_the_letter_not_the_other_answer():
    built = build_run(TASK, 4, seed=8)
    for c, p in zip(built[::2], built[1::2], strict=True):
        assert c.item.answer == p.item.answer
        assert int(c.item.metadata["other_answer_content"]) > int(p.item.metadata["other_answer_content"])
        assert c.item.metadata["other_answer_content"] not in c.item.options
        assert "wraps around" in p.item.question and "outer border of the grid is a wall" in c.item.question


@pytest.mark.parametrize("index", [0, 1])
def test_planted_rendering_faults_are_caught(index):
    built = build(TASK, {"rows": 5, "cols": 5, "loops": 2}, seed=3, index=index)
    scene = built.item.metadata["scene"]
    inner = [w for w in scene["walls"] if abs(w[0][1] - w[1][1]) <= 1]
    fewer = [w for w in scene["walls"] if w != inner[0]]
    failures = assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, walls=fewer)], "a wall not drawn")
    assert any("has wall there" in f for f in failures), failures
    cheese = [list(x) for x in scene["cheese"]]
    cheese[0][2] = cheese[0][2] % 9 + 1
    assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, cheese=cheese)], "a cheese number changed")
    r, c = scene["mouse"]
    free = next((rr, cc) for rr in range(5) for cc in range(5)
                if (rr, cc) != (r, c) and [rr, cc] not in [x[:2] for x in scene["cheese"]])
    assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, mouse=list(free))], "the mouse drawn elsewhere")


def test_a_missing_seam_wall_is_caught():
    for seed in range(20):
        built = build(TASK, {"rows": 5, "cols": 5}, seed=seed, index=1)
        seam = [w for w in built.item.metadata["scene"]["walls"] if abs(w[0][1] - w[1][1]) > 1]
        if seam:
            break
    fewer = [w for w in built.item.metadata["scene"]["walls"] if w != seam[0]]
    failures = assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, walls=fewer)], "a seam wall not drawn")
    assert any("has wall there" in f for f in failures), failures


def test_difficulty_sets_size_and_openings():
    easy = build(TASK, {"difficulty": 0.0}, seed=1).item.metadata
    hard = build(TASK, {"difficulty": 1.0}, seed=1).item.metadata
    assert (easy["rows"], easy["cols"], easy["loops"]) == (4, 4, 1)
    assert (hard["rows"], hard["cols"], hard["loops"]) == (6, 6, 4)
