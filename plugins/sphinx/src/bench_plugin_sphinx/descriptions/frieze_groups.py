"""Description of ``sphinx/frieze-groups`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, PRESETS

GROUPS = ("p11g", "p1m1", "p11m", "p2", "p2mg", "p2mm")
#: Families whose asymmetric draws are mostly without any symmetry of their own (at any angle) and change clearly
#: under a mirror, a flip and a half-turn.  Left out: those whose asymmetry is a small notch, tip or gap on an
#: otherwise symmetric shape, or that are symmetric across a line (crescents, dots, gears, keyholes, pinwheels,
#: plain, star and concentric polygons, rings, segments, stripes), and ladders (their draws are too alike to
#: give four strips four distinct motifs).
FRIEZE_FAMILIES = ("arc", "arrow", "bars", "bitgrid", "clock", "fractal", "glyph", "pictogram", "polyhex",
                   "polyiamond", "polyline", "polyomino")
COPIES = (5, 8)

TASK = Task(
    family=FAMILY,
    name="frieze-groups",
    version="0.1.2",
    answer_type="option",
    category="symmetry",
    description=(
        "Four strips, each a frieze of one asymmetric motif; three share a frieze symmetry group and one does "
        "not: which? The paper's six groups (step, sidle, jump, spinning hop, spinning sidle, spinning jump; "
        "SPHINX task 13, paper B.3.3), each strip the orbit of one copy under the group's true generators; the "
        "verifier reads every strip's group back from its pixels."
    ),
    implementation="bench_plugin_sphinx.frieze_groups:TASK",
    parameters=(
        Parameter("majority", "str", None, choices=GROUPS,
                  help="IUC name of the group three strips share (default: the six in one seeded order, repeated)"),
        Parameter("odd", "str", None, choices=GROUPS,
                  help="IUC name of the odd strip's group (default: the six in a second seeded order, repeated, "
                       "matched to the majority's so that every pair can share a layout)"),
        Parameter("motif", "str", None, choices=FRIEZE_FAMILIES,
                  help="motif family of the strips (default: the families in one seeded order, repeated)"),
        Parameter("copies", "int", None, minimum=COPIES[0], maximum=COPIES[1],
                  help="steps along each strip, one copy (or a column of two) each (default: drawn from 5..8)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="the odd strip shows its motif in a different number of orientations (2 against 4)",
        hardest="the same number of orientations and the same half-turns: only where the mirrors and glides lie "
                "tells the odd strip apart",
        mapping="the paper measures no complexity for this task; ours is the pair's tier t (0: the groups show "
                "the motif in different numbers of orientations; 1: in the same number, but one group has "
                "half-turns and the other not; 2: the same number and the same half-turns), c = t / 2, the tier "
                "nearest the level within the paper's bin (easy c < 0.75, hard c >= 0.75); set majority/odd or "
                "difficulty, not both",
        proxy="the majority/odd pair's tier (0, 1, 2)",
        aliases=ALIASES,
    ),
)
