"""Description of ``polaris/minimum-flips`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="minimum-flips",
    version="0.1.2",
    answer_type="option",
    category=CATEGORIES["ALS"],
    description=(
        "2-3 strips of 8, 10 or 12 blue/orange cells; a move switches three consecutive cells of a strip: the "
        "fewest moves that make every strip alternate? Cartesian strips are rows with ends, polar strips closed "
        "rings, so the minima differ (partially aligned; other_answer records the other one). Polaris-Bench ALS, "
        "move optimisation; wrapping. Verified by enumerating move sets and reading the cell colours off the "
        "pixels."
    ),
    implementation="bench_plugin_polaris.minimum_flips:TASK",
    parameters=(
        VARIANT,
        Parameter("cells", "int", None, choices=(8, 10, 12),
                  help="cells per strip (even: an odd ring cannot alternate); default: drawn, or set by difficulty"),
        Parameter("strips", "int", None, choices=(2, 3),
                  help="strips (rows / rings) per item; default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="two strips of 8 cells",
        hardest="three strips of 12 cells",
        mapping="six rungs by total cells: 8, 10, 12 cells in two strips, then 8, 10, 12 in three; a set cells "
                "or strips wins over the rung's",
        proxy="the number of cells in all strips",
    ),
)
