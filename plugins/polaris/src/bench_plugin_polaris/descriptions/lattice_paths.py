"""Description of ``polaris/lattice-paths`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="lattice-paths",
    version="0.1.1",
    answer_type="integer",
    category=CATEGORIES["CP"],
    description=(
        "A dot grid of (m + 1) x (n + 1) dots (m, n in 2..4) with 1-3 dots crossed out: how many paths go from A "
        "(top left; polar: outermost circle) to B (bottom right; innermost circle) by steps right, down or "
        "diagonally down-right (polar: clockwise, inward, inward-and-clockwise)? The polar picture has n + 2 "
        "sectors so the seam line, where the lattice lines x = 0 and x = S merge, carries no dot and is a thick "
        "wall. Polaris-Bench CP, bounded combinatorics; fully aligned. Verified by listing the paths and finding "
        "every dot and cross at its pixel."
    ),
    implementation="bench_plugin_polaris.lattice_paths:TASK",
    parameters=(
        VARIANT,
        Parameter("rows", "int", None, minimum=2, maximum=4,
                  help="m, rows of cells between the rows of dots (polar: rings; m + 1 circles of dots); default: "
                       "drawn, or set by difficulty"),
        Parameter("cols", "int", None, minimum=2, maximum=4,
                  help="n, columns of cells between the columns of dots (n + 1 radial lines of dots); default: "
                       "drawn, or set by difficulty"),
        Parameter("removed", "int", None, minimum=1, maximum=3,
                  help="dots crossed out (at least 2 on the 4 x 4 grid); default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="a 2 x 2 grid (3 x 3 dots), 1 dot removed",
        hardest="a 4 x 4 grid (5 x 5 dots), 3 dots removed",
        mapping="m + n (4..8, split drawn) and the removed dots (1..3) each rise in equal steps of the level; set "
                "rows, cols or removed win over the level",
        proxy="m + n plus the removed dots",
    ),
)
