"""Description of ``sphinx/shape-counting`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

SHAPES = ("squares", "rectangles", "parallelograms", "triangles")
#: The figure generators (shape_figures.FIGURES, kept equal by a test).
FIGURES = ("grid_regular", "grid_irregular", "polyomino_axis", "staircase", "inscribed", "skew_regular",
           "skew_irregular", "polyomino_skew", "tri_lattice")

TASK = Task(
    family=FAMILY,
    name="shape-counting",
    version="0.1.0",
    answer_type="integer",
    category="counting",
    description=(
        "How many squares (rectangles, parallelograms, triangles) does a connected line figure hold: grids with "
        "or without dropped lines, polyominoes, staircases, nested squares and circles, sheared grids and "
        "subdivided triangles? SPHINX task 7, paper B.2.2; answers 5..20, recounted on the pixels by brute force."
    ),
    implementation="bench_plugin_sphinx.shape_counting:TASK",
    parameters=(
        Parameter("shape", "str", None, choices=SHAPES,
                  help="the shape to count (default: the four in one seeded order, repeated)"),
        Parameter("figure", "str", None, choices=FIGURES,
                  help="the figure generator (default: the shape's figures in a seeded order, its n-th item the "
                       "n-th; with a difficulty level drawn among them, irregular ones weighted x1.35); squares: "
                       "grid_regular, grid_irregular, polyomino_axis, staircase, inscribed; "
                       "rectangles: grid_regular, grid_irregular, polyomino_axis; parallelograms: skew_regular, "
                       "skew_irregular, polyomino_skew; triangles: tri_lattice"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="5 shapes to count",
        hardest="20 shapes to count",
        mapping="the paper's complexity: the answer n (5..20), c = (n - 5) / 15; figures are drawn until the "
                "count lies in the level's bin (easy c < 0.75, hard c >= 0.75) and near the level",
        proxy="the number of shapes to count (the answer)",
        aliases=ALIASES,
    ),
)
