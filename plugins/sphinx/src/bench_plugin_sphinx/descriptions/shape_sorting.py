"""Description of ``sphinx/shape-sorting`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

METRICS = ("polygon-area", "polygon-perimeter", "ellipse-area", "ellipse-perimeter", "angle", "length")

TASK = Task(
    family=FAMILY,
    name="shape-sorting",
    version="0.1.0",
    answer_type="option",
    category="geometric",
    description=(
        "k = 3..10 lettered outline shapes of one family on graph paper (regular polygons, ellipses, angles or "
        "line segments): which of four orderings of the letters sorts them by area, perimeter, angle measure or "
        "length, ascending or descending? SPHINX task 2, paper B.1.2; every value at least 10 % from every "
        "other, the ranking measured back on the pixels."
    ),
    implementation="bench_plugin_sphinx.shape_sorting:TASK",
    parameters=(
        Parameter("metric", "str", None, choices=METRICS,
                  help="family and metric (default: the six in one seeded order, repeated)"),
        Parameter("items", "int", None, minimum=3, maximum=10,
                  help="number of shapes k (default: drawn from 3..10, or chosen by difficulty; set items or "
                       "difficulty, not both)"),
        Parameter("direction", "str", None, choices=("ascending", "descending"),
                  help="sort direction (default: ascending and descending alternate in a seeded order)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="3 shapes",
        hardest="10 shapes",
        mapping="the paper's complexity: the number of shapes k (3..10, c = (k - 3) / 7), the k nearest the level "
                "within the paper's bin (easy c < 0.75: k <= 8, hard: k >= 9)",
        proxy="the number of shapes k",
        aliases=ALIASES,
    ),
)
