"""The words of ``polaris/lattice-paths``: one question per rendering (the dots of a rectangle, or where
circles meet radial lines), the three steps in each vocabulary (``kit.text``), the removed dots and the seam
wall."""

from __future__ import annotations

from bench_plugin_polaris.kit import text

STEMS = (
    "How many different paths lead from A to B?",
    "How many distinct routes go from dot A to dot B?",
    "In how many different ways can you walk from A to B?",
    "Count the different step sequences that take you from A to B. How many are there?",
)


def question(variant: str, m: int, n: int, removed: bool, stem: str) -> str:
    """The question of one rendering: the dot grid, where A and B are, the three steps (Right / Down /
    Down-Right; CW / In / In-and-CW), the removed dots, the boundary and the answer format."""
    if variant == "cartesian":
        parts = [
            f"The picture shows a grid of dots in {m + 1} rows and {n + 1} columns (the corners of a {m} x {n} grid "
            "of squares); rows of dots are counted from the top, columns from the left.",
            "A is the top-left dot and B the bottom-right dot.",
            "A path goes from A to B in steps of three kinds: Right (to the next dot on the right in the same row), "
            "Down (to the next dot below in the same column) or Down-Right (diagonally, one row down and one column "
            "right at once).",
        ]
    else:
        parts = [
            f"The picture shows dots where {m + 1} circles meet {n + 1} radial lines; circles are counted from the "
            "innermost outward and radial lines clockwise.",
            "A is the dot on the outermost circle and the first radial line clockwise from the thick wall at 12 "
            "o'clock; B is the dot on the innermost circle and the last radial line.",
            "A path goes from A to B in steps of three kinds: CW (to the next dot clockwise on the same circle), In "
            "(to the next dot inward on the same radial line) or In-CW (diagonally, one circle inward and one "
            "radial line clockwise at once).",
        ]
    if removed:
        parts.append("Dots crossed out with a red X are missing: a path cannot visit them.")
    parts.append("Paths use only these steps and never leave the dots shown." if variant == "cartesian" else
                 "The thick radial wall at 12 o'clock cannot be crossed, and paths never leave the dots shown.")
    parts += [stem, text.answer_format("integer", variant)]
    return " ".join(parts)
