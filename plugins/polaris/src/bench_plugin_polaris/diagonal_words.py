"""The words of the two diagonal-path tasks (bounded and wrapping): one question per rendering, built from the
shared C/P vocabulary (``kit.text``) so the two questions of a pair differ only by that map."""

from __future__ import annotations

from bench_plugin_polaris.kit import text

#: Paraphrases of the question itself; one is drawn per pair (both items use it).
STEMS = (
    "How many different paths lead from P to Q?",
    "How many distinct routes take the checker from P to Q?",
    "In how many different ways can the checker travel from P to Q?",
    "Count the different move sequences that bring the checker from P to Q. How many are there?",
)


def question(variant: str, rows: int, cols: int, *, boundary: str, wraps: bool, blocked: bool, checkered: bool,
             stem: str) -> str:
    """The question of one rendering: the board, numbering, the checker's start (top row / outermost ring) and
    goal (bottom row / innermost ring), the forward diagonal move, blocked cells, the boundary and the format."""
    cell, cells = text.word(variant, "cell"), text.word(variant, "cells")
    top, bottom = text.word(variant, "top"), text.word(variant, "bottom")
    row = text.word(variant, "row")
    parts = [
        f"The picture shows {text.dims_phrase(variant, rows, cols)}.",
        text.numbering(variant),
        f"A checker starts on the {cell} marked P in the {top} {row} and must reach the {cell} marked Q in the "
        f"{bottom} {row}.",
        text.moves_sentence(variant, "forward_diagonal"),
    ]
    if checkered:
        parts.append(f"The {cells} are coloured in an alternating (checkerboard) pattern, so every move stays on "
                     "the same colour.")
    if blocked:
        parts.append(f"Dark grey {cells} are blocked: the checker cannot enter them.")
    parts.append(text.boundary_sentence(variant, boundary, wraps=wraps))
    parts += [stem, text.answer_format("integer", variant)]
    return " ".join(parts)
