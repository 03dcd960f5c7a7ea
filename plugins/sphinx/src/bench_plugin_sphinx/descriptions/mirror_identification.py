"""Description of ``sphinx/mirror-identification`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, MOTIF_FAMILIES, PRESETS

CLASSES = ("vertical", "horizontal", "main-diagonal", "anti-diagonal", "both-axes", "none")
#: Families the scenes cycle through by default: all but the gear and the ladder, whose asymmetric variants (a
#: gear missing one tooth of 7-12; two rails, one a little longer) the self-symmetry probe mostly finds nearly
#: symmetric (gear four draws in five, ladder nine in ten at some scene sizes); the released generator leaves
#: both out of this task's motif weights too.  ``motif="gear"`` or ``"ladder"`` still draws them.
SCENE_FAMILIES = tuple(f for f in MOTIF_FAMILIES if f not in ("gear", "ladder"))

TASK = Task(
    family=FAMILY,
    name="mirror-identification",
    version="0.1.1",
    answer_type="option",
    category="symmetry",
    description=(
        "Which mirror symmetry does a square scene of motif copies have: vertical, horizontal, main diagonal, "
        "anti-diagonal, vertical + horizontal, or none? Six text options (SPHINX task 11, paper B.3.1); the "
        "class is read back from the rendered bitmap."
    ),
    implementation="bench_plugin_sphinx.mirror_identification:TASK",
    parameters=(
        Parameter("symmetry", "str", None, choices=CLASSES,
                  help="the scene's symmetry class (default: the six in one seeded order, repeated)"),
        Parameter("motif", "str", None, choices=MOTIF_FAMILIES,
                  help="motif family of the copies (default: the families but the gear and the ladder in one "
                       "seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="2 motif copies in a 300 px scene",
        hardest="8 motif copies in a 480 px scene",
        mapping="the paper measures no complexity for this task; ours is the copy count n (2..8, c = (n - 2) / 6), "
                "taken among the counts the class allows (multiples of its orbit: 2 for one axis, 4 for two) "
                "nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75)",
        proxy="the number of motif copies in the scene",
        aliases=ALIASES,
    ),
)
