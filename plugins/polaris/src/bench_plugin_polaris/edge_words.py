"""The words of ``polaris/edge-counting``: one question per rendering (``kit.text`` vocabulary), with what one
cell edge is in each (a side of a square; an arc between neighbouring radial lines or a radial piece between
neighbouring circles), and the options listed in the text."""

from __future__ import annotations

from bench_plugin_polaris.kit import text

STEMS = (
    "How many cell edges does the ant walk along?",
    "How many cell edges make up the ant's trail from P to Q?",
    "Counting every cell edge it passes along once, how many edges does the ant traverse from P to Q?",
    "How long is the ant's trail, measured in cell edges?",
)


def question(variant: str, rows: int, cols: int, stem: str, letters, contents) -> str:
    """The question of one rendering with its options."""
    if variant == "cartesian":
        edge = ("A cell edge is one side of a square: the piece of a grid line between two neighbouring grid "
                "points.")
    else:
        edge = ("A cell edge is one side of a cell: an arc of a circle between two neighbouring radial lines, or "
                "a piece of a radial line between two neighbouring circles; every edge counts as one, whatever "
                "its length on the page.")
    parts = [
        f"The picture shows {text.dims_phrase(variant, rows, cols)}.",
        "An ant walks along the grid lines from P to Q, following the thick red trail, and never passes the same "
        "point twice.",
        edge,
        stem,
        text.options_sentence(contents, letters),
        text.answer_format("option", variant, letters),
    ]
    return " ".join(parts)
