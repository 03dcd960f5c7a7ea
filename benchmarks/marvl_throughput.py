"""Throughput of the MaRVL-QA tasks per task and per plot style, on one core, against the PNG-encode floor.

Every item is built the way ``bench generate`` builds it (generate + render + verify + PNG encode) in this
one process; the PNG encode of the same images is also timed on its own.  Rates are given in wall-clock
time and in CPU time of this process (the fairer number on a shared machine).  ``marvl/transformation``
is timed per style with both plots in that style, and once with different styles; ``marvl/counting`` is
timed per style when its description module exists (it is imported lazily and skipped otherwise).

    python benchmarks/marvl_throughput.py --per-style 20
"""

from __future__ import annotations

import os

# one core: keep numerical libraries from starting thread pools
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402 (after pinning the thread count)
import importlib  # noqa: E402
import time  # noqa: E402

from bench_core import hookimpl  # noqa: E402
from bench_core.generation import build_item, plan  # noqa: E402
from bench_core.host import create_host  # noqa: E402
from bench_core.images import encode_png  # noqa: E402

TASK_MODULES = ("transformation", "counting")


def load_tasks() -> list:
    """The MaRVL task descriptions that exist (a missing module is reported and skipped)."""
    tasks = []
    for name in TASK_MODULES:
        try:
            tasks.append(importlib.import_module(f"bench_plugin_marvl.descriptions.{name}").TASK)
        except ImportError as exc:
            print(f"  marvl/{name}: skipped ({exc})")
    return tasks


def private_host(tasks: list):
    """A host that knows exactly these tasks, whether or not the plugin registers them yet."""

    class _Plugin:
        @hookimpl
        def bench_register_tasks(self):
            return list(tasks)

    return create_host(entry_points=False, plugins=[("marvl-throughput", _Plugin())])


def time_items(host, task, settings: dict, count: int, seed: int) -> dict[str, float]:
    """Items/s (wall and CPU) for build_item, and for the PNG encode alone, over ``count`` items."""
    jobs = plan(task, settings, seed, count)
    wall = cpu = encode_wall = encode_cpu = 0.0
    for job in jobs:
        w, c = time.perf_counter(), time.process_time()
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix)
        wall += time.perf_counter() - w
        cpu += time.process_time() - c
        w, c = time.perf_counter(), time.process_time()
        for image in built.images:
            encode_png(image)
        encode_wall += time.perf_counter() - w
        encode_cpu += time.process_time() - c
    n = len(jobs)
    return {"wall": n / wall, "cpu": n / cpu, "encode_wall": n / encode_wall, "encode_cpu": n / encode_cpu}


def style_settings(task) -> list[tuple[str, dict]]:
    """(label, settings) rows for ``task``: one per style, plus a different-style row for pairs."""
    names = {p.name for p in task.parameters}
    if {"style_a", "style_b"} <= names:
        styles = task.parameter("style_a").choices
        rows = [(style, {"style_a": style, "style_b": style}) for style in styles]
        return [*rows, ("different styles", {"pairing": "different"})]
    for parameter in task.parameters:
        if parameter.name == "style" and parameter.choices:
            return [(style, {"style": style}) for style in parameter.choices]
    return [("default", {})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-style", type=int, default=20, help="items per task and style")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    tasks = load_tasks()
    host = private_host(tasks)
    # warm-up: imports, font cache and the first figure are not per-item costs
    for task in tasks:
        time_items(host, task, {}, 1, args.seed + 1)
    print(
        f"per task and style, {args.per_style} items each, one core (items/s; wall clock and CPU time of this process):"
    )
    for task in tasks:
        slowest = None
        for label, settings in style_settings(task):
            rates = time_items(host, task, settings, args.per_style, args.seed)
            print(
                f"  {task.id:<22} {label:<26} {rates['wall']:6.1f} wall {rates['cpu']:6.1f} cpu   "
                f"PNG encode only {rates['encode_wall']:6.1f} wall {rates['encode_cpu']:6.1f} cpu"
            )
            if slowest is None or rates["cpu"] < slowest[1]:
                slowest = (label, rates["cpu"])
        overall = time_items(host, task, {}, args.per_style, args.seed + 2)
        print(f"  {task.id:<22} {'(default settings)':<26} {overall['wall']:6.1f} wall {overall['cpu']:6.1f} cpu")
        if slowest is not None:
            print(f"  {task.id}: slowest style {slowest[0]} at {slowest[1]:.1f} items/s (CPU)\n")


if __name__ == "__main__":
    main()
