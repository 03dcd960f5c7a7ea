"""Description of Hierarchical Pattern Equivalence (HPE): find the one recursive drawing that breaks its own rule."""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

TASK = Task(
    family="mindseye",
    name="hierarchical-patterns",
    version="0.2.4",
    answer_type="option",
    category="abstraction",
    description=(
        "Four recursive line drawings (trees, Pythagoras trees, nested shapes, Sierpinski-like corner figures, "
        "rings of circles); three are exactly self-similar and one is a near miss of the same construction whose "
        "rule breaks at one level (wrong ratio or angle, a missing part, a substituted motif). Pick the "
        "violation (Mind's Eye HPE, paper §3 and Table 11)."
    ),
    implementation="bench_plugin_mindseye.hierarchical_patterns:TASK",
    parameters=(
        *common_parameters(),
        Parameter("depth", "int", None, choices=(3, 4, 5),
                  help="hierarchy depth knob: 3, 4 or 5 sets the levels drawn per generator "
                       "(default: 3 easy, 4 medium, 5 hard)"),
        Parameter("subtlety", "str", None, choices=("blatant", "moderate", "subtle"),
                  help="how far the broken level departs from the rule and how deep it sits "
                       "(default: blatant easy, moderate medium, subtle hard)"),
        Parameter("violation", "str", None, choices=("scale", "angle", "missing", "motif"),
                  help="how the violating drawing breaks its rule: one level's scale ratio, one level's angle, "
                       "one missing sub-part, or one level drawn with another motif (default: spread over the items, "
                       "any four in a row show all four)"),
        Parameter("families", "str", None, choices=("paired", "single"),
                  help="paired: two generators, two panels each; single: all four panels from one generator "
                       "(default: spread over the items, alternating; the alternation turns every four items)"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='three levels deep, a blatant violation',
        hard='five levels deep, a subtle violation',
        proxy="recursion depth plus the violation's subtlety (blatant 0, moderate 1, subtle 2)",
        medium='four levels, a moderate violation',
    ),
)
