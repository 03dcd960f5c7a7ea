"""Description of ``sphinx/tiles-connected-component`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "hexagonal", "circles", "triangular", "rhombille")
MEASURES = ("size_largest", "size_smallest", "count_components")

TASK = Task(
    family=FAMILY,
    name="tiles-connected-component",
    version="0.1.1",
    answer_type="integer",
    category="topology",
    description=(
        "The size of the largest or smallest connected component of one colour, or how many components it has, on "
        "a board whose cells take 2..6 colours at random (shared-edge adjacency; disks touch). The asked extreme "
        "is unique. SPHINX task 22, paper B.5.2; the components are flood-filled on the picture's own cell graph."
    ),
    implementation="bench_plugin_sphinx.tiles_connected_component:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: the five in one seeded order, repeated)"),
        Parameter("measure", "str", None, choices=MEASURES,
                  help="what is asked (default: the three in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="one component of the asked colour (extremes: two)",
        hardest="six components of the asked colour",
        mapping="the paper's complexity: the number of components n of the asked colour over 1..6, "
                "c = (n - 1) / 5; the count nearest the level within the paper's bin (easy c < 0.75, hard "
                "c >= 0.75)",
        proxy="the number of components of the asked colour",
        aliases=ALIASES,
    ),
)
