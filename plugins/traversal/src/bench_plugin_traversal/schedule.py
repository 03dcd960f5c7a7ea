"""Which cell (vertex count, tortuosity bin, crossing bin) each item of a default ``traversal/path`` run takes.

Default runs keep the mix of the published TraversalBench, uniform over the populated cells at every vertex
count, and order it so that short runs spread over every categorical parameter (issue 10: with each item's
cell drawn on its own, items 0-4 showed 2 of the 5 vertex counts).  They follow a fixed cycle per profile,
``cell_schedule.json`` (built by ``benchmarks/traversal_cell_schedule.py``), that holds every reachable
(vertex count, tortuosity bin, crossing bin) exactly once: 165 cells under ``paper``, 163 under ``strict``
(which cannot reach t1 s5 at 15 and 17 vertices).  A run enters its cycle at a seeded point, with
the vertex counts that allow the same cells relabelled per seed, so any :func:`cycle_length` consecutive
items are every reachable cell once.

The bins are then as uneven as the cells (tortuosity bin 0 has 10 of them, bin 4 has 35; crossing bin 6 has
8, bins 0 and 1 have 30 each), which bounds what a short run can show.  :data:`PROMISES` states what the
shipped cycles guarantee and :func:`check_schedule` holds them to it; :func:`least_shown` measures any run
length.  The position of an item is its backbone source (the index unless ``source`` is set), so the base
and confound variants of one source share their cell.
"""

from __future__ import annotations

import collections
import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench_plugin_traversal.backbone import UNREACHABLE_STRICT
from bench_plugin_traversal.cells import N_CROSS_BINS, N_TORT_BINS, POPULATED_CELLS, VERTEX_COUNTS

SCHEDULE_PATH = Path(__file__).with_name("cell_schedule.json")
PROFILES = ("strict", "paper")
#: The categorical parameters a cell fixes, their column in a (vertices, tort_bin, cross_bin) cell, and how
#: many values each has.
COLUMNS = {"vertices": 0, "tort_bin": 1, "cross_bin": 2}
CHOICES = {"vertices": len(VERTEX_COUNTS), "tort_bin": N_TORT_BINS, "cross_bin": N_CROSS_BINS}

#: What every run of consecutive items of a default run shows, per profile and parameter, as
#: ``(run, window, least, cover)``: any ``run`` consecutive items show ``run`` different values, any ``window``
#: at least ``least``, any ``cover`` every value (:func:`promised_least` spells it out for every length).
#: Under ``strict`` 9, 11 and 13 vertices have 33 cells and 15 and 17 have 32, so no cycle that keeps every
#: cell equally often can repeat the vertex counts every 5 items; under ``paper`` they do.
PROMISES: dict[str, dict[str, tuple[int, int, int, int]]] = {
    "strict": {"vertices": (4, 5, 4, 9), "tort_bin": (4, 6, 5, 17), "cross_bin": (5, 7, 6, 32)},
    "paper": {"vertices": (5, 5, 5, 5), "tort_bin": (4, 6, 5, 17), "cross_bin": (5, 7, 6, 33)},
}


def reachable_cells(vertices: int, profile: str) -> list[tuple[int, int]]:
    """Populated cells ``(tort_bin, cross_bin)`` at ``vertices`` that the generator reaches under ``profile``."""
    cells = sorted(POPULATED_CELLS[vertices])
    if profile == "strict":
        cells = [c for c in cells if (vertices, *c) not in UNREACHABLE_STRICT]
    return cells


def reachable_triples(profile: str) -> list[tuple[int, int, int]]:
    """Every (vertices, tort_bin, cross_bin) the generator reaches under ``profile``, sorted."""
    return [(v, t, s) for v in VERTEX_COUNTS for t, s in reachable_cells(v, profile)]


def vertex_classes(profile: str) -> list[tuple[int, ...]]:
    """The vertex counts grouped by the cells they allow under ``profile`` (interchangeable in a schedule)."""
    return list(_vertex_classes(profile))


@functools.lru_cache(maxsize=len(PROFILES))
def _vertex_classes(profile: str) -> tuple[tuple[int, ...], ...]:
    groups: dict[tuple[tuple[int, int], ...], list[int]] = collections.defaultdict(list)
    for v in VERTEX_COUNTS:
        groups[tuple(reachable_cells(v, profile))].append(v)
    return tuple(sorted(tuple(g) for g in groups.values()))


def promised_least(profile: str, name: str, count: int) -> int:
    """The fewest different values of ``name`` that :data:`PROMISES` guarantees in ``count`` consecutive items
    of a default run under ``profile`` (a window of ``window`` with ``least`` values keeps ``least - k`` of
    them in any ``window - k`` of its items)."""
    run, window, least, cover = PROMISES[profile][name]
    if count <= 0:
        return 0
    if count >= cover:
        return CHOICES[name]
    return max(min(count, run), least - max(0, window - count))


def window_least(values: Sequence[Any], count: int) -> int:
    """The fewest distinct values in any ``count`` cyclically consecutive entries of ``values``."""
    n = len(values)
    return min(len({values[(i + j) % n] for j in range(count)}) for i in range(n)) if count > 0 else 0


def check_schedule(data: Mapping[str, Any]) -> list[str]:
    """Every way ``data`` breaks the promises of this module (empty if none): for each profile, a cycle that
    holds every reachable cell exactly once and nothing else, and shows at least :func:`promised_least`
    values of each parameter in every run up to the promised cover."""
    problems = []
    for profile in PROFILES:
        cycle = data.get(profile)
        if not isinstance(cycle, list) or not all(isinstance(c, list) and len(c) == 3 for c in cycle):
            problems.append(f"{profile}: not a list of [vertices, tort_bin, cross_bin] cells")
            continue
        cells = [tuple(c) for c in cycle]
        reachable = set(reachable_triples(profile))
        twice = sorted(c for c, k in collections.Counter(cells).items() if k > 1)
        unreachable = sorted(set(cells) - reachable)
        missing = sorted(reachable - set(cells))
        for what, found in (("cells more than once", twice), ("cells not reachable", unreachable),
                            ("cells never visited", missing)):
            if found:
                problems.append(f"{profile}: {what}: {found[:5]}")
        if twice or unreachable or missing:
            continue
        for name, column in COLUMNS.items():
            values = [c[column] for c in cells]
            for count in range(1, PROMISES[profile][name][3] + 1):
                least, promised = window_least(values, count), promised_least(profile, name, count)
                if least < promised:
                    problems.append(f"{profile}: some {count} consecutive positions show {least} {name} values, "
                                    f"not the {promised} promised")
                    break
    return problems


@functools.lru_cache(maxsize=1)
def load_schedule() -> dict[str, list[tuple[int, int, int]]]:
    """The shipped cycles by profile (cached); raises ValueError naming what is wrong if the file fails
    :func:`check_schedule`."""
    data = json.loads(SCHEDULE_PATH.read_text(encoding="utf-8"))
    problems = check_schedule(data)
    if problems:
        raise ValueError(f"{SCHEDULE_PATH.name} is not a valid cell schedule: {'; '.join(problems)}")
    return {profile: [tuple(c) for c in data[profile]] for profile in PROFILES}


def cycle_length(profile: str) -> int:
    """Items in one cycle of ``profile``: its number of reachable cells."""
    return len(load_schedule()[profile])


def scheduled_cell(rng: np.random.Generator, position: int, profile: str) -> tuple[int, int, int]:
    """The (vertices, tort_bin, cross_bin) of ``position`` (a source) under ``profile``; ``rng`` (a stream of
    the run's seed, the same for every item) draws the cycle's starting point and the relabelling."""
    cycle = load_schedule()[profile]
    offset = int(rng.integers(len(cycle)))
    relabel = {}
    for group in _vertex_classes(profile):
        relabel.update(zip(group, (group[int(k)] for k in rng.permutation(len(group))), strict=True))
    v, t, s = cycle[(position + offset) % len(cycle)]
    return relabel[v], t, s


def least_shown(name: str, count: int, profile: str) -> int:
    """The fewest distinct values of ``name`` (vertices, tort_bin or cross_bin) that any ``count`` consecutive
    items of a default run show, measured on the shipped cycle (relabelling and the starting point do not
    change it)."""
    return window_least([c[COLUMNS[name]] for c in load_schedule()[profile]], count)


def bin_shares(name: str, profile: str) -> dict[int, int]:
    """How many cells of one cycle of ``profile`` take each value of ``name``."""
    return dict(sorted(collections.Counter(c[COLUMNS[name]] for c in load_schedule()[profile]).items()))
