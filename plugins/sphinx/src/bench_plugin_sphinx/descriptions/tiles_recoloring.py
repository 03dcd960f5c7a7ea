"""Description of ``sphinx/tiles-recoloring`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "circles", "hexagonal", "triangular", "rhombille")
VARIANTS = ("same_color", "color_change")

TASK = Task(
    family=FAMILY,
    name="tiles-recoloring",
    version="0.1.0",
    answer_type="integer",
    category="counting",
    description=(
        "How many cells differ in colour between two boards side by side: a connected coloured region on the "
        "left, grown, shrunk and partly recoloured on the right? Square, circle-packing, hexagonal, triangular "
        "and rhombille tilings. SPHINX task 10, paper B.2.5; every cell is read on both boards' pixels."
    ),
    implementation="bench_plugin_sphinx.tiles_recoloring:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: the five in one seeded order, repeated)"),
        Parameter("variant", "str", None, choices=VARIANTS,
                  help="same_color: the region only grows and shrinks; color_change: some of its cells are also "
                       "recoloured (default: the two alternately, in a seeded order)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="one differing cell",
        hardest="fifteen differing cells",
        mapping="the paper's complexity: the number of differing cells n (1..15), c = (n - 1) / 14; the count "
                "nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75)",
        proxy="the number of differing cells (the answer)",
        aliases=ALIASES,
    ),
)
