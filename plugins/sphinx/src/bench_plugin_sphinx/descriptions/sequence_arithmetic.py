"""Description of ``sphinx/sequence-arithmetic`` (light: imports only bench_core)."""

from __future__ import annotations

from bench_core import Difficulty, Parameter, Task
from bench_plugin_sphinx.descriptions.common import ALIASES, FAMILY, MOTIF_FAMILIES, PRESETS

#: Families left out: thin line drawings that ink too little of a small copy's cell to be counted at a glance
#: (arc, arrow, clock, glyph, ladder, polyline, segment, star polygon: one copy more or less changes under 0.4 %
#: of a panel) and the pinwheel, whose blades can draw as separate pieces at copy size.
THIN = ("arc", "arrow", "clock", "glyph", "ladder", "pinwheel", "polyline", "segment", "star_polygon")
#: Motif families drawn: the kit's other 15 and icons.
ARITHMETIC_FAMILIES = (*(f for f in MOTIF_FAMILIES if f not in THIN), "icons")

TASK = Task(
    family=FAMILY,
    name="sequence-arithmetic",
    version="0.1.0",
    answer_type="option",
    category="sequence",
    description=(
        "A row of four panels holds copies of one motif whose number changes by a constant step (0 to 3, up or "
        "down), one panel blank: which of four option panels fills it? SPHINX task 19, paper B.4.5; the verifier "
        "counts the copies on the pixels."
    ),
    implementation="bench_plugin_sphinx.sequence_arithmetic:TASK",
    parameters=(
        Parameter("step", "int", None, choices=(0, 1, 2, 3),
                  help="copies added or removed from each panel to the next (default: the four in one seeded order, "
                       "repeated)"),
        Parameter("direction", "str", None, choices=("increasing", "decreasing"),
                  help="whether the counts go up or down left to right (default: alternating, so every eight items "
                       "show the eight step/direction pairs; a step of 0 keeps the count)"),
        Parameter("motif", "str", None, choices=ARITHMETIC_FAMILIES,
                  help="motif family (default: the families in one seeded order, repeated)"),
        *PRESETS,
    ),
    difficulty=Difficulty(
        easiest="at most 3 copies in a panel",
        hardest="18 copies in the fullest panel",
        mapping="the paper's: the largest count of the row, c = (max - 3) / (18 - 3); row counts stay in 1..18, "
                "so easy is c < 0.75 (max up to 14) and hard c >= 0.75 (max 15..18)",
        proxy="the largest count of the row",
        aliases=ALIASES,
    ),
)
