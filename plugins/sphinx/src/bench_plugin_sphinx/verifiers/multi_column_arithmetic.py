"""Verifier of ``sphinx/multi-column-arithmetic``: every column of every panel is counted on the picture.

Each column frame must be drawn in light grey; inside it (the frame's line left out) the copies are found as
pieces of ink (``verifiers.sequences.copies``: runs joined row to row, not the generator's flood fill) and must
be copies of one motif at one size.  A column's motif must keep its size and colour over the panels and
options (median copy ink within 20 %, median ink colour within 40 per channel).  Each column's three visible
counts must change by one constant step; the fourth panel's counts follow, and exactly one option may show
them all, at the answer letter; the options must show pairwise different counts.  The fourth panel must be
blank.  The recorded counts are not read.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx.verifiers import sequences as read
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded

SAME_MOTIF = 0.2
#: A column's median ink colour (pixels at least 120 below white) moves by at most this much in any channel.
SAME_COLOUR = 40
#: The frame's line (2 px) and a pixel of its anti-aliasing are left out of a column's inside.
INSET = 3


def columns_of(rgb: np.ndarray, boxes: list[list[int]], grey: tuple[int, ...]) -> tuple[list[tuple], bool]:
    """(copies, median copy ink, uniform, median ink colour) of every column of a panel, and whether every frame
    is drawn."""
    out, framed = [], True
    for left, top, right, bottom in boxes:
        edge = rgb[top:bottom, left]
        framed &= bool(np.all(np.abs(edge.astype(int) - np.array(grey)) <= 8))
        inside = rgb[top + INSET: bottom - INSET, left + INSET: right - INSET]
        found = read.copies(inside)
        inks = [p["ink"] for p in found]
        dark = read.ink(inside, 120)
        colour = np.median(inside[dark], axis=0) if dark.any() else np.full(3, 255.0)
        out.append((len(found), float(np.median(inks)) if inks else 0.0, read.uniform(found), colour))
    return out, framed


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    pixels = rgb_pixels(images[0])
    border, boxes, grey = scene["border"], scene["column_boxes"], tuple(scene["frame_grey"])
    columns = len(boxes)
    if f"Each panel has {columns} columns" not in item.question or not item.question.startswith(
            words.MULTI_COLUMN_STEMS):
        failures.append(f"the question does not state the {columns} columns with one of the task's stems")
    panels = [read.content(pixels, box, border) for box in scene["panel_boxes"]]
    options = [read.content(pixels, box, border) for box in scene["option_boxes"]]
    if read.ink(panels[3]).mean() > 0.001:
        failures.append("the blank fourth panel holds ink")
    readings = []
    for k, rgb in enumerate([*panels[:3], *options]):
        found, framed = columns_of(rgb, boxes, grey)
        name = f"panel {k + 1}" if k < 3 else f"option {'ABCD'[k - 3]}"
        if not framed:
            failures.append(f"{name} lacks a light grey column frame")
        if not all(column[2] for column in found):
            failures.append(f"a column of {name} does not show copies of one motif at one size")
        readings.append(found)
    for c in range(columns):
        inks = [r[c][1] for r in readings if r[c][0] > 0]
        if inks and max(inks) - min(inks) > SAME_MOTIF * float(np.median(inks)):
            failures.append(f"column {c + 1} changes its motif or its size (median copy inks {inks})")
        colours = [r[c][3] for r in readings if r[c][0] > 0]
        if colours and max(float(np.abs(x - colours[0]).max()) for x in colours) > SAME_COLOUR:
            failures.append(f"column {c + 1} changes its motif's colour between panels")
    counts = [[r[c][0] for c in range(columns)] for r in readings]
    expected = []
    for c in range(columns):
        a, b, d = counts[0][c], counts[1][c], counts[2][c]
        if b - a != d - b:
            failures.append(f"column {c + 1} counts {a}, {b}, {d}: not one constant step")
        expected.append(d + (d - b))
    letters = "ABCD"
    shown = counts[3:]
    fits = [k for k, row in enumerate(shown) if row == expected]
    if len(fits) != 1:
        failures.append(f"{len(fits)} options show the fourth panel's counts {expected} (options: {shown}), not "
                        "exactly one")
    elif letters[fits[0]] != item.answer:
        failures.append(f"option {letters[fits[0]]} is the fourth panel, but the answer is {item.answer}")
    if len({tuple(row) for row in shown}) != 4:
        failures.append(f"two options show the same counts ({shown})")
    return failures
