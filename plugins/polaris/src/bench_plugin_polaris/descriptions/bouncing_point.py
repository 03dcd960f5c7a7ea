"""Description of ``polaris/bouncing-point`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_polaris.descriptions.common import CATEGORIES, FAMILY, VARIANT

TASK = Task(
    family=FAMILY,
    name="bouncing-point",
    version="0.1.1",
    answer_type="coordinate",
    category=CATEGORIES["ALS"],
    description=(
        "A point with a velocity arrow (one column and at most one row per step) on a 5-8 x 6-9 board: which "
        "cell after N = 10-60 steps? The Cartesian point bounces off all four borders, the polar one off the "
        "inner and outer circles while looping round the angle, so the cells differ (partially aligned; "
        "other_answer records the other). Answer (row, column) / (ring, sector), ring 1 = row 1. Polaris-Bench "
        "ALS, motion and trajectory prediction; wrapping. Verified by closed-form unfolding and on the pixels."
    ),
    implementation="bench_plugin_polaris.bouncing_point:TASK",
    parameters=(
        VARIANT,
        Parameter("rows", "int", None, minimum=5, maximum=8,
                  help="rows (polar: rings); default: drawn"),
        Parameter("cols", "int", None, minimum=6, maximum=9,
                  help="columns (polar: sectors); default: drawn"),
        Parameter("steps", "int", None, minimum=10, maximum=60,
                  help="steps N; default: drawn, or set by difficulty"),
    ),
    difficulty=Difficulty(
        easiest="10 steps",
        hardest="60 steps",
        mapping="steps = 10 + 50 * level (rounded); a set steps wins",
        proxy="the number of steps",
    ),
)
