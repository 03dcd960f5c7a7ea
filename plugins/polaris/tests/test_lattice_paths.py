"""polaris/lattice-paths: Delannoy numbers, the verifier's independent route (paths listed one by one) against
the solver, the seam merge (S >= n + 2, no dot on the seam line), and planted rendering faults (a dot not drawn,
a cross moved, the seam wall left out, the dots drawn on the seam line)."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from bench_plugin_polaris import combinatorics as cb
from bench_plugin_polaris import lattice_logic as logic
from bench_plugin_polaris import lattice_paths as task_module
from bench_plugin_polaris.verifiers import lattice_paths as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, task_of

from bench_core import ParameterError, assert_rejected, plan

TASK = task_of("lattice_paths")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)


@pytest.mark.parametrize(("m", "n", "value"), [(2, 2, 13), (2, 3, 25), (3, 3, 63), (2, 4, 41), (3, 4, 129)])
def test_listing_gives_the_delannoy_numbers(m, n, value):
    assert verifier.listed({"rows": m, "cols": n, "removed": []}) == value == cb.delannoy(m, n)
    assert logic.readings(m, n, ()) == {"bounded": value, "wrapping": value}


def test_listing_agrees_with_the_solver():
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(120):
        m, n = int(rng.integers(2, 5)), int(rng.integers(2, 5))
        found = logic.sample(rng, m, n, int(rng.integers(logic.fewest_removed(m, n), 4)))
        if found is None:
            continue
        assert verifier.listed({"rows": m, "cols": n, "removed": found["removed"]}) == found["counts"]["bounded"]
        assert found["counts"]["wrapping"] == found["counts"]["bounded"]  # two spare sectors: the readings agree
        checked += 1
    assert checked > 80


def test_polar_pictures_keep_the_seam_line_free():
    for built in build_run(TASK, 6, {"variant": "polar"}, seed=4):
        scene = built.item.metadata["scene"]
        assert built.item.metadata["dims"]["polar"] == [scene["rows"], scene["cols"] + 2]
        assert scene["polar_shift"] == 1
        assert built.item.answer == built.problem.metadata["readings"]["bounded"].__str__()


def test_distractors_skip_the_answer_and_the_delannoy_number_comes_first():
    for built in build_run(TASK, 6, seed=7):
        wrong = IMPL.distractors(built.problem, 5, None)
        scene = built.item.metadata["scene"]
        assert wrong[0] == str(cb.delannoy(scene["rows"], scene["cols"]))
        assert built.item.answer not in wrong and len(set(wrong)) == len(wrong) == 5


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"variant": "polar", "removed": 2}, seed=3)
    item, scene = built.item, built.item.metadata["scene"]
    failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, removed=scene["removed"][:1])],
                               "a cross not drawn")
    assert any("red cross" in f for f in failures), failures
    m, n = scene["rows"], scene["cols"]
    spare = next([i, j] for i in range(m + 1) for j in range(n + 1)
                 if [i, j] not in scene["removed"] and (i, j) not in ((0, 0), (m, n)))
    failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, removed=[*scene["removed"], spare])],
                               "an extra dot crossed out")
    assert any(f"dot {tuple(spare)} is not drawn" in f for f in failures), failures
    failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, polar_shift=0)], "dots on the seam line")
    assert failures
    cartesian = build(TASK, {"variant": "cartesian", "removed": 2}, seed=3)
    failures = assert_rejected(HOST, TASK, item, [cartesian.images[0]], "the Cartesian picture for the polar item")
    assert failures


def test_a_seam_merge_in_the_record_is_caught():
    built = build(TASK, {"variant": "polar"}, seed=6)
    meta = dict(built.item.metadata)
    meta["scene"] = {**meta["scene"], "polar_shift": 0}
    failures = assert_rejected(HOST, TASK, attrs.evolve(built.item, metadata=meta), built.images, "shift 0")
    assert any("merge" in f for f in failures), failures


def test_the_largest_grid_loses_two_dots():
    with pytest.raises(ParameterError, match="removed"):
        job = plan(TASK, {"rows": 4, "cols": 4, "removed": 1}, 0, 1)[0]
        IMPL.check_params(TASK.resolve_params(job.params))
    for built in build_run(TASK, 4, {"rows": 4, "cols": 4}, seed=1):
        assert len(built.item.metadata["scene"]["removed"]) >= 2
