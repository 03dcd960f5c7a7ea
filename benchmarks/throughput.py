"""Throughput of item generation per task, against the PNG-encode floor, with the per-stage split.

For every task of every installed family (or those ``--tasks`` selects) it builds ``--count`` items the way
``bench generate`` does -- generate + render + PNG encode + verify, the verify including the artefact checks
on the record read back and the PNGs decoded again -- by calling ``build_item`` itself, whose ``timings``
hook adds up the CPU time of each stage (so the stages are timed inside the one code path, not re-enacted).
It then times the PNG encode alone of the same images, two ways (``floors.py`` says why): the PNG the item
writes (the own floor) and the same picture as a plain RGB PNG at Pillow's default settings (the reference
floor issue 2 set, which issue 12's target is measured against).  Times are CPU seconds of this
single-threaded process (``process_time``), so the figures mean "per item on one core" even on a busy
machine.  Every figure is the median of ``--repeat`` (default 3) repetitions.  It prints one markdown table:

    | task | items/s | reference floor/s | ratio | own floor/s | ratio to own | generate ms | render ms |
      verify ms | encode ms |

and then which tasks reach half of each floor.

``--cells N`` adds the rate of every TraversalBench cell x vertex count (N items each); ``--memory N`` also
writes N items of every task to a temporary dataset and prints the peak resident memory after every tenth
of the run, to show it stays flat.

    python benchmarks/throughput.py                       # all tasks, 100 items, median of 3
    python benchmarks/throughput.py --tasks traversal --count 50
    python benchmarks/throughput.py --tasks traversal/path --cells 6 --memory 10000
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time

from floors import encode_seconds

from bench_core.allocator import keep_freed_memory
from bench_core.dataset import DatasetWriter
from bench_core.errors import BenchError
from bench_core.generation import build_item, plan
from bench_core.host import default_host

#: The stages ``build_item`` reports, in the order it runs them but for verify last in the table.
STAGES = ("generate", "render", "verify", "encode")


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def time_items(host, task, settings: dict, count: int, seed: int) -> tuple[float, float, float, dict[str, float]]:
    """One repetition over ``count`` items: (items/s of ``build_item``, items/s of the own PNG encode alone of
    the same images, items/s of their reference encode alone, CPU ms per item of each stage)."""
    jobs = plan(task, settings, seed, count)
    built_time = own_time = reference_time = 0.0
    timings: dict[str, float] = {}
    for job in jobs:
        start = time.process_time()
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, timings=timings)
        built_time += time.process_time() - start
        own, reference = encode_seconds(built.images)
        own_time += own
        reference_time += reference
    stages = {stage: 1000 * timings.get(stage, 0.0) / len(jobs) for stage in STAGES}
    return len(jobs) / built_time, len(jobs) / own_time, len(jobs) / reference_time, stages


def median_run(host, task, settings: dict, count: int, seed: int, repeat: int) -> tuple[float, float, float, dict]:
    """``time_items`` repeated ``repeat`` times; the median of every figure separately."""
    runs = [time_items(host, task, settings, count, seed) for _ in range(repeat)]
    stages = {stage: statistics.median(run[3][stage] for run in runs) for stage in STAGES}
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            statistics.median(r[2] for r in runs), stages)


def cells_report(host, per_cell: int, seed: int) -> None:
    from bench_plugin_traversal.cells import VERTEX_COUNTS
    from bench_plugin_traversal.task_path import reachable_cells

    task = host.task("traversal/path")
    rows = []
    for vertices in VERTEX_COUNTS:
        for t, s in reachable_cells(vertices, "strict"):
            rate, encode_rate, _, _ = time_items(
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


def tasks_report(host, selectors: list[str], count: int, seed: int, repeat: int) -> None:
    """Print the markdown table of every selected task (default settings), flushing row by row, then the tasks
    short of half of each floor."""
    print(f"{count} items per task, median of {repeat}, CPU time on one core\n")
    print("| task | items/s | reference floor/s | ratio | own floor/s | ratio to own | "
          + " | ".join(f"{s} ms" for s in STAGES) + " |")
    print("|---|---:|---:|---:|---:|---:|" + "---:|" * len(STAGES))
    short: dict[str, list[str]] = {"reference": [], "own": []}
    rows = 0
    for task in host.select(selectors):
        try:
            rate, own_rate, reference_rate, stages = median_run(host, task, {}, count, seed, repeat)
        except BenchError as exc:  # a task that cannot build its items gets a row saying so; the others still run
            print(f"| {task.id} | failed: {type(exc).__name__}: {str(exc)[:300]} |", flush=True)
            continue
        rows += 1
        for name, floor in (("reference", reference_rate), ("own", own_rate)):
            if rate < 0.5 * floor:
                short[name].append(task.id)
        split = " | ".join(f"{stages[s]:.1f}" for s in STAGES)
        print(f"| {task.id} | {rate:.1f} | {reference_rate:.1f} | {rate / reference_rate:.2f} | {own_rate:.1f} | "
              f"{rate / own_rate:.2f} | {split} |", flush=True)
    for name, tasks in short.items():
        verdict = "all" if not tasks else f"{rows - len(tasks)} of {rows}; short: {', '.join(tasks)}"
        print(f"\nat least half the {name} floor: {verdict}")


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
    parser.add_argument("--count", type=int, default=100, help="items per task and repetition (default 100)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions; figures are medians (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tasks", nargs="*", default=[], metavar="SELECTOR", help="families or tasks (default: all)")
    parser.add_argument("--cells", type=int, default=0, metavar="N", help="also time every traversal/path cell")
    parser.add_argument("--memory", type=int, default=0, metavar="N", help="also write N items per task")
    args = parser.parse_args()
    if args.count < 1 or args.repeat < 1:
        parser.error("--count and --repeat must be at least 1")
    keep_freed_memory()  # the heap policy `bench generate` runs with (bench_core.allocator)
    host = default_host()
    tasks_report(host, args.tasks, args.count, args.seed, args.repeat)
    if args.cells and "traversal/path" in {t.id for t in host.select(args.tasks)}:
        print("\nper traversal/path cell (one core):")
        cells_report(host, args.cells, args.seed)
    if args.memory:
        print(f"\nmemory over {args.memory} items per task:")
        memory_report(host, args.tasks, args.memory, args.seed)


if __name__ == "__main__":
    main()
