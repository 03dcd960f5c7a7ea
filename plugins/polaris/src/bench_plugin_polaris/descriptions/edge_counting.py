"""Description of ``polaris/edge-counting`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="edge-counting",
    version="0.1.1",
    answer_type="option",
    category=CATEGORIES["CP"],
    description=(
        "An ant's trail (8-25 unit edges, a self-avoiding walk along the grid lines, never on the two outer "
        "column lines, so nothing touches the polar seam) runs from P to Q: how many cell edges does it traverse? "
        "In polar an arc between neighbouring radial lines or a radial piece between neighbouring circles counts "
        "as one edge. Five consecutive counts as options. Polaris-Bench CP, stochastic processes; "
        "boundary-invariant, fully aligned. Verified by reading every edge of the grid off the pixels."
    ),
    implementation="bench_plugin_polaris.edge_counting:TASK",
    parameters=(VARIANT,),
    difficulty=Difficulty(
        easiest="trails of 8-12 edges",
        hardest="trails of 21-25 edges",
        mapping="the level sets the start of the five-count option window (8..21); the answer's place in it is "
                "drawn uniformly",
        proxy="the number of edges on the trail",
    ),
)
