"""The words of ``polaris/maximum-collection``: one question per rendering from the shared C/P vocabulary
(``kit.text``).  Plain data and string building, read by the generator and the verifier alike."""

from __future__ import annotations

from collections.abc import Sequence

from bench_plugin_polaris.kit import text

#: Paraphrases of the question itself; one is drawn per pair.
STEMS = (
    "What is the largest number of cheese pieces the mouse can eat?",
    "At most how many pieces of cheese can the mouse eat on one such walk?",
    "What is the maximum amount of cheese the mouse can collect?",
    "How many pieces of cheese does the mouse eat on the best possible walk?",
)


def question(variant: str, rows: int, cols: int, stem: str, letters: Sequence[str], contents: Sequence[str]) -> str:
    """The whole question of one rendering: the Cartesian maze is bounded, the polar one wraps at 12 o'clock
    except where a wall is drawn there."""
    cell, cells = text.word(variant, "cell"), text.word(variant, "cells")
    ways = ("up, down, left or right" if variant == "cartesian"
            else "inward, outward, clockwise or counter-clockwise")
    parts = [f"The picture shows a maze on {text.dims_phrase(variant, rows, cols)}. Thick black lines are walls.",
             f"Each number is the number of pieces of cheese in its {cell}; {cells} without a number have none.",
             f"The mouse starts in the {cell} with the disc marked M. It walks from {cell} to neighbouring {cell} "
             f"({ways}), never through a wall, and never enters a {cell} twice; it may stop anywhere, and it eats "
             f"all the cheese of every {cell} it enters."]
    if variant == "cartesian":
        parts.append("The outer border of the grid is a wall all round.")
    else:
        parts.append("The inner and outer circles are walls. The maze wraps around: the last sector and sector 1 "
                     "are neighbours across the line at 12 o'clock, except where a thick wall is drawn on that line.")
    parts += [stem, text.options_sentence(contents, letters), text.answer_format("option", variant, letters)]
    return " ".join(parts)
