"""Description of VCS, Visual Conceptual Slippage (paper App. C, Table 11; spec §2.4)."""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

#: The concepts of the paper's Table 11 (word = word symmetry: a word written mirrored breaks it).
CONCEPTS = ("spacing", "alignment", "number", "enclosure", "symmetry", "topology", "border", "hollowness", "word")

TASK = Task(
    family="mindseye",
    name="conceptual-slippage",
    version="0.2.3",
    answer_type="option",
    category="relation",
    description=(
        "Odd one out over six panels (A-F): five follow one concept (equal spacing, alignment, number, enclosure, "
        "mirror symmetry, closed outlines, border thickness, filled or hollow, words written the right way round) "
        "while shapes, colours, sizes and counts slip; one breaks it.  Easy: one shape kind, strong violation; "
        "medium: kinds vary per panel; hard: kinds and colours mix inside panels and the violation is weak."
    ),
    implementation="bench_plugin_mindseye.conceptual_slippage:TASK",
    parameters=(
        *common_parameters(),
        Parameter("concept", "str", None, choices=CONCEPTS,
                  help="the concept the five conforming panels share (default: spread over the items, any nine "
                       "in a row show all nine)"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='low slippage between the panels, a strong violation',
        hard='high slippage, a weak violation',
        proxy='slippage (low 0, medium 1, high 2) plus one for a weak violation',
        medium='medium slippage, a strong violation',
    ),
)
