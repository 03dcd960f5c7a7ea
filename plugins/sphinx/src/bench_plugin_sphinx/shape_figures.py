"""The line figures of ``sphinx/shape-counting`` (paper B.2.2, spec T7) and their exact counts.

Each generator draws one connected figure in lattice coordinates (u, v) from the item's generator and counts
its sub-shapes with a closed-form or combinatorial routine matched to the figure (never by looking at the
drawing):

- ``grid_regular``: an r x c grid; squares sum_k (r - k + 1)(c - k + 1), rectangles C(r + 1, 2) C(c + 1, 2);
- ``grid_irregular``: a grid whose interior lines are dropped whole; with kept line sets X and Y, rectangles
  C(|X|, 2) C(|Y|, 2), squares sum over gaps d of (pairs of X at distance d)(pairs of Y at distance d);
- ``polyomino_axis``: a base rectangle with one to three rectangles attached to its sides, and
  ``staircase``: rows of falling length; every unit cell outlined; squares and rectangles are the fully
  occupied k x k windows and sub-rectangles of the occupancy mask (a figure with a hole is refused, since
  a hole's outline would be a shape the mask does not hold);
- ``inscribed``: squares and circles nested alternately, each inscribed in the one before, some layers left
  out; the squares are those drawn;
- ``skew_regular``, ``skew_irregular``, ``polyomino_skew``: the same grids and polyominoes on a sheared
  lattice; parallelograms as the rectangles of the unsheared figure;
- ``tri_lattice``: an equilateral triangle of side n cut by lines parallel to its sides (all of them, or
  with some dropped whole); triangles by enumerating one kept line of each direction: upward triangles
  i + j + k < n, downward ones i + j + k > n with every pair sum <= n.

A figure is a dict: ``segments`` (lattice endpoints), ``cells`` (lattice polygons to tint), ``circles``,
``basis`` (the lattice vectors in pixels per unit before fitting) and ``counts`` per shape kind.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np

SHAPES = ("squares", "rectangles", "parallelograms", "triangles")
#: The figure generators of each asked shape, with the weights they are drawn with (irregular ones x 1.35,
#: as the released generator weights them).
GENERATORS: dict[str, dict[str, float]] = {
    "squares": {"grid_regular": 1.0, "grid_irregular": 1.35, "polyomino_axis": 1.0, "staircase": 0.5,
                "inscribed": 0.6},
    "rectangles": {"grid_regular": 1.0, "grid_irregular": 1.35, "polyomino_axis": 1.0},
    "parallelograms": {"skew_regular": 1.0, "skew_irregular": 1.35, "polyomino_skew": 1.0},
    "triangles": {"tri_lattice": 1.0},
}
FIGURES = tuple(dict.fromkeys(name for table in GENERATORS.values() for name in table))
#: Squares in a full ``inscribed`` figure (the innermost is 1/8 of the outer one's side).
INSCRIBED_DEPTH = 7
_SQ3 = math.sqrt(3.0)


def pairs(n: int) -> int:
    return n * (n - 1) // 2


def _gap_pairs(lines: list[int]) -> dict[int, int]:
    """How many pairs of ``lines`` lie at each distance."""
    out: dict[int, int] = {}
    for a, b in combinations(lines, 2):
        out[abs(b - a)] = out.get(abs(b - a), 0) + 1
    return out


def grid_counts(xs: list[int], ys: list[int]) -> dict[str, int]:
    """Rectangles and squares of a grid drawn with full lines at ``xs`` (vertical) and ``ys`` (horizontal)."""
    gx, gy = _gap_pairs(xs), _gap_pairs(ys)
    return {"rectangles": pairs(len(xs)) * pairs(len(ys)), "squares": sum(n * gy.get(d, 0) for d, n in gx.items())}


def _grid_segments(xs: list[int], ys: list[int]) -> list[tuple]:
    return ([((x, ys[0]), (x, ys[-1])) for x in xs] + [((xs[0], y), (xs[-1], y)) for y in ys])


def _kept(rng: np.random.Generator, n: int, drop: float) -> list[int]:
    """Lines 0..n with each interior one kept with probability 1 - drop."""
    return [0, *[k for k in range(1, n) if rng.random() >= drop], n]


def occupancy_counts(cells: set[tuple[int, int]]) -> dict[str, int]:
    """Squares and rectangles made of occupied unit cells only (all of whose cells are in ``cells``)."""
    us = [u for u, _ in cells]
    vs = [v for _, v in cells]
    w, h = max(us) + 1, max(vs) + 1
    grid = np.zeros((h, w), dtype=bool)
    for u, v in cells:
        grid[v, u] = True
    rectangles = squares = 0
    for top in range(h):
        run = np.ones(w, dtype=bool)
        for bottom in range(top, h):
            run &= grid[bottom]
            length = 0
            for ok in run:
                length = length + 1 if ok else 0
                rectangles += length  # sub-rectangles of rows top..bottom ending at this column
                squares += length >= bottom - top + 1
    return {"rectangles": rectangles, "squares": squares, "parallelograms": rectangles}


def has_hole(cells: set[tuple[int, int]]) -> bool:
    """Whether some empty cell inside the bounding box cannot reach the outside through empty cells."""
    us = [u for u, _ in cells]
    vs = [v for _, v in cells]
    lo_u, hi_u, lo_v, hi_v = min(us) - 1, max(us) + 1, min(vs) - 1, max(vs) + 1
    seen = {(lo_u, lo_v)}
    stack = [(lo_u, lo_v)]
    while stack:
        u, v = stack.pop()
        for nu, nv in ((u + 1, v), (u - 1, v), (u, v + 1), (u, v - 1)):
            if lo_u <= nu <= hi_u and lo_v <= nv <= hi_v and (nu, nv) not in cells and (nu, nv) not in seen:
                seen.add((nu, nv))
                stack.append((nu, nv))
    empty = (hi_u - lo_u + 1) * (hi_v - lo_v + 1) - len(cells)
    return len(seen) != empty


def cell_segments(cells: set[tuple[int, int]]) -> list[tuple]:
    """The outlines of the unit cells, merged into maximal straight runs."""
    horizontal: dict[int, set[int]] = {}
    vertical: dict[int, set[int]] = {}
    for u, v in cells:
        horizontal.setdefault(v, set()).add(u)
        horizontal.setdefault(v + 1, set()).add(u)
        vertical.setdefault(u, set()).add(v)
        vertical.setdefault(u + 1, set()).add(v)
    segments = []
    for v, us in sorted(horizontal.items()):
        for start, end in _runs(sorted(us)):
            segments.append(((start, v), (end + 1, v)))
    for u, vs in sorted(vertical.items()):
        for start, end in _runs(sorted(vs)):
            segments.append(((u, start), (u, end + 1)))
    return segments


def _runs(values: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for value in values:
        if runs and value == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], value)
        else:
            runs.append((value, value))
    return runs


def _square_cells(cells: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    return [[(u, v), (u + 1, v), (u + 1, v + 1), (u, v + 1)] for u, v in sorted(cells)]


# -- generators: each (rng) -> figure dict, or None when the draw is refused ----------------------------------


def grid_regular(rng: np.random.Generator, aspect: float = 1.0, skew: float = 0.0) -> dict[str, Any]:
    r, c = int(rng.integers(1, 6)), int(rng.integers(1, 8))
    xs, ys = list(range(c + 1)), list(range(r + 1))
    return _grid_figure(xs, ys, aspect, skew, {"rows": r, "cols": c})


def grid_irregular(rng: np.random.Generator, aspect: float = 1.0, skew: float = 0.0) -> dict[str, Any]:
    r, c = int(rng.integers(2, 7)), int(rng.integers(2, 9))
    drop = float(rng.uniform(0.2, 0.5))
    xs, ys = _kept(rng, c, drop), _kept(rng, r, drop)
    return _grid_figure(xs, ys, aspect, skew, {"rows": r, "cols": c, "drop": round(drop, 4)})


def _grid_figure(xs, ys, aspect, skew, params) -> dict[str, Any]:
    counts = grid_counts(xs, ys)
    counts["parallelograms"] = counts["rectangles"]
    cell = [[(xs[0], ys[0]), (xs[-1], ys[0]), (xs[-1], ys[-1]), (xs[0], ys[-1])]]
    return {"segments": _grid_segments(xs, ys), "cells": cell, "circles": [], "basis": _basis(aspect, skew),
            "counts": counts, "params": {**params, "xs": xs, "ys": ys}}


def _basis(aspect: float, skew: float) -> list[list[float]]:
    """Pixel vectors of the lattice's u and v steps (before scaling): v runs down, sheared by ``skew``."""
    return [[1.0, 0.0], [skew * aspect, aspect]]


def _attached(rng: np.random.Generator) -> set[tuple[int, int]]:
    a, b = int(rng.integers(2, 6)), int(rng.integers(1, 4))
    cells = {(u, v) for u in range(a) for v in range(b)}
    for _ in range(int(rng.integers(1, 4))):
        w, h = int(rng.integers(1, 4)), int(rng.integers(1, 3))
        side = int(rng.integers(4))
        if side in (0, 1):  # above or below the base, somewhere along it
            u0 = int(rng.integers(0, a))
            v0 = -h if side == 0 else b
            cells |= {(u0 + du, v0 + dv) for du in range(min(w, a - u0 + 1)) for dv in range(h)}
        else:  # left or right of it
            v0 = int(rng.integers(0, b))
            u0 = -h if side == 2 else a
            cells |= {(u0 + du, v0 + dv) for du in range(h) for dv in range(min(w, b - v0 + 1))}
    lo_u = min(u for u, _ in cells)
    lo_v = min(v for _, v in cells)
    return {(u - lo_u, v - lo_v) for u, v in cells}


def polyomino_axis(rng: np.random.Generator, skew: float = 0.0) -> dict[str, Any] | None:
    cells = _attached(rng)
    if has_hole(cells):
        return None
    return _cells_figure(cells, skew, {"cells": sorted(cells)})


def staircase(rng: np.random.Generator) -> dict[str, Any]:
    steps, width = int(rng.integers(2, 6)), int(rng.integers(1, 3))
    cells = {(u, v) for v in range(steps) for u in range(width * (v + 1))}
    if rng.random() < 0.5:  # the long row on top or at the bottom
        cells = {(u, steps - 1 - v) for u, v in cells}
    return _cells_figure(cells, 0.0, {"steps": steps, "width": width})


def polyomino_skew(rng: np.random.Generator) -> dict[str, Any] | None:
    return polyomino_axis(rng, skew=_skew(rng))


def _cells_figure(cells, skew, params) -> dict[str, Any]:
    return {"segments": cell_segments(cells), "cells": _square_cells(cells), "circles": [],
            "basis": _basis(1.0, skew), "counts": occupancy_counts(cells), "params": params}


def _skew(rng: np.random.Generator) -> float:
    return round(float(rng.choice([-1, 1]) * rng.uniform(0.35, 0.8)), 4)


def skew_regular(rng: np.random.Generator) -> dict[str, Any]:
    return grid_regular(rng, aspect=float(rng.uniform(0.7, 1.1)), skew=_skew(rng))


def skew_irregular(rng: np.random.Generator) -> dict[str, Any]:
    return grid_irregular(rng, aspect=float(rng.uniform(0.7, 1.1)), skew=_skew(rng))


def inscribed(rng: np.random.Generator) -> dict[str, Any] | None:
    """Squares and circles nested alternately (square, its incircle, the square inscribed in that circle
    turned 45 degrees, ...), seven squares deep; each layer but the outer square is left out with a
    probability of 0.15-0.45.  Lattice units: the outer square has side 1, centred on (0.5, 0.5)."""
    drop = float(rng.uniform(0.15, 0.45))
    segments, circles, drawn = [], [], 0
    for k in range(INSCRIBED_DEPTH):
        side = 0.5 ** (k / 2)
        if k == 0 or rng.random() >= drop:
            drawn += 1
            half = side / 2
            if k % 2 == 0:
                corners = [(0.5 - half, 0.5 - half), (0.5 + half, 0.5 - half), (0.5 + half, 0.5 + half),
                           (0.5 - half, 0.5 + half)]
            else:
                d = side / math.sqrt(2)  # half the diagonal of the turned square
                corners = [(0.5, 0.5 - d), (0.5 + d, 0.5), (0.5, 0.5 + d), (0.5 - d, 0.5)]
            segments += [(corners[i], corners[(i + 1) % 4]) for i in range(4)]
        if k < INSCRIBED_DEPTH - 1 and rng.random() >= drop:
            circles.append((0.5, 0.5, side / 2))
    return {"segments": segments, "cells": [], "circles": circles, "basis": _basis(1.0, 0.0),
            "counts": {"squares": drawn}, "params": {"drop": round(drop, 4)}}


def triangle_counts(n: int, xs: list[int], ys: list[int], zs: list[int]) -> int:
    """Triangles in a triangle of side ``n`` cut by kept lines u = i (i in xs), v = j (ys), n - u - v = k (zs),
    each list holding 0 (the outer sides)."""
    up = sum(1 for i in xs for j in ys for k in zs if i + j + k < n)
    down = sum(1 for i in xs for j in ys for k in zs
               if i + j + k > n and i + j <= n and j + k <= n and i + k <= n)
    return up + down


def tri_lattice(rng: np.random.Generator) -> dict[str, Any]:
    """A triangle of side n in lattice units (u along the base, v up its left side), cut by every line
    parallel to a side at whole distances, or (half the time) with some of those lines dropped whole."""
    n = int(rng.integers(2, 7))
    drop = 0.0 if rng.random() < 0.5 else float(rng.uniform(0.2, 0.5))
    xs, ys, zs = (_kept(rng, n, drop)[:-1] for _ in range(3))
    segments = ([((i, 0), (i, n - i)) for i in xs] + [((0, j), (n - j, j)) for j in ys]
                + [((0, n - k), (n - k, 0)) for k in zs])
    basis = [[1.0, 0.0], [0.5, -_SQ3 / 2]]
    if rng.random() < 0.5:  # apex down
        basis = [[1.0, 0.0], [0.5, _SQ3 / 2]]
    return {"segments": segments, "cells": [[(0, 0), (n, 0), (0, n)]], "circles": [], "basis": basis,
            "counts": {"triangles": triangle_counts(n, xs, ys, zs)},
            "params": {"side": n, "drop": round(drop, 4), "xs": xs, "ys": ys, "zs": zs}}


BUILDERS: dict[str, Callable[[np.random.Generator], dict[str, Any] | None]] = {
    "grid_regular": grid_regular, "grid_irregular": grid_irregular, "polyomino_axis": polyomino_axis,
    "staircase": staircase, "inscribed": inscribed, "skew_regular": skew_regular,
    "skew_irregular": skew_irregular, "polyomino_skew": polyomino_skew, "tri_lattice": tri_lattice,
}


def rectangle_aspect(rng: np.random.Generator) -> float:
    """Cell aspect of a grid asked about rectangles (any shape of cell)."""
    return float(rng.uniform(0.65, 1.5))


def draw(figure_name: str, shape: str, rng: np.random.Generator) -> dict[str, Any] | None:
    """One figure of ``figure_name`` for a question about ``shape``, or None when the draw is refused."""
    if figure_name in ("grid_regular", "grid_irregular") and shape == "rectangles":
        return BUILDERS[figure_name](rng, aspect=rectangle_aspect(rng))  # type: ignore[call-arg]
    return BUILDERS[figure_name](rng)
