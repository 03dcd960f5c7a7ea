"""Choose, per cell and gate profile, how TraversalBench's backbone generator fills the cell (by timing it).

    python benchmarks/tune_backbone_recipes.py [--seeds 8] [--workers 2] [--profiles strict paper]

Starts from the proposal boxes already in ``backbone_recipes.json`` (written by
``benchmarks/backbone_cells.py --tune``) and, for every populated (vertices, tort_bin, cross_bin) cell:

1. times the cell's current recipe on ``--seeds`` seeds;
2. if that is not clearly fast (mean above ``--fast-ms`` or any failure), times ``mode: repair`` (a small
   batch, then the near-miss repair of ``backbone.repair``) with each candidate box: the cell's own boxes
   and the generic ones of :data:`REPAIR_BOXES`; then ``mode: grow`` (a backbone of the same cell at
   fewer vertices, made by that cell's current recipe, grown by ``backbone.grow``), so run the tuner
   twice: the second pass grows from the first pass's recipes;
3. keeps the fastest recipe. Under STRICT a cell whose best recipe averages more than ``--limit-ms`` or
   fails on any seed is marked ``"unreachable": true`` with a ``"reason"``; the generator then lists it in
   ``UNREACHABLE_STRICT``.

``--verify N`` re-times the chosen recipe of every cell slower than 15 ms on N fresh seeds (tuning on a
few seeds picks lucky winners) and also marks STRICT cells whose calls exceed the per-item generation
budget (``--tail-ms``) more than ``--tail-share`` of the time. Full procedure after a grid re-tune:
``tune_backbone_recipes.py; tune_backbone_recipes.py --only-slow 15 --seeds 16; ... --verify 40``.

Timings are the CPU time of the worker process (``time.process_time``), so other load on the machine
does not skew the choice. Check the result with ``python benchmarks/backbone_cells.py``.
"""

from __future__ import annotations

import argparse
import json
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

#: Generic starting boxes for repair mode (each candidate draws its knobs inside the ranges).
REPAIR_BOXES: list[tuple[str, dict]] = [
    ("walk", {"turn_sd": [0.2, 1.0], "curl": [0.0, 1.2]}),
    ("walk", {"turn_sd": [0.3, 1.0], "curl": [0.8, 1.8]}),
    ("walk", {"turn_sd": [0.1, 0.5], "curl": [0.0, 0.4]}),
    ("rail", {"p_back": [0.3, 0.5], "fwd": [1.5, 3.0], "bwd": [0.6, 1.2], "amp": [0.6, 1.2]}),
    ("rail", {"p_back": [0.4, 0.6], "fwd": [1.5, 3.0], "bwd": [0.6, 1.2], "amp": [0.6, 1.2]}),
    ("star", {"q": [0.2, 0.35], "shrink": [0.0, 0.5]}),
    ("weave", {"disp": [1.5, 4.0], "amp": [0.3, 1.5], "alt": 0.5}),
]
#: (initial batch, repair generations) pairs tried for each repair box.
REPAIR_VARIANTS = ((64, 40), (128, 40), (64, 120))
#: Budget (evaluated candidates) while timing; the shipped default is the table's max_proposals.
TUNE_BUDGET = 20000
NOT_REACHED = (
    f"not reached: no recipe tried (sampling, repair from {len(REPAIR_BOXES)}+ proposal boxes, grow from fewer "
    f"vertices; budget {TUNE_BUDGET} candidates per backbone) produced a STRICT-accepted backbone; the "
    "legibility gates (crossings >= 24 px apart and >= 20 px from vertices, angles >= 25 deg, vertices >= 21 px "
    "from foreign segments) leave too little room for 9-12 crossings at tortuosity < 2 (PAPER reaches it)"
)


def _time_recipe(v: int, t: int, s: int, profile, recipe: dict, seeds: int, give_up_ms: float):
    """Mean and max ms and failures of ``seeds`` generations; stops early once the total passes give_up_ms."""
    times, fails = [], 0
    for seed in range(seeds):
        rng = np.random.default_rng([v, t, s, seed, 9001])
        t0 = time.process_time()
        try:
            bb.generate_with_recipe(rng, v, t, s, profile, recipe, TUNE_BUDGET)
        except bb.CellUnreachable:
            fails += 1
        times.append(1000 * (time.process_time() - t0))
        if sum(times) > give_up_ms:
            return statistics.fmean(times), max(times), fails, False
    return statistics.fmean(times), max(times), fails, True


def _candidates(v: int, old: dict | list | None):
    """Recipes to try for a cell, the current one first: repair from each box, then grow from fewer vertices."""
    old_rec = bb._as_recipe(old) if old else None
    if old_rec and (old_rec.get("entries") or old_rec.get("mode") == "grow"):
        yield {k: old_rec[k] for k in ("mode", "entries", "repair", "from", "repair_gens") if k in old_rec}
    boxes = [(e["family"], e["knobs"]) for e in (old_rec or {}).get("entries", [])] + REPAIR_BOXES
    seen = set()
    for family, knobs in boxes:
        sig = json.dumps([family, knobs], sort_keys=True)
        if sig in seen:
            continue
        seen.add(sig)
        for batch, gens in REPAIR_VARIANTS:
            entry = {"family": family, "knobs": knobs, "weight": 1.0, "batch": batch}
            yield {"mode": "repair", "entries": [entry], "repair": {**bb._REPAIR_DEFAULTS, "gens": gens}}
    for base_v in cells.VERTEX_COUNTS:
        if base_v < v:
            for gens in (0, 20):
                yield {"mode": "grow", "from": base_v, "repair_gens": gens}


def _tune_cell(job):
    v, t, s, prof_name, old, seeds, fast_ms, limit_ms = job
    profile = PROFILES[prof_name]
    best = None  # (mean, max, fails, recipe)
    for n, rec in enumerate(_candidates(v, old)):
        if n == 0:
            cap = 40 * seeds * limit_ms
        else:
            cap = seeds * min(best[0] if best and best[0] < float("inf") else 1e9, 4 * limit_ms) * 1.5
        mean, mx, fails, done = _time_recipe(v, t, s, profile, rec, seeds, cap)
        if n == 0:
            best = (mean if not fails else float("inf"), mx, fails, rec, mean)
            if mean <= fast_ms and not fails:
                break
        elif done and not fails and mean < best[0]:
            best = (mean, mx, fails, rec, mean)
    if best is None:
        best = (float("inf"), float("nan"), seeds, {"mode": "sample", "entries": []}, float("nan"))
    return v, t, s, prof_name, best


def _is_slow(entry, limit_ms: float) -> bool:
    if not isinstance(entry, dict):
        return True
    return bool(entry.get("unreachable")) or (entry.get("mean_ms") or 0.0) > limit_ms


def _verify_cell(job):
    v, t, s, prof_name, rec, calls = job
    profile = PROFILES[prof_name]
    times, fails = [], 0
    for seed in range(calls):
        rng = np.random.default_rng([v, t, s, seed, 4242])
        t0 = time.process_time()
        try:
            bb.generate_with_recipe(rng, v, t, s, profile, rec, int(bb.load_recipes().get("max_proposals", 40000)))
        except bb.CellUnreachable:
            fails += 1
        times.append(1000 * (time.process_time() - t0))
    return v, t, s, prof_name, times, fails


def verify(table: dict, calls: int, workers: int, slow_ms: float, limit_ms: float, tail_ms: float, tail_share: float):
    """Re-time the current recipe of every cell slower than ``slow_ms`` on ``calls`` fresh seeds.

    A STRICT cell whose mean exceeds ``limit_ms``, or whose calls exceed ``tail_ms`` (the per-item
    generation budget) more than ``tail_share`` of the time, or that fails, is marked unreachable.
    """
    jobs = []
    for prof_name, by_key in table["cells"].items():
        for key, entry in by_key.items():
            if isinstance(entry, dict) and not entry.get("unreachable") and (entry.get("mean_ms") or 0) > slow_ms:
                v, t, s = (int(x) for x in key.split(":"))
                rec = {k: entry[k] for k in ("mode", "entries", "repair", "from", "repair_gens") if k in entry}
                jobs.append((v, t, s, prof_name, rec, calls))
    with ProcessPoolExecutor(max_workers=workers) as ex:
        for v, t, s, prof_name, times, fails in ex.map(_verify_cell, jobs):
            entry = table["cells"][prof_name][f"{v}:{t}:{s}"]
            mean = statistics.fmean(times)
            share = sum(x > tail_ms for x in times) / len(times)
            entry.update(
                mean_ms=round(mean, 2),
                max_ms=round(max(times), 1),
                over_budget_share=round(share, 3),
                verified_calls=len(times),
            )
            bad = fails or mean > limit_ms or share > tail_share
            if prof_name == "strict" and bad:
                entry["unreachable"] = True
                entry["reason"] = (
                    f"slow: the best recipe found ({entry['mode']}) averages {mean:.0f} ms per backbone under STRICT "
                    f"(limit {limit_ms:.0f} ms) and {share:.0%} of {len(times)} calls take over {tail_ms:.0f} ms "
                    f"(allowed {tail_share:.0%}); {fails} failures"
                )
            flag = " UNREACHABLE" if prof_name == "strict" and bad else ""
            print(
                f"verify {prof_name:6} {v}:{t}:{s} mean {mean:6.1f} ms max {max(times):6.1f} over {share:.0%}{flag}",
                flush=True,
            )


def _write(table: dict) -> None:
    strict = table["cells"].get("strict", {})
    unreachable = sorted(
        [int(x) for x in k.split(":")] for k, e in strict.items() if isinstance(e, dict) and e.get("unreachable")
    )
    table["unreachable_strict"] = {
        "why": "summary only (the generator reads the per-cell 'unreachable' flags and 'reason's): cells whose "
        "fastest recipe under STRICT is too slow for the 10 items/s budget or never accepted; they work under "
        "PAPER.",
        "cells": unreachable,
    }
    RECIPES_PATH.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RECIPES_PATH}; unreachable under STRICT: {unreachable}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profiles", nargs="*", default=list(PROFILES))
    ap.add_argument("--vertices", type=int, nargs="*", default=list(cells.VERTEX_COUNTS))
    ap.add_argument("--fast-ms", type=float, default=10.0, help="sampling this fast is kept without trying repair")
    ap.add_argument("--limit-ms", type=float, default=45.0, help="STRICT cells slower than this are unreachable")
    ap.add_argument("--only-slow", type=float, default=None, help="re-tune only cells whose mean_ms exceeds this")
    ap.add_argument("--verify", type=int, default=0, help="only re-time slow cells' recipes on this many calls")
    ap.add_argument("--tail-ms", type=float, default=82.0, help="per-item generation budget (verify)")
    ap.add_argument("--tail-share", type=float, default=0.05, help="allowed share of calls over --tail-ms (verify)")
    args = ap.parse_args(argv)
    table = json.loads(RECIPES_PATH.read_text(encoding="utf-8"))
    if args.verify:
        verify(table, args.verify, args.workers, 15.0, args.limit_ms, args.tail_ms, args.tail_share)
        _write(table)
        return
    jobs = []
    for prof_name in args.profiles:
        for v in args.vertices:
            for t, s in sorted(cells.POPULATED_CELLS[v]):
                key = f"{v}:{t}:{s}"
                old = table["cells"].get(prof_name, {}).get(key)
                if args.only_slow is not None and not _is_slow(old, args.only_slow):
                    continue
                if not old:  # borrow the other profile's boxes as a starting point
                    other = "paper" if prof_name == "strict" else "strict"
                    old = table["cells"].get(other, {}).get(key)
                jobs.append((v, t, s, prof_name, old, args.seeds, args.fast_ms, args.limit_ms))
    # slowest-looking jobs first, so the pool stays busy at the end
    with ProcessPoolExecutor(max_workers=args.workers) as ex:
        for v, t, s, prof_name, (score, mx, fails, rec, mean) in ex.map(_tune_cell, jobs):
            key = f"{v}:{t}:{s}"
            out = dict(rec)
            out["mean_ms"] = round(mean, 2) if mean == mean else None
            out["max_ms"] = round(mx, 1) if mx == mx else None
            if prof_name == "strict" and (fails or not score <= args.limit_ms):
                out["unreachable"] = True
                if fails < args.seeds and (rec.get("entries") or rec.get("mode") == "grow"):
                    out["reason"] = (
                        f"slow: the fastest recipe tried ({rec['mode']}) took {mean:.0f} ms mean per backbone "
                        f"(limit {args.limit_ms:.0f} ms) with {fails}/{args.seeds} failures under STRICT"
                    )
                else:
                    out["reason"] = NOT_REACHED
            table["cells"].setdefault(prof_name, {})[key] = out
            flag = " UNREACHABLE" if out.get("unreachable") else ""
            print(
                f"{prof_name:6} {key:8} {rec['mode']:6} mean {mean:7.1f} ms max {mx:7.1f} fails {fails}{flag}",
                flush=True,
            )
    _write(table)


if __name__ == "__main__":
    main()
