"""The words of ``polaris/minimum-flips``: one question per rendering from the shared C/P vocabulary
(``kit.text``).  Plain data and string building, read by the generator and the verifier alike."""

from __future__ import annotations

from collections.abc import Sequence

from bench_plugin_polaris.kit import text

#: The two colours: name and RGB (kit.draw.MARKER_COLOURS' blue and orange).
COLOURS = (("blue", (0, 114, 178)), ("orange", (230, 159, 0)))

#: Paraphrases of the question itself; one is drawn per pair.
STEMS = (
    "What is the smallest number of moves that makes every {row} alternate?",
    "How many moves are needed, at the fewest, to make every {row} alternate?",
    "What is the minimum number of moves after which every {row} alternates?",
    "At least how many moves does it take until every {row} alternates?",
)


def question(variant: str, strips: int, n: int, stem: str, letters: Sequence[str], contents: Sequence[str]) -> str:
    """The whole question of one rendering: the Cartesian strips are rows with two ends, the polar ones closed
    rings (the last sector next to sector 1)."""
    row, rows = text.word(variant, "row"), text.word(variant, "rows")
    cells = text.word(variant, "cells")
    (a, _), (b, _) = COLOURS
    if strips == 1:
        layout = f"The picture shows one {row} of {n} {cells}, each coloured {a} or {b}."
    else:
        cell = text.word(variant, "cell")
        layout = f"The picture shows {strips} {rows} of {n} {cells} each, every {cell} coloured {a} or {b}."
    if variant == "cartesian":
        move = (f"A move picks three consecutive {cells} of one {row} (side by side, left to right) and switches the "
                f"colour of all three ({a} becomes {b} and {b} becomes {a}). Each {row} is a line with two ends: its "
                f"first and last {cells} are not neighbours, and a move cannot run past an end.")
        goal = (f"A {row} alternates when every two neighbouring {cells} in it have different colours (either "
                "colour may come first).")
    else:
        move = (f"A move picks three consecutive {cells} of one {row} (side by side along the {row}) and switches the "
                f"colour of all three ({a} becomes {b} and {b} becomes {a}). Each {row} is closed: the last sector "
                f"and sector 1 are neighbours, so a move may take {cells} on both sides of 12 o'clock.")
        goal = (f"A {row} alternates when every two neighbouring {cells} in it have different colours, all the way "
                "round (either colour may come first).")
    ask = stem.format(row=row)
    if strips > 1:
        ask += f" (The {rows} are separate: a move never mixes {rows}.)"
    return " ".join([layout, move, goal, ask, text.options_sentence(contents, letters),
                     text.answer_format("option", variant, letters)])
