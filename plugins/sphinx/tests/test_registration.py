"""Only finished tasks are registered, through the ``bench.plugins`` entry point, and the descriptions load no
heavy module."""

from __future__ import annotations

import subprocess
import sys

import bench_plugin_sphinx
from sphinx_helpers import ALL_TASKS

from bench_core import default_host


def test_the_entry_point_registers_the_finished_tasks():
    ids = sorted(t.id for t in default_host().select(["sphinx"]))
    # the paper's 25 tasks
    assert ids == sorted(f"sphinx/{name}" for name in (
        "positional-count", "shape-sorting", "stack-count", "pie-chart", "chart-comparison", "venn-diagram",
        "shape-counting", "tiles-line-length", "tiles-line-intersections", "tiles-recoloring",
        "mirror-identification", "symmetry-fill", "frieze-groups", "wallpaper-groups", "transform-result-identify",
        "transform-pair-infer", "transform-similarity-identify", "sequence-rotation", "sequence-arithmetic",
        "multi-column-arithmetic", "tiles-geometry", "tiles-connected-component", "tiles-shortest-path",
        "missing-tiles", "tiles-composition"))
    assert set(bench_plugin_sphinx.REGISTERED) <= set(ALL_TASKS)
    assert all(t.difficulty is not None and set(t.difficulty.aliases) == {"easy", "hard"}
               for t in bench_plugin_sphinx.tasks())


def test_listing_the_tasks_loads_no_numpy_pillow_or_shapely():
    code = ("import sys, bench_plugin_sphinx; bench_plugin_sphinx.tasks(); "
            "print(sorted(m for m in ('numpy', 'PIL', 'shapely') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
