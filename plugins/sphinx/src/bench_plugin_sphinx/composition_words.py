"""The words of ``sphinx/tiles-composition``: per mode, the sentence that says what the picture shows and the
question stems (the paper's prompts first, then paraphrases).  Plain data, read by the generator and by the
verifier alike."""

from __future__ import annotations

MODES = ("decompose", "compose")

CONTEXT = {
    "decompose": ("The top figure is one connected shape made of cells. Each option (a)–(d) below is a set of "
                  "separate pieces made of the same cells. Pieces may be rotated or flipped; each piece must be "
                  "used exactly once, and pieces may not overlap or leave gaps."),
    "compose": ("The top figure is a set of separate pieces made of cells. Each option (a)–(d) below is one "
                "connected shape made of the same cells. Pieces may be rotated or flipped; each piece must be "
                "used exactly once, and pieces may not overlap or leave gaps."),
}

STEMS: dict[str, tuple[str, ...]] = {
    "decompose": (
        "Pick the option whose multiset of pieces equals that of the top tile; orientation is free (rotate/flip "
        "allowed).",
        "Which option's pieces can be put together to form exactly the top shape?",
        "Which set of pieces (a)–(d) assembles into the shape on top?",
        "The top shape was cut into pieces. Which option shows those pieces?",
        "Which option can be fitted together, without gaps or overlaps, into the top figure?",
        "Which of the four sets of pieces tiles the top shape exactly?",
    ),
    "compose": (
        "Which candidate equals the union of all top pieces (after rotation/flip), with no gaps or overlaps?",
        "Which option is the shape that the top pieces form when they are put together?",
        "Which shape (a)–(d) can be built from exactly the pieces shown on top?",
        "The top pieces were cut from one of the shapes below. Which one?",
        "Which option can be tiled exactly by the top pieces, each used once?",
        "Which of the four shapes do the top pieces assemble into?",
    ),
}

INSTRUCTION = "Answer with one letter (a–d)."


def question(mode: str, stem: str) -> str:
    """The whole question: what the picture shows, the stem, the answer instruction."""
    return f"{CONTEXT[mode]} {stem} {INSTRUCTION}"


def mode_of(text: str) -> str | None:
    """The mode whose context sentence and a stem open ``text``, or None."""
    for mode in MODES:
        if text.startswith(CONTEXT[mode] + " ") and any(f" {s} " in text for s in STEMS[mode]):
            return mode
    return None
