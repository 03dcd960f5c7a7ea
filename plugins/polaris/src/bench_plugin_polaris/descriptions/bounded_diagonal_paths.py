"""Description of ``polaris/bounded-diagonal-paths`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="bounded-diagonal-paths",
    version="0.1.1",
    answer_type="integer",
    category=CATEGORIES["CP"],
    description=(
        "A checker moves one row down (polar: one ring inward) and one column (sector) left or right per move, "
        "from P in the top row (outermost ring) to Q in the bottom row (innermost ring), avoiding 0-3 blocked "
        "cells; the polar seam at 12 o'clock is a thick wall. How many paths? Polaris-Bench CP, bounded "
        "combinatorics; fully aligned, in half of the pairs ignoring the wall would change the count. Verified "
        "by listing the paths one by one under both boundary readings and reading the board off the pixels."
    ),
    implementation="bench_plugin_polaris.bounded_diagonal_paths:TASK",
    parameters=(
        VARIANT,
        Parameter("rows", "int", None, minimum=5, maximum=8,
                  help="rows (polar: rings); a path makes rows - 1 moves; default: drawn, or set by difficulty"),
        Parameter("cols", "int", None, minimum=4, maximum=8, help="columns (polar: sectors); default: drawn"),
        Parameter("blocked", "int", None, minimum=0, maximum=3,
                  help="blocked cells, each on some path, at most rows - 4; default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="5 rows (4 moves per path), no blocked cell",
        hardest="8 rows (7 moves per path), 3 blocked cells",
        mapping="rows (5..8) and blocked cells (0..3) each rise in equal steps of the level; columns are drawn "
                "(4..8); a set rows or blocked wins over the level",
        proxy="moves per path plus blocked cells",
    ),
)
