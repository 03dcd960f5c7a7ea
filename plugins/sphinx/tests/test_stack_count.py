"""sphinx/stack-count: congruent overlapping sheets, counts over hidden parts, the stack checked on the pixels,
planted rendering faults."""

from __future__ import annotations

import collections

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import stack_count as sc
from bench_plugin_sphinx.kit import complexity, spatial
from bench_plugin_sphinx.verifiers import stack_count as verifier
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, assert_rejected, plan, score

TASK = task_of("stack_count")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("sheet").choices == sc.SHEETS
    sheets = TASK.parameter("sheets")
    assert (sheets.minimum, sheets.maximum) == sc.SHEET_RANGE


@pytest.mark.parametrize("sheet", sc.SHEETS)
def test_stacks_are_congruent_overlapping_and_the_target_is_partly_hidden(sheet):
    for built in build_run(TASK, 3, {"sheet": sheet}, seed=3):
        scene = built.item.metadata["scene"]
        sheets, query = scene["sheets"], scene["query"]
        assert verifier.congruent(sheets) and query["target"] < len(sheets) - 1
        area = spatial.area(sheets[0])
        for a in range(len(sheets)):
            shares = [spatial.overlap_area(sheets[a], sheets[b], 2.0) / area for b in range(len(sheets)) if b != a]
            assert max(shares) >= 0.045 and all(s == 0 or 0.045 <= s <= 0.76 for s in shares), shares
        target = sheets[query["target"]]
        xs, ys = (np.array([t[k] for t in scene["tokens"]]) for k in (1, 2))
        mine = np.array([t[0] == query["kind"] for t in scene["tokens"]]) & spatial.contains(target, xs, ys)
        assert str(int(np.count_nonzero(mine))) == built.item.answer
        hidden = np.zeros(len(xs), bool)
        for later in sheets[query["target"] + 1:]:
            hidden |= spatial.contains(later, xs, ys)
        assert np.any(mine & hidden), "no counted token lies on the hidden part"
        assert sc.visible_fraction(sheets, query["target"]) >= sc.VISIBLE


def test_sheet_kinds_cycle_and_gold_scores():
    items = [b.item for b in build_run(TASK, 6, seed=5)]
    assert collections.Counter(item.metadata["sheet"] for item in items) == {s: 2 for s in sc.SHEETS}
    item = items[0]
    target = item.metadata["scene"]["sheets"][item.metadata["scene"]["query"]["target"]]
    assert f"{target['colour']} ({target['hex']})" in item.question
    for response in (item.answer, f"\\boxed{{{item.answer}}}"):
        assert score(item, response, host=HOST).value == 1.0


def _draw(scene, sheets=None, tokens=None):
    sheets = scene["sheets"] if sheets is None else sheets
    tokens = scene["tokens"] if tokens is None else tokens
    return spatial.draw_scene(sc.SIZE, [(s, s["hex"]) for s in sheets], tokens, sc.OUTLINE)


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"sheet": "rectangle", "sheets": 3}, seed=7)
    scene = built.item.metadata["scene"]
    sheets = [dict(s) for s in scene["sheets"]]
    target = scene["query"]["target"]

    on_top = [s for k, s in enumerate(sheets) if k != target] + [sheets[target]]  # the asked sheet drawn on top
    failures = assert_rejected(HOST, TASK, built.item, [_draw(scene, sheets=on_top)], "stack order changed")
    assert any("samples of the stack" in f for f in failures), failures

    smaller = [dict(s) for s in sheets]  # the asked sheet drawn 20 px narrower (its hidden part shrinks)
    x0, y0, x1, y1 = smaller[target]["box"]
    smaller[target]["box"] = [x0 + 10, y0, x1 - 10, y1]
    assert_rejected(HOST, TASK, built.item, [_draw(scene, sheets=smaller)], "the asked sheet drawn smaller")

    kind = scene["query"]["kind"]
    tokens = [list(t) for t in scene["tokens"]]
    changed = [list(t) for t in tokens]  # a token of the asked kind drawn as another kind
    k = next(i for i, t in enumerate(tokens) if t[0] == kind)
    changed[k][0] = "square" if kind != "square" else "triangle"
    assert_rejected(HOST, TASK, built.item, [_draw(scene, tokens=changed)], "a token drawn as another kind")

    extra = [*tokens, [kind, 30.0, 480.0, 13.0, 0.0]]
    failures = assert_rejected(HOST, TASK, built.item, [_draw(scene, tokens=extra)], "an unrecorded token")
    assert any("belong to no recorded token" in f for f in failures), failures


@pytest.mark.parametrize("sheet", sc.SHEETS)
def test_the_stack_check_leaves_out_only_samples_far_from_each_sheet(sheet):
    """The verifier measures each sheet only on the samples near its box; every sample it leaves out must lie
    outside the sheet and farther from its boundary than the margin."""
    from bench_plugin_sphinx.verifiers.tokens import distance_many, inside_many

    width, height = sc.SIZE
    gy, gx = np.meshgrid(np.arange(verifier.STEP // 2, height, verifier.STEP),
                         np.arange(verifier.STEP // 2, width, verifier.STEP), indexing="ij")
    xs, ys = gx + 0.5, gy + 0.5
    for built in build_run(TASK, 2, {"sheet": sheet}, seed=11):
        for one in built.item.metadata["scene"]["sheets"]:
            for margin in (2.0, 5.5):
                left_out = np.ones(xs.shape, bool)
                left_out[verifier._reach(one, xs[0], ys[:, 0], margin)] = False
                assert left_out.any() and not inside_many(one, xs, ys)[left_out].any()
                assert np.all(distance_many(one, xs, ys)[left_out] > margin)


def test_unequal_sheets_in_the_record_are_caught():
    built = build(TASK, {"sheet": "circle"}, seed=2)
    scene = {**built.item.metadata["scene"]}
    sheets = [dict(s) for s in scene["sheets"]]
    sheets[-1]["radius"] = sheets[-1]["radius"] * 1.2  # record and picture agree, but the sheets differ in size
    scene["sheets"] = sheets
    bad = attrs.evolve(built.item, metadata={**built.item.metadata, "scene": scene})
    failures = assert_rejected(HOST, TASK, bad, [_draw(scene)], "sheets of unequal size")
    assert any("not congruent" in f for f in failures), failures


def test_the_top_sheet_as_target_is_caught():
    built = build(TASK, {"sheets": 2}, seed=1)
    scene = {**built.item.metadata["scene"], "query": {**built.item.metadata["scene"]["query"], "target": 1}}
    bad = attrs.evolve(built.item, metadata={**built.item.metadata, "scene": scene})
    failures = assert_rejected(HOST, TASK, bad, built.images, "the top sheet asked")
    assert any("top one" in f for f in failures), failures


def test_sheets_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="sheets or difficulty"):
        job = plan(TASK, {"sheets": 3, "difficulty": 0.5}, 0, 1)[0]
        sc.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (len(built.item.metadata["scene"]["sheets"]) == 4) is hard
