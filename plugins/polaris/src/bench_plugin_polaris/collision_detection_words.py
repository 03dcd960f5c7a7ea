"""The words of ``polaris/collision-detection``: one question per rendering from the shared C/P vocabulary
(``kit.text``).  Plain data and string building, read by the generator and the verifier alike."""

from __future__ import annotations

from collections.abc import Sequence

from bench_plugin_polaris.kit import text

#: Paraphrases of the question itself; one is drawn per pair.
STEMS = (
    "Which two cars crash first?",
    "Which pair of cars is the first to collide?",
    "The first crash happens between which two cars?",
    "Which two cars will be the first to run into each other?",
)


def pair_text(names: Sequence[str], i: int, j: int) -> str:
    """An option: "the red car and the blue car" (the cars in their legend order)."""
    a, b = sorted((i, j))
    return f"the {names[a]} car and the {names[b]} car"


def question(variant: str, rows: int, cols: int, count: int, stem: str, letters: Sequence[str],
             contents: Sequence[str]) -> str:
    """The whole question of one rendering (both renderings wrap: the Cartesian one says so, spec card 52)."""
    cells = text.word(variant, "cells")
    if variant == "cartesian":
        lanes = ("Each car drives straight along its row (left or right) or along its column (up or down), in the "
                 "direction of its arrow.")
    else:
        lanes = ("Each car drives straight along its ring (clockwise or counter-clockwise, following the circle) or "
                 "along its sector (inward or outward), in the direction of its arrow.")
    parts = [
        f"The picture shows {count} cars (coloured discs; the legend names their colours) on "
        f"{text.dims_phrase(variant, rows, cols)}.",
        lanes,
        f"The arrow of a car ends at the centre of the {text.word(variant, 'cell')} it reaches after one tick, so an "
        f"arrow spanning k {cells} means a speed of k {cells} per tick; every car keeps its speed and direction.",
        "Cars move continuously, as points at their centres: two cars crash when they are at the same point at the "
        "same moment (two cars that would swap places meet halfway). No car reaches the "
        f"{'top or bottom edge' if variant == 'cartesian' else 'inner or outer circle'} before the first crash.",
        text.boundary_sentence(variant, "wrapping"),
        stem,
        text.options_sentence(contents, letters),
        text.answer_format("option", variant, letters),
    ]
    return " ".join(parts)
