"""Description of ``sphinx/positional-count`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

RELATIONS = ("inside", "outside", "left", "right", "above", "below")

TASK = Task(
    family=FAMILY,
    name="positional-count",
    version="0.1.0",
    answer_type="integer",
    category="geometric",
    description=(
        "One to four large coloured shapes (rectangle, circle, triangle) and 10-40 small black tokens on graph "
        "paper: how many tokens of one kind are strictly inside, outside, left of, right of, above or below one "
        "shape (measured against its extreme points)? SPHINX task 1, paper B.1.1; the count is re-derived from "
        "the token blobs and shape pixels of the PNG."
    ),
    implementation="bench_plugin_sphinx.positional_count:TASK",
    parameters=(
        Parameter("relation", "str", None, choices=RELATIONS,
                  help="the relation asked (default: the six in one seeded order, repeated)"),
        Parameter("references", "int", None, minimum=1, maximum=4,
                  help="number of large reference shapes K (default: drawn from 1..4, or chosen by difficulty; set "
                       "references or difficulty, not both)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="one reference shape",
        hardest="four reference shapes",
        mapping="the paper's complexity: the number of reference shapes K (1..4, c = (K - 1) / 3), the K nearest "
                "the level within the paper's bin (easy c < 0.75: K <= 3, hard: K = 4)",
        proxy="the number of reference shapes K",
        aliases=ALIASES,
    ),
)
