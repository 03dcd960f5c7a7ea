"""Pixel checks every Polaris verifier shares: the composite frame (size, legend box colour), the drawn boundary
(thick circles and the seam wall in polar, the border and dashed wrap edges in Cartesian), which cells are
shaded, and where each marker colour sits.  They read the decoded image only (through the layout rebuilt from
the record), never generator state."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from bench_core import option_letters
from bench_plugin_polaris.kit import draw, pixels
from bench_plugin_polaris.kit.layouts import Layout

#: A cell counts as shaded when at least this share of its samples has the shade colour, as clear below
#: ``CLEAR_SHARE``.
SHADED_SHARE = 0.6
CLEAR_SHARE = 0.05
#: A marker's colour must cover at least this share of its icon's disc in samples, and stray samples of
#: it elsewhere stay under ``STRAY_SHARE`` of that.
MARKER_SHARE = 0.35
STRAY_SHARE = 0.1


def frame_failures(item, image, fr: draw.Frame) -> list[str]:
    """The image has the frame's size, and its legend box (if any) is light yellow (Cartesian) or light cyan
    (polar) inside, on the side the frame puts it."""
    if tuple(image.size) != tuple(fr.size):
        return [f"the image is {image.size[0]}x{image.size[1]}, the frame says {fr.size[0]}x{fr.size[1]}"]
    if fr.legend is None:
        return []
    want = draw.LEGEND_CARTESIAN if item.variant == "cartesian" else draw.LEGEND_POLAR
    x0, y0, x1, y1 = fr.legend
    corners = [(x1 - 6, y1 - 6), (x1 - 6, y0 + 6), (x0 + 6, y1 - 6)]
    got = [image.getpixel((round(x), round(y))) for x, y in corners]
    if any(tuple(g[:3]) != want for g in got):
        return [f"the legend box is not {'light yellow' if item.variant == 'cartesian' else 'light cyan'} {want}: "
                f"corner pixels {got}"]
    return []


def _ring_points(layout, radius: float, count: int = 48) -> list[tuple[float, float]]:
    cx, cy = layout.center
    angles = [2 * math.pi * (k + 0.5) / count for k in range(count)]
    return [(cx + radius * math.cos(a), cy - radius * math.sin(a)) for a in angles]


def boundary_failures(arr: np.ndarray, layout: Layout, boundary: str, wraps: bool) -> list[str]:
    """The boundary drawn is the one the record says: polar: thick black inner and outer circles, and the
    seam wall at 12 o'clock exactly when the picture is bounded (``wraps`` False); Cartesian: a black border
    whose left and right sides are dashed exactly when ``wraps``."""
    failures = []
    black = draw.BLACK
    if layout.kind == "polar":
        for name, radius in (("inner", layout.inner), ("outer", layout.outer)):
            share = pixels.run_share(arr, _ring_points(layout, radius), black, radius=1)
            if share < 0.95:
                failures.append(f"the {name} circle is not drawn as a wall ({share:.0%} of it black)")
        inner, outer = layout.seam()
        # samples on the seam clear of the ring labels' boxes: 2 px off the radial, both sides
        ts = np.linspace(0.03, 0.97, 60)
        for side in (-2, 2):
            points = [(inner[0] + side, inner[1] + (outer[1] - inner[1]) * t) for t in ts]
            share = pixels.run_share(arr, points, black, radius=0)
            if not wraps and share < 0.9:
                failures.append(f"the bounded picture lacks the seam wall at 12 o'clock ({share:.0%} black)")
                break
            if wraps and share > 0.5:
                failures.append(f"the wrapping picture draws a seam wall at 12 o'clock ({share:.0%} black)")
                break
        return failures
    x0, y0, x1, y1 = layout.grid_box()
    for name, points in (("top", [(x, y0) for x in np.linspace(x0 + 4, x1 - 4, 60)]),
                         ("bottom", [(x, y1) for x in np.linspace(x0 + 4, x1 - 4, 60)])):
        share = pixels.run_share(arr, points, black, radius=1)
        if share < 0.95:
            failures.append(f"the {name} border is not drawn ({share:.0%} black)")
    for name, x in (("left", x0), ("right", x1)):
        column = np.linspace(y0 + 4, y1 - 4, 200)
        share = pixels.run_share(arr, [(x, y) for y in column], black, radius=0)
        if wraps and not 0.3 <= share <= 0.8:
            failures.append(f"the {name} edge of a wrapping picture is not dashed ({share:.0%} black)")
        if not wraps and share < 0.95:
            failures.append(f"the {name} border of a bounded picture is not solid ({share:.0%} black)")
    return failures


def shading_failures(reader: pixels.PixelReader, shaded: set[tuple[int, int]], colour=draw.SHADE,
                     what: str = "grey") -> list[str]:
    """Exactly the cells in ``shaded`` are filled with ``colour`` (by share of their samples)."""
    share = reader.share(colour)
    failures = []
    for r in range(share.shape[0]):
        for c in range(share.shape[1]):
            on = (r, c) in shaded
            if on and share[r, c] < SHADED_SHARE:
                failures.append(f"cell (row {r + 1}, column {c + 1}) should be {what} but only {share[r, c]:.0%} is")
            if not on and share[r, c] > CLEAR_SHARE:
                failures.append(f"cell (row {r + 1}, column {c + 1}) is {share[r, c]:.0%} {what} but should be clear")
    return failures[:4]


def marker_failures(reader: pixels.PixelReader, markers: Mapping[str, tuple[tuple[int, int], tuple[int, int, int]]],
                    radius: float) -> list[str]:
    """Every marker (name -> (cell, colour)) is drawn in its cell: its colour covers at least ``MARKER_SHARE``
    of a disc of ``radius`` px in samples there, and nowhere else more than ``STRAY_SHARE`` of that."""
    failures = []
    expected = max(1.0, MARKER_SHARE * math.pi * radius * radius / reader.stride ** 2)
    for name, (cell, colour) in markers.items():
        counts = reader.cells_of(colour)
        found = counts.get(tuple(cell), 0)
        if found < expected:
            failures.append(f"the {name} is not drawn in cell (row {cell[0] + 1}, column {cell[1] + 1}) ({found} "
                            f"samples of its colour, at least {expected:.0f} expected)")
        stray = {c: n for c, n in counts.items() if c != tuple(cell) and n > STRAY_SHARE * expected}
        if stray:
            where = ", ".join(f"(row {r + 1}, column {c + 1})" for r, c in sorted(stray))
            failures.append(f"the {name}'s colour also appears in {where}")
    return failures


def own_option_failures(item, found: Mapping[str, int], noun: str) -> list[str]:
    """The checks of an item with its own options (``PairedTask.OWN_OPTIONS``) against ``found`` (each
    rendering's re-derived answer, e.g. the line and the ring minimum; ``noun`` names it): exactly one option
    holds the item's own value and carries the answer's letter, none holds the other reading's value, and
    ``other_answer_content`` is that value."""
    failures = []
    other = "polar" if item.variant == "cartesian" else "cartesian"
    options = dict(zip(option_letters(len(item.options or ())), item.options or (), strict=True))
    mine, theirs = str(found[item.variant]), str(found[other])
    holding = [k for k, v in options.items() if v == mine]
    if holding != [item.answer]:
        failures.append(f"the {item.variant} {noun} is {mine}; options holding it {holding}; the answer is "
                        f"{item.answer}")
    if theirs in options.values():
        failures.append(f"the {other} {noun} {theirs} is an option (right under the other boundary reading)")
    if item.metadata.get("other_answer_content") != theirs:
        failures.append(f"other_answer_content {item.metadata.get('other_answer_content')!r} is not the {other} "
                        f"{noun} {theirs}")
    return failures

