"""bench-plugin-sphinx: SPHINX (Alam, Chae, Aggarwal, Rastogi; arXiv 2511.20814) for bench.

Task descriptions live in light modules under ``descriptions``; numpy, Pillow and shapely load only when an
item is generated.  Only finished tasks are listed in ``REGISTERED`` (a task is registered when it passes
the conformance suite, never as a stub).
"""

from __future__ import annotations

import importlib

from bench_core import Task, hookimpl

__version__ = "0.2.15"
#: The bench-core ABI this plugin was written for (bench_core.ABI_VERSION).
BENCH_ABI = 2
FAMILY = "sphinx"

#: Description modules of the finished tasks.
REGISTERED: tuple[str, ...] = ("mirror_identification", "symmetry_fill", "shape_counting", "pie_chart",
                               "chart_comparison", "tiles_line_length", "tiles_line_intersections", "tiles_recoloring",
                               "positional_count", "stack_count", "venn_diagram", "shape_sorting",
                               "frieze_groups", "wallpaper_groups", "tiles_geometry", "tiles_connected_component",
                               "tiles_shortest_path", "sequence_rotation",
                               "sequence_arithmetic", "multi_column_arithmetic", "transform_result_identify",
                               "transform_pair_infer", "transform_similarity_identify",
                               "missing_tiles", "tiles_composition")


def tasks() -> list[Task]:
    """The registered task descriptions."""
    return [importlib.import_module(f"bench_plugin_sphinx.descriptions.{name}").TASK for name in REGISTERED]


@hookimpl
def bench_register_tasks() -> list[Task]:
    return tasks()
