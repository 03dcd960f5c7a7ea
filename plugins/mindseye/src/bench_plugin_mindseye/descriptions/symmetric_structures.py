"""Description of the Symmetric Structures task (SS, paper App. C and Table 11; spec §2.5): which of four path
drawings lacks the symmetry the other three share?"""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

TASK = Task(
    family="mindseye",
    name="symmetric-structures",
    version="0.2.3",
    answer_type="option",
    category="relation",
    description=(
        "Mind's Eye Symmetric Structures (SS): four line drawings A-D, each a connected path of short strokes made "
        "symmetric by a mirror (an axis within 45 degrees of vertical or horizontal) or by turns of order 2 or 4; "
        "three share the symmetry, the odd one has the same strokes and size but one copy bent, so it has none, and "
        "misses every symmetry by a clearly visible distance.  Conformers: one bent the same way in every copy (the "
        "confound), two plain.  Every figure is tilted alike, so orientation says nothing about the answer."
    ),
    implementation="bench_plugin_mindseye.symmetric_structures:TASK",
    parameters=(
        *common_parameters(),
        Parameter("symmetry", "str", None, choices=("vertical", "horizontal", "rot2", "rot4"),
                  help="the symmetry the conformers share: mirror about an axis within 45 degrees of vertical or of "
                       "horizontal (each figure tilted independently), or turns by 180 or 90 degrees (default: spread "
                       "over the items, any four in a row show all four)"),
        Parameter("segments", "int", None, minimum=3, maximum=10,
                  help="strokes per symmetric copy, the paper's path complexity (its paths have 10); default by "
                       "difficulty: easy 4, medium 6, hard 8"),
        Parameter("closeness", "str", None, choices=("far", "mid", "near"),
                  help="how near the odd figure is to symmetric: far = a whole copy bent from its first half, mid = "
                       "its last two or three strokes, near = only its last stroke (default by difficulty: easy far, "
                       "medium mid, hard near)"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='four strokes per copy, the odd figure bent in the first half of a copy',
        hard='eight strokes per copy, the odd figure bent only at its last stroke',
        proxy='strokes per copy plus closeness (far 0, mid 1, near 2)',
        medium='six strokes, bent in the last two or three strokes',
    ),
)
