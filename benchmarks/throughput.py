"""Throughput of item generation, per task and per TraversalBench cell, against the PNG-encode floor.

For every task (and for traversal/path, every populated cell x vertex count) it builds items the way
``bench generate`` does (generate + render + verify + PNG encode, one core) and times the PNG encode of
the same images on its own.  Times are CPU seconds of this single-threaded process (``process_time``), so
the figures mean "items/s on one core" even on a busy machine.  ``--memory N`` also writes N items of
every task to a temporary dataset and
prints the peak resident memory after every tenth of the run, to show it stays flat.

    python benchmarks/throughput.py --per-cell 6
    python benchmarks/throughput.py --skip-cells --memory 10000
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time

from bench_core.dataset import DatasetWriter
from bench_core.generation import build_item, plan
from bench_core.host import default_host
from bench_core.images import encode_png


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def time_items(host, task, settings: dict, count: int, seed: int) -> tuple[float, float]:
    """(items/s for build_item, items/s for the PNG encode alone) over ``count`` items."""
    jobs = plan(task, settings, seed, count)
    built_time = encode_time = 0.0
    for job in jobs:
        start = time.process_time()
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix)
        built_time += time.process_time() - start
        start = time.process_time()
        for image in built.images:
            encode_png(image)
        encode_time += time.process_time() - start
    return len(jobs) / built_time, len(jobs) / encode_time


def cells_report(host, per_cell: int, seed: int) -> None:
    from bench_plugin_traversal.cells import VERTEX_COUNTS
    from bench_plugin_traversal.task_path import reachable_cells

    task = host.task("traversal/path")
    rows = []
    for vertices in VERTEX_COUNTS:
        for t, s in reachable_cells(vertices, "strict"):
            rate, encode_rate = time_items(
                host, task, {"vertices": vertices, "tort_bin": t, "cross_bin": s}, per_cell, seed
            )
            rows.append((vertices, t, s, rate, encode_rate))
            print(f"  traversal/path v={vertices:<2} t{t} s{s}: {rate:7.1f} items/s   encode only {encode_rate:7.1f}/s")
    rates = [r[3] for r in rows]
    encode = statistics.median(r[4] for r in rows)
    slowest = min(rows, key=lambda r: r[3])
    median = statistics.median(rates)
    print(
        f"\ncells: {len(rows)}; median cell {median:.1f} items/s; encode-only median {encode:.1f}/s; "
        f"ratio {median / encode:.2f}"
    )
    print(f"slowest cell v={slowest[0]} t{slowest[1]} s{slowest[2]}: {slowest[3]:.1f} items/s")


def tasks_report(host, selectors: list[str], count: int, seed: int) -> None:
    for task in host.select(selectors):
        for settings in ({},) if task.id != "traversal/path" else ({}, {"confounders": "high"}, {"format": "choice"}):
            rate, encode_rate = time_items(host, task, settings, count, seed)
            label = task.id + (f" {settings}" if settings else "")
            print(f"  {label:<46} {rate:7.1f} items/s   encode only {encode_rate:7.1f}/s")


def memory_report(host, selectors: list[str], count: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        writer = DatasetWriter(out)
        for task in host.select(selectors):
            jobs = plan(task, {}, seed, count)
            start = time.process_time()
            for k, job in enumerate(jobs, 1):
                built = build_item(host, task, job.seed, job.index, job.params, job.suffix)
                writer.write(built.item.to_json(), built.item.images, built.pngs)
                if k % max(1, count // 10) == 0:
                    print(
                        f"  {task.id}: {k:>6} items, {k / (time.process_time() - start):6.1f} items/s, "
                        f"peak RSS {peak_rss_mb():7.1f} MiB"
                    )
        writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-cell", type=int, default=6, help="items per traversal cell")
    parser.add_argument("--per-task", type=int, default=60, help="items per task for the task table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-cells", action="store_true")
    parser.add_argument("--memory", type=int, default=0, metavar="N", help="also write N items per task")
    parser.add_argument("--tasks", nargs="*", default=[], metavar="SELECTOR", help="families or tasks (default: all)")
    args = parser.parse_args()
    host = default_host()
    print("per task (one core):")
    tasks_report(host, args.tasks, args.per_task, args.seed)
    if not args.skip_cells and "traversal/path" in {t.id for t in host.select(args.tasks)}:
        print("\nper traversal/path cell (one core):")
        cells_report(host, args.per_cell, args.seed)
    if args.memory:
        print(f"\nmemory over {args.memory} items per task:")
        memory_report(host, args.tasks, args.memory, args.seed)


if __name__ == "__main__":
    main()
