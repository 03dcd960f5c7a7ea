"""Acceptance checks of relation abstraction's generator: whether a drawn figure is legible (clear corners and
crossings), how many straight lines its program has, whether it is clearly asymmetric, where its stroke ends
lie, whether it shows a half disc.  The verifier measures figures with its own code (``verifiers``); these
checks only decide which figures the generator may draw.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely.geometry import LineString, Polygon

from bench_plugin_mindseye.attributes import (
    _CONCAVE,
    _CONVEX,
    AMBIGUOUS,
    LineFigure,
    StrokeShape,
    _band,
    _rays_at,
)
from bench_plugin_mindseye.strokes import Stroke

#: Relative to the figure size: a stroke end touches another stroke when it lies on it (closer than
#: LOOSE_TOUCH: a polyline's chords cut an arc by a little), it is loose further than LOOSE_APART; in between
#: it looks attached once drawn but closes no region in the geometry (the figure is rejected).
LOOSE_TOUCH, LOOSE_APART = 0.002, 0.045


#: A stroke turning back by more than this many degrees at a vertex draws a spike.
MAX_TURN = 168.0


#: Strokes must cross at least at this angle (degrees) to be seen crossing.
MIN_CROSSING_ANGLE = 20.0


#: Arcs sweeping this many degrees with one straight side make a half disc, which is neither clearly a sector
#: nor clearly not one (issue 10): figures with such a region are rejected.
HALF_DISC = (145.0, 215.0)


def legible_corners(stroke: Stroke) -> bool:
    """False if the stroke turns at a vertex between two straight edges by 1-25 degrees (neither one line nor a
    corner), or turns back by more than ``MAX_TURN`` anywhere (a spike that retraces its own line)."""
    n = len(stroke.points)
    count = len(stroke.bulges)
    ends = []  # (start tangent, end tangent) of every edge, arcs leaving their chord by half their angle
    for i in range(count):
        a, b = stroke.edge(i)
        chord = np.arctan2(b[1] - a[1], b[0] - a[0])
        half = 2.0 * np.arctan(stroke.bulges[i])  # theta / 2, signed towards the bulge
        ends.append((chord + half, chord - half))
    joins = range(count) if stroke.closed else range(count - 1)
    for i in joins:
        j = (i + 1) % n if stroke.closed else i + 1
        turn = abs(np.degrees((ends[j % count][0] - ends[i][1] + np.pi) % (2 * np.pi) - np.pi))
        straight = abs(stroke.bulges[i]) < 1e-9 and abs(stroke.bulges[j % count]) < 1e-9
        if turn > MAX_TURN or (straight and 1.0 <= turn < 25.0):
            return False
    return True


def program_lines(strokes: Sequence[Stroke]) -> int:
    """The straight lines of the figure's program: straight edges, consecutive ones that go straight on
    (turning less than a degree) counted once."""
    count = 0
    for s in strokes:
        straight = np.abs(s.bulges) < 1e-9
        count += int(straight.sum())
        joins = range(len(s.bulges)) if s.closed else range(len(s.bulges) - 1)
        for i in joins:
            j = (i + 1) % len(s.bulges)
            if straight[i] and straight[j]:
                a, b = s.edge(i)
                c, d = s.edge(j)
                u, v = b - a, d - c
                turn = np.degrees(abs(np.arctan2(u[0] * v[1] - u[1] * v[0], u @ v)))
                count -= int(turn < 1.0)
    return count


#: Relative to the figure size: a drawing is clearly asymmetric when, for every mirror axis, more than 5% of
#: its reflection lies further than this from it (narrower than ``attributes.mirror_symmetry``'s 0.045, so that
#: a drawing that is nearly symmetric within what a viewer could see is rejected rather than called
#: asymmetric).
ASYMMETRIC_SWEPT = 0.035


def clearly_asymmetric(polylines: Sequence[np.ndarray], size: float) -> bool:
    """True if, for every axis through the ink's centre, more than 5% of the reflected ink lies further than
    ``ASYMMETRIC_SWEPT`` from the ink.  Axes are swept every 2.5 degrees against a zone widened by what an
    axis 1.25 degrees off moves a point, and every quarter degree near the axes that this does not settle.
    ``attributes.mirror_symmetry`` tries only the axes its angular harmonics suggest, and its asymmetric
    band starts further out: a figure it calls asymmetric must pass this sweep too."""
    starts = np.vstack([p[:-1] for p in polylines])
    ends = np.vstack([p[1:] for p in polylines])
    lengths = np.hypot(*(ends - starts).T)
    centre = (((starts + ends) / 2) * lengths[:, None]).sum(axis=0) / lengths.sum()
    points = []
    for p in polylines:
        seg = np.hypot(*np.diff(p, axis=0).T)
        cum = np.concatenate([[0.0], np.cumsum(seg)])
        t = np.linspace(0.0, cum[-1], max(2, math.ceil(cum[-1] / (size / 45.0)) + 1))
        points.append(np.column_stack([np.interp(t, cum, p[:, 0]), np.interp(t, cum, p[:, 1])]))
    q = np.vstack(points) - centre
    reach = float(np.hypot(*q.T).max())
    joints = [_corner_points(p) for p in polylines]
    coarse_margin = 2 * reach * np.sin(np.radians(1.25))  # how far an axis 1.25 degrees off moves a point
    fine_margin = 2 * reach * np.sin(np.radians(0.125))

    def zone(radius: float, cell: float) -> tuple[np.ndarray, float, float]:
        """The cells (of side ``cell``) within ``radius`` of the ink, drawn half a cell wide of it, with the
        grid's half width."""
        span = float(np.abs(q).max()) + radius + 4 * cell
        n = math.ceil(2 * span / cell) + 1
        image = Image.new("L", (n, n), 0)
        draw = ImageDraw.Draw(image)
        width = round(2 * radius / cell) + 1
        for p, corners in zip(polylines, joints, strict=True):
            pts = [(float(x), float(y)) for x, y in (p - centre + span) / cell]
            draw.line(pts, fill=255, width=width)
            for x, y in (corners - centre + span) / cell:  # round the ends and corners (arc samples need not)
                draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=255)
        return np.asarray(image) > 0, cell, span

    def misses(grid: tuple[np.ndarray, float, float], degrees: np.ndarray) -> np.ndarray:
        inside, cell, span = grid
        n = len(inside)
        theta = np.radians(degrees)
        c, s = np.cos(2 * theta), np.sin(2 * theta)
        rx = c[:, None] * q[None, :, 0] + s[:, None] * q[None, :, 1]
        ry = s[:, None] * q[None, :, 0] - c[:, None] * q[None, :, 1]
        ix = np.clip(np.rint((rx + span) / cell).astype(int), 0, n - 1)
        iy = np.clip(np.rint((ry + span) / cell).astype(int), 0, n - 1)
        return 1.0 - inside[iy, ix].mean(axis=1)

    axes = np.arange(0.0, 180.0, 2.5)
    coarse = size / 100.0  # the screen errs wide by a cell more: it only decides which axes to look at closely
    open_axes = axes[misses(zone(ASYMMETRIC_SWEPT * size + coarse_margin + coarse, coarse), axes) <= 0.05]
    if not len(open_axes):
        return True
    fine = (open_axes[:, None] + np.arange(-1.25, 1.26, 0.25)[None]).ravel()
    return bool((misses(zone(ASYMMETRIC_SWEPT * size + fine_margin, size / 300.0), fine) > 0.05).all())


def _corner_points(polyline: np.ndarray) -> np.ndarray:
    """The vertices at which a polyline turns by 12 degrees or more (corners, not arc samples), and its ends."""
    p = polyline
    closed = _is_closed(p)
    ring = p[:-1] if closed else p
    edges = np.diff(np.vstack([ring, ring[:1]]) if closed else ring, axis=0)
    heading = np.arctan2(edges[:, 1], edges[:, 0])
    turn = np.degrees(np.abs((heading - np.roll(heading, 1) + np.pi) % (2 * np.pi) - np.pi))
    if closed:
        return ring[turn >= 12.0]
    inner = ring[1:-1][turn[1:] >= 12.0]
    return np.vstack([ring[:1], inner, ring[-1:]])


def _is_closed(p: np.ndarray) -> bool:
    """Whether a polyline ends where it starts."""
    return len(p) > 3 and abs(p[0][0] - p[-1][0]) < 1e-12 and abs(p[0][1] - p[-1][1]) < 1e-12


def stroke_ends(polylines: Sequence[np.ndarray], size: float) -> tuple[bool | str, bool]:
    """Whether the figure has a loose end, and whether its stroke ends are sound.

    Loose: True if some end of an open polyline is clearly away from every other polyline (further than
    ``LOOSE_APART``), AMBIGUOUS if one is neither that nor touching (closer than ``LOOSE_TOUCH``), else False.

    Sound unless two strokes run along each other (they share a stretch, not just points); or an end that
    touches another stroke closes a region only once carried across it (drawn, such an end looks attached
    whichever side of the other stroke it stops); or such an end does not show ``LineFigure`` the two clear
    directions in which the other stroke leaves the touching point (``attributes._rays_at`` misses the rays of
    arc samples shorter than its touching distance, and splits one direction into two a few degrees apart at
    an arc sample), or lies near a corner of the other stroke but not on it, or ends in an arc that leaves the
    other stroke nearly along or straight on from one of its directions (``ARC_JOIN``)."""
    if len(polylines) == 1:
        return not _is_closed(polylines[0]), True
    lines = [LineString(p) for p in polylines]
    for i, j in itertools.combinations(range(len(lines)), 2):
        shared = lines[i].intersection(lines[j])
        if any(g.geom_type != "Point" and not g.is_empty for g in shapely.get_parts(shared)):
            return False, False
    gaps, carried, sound = [], [], True
    for k, p in enumerate(polylines):
        if _is_closed(p):
            continue
        for at_start, end, inner in ((True, p[0], p[1]), (False, p[-1], p[-2])):
            point = shapely.Point(end)
            distances = {j: lines[j].distance(point) for j in range(len(lines)) if j != k}
            gap = min(distances.values())
            gaps.append(gap / size)
            if gap >= LOOSE_APART * size:
                continue
            out = (end - inner) / np.linalg.norm(end - inner)
            carried.append(LineString([end, end + out * (gap + 0.01 * size)]))
            for j, distance in distances.items():
                if distance < LOOSE_APART * size:
                    sound &= _junction_measurable(polylines[j], end, size)
                    sound &= not _arc_end_tangent(p, at_start, polylines[j], size)
    loose = AMBIGUOUS if any(LOOSE_TOUCH <= g <= LOOSE_APART for g in gaps) else any(g > LOOSE_APART for g in gaps)
    if sound and carried:
        sound = _face_count([*lines, *carried], size) == _face_count(lines, size)
    return loose, sound


def _junction_measurable(other: np.ndarray, end: np.ndarray, size: float) -> bool:
    """Whether ``LineFigure`` sees two clear rays of ``other`` at a stroke end touching it, away from its
    corners (see ``stroke_ends``)."""
    rays = np.sort(np.mod(_rays_at(other, end, size), 2 * np.pi))
    if len(rays) < 2:
        return False
    corners = _corner_points(other)
    if len(corners):  # a junction next to a corner, but not on it, meets which edges?
        near = np.hypot(*(corners - end).T).min() / size
        if LOOSE_TOUCH <= near <= LOOSE_APART:
            return False
    gaps = np.degrees(np.diff(np.concatenate([rays, rays[:1] + 2 * np.pi])))
    return bool((gaps >= MIN_CROSSING_ANGLE).all())


#: An arc ending on another stroke must meet each of its directions there at a clear angle: at least this
#: many degrees from running along it and from running straight on from it.  Nearer, the region the arc closes
#: has a side that bends smoothly from straight into arc, which is neither a corner nor one curved side (its
#: kind, triangle or sector or neither, is then a matter of opinion).
ARC_JOIN = 25.0


def _arc_end_tangent(polyline: np.ndarray, at_start: bool, other: np.ndarray, size: float) -> bool:
    """Whether ``polyline`` ends (at its start or at its end) in an arc that leaves the touched polyline
    ``other`` nearly along one of its directions there, or nearly straight on from one (within ``ARC_JOIN``).
    An arc end is one whose first two chords turn a little (arc samples), not by a corner's 30 degrees."""
    p = polyline if at_start else polyline[::-1]
    if len(p) < 3:
        return False
    first, second = p[1] - p[0], p[2] - p[1]
    turn = math.atan2(first[0] * second[1] - first[1] * second[0], float(first @ second))
    if not 1e-6 < abs(math.degrees(turn)) < ARC_JOIN:
        return False
    # the chords of an arc turn by equal steps: its tangent at the end lies half a step back from the chord
    leaving = math.atan2(first[1], first[0]) - turn / 2
    for ray in _rays_at(other, p[0], size):
        gap = abs(math.degrees((ray - leaving + math.pi) % (2 * math.pi) - math.pi))
        if gap < ARC_JOIN or gap > 180.0 - ARC_JOIN:
            return True
    return False


def _face_count(lines: Sequence[LineString], size: float) -> int:
    """The regions the lines enclose, slivers (as ``LineFigure`` counts them) left out."""
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(shapely.union_all(lines))))
    return sum(1 for f in faces if f.area > 0.002 * size * size)


def has_half_disc(polylines: Sequence[np.ndarray], size: float) -> bool:
    """True if some enclosed region is bounded by one arc of ``HALF_DISC`` degrees and one straight side."""
    merged = shapely.union_all([LineString(p) for p in polylines])
    for face in shapely.get_parts(shapely.polygonize(shapely.get_parts(merged))):
        if face.area < 0.002 * size * size:
            continue
        shape = StrokeShape(np.asarray(face.exterior.coords), size)
        if len(shape.arcs) != 1 or len(shape.lines) != 1:
            continue
        arc = shape.arcs[0]
        heading = np.unwrap(np.arctan2(*np.diff(arc, axis=0)[:, ::-1].T))
        chords = len(arc) - 1
        sweep = abs(float(np.degrees(heading[-1] - heading[0]))) * chords / max(chords - 1, 1)
        if HALF_DISC[0] <= sweep <= HALF_DISC[1]:
            return True
    return False


def hull_depth(points: np.ndarray, hull: Polygon) -> float:
    """How far the point furthest inside the convex polygon ``hull`` (which holds every point) lies from its
    boundary: a point inside a convex polygon is as far from the boundary as from the nearest line through one of
    its edges, so this is the largest over the points of the least distance to an edge's line (what shapely's
    distance from the boundary gives, to rounding)."""
    ring = np.asarray(hull.exterior.coords)
    start, edge = ring[:-1], np.diff(ring, axis=0)
    length = np.hypot(edge[:, 0], edge[:, 1])
    keep = length > 0
    start, edge, length = start[keep], edge[keep], length[keep]
    # |cross(edge, p - start)| / |edge| for every point and edge
    cross = np.abs(np.outer(points[:, 1], edge[:, 0]) - np.outer(points[:, 0], edge[:, 1])
                   - (start[:, 1] * edge[:, 0] - start[:, 0] * edge[:, 1])[None]) / length[None]
    return float(cross.min(axis=1).max())


class QuickLineFigure(LineFigure):
    """``LineFigure`` with its convex hull taken of the ink as one line (shapely's hull of the same coordinates,
    without making a point of each), and the ink's depth inside it from the hull's edge lines (``hull_depth``)
    rather than from a point geometry per ink point: the same attributes, for less work."""

    #: The order ``decided`` measures in: ``attributes._COST_ORDER`` with the angles (from the stroke shapes and
    #: crossings) before the parts and the enclosed regions, since most figures turned down are turned down for
    #: an angle in a band (near a right angle, near 80 degrees) and the regions cost more.  Every attribute is a
    #: pure function of the strokes: the order changes only the time.
    ORDER = ("lines", "curved", "crossing", "angle", "acute", "obtuse", "right", "parts", "closed", "triangle",
             "quadrangle", "sector", "regular", "symmetric", "thin", "convex")

    def decided(self) -> dict[str, Any] | None:
        """All attributes, or None as soon as one is AMBIGUOUS (measured in ``ORDER``)."""
        for name in self.ORDER:
            if self[name] == AMBIGUOUS:
                return None
        return self.values()

    def _hull(self) -> Any:
        """The convex hull of the ink points (cached)."""
        if "_hull" not in self._cache:
            self._cache["_hull"] = shapely.convex_hull(shapely.linestrings(self._ink()))
        return self._cache["_hull"]

    def _measure_convex(self) -> None:
        """Convex: one closed outline with every bit of ink on its convex hull."""
        hull = self._hull()
        if not self._faces() or self["parts"] != 1 or hull.geom_type != "Polygon":
            self._cache["convex"] = False
            return
        self._cache["convex"] = _band(hull_depth(self._ink(), hull) / self.size, _CONVEX, _CONCAVE)
