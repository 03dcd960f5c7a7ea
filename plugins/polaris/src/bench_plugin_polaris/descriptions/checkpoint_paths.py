"""Description of ``polaris/checkpoint-paths`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="checkpoint-paths",
    version="0.1.1",
    answer_type="integer",
    category=CATEGORIES["CP"],
    description=(
        "A robot moves one cell right or down (polar: clockwise or inward) from X to Y, must pass the checkpoint "
        "(a green downward triangle) and never enters one of 1-4 gap cells; the polar seam at 12 o'clock is a "
        "thick wall. How many paths? Polaris-Bench CP, bounded combinatorics; fully aligned; no wrong answer "
        "proposed is the count of the wrapping reading. Verified by listing the paths one by one and reading X, "
        "Y, the checkpoint, the gaps and the seam wall off the pixels."
    ),
    implementation="bench_plugin_polaris.checkpoint_paths:TASK",
    parameters=(
        VARIANT,
        Parameter("rows", "int", None, minimum=4, maximum=7,
                  help="rows (polar: rings); default: drawn, or set by difficulty"),
        Parameter("cols", "int", None, minimum=4, maximum=8, help="columns (polar: sectors); default: drawn"),
        Parameter("gaps", "int", None, minimum=1, maximum=4,
                  help="gap cells, each on some path through the checkpoint, at most rows - 2; default: drawn, or "
                       "set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="4 rows, 1 gap (2-5 moves per path)",
        hardest="7 rows, 4 gaps (6-9 moves per path)",
        mapping="rows (4..7) and gaps (1..4) each rise in equal steps of the level; the X-Y box is 3 rows shorter "
                "than the board at most; columns are drawn (4..8); a set rows or gaps wins over the level",
        proxy="moves per path plus gaps",
    ),
)
