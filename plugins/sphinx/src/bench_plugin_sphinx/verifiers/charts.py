"""Reading pie and bar charts back from the pixels, for the chart verifiers (no kit code), as colour keys
(``pixels.image_keys``: one integer per pixel).

- ``pie_shares``: the pie is found as the run of non-white pixels across and down the middle of its box
  (centre and radius from their extent); each named colour's share is its part of three circles of samples
  around the centre (at 35, 50 and 65 % of the radius, every 1/4 degree), the samples that hit a black edge
  or a blended pixel being split between the two slices they separate.  A share is the slice's angle over
  360 degrees.
- ``bar_heights``: the baseline is the black band across (almost) the whole width in the chart's bottom
  third; each bar is a run of one named colour just above it, and its height is the run of non-white pixels
  up its middle column.
"""

from __future__ import annotations

import math

import numpy as np

from bench_plugin_sphinx.verifiers.pixels import NAMED, channels, image_keys, snap_keys

_NAMES = tuple(NAMED)
_UNNAMED = np.array(sorted({-1, _NAMES.index("white"), _NAMES.index("black")}))
SAMPLES = 1440
RADII = (0.35, 0.5, 0.65)


def _ink(keys: np.ndarray) -> np.ndarray:
    """Pixels darker than near-white in some channel."""
    r, g, b = channels(keys)
    return (r < 235) | (g < 235) | (b < 235)


def _black(keys: np.ndarray) -> np.ndarray:
    r, g, b = channels(keys)
    return (r < 60) & (g < 60) & (b < 60)


def pie_shares(image, box) -> tuple[dict[str, float], list[str], list[str]]:
    """({colour name: share of the circle}, colour names clockwise from 12 o'clock, failures) of the pie drawn
    in ``box`` = (left, top, right, bottom) of the PIL ``image``; only the rows, columns and ring of pixels
    it reads are taken from the image."""
    x0, y0, x1, y1 = (int(v) for v in box)
    cy, cx = (y1 - y0) // 2, (x1 - x0) // 2
    for _ in range(2):  # through the box's middle first, then through the middle of what that found
        across = np.nonzero(_ink(image_keys(image.crop((x0, y0 + cy, x1, y0 + cy + 1)))[0]))[0]
        down = np.nonzero(_ink(image_keys(image.crop((x0 + cx, y0, x0 + cx + 1, y1)))[:, 0]))[0]
        if not len(across) or not len(down):
            return {}, [], ["no pie is drawn"]
        left, right, top, bottom = across.min(), across.max(), down.min(), down.max()
        cy, cx = (top + bottom) // 2, (left + right) // 2
    if abs((bottom - top) - (right - left)) > 3:
        return {}, [], [f"the pie is not round: {right - left + 1} x {bottom - top + 1} px"]
    cy, cx = (top + bottom) / 2, (left + right) / 2
    radius = (bottom - top + right - left) / 4
    reach = int(radius * max(RADII)) + 2
    ox, oy = int(x0 + cx) - reach, int(y0 + cy) - reach
    keys = image_keys(image.crop((ox, oy, ox + 2 * reach + 1, oy + 2 * reach + 1)))
    theta = np.arange(SAMPLES) * (2 * math.pi / SAMPLES)
    totals: dict[str, float] = {}
    order: list[str] = []
    for fraction in RADII:
        r = radius * fraction
        xs = np.rint(x0 + cx + r * np.sin(theta)).astype(int) - ox
        ys = np.rint(y0 + cy - r * np.cos(theta)).astype(int) - oy
        labels = snap_keys(keys[ys, xs])
        labels = np.where(np.isin(labels, _UNNAMED), -1, labels)
        counts, runs = _split_edges(labels)
        for index, count in counts.items():
            totals[_NAMES[index]] = totals.get(_NAMES[index], 0.0) + count / SAMPLES / len(RADII)
        if not order:
            order = [_NAMES[i] for i in runs]
    return totals, order, []


def _split_edges(labels: np.ndarray) -> tuple[dict[int, float], list[int]]:
    """Samples per label around a circle, each unlabelled run (-1) split half and half between the labelled
    runs on either side; and the labels' runs in order, from the first labelled sample on."""
    counts: dict[int, float] = {}
    labelled = np.nonzero(labels >= 0)[0]
    if not len(labelled):
        return counts, []
    turned = np.roll(labels, -int(labelled[0]))
    starts = np.concatenate([[0], np.nonzero(np.diff(turned))[0] + 1])
    lengths = np.diff(np.concatenate([starts, [len(turned)]])).astype(float)
    runs = [[int(turned[a]), float(n)] for a, n in zip(starts, lengths, strict=True)]
    for k, (label, length) in enumerate(runs):
        if label < 0:  # a gap: half to the run before, half to the run after (the first run, after the last)
            runs[k - 1][1] += length / 2
            runs[(k + 1) % len(runs)][1] += length / 2
    merged: list[list] = []
    for label, length in runs:
        if label < 0:
            continue
        if merged and merged[-1][0] == label:
            merged[-1][1] += length
        else:
            merged.append([label, length])
    if len(merged) > 1 and merged[0][0] == merged[-1][0]:
        merged[0][1] += merged.pop()[1]
    for label, length in merged:
        counts[label] = counts.get(label, 0.0) + length
    return counts, [label for label, _ in merged]


def bar_heights(keys: np.ndarray) -> tuple[list[tuple[str, int]], list[str]]:
    """([(colour name, height in px)] of the bars from left to right, failures) of the bar chart in ``keys``."""
    height, width = keys.shape
    low = height * 2 // 3  # the baseline lies in the chart's bottom third
    wide = np.nonzero(np.count_nonzero(_black(keys[low:]), axis=1) > 0.93 * width)[0]  # bars never span this
    if not len(wide):
        return [], ["no baseline is drawn in the chart's bottom third"]
    base = low + int(wide[0])  # the baseline's top row
    if base < 8:
        return [], ["the baseline is at the top of the chart"]
    row = snap_keys(keys[base - 4])
    row = np.where(np.isin(row, _UNNAMED), -1, row)
    starts = np.concatenate([[0], np.nonzero(np.diff(row))[0] + 1])
    ends = np.concatenate([starts[1:], [len(row)]])
    bars = []
    for a, b in zip(starts, ends, strict=True):
        if row[a] < 0 or b - a < 3:
            continue
        column = _ink(keys[:base, (a + b) // 2])[::-1]
        height = int(np.argmin(column)) if not column.all() else base
        bars.append((_NAMES[int(row[a])], height))
    return bars, []
