"""The words of ``sphinx/wallpaper-groups``: its seventeen groups, the definition every question states, and the
stems (the paper's wording first).  Plain data, read by the generator and by the verifier alike."""

from __future__ import annotations

#: The seventeen wallpaper groups (IUC names, paper B.3.4).
GROUPS = ("p1", "p2", "pm", "pg", "cm", "pmm", "pmg", "pgg", "cmm", "p4", "p4m", "p4g", "p3", "p3m1", "p31m",
          "p6", "p6m")

#: What a wallpaper group is, stated in every question.
DEFINITION = (
    "Each panel (a)–(d) is a patch of a wallpaper pattern: one motif repeated over the plane by sliding it in two "
    "directions, possibly also turned (by a half, a third, a quarter or a sixth of a turn), mirrored, or mirrored "
    "and slid along the mirror line (a glide). These symmetries make up the pattern's wallpaper group; motif "
    "shape, colour and size do not matter."
)

#: Question stems.
STEMS = (
    "Three panels follow one wallpaper rule, while one uses another. Which panel (a–d) in the 2×2 grid is different?",
    "Which patch in the 2×2 grid (a–d) does not share the wallpaper symmetry group of the other three?",
    "Three of the four patterns have the same wallpaper group. Which one does not?",
    "Look at the turns, mirrors and glides in each patch. Which patch breaks the rule the other three follow?",
    "Identify the odd patch out: its wallpaper symmetry differs from that of the other three.",
    "Which of the four wallpaper patches (a–d) belongs to a different symmetry group?",
    "Only one panel is built with a different set of symmetries. Which panel is it?",
    "Three patches repeat their motif under the same wallpaper group and one under another. Select it (a–d).",
)
