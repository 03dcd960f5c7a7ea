"""Only finished tasks are registered, through the ``bench.plugins`` entry point; every registered task has a
description module among the helpers' ALL_TASKS, and listing the tasks loads no numpy or Pillow."""

from __future__ import annotations

import subprocess
import sys

import bench_plugin_polaris
from polaris_helpers import ALL_TASKS

from bench_core import default_host


def test_the_entry_point_registers_the_finished_tasks():
    ids = {t.id for t in default_host().select(["polaris"])}
    assert ids == {t.id for t in bench_plugin_polaris.tasks()}
    assert {"polaris/path-counting", "polaris/bounded-knight-paths", "polaris/knight-paths"} <= ids
    assert set(bench_plugin_polaris.REGISTERED) <= set(ALL_TASKS)
    assert all(t.difficulty is not None and t.parameter("variant").default == "both"
               for t in bench_plugin_polaris.tasks())


def test_listing_the_tasks_loads_no_numpy_or_pillow():
    code = ("import sys, bench_plugin_polaris; bench_plugin_polaris.tasks(); "
            "print(sorted(m for m in ('numpy', 'PIL') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
