"""The words of ``polaris/path-counting``: the question in both vocabularies and a small paraphrase bank (the
two items of a pair take the same paraphrase)."""

from __future__ import annotations

from bench_plugin_polaris.kit import text
from bench_plugin_polaris.kit.draw import MARKER_COLOURS

#: The legend's colours: drawn by the task, read back by its verifier.
START_COLOUR = MARKER_COLOURS["orange"]
GOAL_COLOUR = MARKER_COLOURS["sky blue"]

#: How the question asks; {cells} is "squares" / "cells".
STEMS = (
    "How many different shortest paths lead from P to Q?",
    "Count the distinct shortest routes from P to Q. How many are there?",
    "How many different paths from P to Q use the fewest possible steps?",
)


def question(variant: str, rows: int, cols: int, stem: int, letters: str, contents: tuple[str, ...]) -> str:
    """The question of one rendering: the picture, the moves, the boundary, the ask, the options and the
    answer format."""
    cell, cells = text.word(variant, "cell"), text.word(variant, "cells")
    picture = (f"The image shows {text.dims_phrase(variant, rows, cols)} with a start {cell} P, a goal {cell} Q "
               f"and grey {cells}.")
    moves = (f"{text.moves_sentence(variant, 'orthogonal')} A path never enters a grey {cell}.")
    return " ".join([picture, moves, text.boundary_sentence(variant, "bounded"), STEMS[stem],
                     text.options_sentence(contents, letters), text.answer_format("option", variant, letters)])


def legend(variant: str) -> list[str]:
    """The legend box's lines."""
    if variant == "cartesian":
        return ["P = start, Q = goal, grey = blocked square", "Moves: Up, Down, Left, Right"]
    return ["P = start, Q = goal, grey = blocked cell", "Moves: Out, In, CW (clockwise), CCW (counter-clockwise)"]
