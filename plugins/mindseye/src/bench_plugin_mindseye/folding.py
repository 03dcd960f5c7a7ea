"""Exact plane geometry shared by Paper Folding (PF) and Symmetric Structures (SS): reflections and rotations
as 3x3 affine matrices, the folded sheet as a stack of convex layers, punched holes, and a few drawing
helpers (dashed lines, a curved arrow) for line-art panels.

The paper's PF rule (App. C): a square or hexagonal sheet, two folds, one hole punched "at a random valid
coordinate inside the polygon", holes found by unfolding.  We track every layer exactly (spec §2.7, §7.2):
a fold reflects the part of the stack on its moving side about the *actual* fold line of the current state,
and a punch makes one hole per layer under it, so a hole appears only where paper exists.

Coordinates are tile units: x to the right, y downwards, the panel is the unit square.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import attrs
import numpy as np
import shapely
from PIL import ImageDraw
from shapely.geometry import LineString, Point, Polygon

Matrix = np.ndarray
XY = tuple[float, float]

#: Sheet outlines in tile units, centred in the panel (the square axis-aligned, the hexagon pointy-top so
#: that both the vertical and the horizontal line through its centre are symmetry axes).
SQUARE_HALF_SIDE = 0.37
HEXAGON_RADIUS = 0.42
CENTRE: XY = (0.5, 0.5)


# -- affine maps --------------------------------------------------------------------------------------
_EYE2 = np.eye(2)
_EYE2.setflags(write=False)
_EYE3 = np.eye(3)
_EYE3.setflags(write=False)


def reflection(anchor: Sequence[float], angle_deg: float) -> Matrix:
    """The reflection about the line through ``anchor`` with direction ``angle_deg`` (0 = horizontal)."""
    t = math.radians(angle_deg)
    d = np.array([math.cos(t), math.sin(t)])
    r = 2.0 * np.outer(d, d) - _EYE2
    a = np.asarray(anchor, dtype=float)
    m = _EYE3.copy()
    m[:2, :2] = r
    m[:2, 2] = a - r @ a
    return m


def rotation(centre: Sequence[float], angle_deg: float) -> Matrix:
    """The rotation by ``angle_deg`` about ``centre``."""
    t = math.radians(angle_deg)
    r = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    c = np.asarray(centre, dtype=float)
    m = _EYE3.copy()
    m[:2, :2] = r
    m[:2, 2] = c - r @ c
    return m


def apply(matrix: Matrix, points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """``matrix`` applied to an (n, 2) array of points."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    return p @ matrix[:2, :2].T + matrix[:2, 2]


def transform(geometry: shapely.Geometry, matrix: Matrix) -> shapely.Geometry:
    """A shapely geometry mapped by ``matrix``."""
    return shapely.transform(geometry, lambda xy: apply(matrix, xy))


# -- the sheet --------------------------------------------------------------------------------------------
def sheet_polygon(shape: str) -> Polygon:
    """The unfolded sheet: ``"square"`` or ``"hexagon"``."""
    cx, cy = CENTRE
    if shape == "square":
        h = SQUARE_HALF_SIDE
        return Polygon([(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)])
    if shape == "hexagon":
        r = HEXAGON_RADIUS
        return Polygon([(cx + r * math.cos(math.radians(90 + 60 * k)), cy + r * math.sin(math.radians(90 + 60 * k)))
                        for k in range(6)])
    raise ValueError(f"unknown sheet shape {shape!r}")


def sheet_rotations(shape: str) -> tuple[float, ...]:
    """Rotation angles (degrees, about the sheet centre) that map the sheet onto itself, identity excluded."""
    return (90.0, 180.0, 270.0) if shape == "square" else (60.0, 120.0, 180.0, 240.0, 300.0)


@attrs.frozen
class Fold:
    """One fold: the crease line (through ``anchor`` at ``angle`` degrees) and the side that moves.

    ``side`` is +1 or -1: the points ``x`` with ``side * n . (x - anchor) > 0`` move, where ``n`` is the
    line's left normal ``(-sin, cos)``.  The moving part is reflected about the line and laid on top.
    """

    anchor: XY = attrs.field(converter=lambda a: (float(a[0]), float(a[1])))
    angle: float = attrs.field(converter=float)
    side: int

    @property
    def normal(self) -> np.ndarray:
        t = math.radians(self.angle)
        return np.array([-math.sin(t), math.cos(t)]) * self.side

    @property
    def matrix(self) -> Matrix:
        return reflection(self.anchor, self.angle)

    def moving_halfplane(self, reach: float = 10.0) -> Polygon:
        """A large polygon covering the moving side of the crease."""
        t = math.radians(self.angle)
        d = np.array([math.cos(t), math.sin(t)]) * reach
        n = self.normal * reach
        a = np.asarray(self.anchor)
        return Polygon([a - d, a + d, a + d + n, a - d + n])

    def line(self, reach: float = 10.0) -> LineString:
        t = math.radians(self.angle)
        d = np.array([math.cos(t), math.sin(t)]) * reach
        a = np.asarray(self.anchor)
        return LineString([a - d, a + d])


@attrs.frozen
class Layer:
    """One layer of the folded stack: its convex outline now, the map from now back to the unfolded sheet,
    and the indices of the folds that moved it."""

    polygon: Polygon
    to_sheet: Matrix = attrs.field(eq=False)
    moved_by: tuple[int, ...] = ()


#: Pieces thinner than this (area, tile units squared) are numerical dust from clipping along a crease.
_DUST = 1e-7


def _polygons(geometry: shapely.Geometry) -> list[Polygon]:
    return [g for g in shapely.get_parts(geometry) if isinstance(g, Polygon) and g.area > _DUST]


def fold_stack(layers: Sequence[Layer], fold: Fold, index: int) -> list[Layer]:
    """The stack after ``fold`` (the ``index``-th): staying parts keep their place, moving parts are
    reflected about the crease and stacked on top in reverse order (the flap turns over onto the pile)."""
    moving = fold.moving_halfplane()
    staying: list[Layer] = []
    moved: list[Layer] = []
    flip = fold.matrix
    for layer in layers:
        for piece in _polygons(layer.polygon.difference(moving)):
            staying.append(Layer(piece, layer.to_sheet, layer.moved_by))
        for piece in _polygons(layer.polygon.intersection(moving)):
            moved.append(Layer(transform(piece, flip), layer.to_sheet @ flip, (*layer.moved_by, index)))
    return staying + moved[::-1]


def fold_sequence(sheet: Polygon, folds: Sequence[Fold]) -> list[list[Layer]]:
    """The stack before any fold and after each fold (``len(folds) + 1`` states)."""
    states = [[Layer(sheet, np.eye(3))]]
    for k, fold in enumerate(folds):
        states.append(fold_stack(states[-1], fold, k))
    return states


def outline(layers: Iterable[Layer]) -> shapely.Geometry:
    """The silhouette of a stack."""
    return shapely.union_all([layer.polygon for layer in layers])


def split_fraction(layers: Sequence[Layer], fold: Fold) -> float:
    """The share of the stack's silhouette area on the fold's moving side."""
    shape = outline(layers)
    return float(shape.intersection(fold.moving_halfplane()).area / shape.area)


def boundary_clearance(layers: Sequence[Layer], points: np.ndarray) -> np.ndarray:
    """For each point, the distance to the nearest edge of any layer (edges include every crease)."""
    boundaries = shapely.boundary(np.array([layer.polygon for layer in layers], dtype=object))
    pts = shapely.points(np.asarray(points, dtype=float))
    return shapely.distance(boundaries[:, None], pts[None, :]).min(axis=0)


def layers_under(layers: Sequence[Layer], points: np.ndarray) -> np.ndarray:
    """For each point, how many layers lie under it."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    return sum(shapely.contains_xy(layer.polygon, p[:, 0], p[:, 1]).astype(int) for layer in layers)


def punch(layers: Sequence[Layer], point: Sequence[float]) -> list[tuple[XY, tuple[int, ...]]]:
    """The holes a punch at ``point`` makes on the unfolded sheet: one per layer under it, each with the folds
    that had moved that layer."""
    p = Point(point)
    holes = []
    for layer in layers:
        if layer.polygon.contains(p):
            x, y = apply(layer.to_sheet, [point])[0]
            holes.append(((float(x), float(y)), layer.moved_by))
    return holes


def creases(states: Sequence[Sequence[Layer]], folds: Sequence[Fold]) -> list[tuple[XY, XY]]:
    """The crease segments on the unfolded sheet: each fold line cut by every layer it crosses, mapped back."""
    segments = []
    for layers, fold in zip(states, folds, strict=False):
        line = fold.line()
        for layer in layers:
            cut = layer.polygon.intersection(line)
            for part in shapely.get_parts(cut):
                if isinstance(part, LineString) and part.length > 1e-6:
                    a, b = apply(layer.to_sheet, np.asarray(part.coords)[[0, -1]])
                    segments.append(((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))))
    return segments


# -- hole sets --------------------------------------------------------------------------------------------
def dedup(points: Sequence[Sequence[float]], tolerance: float) -> list[XY]:
    """Points with near-duplicates (closer than ``tolerance``) merged, in a canonical order."""
    kept: list[XY] = []
    for x, y in points:
        if all(math.hypot(x - a, y - b) >= tolerance for a, b in kept):
            kept.append((float(x), float(y)))
    return sorted(kept)


def same_set(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], tolerance: float) -> bool:
    """True if both point sets have the same size and every point of each lies within ``tolerance`` of the
    other set (equal as drawn hole patterns)."""
    if len(a) != len(b):
        return False
    if not len(a):
        return True
    pa = [(float(x), float(y)) for x, y in a]
    pb = [(float(x), float(y)) for x, y in b]
    # plain arithmetic on a few points: each distance is sqrt(dx * dx + dy * dy), as numpy's norm computes it
    d = [[math.sqrt((x - u) * (x - u) + (y - v) * (y - v)) for u, v in pb] for x, y in pa]
    return max(min(row) for row in d) < tolerance and max(min(column) for column in zip(*d, strict=True)) < tolerance


def min_separation(points: Sequence[Sequence[float]]) -> float:
    """The smallest distance between two of the points (inf for fewer than two)."""
    p = [(float(x), float(y)) for x, y in np.asarray(points, dtype=float).reshape(-1, 2)]
    best = math.inf
    for i, (x, y) in enumerate(p):
        for u, v in p[i + 1:]:
            best = min(best, math.sqrt((x - u) * (x - u) + (y - v) * (y - v)))
    return best


# -- drawing helpers ----------------------------------------------------------------------------------------
def dashed_line(draw: ImageDraw.ImageDraw, a: XY, b: XY, dash: float, gap: float, fill: tuple[int, int, int] | int,
                width: int) -> None:
    """A dashed straight line from ``a`` to ``b`` in pixel units."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    s = 0.0
    while s < length:
        e = min(s + dash, length)
        draw.line([(a[0] + ux * s, a[1] + uy * s), (a[0] + ux * e, a[1] + uy * e)], fill=fill, width=width)
        s = e + gap


def dashed_ring(draw: ImageDraw.ImageDraw, ring: Sequence[XY], dash: float, gap: float,
                fill: tuple[int, int, int] | int, width: int) -> None:
    """A dashed closed outline through ``ring`` (pixel units)."""
    for a, b in zip(ring, [*ring[1:], ring[0]], strict=True):
        dashed_line(draw, a, b, dash, gap, fill, width)


def curved_arrow(draw: ImageDraw.ImageDraw, start: XY, end: XY, bend: float, head: float,
                 fill: tuple[int, int, int], width: int) -> None:
    """An arc from ``start`` to ``end`` bulging sideways by ``bend`` times its length, with an arrowhead
    ``head`` pixels long at ``end`` (the direction a flap is turned over)."""
    sx, sy = start
    ex, ey = end
    mx, my = (sx + ex) / 2, (sy + ey) / 2
    length = math.hypot(ex - sx, ey - sy)
    if length == 0:
        return
    nx, ny = -(ey - sy) / length, (ex - sx) / length
    cx, cy = mx + nx * bend * length, my + ny * bend * length
    ts = np.linspace(0.0, 1.0, 24)
    xs = (1 - ts) ** 2 * sx + 2 * (1 - ts) * ts * cx + ts**2 * ex
    ys = (1 - ts) ** 2 * sy + 2 * (1 - ts) * ts * cy + ts**2 * ey
    # stop the shaft short of the tip so the head stays sharp
    draw.line(list(zip(xs[:-2], ys[:-2], strict=True)), fill=fill, width=width, joint="curve")
    tx, ty = ex - cx, ey - cy
    norm = math.hypot(tx, ty) or 1.0
    tx, ty = tx / norm, ty / norm
    left = (ex - head * (tx + 0.55 * ty), ey - head * (ty - 0.55 * tx))
    right = (ex - head * (tx - 0.55 * ty), ey - head * (ty + 0.55 * tx))
    draw.polygon([(ex, ey), left, right], fill=fill)
