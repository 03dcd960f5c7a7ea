"""Description of the Mental Transformation task (MT, paper §3.2 and App. C; spec §2.6): which option is the
"Original Shape" polycube turned by a pure rotation?"""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

TASK = Task(
    family="mindseye",
    name="mental-rotation",
    version="0.2.3",
    answer_type="option",
    category="transformation",
    description=(
        "Mind's Eye Mental Transformation (MT): a Shepard-Metzler-like polycube labelled Original Shape above "
        "four 3D candidates A-D; exactly one is the original turned by a pure rotation about 1-3 axes.  The four "
        "are an object, its mirror image, an edited copy (one end arm turned by a wrong angle, another chain with "
        "as many cubes, or with varied colours two cube colours swapped, wrong because the question states that "
        "every cube keeps its colour) and the copy's mirror image; the original is any of the four, so no option "
        "stands out as the one the others were made from."
    ),
    implementation="bench_plugin_mindseye.mental_rotation:TASK",
    parameters=(
        *common_parameters(),
        Parameter("axes", "int", None, choices=(1, 2, 3),
                  help="active rotation axes of every option's pose (default by difficulty: easy 1, medium 2, "
                       "hard 3; paper B.9)"),
        Parameter("angles", "str", None, choices=("right", "oblique"),
                  help="angle set per active axis: right = 90/180/270 degrees; oblique = +-60/90/120 with at least "
                       "one off the right-angle grid, giving off-grid views (default: right, hard oblique)"),
        Parameter("colouring", "str", None, choices=("mono", "varied"),
                  help="mono = all cubes white; varied = each cube coloured, which enables the swapped-colour "
                       "foil (default: easy mono, otherwise varied)"),
        Parameter("cubes", "int", None, minimum=6, maximum=10,
                  help="cubes in the polycube (default by difficulty: easy 6-7, medium 7-8, hard 8-10)"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='one active rotation axis, right angles, one-colour cubes, 6-7 cubes',
        hard='three active axes, oblique angles (60/120 degrees), varied colours, 8-10 cubes',
        proxy='active rotation axes, plus one for oblique angles and a tenth of a point per cube',
        medium='two axes, right angles, varied colours, 7-8 cubes',
    ),
)
