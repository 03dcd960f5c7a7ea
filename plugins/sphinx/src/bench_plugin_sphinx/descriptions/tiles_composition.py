"""Description of ``sphinx/tiles-composition`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "triangular")
MODES = ("decompose", "compose")
COLOURINGS = ("uniform", "random_per_cell")

TASK = Task(
    family=FAMILY,
    name="tiles-composition",
    version="0.1.0",
    answer_type="option",
    category="topology",
    description=(
        "A connected shape of square or triangular cells and four bags of pieces (decompose), or a bag of pieces "
        "and four shapes (compose): which option assembles, pieces rotated or flipped, with no gaps or "
        "overlaps? Every wrong option is proved impossible by an exact-cover search. SPHINX task 25, paper "
        "B.5.5 (held out in the paper); the verifier reads every cell on the pixels and runs its own search."
    ),
    implementation="bench_plugin_sphinx.tiles_composition:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: the two alternately, in a seeded order)"),
        Parameter("mode", "str", None, choices=MODES,
                  help="decompose: shape on top, bags of pieces as options; compose: pieces on top, shapes as "
                       "options (default: alternately, in a seeded order)"),
        Parameter("colouring", "str", None, choices=COLOURINGS,
                  help="uniform: one colour; random_per_cell: every cell keeps its own colour wherever it is shown "
                       "(a clue; default: the two alternately, in a seeded order)"),
        Parameter("pieces", "int", None, minimum=2, maximum=4,
                  help="pieces in a bag (default: 2, 3, 4 as 10 : 7 : 3 in a seeded order of twenty, the released "
                       "weights, or chosen by difficulty; set pieces or difficulty, not both)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="two pieces",
        hardest="four pieces",
        mapping="the paper's complexity: the number of pieces p (2..4), c = (p - 2) / 2 (easy c < 0.75: two or "
                "three pieces; hard: four)",
        proxy="the number of pieces",
        aliases=ALIASES,
    ),
)
