"""Description of ``sphinx/pie-chart`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

DIRECTIONS = ("ascending", "descending")

TASK = Task(
    family=FAMILY,
    name="pie-chart",
    version="0.1.0",
    answer_type="option",
    category="geometric",
    description=(
        "A pie chart of k = 3..10 unlabelled slices with a legend of letters: which of four orderings of the "
        "letters ranks the slices by size (ascending or descending)? SPHINX task 4, paper B.1.4; the ranking is "
        "read back from the slice angles on the pixels."
    ),
    implementation="bench_plugin_sphinx.pie_chart:TASK",
    parameters=(
        Parameter("direction", "str", None, choices=DIRECTIONS,
                  help="sort direction asked (default: ascending and descending alternate in a seeded order)"),
        Parameter("categories", "int", None, minimum=3, maximum=10,
                  help="number of slices k (default: drawn from 3..10, or chosen by difficulty; set categories or "
                       "difficulty, not both)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="3 slices",
        hardest="10 slices",
        mapping="the paper's complexity: the number of categories k (3..10, c = (k - 3) / 7), the k nearest the "
                "level within the paper's bin (easy c < 0.75: k <= 8, hard: k >= 9)",
        proxy="the number of slices k",
        aliases=ALIASES,
    ),
)
