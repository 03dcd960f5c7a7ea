"""Description of ``sphinx/multi-column-arithmetic`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

#: Motif families of the columns: bold, compact drawings that stay countable at stack size (20-33 px).
STACK_FAMILIES = ("bars", "bitgrid", "concentric_polygon", "crescent", "dot", "fractal", "gear", "icons", "keyhole",
                  "pictogram", "polygon", "polyhex", "polyiamond", "polyomino", "rings", "stripes")

TASK = Task(
    family=FAMILY,
    name="multi-column-arithmetic",
    version="0.1.1",
    answer_type="option",
    category="sequence",
    description=(
        "Three panels of 2-6 framed columns, each column a stack of one motif whose count changes by its own "
        "constant step, then a blank fourth panel: which of four option panels completes the row? SPHINX task 20, "
        "paper B.4.6 (held out in the paper's training); the verifier counts every column on the pixels."
    ),
    implementation="bench_plugin_sphinx.multi_column_arithmetic:TASK",
    parameters=(
        Parameter("columns", "int", None, choices=(2, 3, 4, 5, 6),
                  help="columns per panel (default: the five in one seeded order, repeated; or chosen by "
                       "difficulty)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="2 columns",
        hardest="6 columns",
        mapping="the paper's: the number of columns, c = (C - 2) / (6 - 2); easy c < 0.75 (2-4 columns), hard "
                "c >= 0.75 (5-6 columns); set columns or difficulty, not both",
        proxy="the number of columns",
        aliases=ALIASES,
    ),
)
