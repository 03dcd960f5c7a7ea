"""Description of the Mental Composition task (MC, paper §3.2 and App. C; spec §2.8): which 3D solid does the
flat net labelled "Original Shape" fold into?"""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

TASK = Task(
    family="mindseye",
    name="mental-composition",
    version="0.2.4",
    answer_type="option",
    category="transformation",
    description=(
        "Mind's Eye Mental Composition (MC): a valid net (cube, cuboid, triangular prism, square pyramid, cone; "
        "harder items tetrahedron, octahedron, dodecahedron, icosahedron) labelled Original Shape above four "
        "shaded 3D solids A-D; exactly one is what the net folds into.  The four solids are a kind and the same "
        "kind in other proportions, a solid with a similar number of faces, and another solid; the net comes "
        "from any of them, so the options alone do not give the answer away.  With colour confounds the net "
        "wears the colour of one solid, the right one only as often as chance."
    ),
    implementation="bench_plugin_mindseye.mental_composition:TASK",
    parameters=(
        *common_parameters(),
        Parameter("solids", "str", None, choices=("simple", "mixed", "complex"),
                  help="which solids the net and the options come from (with their proportion variants): simple = "
                       "cube, cuboid, triangular prism, square pyramid, cone; complex = tetrahedron, octahedron, "
                       "dodecahedron, icosahedron; mixed = all nine (default by difficulty: easy simple, medium "
                       "mixed, hard complex)"),
        Parameter("colour_confound", "bool", None,
                  help="four solid colours, the net in the colour of one solid (the right one as often as chance "
                       "predicts); off = net and solids share one colour (default: off for easy, on otherwise)"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='simple solids (cube, cuboid, prisms), no colour confound',
        hard='complex solids (octahedron, dodecahedron, icosahedron ...) with the net coloured like one foil',
        proxy='solid tier (simple 0, mixed 1, complex 2) plus one for the colour confound',
        medium='all nine solids, colour confound',
    ),
)
