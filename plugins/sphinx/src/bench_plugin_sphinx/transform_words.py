"""The words of the transformation tasks (``sphinx/transform-result-identify``, ``sphinx/transform-pair-infer``):
how a question names each transformation, with its axis or turning direction defined in image terms, the
option phrasings and the question stems.  Plain data, read by the generators and by the verifiers alike.

The names are ``kit.transforms``'s: ``mirror`` (vertical mirror line, left and right swap), ``flip``
(horizontal mirror line), ``transpose`` (main diagonal ↘), ``transverse`` (anti-diagonal ↙), ``rot90`` (a
quarter turn counterclockwise), ``rot180``, ``rot270`` (a quarter turn clockwise), ``translate``.
"""

from __future__ import annotations

TRANSFORMS = ("mirror", "flip", "transpose", "transverse", "rot90", "rot180", "rot270", "translate")

#: How a result-identify question names each D4 map: an imperative with its definition.
ACTIONS: dict[str, str] = {
    "mirror": "reflect it across the vertical line through its centre (left and right swap)",
    "flip": "reflect it across the horizontal line through its centre (top and bottom swap)",
    "transpose": "reflect it across the main diagonal (↘, the line from the top-left corner to the bottom-right "
                 "corner)",
    "transverse": "reflect it across the anti-diagonal (↙, the line from the top-right corner to the bottom-left "
                  "corner)",
    "rot90": "rotate it 90° counterclockwise about its centre (a quarter turn to the left, as seen on the screen)",
    "rot180": "rotate it 180° about its centre (a half turn)",
    "rot270": "rotate it 90° clockwise about its centre (a quarter turn to the right, as seen on the screen; the "
              "same as 270° counterclockwise)",
}

#: Directions of the king moves (dx, dy in grid steps, y downwards), as the question names them.
DIRECTIONS: dict[tuple[int, int], str] = {
    (1, 0): "to the right", (1, -1): "up and to the right", (0, -1): "up", (-1, -1): "up and to the left",
    (-1, 0): "to the left", (-1, 1): "down and to the left", (0, 1): "down", (1, 1): "down and to the right",
}


def move_action(vector: tuple[int, int]) -> str:
    """The result-identify phrase of a translation by the king move ``vector``."""
    dx, dy = vector
    parts = []
    if dx:
        parts.append(f"one step {'right' if dx > 0 else 'left'}")
    if dy:
        parts.append(f"one step {'down' if dy > 0 else 'up'}")
    return (f"move it {DIRECTIONS[(dx, dy)]} without turning or flipping it: {' and '.join(parts)}, where one "
            "step is two small grid squares (a sixth of the tile's width)")


#: Result-identify stems; ``{action}`` is the transformation's phrase.
RESULT_STEMS = (
    "Take the motif in the top tile and {action}. Which option (a)–(d) shows the result?",
    "Apply this transformation to the top image: {action}. Which option (a)–(d) matches the transformed result?",
    "Look at the top figure. If you {action}, which option (a)–(d) is the correct result?",
    "The top tile is transformed as follows: {action}. Which of the tiles (a)–(d) below is the outcome?",
    "Which option (a)–(d) is the top tile after this operation: {action}?",
    "Transform the top picture: {action}. Pick the option (a)–(d) that shows what you get.",
)

#: Pair-infer option phrasings: three per class (one is drawn per item), axes and directions in image terms.
LABELS: dict[str, tuple[str, ...]] = {
    "mirror": ("reflect across the vertical centre line (left and right swap)", "vertical line symmetry (mirror "
               "left ↔ right)", "mirror across a vertical axis"),
    "flip": ("reflect across the horizontal centre line (top and bottom swap)", "horizontal line symmetry (mirror "
             "top ↔ bottom)", "mirror across a horizontal axis"),
    "transpose": ("reflect across the main diagonal (↘, top-left to bottom-right)", "mirror across the ↘ diagonal",
                  "main-diagonal (↘) reflection"),
    "transverse": ("reflect across the anti-diagonal (↙, top-right to bottom-left)", "mirror across the ↙ diagonal",
                   "anti-diagonal (↙) reflection"),
    "rot90": ("rotate 90° counterclockwise", "a quarter turn counterclockwise (to the left)",
              "rotate 270° clockwise"),
    "rot180": ("rotate 180°", "a half turn", "rotate 180° about the centre"),
    "rot270": ("rotate 90° clockwise (≡ 270° counterclockwise)", "a quarter turn clockwise (to the right)",
               "rotate 270° counterclockwise"),
    "translate": ("move without rotation or flip", "translation (a shift, no turn or mirror)",
                  "slide to another place, unturned and unflipped"),
    "none": ("none of the above", "none of these operations", "no listed operation"),
}

#: Pair-infer stems; the options follow, then the answer instruction.
PAIR_STEMS = (
    "What single operation turns the left tile into the right tile?",
    "Which one transformation maps the left image onto the right image?",
    "The right tile is the left tile after exactly one operation. Which one?",
    "Identify the transformation that takes the left picture to the right picture.",
    "Which operation, applied to the whole left tile, gives the right tile?",
    "How was the right tile made from the left one? Choose the single operation:",
)

#: What pair-infer questions say about the tiles before the stem.
PAIR_PREAMBLE = ("Rotations and mirror lines are about the tile's centre, as seen on the screen (the main diagonal ↘ "
                 "runs from the top-left corner to the bottom-right one, the anti-diagonal ↙ from the top-right "
                 "corner to the bottom-left one).")


def class_of(text: str) -> str | None:
    """The class a pair-infer option text names, or None."""
    for key, phrasings in LABELS.items():
        if text in phrasings:
            return key
    return None
