"""Description of ``sphinx/symmetry-fill`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, FILL_FAMILIES, PRESETS

RULES = ("vertical", "horizontal", "both-axes", "main-diagonal", "anti-diagonal")

TASK = Task(
    family=FAMILY,
    name="symmetry-fill",
    version="0.1.1",
    answer_type="option",
    category="symmetry",
    description=(
        "A 2x2 grid of motif tiles with one tile blacked out: which of four option tiles completes the grid "
        "with the named mirror symmetry (vertical, horizontal, both, main or anti-diagonal)? SPHINX task 12, "
        "paper B.3.2; the completed grid is symmetric as a picture, checked on the pixels."
    ),
    implementation="bench_plugin_sphinx.symmetry_fill:TASK",
    parameters=(
        Parameter("rule", "str", None, choices=RULES,
                  help="the grid's symmetry (default: the five in one seeded order, repeated; or chosen by "
                       "difficulty)"),
        Parameter("motif", "str", None, choices=FILL_FAMILIES,
                  help="motif family of the tiles (default: the families in one seeded order, repeated; ladder and "
                       "segment are left out: their option tiles are not distinct enough)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="one straight mirror line (vertical or horizontal)",
        hardest="a diagonal mirror line (main or anti-diagonal)",
        mapping="the paper measures no complexity for this task; ours is the rule's tier t (0: vertical or "
                "horizontal, 1: both, 2: a diagonal; c = t / 2), the tier nearest the level within the paper's bin "
                "(easy c < 0.75, hard c >= 0.75); set rule or difficulty, not both",
        proxy="the rule's tier (0 straight axis, 1 both axes, 2 diagonal)",
        aliases=ALIASES,
    ),
)
