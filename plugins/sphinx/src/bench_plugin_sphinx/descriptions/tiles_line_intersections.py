"""Description of ``sphinx/tiles-line-intersections`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "triangular")

TASK = Task(
    family=FAMILY,
    name="tiles-line-intersections",
    version="0.1.0",
    answer_type="integer",
    category="counting",
    description=(
        "At how many tile corners do two named lines meet (crossing, touching or ending there)? Two to five "
        "coloured vertex-simple lines run along the edges of a square or triangular tiling, never sharing an "
        "edge. SPHINX task 9, paper B.2.4; both lines are traced edge by edge on the pixels."
    ),
    implementation="bench_plugin_sphinx.tiles_line_intersections:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: square and triangular in one seeded order, repeated)"),
        Parameter("lines", "int", None, minimum=2, maximum=5,
                  help="how many coloured lines (default: 2..5, each as likely)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="the two lines meet at one corner",
        hardest="the two lines meet at seven or eight corners",
        mapping="the paper's complexity: the answer n over 1..7, c = (n - 1) / 6 clipped to 1 (answers 1..8 are "
                "drawn); the answer nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75)",
        proxy="the number of corners the two lines share (the answer)",
        aliases=ALIASES,
    ),
)
