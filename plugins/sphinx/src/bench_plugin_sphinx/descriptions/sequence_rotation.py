"""Description of ``sphinx/sequence-rotation`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, MOTIF_FAMILIES, PRESETS

#: Families left out: nearly round or turn-symmetric drawings whose turns move only a notch, a tooth or a tip
#: (crescent, gear, rings, dot, concentric polygon, clock, polygon, star polygon), and the segment (a half-turn
#: maps it onto itself but for its end markers).
TURN_SYMMETRIC = ("clock", "concentric_polygon", "crescent", "dot", "gear", "polygon", "rings", "segment",
                  "star_polygon")
#: Motif families drawn: the kit's other 15 and icons.
ROTATION_FAMILIES = (*(f for f in MOTIF_FAMILIES if f not in TURN_SYMMETRIC), "icons")

TASK = Task(
    family=FAMILY,
    name="sequence-rotation",
    version="0.1.3",
    answer_type="option",
    category="sequence",
    description=(
        "A row of four panels shows one motif turned by a constant step (30, 45, 60 or 90 degrees, clockwise or "
        "counterclockwise), one panel blank: which of four option panels fills it? SPHINX task 18, paper B.4.4; "
        "the verifier measures every turn on the pixels."
    ),
    implementation="bench_plugin_sphinx.sequence_rotation:TASK",
    parameters=(
        Parameter("step", "int", None, choices=(30, 45, 60, 90),
                  help="degrees between neighbouring panels (default: the four in one seeded order, repeated; or "
                       "chosen by difficulty)"),
        Parameter("direction", "str", None, choices=("clockwise", "counterclockwise"),
                  help="the turn's direction (default: alternating, so every eight items show the eight regimes)"),
        Parameter("motif", "str", None, choices=ROTATION_FAMILIES,
                  help="motif family (default: the families in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="90° steps",
        hardest="30° steps",
        mapping="the paper's: the step's reversed ordinal (90° -> 0, 60° -> 1/3, 45° -> 2/3, 30° -> 1); easy "
                "c < 0.75 (90°, 60°, 45°), hard c >= 0.75 (30°); set step or difficulty, not both",
        proxy="the step's ordinal (0 for 90° ... 3 for 30°)",
        aliases=ALIASES,
    ),
)
