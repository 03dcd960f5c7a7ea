"""Description of ``polaris/random-walk`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="random-walk",
    version="0.1.1",
    answer_type="option",
    category=CATEGORIES["CP"],
    description=(
        "A walker goes from A to B on a street map, at every intersection taking one of the streets one block "
        "right or down (polar: clockwise or inward) that do not pass B's column or row, uniformly at random: "
        "what is the probability that it passes C? Five exact fractions as options, the walk's probabilities at "
        "intersections near C (the equal-paths rule never gives the answer). Polaris-Bench CP, stochastic "
        "processes; wrapping, partially aligned with the same answer: the polar map has 2-3 extra sectors and "
        "full circular streets. Verified by summing the listed routes' probabilities and reading the map off "
        "the pixels."
    ),
    implementation="bench_plugin_polaris.random_walk:TASK",
    parameters=(VARIANT,),
    difficulty=Difficulty(
        easiest="a box of 5 steps from A to B (2 x 3 or 3 x 2 blocks)",
        hardest="a box of 8 steps (4 x 4 blocks)",
        mapping="the level sets the steps from A to B (5..8; the box's split drawn)",
        proxy="the steps from A to B",
    ),
)
