"""Question texts in the paper's five prompt styles (§5.2, Figs 17-20, App. E), built from per-task
pieces.  The wording is ours; what each style asks for is the paper's."""

from __future__ import annotations

import attrs

STEP_BY_STEP = (
    "Reason step by step: first describe what each figure shows, then work out the rule or transformation "
    "involved, and only then choose."
)


@attrs.frozen
class PromptTexts:
    """One task's pieces: the base question, a hint naming what to attend to, the puzzle type named for the
    meta-task style, and the per-option checks of the elimination style."""

    question: str
    hint: str
    puzzle_type: str
    elimination: str


def build_question(texts: PromptTexts, style: str, letters: str) -> str:
    """The full question of ``style`` for options labelled by ``letters`` (e.g. "ABCD")."""
    choose = f"Answer with a single letter from {', '.join(letters)}."
    if style == "plain":
        parts = [texts.question, choose]
    elif style == "step-by-step":
        parts = [texts.question, STEP_BY_STEP, choose]
    elif style == "hint":
        parts = [texts.question, f"Hint: {texts.hint}", choose]
    elif style == "elimination":
        parts = [texts.question, f"Check every option in turn and rule out the ones that fail: {texts.elimination}",
                 "Keep the one option that survives.", choose]
    elif style == "meta-task":
        parts = [f"This is a {texts.puzzle_type} puzzle.", f"Goal: {texts.question}",
                 f"Important: {texts.hint}", f"Finally: {choose}"]
    else:
        raise ValueError(f"unknown prompt style {style!r}")
    return "\n".join(parts)
