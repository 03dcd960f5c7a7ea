"""Description of ``polaris/knight-paths`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="knight-paths",
    version="0.1.1",
    answer_type="integer",
    category=CATEGORIES["CP"],
    description=(
        "Polaris task 45 (Combinatorics & Probability > Topological Combinatorics; wrapping, partially aligned): a "
        "knight and a target; how many sequences of exactly K knight's moves (2-4; cells may repeat) take the "
        "knight to the target?  The Cartesian grid is bounded, the polar grid wraps round the circle, and the two "
        "answers always differ (each item records the other's as other_answer).  Verified by enumerating the move "
        "sequences under both readings and reading the knight, the target and the boundary back through the "
        "layout's inverse map."
    ),
    implementation="bench_plugin_polaris.knight_paths:WRAPPING",
    parameters=(VARIANT,),
    difficulty=Difficulty(
        easiest="exactly 2 knight's moves",
        hardest="exactly 4 knight's moves",
        mapping="K = 2 for levels below 1/3, 3 below 2/3, 4 above",
        proxy="the number of knight's moves K",
    ),
)
