"""Description of ``sphinx/missing-tiles`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

TILINGS = ("square", "triangular", "hexagonal", "rhombille")
VARIANTS = ("color", "shape")

TASK = Task(
    family=FAMILY,
    name="missing-tiles",
    version="0.1.0",
    answer_type="option",
    category="topology",
    description=(
        "A tiling with a connected blank region and four option cards: which option restores the region's "
        "colours from the board's periodic colouring (color), or is the missing piece up to rotation and "
        "reflection (shape)? Square, triangular, hexagonal and rhombille boards of 16-64 cells. SPHINX task 24, "
        "paper B.5.4; the verifier infers the colour pattern's periods from the visible cells' pixels and "
        "tests congruence by its own search."
    ),
    implementation="bench_plugin_sphinx.missing_tiles:TASK",
    parameters=(
        Parameter("tiling", "str", None, choices=TILINGS,
                  help="the tiling (default: each once per seeded cycle of four, so any four consecutive items "
                       "show all four)"),
        Parameter("variant", "str", None, choices=VARIANTS,
                  help="color: restore the periodic colours; shape: find the missing piece (default: the two "
                       "alternately, in a seeded order)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="a 16-cell board",
        hardest="a 64-cell board",
        mapping="the paper's complexity: the board's cell count n (16..64), c = (n - 16) / 48; a board size "
                "nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75)",
        proxy="the number of board cells",
        aliases=ALIASES,
    ),
)
