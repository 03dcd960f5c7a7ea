"""polaris/n-queens: the solver against hand-checked boards and known counts, the instance filters, the
verifier's independent route, and planted rendering faults."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from bench_plugin_polaris import n_queens as task_module
from bench_plugin_polaris import n_queens_logic as logic
from bench_plugin_polaris.verifiers import n_queens as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, seam_line, task_of

from bench_core import ParameterError, assert_rejected, plan

TASK = task_of("n_queens")

TestConformance = conformance_suite(TASK)


@pytest.mark.parametrize(("n", "count"), [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)])
def test_solution_counts_are_the_known_ones(n, count):
    assert len(logic.solutions(n)) == count


def test_attacks_bounded_and_toroidal():
    assert logic.attacks((0, 0), (3, 3), 8) and logic.attacks((2, 5), (2, 0), 8) and logic.attacks((1, 4), (6, 4), 8)
    assert not logic.attacks((0, 0), (1, 2), 8)
    # (0, 0) and (1, 4) on a 5 x 5 board: no bounded line, but the wrapped anti-diagonal (0 - 1 = 4 mod 5) joins them
    assert not logic.attacks((0, 0), (1, 4), 5) and logic.attacks((0, 0), (1, 4), 5, toroidal=True)


def test_hand_checked_completion():
    # 5 x 5: queens at (row 5, col 1), (row 2, col 5), (row 4, col 4) (1-based); rows 1 and 3 and columns 2 and 3
    # are free. (1,2)+(3,3) fails: (3,3) and (4,4) share a diagonal; (1,3)+(3,2) is the only completion.
    given = {4: 0, 1: 4, 3: 3}
    assert logic.completions(5, given) == [{0: 2, 2: 1}]
    assert verifier.completions(5, [(4, 0), (1, 4), (3, 3)]) == [{0: 2, 2: 1}]
    assert logic.unattacked(5, given, 0) == [1, 2]


@pytest.mark.parametrize("n", [6, 8])
def test_toroidal_boards_of_even_size_have_no_solution(n):
    """Why the task is bounded only (paper B.2): a toroidal n-queens solution exists only when gcd(n, 6) = 1."""
    assert logic.completions(n, {}, toroidal=True, limit=1) == []
    assert logic.completions(7, {}, toroidal=True, limit=1) != []


def test_instances_pass_their_filters_and_the_verifier_route_agrees():
    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(120):
        n = logic.SIZES[int(rng.integers(3))]
        low, high = logic.missing_range(n)
        found = logic.sample(rng, n, int(rng.integers(low, high + 1)), *logic.draw_target(rng, n))
        if found is None:
            continue
        seen += 1
        queens = sorted(found["queens"].items())
        truth = verifier.completions(n, queens)
        assert len(truth) == 1 and truth[0][found["target"]] == found["answer"]
        assert len(found["free"]) >= 2 and found["answer"] in found["free"]
        wrong = logic.distractor_columns(found, rng)
        assert len(set(wrong)) == 4 and found["answer"] not in wrong
        toroidal = {c[found["target"]] for c in verifier.completions(n, queens, toroidal=True)}
        assert not toroidal & set(wrong)
        assert wrong[: len(found["free"]) - 1] == [c for c in wrong if c in found["free"]][: len(found["free"]) - 1]
    assert seen > 40


def test_the_asked_cell_is_uniform_among_the_cells_solutions_use():
    rng = np.random.default_rng(2)
    counts = {}
    for _ in range(4000):
        cell = logic.draw_target(rng, 7)
        counts[cell] = counts.get(cell, 0) + 1
    assert len(counts) == 49  # every cell of a 7 x 7 board is in some solution
    assert max(counts.values()) < 2.2 * min(counts.values())


def test_pairs_share_the_problem_and_the_letters():
    built = build_run(TASK, 6, seed=4)
    for c, p in zip(built[::2], built[1::2], strict=True):
        assert (c.item.variant, p.item.variant) == ("cartesian", "polar")
        assert c.item.pair == p.item.pair and c.item.options == p.item.options and c.item.answer == p.item.answer
        assert c.item.metadata["scene"]["queens"] == p.item.metadata["scene"]["queens"]
        assert "ring" in p.item.question and "ring" not in c.item.question
        assert "diagonal is a line of cells going one ring" in p.item.question


@pytest.mark.parametrize("index", [0, 1])
def test_planted_rendering_faults_are_caught(index):
    built = build(TASK, {"size": 7}, seed=2, index=index)
    queens = built.item.metadata["scene"]["queens"]
    moved = [list(q) for q in queens]
    moved[0][1] = (moved[0][1] + 1) % 7
    failures = assert_rejected(HOST, TASK, built.item, [redraw(task_module.TASK, built, queens=moved)],
                               "a queen drawn one cell over")
    assert any("queens drawn in cells the record does not list" in f for f in failures), failures
    assert_rejected(HOST, TASK, built.item, [redraw(task_module.TASK, built, queens=queens[1:])], "a queen not drawn")


def test_a_missing_seam_wall_is_caught():
    built = build(TASK, seed=3, index=1)
    assert built.item.variant == "polar"
    image = seam_line(TASK_IMPL, built, (255, 255, 255), 9)
    failures = assert_rejected(HOST, TASK, built.item, [image], "the seam wall erased")
    assert any("seam wall" in f for f in failures), failures


def test_a_second_completion_in_the_record_is_caught():
    built = build(TASK, {"size": 7, "missing": 2}, seed=1)
    scene = dict(built.item.metadata["scene"])
    scene["queens"] = scene["queens"][:-1]  # one queen fewer: the record claims 2 missing, the board lacks 3
    bad = attrs.evolve(built.item, metadata={**built.item.metadata, "scene": scene})
    failures = assert_rejected(HOST, TASK, bad, built.images, "a queen dropped from the record")
    assert failures


TASK_IMPL = task_module.TASK


def test_missing_outside_its_range_is_refused():
    with pytest.raises(ParameterError, match="missing"):
        job = plan(TASK, {"size": 5, "missing": 2}, 0, 1)[0]
        TASK_IMPL.check_params(TASK.resolve_params(job.params))


def test_difficulty_sets_size_and_missing():
    easy = build(TASK, {"difficulty": 0.0}, seed=1).item.metadata
    hard = build(TASK, {"difficulty": 1.0}, seed=1).item.metadata
    assert (easy["size"], easy["missing"]) == (5, 3) and (hard["size"], hard["missing"]) == (8, 4)
    assert build(TASK, {"missing": 2}, seed=3).item.metadata["size"] in (7, 8)  # 5 x 5 needs 3 missing


def test_the_crown_reaches_no_farther_than_the_kits_icons_so_it_fits_its_cell():
    import math

    from bench_plugin_polaris import n_queens
    from bench_plugin_polaris.kit import draw

    assert max(math.hypot(x, y) for x, y in n_queens.CROWN) <= draw.ICON_REACH
