"""SPHINX side by side: our generator against the authors' (``sphinx-vpr`` 0.1.0), task by task, on one core.

For every registered SPHINX task (or those ``--tasks`` selects) it times, in the same run and pinned to the
same CPU, ``--count`` items of ours the way ``bench generate`` builds them (generate + render + PNG encode +
verify, ``build_item``), the PNG encode alone of the same images (our two floors, ``floors.py``), and
``--count`` items of the authors' task of the same paper task (``generate_instance`` + PNG save) in a child
process running the authors' package from its own virtual environment (``--peer-python``;
../shared/peers/README.md says how to make it).  All times are CPU seconds of the process doing the work
(``process_time``); every figure is the median of ``--repeat`` repetitions, ours and theirs alternating.  It
prints one markdown table:

    | task | authors' task | ours items/s | authors' items/s | ours/authors | reference floor/s | ratio |
      own floor/s | ratio to own |

then the medians over the tasks, the equal mix (one item of every task in turn: the tasks' count over the sum of
their seconds per item), and the issue's targets (every task at least as fast as the authors' and at least half
its encode-only rate, judged on the reference floor, the own floor's verdict printed beside it; our median at
least 5 times the authors' median; our equal mix of all 25 tasks at least 35 items/s), each marked met or not.
A task registered later is picked up by itself; it needs a line in ``AUTHORS_TASKS`` (our id -> their name).

    python3 benchmarks/sphinx_side_by_side.py --peer-python /tmp/sphinx-peer/bin/python
    python3 benchmarks/sphinx_side_by_side.py --tasks sphinx/pie-chart --count 100 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from floors import encode_seconds

from bench_core.allocator import MMAP_THRESHOLD, TRIM_THRESHOLD, keep_freed_memory
from bench_core.errors import BenchError
from bench_core.generation import build_item, plan
from bench_core.host import default_host

#: Our task id -> the authors' registry name of the same paper task (spec 3.0), all 25 tasks.
AUTHORS_TASKS: dict[str, str] = {
    "sphinx/positional-count": "geometric_position",
    "sphinx/shape-sorting": "geometric_sort",
    "sphinx/stack-count": "geometric_stack_count",
    "sphinx/pie-chart": "charts_pie",
    "sphinx/chart-comparison": "charts_match_proportions",
    "sphinx/venn-diagram": "rect_venn",
    "sphinx/shape-counting": "shape_count",
    "sphinx/tiles-line-length": "tiles_line_length",
    "sphinx/tiles-line-intersections": "tiles_line_intersections",
    "sphinx/tiles-recoloring": "tiles_recoloring",
    "sphinx/mirror-identification": "symmetry_scene_mirror_identify",
    "sphinx/symmetry-fill": "symmetry_grid_mirror_fill",
    "sphinx/frieze-groups": "symmetry_frieze_groups",
    "sphinx/wallpaper-groups": "symmetry_wallpaper_groups",
    "sphinx/transform-result-identify": "transform_result_identify",
    "sphinx/transform-pair-infer": "transform_pair_infer",
    "sphinx/transform-similarity-identify": "transform_similarity_identify",
    "sphinx/sequence-rotation": "sequence_rotation",
    "sphinx/sequence-arithmetic": "sequence_arithmetic",
    "sphinx/multi-column-arithmetic": "sequence_multi_column_arithmetic",
    "sphinx/tiles-geometry": "tiles_geometry",
    "sphinx/tiles-connected-component": "tiles_connected_component",
    "sphinx/tiles-shortest-path": "tiles_shortest_path",
    "sphinx/missing-tiles": "tiles_missing_tiles",
    "sphinx/tiles-composition": "tiles_decompose_compose",
}

#: The child's program: time ``count`` items of one authors' task on this core and print the rate as JSON.
#: Retries follow the authors' own CLI (its fast mode: one retry per seed, up to 64 seeds, for the one task
#: whose default retry loop can run for minutes); a seed that fails costs its time and yields no item.
PEER_PROGRAM = r"""
import io, json, random, sys, time
from sphinx.registry import build_motif_registry, build_task_registry
name, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
task, motifs = build_task_registry()[name], build_motif_registry()
attempts = 1
if name == "sequence_arithmetic" and getattr(task, "max_retries", None) is not None:
    task.max_retries, attempts = 1, 64

def one(base):
    for k in range(attempts):
        try:
            image = task.generate_instance(motifs, random.Random(base + 7919 * k))[0]
        except RuntimeError:
            continue
        if image is not None:
            image.save(io.BytesIO(), format="PNG")
            return True
    return False

one(10**9)  # warm-up: imports and caches
start = time.process_time()
made = sum(one(seed + i) for i in range(count))
print(json.dumps({"items": made, "seconds": time.process_time() - start}))
"""

#: The issue's targets.
MIN_RATIO_AUTHORS, MIN_RATIO_ENCODE, MIN_MEDIAN_RATIO, MIN_MIX = 1.0, 0.5, 5.0, 35.0


def equal_mix(rates: list[float]) -> float:
    """Items/s of an equal mix of tasks running at ``rates`` items/s: one item of each in turn."""
    return len(rates) / sum(1 / r for r in rates)


def pin_to_one_core() -> int | None:
    """Pin this process (and the children it starts) to one CPU of those allowed; the CPU, or None where the
    platform cannot pin."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def ours_once(host, task, count: int, seed: int) -> tuple[float, float, float]:
    """(items/s of ``build_item``, items/s of the reference PNG encode alone of the same images, items/s of
    their own encode alone) over ``count`` items."""
    built_time = own_time = reference_time = 0.0
    for job in plan(task, {}, seed, count):
        start = time.process_time()
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix)
        built_time += time.process_time() - start
        own, reference = encode_seconds(built.images)
        own_time += own
        reference_time += reference
    return count / built_time, count / reference_time, count / own_time


#: The heap policy ours runs with (``bench_core.allocator``), given to the authors' process too, so that the
#: comparison is of the generators, not of glibc's settings.
PEER_HEAP_POLICY = f"glibc.malloc.mmap_threshold={MMAP_THRESHOLD}:glibc.malloc.trim_threshold={TRIM_THRESHOLD}"


def authors_once(python: str, name: str, count: int, seed: int) -> float:
    """Items/s of ``count`` items of the authors' task ``name`` (CPU time of the child that made them)."""
    done = subprocess.run([python, "-c", PEER_PROGRAM, name, str(count), str(seed)], capture_output=True,
                          text=True, check=False, env={**os.environ, "GLIBC_TUNABLES": PEER_HEAP_POLICY})
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the authors' {name} failed: {tail}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["items"] / result["seconds"]


def warm_up(host, task) -> None:
    """Build a few items first, so imports and caches are not timed."""
    for job in plan(task, {}, 10**6, 3):
        build_item(host, task, job.seed, job.index, job.params, job.suffix)


def compare(host, task, python: str, count: int, seed: int, repeat: int) -> tuple[float, float, float, float]:
    """(ours items/s, authors' items/s, our reference floor's items/s, our own floor's items/s): medians over
    ``repeat`` alternating runs."""
    warm_up(host, task)
    ours, theirs, floor, own_floor = [], [], [], []
    for r in range(repeat):
        rate, reference_rate, own_rate = ours_once(host, task, count, seed + r * count)
        ours.append(rate)
        floor.append(reference_rate)
        own_floor.append(own_rate)
        theirs.append(authors_once(python, AUTHORS_TASKS[task.id], count, seed + r * count))
    return (statistics.median(ours), statistics.median(theirs), statistics.median(floor),
            statistics.median(own_floor))


def mark(ok: bool) -> str:
    return "" if ok else " (short)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer-python", default=os.environ.get("SPHINX_PEER_PYTHON", "/tmp/sphinx-peer/bin/python"),
                        help="python of the virtual environment with sphinx-vpr (default $SPHINX_PEER_PYTHON or "
                             "/tmp/sphinx-peer/bin/python)")
    parser.add_argument("--count", type=int, default=50, help="items per task, side and repetition (default 50)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions; figures are medians (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tasks", nargs="*", default=["sphinx"], metavar="SELECTOR",
                        help="SPHINX tasks to time (default: every registered one)")
    args = parser.parse_args()
    if args.count < 1 or args.repeat < 1:
        parser.error("--count and --repeat must be at least 1")
    keep_freed_memory()  # the heap policy `bench generate` runs with (bench_core.allocator)
    if not os.access(args.peer_python, os.X_OK):
        parser.error(f"--peer-python {args.peer_python}: not an executable; make the authors' environment as "
                     "../shared/peers/README.md says, or pass its python")
    host = default_host()
    selected = [t for t in host.select(args.tasks) if t.family == "sphinx"]
    unmapped = [t.id for t in selected if t.id not in AUTHORS_TASKS]
    if unmapped:
        parser.error(f"no authors' task named for {', '.join(unmapped)}: add it to AUTHORS_TASKS")
    cpu = pin_to_one_core()
    where = f"CPU {cpu}" if cpu is not None else "one process (not pinned)"
    print(f"{args.count} items per task and side, median of {args.repeat}, CPU time, {where}\n")
    print("| task | authors' task | ours items/s | authors' items/s | ours/authors | reference floor/s | ratio | "
          "own floor/s | ratio to own |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    rows, failed = [], []
    for task in selected:
        name = AUTHORS_TASKS[task.id]
        try:
            ours, theirs, floor, own = compare(host, task, args.peer_python, args.count, args.seed, args.repeat)
        except (BenchError, RuntimeError, ValueError) as exc:  # a row saying so; the other tasks still run
            print(f"| {task.id} | {name} | failed: {type(exc).__name__}: {str(exc)[:200]} |||||||", flush=True)
            failed.append(task.id)
            continue
        rows.append((task.id, ours, theirs, floor, own))
        print(f"| {task.id} | {name} | {ours:.1f} | {theirs:.1f} | {ours / theirs:.2f}"
              f"{mark(ours >= MIN_RATIO_AUTHORS * theirs)} | {floor:.1f} | {ours / floor:.2f}"
              f"{mark(ours >= MIN_RATIO_ENCODE * floor)} | {own:.1f} | {ours / own:.2f}"
              f"{mark(ours >= MIN_RATIO_ENCODE * own)} |", flush=True)
    if not rows:
        return 1
    ours_median = statistics.median(r[1] for r in rows)
    theirs_median = statistics.median(r[2] for r in rows)
    print(f"\nmedian over {len(rows)} tasks: ours {ours_median:.1f} items/s, authors' {theirs_median:.1f} items/s, "
          f"ratio {ours_median / theirs_median:.2f}")
    slower = [r[0] for r in rows if r[1] < MIN_RATIO_AUTHORS * r[2]]
    floor_short = [r[0] for r in rows if r[1] < MIN_RATIO_ENCODE * r[3]]
    own_short = [r[0] for r in rows if r[1] < MIN_RATIO_ENCODE * r[4]]
    print(f"at least as fast as the authors': {'met' if not slower else 'NOT met: ' + ', '.join(slower)}")
    print(f"at least half the reference floor: {'met' if not floor_short else 'NOT met: ' + ', '.join(floor_short)}")
    print(f"(at least half the own floor: {'met' if not own_short else 'NOT met: ' + ', '.join(own_short)})")
    median_ok = ours_median >= MIN_MEDIAN_RATIO * theirs_median
    print(f"median at least {MIN_MEDIAN_RATIO:g}x the authors' median: {'met' if median_ok else 'NOT met'}")
    ours_mix, theirs_mix = equal_mix([r[1] for r in rows]), equal_mix([r[2] for r in rows])
    mix_ok = ours_mix >= MIN_MIX
    print(f"equal mix of {len(rows)} tasks: ours {ours_mix:.1f} items/s, authors' {theirs_mix:.1f} items/s; at least "
          f"{MIN_MIX:g} items/s: {'met' if mix_ok else 'NOT met'}")
    return 0 if not failed and not slower and not floor_short and median_ok and mix_ok else 1


if __name__ == "__main__":
    sys.exit(main())
