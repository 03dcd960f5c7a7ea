"""The artefact verifier of VRA (Visual Relation Abstraction): shape attributes measured from the recorded
figures, the odd one out, and the pixel checks that the panels show exactly the recorded figures.

A figure is recorded as drawn (``RelationAbstraction.describe``): its pen strokes in tile pixels, each a list
of vertices joined by edges that are straight or circular arcs (an edge's ``bulge`` is tan(theta / 4) for an
arc of included angle theta, positive when the arc bulges to the side of the normal (-dy, dx) of the edge),
and the stroke width.  Everything here works on the exact edges (lines and arcs with their centres), not
on the flattened polylines the generator measures, and is written without any of the generator's code.

The attribute vocabulary (``VOCABULARY``) is the hint's (closed, convex, curved, symmetric, k straight lines,
acute angle, crossing lines, parts, triangle, quadrangle, regular polygon, sector) plus what a viewer also
sees: thin, obtuse angle, any angle, a right angle (the generator's is within 4 degrees of 90 and its "none"
none within 11; here within 7, and none within 8, leaving room for its measuring arcs by their chords) and a
loose end (a stroke end that touches nothing).  Issue 10 found items in which the only figure with a loose stroke,
and the only right triangle, were second odd ones out.  A semicircle's half disc is
neither clearly a sector nor clearly not one (issue 10): a face bounded by one arc of 155-205 degrees and
one straight side makes "sector" undecidable, and so does any other measurement that falls in the band
between two clear answers.  An undecidable value fails verification: the generator rejects such figures.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString

#: The attributes whose unique holder (or unique non-holder) would be an odd one out.
VOCABULARY = ("closed", "convex", "curved", "symmetric", "lines", "thin", "acute", "obtuse", "angle", "crossing",
              "parts", "triangle", "quadrangle", "sector", "regular", "right", "loose")
#: The value of a measurement that falls between two clear answers.
UNDECIDED = "undecided"
#: Concept name -> (attribute, value the five positives share); None: the recorded value ("lines": k).
CONCEPT_ATTRIBUTES: dict[str, tuple[str, Any]] = {
    "closed": ("closed", True), "convex": ("convex", True), "curved": ("curved", True),
    "straight": ("curved", False), "symmetric": ("symmetric", True), "crossing": ("crossing", True),
    "two-parts": ("parts", 2), "lines": ("lines", None), "acute": ("acute", True), "triangle": ("triangle", True),
    "quadrangle": ("quadrangle", True), "regular": ("regular", True), "sector": ("sector", True),
}

# Thresholds, as fractions of the figure size (the larger side of its bounding box) or in degrees.  Each
# decision has a narrow undecided band in the middle of the gap a viewer could not judge.
_COLLINEAR = 1.0  # consecutive straight edges turning less than this are one line
_STRAIGHT_TURN = (1.0, 21.5)  # a straight-to-straight turn in this range is neither one line nor a corner
_SMOOTH, _CORNER = 15.5, 21.5  # a turn involving an arc: smooth below, a corner above
_SPIKE = 8.0  # a corner sharper than this many degrees retraces its own line
_SHORT_LINE = 0.03  # a straight piece shorter than this is undecidable
_MIN_SWEEP = 10.0  # an arc sweeping less than this many degrees is undecidable
_TOUCH = (0.022, 0.035)  # strokes closer than the first touch, further than the second are apart
_JOINT = 0.01  # an intersection of consecutive pieces this close to their common vertex is that vertex
_GRAZING = 12.0  # strokes meeting at less than this many degrees neither clearly cross nor touch
_FACE_AREA = 0.002  # enclosed regions smaller than this (times size squared) are ignored
_SECTOR_SPREAD = (0.03, 0.05)  # std/mean of the apex-to-arc distance: a sector below, not a sector above
_SEMICIRCLE = (155.0, 205.0)  # one arc sweeping this much and one straight side: a semicircle
_ACUTE = (78.0, 82.0)
_RIGHT = (7.0, 8.0)  # an angle within the first of 90 degrees is a right angle; none within the second: no right angle
_OBTUSE_LOW, _OBTUSE_HIGH = (97.5, 99.5), (165.5, 167.5)
_JUNCTION_STRAIGHT = 178.0  # gaps between rays at a junction from this on are a stroke going straight on
_CONVEX = (0.016, 0.028)  # largest distance of ink inside its convex hull
_THIN = (3.1, 3.6)  # aspect ratio of the smallest rectangle around the ink
_REGULAR = (0.8, 1.25)  # max(side cv / 0.045, angle range / 6.5 degrees)
_SYMMETRY_ZONES = (0.024, 0.028)  # reflected ink within the first matches, beyond the second misses
_SYMMETRY_MISS = 0.05  # symmetric: at most this fraction misses the near zone (not: more misses the far one)


#: Four floats as one record, compared field by field (a segment's ends, for sorting and searching).
_QUAD = np.dtype([("x0", float), ("y0", float), ("x1", float), ("y1", float)])


def _wrap(angle: float | np.ndarray) -> Any:
    """Angles folded into [-pi, pi)."""
    return (np.asarray(angle) + np.pi) % (2 * np.pi) - np.pi


class Piece:
    """One edge of a stroke: a straight segment or a circular arc, with its exact geometry."""

    def __init__(self, a: Sequence[float], b: Sequence[float], bulge: float, stroke: int, index: int):
        self.a = np.array(a, dtype=float)
        self.b = np.array(b, dtype=float)
        self.stroke, self.index = stroke, index
        chord = self.b - self.a
        length = float(np.hypot(*chord))
        self.arc = abs(bulge) > 1e-9 and length > 0
        if not self.arc:
            self.length = length
            self.direction = chord / max(length, 1e-12)
            return
        theta = 4.0 * math.atan(abs(bulge))  # included angle
        self.radius = length / (2.0 * math.sin(theta / 2.0))
        normal = np.array([-chord[1], chord[0]]) / length
        side = 1.0 if bulge > 0 else -1.0
        apex = (self.a + self.b) / 2 + side * normal * abs(bulge) * length / 2
        self.centre = apex - side * normal * self.radius
        self.start = math.atan2(self.a[1] - self.centre[1], self.a[0] - self.centre[0])
        towards = math.atan2(apex[1] - self.centre[1], apex[0] - self.centre[0])
        forward = abs(float(_wrap(self.start + theta / 2 - towards)))
        backward = abs(float(_wrap(self.start - theta / 2 - towards)))
        self.sweep = theta if forward < backward else -theta  # signed, radians
        self.length = self.radius * theta

    def points(self, count: int) -> np.ndarray:
        """``count`` >= 2 points evenly spaced along the piece, both ends included (exactly)."""
        t = np.linspace(0.0, 1.0, count)
        if not self.arc:
            pts = self.a + t[:, None] * (self.b - self.a)
        else:
            angle = self.start + t * self.sweep
            pts = self.centre + self.radius * np.column_stack([np.cos(angle), np.sin(angle)])
        pts[0], pts[-1] = self.a, self.b
        return pts

    def tangent(self, point: np.ndarray) -> np.ndarray:
        """The unit direction of travel (from ``a`` to ``b``) at ``point`` on the piece."""
        if not self.arc:
            return self.direction
        r = point - self.centre
        t = np.array([-r[1], r[0]]) / max(float(np.hypot(*r)), 1e-12)
        return t if self.sweep > 0 else -t

    def distance(self, points: np.ndarray) -> np.ndarray:
        """The distance from each of ``points`` (n x 2) to the piece."""
        if not self.arc:
            d = self.b - self.a
            t = np.clip(((points - self.a) @ d) / max(float(d @ d), 1e-24), 0.0, 1.0)
            return np.hypot(*(points - self.a - t[:, None] * d).T)
        return np.where(self.covers(points), np.abs(np.hypot(*(points - self.centre).T) - self.radius),
                        np.minimum(np.hypot(*(points - self.a).T), np.hypot(*(points - self.b).T)))

    def covers(self, points: np.ndarray) -> np.ndarray:
        """For an arc: whether each point's direction from the centre falls within the swept angle."""
        angle = np.arctan2(points[:, 1] - self.centre[1], points[:, 0] - self.centre[0])
        along = ((angle - self.start) * np.sign(self.sweep)) % (2 * np.pi)
        return along <= abs(self.sweep) + 1e-9


def _turn(u: np.ndarray, v: np.ndarray) -> float:
    """The angle in degrees between directions ``u`` and ``v`` (0: straight on)."""
    return math.degrees(abs(math.atan2(u[0] * v[1] - u[1] * v[0], float(u @ v))))


def _intersections(p: Piece, q: Piece) -> list[np.ndarray]:
    """The points where two pieces meet (a tangential touch counts once)."""
    if not p.arc and not q.arc:
        d, e = p.b - p.a, q.b - q.a
        denom = d[0] * e[1] - d[1] * e[0]
        if abs(denom) < 1e-12 * (p.length * q.length + 1e-12):
            return []
        w = q.a - p.a
        s = (w[0] * e[1] - w[1] * e[0]) / denom
        t = (w[0] * d[1] - w[1] * d[0]) / denom
        eps = 1e-9
        return [p.a + s * d] if -eps <= s <= 1 + eps and -eps <= t <= 1 + eps else []
    if p.arc and not q.arc:
        p, q = q, p
    if not p.arc:  # a line and an arc
        d = p.b - p.a
        f = p.a - q.centre
        a, b, c = float(d @ d), 2 * float(f @ d), float(f @ f) - q.radius ** 2
        disc = b * b - 4 * a * c
        if disc < -1e-9 * a * q.radius ** 2:
            return []
        root = math.sqrt(max(disc, 0.0))
        ts = {(-b - root) / (2 * a), (-b + root) / (2 * a)}
        found = [p.a + t * d for t in sorted(ts) if -1e-9 <= t <= 1 + 1e-9]
    else:  # two arcs
        delta = q.centre - p.centre
        dist = float(np.hypot(*delta))
        if dist < 1e-9 or dist > p.radius + q.radius + 1e-9 or dist < abs(p.radius - q.radius) - 1e-9:
            return []
        along = (p.radius ** 2 - q.radius ** 2 + dist ** 2) / (2 * dist)
        height = math.sqrt(max(p.radius ** 2 - along ** 2, 0.0))
        base = p.centre + along * delta / dist
        perp = np.array([-delta[1], delta[0]]) / dist
        found = [base + perp * height, base - perp * height] if height > 0 else [base]
    pts = [x for x in found if p.distance(x[None])[0] < 1e-6 * (1 + p.length) and
           q.distance(x[None])[0] < 1e-6 * (1 + q.length)]
    if len(pts) == 2 and np.hypot(*(pts[0] - pts[1])) < 1e-9:
        pts = pts[:1]
    return pts


def _band(value: float, band: tuple[float, float], below: Any = True, above: Any = False) -> Any:
    """``below`` under the band, ``above`` over it, UNDECIDED inside."""
    if value < band[0]:
        return below
    if value > band[1]:
        return above
    return UNDECIDED


class FigureMeasure:
    """The attributes of one recorded figure, from its exact edges.  ``values()`` gives them all."""

    def __init__(self, description: Mapping[str, Any]):
        self.strokes: list[tuple[bool, list[Piece]]] = []
        for k, stroke in enumerate(description["strokes"]):
            pts = [np.array(p, dtype=float) for p in stroke["points"]]
            closed = bool(stroke["closed"])
            count = len(pts) if closed else len(pts) - 1
            pieces = [Piece(pts[i], pts[(i + 1) % len(pts)], float(stroke["bulges"][i]), k, i)
                      for i in range(count)]
            self.strokes.append((closed, [p for p in pieces if p.length > 1e-9]))
        self.pieces = [p for _, ps in self.strokes for p in ps]
        coarse = np.vstack([p.points(24) for p in self.pieces])
        self.size = float(max(np.ptp(coarse, axis=0).max(), 1e-9))
        step = self.size / 150.0
        self.dense, owners = [], []
        for _, ps in self.strokes:
            runs = [p.points(max(2, math.ceil(p.length / step) + 1)) for p in ps]
            self.dense.append(np.vstack([r[:-1] for r in runs] + [ps[-1].b[None]]))
            owners += [i for p, r in zip(ps, runs, strict=True) for i in [self.pieces.index(p)] * (len(r) - 1)]
        #: which piece each segment of the dense polylines runs along (for the regions' boundaries)
        self._segment_owner = np.array(owners, dtype=int)
        ends = np.concatenate([np.stack([d[:-1], d[1:]], axis=1) for d in self.dense])
        #: the segments as lines, in a search tree made when ``_face_kind`` first needs one
        self._ends, self._tree = ends, None
        #: the segment joining two vertices of the dense polylines, either way round (the first where two do):
        #: the ends of every segment forwards and backwards, sorted (stably, so of equal ends the first seen comes
        #: first) for ``_segments_along``, and the segment each belongs to
        quads = ends.reshape(-1, 4)
        keys = np.stack([quads, quads[:, [2, 3, 0, 1]]], axis=1).reshape(-1, 4)
        order = np.lexsort(keys.T[::-1])
        self._keys = np.ascontiguousarray(keys[order]).view(_QUAD).ravel()
        self._key_segment = (np.arange(len(keys)) // 2)[order]
        self.notes: list[str] = []
        self._convex_hull: Any = None

    # -- helpers ---------------------------------------------------------------------------------------
    def _ink(self) -> np.ndarray:
        """Points every 1/150 of the figure size along all its strokes."""
        return np.vstack(self.dense)

    def _segments_along(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """For each edge from ``starts[i]`` to ``ends[i]``, the dense segment with exactly those ends (either way
        round; the first of two), or -1."""
        query = np.ascontiguousarray(np.hstack([starts, ends]), dtype=float).view(_QUAD).ravel()
        at = np.searchsorted(self._keys, query)
        inside = np.minimum(at, len(self._keys) - 1)
        found = (at < len(self._keys)) & (self._keys[inside] == query)
        return np.where(found, self._key_segment[inside], -1)

    def _hull(self) -> Any:
        """The convex hull of the ink points (made once; shapely's hull of their coordinates taken as one line,
        which is the hull of the points, without a point geometry each)."""
        if self._convex_hull is None:
            self._convex_hull = shapely.convex_hull(shapely.linestrings(self._ink()))
        return self._convex_hull

    def _join_kind(self, p: Piece, q: Piece, turn: float) -> str:
        """'same' (one straight line), 'smooth', 'corner' or UNDECIDED for the join of two pieces."""
        if not p.arc and not q.arc:
            if turn < _COLLINEAR:
                return "same"
            return "corner" if turn > _STRAIGHT_TURN[1] else UNDECIDED
        if turn < _SMOOTH:
            return "smooth"
        return "corner" if turn > _CORNER else UNDECIDED

    # -- the attributes ------------------------------------------------------------------------------
    def values(self) -> dict[str, Any]:
        """Every attribute of ``VOCABULARY``; undecidable ones are UNDECIDED (and noted in ``notes``)."""
        out: dict[str, Any] = {}
        out["lines"], out["curved"], corners = self._lines_and_corners()
        out["parts"] = self._parts()
        crossings = self._crossings()
        out["crossing"] = UNDECIDED if crossings is None else bool(crossings)
        faces = self._faces()
        out["closed"] = bool(faces)
        kinds = [self._face_kind(f) for f in faces]
        for name in ("triangle", "quadrangle", "sector"):
            out[name] = True if name in kinds else (UNDECIDED if UNDECIDED in kinds else False)
        angles = corners + self._junction_angles() + [x for a in crossings or [] for x in (a, 180.0 - a)]
        out.update(self._angle_values(angles))
        out["convex"] = self._convex(out["parts"], faces)
        out["thin"] = self._thin()
        out["regular"] = self._regular(out["lines"], bool(crossings))
        out["symmetric"] = self._symmetric()
        out["loose"] = self._loose()
        for name, value in out.items():
            if isinstance(value, str) and value == UNDECIDED:
                self.notes.append(name)
        return out

    def _lines_and_corners(self) -> tuple[Any, Any, list[float]]:
        """Straight lines (collinear edges merged), whether there is an arc, and the corner angles."""
        undecided = False
        lines = 0
        corners: list[float] = []
        for closed, ps in self.strokes:
            turns = self._turns_of(closed, ps)
            joins = [self._join_kind(p, q, t) for p, q, _, t in turns]
            undecided |= UNDECIDED in joins
            runs = _straight_runs(closed, ps, joins)
            undecided |= any(r < _SHORT_LINE * self.size for r in runs)
            lines += len(runs)
            corners += [180.0 - t for (_, _, _, t), j in zip(turns, joins, strict=True) if j == "corner"]
        arcs = [p for p in self.pieces if p.arc]
        undecided |= any(math.degrees(abs(p.sweep)) < _MIN_SWEEP for p in arcs)
        undecided |= any(angle < _SPIKE for angle in corners)
        if undecided:
            return UNDECIDED, UNDECIDED, corners
        return lines, bool(arcs), corners

    def _turns_of(self, closed: bool, ps: list[Piece]) -> list[tuple[Piece, Piece, np.ndarray, float]]:
        """The joins of one stroke: join i is between piece i and piece i+1 (wrapping when closed)."""
        pairs = list(itertools.pairwise(ps))
        if closed and len(ps) > 1:
            pairs.append((ps[-1], ps[0]))
        return [(p, q, q.a, _turn(p.tangent(p.b), q.tangent(q.a))) for p, q in pairs]

    def _parts(self) -> Any:
        """Connected pieces: strokes closer than the touching distance belong together."""
        lines = [LineString(d) for d in self.dense]
        parent = list(range(len(lines)))

        def root(i: int) -> int:
            while parent[i] != i:
                i = parent[i]
            return i

        undecided = False
        for i in range(len(lines)):
            for j in range(i + 1, len(lines)):
                gap = _band(lines[i].distance(lines[j]) / self.size, _TOUCH, "touch", "apart")
                undecided |= gap == UNDECIDED
                if gap == "touch":
                    parent[root(i)] = root(j)
        return UNDECIDED if undecided else len({root(i) for i in range(len(lines))})

    def _open_ends(self) -> list[tuple[np.ndarray, int, Piece]]:
        """(end point, stroke, end piece) of every open stroke."""
        ends = []
        for k, (closed, ps) in enumerate(self.strokes):
            if not closed and ps:
                ends += [(ps[0].a, k, ps[0]), (ps[-1].b, k, ps[-1])]
        return ends

    def _crossings(self) -> list[float] | None:
        """The angles (degrees, <= 90) of the proper crossings; None if one is too near a stroke end to tell
        a crossing from a touch."""
        ends = self._open_ends()
        joints: dict[tuple[int, int], list[np.ndarray]] = {}  # consecutive pieces of a stroke: common vertices
        for closed, ps in self.strokes:
            pairs = list(itertools.pairwise(ps)) + ([(ps[-1], ps[0])] if closed and len(ps) > 1 else [])
            for p, q in pairs:
                joints.setdefault((id(p), id(q)), []).append(q.a)
                joints.setdefault((id(q), id(p)), []).append(q.a)
        angles: list[float] = []
        found: list[np.ndarray] = []
        undecided = False
        for i, p in enumerate(self.pieces):
            for q in self.pieces[i + 1:]:
                shared = joints.get((id(p), id(q)), [])
                for x in _intersections(p, q):
                    if any(np.hypot(*(x - v)) < _JOINT * self.size for v in shared):
                        continue  # where consecutive pieces meet (a tangential join is found only roughly)
                    near = [float(np.hypot(*(x - e))) for e, k, _ in ends if k in (p.stroke, q.stroke)]
                    reach = min(near, default=np.inf) / self.size
                    kind = _band(reach, _TOUCH, "touch", "cross")
                    if kind == "touch":
                        continue
                    if kind == UNDECIDED:
                        undecided = True
                        continue
                    if any(np.hypot(*(x - y)) < 1e-6 * self.size for y in found):
                        continue
                    found.append(x)
                    turn = _turn(p.tangent(x), q.tangent(x))
                    if min(turn, 180.0 - turn) < _GRAZING:
                        undecided = True  # grazing strokes: neither clearly crossing nor touching
                        continue
                    angles.append(min(turn, 180.0 - turn))
        return None if undecided else angles

    def _junction_angles(self) -> list[float]:
        """Angles where an open stroke's end touches another stroke (the end's own ray and every ray in which
        the other stroke leaves that point)."""
        out: list[float] = []
        reach = _TOUCH[0] * self.size
        for end, k, piece in self._open_ends():
            own = piece.tangent(end) * (1 if end is piece.a else -1)
            rays = [own]
            for q in self.pieces:
                if q.stroke == k or q.distance(end[None])[0] > reach:
                    continue
                along = self._nearest_parameter(q, end)
                if along * q.length > reach:
                    rays.append(-q.tangent(self._point_at(q, along)))
                if (1 - along) * q.length > reach:
                    rays.append(q.tangent(self._point_at(q, along)))
            if len(rays) > 1:
                out += _gaps(rays)
        return out

    @staticmethod
    def _nearest_parameter(q: Piece, point: np.ndarray) -> float:
        """Where along ``q`` (0 at its start, 1 at its end, to 1/256) the point nearest ``point`` lies."""
        pts = q.points(257)
        return float(np.argmin(np.hypot(*(pts - point).T))) / 256.0

    @staticmethod
    def _point_at(q: Piece, t: float) -> np.ndarray:
        """The point at parameter ``t`` along ``q``."""
        if not q.arc:
            return q.a + t * (q.b - q.a)
        angle = q.start + t * q.sweep
        return q.centre + q.radius * np.array([math.cos(angle), math.sin(angle)])

    def _angle_values(self, angles: list[float]) -> dict[str, Any]:
        """Acute, obtuse, right and any angle among the figure's corner, junction and crossing angles."""
        arr = np.array(angles, dtype=float)
        off = np.abs(arr - 90.0)
        right = True if (off <= _RIGHT[0]).any() else (UNDECIDED if (off < _RIGHT[1]).any() else False)
        acute = True if (arr < _ACUTE[0]).any() else (UNDECIDED if (arr <= _ACUTE[1]).any() else False)
        clear = ((arr > _OBTUSE_LOW[1]) & (arr < _OBTUSE_HIGH[0])).any()
        near = (((arr >= _OBTUSE_LOW[0]) & (arr <= _OBTUSE_LOW[1]))
                | ((arr >= _OBTUSE_HIGH[0]) & (arr <= _OBTUSE_HIGH[1]))).any()
        obtuse = True if clear else (UNDECIDED if near else False)
        return {"acute": acute, "obtuse": obtuse, "right": right, "angle": bool(len(arr))}

    def _faces(self) -> list[Any]:
        """The regions the strokes enclose (shapely polygons), slivers left out."""
        lines = [LineString(d) for d in self.dense]
        # a stroke end resting on another stroke (drawn to 1/100 px) is carried just across it, so that the
        # regions it closes off are found whichever side of the other stroke the rounding left it on
        for end, k, piece in self._open_ends():
            gap = min((float(q.distance(end[None])[0]) for q in self.pieces if q.stroke != k), default=np.inf)
            if gap < _TOUCH[0] * self.size:
                out = piece.tangent(end) * (1 if end is piece.b else -1)
                lines.append(LineString([end, end + out * (gap + _JOINT * self.size)]))
        merged = shapely.union_all(lines)
        faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(merged)))
        return [f for f in faces if f.area > _FACE_AREA * self.size ** 2]

    def _face_kind(self, face: Any) -> str | None:
        """'triangle', 'quadrangle', 'sector', None, or UNDECIDED for one enclosed region: its boundary is cut
        into the pieces it runs along, and maximal straight or arc runs are counted."""
        ring = np.asarray(face.exterior.coords)[:-1]
        nxt = np.roll(ring, -1, axis=0)
        mids = (ring + nxt) / 2
        # the ring runs along the dense polylines: each edge belongs to the piece of the segment it lies on
        # an edge between two consecutive vertices of a dense polyline (the noding keeps them exactly) lies on
        # that segment; the others (at a crossing's node, along a carried stroke end) go to the nearest segment
        segment = self._segments_along(ring, nxt)
        lost = np.flatnonzero(segment < 0)
        if len(lost):
            if self._tree is None:
                self._tree = shapely.STRtree(shapely.linestrings(self._ends))
            nearest = self._tree.query_nearest(shapely.points(mids[lost]), all_matches=False)
            segment[lost[nearest[0]]] = nearest[1]
        owner = self._segment_owner[segment]
        # runs of ring edges along the same piece; a run shorter than a joint (a stroke end resting on
        # another stroke, cut by the noding a hair before its end) belongs to the run before it
        lengths = np.hypot(*(nxt - ring).T)
        for _ in range(len(ring)):
            runs = _ring_runs(owner)
            short = [idx for idx in runs if lengths[idx].sum() < _JOINT * self.size]
            if not short or len(short) == len(runs):
                break
            for idx in short:
                owner[idx] = owner[(idx[0] - 1) % len(ring)]
        if len(runs) == 1:
            return None if self.pieces[int(owner[0])].arc else UNDECIDED
        runs = [(self.pieces[int(owner[idx[0]])], idx) for idx in runs]
        # the joins between runs, oriented along the ring
        sides = []  # (is_arc, list of point arrays, sweep degrees)
        undecided = False
        for j, (piece, idx) in enumerate(runs):
            nxt_piece, nxt_idx = runs[(j + 1) % len(runs)]
            vertex = ring[nxt_idx[0]]
            d_in = nxt[idx[-1]] - ring[idx[-1]]
            d_out = nxt[nxt_idx[0]] - ring[nxt_idx[0]]
            t_in = piece.tangent(vertex)
            t_in = t_in if t_in @ d_in >= 0 else -t_in
            t_out = nxt_piece.tangent(vertex)
            t_out = t_out if t_out @ d_out >= 0 else -t_out
            kind = self._join_kind(piece, nxt_piece, _turn(t_in, t_out))
            undecided |= kind == UNDECIDED
            sides.append((piece, idx, kind))
        # merge runs joined 'same' (straight) or 'smooth' between arcs
        groups: list[list[tuple[Piece, list[int]]]] = []
        first_open = next((j for j in range(len(sides)) if not self._merges(sides[j], sides[(j + 1) % len(sides)])),
                          None)
        if first_open is None:  # one smooth loop (a circle)
            return UNDECIDED if undecided else None
        order = [(first_open + 1 + m) % len(sides) for m in range(len(sides))]
        for j in order:
            if groups and self._merges(sides[j - 1], sides[j]):
                groups[-1].append(sides[j][:2])
            else:
                groups.append([sides[j][:2]])
        if undecided:
            return UNDECIDED
        arcs = [g for g in groups if g[0][0].arc]
        straight = [g for g in groups if not g[0][0].arc]
        for g in straight:
            if np.hypot(*(ring[g[0][1][0]] - nxt[g[-1][1][-1]])) < _SHORT_LINE * self.size:
                return UNDECIDED
        if not arcs:
            return {3: "triangle", 4: "quadrangle"}.get(len(straight))
        if len(arcs) == 1 and len(straight) == 1:
            sweep = sum(self._subtended(p, ring[idx], nxt[idx]) for p, idx in arcs[0])
            return UNDECIDED if _SEMICIRCLE[0] <= sweep <= _SEMICIRCLE[1] else None
        if len(arcs) == 1 and len(straight) == 2:
            k = groups.index(arcs[0])
            # the two straight sides follow each other; their common end is the apex
            apex_group = groups[(k + 2) % 3]
            apex = ring[apex_group[0][1][0]]
            pts = np.vstack([ring[i] for _, idx in arcs[0] for i in idx] + [nxt[arcs[0][-1][1][-1]][None]])
            radii = np.hypot(*(pts - apex).T)
            return _band(float(radii.std() / radii.mean()), _SECTOR_SPREAD, "sector", None)
        return None

    def _merges(self, left: tuple[Piece, list[int], str], right: tuple[Piece, list[int], str]) -> bool:
        """Whether two consecutive boundary runs form one side (one straight line, or one smooth arc)."""
        piece, _, kind = left
        other = right[0]
        if piece.arc != other.arc:
            return False
        return kind == "same" or (piece.arc and kind == "smooth")

    @staticmethod
    def _subtended(piece: Piece, a: np.ndarray, b: np.ndarray) -> float:
        """The total angle (degrees) that the chords a[i]-b[i] subtend at the arc's centre."""
        u, v = a - piece.centre, b - piece.centre
        return float(np.degrees(np.abs(np.arctan2(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0], (u * v).sum(axis=1)))).sum())

    def _convex(self, parts: Any, faces: list[Any]) -> Any:
        """One closed outline with all its ink on its convex hull."""
        if not faces or parts != 1:
            return UNDECIDED if parts == UNDECIDED and faces else False
        inside = _depth(self._ink(), self._hull()) / self.size
        return _band(float(inside), _CONVEX)

    def _thin(self) -> Any:
        """Long and narrow: the aspect ratio of the smallest rectangle around the ink."""
        hull = np.asarray(self._hull().exterior.coords)
        edges = np.diff(hull, axis=0)
        norms = np.hypot(*edges.T)
        u = edges[norms > 1e-9] / norms[norms > 1e-9, None]
        along = hull @ u.T
        across = hull @ np.column_stack([-u[:, 1], u[:, 0]]).T
        w, h = np.ptp(along, axis=0), np.ptp(across, axis=0)
        k = int(np.argmin(w * h))
        aspect = max(w[k], h[k]) / max(min(w[k], h[k]), 1e-9)
        return _band(float(aspect), _THIN, False, True)

    def _regular(self, lines: Any, crossed: bool) -> Any:
        """One closed straight outline with equal sides and equal corner angles."""
        if len(self.strokes) != 1 or crossed or lines == UNDECIDED:
            return False
        closed, ps = self.strokes[0]
        if not closed or any(p.arc for p in ps) or lines < 3:
            return False
        turns = self._turns_of(closed, ps)
        corner_at = [t >= _COLLINEAR for _, _, _, t in turns]  # join i ends side i
        sides, run = [], 0.0
        start = corner_at.index(True) + 1 if any(corner_at) else 0
        for m in range(len(ps)):
            i = (start + m) % len(ps)
            run += ps[i].length
            if corner_at[i]:
                sides.append(run)
                run = 0.0
        angles = np.array([180.0 - t for _, _, _, t in turns if t >= _COLLINEAR])
        sides_arr = np.array(sides)
        score = max(float(sides_arr.std() / sides_arr.mean()) / 0.045, float(np.ptp(angles)) / 6.5)
        return _band(score, _REGULAR)

    def _symmetric(self) -> Any:
        """Mirror symmetry.  For an axis through the ink's centre, the fraction of the reflected ink that lands
        further than a near and a far zone from the ink: symmetric if for some axis at most 5% misses the near
        zone, not symmetric if for every axis more than 5% misses the far zone, undecidable in between.

        Axes are screened every 2 degrees against a zone widened by what an axis a degree off (and the coarser
        grid) moves a point, which settles most of them; around the others they are tried every 0.1 degree."""
        ink = np.vstack([resampled(d, self.size / 100.0) for d in self.dense])
        centre = ink.mean(axis=0)
        q = ink - centre
        # the zones are unions of discs about points S/50 apart (between two, a zone is at most 0.0025 S
        # narrower than its radius), the reflected points are S/100 apart
        marks = np.vstack([resampled(d, self.size / 50.0) for d in self.dense]) - centre
        reach = float(np.hypot(*q.T).max())
        near, far = (z * self.size for z in _SYMMETRY_ZONES)
        fine_cell, coarse_cell = self.size / 200.0, self.size / 100.0
        wide = far + 2 * reach * math.sin(math.radians(1.0)) + coarse_cell
        (coarse_zone,), coarse_grid = _zones(marks, (wide,), coarse_cell)
        coarse = np.arange(0.0, 180.0, 2.0)
        screened = _misses(q, [coarse_zone], coarse_grid, coarse)[0]
        undecided = False
        fine_zones = fine_grid = None  # made for the first axis the screen leaves open
        for k in np.argsort(screened):
            if screened[k] > _SYMMETRY_MISS:
                break  # this axis, and every one after it, is clearly not a mirror within a degree
            if fine_zones is None:
                fine_zones, fine_grid = _zones(marks, (near, far), fine_cell)
            fine = coarse[k] + np.arange(-1.0, 1.0001, 0.1)
            near_miss, far_miss = _misses(q, fine_zones, fine_grid, fine)
            if near_miss.min() <= _SYMMETRY_MISS:
                return True
            undecided |= bool(far_miss.min() <= _SYMMETRY_MISS)
        return UNDECIDED if undecided else False

    def _loose(self) -> Any:
        """Some stroke end touches nothing (no other stroke within the touching distance)."""
        undecided = False
        for end, k, _ in self._open_ends():
            others = [p for p in self.pieces if p.stroke != k]
            gap = min((float(p.distance(end[None])[0]) for p in others), default=np.inf) / self.size
            kind = _band(gap, _TOUCH, "touch", "loose")
            if kind == "loose":
                return True
            undecided |= kind == UNDECIDED
        return UNDECIDED if undecided else False


def _depth(points: np.ndarray, hull: Any) -> float:
    """The largest distance of ``points`` (all inside the convex polygon ``hull``) from its boundary.  Inside a
    convex polygon a point's distance from the boundary is its least distance from the lines through the edges."""
    ring = np.asarray(hull.exterior.coords)
    a, edge = ring[:-1], np.diff(ring, axis=0)
    norm = np.hypot(edge[:, 0], edge[:, 1])
    a, edge, norm = a[norm > 0], edge[norm > 0], norm[norm > 0]
    across = np.abs(np.outer(points[:, 1], edge[:, 0]) - np.outer(points[:, 0], edge[:, 1])
                    - (a[:, 1] * edge[:, 0] - a[:, 0] * edge[:, 1])[None]) / norm[None]
    return float(across.min(axis=1).max())


def _discs(points: np.ndarray, width: int, height: int, radii: Sequence[float], centre: float) -> list[np.ndarray]:
    """For each radius (in cells), the flat boolean raster (``height`` x ``width`` cells) of the cells whose
    centres, at (i + ``centre``, j + ``centre``), lie within that radius of one of ``points`` (in cells)."""
    widest = max(radii)
    dx, dy = _window(math.ceil(widest) + 1, widest)
    base = np.floor(points - centre).astype(np.int64)
    # per point, the cells of its window that can lie within the largest radius (``_window``)
    fx = (base[:, 0] + centre - points[:, 0])[:, None] + dx[None]  # offsets of the cell centres from the points
    fy = (base[:, 1] + centre - points[:, 1])[:, None] + dy[None]
    square = fx * fx + fy * fy
    cx, cy = base[:, 0, None] + dx[None], base[:, 1, None] + dy[None]
    keep = (cx >= 0) & (cx < width) & (cy >= 0) & (cy < height) & (square <= widest * widest)
    flat, square = (cy * width + cx)[keep], square[keep]
    out = []
    for r in radii:
        raster = np.zeros(width * height, dtype=bool)
        raster[flat[square <= r * r]] = True
        out.append(raster)
    return out


@functools.lru_cache(maxsize=32)
def _window(reach: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """The cell offsets (columns, rows) of a (2 reach + 1)^2 window about a point's cell that can hold a cell centre
    within ``radius`` of the point: the centre of the cell at offset o lies o - f from the point along an axis,
    with f in [0, 1) (a millionth wider, for rounding), so no nearer than the interval's least magnitude."""
    offsets = np.arange(-reach, reach + 1)
    least = np.where(offsets <= 0, -offsets, offsets - 1).astype(float) - 1e-6
    least = np.maximum(least, 0.0)
    near = least[None, :] ** 2 + least[:, None] ** 2 <= radius * radius  # rows by dy, columns by dx
    rows, columns = np.nonzero(near)
    dx, dy = offsets[columns], offsets[rows]
    dx.flags.writeable = False
    dy.flags.writeable = False
    return dx, dy


def _zones(points: np.ndarray, radii: Sequence[float],
           cell: float) -> tuple[list[np.ndarray], tuple[float, int, float]]:
    """Boolean rasters (cells of side ``cell``) of the points within each radius of ``points``, and the grid
    (half width, cells per side, cell side) they share, centred on the origin."""
    span = float(np.abs(points).max()) + max(radii) + 2 * cell
    n = math.ceil(2 * span / cell) + 1
    zones = [z.reshape(n, n) for z in _discs((points + span) / cell, n, n, [r / cell for r in radii], 0.0)]
    return zones, (span, n, cell)


def _misses(points: np.ndarray, zones: Sequence[np.ndarray], grid: tuple[float, int, float],
            degrees: np.ndarray) -> list[np.ndarray]:
    """For each zone, the fraction of ``points`` reflected about each axis (through the origin, at the given
    angles) that fall outside it."""
    span, n, cell = grid
    theta = np.radians(degrees)
    c, s = np.cos(2 * theta), np.sin(2 * theta)
    rx = c[:, None] * points[None, :, 0] + s[:, None] * points[None, :, 1]
    ry = s[:, None] * points[None, :, 0] - c[:, None] * points[None, :, 1]
    index = (np.clip(np.rint((ry + span) / cell).astype(int), 0, n - 1) * n
             + np.clip(np.rint((rx + span) / cell).astype(int), 0, n - 1))
    return [1.0 - zone.ravel()[index].mean(axis=1) for zone in zones]


def _ring_runs(owner: np.ndarray) -> list[list[int]]:
    """The maximal runs of consecutive equal values in a cyclic array, as lists of indices."""
    n = len(owner)
    starts = [i for i in range(n) if owner[i] != owner[i - 1]]
    if not starts:
        return [list(range(n))]
    return [[(s + m) % n for m in range((starts[(j + 1) % len(starts)] - s) % n or n)]
            for j, s in enumerate(starts)]


def _straight_runs(closed: bool, ps: Sequence[Piece], joins: Sequence[str]) -> list[float]:
    """The lengths of the stroke's straight lines: consecutive straight pieces joined "same" are one line
    (also across the seam of a closed stroke)."""
    runs: list[float] = []
    current = None
    for i, p in enumerate(ps):
        if p.arc:
            if current is not None:
                runs.append(current)
            current = None
        elif current is not None and joins[i - 1] == "same":
            current += p.length
        else:
            if current is not None:
                runs.append(current)
            current = p.length
    if current is not None:
        runs.append(current)
    if closed and len(runs) > 1 and not ps[0].arc and not ps[-1].arc and joins[-1] == "same":
        runs[0] += runs.pop()
    return runs


def _gaps(rays: Sequence[np.ndarray]) -> list[float]:
    """The angles (degrees) between angularly consecutive rays, rays closer than 2 degrees taken as one,
    leaving out gaps of a stroke going straight on."""
    r = np.sort(np.mod([math.atan2(v[1], v[0]) for v in rays], 2 * np.pi))
    unique = [r[0]]
    for v in r[1:]:
        if v - unique[-1] > math.radians(2):
            unique.append(v)
    if len(unique) > 1 and unique[0] + 2 * np.pi - unique[-1] <= math.radians(2):
        unique.pop()
    if len(unique) < 2:
        return []
    arr = np.array(unique)
    gaps = np.degrees(np.diff(np.concatenate([arr, arr[:1] + 2 * np.pi])))
    return [float(g) for g in gaps if g < _JUNCTION_STRAIGHT]


def resampled(points: np.ndarray, spacing: float) -> np.ndarray:
    """Points every ``spacing`` along a polyline, both ends included."""
    seg = np.hypot(*np.diff(points, axis=0).T)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    t = np.linspace(0.0, cum[-1], max(2, math.ceil(cum[-1] / spacing) + 1))
    return np.column_stack([np.interp(t, cum, points[:, 0]), np.interp(t, cum, points[:, 1])])


def figure_attributes(description: Mapping[str, Any]) -> dict[str, Any]:
    """Every attribute of ``VOCABULARY`` for one recorded figure (UNDECIDED where a viewer could not tell)."""
    return dict(_measured(json.dumps(description, sort_keys=True))[0])


@functools.lru_cache(maxsize=64)
def _measured(description: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The attributes of a figure given as its JSON record, and those that are undecidable (memoised: verify
    asks for each figure twice, once for the base class's solve and once for the notes)."""
    measure = FigureMeasure(json.loads(description))
    return measure.values(), tuple(measure.notes)


def odd_one(values: Sequence[Any]) -> int | None:
    """The index of the one value that differs from all the others, which agree (None if there is none)."""
    for k, v in enumerate(values):
        others = [w for j, w in enumerate(values) if j != k]
        if all(w == others[0] for w in others) and v != others[0]:
            return k
    return None


def solve_scene(scene: Mapping[str, Any]) -> tuple[list[int], list[str]]:
    """The odd ones out among the recorded options (letter order), and notes that say why.

    Every option is measured (``figure_attributes``); an undecidable value anywhere means no option is
    proved ([]).  The recorded concept must hold for all but one option and fail for that one (hard items: the
    second attribute must hold for all six).  The answer is then every option that some attribute of the
    vocabulary singles out, as its unique holder or unique non-holder: a sound item has exactly one.
    """
    letters = [chr(ord("A") + k) for k in range(len(scene["options"]))]
    tables = []
    notes: list[str] = []
    for letter, description in zip(letters, scene["options"], strict=True):
        try:
            values, undecidable = _measured(json.dumps(description, sort_keys=True))
        except (KeyError, TypeError, ValueError, IndexError) as error:
            return [], [f"figure {letter}: the record cannot be read ({type(error).__name__}: {error})"]
        tables.append(values)
        notes += [f"figure {letter}: {name!r} is undecidable" for name in undecidable]
    if any(n.endswith("undecidable") for n in notes):
        return [], notes
    concept = list(scene.get("concept") or [])
    if not concept or any(name not in CONCEPT_ATTRIBUTES for name in concept):
        return [], [f"the scene records no known concept ({concept})"]
    attribute, value = CONCEPT_ATTRIBUTES[concept[0]]
    value = scene.get("concept_value") if value is None else value
    lacking = [k for k, row in enumerate(tables) if row[attribute] != value]
    if len(lacking) != 1:
        return [], [f"the concept {concept[0]!r} ({attribute} = {value}) fails for figures "
                    f"{[letters[k] for k in lacking]}, not for exactly one"]
    for name in concept[1:]:
        attribute, value = CONCEPT_ATTRIBUTES[name]
        if any(row[attribute] != value for row in tables):
            return [], [f"the shared attribute {name!r} does not hold for all six figures"]
    isolated: dict[int, list[str]] = {}
    for name in VOCABULARY:
        k = odd_one([row[name] for row in tables])
        if k is not None:
            isolated.setdefault(k, []).append(name)
    if lacking[0] not in isolated:  # pragma: no cover - lacking one of six agreeing values isolates
        return [], [f"the concept does not single out figure {letters[lacking[0]]}"]
    notes = [f"figure {letters[k]} is the odd one out by {', '.join(names)}" for k, names in sorted(isolated.items())]
    return sorted(isolated), notes


# -- pixels ------------------------------------------------------------------------------------------------
#: The drawn figures' ink colour and the background.
_INK, _PAPER = 20, 255
#: A pixel whose darkest channel is below this is ink for the extra-ink check; below _DARK on a stroke's centre.
_INK_LEVEL, _DARK = 128, 110
#: Where, in recorded pixel units, the centre of output pixel (i, j) lies: (i + _CENTRE, j + _CENTRE).
_CENTRE = 0.5
#: Ink may spread this far (px) beyond half the stroke width (antialiasing, rounding of vertices).
_SPREAD = 0.75
#: Pixels inside this frame are ignored (the panel border).
_FRAME = 3
#: Most stray ink pixels tolerated in a panel, and least fraction of a stroke's centre samples that are dark.
_STRAY, _COVERED = 0, 0.98
#: Every pixel whose centre lies this far (px) inside a recorded stroke's edge must be ink: its darkest channel
#: below _INNER_LIGHT.  Strokes are 4 px wide, so only this band tells a short gap or a stroke moved by 2 px
#: (largest value on 400 real items of seeds 5 and 7, both canvases: 138).
_INSET, _INNER_LIGHT = 1.0, 200


def _pieces(description: Mapping[str, Any]) -> list[list[Piece]]:
    """The pieces of every recorded stroke."""
    out = []
    for k, stroke in enumerate(description["strokes"]):
        pts = [np.array(p, dtype=float) for p in stroke["points"]]
        count = len(pts) if stroke["closed"] else len(pts) - 1
        out.append([Piece(pts[i], pts[(i + 1) % len(pts)], float(stroke["bulges"][i]), k, i) for i in range(count)])
    return out


def _samples(pieces: Sequence[Piece], spacing: float) -> np.ndarray:
    """Points at most ``spacing`` apart along the pieces."""
    return np.vstack([p.points(max(2, math.ceil(p.length / spacing) + 1)) for p in pieces])


def _masks(description: Mapping[str, Any], side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pixels whose centres lie within half the stroke width of a recorded stroke, within half a pixel
    more, within ``_SPREAD`` more, and within ``_INSET`` less (memoised: the sketch and the stroke checks both
    need them)."""
    return _masks_of(json.dumps(description, sort_keys=True), side)


@functools.lru_cache(maxsize=16)
def _masks_of(description: str, side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``_masks`` of a record given as JSON (read-only arrays, shared between callers)."""
    record = json.loads(description)
    half = float(record["width"]) / 2
    masks = _within(record, side, (half, half + 0.5, half + _SPREAD, max(half - _INSET, 0.0)))
    for mask in masks:
        mask.flags.writeable = False
    return masks[0], masks[1], masks[2], masks[3]


def _within(description: Mapping[str, Any], side: int, radii: Sequence[float]) -> list[np.ndarray]:
    """For each radius, the pixels whose centres lie within that distance of a recorded stroke (discs about
    points 0.7 px apart: between two, a disc edge falls short by less than 0.04 px)."""
    pts = _samples([p for ps in _pieces(description) for p in ps], 0.7)
    return [r.reshape(side, side) for r in _discs(pts, side, side, radii, _CENTRE)]


def sketch(description: Mapping[str, Any], side: int) -> np.ndarray:
    """A crude rendering of one recorded figure (``side`` x ``side`` RGB): pixels whose centres lie within half
    the stroke width of a recorded edge are ink, a half-pixel rim around them is grey."""
    core, rim, _, _ = _masks(description, side)
    grey = np.full((side, side), _PAPER, dtype=np.uint8)
    grey[rim] = (_INK + _PAPER) // 2
    grey[core] = _INK
    return np.repeat(grey[:, :, None], 3, axis=2)


def drawing_failures(image: Any, scene: Mapping[str, Any]) -> list[str]:
    """Where the panels cut from ``image`` at the recorded boxes differ from their records: a recorded stroke
    whose centre line is not dark along its length (a missing stroke), ink further than half the stroke
    width (plus ``_SPREAD``) from every recorded stroke (an extra stroke, or a figure drawn elsewhere), or a
    light pixel ``_INSET`` inside a recorded stroke's edge (a short gap, or a stroke moved by a pixel or two)."""
    rgb_image = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb_image.size
    side = int(scene["tile"])
    failures = []
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        letter = chr(ord("A") + k)
        left, top, right, bottom = (int(v) for v in box)
        # the pixels the array slice [top:bottom, left:right] of the whole image would hold, cut from the image
        # alone (a box that slice would cut short, or wrap, is not a panel)
        rows, columns = range(height)[top:bottom], range(width)[left:right]
        if (len(rows), len(columns)) != (side, side):
            failures.append(f"panel {letter}: box {box} is not {side} pixels square")
            continue
        rgb = np.asarray(rgb_image.crop((columns.start, rows.start, columns.stop, rows.stop)))
        tile = np.minimum(np.minimum(rgb[..., 0], rgb[..., 1]), rgb[..., 2])  # the darkest channel
        _, _, allowed, inner = _masks(description, side)
        stray = (tile[_FRAME:-_FRAME, _FRAME:-_FRAME] < _INK_LEVEL) & ~allowed[_FRAME:-_FRAME, _FRAME:-_FRAME]
        if int(stray.sum()) > _STRAY:
            failures.append(f"panel {letter} has {int(stray.sum())} ink pixels where its record has no stroke")
        unpainted = int(np.count_nonzero(tile[inner] >= _INNER_LIGHT))
        if unpainted:
            failures.append(f"panel {letter}: {unpainted} pixels {_INSET:g} px inside its recorded strokes are "
                            f"not ink (a stroke broken or moved)")
        padded = np.pad(tile, 1, constant_values=_PAPER)
        for s, pieces in enumerate(_pieces(description)):
            pts = _samples(pieces, 1.5)
            ix = np.clip(np.floor(pts[:, 0] - _CENTRE + 0.5).astype(int), 0, side - 1) + 1
            iy = np.clip(np.floor(pts[:, 1] - _CENTRE + 0.5).astype(int), 0, side - 1) + 1
            # the darkest pixel of the 3 x 3 neighbourhood, so that a sample between pixel centres finds ink
            darkest = np.min([padded[iy + dy, ix + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)], axis=0)
            covered = float((darkest < _DARK).mean())
            if covered < _COVERED:
                failures.append(f"panel {letter}: recorded stroke {s + 1} is not drawn ({1 - covered:.0%} of it "
                                f"missing)")
    return failures
