"""Description of ``polaris/bounded-knight-paths`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="bounded-knight-paths",
    version="0.1.1",
    answer_type="integer",
    category=CATEGORIES["CP"],
    description=(
        "Polaris task 41 (Combinatorics & Probability > Bounded Combinatorics; bounded, fully aligned): a knight "
        "and a target on a Cartesian grid or on rings and sectors with a seam wall at 12 o'clock; how many "
        "sequences of exactly K knight's moves (2-4; cells may repeat) take the knight to the target?  The "
        "wrapping reading always gives another count, so the wall decides.  Verified by enumerating the move "
        "sequences and reading the knight, the target and the walls back through the layout's inverse map."
    ),
    implementation="bench_plugin_polaris.knight_paths:BOUNDED",
    parameters=(VARIANT,),
    difficulty=Difficulty(
        easiest="exactly 2 knight's moves",
        hardest="exactly 4 knight's moves",
        mapping="K = 2 for levels below 1/3, 3 below 2/3, 4 above",
        proxy="the number of knight's moves K",
    ),
)
