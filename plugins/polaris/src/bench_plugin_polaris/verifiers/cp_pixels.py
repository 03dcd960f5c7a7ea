"""Pixel reads shared by the combinatorics verifiers, through the layout's inverse map: which cells a marker
colour or a fill colour occupies, and whether the boundary drawn is the one the record says (the polar seam
wall at 12 o'clock, the Cartesian side edges solid or dashed)."""

from __future__ import annotations

import math

import numpy as np

from bench_plugin_polaris.kit import pixels as kpixels
from bench_plugin_polaris.kit.layouts import Layout

BLACK = (0, 0, 0)
#: Share of black samples along a drawn wall (solid) and at most along a wall that must be absent.
SOLID, ABSENT = 0.9, 0.15
#: A dashed edge covers about on / (on + off) of its length.
DASHED = (0.35, 0.8)


def marker_cells(reader: kpixels.PixelReader, colour, minimum: int = 6) -> set[tuple[int, int]]:
    """The cells holding at least ``minimum`` samples of exactly ``colour`` (a marker disc)."""
    return {cell for cell, n in reader.cells_of(colour).items() if n >= minimum}


def filled_cells(reader: kpixels.PixelReader, colour, share: float = 0.3) -> set[tuple[int, int]]:
    """The cells at least ``share`` of whose samples are exactly ``colour`` (a cell fill)."""
    rows, cols = np.nonzero(reader.share(colour) >= share)
    return set(zip(rows.tolist(), cols.tolist(), strict=True))


def compare(found: set, recorded: set, what: str) -> list[str]:
    """Failures when cells read off the picture differ from the recorded ones."""
    failures = []
    if found - recorded:
        failures.append(f"{what} drawn at {sorted(found - recorded)}, which the record does not list")
    if recorded - found:
        failures.append(f"{what} recorded at {sorted(recorded - found)} but not drawn there")
    return failures


def _samples(p0, p1, inset: float, count: int = 60) -> list[tuple[float, float]]:
    (x0, y0), (x1, y1) = p0, p1
    length = math.hypot(x1 - x0, y1 - y0)
    t0, t1 = inset / length, 1 - inset / length
    return [(x0 + (x1 - x0) * (t0 + (t1 - t0) * k / (count - 1)), y0 + (y1 - y0) * (t0 + (t1 - t0) * k / (count - 1)))
            for k in range(count)]


def boundary_failures(array: np.ndarray, layout: Layout, seam_wall: bool, dashed_sides: bool = False) -> list[str]:
    """Polar: the thick radial wall at 12 o'clock is drawn iff ``seam_wall``.  Cartesian: the left and right
    edges are dashed when ``dashed_sides``, solid otherwise."""
    if layout.kind == "polar":
        inner, outer = layout.seam()
        share = kpixels.run_share(array, _samples(inner, outer, 6.0), BLACK, radius=1)
        if seam_wall and share < SOLID:
            return [f"the seam wall at 12 o'clock is missing ({share:.0%} of it drawn)"]
        if not seam_wall and share > ABSENT:
            return [f"a seam wall is drawn at 12 o'clock ({share:.0%} black) where the grid wraps"]
        return []
    x0, y0, x1, y1 = layout.grid_box()
    failures = []
    for name, x in (("left", x0), ("right", x1)):
        share = kpixels.run_share(array, _samples((x, y0), (x, y1), 6.0, 120), BLACK, radius=0)
        if dashed_sides and not DASHED[0] <= share <= DASHED[1]:
            failures.append(f"the {name} edge should be dashed (it wraps) but {share:.0%} of it is black")
        if not dashed_sides and share < SOLID:
            failures.append(f"the {name} edge should be a solid wall but only {share:.0%} of it is black")
    return failures
