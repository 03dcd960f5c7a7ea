"""Description of ``sphinx/transform-result-identify`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, MOTIF_FAMILIES, PRESETS

TRANSFORMS = ("mirror", "flip", "transpose", "transverse", "rot90", "rot180", "rot270", "translate")
#: Ladder is left out: a third of its asymmetric draws keep a self-symmetry.
FAMILIES = tuple(f for f in MOTIF_FAMILIES if f != "ladder")

TASK = Task(
    family=FAMILY,
    name="transform-result-identify",
    version="0.1.0",
    answer_type="option",
    category="sequence",
    description=(
        "A motif tile on graph paper and four option tiles: which option is the tile after the named "
        "transformation (a mirror across the vertical, horizontal, main or anti-diagonal line, a quarter turn "
        "either way, a half turn, or a one-step move)? SPHINX task 15, paper B.4.1; checked by mapping the "
        "drawn source tile's pixels."
    ),
    implementation="bench_plugin_sphinx.transform_result:TASK",
    parameters=(
        Parameter("transform", "str", None, choices=TRANSFORMS,
                  help="the transformation named (mirror: vertical line, flip: horizontal line, transpose: main "
                       "diagonal, transverse: anti-diagonal, rot90: counterclockwise, rot270: clockwise; default: "
                       "the eight in one seeded order, repeated; or chosen by difficulty)"),
        Parameter("motif", "str", None, choices=FAMILIES,
                  help="motif family (default: the families in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="a straight mirror line, a half turn or a one-step move",
        hardest="a mirror across a diagonal",
        mapping="the paper measures no complexity for this task; ours is the transformation's tier t (0: vertical "
                "or horizontal mirror, half turn, move; 1: quarter turn; 2: diagonal mirror; c = t / 2), the tier "
                "nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75); set transform or "
                "difficulty, not both",
        proxy="the transformation's tier (0 straight mirror, half turn or move; 1 quarter turn; 2 diagonal mirror)",
        aliases=ALIASES,
    ),
)
