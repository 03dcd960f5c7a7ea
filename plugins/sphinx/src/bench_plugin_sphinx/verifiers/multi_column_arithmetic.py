"""Verifier of ``sphinx/multi-column-arithmetic``: every column of every panel is counted on the picture.

Each column frame must be drawn in light grey; inside it (the frame's line left out) the copies are found as
pieces of ink (``verifiers.sequences.copies_side_by_side``: every column of every panel laid side by side,
runs joined row to row; not the generator's blob count) and must be copies of one motif at one size.  A
column's motif must keep its size and colour over the panels and options (median copy ink within 20 %, median
ink colour within 40 per channel).  Each column's three visible
counts must change by one constant step; the fourth panel's counts follow, and exactly one option may show
them all, at the answer letter; the options must show pairwise different counts.  The fourth panel must be
blank.  The recorded counts are not read.
"""

from __future__ import annotations

import statistics

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


def columns_of(panels: list[np.ndarray], boxes: list[list[int]],
               grey: tuple[int, ...]) -> list[tuple[list[tuple], bool]]:
    """For each panel: (copies, median copy ink, uniform, median ink colour) of every column, and whether every
    frame is drawn.  Each pixel's darkest channel is read once, and the copies of all columns of all panels are
    found in one pass (``read.copies_side_by_side``)."""
    insides = [(slice(top + INSET, bottom - INSET), slice(left + INSET, right - INSET))
               for left, top, right, bottom in boxes]
    darkest = [read.darkest(rgb) for rgb in panels]
    found = read.copies_side_by_side([plane[inside] < 255 - read.INK_STEP for plane in darkest
                                      for inside in insides])
    out = []
    for k, rgb in enumerate(panels):
        framed, columns = True, []
        for c, (left, top, _right, bottom) in enumerate(boxes):
            edge = rgb[top:bottom, left]
            framed &= bool(np.all(np.abs(edge.astype(int) - np.array(grey)) <= 8))
            copies = found[k * len(boxes) + c]
            inks = [p["ink"] for p in copies]
            dark = darkest[k][insides[c]] < 255 - 120
            colour = np.median(rgb[insides[c]][dark], axis=0) if dark.any() else np.full(3, 255.0)
            columns.append((len(copies), float(statistics.median(inks)) if inks else 0.0, read.uniform(copies), colour))
        out.append((columns, framed))
    return out


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
    for k, (found, framed) in enumerate(columns_of([*panels[:3], *options], boxes, grey)):
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
