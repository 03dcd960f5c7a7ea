"""The words of ``sphinx/frieze-groups``: its six groups, the definition every question states, and the
stems (the paper's two wordings first).  Plain data, read by the generator and by the verifier alike."""

from __future__ import annotations

#: The paper's six frieze groups (B.3.3; hop, p1, is left out), IUC name -> Conway name.
GROUPS: dict[str, str] = {
    "p11g": "step",
    "p1m1": "sidle",
    "p11m": "jump",
    "p2": "spinning hop",
    "p2mg": "spinning sidle",
    "p2mm": "spinning jump",
}

#: What a frieze group is, stated in every question.
DEFINITION = (
    "Each strip (a)–(d) repeats one motif along a horizontal line. How the copies relate to their neighbours "
    "fixes the strip's frieze symmetry: besides sliding along the strip, a copy may be mirrored across a "
    "vertical line, mirrored across the strip's horizontal centre line, turned half a turn, or mirrored across "
    "the centre line and slid (a glide). Motif shape, colour and spacing do not matter."
)

#: Question stems.
STEMS = (
    "Compare the neighbor relations in each strip. Which single strip doesn't match the other three?",
    "Only one strip uses a different symmetry between adjacent motifs. Select it (a–d).",
    "Three strips follow the same frieze symmetry rule and one follows another. Which strip is the odd one out?",
    "Which strip (a–d) belongs to a different frieze symmetry group from the other three?",
    "Look at how each copy relates to the copies next to it. Which strip breaks the rule the other three share?",
    "Three of the four strips have the same symmetry group. Which strip does not?",
    "Identify the strip whose frieze symmetry differs from that of the other three.",
    "Which strip's combination of mirrors, half-turns and glides is not the one the other strips share?",
)
