"""The words of ``sphinx/positional-count``: the six relations with their definitions and the question
stems.  Plain data, read by the generator and by the verifier alike."""

from __future__ import annotations

RELATIONS = ("inside", "outside", "left", "right", "above", "below")

#: Each relation as the question states it, with its strict definition; ``{target}`` is "the purple
#: (#9467bd) circle".
PHRASES = {
    "inside": "strictly inside {target} (entirely within its boundary)",
    "outside": "strictly outside {target} (not touching or overlapping it)",
    "left": "strictly to the left of {target} (entirely left of its leftmost point)",
    "right": "strictly to the right of {target} (entirely right of its rightmost point)",
    "above": "strictly above {target} (entirely above its topmost point)",
    "below": "strictly below {target} (entirely below its bottommost point)",
}

#: Question stems; ``{kinds}`` is the plural token kind, ``{relation}`` the phrase above.
STEMS = (
    "How many small black {kinds} are {relation}?",
    "What is the count of small black {kinds} {relation}?",
    "Count the small black {kinds} that lie {relation}.",
    "How many of the small black {kinds} appear {relation}?",
    "Give the number of small black {kinds} {relation}.",
    "Among the small black shapes, how many are {kinds} {relation}?",
    "Looking only at the small black {kinds}, how many of them are {relation}?",
    "How many small black {kinds} can you find {relation}?",
)

INSTRUCTION = "Answer with an integer."


def target_phrase(colour: str, hex_colour: str, kind: str) -> str:
    """``the purple (#9467bd) circle``."""
    return f"the {colour} ({hex_colour}) {kind}"


def question(stem: str, kinds: str, relation: str, target: str) -> str:
    return f"{stem.format(kinds=kinds, relation=PHRASES[relation].format(target=target))} {INSTRUCTION}"
