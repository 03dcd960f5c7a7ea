"""polaris/bounded-diagonal-paths and polaris/wrapping-diagonal-paths: the instance filters, the verifier's
independent route (paths listed one by one) against the solver, both boundary readings, and planted rendering
faults (the seam wall left out or drawn where the grid wraps, a blocked cell or a marker moved, a checkerboard
square miscoloured)."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from bench_plugin_polaris import bounded_diagonal_paths as bounded_module
from bench_plugin_polaris import diagonal_logic as logic
from bench_plugin_polaris import wrapping_diagonal_paths as wrapping_module
from bench_plugin_polaris.verifiers import diagonal_paths as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, task_of

from bench_core import ParameterError, assert_rejected, plan

BOUNDED = task_of("bounded_diagonal_paths")
WRAPPING = task_of("wrapping_diagonal_paths")

TestBoundedConformance = conformance_suite(BOUNDED)
TestWrappingConformance = conformance_suite(WRAPPING)


def test_listing_the_paths_agrees_with_the_solver():
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(150):
        rows, cols = int(rng.integers(5, 9)), int(rng.integers(4, 9))
        found = logic.sample(rng, rows, cols, int(rng.integers(0, logic.most_blocked(rows, 3) + 1)),
                             wrap_matters=bool(rng.integers(2)), partial=False)
        if found is None:
            continue
        scene = {**found, "rows": rows, "cols": cols}
        listed = {"bounded": len(verifier.enumerated(scene, False)), "wrapping": len(verifier.enumerated(scene, True))}
        assert listed == found["counts"], scene
        assert not any(verifier.crosses_seam(p, cols) for p in verifier.enumerated(scene, False))
        checked += 1
    assert checked > 50


def test_a_hand_traced_board():
    # 5 rows x 5 columns, P in the top-left corner, Q straight below: bounded R R L L / R L R L = 2; wrapping
    # every arrangement of two lefts and two rights = 6; a block at (1, 1) leaves no bounded path at all
    scene = {"rows": 5, "cols": 5, "start": [0, 0], "end": [4, 0], "blocked": []}
    assert len(verifier.enumerated(scene, False)) == 2 and len(verifier.enumerated(scene, True)) == 6
    assert logic.readings(5, 5, (0, 0), (4, 0), [(1, 1)])["bounded"] == 0


def test_bounded_pairs_share_the_answer_and_half_need_the_wall():
    items = [b.item for b in build_run(BOUNDED, 24, seed=4)]
    matters = []
    for first, second in zip(items[::2], items[1::2], strict=True):
        assert (first.variant, second.variant) == ("cartesian", "polar") and first.pair == second.pair
        assert first.answer == second.answer == str(first.metadata["readings"]["bounded"])
        assert "other_answer" not in first.metadata
        matters.append(first.metadata["wrap_matters"])
    assert sum(matters) >= 4, matters  # a coin per pair forces it; the other pairs may need the wall too


def test_wrapping_pairs_differ_and_record_the_other_answer():
    items = [b.item for b in build_run(WRAPPING, 16, seed=6)]
    for first, second in zip(items[::2], items[1::2], strict=True):
        readings = first.metadata["readings"]
        assert first.answer == str(readings["bounded"]) and second.answer == str(readings["wrapping"])
        assert readings["wrapping"] > readings["bounded"]
        assert first.metadata["other_answer"] == second.answer and second.metadata["other_answer"] == first.answer
        assert first.metadata["scene"]["cols"] % 2 == 0
        assert "wraps around" in second.question and "wraps around" not in first.question


def test_distractors_never_take_the_other_reading():
    for built in build_run(BOUNDED, 12, {"variant": "polar"}, seed=8):
        wrong = BOUNDED_IMPL.distractors(built.problem, 6, None)
        assert str(built.item.metadata["readings"]["wrapping"]) not in wrong
        assert built.item.answer not in wrong and len(set(wrong)) == len(wrong) == 6


BOUNDED_IMPL = bounded_module.TASK
WRAPPING_IMPL = wrapping_module.TASK


class _NoWall(bounded_module.BoundedDiagonalPaths):
    BOUNDARY = "wrapping"  # draws the polar grid without the seam wall


def test_planted_rendering_faults_are_caught():
    built = build(BOUNDED, {"variant": "polar", "blocked": 2, "rows": 7}, seed=2)
    instance = built.problem.structure[0]
    item, scene = built.item, built.item.metadata["scene"]
    failures = assert_rejected(HOST, BOUNDED, item, [_NoWall().draw(instance, "polar", "", None)], "no seam wall")
    assert any("seam wall" in f for f in failures), failures
    failures = assert_rejected(HOST, BOUNDED, item, [redraw(BOUNDED_IMPL, built, blocked=scene["blocked"][:1])],
                               "a blocked cell not drawn")
    assert any("blocked" in f for f in failures), failures
    moved = [scene["start"][0], (scene["start"][1] + 1) % scene["cols"]]
    failures = assert_rejected(HOST, BOUNDED, item, [redraw(BOUNDED_IMPL, built, start=moved)], "P moved")
    assert any("P drawn at" in f for f in failures), failures

    built = build(WRAPPING, {"variant": "polar"}, seed=3)
    instance = built.problem.structure[0]
    walled = bounded_module.BoundedDiagonalPaths().draw(instance, "polar", "", None)
    failures = assert_rejected(HOST, WRAPPING, built.item, [walled], "a seam wall where the grid wraps")
    assert any("wraps" in f for f in failures), failures
    flat = redraw(WRAPPING_IMPL, built, checkered=False)
    failures = assert_rejected(HOST, WRAPPING, built.item, [flat], "no checkerboard")
    assert any("checkerboard" in f for f in failures), failures


def test_a_corrupted_record_is_caught():
    built = build(WRAPPING, {}, seed=5)
    meta = dict(built.item.metadata)
    meta["other_answer"] = str(int(meta["other_answer"]) + 1)
    failures = assert_rejected(HOST, WRAPPING, attrs.evolve(built.item, metadata=meta), built.images, "other_answer")
    assert any("other_answer" in f for f in failures), failures
    meta = dict(built.item.metadata)
    meta["scene"] = {**meta["scene"], "start": "nowhere"}
    failures = assert_rejected(HOST, WRAPPING, attrs.evolve(built.item, metadata=meta), built.images, "malformed")
    assert any("malformed" in f for f in failures), failures


def test_blocked_cells_are_capped_by_the_rows():
    with pytest.raises(ParameterError, match="blocked"):
        job = plan(BOUNDED, {"rows": 5, "blocked": 3}, 0, 1)[0]
        BOUNDED_IMPL.check_params(BOUNDED.resolve_params(job.params))
    for built in build_run(BOUNDED, 4, {"blocked": 3}, seed=1):
        assert built.item.metadata["scene"]["rows"] >= 7
