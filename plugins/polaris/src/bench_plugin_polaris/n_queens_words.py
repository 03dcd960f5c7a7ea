"""The words of ``polaris/n-queens``: one question per rendering from the shared C/P vocabulary (``kit.text``),
so the two questions of a pair differ only by that map.  Plain data and string building, read by the generator
and by the verifier alike."""

from __future__ import annotations

from collections.abc import Sequence

from bench_plugin_polaris.kit import text

#: Paraphrases of the question itself ({row}: "row 3" / "ring 3"); one is drawn per pair.
STEMS = (
    "In which {cell} must the missing queen of {row} go?",
    "Where must the queen that is missing from {row} be placed?",
    "Which {cell} of {row} holds a queen in the completed board?",
    "Complete the board: in which {cell} does the queen of {row} stand?",
)


def attack_sentence(variant: str) -> str:
    """How queens attack in ``variant``'s words (the polar diagonals defined in index terms, spec card 48)."""
    if variant == "cartesian":
        return ("Two queens attack each other when they share a row, a column or a diagonal (a line of squares "
                "going one row and one column at a time).")
    return ("Two queens attack each other when they share a ring, a sector or a diagonal: a diagonal is a line "
            "of cells going one ring (in or out) and one sector (clockwise or counter-clockwise) at a time. "
            "Diagonals stop at the thick wall at 12 o'clock: they do not continue from the last sector into "
            "sector 1.")


def row_name(variant: str, row: int) -> str:
    """"row 3" / "ring 3" for the 0-based row ``row`` (orientation "in": ring = row)."""
    return f"{text.word(variant, 'row')} {row + 1}"


def option_text(row: int, col: int) -> str:
    """An option: the 1-based cell "(3, 5)", read as (row, column) or (ring, sector) as the question says."""
    return f"({row + 1}, {col + 1})"


def question(variant: str, n: int, target: int, missing: int, stem: str, letters: Sequence[str],
             contents: Sequence[str]) -> str:
    """The whole question of one rendering."""
    cell, cells = text.word(variant, "cell"), text.word(variant, "cells")
    rows, columns = text.word(variant, "rows"), text.word(variant, "columns")
    parts = [
        f"The picture shows {text.dims_phrase(variant, n, n)} with {n - missing} queens on it.",
        text.numbering(variant, "in"),
        f"A complete board holds {n} queens, one in every {text.word(variant, 'row')} and one in every "
        f"{text.word(variant, 'column')}, no two attacking each other.",
        attack_sentence(variant),
        f"{missing} queens are missing, and the queens shown can be completed in exactly one way.",
        f"The numbers beside the {text.word(variant, 'grid')} number its {rows} and {columns}; the {cells} "
        "themselves are unlabelled.",
        stem.format(cell=cell, row=row_name(variant, target)),
        f"Each option gives a {cell} as ({text.word(variant, 'row')}, {text.word(variant, 'column')}).",
        text.options_sentence(contents, letters),
        text.answer_format("option", variant, letters),
    ]
    return " ".join(parts)
