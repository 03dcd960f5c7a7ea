"""The words of ``sphinx/stack-count``: question stems (one is drawn per item).  Plain data, read by the
generator and by the verifier alike."""

from __future__ import annotations

#: Stems; ``{sheets}`` is the sheets' kind in the plural ("rectangles"), ``{target}`` the asked sheet ("the
#: red (#d62728) rectangle"), ``{kinds}`` the tokens' kind in the plural.  Each says the sheets are congruent
#: (equal area), were laid down first, in order, and that the hidden part of the boundary counts.
STEMS = (
    "Equal-area colored sheets are placed first; then the small black {kinds} are overlaid on top. Even if "
    "{target} is partly hidden, how many small black {kinds} are strictly inside its boundary?",
    "The colored {sheets} are all the same size and shape and were stacked one after another, later ones "
    "covering earlier ones; the small black shapes were added on top of everything. How many small black "
    "{kinds} lie strictly inside {target}, counting the part of it hidden under other sheets?",
    "Colored sheets of equal area are stacked first (they may overlap and hide parts of each other), and small "
    "black shapes are placed on top afterwards. Count the small black {kinds} strictly inside the full "
    "boundary of {target}, including where it is covered.",
    "All the colored {sheets} are congruent. They were laid down first and may cover one another; the black "
    "{kinds} and other small shapes were drawn last. How many small black {kinds} are strictly within "
    "{target}'s boundary, visible or hidden?",
    "Equal-area sheets are laid down first and may occlude each other; the small black shapes are added "
    "afterwards on top. How many small black {kinds} are strictly inside the boundary of {target} (use its "
    "whole outline, also where another sheet hides it)?",
    "The stacked colored {sheets} all have the same size and shape. Imagine {target} complete, including any "
    "part hidden under later sheets: how many of the small black {kinds} lie strictly inside it?",
    "Some colored {sheets} of equal area overlap in a stack, with the small black shapes on top of all of "
    "them. Counting through the sheets that cover it, how many small black {kinds} are strictly inside "
    "{target}?",
    "Sheets first, small shapes last: the colored {sheets} (all of equal area) are stacked, then small black "
    "shapes are scattered over them. How many small black {kinds} sit strictly inside {target}, hidden part "
    "included?",
)

INSTRUCTION = "No small shape touches a sheet's boundary. Answer with an integer."


def target_phrase(colour: str, hex_colour: str, kind: str) -> str:
    """``the red (#d62728) rectangle``."""
    return f"the {colour} ({hex_colour}) {kind}"


def question(stem: str, sheets: str, target: str, kinds: str) -> str:
    return f"{stem.format(sheets=sheets, target=target, kinds=kinds)} {INSTRUCTION}"
