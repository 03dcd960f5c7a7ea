"""Description of ``sphinx/tiles-shortest-path`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "hexagonal", "circles", "triangular", "rhombille")

TASK = Task(
    family=FAMILY,
    name="tiles-shortest-path",
    version="0.1.0",
    answer_type="integer",
    category="topology",
    description=(
        "The fewest moves (steps, not cells) from a Start cell to an End cell through light gray cells around "
        "dark gray obstacles, or -1 when no path exists (one item in ten). Square, hexagonal, circle-packing, "
        "triangular and rhombille boards. SPHINX task 23, paper B.5.3; the distance is found by breadth-first "
        "search on the picture's own cell graph."
    ),
    implementation="bench_plugin_sphinx.tiles_shortest_path:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: the five in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="a board of 9 cells",
        hardest="a board of 64 cells",
        mapping="the paper's complexity: the board's cell count n over 9..64, c = (n - 9) / 55; the count nearest "
                "the level within the paper's bin (easy c < 0.75, hard c >= 0.75)",
        proxy="the number of cells on the board",
        aliases=ALIASES,
    ),
)
