"""Rebuild the cell schedule of ``traversal/path`` (``cell_schedule.json``): the order in which default runs
visit the reachable cells, every cell once per cycle, so that any run of consecutive items spreads over
every categorical parameter.

    python benchmarks/traversal_cell_schedule.py [--polish 300]

Needs scipy (its MILP solver, HiGHS); the plugin itself only reads the JSON it writes, and checks it on load.

Construction.  Under ``paper`` every vertex count has 33 cells: 32 shared by all five, plus t5 s6 at 9, 11
and 13 vertices and t1 s5 at 15 and 17 instead.  Position i of the 165-item cycle takes vertex count
``VERTEX_ORDER[i % 5]`` and slot ``i % 33`` of a 33-slot order whose slot 0 is that vertex count's own extra
cell and whose slots 1-32 hold the 32 shared cells.  As 5 and 33 are coprime, each (vertex count, slot) pair
occurs exactly once in 165 items: every cell once at every vertex count, the published mix, and the vertex
counts repeat every 5 items.  ``strict`` cannot reach t1 s5, so its 15- and 17-vertex items skip slot 0:
163 items, every strict cell once, and vertex counts that cannot repeat every 5 items (9, 11 and 13 have
one cell more than 15 and 17).

For each profile a MILP orders the 32 shared cells so that the tortuosity and crossing bins keep
``schedule.PROMISES`` whichever way slot 0 is filled (or skipped).  That reaches, for runs of up to 6
tortuosity bins and 7 crossing bins, the most that any order of the mix allows (see
``test_schedule.py``), and any 17 items show every tortuosity bin, the fewest that t0's 10 cells allow.  Any
33 items (32 under strict) show every crossing bin: s6 sits in the t4 s6 slot and, at 9-13 vertices only, in
slot 0, which leaves gaps of 32 items; orders that break the construction could do better (8 s6 cells fit
every 21 items) but were not found (HiGHS ran 20 minutes and OR-tools CP-SAT 10 on the whole cycle).
``--polish`` then spends that many seconds per profile (HiGHS stops at the limit, so the result may differ
between machines) on fewer repeats within 5 items (tortuosity) and 6 (crossings) than the promises allow,
keeping the first order found if it finds none in that time.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "plugins" / "traversal" / "src"))

from bench_plugin_traversal.cells import N_CROSS_BINS, N_TORT_BINS  # noqa: E402
from bench_plugin_traversal.schedule import (  # noqa: E402
    PROMISES,
    SCHEDULE_PATH,
    check_schedule,
    reachable_cells,
    reachable_triples,
    vertex_classes,
)

#: The vertex count of position i is VERTEX_ORDER[i % 5] (runs relabel interchangeable counts per seed).
VERTEX_ORDER = (9, 11, 13, 15, 17)
#: Columns of a (tort_bin, cross_bin) cell the MILP orders, with their number of values.
BIN_COLUMNS = {"tort_bin": (0, N_TORT_BINS), "cross_bin": (1, N_CROSS_BINS)}


class Model:
    """Rows of a 0/1 MILP over ``x[slot, cell]`` (one of the shared cells in each of slots 1..32), plus helper
    variables; a constant 1 is the variable ``one``."""

    def __init__(self, shared: list[tuple[int, int]]):
        self.shared = shared
        self.slots = len(shared) + 1
        self.x = {(j, c): k for k, (j, c) in enumerate((j, c) for j in range(1, self.slots) for c in shared)}
        self.count = len(self.x)
        self.one = self.new()
        self.rows: list[tuple[dict[int, float], float, float]] = [({self.one: 1.0}, 1.0, 1.0)]
        self.objective: dict[int, float] = {}
        for j in range(1, self.slots):
            self.rows.append(({self.x[j, c]: 1.0 for c in shared}, 1.0, 1.0))
        for c in shared:
            self.rows.append(({self.x[j, c]: 1.0 for j in range(1, self.slots)}, 1.0, 1.0))

    def new(self) -> int:
        """A fresh helper variable."""
        self.count += 1
        return self.count - 1

    def holds(self, slot: int, extra: tuple[int, int] | None, column: int, value: int) -> list[int]:
        """Variables that are 1 when ``slot`` (slot 0 holding ``extra``) has ``value`` in ``column``."""
        if slot == 0:
            return [self.one] if extra is not None and extra[column] == value else []
        return [self.x[slot, c] for c in self.shared if c[column] == value]

    def promise(self, order: list[int], extra: tuple[int, int] | None, profile: str, name: str, soft: bool
                ) -> None:
        """Rows that make the cyclic slot sequence ``order`` (slot 0 holding ``extra``) keep
        ``PROMISES[profile][name]``; with ``soft``, objective terms that count the repeats within ``run + 1``
        slots."""
        column, choices = BIN_COLUMNS[name]
        run, window, least, cover = PROMISES[profile][name]
        n = len(order)

        def inside(start: int, length: int, value: int) -> dict[int, float]:
            coefs: dict[int, float] = {}
            for j in range(length):
                for var in self.holds(order[(start + j) % n], extra, column, value):
                    coefs[var] = coefs.get(var, 0.0) + 1.0
            return coefs

        for start in range(n):
            present = []
            for value in range(choices):
                self.rows.append((inside(start, run, value), -math.inf, 1.0))  # no repeat within run
                coefs = inside(start, window, value)
                flag = self.new()  # flag = 1 only if value occurs in the window
                self.rows.append(({**coefs, flag: -1.0}, 0.0, math.inf))
                present.append(flag)
                if cover < n:
                    self.rows.append((inside(start, cover, value), 1.0, math.inf))
                if soft:
                    repeat = self.new()  # repeat >= occurrences in run + 1 slots - 1
                    self.rows.append(({**inside(start, run + 1, value), repeat: -1.0}, -math.inf, 1.0))
                    self.objective[repeat] = 1.0
            self.rows.append(({flag: 1.0 for flag in present}, float(least), math.inf))

    def solve(self, time_limit: float | None) -> list[tuple[int, int]] | None:
        """The shared cells in slot order 1..32, or None if HiGHS found no order (infeasible or out of time)."""
        r, c, d = [], [], []
        for k, (coefs, _, _) in enumerate(self.rows):
            for var, value in coefs.items():
                r.append(k)
                c.append(var)
                d.append(value)
        matrix = coo_matrix((d, (r, c)), shape=(len(self.rows), self.count)).tocsr()
        cost = np.zeros(self.count)
        for var, weight in self.objective.items():
            cost[var] = weight
        options = {} if time_limit is None else {"time_limit": time_limit}
        bounds = LinearConstraint(matrix, [row[1] for row in self.rows], [row[2] for row in self.rows])
        result = milp(c=cost, integrality=np.ones(self.count), bounds=Bounds(0, 1), constraints=bounds, options=options)
        if result.x is None:
            return None
        return [next(c for c in self.shared if result.x[self.x[j, c]] > 0.5) for j in range(1, self.slots)]


def extras() -> tuple[list[tuple[int, int]], dict[int, tuple[int, int]]]:
    """The cells every vertex count has under ``paper`` and the one extra cell of each vertex count."""
    cells = {v: set(reachable_cells(v, "paper")) for v in VERTEX_ORDER}
    shared = sorted(set.intersection(*cells.values()))
    extra = {}
    for v in VERTEX_ORDER:
        (extra[v],) = cells[v] - set(shared)  # exactly one each: the construction depends on it
    return shared, extra


def order_slots(profile: str, polish: float) -> list[tuple[int, int]]:
    """The shared cells of slots 1..32 under ``profile`` (see the module docstring): the first order HiGHS
    finds, or with ``polish`` seconds the best it finds in that time with fewer repeats, if it finds one."""
    shared, extra = extras()
    reachable = set(reachable_triples(profile))
    fillings = {cell if (v, *cell) in reachable else None for v, cell in extra.items()}  # None: slot 0 skipped

    def model(soft: bool) -> Model:
        built = Model(shared)
        for name in BIN_COLUMNS:
            for cell in sorted(fillings, key=lambda c: (c is None, c)):
                order = list(range(built.slots)) if cell is not None else list(range(1, built.slots))
                built.promise(order, cell, profile, name, soft)
        return built

    order = model(soft=False).solve(None)
    if order is None:
        raise SystemExit(f"{profile}: no slot order keeps the promises")
    if polish > 0:
        polished = model(soft=True).solve(polish)
        if polished is None:
            print(f"{profile}: no order found within {polish:g} s of polishing; keeping the first", file=sys.stderr)
        order = polished or order
    return order


def expand(order: list[tuple[int, int]], profile: str) -> list[tuple[int, int, int]]:
    """The cycle of ``profile``: position i takes VERTEX_ORDER[i % 5] and slot i % 33, slot 0 being the vertex
    count's extra cell, which is left out where ``profile`` cannot reach it."""
    extra = extras()[1]
    slots = len(order) + 1
    if math.gcd(slots, len(VERTEX_ORDER)) != 1:
        raise SystemExit(f"{slots} slots and {len(VERTEX_ORDER)} vertex counts are not coprime")
    reachable = set(reachable_triples(profile))
    cycle = []
    for i in range(slots * len(VERTEX_ORDER)):
        v, j = VERTEX_ORDER[i % len(VERTEX_ORDER)], i % slots
        cell = (v, *(extra[v] if j == 0 else order[j - 1]))
        if cell in reachable:
            cycle.append(cell)
    return cycle


def dump(cycles: dict[str, list[tuple[int, int, int]]], per_line: int = 11) -> str:
    """The cycles as JSON, ``per_line`` cells a line."""
    parts = []
    for profile, cycle in cycles.items():
        lines = [", ".join(json.dumps(list(c)) for c in cycle[k:k + per_line]) for k in range(0, len(cycle), per_line)]
        parts.append(f'  "{profile}": [\n    ' + ",\n    ".join(lines) + "\n  ]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--polish", type=float, default=0.0,
                    help="seconds spent on fewer repeats than the promises allow (0: the first order found)")
    args = ap.parse_args(argv)
    cycles = {}
    for profile in ("strict", "paper"):
        cycles[profile] = expand(order_slots(profile, args.polish), profile)
        print(f"{profile}: ordered", file=sys.stderr)
    problems = check_schedule({p: [list(c) for c in cycle] for p, cycle in cycles.items()})
    if problems:
        raise SystemExit("the built schedule fails its own check: " + "; ".join(problems))
    assert vertex_classes("strict") == vertex_classes("paper")
    SCHEDULE_PATH.write_text(dump(cycles), encoding="utf-8")
    print(f"wrote {SCHEDULE_PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
