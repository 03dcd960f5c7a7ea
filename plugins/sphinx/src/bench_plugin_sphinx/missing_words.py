"""The words of ``sphinx/missing-tiles``: per variant, the sentence that says what the picture shows and the
question stems (the paper's "Which option (a)–(d) restores the original colors of that region?" and "Which
option is the missing piece, if it can be rotated or flipped to fit?" first, then paraphrases).  Plain data,
read by the generator and by the verifier alike."""

from __future__ import annotations

VARIANTS = ("color", "shape")

CONTEXT = {
    "color": ("The board on top is coloured in a repeating pattern: every cell has the colour that the pattern "
              "gives its position. A connected group of cells has been blanked out (the white region). The four "
              "options (a)–(d) below show that region in the same position and orientation, coloured in "
              "different ways."),
    "shape": ("The board on top is a tiling of cells of one colour, from which a connected group of cells has "
              "been removed (the white region). The four options (a)–(d) below are pieces made of cells of the "
              "same tiling, each possibly turned or mirrored."),
}

STEMS: dict[str, tuple[str, ...]] = {
    "color": (
        "Which option (a)–(d) restores the original colors of that region?",
        "Which option fills the blank region with exactly the colours the pattern gives its cells?",
        "Following the board's repeating colour pattern, which option colours every blank cell correctly?",
        "Which of the options (a)–(d) continues the colour pattern into the blank region without a mistake?",
        "Which option gives each missing cell the colour it had before it was blanked out?",
        "Which option (a)–(d) completes the pattern, every missing cell in its correct colour?",
    ),
    "shape": (
        "Which option is the missing piece, if it can be rotated or flipped to fit?",
        "Which option (a)–(d) fills the white region exactly, after turning or mirroring it if needed?",
        "Which of the four pieces has exactly the shape of the removed region (rotations and reflections "
        "allowed)?",
        "Which piece can be turned or flipped so that it covers the white region exactly, with no gap and no "
        "overlap?",
        "Which option (a)–(d) is congruent to the blank region, allowing rotations and mirror images?",
        "The removed cells form one piece. Which option is that piece, possibly rotated or reflected?",
    ),
}

INSTRUCTION = "Answer with one letter (a–d)."


def question(variant: str, stem: str) -> str:
    """The whole question: what the picture shows, the stem, the answer instruction."""
    return f"{CONTEXT[variant]} {stem} {INSTRUCTION}"


def variant_of(text: str) -> str | None:
    """The variant whose context sentence and a stem open ``text``, or None."""
    for variant in VARIANTS:
        if text.startswith(CONTEXT[variant] + " ") and any(f" {s} " in text for s in STEMS[variant]):
            return variant
    return None
