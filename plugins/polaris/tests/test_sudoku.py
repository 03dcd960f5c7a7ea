"""polaris/sudoku: the solver against a hand-checked puzzle, uniqueness, the verifier's exact cover, the target
filter, and planted rendering faults (a digit changed, the highlight moved, a box border missing)."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_polaris import sudoku as task_module
from bench_plugin_polaris import sudoku_logic as logic
from bench_plugin_polaris.verifiers import sudoku as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, task_of

from bench_core import ParameterError, assert_rejected, plan

TASK = task_of("sudoku")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)

#: The paper's Figure 21 grid completed by hand (2 x 3 boxes); row 1 column 1 is 6, as the figure's answer E.
SOLVED = [[6, 1, 4, 5, 2, 3],
          [2, 3, 5, 6, 4, 1],
          [1, 2, 6, 3, 5, 4],
          [3, 6, 1, 4, 5, 2],
          [4, 5, 2, 3, 1, 6],
          [5, 4, 3, 1, 2, 6]]


def _valid(grid, box):
    size = len(grid)
    units = [[(r, c) for c in range(size)] for r in range(size)] + [[(r, c) for r in range(size)] for c in range(size)]
    bh, bw = box
    units += [[(r0 + i, c0 + j) for i in range(bh) for j in range(bw)] for r0 in range(0, size, bh)
              for c0 in range(0, size, bw)]
    return all(sorted(grid[r][c] for r, c in unit) == list(range(1, size + 1)) for unit in units)


def test_a_hand_made_puzzle_has_one_solution_in_both_routes():
    solution = [[1, 2, 3, 4, 5, 6],
                [4, 5, 6, 1, 2, 3],
                [2, 3, 1, 5, 6, 4],
                [5, 6, 4, 2, 3, 1],
                [3, 1, 2, 6, 4, 5],
                [6, 4, 5, 3, 1, 2]]
    assert _valid(solution, (2, 3))
    puzzle = [row[:] for row in solution]
    puzzle[0][0] = puzzle[1][3] = 0  # two blanks: each is the only missing digit of its row
    assert logic.count_solutions(puzzle, (2, 3)) == 1
    assert verifier.solve_exact_cover(puzzle, (2, 3)) == [solution]
    empty = [[0] * 6 for _ in range(6)]
    assert logic.count_solutions(empty, (2, 3)) == 2 and len(verifier.solve_exact_cover(empty, (2, 3))) == 2
    clash = [row[:] for row in puzzle]
    clash[0][1] = 4  # the given 4 twice in the top-left box
    assert logic.count_solutions(clash, (2, 3)) == 0 and verifier.solve_exact_cover(clash, (2, 3)) == []


def test_papers_figure_grid_is_invalid_as_printed():
    """The figure's text dump lost a column; our hand completion is not a valid grid either, which is why the
    tests build their own (kept to show the check can fail)."""
    assert not _valid(SOLVED, (2, 3))


@pytest.mark.parametrize("box", logic.BOXES)
def test_samples_are_unique_with_an_open_target(box):
    rng = np.random.default_rng(7)
    for deep in (False, True):
        found = None
        while found is None:
            found = logic.sample(rng, box, 12, deep)
        assert _valid(found["solution"], box)
        assert verifier.solve_exact_cover(found["puzzle"], box) == [found["solution"]]
        r, c = found["target"]
        assert not logic.unit_forced(found["puzzle"], r, c, box)
        if deep:
            assert len(logic.candidates(found["puzzle"], r, c, box)) >= 2
        plausible, excluded = logic.wrong_digits(found)
        assert found["answer"] not in plausible + excluded and len(plausible + excluded) == 5


def test_pairs_share_the_puzzle_and_the_options():
    built = build_run(TASK, 4, seed=6)
    for c, p in zip(built[::2], built[1::2], strict=True):
        assert c.item.options == p.item.options and c.item.answer == p.item.answer
        assert c.item.metadata["scene"]["puzzle"] == p.item.metadata["scene"]["puzzle"]
        assert "each ring, each sector, and each outlined region" in p.item.question
        assert "each row, each column, and each outlined box" in c.item.question


@pytest.mark.parametrize("index", [0, 1])
def test_planted_rendering_faults_are_caught(index):
    built = build(TASK, {"box": "3x2"}, seed=3, index=index)
    scene = built.item.metadata["scene"]
    puzzle = [row[:] for row in scene["puzzle"]]
    r, c = next((r, c) for r in range(6) for c in range(6) if puzzle[r][c])
    puzzle[r][c] = puzzle[r][c] % 6 + 1
    image = redraw(IMPL, built, puzzle=puzzle)
    failures = assert_rejected(HOST, TASK, built.item, [image], "a given drawn as another digit")
    assert any(f"cell ({r + 1}, {c + 1}) shows" in f for f in failures), failures
    tr, tc = scene["target"]
    moved = [tr, (tc + 1) % 6]
    assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, target=moved)], "the highlight drawn on another cell")
    failures = assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, box=[2, 3])],
                               "boxes drawn 2 x 3, not 3 x 2")
    assert any("box border" in f for f in failures), failures


def test_givens_with_difficulty_are_refused():
    with pytest.raises(ParameterError, match="givens"):
        job = plan(TASK, {"givens": 12, "difficulty": 0.5}, 0, 1)[0]
        IMPL.check_params(TASK.resolve_params(job.params))


def test_difficulty_lowers_the_givens():
    easy = build(TASK, {"difficulty": 0.0}, seed=1).item.metadata
    hard = build(TASK, {"difficulty": 1.0}, seed=1).item.metadata
    assert easy["givens"] == 22 and hard["givens"] <= 12 and hard["deep"] and not easy["deep"]
