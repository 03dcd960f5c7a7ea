"""The words of ``sphinx/symmetry-fill``: its five rules, how a question names each, and the stems.  Plain
data, read by the generator and by the verifier alike."""

from __future__ import annotations

#: The five rules (paper B.3.2): the mirror line(s) of the whole 2 x 2 grid.
RULES = ("vertical", "horizontal", "both-axes", "main-diagonal", "anti-diagonal")

#: How a question names the symmetry each rule asks of the completed grid.
PHRASES: dict[str, str] = {
    "vertical": "mirror symmetry across its vertical centre line (the left and right halves are mirror images)",
    "horizontal": "mirror symmetry across its horizontal centre line (the top and bottom halves are mirror images)",
    "both-axes": "vertical + horizontal mirror symmetry (mirror images across both centre lines)",
    "main-diagonal": "mirror symmetry across its main diagonal (↘, from the top-left corner to the bottom-right one)",
    "anti-diagonal": "mirror symmetry across its anti-diagonal (↙, from the top-right corner to the bottom-left one)",
}

#: Question stems; ``{rule}`` is replaced by the rule's phrase.
STEMS = (
    "Which option (a)–(d) completes the left 2×2 grid with {rule}?",
    "The black tile of the left 2×2 grid is missing. Which option (a)–(d) fills it so that the whole grid has {rule}?",
    "Fill the blacked-out cell of the 2×2 grid on the left. The completed grid must have {rule}. Which option (a)–(d) "
    "fits?",
    "One tile of the left 2×2 grid is hidden (solid black). Pick the option (a)–(d) that restores {rule} of the whole "
    "grid.",
    "Which of the tiles (a)–(d) on the right, placed in the black cell, gives the left 2×2 grid {rule}?",
    "Complete the 2×2 grid on the left: the finished grid has {rule}. Which option (a)–(d) belongs in the black cell?",
)
