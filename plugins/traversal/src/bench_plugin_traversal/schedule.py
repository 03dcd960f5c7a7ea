"""Which cell (vertex count, tortuosity bin, crossing bin) each item of a default ``traversal/path`` run takes.

Drawing each item's cell at random lets a short run miss whole bins (issue 10: items 0-4 showed 2 of the 5
vertex counts).  Default runs follow instead a fixed cycle of :data:`CYCLE` positions, ``cell_schedule.json``
(built by ``benchmarks/traversal_cell_schedule.py``), from a seeded starting point and with the vertex counts
that allow the same cells relabelled per seed:

* vertex counts repeat with period 5 and crossing bins with period 7, so any 5 consecutive items show every
  vertex count and any 7 every crossing bin;
* any :data:`TORT_WINDOW` consecutive items show at least :data:`TORT_WINDOW_LEAST` of the 6 tortuosity bins
  (all 6 in every 6 items is impossible: see the builder's docstring);
* every reachable cell occurs in every cycle, so a run of :data:`CYCLE` items covers the grid.

The position of an item is its backbone source (the index unless ``source`` is set), so the base and confound
variants of one source share their cell.
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

#: Positions in one cycle: 5 vertex counts x 6 tortuosity bins x 7 crossing bins.
CYCLE = len(VERTEX_COUNTS) * N_TORT_BINS * N_CROSS_BINS
#: Any this many consecutive positions show at least :data:`TORT_WINDOW_LEAST` tortuosity bins.
TORT_WINDOW = N_TORT_BINS
TORT_WINDOW_LEAST = N_TORT_BINS - 1
SCHEDULE_PATH = Path(__file__).with_name("cell_schedule.json")
PROFILES = ("strict", "paper")


def reachable_cells(vertices: int, profile: str) -> list[tuple[int, int]]:
    """Populated cells ``(tort_bin, cross_bin)`` at ``vertices`` that the generator reaches under ``profile``."""
    cells = sorted(POPULATED_CELLS[vertices])
    if profile == "strict":
        cells = [c for c in cells if (vertices, *c) not in UNREACHABLE_STRICT]
    return cells


def vertex_classes(profile: str) -> list[tuple[int, ...]]:
    """The vertex counts grouped by the cells they allow under ``profile`` (interchangeable in a schedule)."""
    groups: dict[tuple[tuple[int, int], ...], list[int]] = collections.defaultdict(list)
    for v in VERTEX_COUNTS:
        groups[tuple(reachable_cells(v, profile))].append(v)
    return sorted(tuple(g) for g in groups.values())


@functools.lru_cache(maxsize=1)
def load_schedule() -> dict[str, Any]:
    """The shipped schedule (cached); raises ValueError naming what is wrong if it fails :func:`check_schedule`."""
    data = json.loads(SCHEDULE_PATH.read_text(encoding="utf-8"))
    problems = check_schedule(data)
    if problems:
        raise ValueError(f"{SCHEDULE_PATH.name} is not a valid cell schedule: {'; '.join(problems)}")
    return data


def cells_of(data: Mapping[str, Any], profile: str) -> list[tuple[int, int, int]]:
    """The (vertices, tort_bin, cross_bin) of every position of ``data`` under ``profile``, before relabelling."""
    v_order, s_order, tort = data["vertex_order"], data["cross_order"], data["tort"][profile]
    return [(v_order[i % len(v_order)], tort[i], s_order[i % len(s_order)]) for i in range(CYCLE)]


def window_least(values: Sequence[Any], count: int) -> int:
    """The fewest distinct values in any ``count`` cyclically consecutive entries of ``values``."""
    n = len(values)
    return min(len({values[(i + j) % n] for j in range(count)}) for i in range(n)) if count > 0 else 0


def check_schedule(data: Mapping[str, Any]) -> list[str]:
    """Every way ``data`` breaks the promises of this module (empty if none): orders that are permutations of
    the vertex counts and crossing bins, reachable cells only, the tortuosity window, every cell per cycle."""
    problems = []
    if data.get("cycle") != CYCLE:
        return [f"cycle is {data.get('cycle')!r}, not {CYCLE}"]
    if sorted(data.get("vertex_order", ())) != sorted(VERTEX_COUNTS):
        problems.append(f"vertex_order is not a permutation of {VERTEX_COUNTS}")
    if sorted(data.get("cross_order", ())) != list(range(N_CROSS_BINS)):
        problems.append(f"cross_order is not a permutation of 0..{N_CROSS_BINS - 1}")
    if problems:
        return problems
    for profile in PROFILES:
        tort = data.get("tort", {}).get(profile)
        if not isinstance(tort, list) or len(tort) != CYCLE:
            problems.append(f"tort[{profile!r}] does not hold {CYCLE} bins")
            continue
        cells = cells_of(data, profile)
        reachable = {(v, t, s) for v in VERTEX_COUNTS for t, s in reachable_cells(v, profile)}
        bad = sorted(set(cells) - reachable)
        if bad:
            problems.append(f"{profile}: cells not reachable: {bad[:5]}")
        missing = sorted(reachable - set(cells))
        if missing:
            problems.append(f"{profile}: cells never visited: {missing[:5]}")
        least = window_least(tort, TORT_WINDOW)
        if least < TORT_WINDOW_LEAST:
            problems.append(f"{profile}: some {TORT_WINDOW} consecutive positions show {least} tortuosity bins")
    return problems


def scheduled_cell(rng: np.random.Generator, position: int, profile: str) -> tuple[int, int, int]:
    """The (vertices, tort_bin, cross_bin) of ``position`` (a source) under ``profile``; ``rng`` (a stream of
    the run's seed, the same for every item) draws the cycle's starting point and the relabelling."""
    offset = int(rng.integers(CYCLE))
    relabel = {}
    for group in vertex_classes(profile):
        relabel.update(zip(group, (group[int(k)] for k in rng.permutation(len(group))), strict=True))
    v, t, s = cells_of(load_schedule(), profile)[(position + offset) % CYCLE]
    return relabel[v], t, s


def least_shown(name: str, count: int, profile: str) -> int:
    """The fewest distinct values of ``name`` (vertices, tort_bin or cross_bin) that any ``count`` consecutive
    items of a default run show (relabelling and the starting point do not change it)."""
    column = {"vertices": 0, "tort_bin": 1, "cross_bin": 2}[name]
    return window_least([c[column] for c in cells_of(load_schedule(), profile)], count)
