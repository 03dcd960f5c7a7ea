"""bench-plugin-mindseye: the eight Mind's Eye tasks (A-R-T taxonomy) for bench.

Each task's description lives in a light module under ``descriptions``; the drawing and geometry code
loads only when an item is generated.  Only finished tasks are listed in ``REGISTERED``.
"""

from __future__ import annotations

import importlib

from bench_core import Task, hookimpl

__version__ = "0.2.16"
#: The bench-core ABI this plugin was written for (bench_core.ABI_VERSION).
BENCH_ABI = 2
FAMILY = "mindseye"

#: Description modules of the finished tasks, in the paper's order.
REGISTERED: tuple[str, ...] = (
    "relation_abstraction",
    "hierarchical_patterns",
    "dynamic_correspondence",
    "conceptual_slippage",
    "symmetric_structures",
    "mental_rotation",
    "paper_folding",
    "mental_composition",
)


def tasks() -> list[Task]:
    """The registered task descriptions."""
    return [importlib.import_module(f"bench_plugin_mindseye.descriptions.{name}").TASK for name in REGISTERED]


@hookimpl
def bench_register_tasks() -> list[Task]:
    return tasks()
