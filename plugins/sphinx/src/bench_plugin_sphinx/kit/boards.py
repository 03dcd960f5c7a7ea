"""Tiling boards for the tile tasks (spec 2.3, 4): which patch sizes a task may draw, how a patch is placed on
a square canvas, and how its cells and edges are drawn.

- ``candidates(name, low, high)``: the (width, height) patches of a tiling whose cell count lies in
  [low, high] and whose drawn extent is roughly square (aspect within ``ASPECT``), with their cell counts;
- ``place(tiling, side, margin)``: the pooled vertices in pixels, the patch centred in a ``side`` canvas;
- ``canvas_side(tiling, edge_px, low, high)``: the canvas side that gives edges about ``edge_px`` long;
- ``draw_outlines`` / ``draw_cells``: every edge once as a thin black line (no anti-aliasing, so every pixel
  has an exact palette colour) and cells filled with a colour each.
"""

from __future__ import annotations

import numpy as np
from PIL import ImageDraw

from bench_plugin_sphinx.kit import tilings

#: Largest ratio between a patch's drawn width and height (either way).
ASPECT = 1.45
#: Lattice dimensions tried per tiling (width and height each in this range).
DIMENSIONS = {"square": (2, 12), "triangular": (3, 18), "hexagonal": (2, 11), "rhombille": (1, 7),
              "circles": (2, 12)}
BLACK = (0, 0, 0)


def cell_count(name: str, width: int, height: int) -> int:
    """Cells of a ``width`` x ``height`` patch (three rhombi per hexagon in the rhombille tiling)."""
    return width * height * (3 if name == "rhombille" else 1)


def extent(name: str, width: int, height: int) -> tuple[float, float]:
    """The patch's drawn width and height in unit edges."""
    if name == "square":
        return float(width), float(height)
    if name == "triangular":
        return (width + 1) / 2, height * np.sqrt(3) / 2
    if name in ("hexagonal", "rhombille"):
        return 1.5 * width + 0.5, np.sqrt(3) * (height + (0.5 if width > 1 else 0.0))
    return width + (0.5 if height > 1 else 0.0), 1 + (height - 1) * np.sqrt(3) / 2  # circles


def candidates(name: str, low: int, high: int) -> list[tuple[int, int, int]]:
    """(width, height, cells) of every roughly square patch of ``name`` with ``low`` <= cells <= ``high``."""
    lo, hi = DIMENSIONS[name]
    out = []
    for width in range(lo, hi + 1):
        for height in range(lo if name != "triangular" else 2, hi + 1):
            cells = cell_count(name, width, height)
            w, h = extent(name, width, height)
            if low <= cells <= high and max(w / h, h / w) <= ASPECT:
                out.append((width, height, cells))
    return out


def canvas_side(tiling: tilings.Tiling, edge_px: float, margin: int, low: int, high: int) -> int:
    """The square canvas side (between ``low`` and ``high``) at which edges are about ``edge_px`` long."""
    x0, y0, x1, y1 = tiling.bounds()
    return int(min(high, max(low, round(edge_px * max(x1 - x0, y1 - y0) + 2 * margin))))


def place(tiling: tilings.Tiling, side: int, margin: int) -> np.ndarray:
    """The tiling's pooled vertices in pixels (n x 2), the patch centred in a ``side`` x ``side`` canvas,
    rounded to 0.01 px."""
    scale, dx, dy = tilings.fit(tiling, (side, side), margin)
    xy = np.array(tiling.vertices, dtype=float) * scale + np.array([dx, dy])
    return np.round(xy, 2)


def draw_outlines(draw: ImageDraw.ImageDraw, xy, edges, offset=(0.0, 0.0), width: int = 1, colour=BLACK) -> None:
    """Each edge (a pair of vertex indices into ``xy``) as a straight line, shifted by ``offset``."""
    ox, oy = offset
    for a, b in edges:
        draw.line((xy[a][0] + ox, xy[a][1] + oy, xy[b][0] + ox, xy[b][1] + oy), fill=colour, width=width)


def draw_cells(draw: ImageDraw.ImageDraw, xy, cells, fills, offset=(0.0, 0.0)) -> None:
    """Each cell (a sequence of vertex indices into ``xy``) filled with its colour in ``fills`` (an (r, g, b)
    colour, or a palette index on a palette image; None: left as it is), shifted by ``offset``."""
    ox, oy = offset
    for verts, fill in zip(cells, fills, strict=True):
        if fill is not None:
            ink = fill if isinstance(fill, int) else tuple(fill)
            draw.polygon([(xy[v][0] + ox, xy[v][1] + oy) for v in verts], fill=ink)
