"""Throughput of the Polaris tasks in pairs: pairs per second per registered task on one core, beside the PNG
encode alone of the same two images (issue 16: every task at least half that rate).

A pair is the Cartesian and the polar item of one logical problem (``--set variant=both``, the default: items
2p and 2p + 1).  Each pair is built the way ``bench generate`` builds its two items -- generate + render + PNG
encode + verify (the record read back, the PNGs decoded, every verifier run) -- through ``build_item`` with
its per-stage CPU timings; the encode-only rate times ``encode_png`` of the same two images.  Times are CPU
seconds of this single-threaded process (``process_time``); every figure is the median of ``--repeat``
repetitions (``throughput.median_run``, reused).  It prints one markdown table:

    | task | pairs/s | encode-only pairs/s | ratio | >= 0.5 | generate ms | render ms | verify ms | encode ms |

(the stage columns per pair: both items).

    python benchmarks/polaris_throughput.py                 # every registered Polaris task, 50 pairs, median of 3
    python benchmarks/polaris_throughput.py --pairs 20 --tasks polaris/knight-paths
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import STAGES, median_run

from bench_core.allocator import keep_freed_memory
from bench_core.errors import BenchError
from bench_core.host import default_host

#: A task passes when its pair rate is at least this share of the encode-only rate (issue 16).
FLOOR = 0.5


def report(host, selectors: list[str], pairs: int, seed: int, repeat: int) -> list[tuple[str, float]]:
    """Print the table row by row; return (task id, ratio) per task."""
    print(f"{pairs} pairs ({2 * pairs} items) per task, median of {repeat}, CPU time on one core\n")
    print("| task | pairs/s | encode-only pairs/s | ratio | >= 0.5 | " + " | ".join(f"{s} ms" for s in STAGES) + " |")
    print("|---|---:|---:|---:|:---:|" + "---:|" * len(STAGES))
    ratios = []
    for task in host.select(selectors):
        try:
            # plan() counts a pair as one: ``pairs`` pairs are 2 * pairs items
            rate, encode_rate, stages = median_run(host, task, {"variant": "both"}, pairs, seed, repeat)
        except BenchError as exc:
            print(f"| {task.id} | failed: {type(exc).__name__}: {str(exc)[:300]} |", flush=True)
            continue
        ratio = rate / encode_rate
        ratios.append((task.id, ratio))
        split = " | ".join(f"{2 * stages[s]:.1f}" for s in STAGES)  # per item -> per pair
        verdict = "yes" if ratio >= FLOOR else "NO"
        print(f"| {task.id} | {rate / 2:.1f} | {encode_rate / 2:.1f} | {ratio:.2f} | {verdict} | {split} |", flush=True)
    return ratios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", nargs="*", default=["polaris"], help="task selectors (default: polaris)")
    parser.add_argument("--pairs", type=int, default=50, help="pairs per task and repetition (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="repetitions; figures are medians (default 3)")
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.repeat < 1:
        parser.error("--pairs and --repeat must be at least 1")
    keep_freed_memory()  # the heap policy `bench generate` runs with (bench_core.allocator)
    ratios = report(default_host(), args.tasks, args.pairs, args.seed, args.repeat)
    slow = [task for task, ratio in ratios if ratio < FLOOR]
    if slow:
        print(f"\nbelow {FLOOR} of the encode-only rate: {', '.join(slow)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
