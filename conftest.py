"""Test selection for every package of the repository (core/tests, plugins/*/tests, tests/).

Tests marked ``@pytest.mark.slow`` are left out of a developer's default run (they are reported as
deselected) and run in a full run: in CI (``CI`` set, as ``.ci/run`` does), with ``BENCH_SLOW=1``, or with
``--runslow``.  A full run also widens the conformance suite's seed sweep (``bench_core.conformance``
reads the same switch).  An explicit ``-m`` expression is obeyed as given (``-m slow`` runs only them).
"""

from __future__ import annotations

import os

SLOW_ENV = "BENCH_SLOW"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (what CI runs; same as BENCH_SLOW=1)")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: left out of the default run; CI, BENCH_SLOW=1 or --runslow run it")
    if config.getoption("--runslow"):
        os.environ[SLOW_ENV] = "1"  # seen by the conformance suite's seed sweep too


def pytest_collection_modifyitems(config, items):
    from bench_core.conformance import full_run

    if full_run() or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
