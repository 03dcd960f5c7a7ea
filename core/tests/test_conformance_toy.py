"""The conformance suite itself, run over the toy plugin (a third party's view of it)."""

from __future__ import annotations

from pathlib import Path

import toy_plugin

from bench_core.conformance import ConformanceSuite
from bench_core.host import create_host

_HOST = create_host(entry_points=False, plugins=[("toy", toy_plugin)])


class TestToyConformance(ConformanceSuite):
    family = "toy"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return _HOST
