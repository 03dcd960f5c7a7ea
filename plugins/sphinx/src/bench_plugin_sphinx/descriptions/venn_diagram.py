"""Description of ``sphinx/venn-diagram`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

MODES = ("only", "intersection", "butnot", "union")

TASK = Task(
    family=FAMILY,
    name="venn-diagram",
    version="0.1.0",
    answer_type="integer",
    category="counting",
    description=(
        "The sum of the numbers in a region of two to four overlapping rectangles: inside exactly the named "
        "ones, common to them, inside some but outside others, or inside any of them. One digit in every "
        "region. SPHINX task 6, paper B.2.1; rectangles and digits are read back from the pixels."
    ),
    implementation="bench_plugin_sphinx.venn_diagram:TASK",
    parameters=(
        Parameter("rectangles", "int", None, minimum=2, maximum=4,
                  help="how many rectangles (default: 2, 3, 4 in one seeded order, repeated; or by difficulty)"),
        Parameter("mode", "str", None, choices=MODES,
                  help="the query: only (exactly the named rectangles), intersection (inside all named, others "
                       "allowed), butnot (inside the named, outside the excluded), union (inside any named); "
                       "default: the four in one seeded order, repeated"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="two rectangles",
        hardest="four rectangles",
        mapping="the paper's complexity: the number of rectangles n (2..4), c = (n - 2) / 2; easy (c < 0.75) "
                "gives 2 or 3, hard gives 4; set rectangles or difficulty, not both",
        proxy="the number of rectangles",
        aliases=ALIASES,
    ),
)
