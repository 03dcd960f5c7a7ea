"""Description of ``polaris/maximum-collection`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="maximum-collection",
    version="0.1.1",
    answer_type="option",
    category=CATEGORIES["ALS"],
    description=(
        "A maze of 4-6 x 4-6 cells with cheese numbers and a mouse: the most cheese it can eat on a walk that "
        "never enters a cell twice? The Cartesian maze is bounded, the polar one wraps at 12 o'clock except where "
        "a wall is drawn, so the optima differ (partially aligned; other_answer records the other one). Exhaustive "
        "search with a node budget (rejected on overflow). Polaris-Bench ALS, move optimisation; wrapping. "
        "Verified by an independent search and by reading the digits, the mouse and every wall off the pixels."
    ),
    implementation="bench_plugin_polaris.maximum_collection:TASK",
    parameters=(
        VARIANT,
        Parameter("rows", "int", None, minimum=4, maximum=6,
                  help="maze rows (polar: rings); default: drawn, or set by difficulty"),
        Parameter("cols", "int", None, minimum=4, maximum=6,
                  help="maze columns (polar: sectors); default: drawn, or set by difficulty"),
        Parameter("loops", "int", None, minimum=1, maximum=4,
                  help="openings beyond the spanning tree (each adds a loop); default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="a 4 x 4 maze with one extra opening",
        hardest="a 6 x 6 maze with four extra openings",
        mapping="the side (4..6) and the openings (1..4) rise in equal steps of the level; set values win",
        proxy="the maze's cells plus three per extra opening",
    ),
)
