"""The words of ``polaris/checkpoint-paths``: one question per rendering from the shared C/P vocabulary
(``kit.text``), so the two questions of a pair differ only by that map."""

from __future__ import annotations

from bench_plugin_polaris.kit import text

STEMS = (
    "How many different paths lead from X to Y through the checkpoint?",
    "How many distinct routes can the robot take from X to Y that pass the checkpoint?",
    "In how many different ways can the robot travel from X to Y, visiting the checkpoint on the way?",
    "Count the different move sequences that take the robot from X to the checkpoint and on to Y. How many are "
    "there?",
)


def question(variant: str, rows: int, cols: int, stem: str) -> str:
    """The question of one rendering: the board, numbering, X and Y, the two moves (Right/Down; CW/In), the
    checkpoint, the gaps, the boundary (bounded: the seam wall) and the answer format."""
    cell, cells = text.word(variant, "cell"), text.word(variant, "cells")
    right, down = text.word(variant, "Right"), text.word(variant, "Down")
    column, row = text.word(variant, "column"), text.word(variant, "row")
    sideways = "to the right" if variant == "cartesian" else text.word(variant, "right")
    parts = [
        f"The picture shows {text.dims_phrase(variant, rows, cols)}.",
        text.numbering(variant),
        f"A robot starts on the {cell} marked X and must reach the {cell} marked Y.",
        f"Each move goes one {cell} {right} (one {column} {sideways}) or {down} (one {row} "
        f"{text.word(variant, 'down')}); no other moves are allowed.",
        f"The robot must pass through the checkpoint: the {cell} marked with a green downward triangle.",
        f"Dark grey {cells} are gaps: the robot cannot enter them.",
        text.boundary_sentence(variant, "bounded"),
        stem,
        text.answer_format("integer", variant),
    ]
    return " ".join(parts)
