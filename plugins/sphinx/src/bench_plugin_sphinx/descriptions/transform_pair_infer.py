"""Description of ``sphinx/transform-pair-infer`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, MOTIF_FAMILIES, PRESETS

TRANSFORMS = ("mirror", "flip", "transpose", "transverse", "rot90", "rot180", "rot270", "translate")
#: Ladder is left out: a third of its asymmetric draws keep a self-symmetry.
FAMILIES = tuple(f for f in MOTIF_FAMILIES if f != "ladder")

TASK = Task(
    family=FAMILY,
    name="transform-pair-infer",
    version="0.1.1",
    answer_type="option",
    category="sequence",
    description=(
        "Two motif tiles on graph paper with an arrow: which single operation (a mirror across the vertical, "
        "horizontal, main or anti-diagonal line, a quarter turn either way, a half turn, a move) turns the left "
        "tile into the right one? Six text options, the last 'none of the above' (the answer one time in six). "
        "SPHINX task 16, paper B.4.2; checked by mapping the drawn left tile's pixels."
    ),
    implementation="bench_plugin_sphinx.transform_pair:TASK",
    parameters=(
        Parameter("transform", "str", None, choices=TRANSFORMS,
                  help="the operation that turns the left tile into the right one (mirror: vertical line, flip: "
                       "horizontal line, transpose: main diagonal, transverse: anti-diagonal, rot90: "
                       "counterclockwise, rot270: clockwise; default: the eight in one seeded order, repeated; or "
                       "chosen by difficulty); one item in six leaves it out of the options"),
        Parameter("motif", "str", None, choices=FAMILIES,
                  help="motif family (default: the families in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="a straight mirror line, a half turn or a one-step move",
        hardest="a mirror across a diagonal",
        mapping="the paper measures no complexity for this task; ours is the true operation's tier t (0: vertical "
                "or horizontal mirror, half turn, move; 1: quarter turn; 2: diagonal mirror; c = t / 2), the tier "
                "nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75); set transform or "
                "difficulty, not both",
        proxy="the transformation's tier (0 straight mirror, half turn or move; 1 quarter turn; 2 diagonal mirror)",
        aliases=ALIASES,
    ),
)
