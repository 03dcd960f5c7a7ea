"""Description of ``sphinx/tiles-geometry`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "triangular", "hexagonal")
QUERIES = ("area", "perimeter", "holes", "area_difference", "union_perimeter")

TASK = Task(
    family=FAMILY,
    name="tiles-geometry",
    version="0.1.0",
    answer_type="integer",
    category="topology",
    description=(
        "Area, perimeter (board-border edges included), number of enclosed holes, area difference or union "
        "perimeter of coloured regions on a square, triangular or hexagonal board. SPHINX task 21, paper B.5.1; "
        "the measure is re-derived from the picture (cell colours read at their centres, neighbours and border "
        "edges probed beyond every drawn edge)."
    ),
    implementation="bench_plugin_sphinx.tiles_geometry:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: the three in one seeded order, repeated: the released weights 1:1:1)"),
        Parameter("query", "str", None, choices=QUERIES,
                  help="what is asked (default: the five in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="a board of 9 cells (holes: 25)",
        hardest="a board of 64 cells",
        mapping="the paper's complexity: the board's cell count n over 9..64, c = (n - 9) / 55; the count nearest "
                "the level within the paper's bin (easy c < 0.75, hard c >= 0.75)",
        proxy="the number of cells on the board",
        aliases=ALIASES,
    ),
)
