"""bench-plugin-marvl: MaRVL-QA (extrema counting and transformation recognition on function plots).

Task descriptions live in light modules under ``descriptions``; numpy and matplotlib load only when an
item is generated.  Only finished tasks are listed in ``REGISTERED``.
"""

from __future__ import annotations

import importlib

from bench_core import Task, hookimpl

__version__ = "0.2.10"
#: The bench-core ABI this plugin was written for (bench_core.ABI_VERSION).
BENCH_ABI = 2
FAMILY = "marvl"

#: Description modules of the finished tasks.
REGISTERED: tuple[str, ...] = ("counting", "transformation")


def tasks() -> list[Task]:
    """The registered task descriptions."""
    return [importlib.import_module(f"bench_plugin_marvl.descriptions.{name}").TASK for name in REGISTERED]


@hookimpl
def bench_register_tasks() -> list[Task]:
    return tasks()
