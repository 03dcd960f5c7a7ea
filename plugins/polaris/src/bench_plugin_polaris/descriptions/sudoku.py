"""Description of ``polaris/sudoku`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="sudoku",
    version="0.1.2",
    answer_type="option",
    category=CATEGORIES["ALS"],
    description=(
        "A 6 x 6 Sudoku with outlined 2 x 3 or 3 x 2 boxes (polar: 6 rings x 6 sectors, outlined regions), one "
        "solution, a highlighted '?' cell that no single row, column or box settles: which of five digits goes "
        "there? The paper's Figure 21. Polaris-Bench ALS, constraint satisfaction; topology-invariant, fully "
        "aligned. Verified by exact cover and by reading the digits and box borders off the pixels."
    ),
    implementation="bench_plugin_polaris.sudoku:TASK",
    parameters=(
        VARIANT,
        Parameter("box", "str", None, choices=("2x3", "3x2"),
                  help="box shape, rows x columns (polar: rings x sectors); default: drawn"),
        Parameter("givens", "int", None, minimum=10, maximum=22,
                  help="givens left in the puzzle (more when no further cell can be emptied); default: drawn, or set "
                       "by difficulty (set givens or difficulty, not both)"),
    ),
    difficulty=Difficulty(
        easiest="22 givens; the target settled by its row, column and box together",
        hardest="10 givens; the target left open by its row, column and box",
        mapping="givens 22 - 12 * level (rounded); from level 0.5 on, the target needs more than its own row, "
                "column and box",
        proxy="the empty cells of the puzzle, plus 6 when the target needs more than its row, column and box",
    ),
)
