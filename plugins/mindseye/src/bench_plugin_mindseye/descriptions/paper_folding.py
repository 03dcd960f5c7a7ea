"""Description of the Paper Folding task (PF, paper App. C and Table 11; spec §2.7): which unfolded sheet shows
the holes punched through a sheet folded twice?"""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

TASK = Task(
    family="mindseye",
    name="paper-folding",
    version="0.2.4",
    answer_type="option",
    category="transformation",
    description=(
        "Mind's Eye Paper Folding (PF): a square or hexagonal sheet is folded twice (the part turned over shaded "
        "grey), a hole is punched through the folded stack, and four unfolded sheets A-D are offered; exactly one "
        "shows a hole for every layer under the punch, mirrored back across the real fold lines.  Wrong options: "
        "one hole missing or one too many, the punch through only one side of the last fold, the first fold or no "
        "fold unfolded, one fold undone about the wrong axis, the pattern turned about the sheet centre, a punch "
        "read at the wrong place or twice, one hole moved, the pattern also unfolded about an axis never folded.  "
        "The three foils are two such errors alone and both together, so no option is the one the others resemble, "
        "and they are drawn so that the answer's hole count (and so its ink) and its layout (where the holes sit, "
        "their spread and elongation, how alike the options look) say nothing about it."
    ),
    implementation="bench_plugin_mindseye.paper_folding:TASK",
    parameters=(
        *common_parameters(),
        Parameter("sheet", "str", None, choices=("square", "hexagon"),
                  help="sheet shape (default: drawn to match the difficulty; a hexagon adds one knob point)"),
        Parameter("fold_group", "str", None, choices=("vh", "diagonal"),
                  help="fold lines: vertical/horizontal, or diagonal (the square's diagonals, the hexagon's oblique "
                       "axes); default drawn to match the difficulty, diagonal adds one knob point"),
        Parameter("punches", "int", None, choices=(1, 2),
                  help="holes punched through the folded stack (default drawn to match the difficulty; the paper "
                       "punches one, a second adds one knob point).  Knob points: easy 0, medium 1, hard 2-3"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='a square sheet folded vertically/horizontally, one punch (0 knob points)',
        hard='two or three knob points of: a hexagonal sheet, diagonal folds, a second punch',
        proxy='knob points: a hexagonal sheet, diagonal folds, each punch beyond the first',
        medium='one knob point',
    ),
)
