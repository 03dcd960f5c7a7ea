"""Description of ``polaris/collision-detection`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="collision-detection",
    version="0.1.2",
    answer_type="option",
    category=CATEGORIES["ALS"],
    description=(
        "4-6 cars with velocity arrows in their colours (1-3 cells per tick, along rows / rings or columns / "
        "sectors) on a wrapping "
        "board (the Cartesian twin's left and right edges are joined, drawn dashed): which two crash first? Exact "
        "crash times, a unique first crash, no near misses; about half the first crashes use the wrap, and the "
        "pair first without the wrap is never a wrong option. Polaris-Bench ALS, motion and trajectory "
        "prediction; fully aligned. Verified by stepping time in sixtieths of a tick and by reading the cars "
        "and arrows off the pixels."
    ),
    implementation="bench_plugin_polaris.collision_detection:TASK",
    parameters=(
        VARIANT,
        Parameter("rows", "int", None, minimum=3, maximum=5,
                  help="rows (polar: rings); default: drawn, or set by difficulty"),
        Parameter("cols", "int", None, minimum=8, maximum=12,
                  help="columns (polar: sectors); default: drawn, or set by difficulty"),
        Parameter("cars", "int", None, minimum=4, maximum=6,
                  help="cars on the board; default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="4 cars on 3 x 8",
        hardest="6 cars on 5 x 12",
        mapping="three steps of the level: 4 cars on 3 x 8, 5 on 4 x 10, 6 on 5 x 12; set values win",
        proxy="the cars plus the pairs that ever crash (each a candidate to rule out)",
    ),
)
