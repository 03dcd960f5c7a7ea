"""Description of ``polaris/path-counting`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="path-counting",
    version="0.1.1",
    answer_type="option",
    category=CATEGORIES["CP"],
    description=(
        "Polaris task 39 (Combinatorics & Probability > Bounded Combinatorics; bounded, fully aligned): a grid "
        "with a start P, a goal Q and grey blocked cells, drawn as a Cartesian grid or as rings and sectors with "
        "a seam wall at 12 o'clock; how many distinct shortest paths lead from P to Q?  Five numeric options; "
        "none is right under the wrapping reading.  Verified by enumerating the paths depth-first and reading "
        "the grey cells, P, Q and the walls back through the layout's inverse map."
    ),
    implementation="bench_plugin_polaris.path_counting:TASK",
    parameters=(VARIANT,),
    difficulty=Difficulty(
        easiest="P and Q 5 steps apart",
        hardest="P and Q 10 steps apart",
        mapping="the shortest distance d = 5 + round(5 * level) steps",
        proxy="the shortest distance from P to Q in steps",
    ),
)
