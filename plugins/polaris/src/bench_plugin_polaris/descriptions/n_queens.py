"""Description of ``polaris/n-queens`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="n-queens",
    version="0.1.2",
    answer_type="option",
    category=CATEGORIES["ALS"],
    description=(
        "A partial N-Queens board (5, 7 or 8, 2-4 queens missing, exactly one completion), bounded only (the polar "
        "seam is a wall; diagonals are index diagonals and never wrap): in which cell must the missing queen of "
        "a named row / ring go? Five cells of that row as options, none right under the toroidal reading. "
        "Polaris-Bench ALS, constraint satisfaction; fully aligned. Verified by enumerating completions and "
        "reading the queens off the pixels."
    ),
    implementation="bench_plugin_polaris.n_queens:TASK",
    parameters=(
        VARIANT,
        Parameter("size", "int", None, choices=(5, 7, 8),
                  help="board size n (n rows and n columns; polar: n rings and n sectors); default: drawn, or set by "
                       "difficulty"),
        Parameter("missing", "int", None, minimum=2, maximum=4,
                  help="queens removed from the solution (3 on a 5 x 5 board); default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="a 5 x 5 board with 3 queens missing",
        hardest="an 8 x 8 board with 4 queens missing",
        mapping="the board size (5, 7, 8) and the missing queens (2..4; 3 on 5 x 5) each rise in equal steps of the "
                "level; a set size or missing wins over the level",
        proxy="the board size plus the number of missing queens",
    ),
)
