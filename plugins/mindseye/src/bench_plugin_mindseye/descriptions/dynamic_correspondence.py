"""Description of Dynamic Structural Correspondence (DSC): predict two moving shapes one step ahead."""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

TASK = Task(
    family="mindseye",
    name="dynamic-correspondence",
    version="0.2.2",
    answer_type="option",
    category="relation",
    description=(
        "Two shapes (blue solid, red dashed) each follow their own continuous motion, shown at t = 0, 0.25, 0.5 "
        "and 0.75; pick the scene at t = 1 among four options whose foils swap the motions, show both shapes at a "
        "wrong time, misread one motion, freeze one shape, move one shape a step too far or put the two out of "
        "step (Mind's Eye DSC, paper §3 and Table 11).  The foils cross two errors with the truth in a 2 x 2 "
        "design (one slip per shape, or the swap and a wrong time), so the truth is one corner of the square and "
        "the options alone (their ink, size, place or likeness to each other) do not pick it out."
    ),
    implementation="bench_plugin_mindseye.dynamic_correspondence:TASK",
    parameters=(
        *common_parameters(),
        Parameter("motion", "str", None, choices=("linear", "periodic", "compound"),
                  help="motion class: linear (spin, drift, grow), periodic (one shape rocks, bounces, wiggles, "
                       "pulsates or orbits) or compound (one shape combines two motions or deforms) "
                       "(default: linear easy, periodic medium, compound hard)"),
        Parameter("speed", "str", None, choices=("slow", "medium", "fast"),
                  help="step size of every motion (default: fast easy, medium medium, slow hard)"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='linear motion at fast speed',
        hard='compound motion at slow speed',
        proxy='motion class (linear 0, periodic 1, compound 2) plus speed (fast 0, medium 1, slow 2)',
        medium='periodic motion, medium speed',
    ),
)
