"""The conformance suite over every installed task, whatever family it comes from."""

from bench_core.conformance import ConformanceSuite


class TestEveryInstalledTask(ConformanceSuite):
    family = None
    seeds = (0, 1, 2)
