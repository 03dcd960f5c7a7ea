"""The Cartesian <-> Polar vocabulary (spec 2.4) and the sentences every Polaris question shares.

``word(variant, key)`` gives one rendering's word for a concept ("row" / "ring", "Up" / "Out" ...);
``numbering``, ``boundary_sentence``, ``moves_sentence`` and ``answer_format`` give the shared sentences, so
the two questions of a pair differ only by the vocabulary map.  Light module: no numpy, no Pillow.
"""

from __future__ import annotations

from collections.abc import Sequence

#: One word per concept per rendering (spec 2.4).  Plural forms are their own keys.
VOCABULARY: dict[str, dict[str, str]] = {
    "cartesian": {
        "row": "row", "rows": "rows", "column": "column", "columns": "columns",
        "cell": "square", "cells": "squares", "grid": "grid", "board": "grid",
        "Up": "Up", "Down": "Down", "Left": "Left", "Right": "Right",
        "up": "up", "down": "down", "left": "left", "right": "right",
        "top": "top", "bottom": "bottom",
        "edge": "border", "region": "outlined box", "regions": "outlined boxes",
        "wrap_edge": "left and right edges", "legend": "legend", "command_box": "command box",
        "diagonal": "diagonal",
    },
    "polar": {
        "row": "ring", "rows": "rings", "column": "sector", "columns": "sectors",
        "cell": "cell", "cells": "cells", "grid": "polar grid", "board": "polar grid",
        "Up": "Out", "Down": "In", "Left": "CCW", "Right": "CW",
        "up": "outward", "down": "inward", "left": "counter-clockwise", "right": "clockwise",
        "top": "outermost", "bottom": "innermost",
        "edge": "circle", "region": "outlined region", "regions": "outlined regions",
        "wrap_edge": "12 o'clock line", "legend": "legend", "command_box": "command box",
        "diagonal": "diagonal",
    },
}
#: Spelled-out polar move names (Wrapping Path Finding's direction key).
POLAR_MOVE_WORDS = {"Out": "Outward", "In": "Inward", "CW": "Clockwise", "CCW": "Counter-Clockwise"}
#: What each answer type asks for, for ``answer_format``.
ANSWER_TYPES = ("option", "integer", "coordinate", "string", "sequence", "number")


def _check(variant: str) -> None:
    if variant not in VOCABULARY:
        raise ValueError(f"variant {variant!r} is not one of {', '.join(VOCABULARY)}")


def word(variant: str, key: str) -> str:
    """The word of ``variant`` for ``key`` (a Cartesian concept: "row", "Up", "cell" ...); KeyError names the
    keys there are."""
    _check(variant)
    try:
        return VOCABULARY[variant][key]
    except KeyError:
        raise KeyError(f"no {variant} word for {key!r}; known: {', '.join(VOCABULARY[variant])}") from None


def translate(text_key: str, source: str, target: str) -> str:
    """``source``'s word ``text_key`` in ``target``'s words (the inverse map for the other direction)."""
    _check(source)
    _check(target)
    for key, value in VOCABULARY[source].items():
        if value == text_key:
            return VOCABULARY[target][key]
    raise KeyError(f"{text_key!r} is not a {source} word")


def dims_phrase(variant: str, rows: int, cols: int, extra_sectors: int = 0) -> str:
    """"a 5 x 6 grid (5 rows, 6 columns)" / "a polar grid of 5 rings and 6 sectors"."""
    _check(variant)
    if variant == "cartesian":
        return f"a {rows} x {cols} grid ({rows} rows, {cols} columns)"
    return f"a polar grid of {rows} rings and {cols + extra_sectors} sectors"


def numbering(variant: str, orientation: str = "out", rows: int | None = None) -> str:
    """The sentence stating how rows/columns or rings/sectors are numbered (1-based), and under the polar
    orientation which ring the top row is (spec 2.1: always spelled out)."""
    _check(variant)
    if variant == "cartesian":
        return "Rows are numbered from 1 at the top to the bottom, columns from 1 at the left to the right."
    return ("Rings are numbered from 1 (innermost) outward; sectors are numbered from 1 clockwise, sector 1 "
            "starting at 12 o'clock.")


def boundary_sentence(variant: str, boundary: str, wraps: bool | None = None) -> str:
    """What the picture's boundary means for moves.  ``boundary`` is the task's (bounded / wrapping /
    invariant); ``wraps`` says whether this rendering wraps (default: polar wraps when the task wraps, the
    Cartesian twin too for fully aligned wrapping tasks: pass ``wraps=False`` for a partially aligned
    task's Cartesian item)."""
    _check(variant)
    if wraps is None:
        wraps = boundary == "wrapping"
    if variant == "cartesian":
        if wraps:
            return ("The top and bottom edges (thick black borders) cannot be crossed; the left and right edges "
                    "(dashed lines) wrap around: leaving the grid on one side enters it on the same row on the "
                    "other side.")
        return "The grid's border (thick black lines) cannot be crossed."
    if wraps:
        return ("The inner and outer circles (thick black) cannot be crossed; the grid wraps around in the "
                "angular direction: sector 1 and the last sector are neighbours.")
    return ("The inner and outer circles and the thick radial wall at 12 o'clock cannot be crossed: nothing "
            "passes between the last sector and sector 1.")


def moves_sentence(variant: str, kind: str) -> str:
    """The definition of a move set in ``variant``'s words: kind is "orthogonal", "diagonal",
    "forward_diagonal" (one row down and one column left or right; polar: one ring inward and one sector),
    or "knight"."""
    _check(variant)
    if variant == "cartesian":
        table = {
            "orthogonal": "A move goes to a neighbouring square: Up, Down, Left or Right.",
            "diagonal": "A move goes one row and one column at once (diagonally) to a neighbouring square.",
            "forward_diagonal": "A move goes one row down and one column left or right (diagonally down).",
            "knight": ("A knight's move goes 2 rows and 1 column, or 1 row and 2 columns, as in chess (an L "
                       "shape)."),
        }
    else:
        table = {
            "orthogonal": ("A move goes to a neighbouring cell: Out (one ring outward), In (one ring inward), CW "
                           "(one sector clockwise) or CCW (one sector counter-clockwise)."),
            "diagonal": "A diagonal move goes one ring (in or out) and one sector (clockwise or counter-clockwise) "
                        "at once.",
            "forward_diagonal": ("A move goes one ring inward and one sector clockwise or counter-clockwise "
                                 "(diagonally inward)."),
            "knight": ("A knight's move goes 2 rings (in or out) and 1 sector (clockwise or counter-clockwise), or "
                       "1 ring and 2 sectors."),
        }
    try:
        return table[kind]
    except KeyError:
        raise KeyError(f"no move set {kind!r}; known: {', '.join(table)}") from None


def answer_format(answer_type: str, variant: str, letters: Sequence[str] = (), coordinate_order: str = "row") -> str:
    """The answer-format sentence for ``answer_type`` (spec 7.1: the final answer alone)."""
    _check(variant)
    if answer_type == "option":
        if not letters:
            raise ValueError("an option answer needs the option letters")
        return f"Answer with the letter of the correct option ({', '.join(letters)}) only."
    if answer_type == "integer":
        return "Answer with a single integer only."
    if answer_type == "number":
        return "Answer with a single number only."
    if answer_type == "coordinate":
        first, second = (word(variant, "row"), word(variant, "column"))
        return (f"Answer with the coordinates as ({first}, {second}), 1-based, e.g. ({first} 2, {second} 3) "
                "written as (2, 3).")
    if answer_type == "string":
        return "Answer with the string only, no spaces."
    if answer_type == "sequence":
        return "Answer with the list, items separated by commas, in order."
    raise ValueError(f"answer type {answer_type!r} is not one of {', '.join(ANSWER_TYPES)}")


def cell_name(variant: str, r: int, c: int) -> str:
    """"row 2, column 3" / "ring 4, sector 3" for the index-space cell (r, c), 1-based; the polar ring is
    the row's ring under orientation "in" (callers pass the ring index for "out": see ``ring_number``)."""
    _check(variant)
    return f"{word(variant, 'row')} {r + 1}, {word(variant, 'column')} {c + 1}"


def ring_number(r: int, rows: int, orientation: str) -> int:
    """The 1-based ring number of row ``r`` (ring 1 innermost): ``rows - r`` under "out", ``r + 1`` under "in"."""
    return rows - r if orientation == "out" else r + 1


def coordinate(variant: str, r: int, c: int, rows: int, orientation: str = "out") -> tuple[int, int]:
    """The 1-based coordinate pair a question uses for cell (r, c): (row, column) or (ring, sector)."""
    _check(variant)
    if variant == "cartesian":
        return r + 1, c + 1
    return ring_number(r, rows, orientation), c + 1


def options_sentence(contents: Sequence[str], letters: Sequence[str]) -> str:
    """"Options: (A) 12  (B) 15 ..." for options listed in the text."""
    if len(contents) != len(letters):
        raise ValueError(f"{len(contents)} options for {len(letters)} letters")
    return "Options: " + "  ".join(f"({letter}) {text}" for letter, text in zip(letters, contents, strict=True))
