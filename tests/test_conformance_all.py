"""The conformance suite over every installed task, whatever family it comes from, with every plugin
installed together (so that one plugin's hooks meeting another's tasks show).

Marked slow: each package's own suite runs the same contract over its tasks in the fast set; this one runs
in a full run (CI, BENCH_SLOW=1 or --runslow), with one seed, since the package suites sweep eight."""

import pytest

from bench_core.conformance import ConformanceSuite

pytestmark = pytest.mark.slow


class TestEveryInstalledTask(ConformanceSuite):
    family = None
    seeds = (0,)

    def test_extreme_parameter_values(self, task):
        pytest.skip("each package's own suite builds every extreme value in a full run")

    def test_hardness_rises_with_difficulty(self, task):
        pytest.skip("each package's own suite measures the hardness profile in a full run")
