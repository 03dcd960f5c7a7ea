"""Description of ``sphinx/chart-comparison`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TOPS = ("pie", "bar")

TASK = Task(
    family=FAMILY,
    name="chart-comparison",
    version="0.1.0",
    answer_type="option",
    category="geometric",
    description=(
        "A pie chart (or a bar chart) of k = 3..10 coloured categories on top and four charts of the other kind "
        "below: which one shows the same proportion for every colour? SPHINX task 5, paper B.1.5; every chart "
        "is measured on the pixels (slice angles, bar heights)."
    ),
    implementation="bench_plugin_sphinx.chart_comparison:TASK",
    parameters=(
        Parameter("top", "str", None, choices=TOPS,
                  help="the chart on top; the options are the other kind (default: pie and bar alternate in a "
                       "seeded order)"),
        Parameter("categories", "int", None, minimum=3, maximum=10,
                  help="number of categories k (default: drawn from 3..10, or chosen by difficulty; set categories "
                       "or difficulty, not both)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="3 categories",
        hardest="10 categories",
        mapping="the paper's complexity: the number of categories k (3..10, c = (k - 3) / 7), the k nearest the "
                "level within the paper's bin (easy c < 0.75: k <= 8, hard: k >= 9)",
        proxy="the number of categories k",
        aliases=ALIASES,
    ),
)
