"""Time TraversalBench's cell-targeted backbone generator per cell, and (``--tune``) rebuild its recipes.

Timing:  python benchmarks/backbone_cells.py --per-cell 20 [--profile strict|paper|both]
Tuning:  python benchmarks/backbone_cells.py --tune [--proposals 2000]

Tuning draws ``--proposals`` candidates from every (family, knob box) of the grid below, at every vertex
count and for both gate profiles, records which cell each fully accepted candidate lands in, and keeps
for each cell the boxes with the best acceptance rate (weighted by rate). The result is written to the
package's ``backbone_recipes.json`` as plain-sampling recipes; then run
``benchmarks/tune_backbone_recipes.py`` twice, which times the cells, switches slow ones to the repair or
grow modes and marks the cells that stay out of reach under STRICT (``"unreachable"`` plus ``"reason"``).
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "plugins" / "traversal" / "src"))

from bench_plugin_traversal import backbone as bb  # noqa: E402 (after the sys.path tweak)
from bench_plugin_traversal import cells, geometry  # noqa: E402

RECIPES_PATH = ROOT / "plugins" / "traversal" / "src" / "bench_plugin_traversal" / "backbone_recipes.json"
PROFILES = {"strict": geometry.STRICT, "paper": geometry.PAPER}


def knob_grid(vertices: int) -> list[tuple[str, dict]]:
    """The (family, knobs) boxes the tuner tries; every knob is a (lo, hi) range or a fixed value."""
    boxes: list[tuple[str, dict]] = []
    for sd in ((0.1, 0.4), (0.4, 0.8), (0.8, 1.3)):
        for curl in ((0.0, 0.2), (0.3, 0.7), (0.7, 1.1), (1.1, 1.6), (1.6, 2.2)):
            for grow in ((0.0, 0.0), (0.5, 1.5)):
                boxes.append(("walk", {"turn_sd": sd, "curl": curl, "grow": grow}))
    for disp in ((0.0, 0.0), (0.8, 1.5), (1.5, 2.5), (2.5, 4.0), (4.0, 7.0)):
        for amp in ((0.2, 0.6), (0.6, 1.5), (1.5, 3.0)):
            boxes.append(("weave", {"disp": disp, "amp": amp, "alt": 0.5}))
    for q in ((0.04, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 0.36), (0.36, 0.42), (0.42, 0.47), (0.47, 0.5)):
        for shrink in ((0.0, 0.0), (0.3, 0.7)):
            boxes.append(("star", {"q": q, "shrink": shrink, "rad_jit": (0.0, 0.2), "ang_jit": (0.0, 0.1)}))
    for nl in (1, 2, 3, 4):
        if 3 * nl <= vertices - 2:
            boxes.append(("loops", {"loops": nl, "loop_turn": (100.0, 150.0)}))
    for rows in (2, 3, 4):
        boxes.append(("meander", {"rows": rows}))
    for ties in (1, 2, 3, 4, 5):
        for w, h in (((0.5, 0.9), (0.5, 0.9)), ((0.9, 1.4), (0.5, 1.0)), ((0.6, 1.2), (0.9, 1.5))):
            for dx in ((0.8, 1.4), (0.95, 1.1)):
                if 3 * ties <= vertices - 1:
                    boxes.append(("bowtie", {"ties": ties, "w": w, "h": h, "dx": dx}))
    for pb in ((0.1, 0.25), (0.2, 0.35), (0.35, 0.5), (0.5, 0.65)):
        for amp in ((0.3, 0.6), (0.6, 1.0), (1.0, 1.6)):
            for fwd, bwd in (((1.5, 2.5), (0.5, 1.0)), ((2.5, 4.0), (0.8, 1.5)), ((1.2, 1.8), (0.6, 0.9))):
                boxes.append(("rail", {"p_back": pb, "amp": amp, "fwd": fwd, "bwd": bwd}))
    return boxes


def _tune_one(job: tuple[int, str, int, int]) -> tuple[int, str, dict]:
    vertices, prof_name, proposals, seed = job
    profile = PROFILES[prof_name]
    rng = np.random.default_rng(seed)
    hits: dict[str, list] = collections.defaultdict(list)
    for family, knobs in knob_grid(vertices):
        raw = bb.propose(rng, family, proposals, vertices, knobs)
        pts, _idx, tau, cnt = bb.screen_batch(raw, profile)
        counter: collections.Counter = collections.Counter()
        for k in range(len(pts)):
            if not geometry.check_gates(pts[k], profile, fail_fast=True):
                counter[(cells.tortuosity_bin(float(tau[k])), cells.crossing_bin(int(cnt[k])))] += 1
        for (t, s), v in counter.items():
            hits[f"{vertices}:{t}:{s}"].append({"family": family, "knobs": knobs, "rate": v / proposals})
    return vertices, prof_name, hits


def _batch_size(rate: float) -> int:
    """Power of two giving ~2 expected hits per batch, clamped to [32, 512]."""
    return int(min(512, max(32, 2 ** math.ceil(math.log2(2.0 / max(rate, 1e-6))))))


def _recipes_from_hits(hits: dict) -> dict:
    out = {}
    for key, rows in hits.items():
        t, s = (int(x) for x in key.split(":")[1:])
        if (t, s) not in cells.POPULATED_CELLS[int(key.split(":")[0])]:
            continue
        rows = sorted(rows, key=lambda r: -r["rate"])
        best = rows[0]["rate"]
        keep = [r for r in rows if r["rate"] >= best / 4.0][:4]
        total = sum(r["rate"] for r in keep)
        out[key] = [
            {
                "family": r["family"],
                "knobs": r["knobs"],
                "weight": round(r["rate"] / total, 4),
                "rate": round(r["rate"], 6),
                # batch large enough to expect ~2 screened hits, small enough not to waste work
                "batch": _batch_size(total / len(keep)),
            }
            for r in keep
        ]
    return out


def tune(proposals: int, workers: int) -> None:
    jobs = [(v, p, proposals, 1000 * v + i) for i, p in enumerate(PROFILES) for v in cells.VERTEX_COUNTS]
    table: dict = {"strict": {}, "paper": {}}
    with ProcessPoolExecutor(max_workers=workers) as ex:
        for vertices, prof_name, hits in ex.map(_tune_one, jobs):
            table[prof_name].update(_recipes_from_hits(hits))
            print(f"tuned vertices={vertices} profile={prof_name}: {len(hits)} cells hit", flush=True)
    unreachable = sorted(
        [v, t, s]
        for v in cells.VERTEX_COUNTS
        for t, s in cells.POPULATED_CELLS[v]
        if f"{v}:{t}:{s}" not in table["strict"]
    )
    data = {
        "about": "Per-cell proposal recipes for bench_plugin_traversal.backbone; regenerate with "
        "benchmarks/backbone_cells.py --tune. Keys are 'vertices:tort_bin:cross_bin'; rate = measured "
        "fraction of proposals of that box that were accepted in the cell.",
        "proposals_per_box": proposals,
        "max_proposals": 40000,
        "fallback": [
            {"family": "walk", "knobs": {"turn_sd": [0.2, 1.2], "curl": [0.0, 1.6]}, "weight": 0.5, "batch": 256},
            {"family": "star", "knobs": {"q": [0.05, 0.5]}, "weight": 0.5, "batch": 256},
        ],
        "cells": table,
        "unreachable_strict": {
            "why": "no tuned proposal box produced a STRICT-accepted backbone in these cells: with few "
            "vertices the legibility gates (crossing angle >= 25 deg, crossings >= 24 px apart and >= 20 px "
            "from glyphs, vertices >= 21 px from foreign segments) leave no room for that many crossings at "
            "that tortuosity inside the 672 px view. The PAPER profile reaches them.",
            "cells": unreachable,
        },
    }
    RECIPES_PATH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(
        f"wrote {RECIPES_PATH} ({sum(len(v) for v in table.values())} cell entries); "
        f"unreachable under STRICT: {unreachable}"
    )


def bench(per_cell: int, profile_names: list[str], vertices_list: list[int], seed0: int = 0) -> None:
    """Time ``per_cell`` generations in every populated cell under each profile; print a per-cell table."""
    for profile_name in profile_names:
        _bench_profile(per_cell, profile_name, vertices_list, seed0)


def _bench_profile(per_cell: int, profile_name: str, vertices_list: list[int], seed0: int) -> None:
    profile = PROFILES[profile_name]
    rows = []
    print(f"\n== profile {profile_name} ==")
    print("CPU ms of the calling process (time.process_time), so load from other processes does not count;")
    print("'wall' is the wall-clock mean. Modes: sample / repair / growN (grown from N vertices).")
    print(f"{'cell':>10} {'mean ms':>8} {'max ms':>8} {'wall ms':>8} {'attempts':>9} {'fail':>4}  modes")
    for v in vertices_list:
        for t, s in sorted(cells.POPULATED_CELLS[v]):
            unreachable = profile_name == "strict" and (v, t, s) in bb.UNREACHABLE_STRICT
            if unreachable:
                print(f"{v:>3}:t{t}s{s:<2}  skipped (UNREACHABLE_STRICT: {bb.UNREACHABLE_REASONS[(v, t, s)]})")
                continue
            times, walls, attempts, fams, fails = [], [], [], collections.Counter(), 0
            for seed in range(seed0, seed0 + per_cell):
                rng = np.random.default_rng([v, t, s, seed])
                w0, t0 = time.perf_counter(), time.process_time()
                try:
                    b = bb.generate_backbone(rng, v, t, s, profile)
                except bb.CellUnreachable:
                    fails += 1
                    b = None
                times.append(time.process_time() - t0)
                walls.append(time.perf_counter() - w0)
                if b is not None:
                    attempts.append(b.attempts)
                    fams[b.family.split("+")[-1] if "+" in b.family else "sample"] += 1
            mean_ms = 1000 * statistics.fmean(times)
            max_ms = 1000 * max(times)
            wall_ms = 1000 * statistics.fmean(walls)
            share = " ".join(f"{f}:{c / max(1, sum(fams.values())):.0%}" for f, c in fams.most_common(3))
            att = statistics.fmean(attempts) if attempts else float("nan")
            line = f"{v:>3}:t{t}s{s:<2} {mean_ms:8.2f} {max_ms:8.1f} {wall_ms:8.2f} {att:9.0f} {fails:>4}  {share}"
            print(line, flush=True)
            rows.append(((v, t, s), mean_ms, max_ms, fails, times))
    if not rows:
        return
    means = sorted(r[1] for r in rows)
    all_times = sorted(x for r in rows for x in r[4])
    calls = len(all_times)
    slow = sorted(rows, key=lambda r: -r[1])[:8]
    print(
        f"\n[{profile_name}] cells timed: {len(rows)}, calls: {calls}, failures (CellUnreachable): "
        f"{sum(r[3] for r in rows)}"
    )
    print(
        f"[{profile_name}] median cell mean: {statistics.median(means):.2f} ms; "
        f"cells with mean > 40 ms: {sum(m > 40 for m in means)}, > 60 ms: {sum(m > 60 for m in means)}"
    )
    print(
        f"[{profile_name}] per-call p99: {1000 * all_times[int(0.99 * (calls - 1))]:.1f} ms, "
        f"max: {1000 * all_times[-1]:.1f} ms, calls > 82 ms: {sum(x > 0.082 for x in all_times)}"
    )
    print(
        f"[{profile_name}] slowest cells (mean / max ms): " + ", ".join(f"{r[0]} {r[1]:.1f}/{r[2]:.0f}" for r in slow)
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-cell", type=int, default=20, help="backbones timed per cell")
    ap.add_argument("--profile", choices=[*sorted(PROFILES), "both"], default="both")
    ap.add_argument("--seed0", type=int, default=0, help="first seed (vary it to draw fresh calls)")
    ap.add_argument("--vertices", type=int, nargs="*", default=list(cells.VERTEX_COUNTS))
    ap.add_argument("--tune", action="store_true", help="regenerate backbone_recipes.json")
    ap.add_argument("--proposals", type=int, default=2000, help="proposals per knob box when tuning")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    if args.tune:
        tune(args.proposals, args.workers)
    else:
        names = sorted(PROFILES, reverse=True) if args.profile == "both" else [args.profile]
        bench(args.per_cell, names, args.vertices, args.seed0)


if __name__ == "__main__":
    main()
