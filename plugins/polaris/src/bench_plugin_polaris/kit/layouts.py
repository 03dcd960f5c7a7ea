"""The two layouts that map one index-space instance to pixels: ``CartesianLayout`` and ``PolarLayout``.

Index space (shared with ``kit.grid``): cell ``(r, c)`` covers the continuous square ``x`` in ``[c, c + 1]``,
``y`` in ``[r, r + 1]``; ``x`` runs along the columns (sectors), ``y`` along the rows (rings); lattice point
``(i, j)`` is ``(x, y) = (j, i)``.  Both layouts have one interface: ``map_point``, ``map_points``,
``map_polyline`` (densified in index space, so a straight index line becomes the true polar curve, spec 9.2),
``cell_polygon``, ``cell_center``, ``lattice_point``, ``inscribed_radius``, ``direction`` and the inverse
maps ``index_at`` / ``cell_at`` / ``cells_at`` for verifiers' pixel reads.  Pixel coordinates are floats with
``y`` down, in the composite image.

Polar: sector 1 (column 0) starts at 12 o'clock and the sectors run clockwise; ring 1 is the innermost.
``orientation="out"`` (the navigation convention) puts the top row (row 0) on the outermost ring, ``"in"``
puts row 0 on ring 1 (innermost).  ``r0`` is the inner radius as a fraction of the outer radius, per task;
``rings`` is ``"uniform"`` (equal thickness) or ``"equal_area"`` (every cell of a sector the same area);
``extra_sectors`` adds sectors beyond the logical columns (S = C + delta; spec 2.6).  Hex, octagonal and
node-link layouts (part 2) implement the same methods.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import attrs
import numpy as np

Point = tuple[float, float]
Box = tuple[float, float, float, float]

#: Most degrees between two samples of a mapped arc (cell outlines, circles).
ARC_STEP_DEG = 2.0
#: Default densification of index-space polylines, in cells (spec 5.2: <= 0.05 cell).
DENSIFY = 0.05
ORIENTATIONS = ("out", "in")
RING_MODES = ("uniform", "equal_area")


def densify(points: Sequence[Point], step: float = DENSIFY) -> list[Point]:
    """``points`` (index space) with points added on every segment so no two consecutive ones are more than
    ``step`` apart; the given points are kept exactly."""
    if step <= 0:
        raise ValueError(f"densify step must be positive, got {step}")
    pts = [(float(x), float(y)) for x, y in points]
    if len(pts) < 2:
        return pts
    out = [pts[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step - 1e-9))
        out.extend((x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n) for k in range(1, n + 1))
    return out


def split_at_wrap(points: Sequence[Point], cols: int) -> list[list[Point]]:
    """An unwrapped index polyline (``x`` may leave ``[0, cols]`` where it crosses the left/right wrap) cut
    into pieces that each lie within ``[0, cols]``, for drawing in the Cartesian rendering of a wrapping
    board; each piece is shifted by a multiple of ``cols``.  Crossing points are interpolated exactly."""
    pieces: list[list[Point]] = []
    current: list[Point] = []
    for k, (x, y) in enumerate(points):
        if k == 0:
            shift = math.floor(x / cols) * cols if not 0 <= x <= cols else 0
            current = [(x - shift, y)]
            continue
        px, py = points[k - 1]
        # walk the segment, cutting at every multiple of cols it crosses
        lo_x, hi_x = sorted((px, x))
        cuts = [m * cols for m in range(math.floor(lo_x / cols) + 1, math.ceil(hi_x / cols))
                if lo_x < m * cols < hi_x]
        if px > x:
            cuts.reverse()
        for cut in cuts:
            t = (cut - px) / (x - px)
            cy = py + (y - py) * t
            current.append((cut - shift, cy))
            pieces.append(current)
            shift = cut if x > px else cut - cols
            current = [(cut - shift, cy)]
        current.append((x - shift, y))
    if current:
        pieces.append(current)
    return [p for p in pieces if len(p) >= 2 or len(pieces) == 1]


class Layout:
    """What both layouts share: densified polylines, cell queries built on ``map_point`` and the inverse."""

    kind = "layout"
    rows: int
    cols: int

    def map_point(self, x: float, y: float) -> Point:  # pragma: no cover - overridden
        raise NotImplementedError

    def map_points(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
        raise NotImplementedError

    def index_points(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError  # pragma: no cover

    @property
    def columns_drawn(self) -> int:
        """How many columns (sectors) the picture has: ``cols`` plus any extra sectors."""
        return self.cols

    def lattice_point(self, i: float, j: float) -> Point:
        """The pixel of lattice point ``(i, j)`` (row line ``i``, column line ``j``)."""
        return self.map_point(j, i)

    def cell_center(self, r: int, c: int) -> Point:
        """The pixel of the centre of cell ``(r, c)`` in index space (``(c + 0.5, r + 0.5)`` mapped)."""
        return self.map_point(c + 0.5, r + 0.5)

    def map_polyline(self, points: Sequence[Point], densify_step: float = DENSIFY) -> list[Point]:
        """``points`` (index space) densified to at most ``densify_step`` cells between samples, then mapped:
        one pixel polyline (no cut at a wrap; see ``map_path``)."""
        dense = densify(points, densify_step)
        if not dense:
            return []
        xs, ys = self.map_points(np.array([p[0] for p in dense]), np.array([p[1] for p in dense]))
        return list(zip(xs.tolist(), ys.tolist(), strict=True))

    def map_path(self, points: Sequence[Point], densify_step: float = DENSIFY, wrap: bool = False
                 ) -> list[list[Point]]:
        """The pixel pieces of an unwrapped index polyline: one piece in polar (the angle wraps by itself),
        cut at the left/right edge in the Cartesian rendering when ``wrap``."""
        if wrap and self.kind == "cartesian":
            return [self.map_polyline(piece, densify_step) for piece in split_at_wrap(points, self.cols)]
        return [self.map_polyline(points, densify_step)]

    def cell_polygon(self, r: int, c: int) -> list[Point]:
        """The outline of cell ``(r, c)`` as a closed pixel polygon (arcs sampled every ``ARC_STEP_DEG``)."""
        n = self._arc_samples(1.0)
        top = [(c + k / n, r) for k in range(n + 1)]
        bottom = [(c + 1 - k / n, r + 1) for k in range(n + 1)]
        xs, ys = self.map_points(np.array([p[0] for p in top + bottom]), np.array([p[1] for p in top + bottom]))
        return list(zip(xs.tolist(), ys.tolist(), strict=True))

    def _arc_samples(self, span: float) -> int:
        return 1

    def index_at(self, px: float, py: float) -> Point | None:
        """The continuous index point ``(x, y)`` drawn at pixel ``(px, py)``, or None outside the grid."""
        x, y, inside = self.index_points(np.array([float(px)]), np.array([float(py)]))
        return (float(x[0]), float(y[0])) if inside[0] else None

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The cell ``(r, c)`` drawn at pixel ``(px, py)``, or None outside the grid (``c`` may be an extra
        sector's column, ``>= cols``)."""
        rows, cols = self.cells_at(np.array([float(px)]), np.array([float(py)]))
        return None if rows[0] < 0 else (int(rows[0]), int(cols[0]))

    def cells_at(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``cell_at``: integer arrays of rows and columns, -1 in both outside the grid."""
        x, y, inside = self.index_points(np.asarray(px, float), np.asarray(py, float))
        r = np.clip(np.floor(y), 0, self.rows - 1).astype(int)
        c = np.clip(np.floor(x), 0, self.columns_drawn - 1).astype(int)
        return np.where(inside, r, -1), np.where(inside, c, -1)

    def direction(self, x: float, y: float, dx: float, dy: float) -> float:
        """The screen angle (degrees, counter-clockwise from the +x pixel axis, y up) of the index-space
        direction ``(dx, dy)`` at index point ``(x, y)``: how to turn a heading-bearing icon there."""
        eps = 1e-3
        x0, y0 = self.map_point(x, y)
        x1, y1 = self.map_point(x + dx * eps, y + dy * eps)
        return math.degrees(math.atan2(-(y1 - y0), x1 - x0))

    def grid_box(self) -> Box:
        """The pixel bounding box of the whole grid."""
        raise NotImplementedError  # pragma: no cover


@attrs.define
class CartesianLayout(Layout):
    """Square cells of ``cell`` px, the grid centred in ``box`` (x0, y0, x1, y1) with ``margin`` px kept free
    around it (index labels, wrap marks); ``cell`` defaults to the largest that fits.  ``wrap`` only records
    that the picture shows dashed side edges (the drawing is ``kit.draw``'s)."""

    rows: int
    cols: int
    box: Box
    margin: float = 48.0
    cell: float | None = None
    wrap: bool = False
    kind = "cartesian"
    origin: Point = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        x0, y0, x1, y1 = self.box
        if self.cell is None:
            self.cell = min((x1 - x0 - 2 * self.margin) / self.cols, (y1 - y0 - 2 * self.margin) / self.rows)
        if self.cell <= 0:
            raise ValueError(f"a {self.rows} x {self.cols} grid does not fit the box {self.box}")
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        self.origin = (cx - self.cell * self.cols / 2, cy - self.cell * self.rows / 2)

    def map_point(self, x: float, y: float) -> Point:
        """The pixel of index point ``(x, y)``: ``origin + cell * (x, y)``."""
        return self.origin[0] + self.cell * x, self.origin[1] + self.cell * y

    def map_points(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``map_point``."""
        return self.origin[0] + self.cell * np.asarray(xs, float), self.origin[1] + self.cell * np.asarray(ys, float)

    def index_points(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Index coordinates of pixels and whether each lies on the grid (``x < cols``, ``y < rows``)."""
        x = (np.asarray(px, float) - self.origin[0]) / self.cell
        y = (np.asarray(py, float) - self.origin[1]) / self.cell
        return x, y, (x >= 0) & (x < self.cols) & (y >= 0) & (y < self.rows)

    def inscribed_radius(self, r: int, c: int) -> float:
        """Half the cell side, in px."""
        return self.cell / 2

    def grid_box(self) -> Box:
        x0, y0 = self.origin
        return x0, y0, x0 + self.cell * self.cols, y0 + self.cell * self.rows


@attrs.define
class PolarLayout(Layout):
    """Rings and sectors centred in ``box`` with ``margin`` px free around the outer circle (sector labels).

    ``r0`` is the inner radius as a fraction of the outer radius; ``orientation`` is ``"out"`` (row 0 =
    outermost ring) or ``"in"`` (row 0 = innermost ring); ``rings`` is ``"uniform"`` or ``"equal_area"``;
    ``extra_sectors`` sectors follow the logical columns clockwise (drawn, never part of the board)."""

    rows: int
    cols: int
    box: Box
    r0: float = 0.25
    orientation: str = "out"
    rings: str = "uniform"
    extra_sectors: int = 0
    margin: float = 48.0
    kind = "polar"
    center: Point = attrs.field(init=False)
    outer: float = attrs.field(init=False)
    inner: float = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation {self.orientation!r} is not one of {', '.join(ORIENTATIONS)}")
        if self.rings not in RING_MODES:
            raise ValueError(f"rings {self.rings!r} is not one of {', '.join(RING_MODES)}")
        if not 0 < self.r0 < 1:
            raise ValueError(f"r0 must lie in (0, 1) (a fraction of the outer radius), got {self.r0}")
        if self.extra_sectors < 0:
            raise ValueError(f"extra_sectors must be >= 0, got {self.extra_sectors}")
        x0, y0, x1, y1 = self.box
        self.center = ((x0 + x1) / 2, (y0 + y1) / 2)
        self.outer = min(x1 - x0, y1 - y0) / 2 - self.margin
        if self.outer <= 0:
            raise ValueError(f"a polar grid does not fit the box {self.box} with margin {self.margin}")
        self.inner = self.r0 * self.outer

    @property
    def sectors(self) -> int:
        """S = cols + extra_sectors."""
        return self.cols + self.extra_sectors

    @property
    def columns_drawn(self) -> int:
        return self.sectors

    def ring_of_row(self, r: int) -> int:
        """The ring index (0 = innermost) that row ``r`` is drawn on."""
        return self.rows - 1 - r if self.orientation == "out" else r

    def row_of_ring(self, ring: int) -> int:
        """The row drawn on ring ``ring`` (0 = innermost): ``ring_of_row`` inverted."""
        return self.ring_of_row(ring)

    def radius(self, y: np.ndarray | float) -> np.ndarray | float:
        """The pixel radius of row coordinate ``y`` (``y = 0`` is the top edge of row 0)."""
        u = (self.rows - np.asarray(y, float)) if self.orientation == "out" else np.asarray(y, float)
        if self.rings == "uniform":
            return self.inner + u * (self.outer - self.inner) / self.rows
        return np.sqrt(self.inner ** 2 + u * (self.outer ** 2 - self.inner ** 2) / self.rows)

    def ring_radius(self, k: float) -> float:
        """The radius of ring boundary ``k`` (0 = the inner circle, ``rows`` = the outer circle)."""
        y = self.rows - k if self.orientation == "out" else k
        return float(self.radius(y))

    def _row_of_radius(self, rho: np.ndarray) -> np.ndarray:
        if self.rings == "uniform":
            u = (rho - self.inner) * self.rows / (self.outer - self.inner)
        else:
            u = (rho ** 2 - self.inner ** 2) * self.rows / (self.outer ** 2 - self.inner ** 2)
        return self.rows - u if self.orientation == "out" else u

    def angle(self, x: np.ndarray | float) -> np.ndarray | float:
        """The math angle (radians, counter-clockwise from 3 o'clock) of column coordinate ``x``:
        ``pi/2 - 2 pi x / S`` (x = 0 at 12 o'clock, increasing clockwise)."""
        return np.pi / 2 - 2 * np.pi * np.asarray(x, float) / self.sectors

    def map_point(self, x: float, y: float) -> Point:
        """The pixel of index point ``(x, y)``: angle from ``x``, radius from ``y`` (any real ``x``: the
        angle wraps).  ``map_points``' formulas on Python floats (one point: no arrays to build)."""
        u = (self.rows - float(y)) if self.orientation == "out" else float(y)
        if self.rings == "uniform":
            rho = self.inner + u * (self.outer - self.inner) / self.rows
        else:
            rho = math.sqrt(self.inner ** 2 + u * (self.outer ** 2 - self.inner ** 2) / self.rows)
        theta = math.pi / 2 - 2 * math.pi * float(x) / self.sectors
        return self.center[0] + rho * math.cos(theta), self.center[1] - rho * math.sin(theta)

    def map_points(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``map_point``."""
        rho, theta = self.radius(ys), self.angle(xs)
        return self.center[0] + rho * np.cos(theta), self.center[1] - rho * np.sin(theta)

    def index_points(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Index coordinates of pixels (``x`` in ``[0, S)``) and whether each lies between the circles."""
        dx = np.asarray(px, float) - self.center[0]
        dy = self.center[1] - np.asarray(py, float)
        rho = np.hypot(dx, dy)
        theta = np.arctan2(dy, dx)
        x = np.mod((np.pi / 2 - theta) * self.sectors / (2 * np.pi), self.sectors)
        x = np.where(x >= self.sectors, 0.0, x)
        y = self._row_of_radius(rho)
        return x, y, (rho >= self.inner) & (rho < self.outer)

    def _arc_samples(self, span: float) -> int:
        return max(1, math.ceil(span * 360.0 / self.sectors / ARC_STEP_DEG))

    def inscribed_radius(self, r: int, c: int) -> float:
        """About the radius of the largest disc inside cell ``(r, c)``: half the smaller of the ring
        thickness and the chord of the sector at the cell's mid radius."""
        a, b = sorted((float(self.radius(r)), float(self.radius(r + 1))))
        chord = 2 * (a + b) / 2 * math.sin(math.pi / self.sectors)
        return min(b - a, chord) / 2

    def clearance(self) -> float:
        """The innermost cell's clearance (spec 5.2): min(ring thickness, arc length at its mid radius)."""
        a, b = self.ring_radius(0), self.ring_radius(1)
        return min(b - a, (a + b) / 2 * 2 * math.pi / self.sectors)

    def grid_box(self) -> Box:
        cx, cy = self.center
        return cx - self.outer, cy - self.outer, cx + self.outer, cy + self.outer

    def seam(self) -> tuple[Point, Point]:
        """The pixel ends (inner, outer) of the radial line at 12 o'clock (lattice line x = 0 = x = S)."""
        cx, cy = self.center
        return (cx, cy - self.inner), (cx, cy - self.outer)


def layout_for(variant: str, rows: int, cols: int, box: Box, **geometry: object) -> Layout:
    """The layout of ``variant`` ("cartesian" or "polar") with the geometry settings that apply to it
    (Cartesian: margin, cell, wrap; polar: r0, orientation, rings, extra_sectors, margin; others ignored)."""
    if variant == "cartesian":
        keys = ("margin", "cell", "wrap")
        return CartesianLayout(rows, cols, box, **{k: v for k, v in geometry.items() if k in keys})
    if variant == "polar":
        keys = ("r0", "orientation", "rings", "extra_sectors", "margin")
        return PolarLayout(rows, cols, box, **{k: v for k, v in geometry.items() if k in keys})
    raise ValueError(f"variant {variant!r} is not one of cartesian, polar")


def cells_crossed(points: Iterable[Point], step: float = 0.01) -> list[tuple[int, int]]:
    """The cells an index-space polyline passes through, in order, each once (the logical model's answer
    to "which cells does this line cross"; sampled every ``step`` cells, points on a cell edge count for
    the cell they enter)."""
    seen: list[tuple[int, int]] = []
    for x, y in densify(list(points), step):
        cell = (math.floor(y), math.floor(x))
        if cell not in seen:
            seen.append(cell)
    return seen
