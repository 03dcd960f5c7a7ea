"""Description of ``sphinx/tiles-line-length`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "triangular", "hexagonal", "rhombille")

TASK = Task(
    family=FAMILY,
    name="tiles-line-length",
    version="0.1.0",
    answer_type="integer",
    category="counting",
    description=(
        "How many edge steps long is the line of one colour? One to five coloured lines run along the edges of "
        "a square, triangular, hexagonal or rhombille tiling, never sharing an edge. SPHINX task 8, paper "
        "B.2.3; the line is traced edge by edge on the pixels."
    ),
    implementation="bench_plugin_sphinx.tiles_line_length:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: the four in one seeded order, repeated)"),
        Parameter("lines", "int", None, minimum=1, maximum=5,
                  help="how many coloured lines (default: 1..5 with weights 1, 3, 3, 2, 2)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="a board of 9 cells",
        hardest="a board of 64 cells or more (up to 100)",
        mapping="the paper's complexity: the board's cell count n over 9..64, c = (n - 9) / 55 clipped to 1; the "
                "count nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75)",
        proxy="the number of cells on the board",
        aliases=ALIASES,
    ),
)
