"""polaris/edge-counting: trails stay off the seam lines, the options are a window of consecutive counts with the
answer at a uniform offset, the verifier reads every edge off the pixels, and planted rendering faults (an edge
of the trail not drawn, an extra edge drawn, Q moved) are caught."""

from __future__ import annotations

import collections
import itertools

import attrs
import numpy as np
from bench_plugin_polaris import edge_counting as task_module
from bench_plugin_polaris import edge_logic as logic
from bench_plugin_polaris.verifiers import edge_counting as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, task_of

from bench_core import assert_rejected

TASK = task_of("edge_counting")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)


def test_trails_are_simple_walks_off_the_seam_lines():
    rng = np.random.default_rng(4)
    made = 0
    for _ in range(300):
        length = int(rng.integers(logic.LENGTH[0], logic.LENGTH[1] + 1))
        rows, cols = logic.grid_for(length, rng)
        found = logic.sample(rng, rows, cols, length)
        if found is None:
            continue
        trail = [tuple(p) for p in found["trail"]]
        assert len(trail) == length + 1 == len(set(trail))
        assert all(1 <= j <= cols - 1 and 0 <= i <= rows for i, j in trail)
        assert logic.turns(trail) >= length // 4
        assert abs(trail[0][0] - trail[-1][0]) + abs(trail[0][1] - trail[-1][1]) >= 2
        made += 1
    assert made > 100


def test_options_are_consecutive_and_the_answer_offset_is_spread():
    offsets = collections.Counter()
    letters = collections.Counter()
    items = [b.item for b in build_run(TASK, 40, seed=9)]
    for first, second in zip(items[::2], items[1::2], strict=True):
        assert first.options == second.options and first.answer == second.answer
        values = sorted(int(v) for v in first.options)
        assert values == list(range(values[0], values[0] + 5))
        value = int(first.options["ABCDE".index(first.answer)])
        assert value == first.metadata["edges"]
        offsets[value - values[0]] += 1
        letters[first.answer] += 1
    assert len(offsets) >= 4 and len(letters) == 5, (offsets, letters)


def test_the_edges_read_off_a_hand_drawn_trail():
    built = build(TASK, {"variant": "polar"}, seed=1)
    layout = IMPL.layout_of(built.item)
    scene = built.item.metadata["scene"]
    trail = [tuple(p) for p in scene["trail"]]
    read = verifier.drawn_edges(built.images[0], layout, tuple(scene["colours"]["trail"]))
    assert read == {frozenset(pair) for pair in itertools.pairwise(trail)}
    # the polar grid has S arcs per circle (the last closes it at 12 o'clock) and S radial pieces per ring
    assert len(verifier.grid_edges(layout)) == (layout.rows + 1) * layout.sectors + layout.rows * layout.sectors


def test_planted_rendering_faults_are_caught():
    for variant in ("cartesian", "polar"):
        built = build(TASK, {"variant": variant}, seed=5)
        item, trail = built.item, built.item.metadata["scene"]["trail"]
        failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, trail=trail[:-1])], "the last edge left out")
        assert any("edges" in f for f in failures), failures
        i, j = trail[-1]
        extra = next([i + di, j + dj] for di, dj in logic.STEPS
                     if logic.usable((i + di, j + dj), item.metadata["scene"]["rows"], item.metadata["scene"]["cols"])
                     and [i + di, j + dj] not in trail)
        failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, trail=[*trail, extra])],
                                   "an extra edge drawn")
        assert any("edges" in f for f in failures), failures


def test_a_trail_on_the_seam_line_in_the_record_is_caught():
    built = build(TASK, {"variant": "polar"}, seed=2)
    meta = dict(built.item.metadata)
    trail = [[i, 0] for i, _ in meta["scene"]["trail"]]
    meta["scene"] = {**meta["scene"], "trail": trail}
    failures = assert_rejected(HOST, TASK, attrs.evolve(built.item, metadata=meta), built.images, "seam")
    assert any("seam" in f for f in failures), failures
