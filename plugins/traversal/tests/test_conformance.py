"""The core's conformance suite over every traversal task."""

from bench_core.conformance import ConformanceSuite


class TestTraversalConformance(ConformanceSuite):
    family = "traversal"
