"""The words of ``sphinx/tiles-recoloring``: the question stems (the paper's "How many cells differ in color
between the left and right panels (including presence vs. absence)?" and paraphrases) and the rule that
says what counts.  Plain data, read by the generator and by the verifier alike."""

from __future__ import annotations

STEMS = (
    "How many cells differ in colour between the left and right boards?",
    "Compare the two boards cell by cell. How many cells have a different colour on the right than on the left?",
    "Two copies of one tiling are shown side by side. In how many cells do their colours differ?",
    "Count the cells whose colour changed from the left board to the right board.",
    "How many cells of the right board are coloured differently from the same cells of the left board?",
    "What is the number of cells that differ between the left and the right panel?",
    "The right board is a modified copy of the left one. How many cells were changed?",
    "Count the differing cells between the two boards.",
)

RULE = ("A cell counts as different when its colour differs between the two boards, including a cell that is "
        "coloured on one board and blank (white) on the other; the boards have the same cells in the same "
        "places.")
CIRCLES_NOTE = "Each disk is one cell."
ANSWER = "Answer with an integer."


def question(stem: str, circles: bool) -> str:
    return " ".join([stem, RULE, *([CIRCLES_NOTE] if circles else []), ANSWER])
