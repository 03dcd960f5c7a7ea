"""The in-process stream (``bench_core.stream``, PNG encoding off) against the CLI's one-worker rate.

Runs ``bench generate TASK --count N --workers 1`` into a temporary folder (a subprocess: start-up, plugin
loading, generation, PNG encoding, verification of the decoded PNGs, writing files and the manifest), then
draws ITEMS items of the same task from ``stream(TASK, encode_png=False)`` in this process (generation and
verification on the rendered images, no files), and prints both rates.  Wall-clock and CPU seconds are both
given: on a busy machine CPU seconds of the one process are the fairer figure for the stream, while the CLI's
CPU time is that of its child process.

    python benchmarks/stream_throughput.py --task traversal/path --items 1000 --cli-items 300
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_rate(task: str, count: int, seed: int) -> tuple[float, float]:
    """(items per wall second, items per CPU second) of ``bench generate`` with one worker."""
    with tempfile.TemporaryDirectory() as out:
        cpu, wall = child_cpu(), time.perf_counter()
        subprocess.run([sys.executable, "-m", "bench_core.cli", "generate", task, "--count", str(count), "--seed",
                        str(seed), "--workers", "1", "--out", out], check=True, capture_output=True)
        wall, cpu = time.perf_counter() - wall, child_cpu() - cpu
    return count / wall, count / cpu


def stream_rate(task: str, count: int, seed: int) -> tuple[float, float]:
    """(items per wall second, items per CPU second) of ``stream`` with PNG encoding off, start-up included."""
    wall, cpu = time.perf_counter(), time.process_time()
    from bench_core import stream

    made = sum(1 for _ in stream(task, seed=seed, count=count, encode_png=False))
    assert made == count
    return count / (time.perf_counter() - wall), count / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="traversal/path")
    parser.add_argument("--items", type=int, default=1000, help="items drawn from the stream")
    parser.add_argument("--cli-items", type=int, default=300, help="items the CLI writes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cli_wall, cli_cpu = cli_rate(args.task, args.cli_items, args.seed)
    print(f"bench generate {args.task} --workers 1: {args.cli_items} items, {cli_wall:.2f} items/s wall, "
          f"{cli_cpu:.2f} items/CPU-s", flush=True)
    wall, cpu = stream_rate(args.task, args.items, args.seed)
    print(f"stream({args.task!r}, encode_png=False): {args.items} items, {wall:.2f} items/s wall, "
          f"{cpu:.2f} items/CPU-s")
    print(f"stream / CLI: {wall / cli_wall:.2f}x wall, {cpu / cli_cpu:.2f}x CPU")


if __name__ == "__main__":
    main()
