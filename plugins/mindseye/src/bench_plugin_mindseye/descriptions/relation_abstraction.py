"""Description of VRA, Visual Relation Abstraction (paper App. C, Table 11; spec §2.1)."""

from __future__ import annotations

from bench_core import Parameter, Task
from bench_plugin_mindseye.descriptions.common import PROMPT_STYLES, common_parameters, tiers

#: The shape attributes a VRA item can be about (the Bongard-LOGO vocabulary of the paper's hint, Fig 19).
CONCEPTS = ("acute", "closed", "convex", "crossing", "curved", "lines", "quadrangle", "regular", "sector", "straight",
            "symmetric", "triangle", "two-parts")

TASK = Task(
    family="mindseye",
    name="relation-abstraction",
    version="0.2.3",
    answer_type="option",
    category="abstraction",
    description=(
        "Bongard-style concept induction: six line drawings (A-F), five share a shape attribute (closed, convex, "
        "curved, straight only, symmetric, crossing lines, two parts, k straight lines, acute angle, triangle, "
        "quadrangle, regular polygon, sector); which one lacks it?  Easy: one attribute, a far negative; medium: "
        "one attribute, a near-miss negative; hard: an attribute pair and a closer near miss."
    ),
    implementation="bench_plugin_mindseye.relation_abstraction:TASK",
    parameters=(
        *common_parameters(),
        Parameter("concept", "str", None, choices=CONCEPTS,
                  help="the attribute the positives share (default: spread over the items, any 13 in a row show all "
                       "13); hard items pair it with a second attribute that all six figures share"),
    ),
    variants=PROMPT_STYLES,
    difficulty=tiers(
        easy='one attribute, a far negative (a figure of another kind)',
        hard='an attribute pair and a near-miss negative with a small edit',
        proxy='attributes in the concept, plus one for a near-miss negative, plus how small its edit is',
        medium='one attribute, a near-miss negative',
    ),
)
