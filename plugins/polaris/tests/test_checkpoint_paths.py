"""polaris/checkpoint-paths: the instance filters, the verifier's independent route (paths listed one by one)
against the solver, distractors under the wrapping reading, and planted rendering faults (the seam wall left
out, a gap not drawn, the checkpoint moved)."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from bench_plugin_polaris import checkpoint_logic as logic
from bench_plugin_polaris import checkpoint_paths as task_module
from bench_plugin_polaris.verifiers import checkpoint_paths as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, task_of

from bench_core import ParameterError, assert_rejected, plan

TASK = task_of("checkpoint_paths")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)


def test_listing_the_paths_agrees_with_the_solver():
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(200):
        rows, cols = int(rng.integers(4, 8)), int(rng.integers(4, 9))
        found = logic.sample(rng, rows, cols, int(rng.integers(1, logic.most_gaps(rows) + 1)))
        if found is None:
            continue
        scene = {**found, "rows": rows, "cols": cols}
        counts = found["counts"]
        assert verifier.through_checkpoint(scene) == counts["bounded"] == counts["first"] * counts["second"]
        assert counts["no_via"] != counts["bounded"] and counts["no_holes"] > counts["bounded"]
        assert logic.COUNT[0] <= counts["bounded"] <= logic.COUNT[1]
        checked += 1
    assert checked > 80


def test_a_hand_traced_board():
    # X (0, 0), V (1, 1), Y (2, 2) on a 3 x 3 board: 2 x 2 paths; a gap at (0, 1) leaves 1 x 2
    assert logic.counts(3, 3, (), (0, 0), (1, 1), (2, 2))["bounded"] == 4
    found = logic.counts(3, 3, [(0, 1)], (0, 0), (1, 1), (2, 2))
    assert (found["bounded"], found["no_via"], found["no_holes"], found["first"]) == (2, 3, 4, 1)
    scene = {"rows": 3, "cols": 3, "start": [0, 0], "via": [1, 1], "end": [2, 2], "holes": [[0, 1]]}
    assert verifier.through_checkpoint(scene) == 2


def test_distractors_never_take_the_wrapping_count():
    for built in build_run(TASK, 10, {"variant": "polar"}, seed=8):
        scene = built.item.metadata["scene"]
        found = logic.counts(scene["rows"], scene["cols"], scene["holes"], scene["start"], scene["via"], scene["end"])
        wrong = IMPL.distractors(built.problem, 8, None)
        assert found["wrapping"] >= found["bounded"]
        assert str(found["wrapping"]) not in wrong and built.item.answer not in wrong
        assert len(set(wrong)) == len(wrong) == 8 and all(int(w) >= 1 for w in wrong)


def test_pairs_share_the_answer():
    items = [b.item for b in build_run(TASK, 8, seed=3)]
    for first, second in zip(items[::2], items[1::2], strict=True):
        assert first.answer == second.answer and first.pair == second.pair
        assert "Right" in first.question and "CW" in second.question and "In (one ring inward)" in second.question


class _NoWall(task_module.CheckpointPaths):
    BOUNDARY = "wrapping"  # draws the polar grid without the seam wall


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"variant": "polar", "gaps": 3, "rows": 6}, seed=2)
    item, scene = built.item, built.item.metadata["scene"]
    instance = built.problem.structure[0]
    failures = assert_rejected(HOST, TASK, item, [_NoWall().draw(instance, "polar", "", None)], "no seam wall")
    assert any("seam wall" in f for f in failures), failures
    failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, holes=scene["holes"][1:])], "a gap not drawn")
    assert any("gap" in f for f in failures), failures
    moved = next([r, c] for r in range(scene["rows"]) for c in range(scene["cols"])
                 if [r, c] not in (scene["start"], scene["end"], scene["via"], *scene["holes"]))
    failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, via=moved)], "the checkpoint moved")
    assert any("checkpoint drawn at" in f for f in failures), failures


def test_a_corrupted_record_is_caught():
    built = build(TASK, {"variant": "cartesian"}, seed=5)
    meta = dict(built.item.metadata)
    meta["scene"] = {**meta["scene"], "via": meta["scene"]["start"]}
    failures = assert_rejected(HOST, TASK, attrs.evolve(built.item, metadata=meta), built.images, "V on X")
    assert any("distinct" in f for f in failures), failures


def test_gaps_are_capped_by_the_rows():
    with pytest.raises(ParameterError, match="gaps"):
        job = plan(TASK, {"rows": 4, "gaps": 4}, 0, 1)[0]
        IMPL.check_params(TASK.resolve_params(job.params))
    for built in build_run(TASK, 4, {"gaps": 4}, seed=1):
        assert built.item.metadata["scene"]["rows"] >= 6
