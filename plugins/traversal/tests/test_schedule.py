"""Default runs spread over the categorical parameters (issue 10, "Sampling"): the cell schedule of
traversal/path, uniform over the reachable cells like the published data, and the repeated orders of
traversal/reading-order."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bench_core import ItemRandom, implementation, plan
from bench_plugin_traversal.cells import N_CROSS_BINS, N_TORT_BINS, POPULATED_CELLS, VERTEX_COUNTS
from bench_plugin_traversal.schedule import (
    CHOICES,
    COLUMNS,
    PROFILES,
    PROMISES,
    SCHEDULE_PATH,
    bin_shares,
    check_schedule,
    cycle_length,
    least_shown,
    load_schedule,
    promised_least,
    reachable_triples,
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


def shipped() -> dict:
    return json.loads(SCHEDULE_PATH.read_text(encoding="utf-8"))


def test_the_shipped_schedule_keeps_its_promises():
    assert check_schedule(shipped()) == []
    assert {p: len(c) for p, c in load_schedule().items()} == {"strict": 163, "paper": 165}
    duplicated = shipped()
    duplicated["paper"][1] = duplicated["paper"][0]
    assert any("more than once" in p for p in check_schedule(duplicated))
    assert any("never visited" in p for p in check_schedule(duplicated))
    unreachable = shipped()
    unreachable["strict"][unreachable["strict"].index([15, 2, 2])] = [15, 1, 5]  # reached under paper only
    assert any("not reachable" in p for p in check_schedule(unreachable))
    for name, column in COLUMNS.items():  # the same cells in a worse order: bring a repeat next to its twin
        reordered = shipped()
        cycle = reordered["strict"]
        twin = next(i for i in range(2, len(cycle)) if cycle[i][column] == cycle[0][column])
        cycle[1], cycle[twin] = cycle[twin], cycle[1]
        assert any(f"{name} values" in p for p in check_schedule(reordered)), name
    assert check_schedule({"strict": shipped()["strict"]}) == [
        "paper: not a list of [vertices, tort_bin, cross_bin] cells"]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_cycle_of_a_default_run_is_every_reachable_cell_once(path_task, seed, profile):
    """The published mix: uniform over the populated cells at every vertex count (strict leaves out the two
    it cannot reach), from any start."""
    n = cycle_length(profile)
    for start in (0, 101, n - 1):
        cells = schedule_cells(path_task, seed, profile, start, n)
        assert Counter(cells) == Counter(reachable_triples(profile))
    per_vertex = Counter(v for v, _, _ in reachable_triples(profile))
    assert per_vertex == ({v: 33 for v in VERTEX_COUNTS} if profile == "paper" else
                          {9: 33, 11: 33, 13: 33, 15: 32, 17: 32})
    populated = Counter(t for v in VERTEX_COUNTS for t, _ in POPULATED_CELLS[v])
    tort = bin_shares("tort_bin", profile)
    assert tort == ({**populated, 1: populated[1] - 2} if profile == "strict" else dict(populated))


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("seed", SEEDS)
def test_any_run_of_a_default_schedule_shows_what_is_promised(path_task, seed, profile):
    cells = schedule_cells(path_task, seed, profile, 101, 2 * cycle_length(profile))
    for name, column in COLUMNS.items():
        values = [c[column] for c in cells]
        for count in range(1, PROMISES[profile][name][3] + 1):
            least = min(windows(values, count))
            assert least >= promised_least(profile, name, count), (name, count)
            assert least == least_shown(name, count, profile), (name, count)  # two cycles hold every window
    vertices, torts, crosses = ([c[k] for c in cells] for k in range(3))
    if profile == "paper":
        assert min(windows(vertices, 5)) == 5
    else:
        assert min(windows(vertices, 4)) == 4 and min(windows(vertices, 5)) == 4 and min(windows(vertices, 9)) == 5
    assert min(windows(torts, 4)) == 4 and min(windows(torts, 6)) == 5 and min(windows(torts, 17)) == N_TORT_BINS
    assert min(windows(crosses, 5)) == 5 and min(windows(crosses, 7)) == 6


@pytest.mark.parametrize("profile", PROFILES)
def test_runs_up_to_one_per_value_show_as_many_values_as_the_mix_allows(profile):
    """With every cell once per cycle of n items, a value of c cells lies in at most c * k of the n runs of k
    items: it is missing from one of them if c * k < n, and it repeats within one if c * k > n (15 and 17
    vertices, 32 cells each under strict; tortuosity bin 0, 10 cells, and bin 4, 35; crossing bin 6, 8 cells,
    and bins 0 and 1, 30).  For every run length up to the number of values, the schedule loses no more."""
    n = cycle_length(profile)
    for name in COLUMNS:
        shares = bin_shares(name, profile).values()
        for k in range(1, CHOICES[name] + 1):
            best = min(k - (max(shares) * k > n), CHOICES[name] - (min(shares) * k < n))
            assert least_shown(name, k, profile) == best, (name, k)
        assert best == (CHOICES[name] if name == "vertices" and profile == "paper" else CHOICES[name] - 1)


def test_seeds_start_the_cycle_elsewhere_and_relabel_vertex_counts(path_task):
    runs = {seed: schedule_cells(path_task, seed, "strict", 0, 40) for seed in SEEDS}
    assert len({tuple(r) for r in runs.values()}) == len(SEEDS)
    assert vertex_classes("strict") == vertex_classes("paper") == [(9, 11, 13), (15, 17)]


def test_default_items_follow_the_schedule_from_any_start(path_task):
    for start in (0, 101):
        items = drawn(path_task, {}, 2026, start, 2 * N_CROSS_BINS)
        assert [m["source"] for m in items] == list(range(start, start + 2 * N_CROSS_BINS))
        assert [(m["vertices"], m["tort_bin"], m["cross_bin"]) for m in items] == schedule_cells(
            path_task, 2026, "strict", start, 2 * N_CROSS_BINS)
        assert min(windows([m["cross_bin"] for m in items], N_CROSS_BINS)) >= N_CROSS_BINS - 1
        assert min(windows([m["vertices"] for m in items], len(VERTEX_COUNTS))) >= len(VERTEX_COUNTS) - 1


def test_the_confound_variants_of_a_source_share_its_scheduled_cell(path_task):
    cells = {level: [(m["vertices"], m["tort_bin"], m["cross_bin"]) for m in drawn(path_task, {"confounders": level},
                                                                                   0, 3, 2)]
             for level in ("none", "low", "high")}
    assert cells["none"] == cells["low"] == cells["high"]


def test_coverage_is_declared_as_the_schedule_gives_it(path_task):
    impl = implementation(path_task)
    strict = path_task.resolve_params({})
    paper = path_task.resolve_params({"profile": "paper"})
    least, why = impl.categorical_coverage("vertices", strict, 101, 5)
    assert least == 4 and "163" in why and "cannot repeat every 5" in why
    assert impl.categorical_coverage("vertices", strict, 101, 4) is None
    assert impl.categorical_coverage("vertices", paper, 101, 5) is None
    for params in (strict, paper):
        for count, least in ((4, None), (5, 4), (6, 5), (16, 5), (17, None)):
            declared = impl.categorical_coverage("tort_bin", params, 101, count)
            assert (declared and declared[0]) == least, count
        assert "tort_bin 0 has 10 of them" in impl.categorical_coverage("tort_bin", params, 0, 6)[1]
        for count, least in ((5, None), (6, 5), (7, 6)):
            declared = impl.categorical_coverage("cross_bin", params, 101, count)
            assert (declared and declared[0]) == least, count
        assert "cross_bin 6 has 8 of them" in impl.categorical_coverage("cross_bin", params, 0, 7)[1]
    assert impl.categorical_coverage("tort_bin", {**strict, "vertices": 9}, 0, 6)[0] == 1


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
