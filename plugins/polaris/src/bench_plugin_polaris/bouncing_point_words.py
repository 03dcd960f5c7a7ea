"""The words of ``polaris/bouncing-point``: one question per rendering from the shared C/P vocabulary
(``kit.text``).  Plain data and string building, read by the generator and the verifier alike."""

from __future__ import annotations

from bench_plugin_polaris.kit import text

#: Paraphrases of the question itself ({steps}); one is drawn per pair.
STEMS = (
    "Where is the point after {steps} steps?",
    "In which {cell} is the point after {steps} steps?",
    "After {steps} steps, which {cell} holds the point?",
    "Which {cell} does the point reach after exactly {steps} steps?",
)


def question(variant: str, rows: int, cols: int, steps: int, stem: str) -> str:
    """The whole question of one rendering: the Cartesian point bounces off all four borders, the polar point
    off the inner and outer circles while it loops round the angle."""
    cell, cells = text.word(variant, "cell"), text.word(variant, "cells")
    row, column = text.word(variant, "row"), text.word(variant, "column")
    parts = [
        f"The picture shows {text.dims_phrase(variant, rows, cols)} with a point (the red disc) and its arrow.",
        text.numbering(variant, "in"),
        f"Each step the point moves by the same amount as the arrow shows, from the centre of its {cell} to the "
        f"centre of the {cell} the arrow points at (at most one {row} and one {column} at a time).",
    ]
    if variant == "cartesian":
        parts.append("The grid's border is a wall on all four sides: when a step would take the point across the "
                     "top or bottom border, its up/down motion reverses first, and when it would cross the left or "
                     "right border, its left/right motion reverses first; then the step is taken.")
    else:
        parts.append("The inner and outer circles are walls: when a step would take the point across one, its "
                     "inward/outward motion reverses first and then the step is taken. Round the circle there is "
                     "no wall: after the last sector the point moves on into sector 1 (and from sector 1 back "
                     "into the last sector).")
    parts += [f"The numbers beside the {text.word(variant, 'grid')} number its {text.word(variant, 'rows')} and "
              f"{text.word(variant, 'columns')}; the {cells} themselves are unlabelled.",
              stem.format(steps=steps, cell=cell), text.answer_format("coordinate", variant)]
    return " ".join(parts)
