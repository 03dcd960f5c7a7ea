"""Default runs spread over the categorical parameters (issue 10, "Sampling"): the cell schedule of
traversal/path and the repeated orders of traversal/reading-order."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bench_core import ItemRandom, implementation, plan
from bench_plugin_traversal.cells import N_CROSS_BINS, N_TORT_BINS, VERTEX_COUNTS
from bench_plugin_traversal.schedule import (
    CYCLE,
    PROFILES,
    TORT_WINDOW,
    TORT_WINDOW_LEAST,
    cells_of,
    check_schedule,
    least_shown,
    load_schedule,
    reachable_cells,
    scheduled_cell,
    vertex_classes,
)

SEEDS = (0, 7, 2026)


def schedule_cells(task, seed: int, profile: str, start: int, count: int) -> list[tuple[int, int, int]]:
    random = ItemRandom(task.id, task.version, seed, 0)
    return [scheduled_cell(random.stream("cell-schedule", profile), p, profile) for p in range(start, start + count)]


def windows(values: list, size: int) -> list[int]:
    """Distinct values in every run of ``size`` consecutive entries."""
    return [len(set(values[i:i + size])) for i in range(len(values) - size + 1)]


def drawn(task, settings: dict, seed: int, start: int, count: int) -> list[dict]:
    """The metadata ``generate`` records for items ``start ..`` of a run (no rendering)."""
    impl = implementation(task)
    out = []
    for job in plan(task, settings, seed, start + count)[start:]:
        params = task.resolve_params(job.params)
        out.append(impl.generate(params, ItemRandom(task.id, task.version, seed, job.index)).metadata)
    return out


def test_the_shipped_schedule_keeps_its_promises():
    assert check_schedule(load_schedule()) == []
    broken = json.loads(json.dumps(load_schedule()))
    broken["tort"]["strict"][:TORT_WINDOW] = [3] * TORT_WINDOW
    assert any("tortuosity bins" in p for p in check_schedule(broken))
    broken = json.loads(json.dumps(load_schedule()))
    i = next(i for i, (_, t, _) in enumerate(cells_of(broken, "strict")) if t == 4)
    broken["tort"]["strict"][i] = 0  # t0 with the crossing bin of a t4 position: unpopulated unless s <= 1
    assert check_schedule(broken)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("seed", SEEDS)
def test_any_run_of_a_default_schedule_covers_the_bins(path_task, seed, profile):
    cells = schedule_cells(path_task, seed, profile, 101, 2 * CYCLE)
    vertices, torts, crosses = ([c[k] for c in cells] for k in range(3))
    assert min(windows(vertices, len(VERTEX_COUNTS))) == len(VERTEX_COUNTS)
    assert min(windows(crosses, N_CROSS_BINS)) == N_CROSS_BINS
    assert min(windows(torts, TORT_WINDOW)) >= TORT_WINDOW_LEAST
    reachable = {(v, t, s) for v in VERTEX_COUNTS for t, s in reachable_cells(v, profile)}
    assert set(cells) <= reachable
    for start in (0, 37, CYCLE - 1):  # every reachable cell in any run of one cycle
        assert set(cells[start:start + CYCLE]) == reachable


def test_seeds_start_the_cycle_elsewhere_and_relabel_vertex_counts(path_task):
    runs = {seed: schedule_cells(path_task, seed, "strict", 0, 40) for seed in SEEDS}
    assert len({tuple(r) for r in runs.values()}) == len(SEEDS)
    assert vertex_classes("strict") == [(9, 11, 13), (15, 17)]


def test_default_items_follow_the_schedule_from_any_start(path_task):
    for start in (0, 101):
        items = drawn(path_task, {}, 2026, start, 2 * N_CROSS_BINS)
        assert [m["source"] for m in items] == list(range(start, start + 2 * N_CROSS_BINS))
        assert [(m["vertices"], m["tort_bin"], m["cross_bin"]) for m in items] == schedule_cells(
            path_task, 2026, "strict", start, 2 * N_CROSS_BINS)
        assert min(windows([m["cross_bin"] for m in items], N_CROSS_BINS)) == N_CROSS_BINS
        assert min(windows([m["vertices"] for m in items], len(VERTEX_COUNTS))) == len(VERTEX_COUNTS)


def test_the_confound_variants_of_a_source_share_its_scheduled_cell(path_task):
    cells = {level: [(m["vertices"], m["tort_bin"], m["cross_bin"]) for m in drawn(path_task, {"confounders": level},
                                                                                   0, 3, 2)]
             for level in ("none", "low", "high")}
    assert cells["none"] == cells["low"] == cells["high"]


def test_coverage_is_declared_as_the_schedule_gives_it(path_task):
    impl = implementation(path_task)
    defaults = path_task.resolve_params({})
    assert impl.categorical_coverage("vertices", defaults, 101, len(VERTEX_COUNTS)) is None
    assert impl.categorical_coverage("cross_bin", defaults, 101, N_CROSS_BINS) is None
    least, why = impl.categorical_coverage("tort_bin", defaults, 101, N_TORT_BINS)
    assert least == TORT_WINDOW_LEAST == least_shown("tort_bin", N_TORT_BINS, "strict") and "unpopulated" in why
    assert impl.categorical_coverage("tort_bin", defaults, 0, 1) is None
    assert impl.categorical_coverage("tort_bin", {**defaults, "vertices": 9}, 0, 6)[0] == 1


def test_set_bins_draw_among_the_vertex_counts_that_have_the_cell(path_task):
    """tort_bin=1, cross_bin=5 exists only at 15 and 17 vertices (paper profile): items at other vertex counts
    used to fail with numpy's "high <= 0"."""
    items = drawn(path_task, {"tort_bin": 1, "cross_bin": 5, "profile": "paper"}, 0, 0, 6)
    assert {m["vertices"] for m in items} <= {15, 17}
    assert {(m["tort_bin"], m["cross_bin"]) for m in items} == {(1, 5)}


def test_with_vertices_set_cells_are_still_drawn_among_those_it_allows(path_task):
    items = drawn(path_task, {"vertices": 9}, 0, 0, 40)
    assert {m["vertices"] for m in items} == {9}
    assert len(Counter((m["tort_bin"], m["cross_bin"]) for m in items)) > 15


@pytest.fixture(scope="module")
def reading_task(host):
    return host.task("traversal/reading-order")


@pytest.mark.parametrize("start", [0, 101])
def test_reading_order_layouts_repeat_one_seeded_order_each(reading_task, start):
    items = drawn(reading_task, {}, 2026, start, 60)
    layouts = [(m["regime"], m["lanes"], m["vertices"]) for m in items]
    assert len(set(layouts)) == 60  # the orders have coprime lengths: every layout once in 60 items
    for k, size in ((0, 4), (1, 3), (2, 5)):
        assert min(windows([layout[k] for layout in layouts], size)) == size
    assert reading_task.resolve_params({})["lanes"] is None
    impl = implementation(reading_task)
    assert impl.categorical_coverage("regime", reading_task.resolve_params({}), start, 4) is None
