"""The words of ``polaris/bounded-knight-paths`` and ``polaris/knight-paths``: the question in both vocabularies
and a small paraphrase bank (the two items of a pair take the same paraphrase)."""

from __future__ import annotations

from bench_plugin_polaris.kit import text
from bench_plugin_polaris.kit.draw import MARKER_COLOURS

#: The legend's colours: drawn by the task, read back by its verifier.
KNIGHT_COLOUR = MARKER_COLOURS["blue"]
TARGET_COLOUR = MARKER_COLOURS["vermilion"]

#: How the question asks; {k} is the number of moves.
STEMS = (
    "In how many different ways can the knight reach the target in exactly {k} moves?",
    "How many different sequences of exactly {k} knight's moves take the knight to the target?",
    "Count the knight's paths of exactly {k} moves that end on the target. How many are there?",
)


def question(variant: str, rows: int, cols: int, k: int, stem: int, boundary: str, wraps: bool) -> str:
    """The question of one rendering: the picture, the knight's move, the boundary reading, the ask and the
    answer format."""
    cell = text.word(variant, "cell")
    picture = (f"The image shows {text.dims_phrase(variant, rows, cols)} with a knight on one {cell} and a target "
               f"(a bullseye) on another.")
    rule = (f"{text.moves_sentence(variant, 'knight')} Every move must land on the {text.word(variant, 'grid')}; "
            f"along the way the knight may land on any {cell} any number of times (the start and the target "
            "too), and two paths are different when their sequences of moves differ.")
    return " ".join([picture, rule, text.boundary_sentence(variant, boundary, wraps), STEMS[stem].format(k=k),
                     text.answer_format("integer", variant)])


def legend(variant: str, k: int) -> list[str]:
    """The legend box's lines."""
    if variant == "cartesian":
        return [f"Knight = start, bullseye = target; exactly {k} moves",
                "Knight's move: 2 rows and 1 column, or 1 row and 2 columns"]
    return [f"Knight = start, bullseye = target; exactly {k} moves",
            "Knight's move: 2 rings and 1 sector, or 1 ring and 2 sectors"]
