"""Description of ``sphinx/stack-count`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

SHEETS = ("rectangle", "circle", "triangle")

TASK = Task(
    family=FAMILY,
    name="stack-count",
    version="0.1.0",
    answer_type="integer",
    category="geometric",
    description=(
        "Two to four congruent coloured sheets (rectangles, circles or equilateral triangles) stacked with "
        "overlaps, small black tokens on top: how many tokens of one kind lie strictly inside a partly hidden "
        "sheet's whole boundary? SPHINX task 3, paper B.1.3; the stack is checked against the pixels and the "
        "count re-derived from the token blobs."
    ),
    implementation="bench_plugin_sphinx.stack_count:TASK",
    parameters=(
        Parameter("sheet", "str", None, choices=SHEETS,
                  help="the sheets' shape (default: the three in one seeded order, repeated)"),
        Parameter("sheets", "int", None, minimum=2, maximum=4,
                  help="number of sheets k (default: drawn from 2..4, or chosen by difficulty; set sheets or "
                       "difficulty, not both)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="two sheets",
        hardest="four sheets",
        mapping="the paper's complexity: the number of sheets k (2..4, c = (k - 2) / 2), the k nearest the level "
                "within the paper's bin (easy c < 0.75: k <= 3, hard: k = 4)",
        proxy="the number of sheets k",
        aliases=ALIASES,
    ),
)
