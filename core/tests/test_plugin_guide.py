"""The plugin guide in core/README.md is true: its code blocks make a plugin that passes the conformance
suite (run here on the guide's own code, extracted from the README)."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

from bench_core import ConformanceSuite, create_host

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def _guide_plugin():
    """Load the guide's two modules under their own names, as if the plugin were installed."""
    init, count = (b for b in _blocks() if "bench_plugin_dots" in b.split("\n")[0] or "import numpy" in b[:80])
    package = types.ModuleType("bench_plugin_dots")
    package.__path__ = []  # a package, so that bench_plugin_dots.count can be imported
    sys.modules["bench_plugin_dots"] = package
    module = types.ModuleType("bench_plugin_dots.count")
    sys.modules["bench_plugin_dots.count"] = module
    exec(compile(count, "core/README.md (count.py)", "exec"), module.__dict__)
    exec(compile(init, "core/README.md (__init__.py)", "exec"), package.__dict__)
    return package


_PLUGIN = _guide_plugin()
_HOST = create_host(entry_points=False, plugins=[("dots", _PLUGIN)])


class TestPluginGuide(ConformanceSuite):
    family = "dots"

    def bench_host(self):
        return _HOST


def test_the_guide_states_the_abi():
    from bench_core import ABI_VERSION

    assert _PLUGIN.BENCH_ABI == ABI_VERSION


def test_the_guides_items_keep_the_runs_settings_and_record_the_drawn_colour():
    """The guide's ``Problem.params`` is not dropped: the drawn colour lands in the item's metadata (so
    ``bench score --by colour`` is never null), while ``item.params`` keeps the run's settings."""
    from bench_core import build_item, plan
    from bench_core.report import field_value

    task = _HOST.task("dots/count")
    for job in plan(task, {}, 0, 4):
        item = build_item(_HOST, task, job.seed, job.index, job.params).item
        assert item.params == {"most": 6, "colour": None}, item.params
        assert item.metadata["colour"] == item.metadata["scene"]["colour"] in ("black", "red")
        assert field_value(item, "colour", task.category) == item.metadata["colour"]


def test_the_guide_names_the_test_extra_that_brings_the_conformance_suites_pytest():
    """A plugin's ``[test]`` extra depends on ``bench-core[test]`` (pytest and hypothesis), and the guide says how
    to install it."""
    text = README.read_text()
    assert 'test = ["bench-core[test]' in text and "pip install -e .[test]" in text
