"""The words of ``polaris/sudoku`` (after the paper's Figure 21): one question per rendering from the shared
C/P vocabulary (``kit.text``).  Plain data and string building, read by the generator and the verifier alike."""

from __future__ import annotations

from collections.abc import Sequence

from bench_plugin_polaris.kit import text

#: Paraphrases of the question itself ({cell}: "square" / "cell", {where}: "row 1, column 1"); one per pair.
STEMS = (
    "What number should replace the '?' in the highlighted {cell} ({where})?",
    "Which number belongs in the highlighted {cell} marked '?' ({where})?",
    "What is the value of the highlighted {cell} ({where}), shown as '?'?",
    "Solve the puzzle: which number goes in the highlighted {cell} with the '?' ({where})?",
)


def question(variant: str, size: int, target: Sequence[int], stem: str, letters: Sequence[str],
             contents: Sequence[str]) -> str:
    """The whole question of one rendering (target 0-based (row, column); orientation "in": ring = row)."""
    r, c = target
    if variant == "cartesian":
        rules = (f"In this {size}x{size} Sudoku puzzle, each row, each column, and each outlined box must contain "
                 f"all numbers from 1 to {size} exactly once. Rows are numbered 1 to {size} from top to bottom, and "
                 f"columns are numbered 1 to {size} from left to right.")
    else:
        rules = (f"In this polar Sudoku puzzle ({size} rings, {size} sectors), each ring, each sector, and each "
                 f"outlined region must contain all numbers from 1 to {size} exactly once. The rings are numbered "
                 f"1 to {size} from the innermost to the outermost ring. The sectors are numbered 1 to {size} "
                 "clockwise starting from the top (12 o'clock).")
    ask = stem.format(cell=text.word(variant, "cell"), where=text.cell_name(variant, r, c))
    return " ".join([rules, ask, text.options_sentence(contents, letters),
                     text.answer_format("option", variant, letters)])
