"""The words of the three sequence tasks (sequence rotation, sequence arithmetic, multi-column arithmetic):
their choices, how a question names a rotation, and the stems.  Plain data, read by the generators and by the
verifiers alike."""

from __future__ import annotations

#: Rotation steps in degrees (paper B.4.4) and their complexity ordinal (90 easiest, 30 hardest).
STEPS = (30, 45, 60, 90)
STEP_ORDINAL = {90: 0, 60: 1, 45: 2, 30: 3}
TURNS = ("clockwise", "counterclockwise")
#: Sequence arithmetic: increasing or decreasing counts (paper B.4.5).
DIRECTIONS = ("increasing", "decreasing")
#: The column counts of multi-column arithmetic (paper B.4.6).
COLUMNS = (2, 3, 4, 5, 6)


def turn_phrase(step: int, turn: str) -> str:
    """How a question states the rotation between neighbouring panels: ``45° clockwise``."""
    return f"{step}° {turn}"


#: Sequence rotation, general stems (the paper's first) and stems naming the constant rotation.
ROTATION_STEMS = (
    "Which option (a)–(d) should replace the blank to complete the top-row pattern?",
    "The top row shows one motif turning by the same angle from each panel to the next; one panel is blank. "
    "Which option (a)–(d) belongs in the blank panel?",
    "From left to right, each panel of the top row shows the motif of the panel before it rotated by a constant "
    "angle. Which option (a)–(d) fills the blank panel?",
    "Complete the top row: the motif rotates by a fixed angle at every step. Which option (a)–(d) goes in the "
    "empty panel?",
)
#: Stems stating the step and its direction; ``{turn}`` is ``turn_phrase``.
ROTATION_EXPLICIT_STEMS = (
    "In the top row, each panel shows the motif of the panel to its left rotated {turn}. Which option (a)–(d) "
    "should replace the blank panel?",
    "Reading the top row from left to right, the motif turns {turn} from each panel to the next. Which option "
    "(a)–(d) completes the row?",
    "Each step of the top row rotates the motif {turn} about the panel's centre. Which option (a)–(d) belongs in "
    "the empty panel?",
    "The motif in the top row turns {turn} at every step, left to right. Pick the option (a)–(d) that fills the "
    "blank.",
)

#: Sequence arithmetic stems (the paper's first, then paraphrases).
ARITHMETIC_STEMS = (
    "In the top row, only the number of shapes changes, and by a constant step. Which option (a)–(d) below "
    "completes the row?",
    "Which option (a)–(d) below should replace the blank to complete the pattern shown in the top row? The number "
    "of shapes changes by the same amount from each panel to the next.",
    "The panels of the top row hold copies of one shape; from left to right their number goes up or down by a "
    "fixed step (possibly zero). Which option (a)–(d) fills the blank panel?",
    "Count the shapes in each panel of the top row: the counts form an arithmetic sequence. Which option (a)–(d) "
    "belongs in the empty panel?",
    "The top row is a sequence in which each panel has a constant number of shapes more (or fewer) than the one "
    "before it. Which option (a)–(d) completes it?",
    "Only the count of shapes varies across the top row, by a constant difference. Pick the option (a)–(d) that "
    "goes in the blank.",
)

#: Multi-column arithmetic stems (the paper's first, then paraphrases); every one states the column rule.
MULTI_COLUMN_STEMS = (
    "Which panel (a)–(d) completes the sequence shown in the top row?",
    "Which option (a)–(d) is the fourth panel of the top row?",
    "Pick the panel (a)–(d) that comes next in the top row.",
    "Which of the panels (a)–(d) continues the top row?",
    "Complete the top row: which panel (a)–(d) belongs in the blank fourth place?",
    "Which option (a)–(d) should replace the blank last panel of the top row?",
)
#: The rule every multi-column question states after its stem.
MULTI_COLUMN_RULE = ("Each panel has {columns} columns, and in every column the number of shapes changes by its own "
                     "constant step from one panel to the next (the step may be zero or negative).")
