"""Rebuild the cell schedule of ``traversal/path`` (``cell_schedule.json``): the order in which default runs
visit the difficulty cells, so that any run of consecutive items spreads over every categorical parameter.

    python benchmarks/traversal_cell_schedule.py [--seed 0] [--time-limit 300]

Needs scipy (its MILP solver, HiGHS); the plugin itself only reads the JSON it writes.

The schedule is a cycle of 210 positions (5 vertex counts x 6 tortuosity bins x 7 crossing bins).  Position
i takes vertex count ``vertex_order[i % 5]`` and crossing bin ``cross_order[i % 7]``, so any 5 consecutive
items show the 5 vertex counts and any 7 the 7 crossing bins.  The tortuosity bin of each position is solved
for: every cell (vertices, tort_bin, cross_bin) it makes must be reachable under the profile; every 6
consecutive positions (cyclically) show at least 5 tortuosity bins; and each (vertex count, crossing bin)
pair, which recurs every 35 positions, shows each tortuosity bin it allows at least once in its 6
occurrences, so every reachable cell appears in every cycle.  No schedule can show all 6 tortuosity bins in
every 6 items as well: that forces the bins to repeat with period 6, and with crossing bins of period 7 every
(tortuosity, crossing) pair would then occur, unpopulated ones (t0 with 2+ crossings) included.

Vertex counts that allow the same cells are interchangeable, so the plugin relabels them per seed.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import lil_matrix

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "plugins" / "traversal" / "src"))

from bench_plugin_traversal.cells import N_CROSS_BINS, N_TORT_BINS, VERTEX_COUNTS  # noqa: E402
from bench_plugin_traversal.schedule import (  # noqa: E402
    CYCLE,
    SCHEDULE_PATH,
    TORT_WINDOW,
    TORT_WINDOW_LEAST,
    check_schedule,
    reachable_cells,
)


def solve(profile: str, vertex_order: list[int], cross_order: list[int], time_limit: float) -> list[int]:
    """The tortuosity bin of every position, from a feasibility MILP (see the module docstring)."""
    cells = {v: set(reachable_cells(v, profile)) for v in VERTEX_COUNTS}
    domains = [sorted(t for t, s in cells[vertex_order[i % 5]] if s == cross_order[i % 7]) for i in range(CYCLE)]
    var = {(i, t): k for k, (i, t) in enumerate((i, t) for i in range(CYCLE) for t in domains[i])}
    seen = {(w, t): len(var) + w * N_TORT_BINS + t for w in range(CYCLE) for t in range(N_TORT_BINS)}
    rows: list[tuple[dict[int, float], float, float]] = []
    for i in range(CYCLE):  # one bin per position
        rows.append(({var[i, t]: 1.0 for t in domains[i]}, 1.0, 1.0))
    for w in range(CYCLE):  # bin t counts as seen in window w only if some position of w takes it
        for t in range(N_TORT_BINS):
            coefs = {seen[w, t]: 1.0}
            for j in range(TORT_WINDOW):
                if ((w + j) % CYCLE, t) in var:
                    coefs[var[(w + j) % CYCLE, t]] = -1.0
            rows.append((coefs, -np.inf, 0.0))
        rows.append(({seen[w, t]: 1.0 for t in range(N_TORT_BINS)}, float(TORT_WINDOW_LEAST), np.inf))
    occurrences = collections.defaultdict(list)
    for i in range(CYCLE):
        occurrences[vertex_order[i % 5], cross_order[i % 7]].append(i)
    for positions in occurrences.values():  # every reachable cell once per cycle
        for t in domains[positions[0]]:
            rows.append(({var[i, t]: 1.0 for i in positions}, 1.0, np.inf))
    matrix = lil_matrix((len(rows), len(var) + len(seen)))
    for r, (coefs, _, _) in enumerate(rows):
        for c, value in coefs.items():
            matrix[r, c] = value
    n = len(var) + len(seen)
    result = milp(
        c=np.zeros(n), integrality=np.ones(n), bounds=Bounds(0, 1),
        constraints=LinearConstraint(matrix.tocsr(), [r[1] for r in rows], [r[2] for r in rows]),
        options={"time_limit": time_limit},
    )
    if result.x is None:
        raise SystemExit(f"{profile}: no schedule found ({result.message})")
    return [next(t for t in domains[i] if result.x[var[i, t]] > 0.5) for i in range(CYCLE)]


def dump(schedule: dict) -> str:
    """The schedule as JSON with one list per line."""
    lines = [f'  "{key}": {json.dumps(schedule[key])},' for key in ("cycle", "vertex_order", "cross_order")]
    tort = [f'    "{p}": {json.dumps(bins)}' for p, bins in schedule["tort"].items()]
    return "{\n" + "\n".join(lines) + '\n  "tort": {\n' + ",\n".join(tort) + "\n  }\n}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0, help="seed of the vertex and crossing orders")
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds per profile")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    vertex_order = [int(v) for v in rng.permutation(VERTEX_COUNTS)]
    cross_order = [int(s) for s in rng.permutation(N_CROSS_BINS)]
    out = {"cycle": CYCLE, "vertex_order": vertex_order, "cross_order": cross_order, "tort": {}}
    for profile in ("strict", "paper"):
        out["tort"][profile] = solve(profile, vertex_order, cross_order, args.time_limit)
        print(f"{profile}: solved", file=sys.stderr)
    problems = check_schedule(out)
    if problems:
        raise SystemExit("the solved schedule fails its own check: " + "; ".join(problems))
    SCHEDULE_PATH.write_text(dump(out), encoding="utf-8")
    print(f"wrote {SCHEDULE_PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
