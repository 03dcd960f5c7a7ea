"""Description of ``polaris/wrapping-diagonal-paths`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="wrapping-diagonal-paths",
    version="0.1.1",
    answer_type="integer",
    category=CATEGORIES["CP"],
    description=(
        "A checkerboard with an even number of columns (sectors); a checker moves one row down (one ring "
        "inward) and one column (sector) left or right, from P in the top row (outermost ring) to Q in the "
        "bottom row (innermost ring), avoiding 0-2 blocked cells. The Cartesian board is a plain rectangle, the "
        "polar one wraps at 12 o'clock, so the polar item counts more paths (pairs with equal counts are "
        "rejected). Polaris-Bench CP, topological combinatorics; partially aligned (other_answer recorded). "
        "Verified by listing the paths under both readings and reading the board off the pixels."
    ),
    implementation="bench_plugin_polaris.wrapping_diagonal_paths:TASK",
    parameters=(
        VARIANT,
        Parameter("rows", "int", None, minimum=5, maximum=8,
                  help="rows (polar: rings); a path makes rows - 1 moves; default: drawn, or set by difficulty"),
        Parameter("cols", "int", None, choices=(4, 6, 8),
                  help="columns (polar: sectors), even so the checkerboard wraps; default: drawn"),
        Parameter("blocked", "int", None, minimum=0, maximum=2,
                  help="blocked cells, each on some path, at most rows - 4; default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="5 rows (4 moves per path), no blocked cell",
        hardest="8 rows (7 moves per path), 2 blocked cells",
        mapping="rows (5..8) and blocked cells (0..2) each rise in equal steps of the level; columns are drawn "
                "(4, 6, 8); a set rows or blocked wins over the level",
        proxy="moves per path plus blocked cells",
    ),
)
