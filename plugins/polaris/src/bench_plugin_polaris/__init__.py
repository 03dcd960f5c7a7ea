"""bench-plugin-polaris: Polaris-Bench ("The Cartesian Shortcut"; Hu, Yue, Potetz, Zhou, Guibas, Lu, Wang) for bench.

Every question is asked twice from one logical instance in index space: on a Cartesian grid and on its polar
remap (rows to rings, columns to sectors).  Task descriptions live in light modules under ``descriptions``;
numpy and Pillow load only when an item is generated.  Only finished tasks are listed in ``REGISTERED`` (a
task is registered when it passes the conformance suite, never as a stub).
"""

from __future__ import annotations

import importlib

from bench_core import Task, hookimpl

__version__ = "0.1.5"
#: The bench-core ABI this plugin was written for (bench_core.ABI_VERSION).
BENCH_ABI = 2
FAMILY = "polaris"

#: Description modules of the finished tasks.
REGISTERED: tuple[str, ...] = ("n_queens", "sudoku", "minimum_flips", "maximum_collection", "collision_detection",
                               "bouncing_point", "path_counting", "bounded_knight_paths", "knight_paths",
                               "bounded_diagonal_paths", "wrapping_diagonal_paths", "checkpoint_paths",
                               "lattice_paths", "edge_counting", "random_walk")


def tasks() -> list[Task]:
    """The registered task descriptions."""
    return [importlib.import_module(f"bench_plugin_polaris.descriptions.{name}").TASK for name in REGISTERED]


@hookimpl
def bench_register_tasks() -> list[Task]:
    return tasks()
