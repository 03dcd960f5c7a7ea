"""Figure families of relation abstraction: programs that draw a random figure of one kind (convex, regular,
symmetric or concave polygons, stars, round shapes, sectors, open paths, crossings, two-part figures ...) as
pen strokes in the figure's own units.  ``line_families`` lists the families that can show k straight lines.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from bench_plugin_mindseye.strokes import Family, Figure, Stroke, flatten, ink_shape, vector_norm


def _convex_vertices(rng: np.random.Generator, n: int) -> np.ndarray:
    """An irregular convex polygon: sorted angles with a minimum gap, radii near 1."""
    for _ in range(100):
        gaps = rng.uniform(0.55, 1.45, size=n)
        angles = np.cumsum(gaps / gaps.sum() * 2 * np.pi) + rng.uniform(0, 2 * np.pi)
        radii = rng.uniform(0.8, 1.0, size=n)
        pts = np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
        if not _clear_corners(pts, True):
            continue  # (the cheap test first: it turns most draws down)
        if _turns_one_way(pts):
            return pts
    raise RuntimeError("no convex polygon")


def _turns_one_way(pts: np.ndarray) -> bool:
    """Whether the closed polygon through ``pts`` turns the same way at every vertex (the cross product of the
    edges into and out of each vertex has one sign).  For the draws of ``_convex_vertices`` (vertices at
    increasing angles about the origin, once round; corners of 30 degrees or more, so no cross product is near
    0) this is exactly shapely's verdict "a valid polygon whose area is its convex hull's": such a polygon is
    simple (star-shaped about the origin, or a triangle) and convex just when it never turns back; a triangle
    may run either way round."""
    p = pts.tolist()  # a handful of vertices: plain arithmetic beats numpy's per-call cost
    cross = [(b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
             for a, b, c in zip(p[-1:] + p[:-1], p, p[1:] + p[:1], strict=True)]
    return all(x > 0 for x in cross) or all(x < 0 for x in cross)


def _clear_corners(pts: np.ndarray, closed: bool) -> bool:
    """True if the path turns by at least 30 degrees at every vertex (a viewer sees each one as a corner)."""
    p = [(float(x), float(y)) for x, y in pts]
    heading = [math.atan2(b[1] - a[1], b[0] - a[0]) for a, b in itertools.pairwise(p + p[:1] if closed else p)]
    turns = itertools.pairwise(heading[-1:] + heading if closed else heading)
    return all(math.degrees(abs((v - u + math.pi) % (2 * math.pi) - math.pi)) >= 30 for u, v in turns)


def _same_area(area: float, hull: float, rtol: float) -> bool:
    """Whether a polygon's area equals its convex hull's (``numpy.isclose`` with ``rtol``): it is convex."""
    return abs(area - hull) <= 1e-8 + rtol * abs(hull)


def regular_vertices(n: int, radius: float = 1.0) -> np.ndarray:
    """The vertices of a regular n-gon of the given circumradius, one vertex at the top."""
    t = np.arange(n) * 2 * np.pi / n + np.pi / 2
    return radius * np.column_stack([np.cos(t), np.sin(t)])


def _symmetric_vertices(rng: np.random.Generator, n: int, convex: bool) -> np.ndarray:
    """A polygon symmetric about the y axis with ``n`` vertices (1 or 2 of them on the axis)."""
    if not convex and n <= 4:
        # with the axis points at the ends of the sorted heights, a symmetric triangle, trapezoid or kite is
        # always convex: no try can succeed, so only the draws of the 200 tries are made
        for _ in range(SYMMETRIC_TRIES):
            on_axis = 1 if n % 2 else rng.choice([0, 2])
            pairs = (n - on_axis) // 2
            rng.uniform(-1.0, 1.0, size=pairs + on_axis)
            rng.uniform(0.35, 1.0, size=pairs)
        raise RuntimeError("no symmetric polygon")
    for _ in range(SYMMETRIC_TRIES):
        on_axis = 1 if n % 2 else rng.choice([0, 2])
        pairs = (n - on_axis) // 2
        ys = np.sort(rng.uniform(-1.0, 1.0, size=pairs + on_axis)).tolist()
        xs = rng.uniform(0.35, 1.0, size=pairs).tolist()
        if on_axis == 2:
            right = [(0.0, ys[0]), *zip(xs, ys[1:-1], strict=True), (0.0, ys[-1])]
        elif on_axis == 1:
            right = [(0.0, ys[0]), *zip(xs, ys[1:], strict=True)]
        else:
            right = list(zip(xs, ys, strict=True))
        left = [(-x, y) for x, y in reversed(right)]
        left = left[1:] if on_axis and abs(right[-1][0]) < 1e-12 else left
        points = right + left
        if on_axis and abs(points[-1][0]) < 1e-12 and _close(points[-1], points[0]):
            points = points[:-1]
        pts = _dedupe(points)
        if len(pts) != n or not _clear_corners(pts, closed=True):
            continue
        poly = Polygon(pts)
        if not poly.is_valid or poly.area < 0.4:
            continue
        is_convex = _same_area(poly.area, poly.convex_hull.area, 1e-6)
        if is_convex == convex:
            return pts
    raise RuntimeError("no symmetric polygon")


#: How many random symmetric polygons ``_symmetric_vertices`` tries.
SYMMETRIC_TRIES = 200


def _close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """``numpy.allclose(a, b)`` for two points (default tolerances)."""
    return all(abs(u - v) <= 1e-8 + 1e-5 * abs(v) for u, v in zip(a, b, strict=True))


def _dedupe(pts: np.ndarray | list[tuple[float, float]]) -> np.ndarray:
    """The points without consecutive repeats (and without a repeated closing point)."""
    keep = [pts[0]]
    for p in pts[1:]:
        if math.hypot(p[0] - keep[-1][0], p[1] - keep[-1][1]) > 1e-9:
            keep.append(p)
    if len(keep) > 1 and math.hypot(keep[0][0] - keep[-1][0], keep[0][1] - keep[-1][1]) < 1e-9:
        keep.pop()
    return np.array(keep, dtype=float)


def turn_symmetric_radii(fig: Figure) -> np.ndarray | None:
    """The vertex radii (about the centroid) of a figure that is one closed straight polygon with a turn symmetry
    of order 3 or more (a regular polygon, a star), whose ink has no principal direction; else None."""
    if len(fig) != 1 or not fig[0].closed or np.abs(fig[0].bulges).max() > 1e-9 or len(fig[0].points) < 3:
        return None
    if ink_shape([flatten(fig[0], 1.0)])[0] > 1e-9:
        return None
    return np.hypot(*(fig[0].points - fig[0].points.mean(axis=0)).T)


def edge_kinks(points: np.ndarray, at: float, depth: float) -> np.ndarray:
    """The polygon with a vertex inserted on every edge, ``at`` of the way along it, pushed ``depth`` of the
    edge's length to its left (inwards for a counter-clockwise polygon): the same on every edge, so the
    polygon keeps its turn symmetry."""
    out = []
    for a, b in zip(points, np.roll(points, -1, axis=0), strict=True):
        e = b - a
        out.extend([a, a + at * e + depth * np.array([-e[1], e[0]])])
    return np.array(out)


def counter_clockwise(points: np.ndarray) -> np.ndarray:
    """The polygon's vertices in counter-clockwise order (y up)."""
    x, y = points.T
    return points if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0 else points[::-1].copy()


def fam_convex_polygon(rng: np.random.Generator) -> Figure:
    """An irregular convex polygon with 3-7 sides."""
    return [Stroke.make(_convex_vertices(rng, int(rng.integers(3, 8))), True)]


def fam_regular_polygon(rng: np.random.Generator) -> Figure:
    """A regular polygon with 3-8 sides."""
    return [Stroke.make(regular_vertices(int(rng.integers(3, 9))), True)]


def fam_regular_even(rng: np.random.Generator) -> Figure:
    """A regular hexagon or octagon: the base of the near misses of "regular" (``edit_irregular``)."""
    return [Stroke.make(regular_vertices(int(rng.choice([6, 8]))), True)]


def turned_vertices(n: int, radial: float, angular: float) -> np.ndarray:
    """An n-gon (n even) from the regular one with every second vertex moved: in by ``radial`` of the radius and
    turned by ``angular`` of half the angle between vertices (the others turned back as far).  Either edit
    keeps a turn symmetry of order n / 2 >= 3 and n / 2 mirror axes: the figure stays isotropic (its ink has
    no principal direction, like a regular polygon's), only its sides (turned) or angles (moved in) alternate."""
    t = np.arange(n) * 2 * np.pi / n + np.pi / 2 + (-1.0) ** np.arange(n) * angular * np.pi / n
    r = np.where(np.arange(n) % 2 == 1, 1.0 - radial, 1.0)
    return np.column_stack([r * np.cos(t), r * np.sin(t)])


def fam_turn_polygon(rng: np.random.Generator) -> Figure:
    """A far negative of "regular" as isotropic as a regular polygon: a hexagon or octagon with alternating
    sides (equiangular) or alternating angles (equilateral), or a three-pointed star (``turned_vertices``;
    the amounts keep every corner a clear one, ``_clear_corners``)."""
    kind = rng.choice(["sides", "angles", "star"])
    n = 6 if kind == "star" else int(rng.choice([6, 8]))
    if kind == "sides":
        return [Stroke.make(turned_vertices(n, 0.0, rng.uniform(0.3, 0.6)), True)]
    if kind == "angles":
        radial = rng.uniform(0.15, 0.25) if n == 6 else rng.uniform(0.08, 0.1)
        return [Stroke.make(turned_vertices(n, radial, 0.0), True)]
    return [Stroke.make(turned_vertices(n, rng.uniform(0.72, 0.8), 0.0), True)]


def fam_symmetric_polygon(rng: np.random.Generator) -> Figure:
    """A mirror-symmetric convex polygon with 3-7 sides."""
    return [Stroke.make(_symmetric_vertices(rng, int(rng.integers(3, 8)), convex=True), True)]


def fam_concave_polygon(rng: np.random.Generator) -> Figure:
    """A convex polygon with one vertex pushed inside (irregular), or a symmetric concave polygon."""
    if rng.random() < 0.5:
        return [Stroke.make(_symmetric_vertices(rng, int(rng.integers(5, 9)), convex=False), True)]
    n = int(rng.integers(4, 8))
    pts = _convex_vertices(rng, n)
    k = int(rng.integers(n))
    pts[k] *= rng.uniform(0.2, 0.45)
    if not _clear_corners(pts, closed=True):
        raise RuntimeError("weak corner")
    return [Stroke.make(pts, True)]


def fam_star(rng: np.random.Generator) -> Figure:
    """A star outline (alternating outer and inner radii)."""
    k = int(rng.integers(4, 7))
    inner = rng.uniform(0.35, 0.6)
    t = np.arange(2 * k) * np.pi / k + np.pi / 2
    r = np.where(np.arange(2 * k) % 2 == 0, 1.0, inner)
    return [Stroke.make(np.column_stack([r * np.cos(t), r * np.sin(t)]), True)]


def fam_bulged_polygon(rng: np.random.Generator) -> Figure:
    """A convex polygon with one or two edges bulging outward or inward into arcs."""
    n = int(rng.integers(3, 7))
    pts = _convex_vertices(rng, n)
    bulges = np.zeros(n)
    sign = 1.0 if Polygon(pts).exterior.is_ccw else -1.0  # outward is to the right of a ccw edge
    for k in rng.choice(n, size=int(rng.integers(1, min(3, n))), replace=False):
        bulges[k] = -sign * rng.uniform(0.25, 0.5) * (1 if rng.random() < 0.7 else -1)
    return [Stroke.make(pts, True, bulges)]


def _tangent_shape(rng: np.random.Generator) -> Figure:
    """A drop/ice-cream cone: two straight lines from an apex, tangent to a circular arc."""
    distance = rng.uniform(1.8, 3.0)
    half = np.arccos(1.0 / distance)
    apex = np.array([0.0, -distance])
    t1, t2 = -np.pi / 2 + half, -np.pi / 2 - half
    p1 = np.array([np.cos(t1), np.sin(t1)])
    p2 = np.array([np.cos(t2), np.sin(t2)])
    theta = 2 * np.pi - 2 * half
    return [Stroke.make([apex, p1, p2], True, [0.0, -np.tan(theta / 4.0), 0.0])]  # bulging away from the apex


def fam_round(rng: np.random.Generator) -> Figure:
    """Closed shapes made with arcs: circle, D (an arc of 106-140 degrees on a chord), sector, pacman, lens,
    stadium, door, drop."""
    kind = rng.choice(["circle", "d", "sector", "pacman", "lens", "stadium", "door", "drop"])
    if kind == "circle":
        return [Stroke.make([[1.0, 0.0], [-1.0, 0.0]], True, [1.0, 1.0])]
    if kind == "d":  # well short of a half disc (106-140 degrees), which is neither clearly a sector nor not one
        b = rng.uniform(0.45, 0.7)
        return [Stroke.make([[0.0, -1.0], [0.0, 1.0]], True, [b, 0.0])]
    if kind in ("sector", "pacman"):
        return fam_sector(rng, wide=kind == "pacman")
    if kind == "lens":
        b1, b2 = rng.uniform(0.3, 0.6), rng.uniform(0.3, 0.6)
        return [Stroke.make([[-1.0, 0.0], [1.0, 0.0]], True, [b1, b2])]
    if kind == "stadium":
        w = rng.uniform(0.6, 1.2)
        h = rng.uniform(0.4, 0.6)
        return [Stroke.make([[-w, -h], [w, -h], [w, h], [-w, h]], True, [0.0, -1.0, 0.0, -1.0])]
    if kind == "door":
        w, h = rng.uniform(0.5, 0.8), rng.uniform(0.8, 1.4)
        return [Stroke.make([[-w, h], [w, h], [w, 0.0], [-w, 0.0]], True, [0.0, 0.0, 1.0, 0.0])]
    return _tangent_shape(rng)


def fam_sector(rng: np.random.Generator, wide: bool | None = None) -> Figure:
    """A pie slice (two radii and an arc) of 40-160 degrees, or a wide one of 220-310 degrees."""
    wide = bool(rng.random() < 0.35) if wide is None else wide
    sweep = np.radians(rng.uniform(220, 310) if wide else rng.uniform(40, 160))
    a = np.array([1.0, 0.0])
    b = np.array([np.cos(sweep), np.sin(sweep)])
    return [Stroke.make([[0.0, 0.0], a, b], True, [0.0, -np.tan(sweep / 4.0), 0.0])]  # arc away from the apex


def _open_path(rng: np.random.Generator, segments: int, sharp: bool | None = None) -> np.ndarray:
    """A non-crossing open polyline with clear turns; ``sharp`` forces (True) or forbids (False) an acute
    angle, None leaves it to chance."""
    for _ in range(200):
        lengths = rng.uniform(0.7, 1.3, size=segments)
        interior = rng.uniform(95, 150, size=segments - 1)
        if sharp or (sharp is None and rng.random() < 0.4):
            interior[rng.integers(segments - 1)] = rng.uniform(30, 65)
        turns = np.radians(180 - interior) * rng.choice([-1, 1], size=segments - 1)
        heading = np.concatenate([[rng.uniform(0, 2 * np.pi)], turns]).cumsum()
        pts = _walk(lengths, heading)
        line = LineString(pts)
        if line.is_simple and _clearance(pts) > 0.35:
            return pts
    raise RuntimeError("no open path")


def _clearance(pts: np.ndarray) -> float:
    """Smallest distance between non-adjacent segments of a polyline (so that a path never nearly touches
    itself)."""
    first, second = np.triu_indices(len(pts) - 1, k=2)
    if not len(first):
        return np.inf
    segments = shapely.linestrings(np.stack([pts[:-1], pts[1:]], axis=1))
    return float(shapely.distance(segments[first], segments[second]).min())


def _walk(lengths: np.ndarray, heading: np.ndarray) -> np.ndarray:
    """The polyline that starts at the origin and takes steps of the given lengths and headings."""
    steps = lengths[:, None] * np.column_stack([np.cos(heading), np.sin(heading)])
    return np.vstack([[0.0, 0.0], np.cumsum(steps, axis=0)])


def fam_open_polyline(rng: np.random.Generator) -> Figure:
    """An open path of 2-5 straight segments that never touches itself."""
    return [Stroke.make(_open_path(rng, int(rng.integers(2, 6))), False)]


def fam_symmetric_open(rng: np.random.Generator) -> Figure:
    """An open path mirrored about the y axis: V, W, M, open bowl or crown shapes."""
    for _ in range(100):
        m = int(rng.integers(1, 3))
        start = np.array([0.0, rng.uniform(-0.5, 0.5)])
        pts = [start]
        heading = rng.uniform(-1.2, 1.2)
        for _ in range(m):
            step = rng.uniform(0.6, 1.2)
            pts.append(pts[-1] + step * np.array([np.cos(heading), np.sin(heading)]))
            heading += rng.choice([-1, 1]) * np.radians(rng.uniform(50, 120))
        half = np.array(pts)
        if (half[1:, 0] < 0.2).any():
            continue
        full = np.vstack([half[::-1] * [-1, 1], half[1:]])
        if LineString(full).is_simple and _clearance(full) > 0.35:
            return [Stroke.make(full, False)]
    raise RuntimeError("no symmetric path")


def fam_open_curve(rng: np.random.Generator) -> Figure:
    """Open figures with arcs: an arc, an S-wave, a hook (line + arc), a U (line, arc, line)."""
    kind = rng.choice(["arc", "wave", "hook", "u"])
    if kind == "arc":
        return [Stroke.make([[-1.0, 0.0], [1.0, 0.0]], False, [rng.uniform(0.5, 1.6)])]
    if kind == "wave":
        b = rng.uniform(0.5, 1.0)
        return [Stroke.make([[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0]], False, [b, -b * rng.uniform(0.7, 1.0)])]
    if kind == "hook":
        length = rng.uniform(1.2, 2.0)
        bend = rng.choice([-1, 1]) * rng.uniform(0.8, 1.4)
        return [Stroke.make([[0.0, length], [0.0, 0.0], [0.8, 0.0]], False, [0.0, bend])]
    length = rng.uniform(0.6, 1.4)
    return [Stroke.make([[-0.6, -length], [-0.6, 0.0], [0.6, 0.0], [0.6, -length]], False, [0.0, 1.0, 0.0])]


def _base_closed(rng: np.random.Generator) -> Figure:
    """A closed base shape for tails and crossing lines: a polygon or a round shape."""
    choice = rng.random()
    if choice < 0.45:
        return fam_convex_polygon(rng)
    if choice < 0.65:
        return fam_symmetric_polygon(rng)
    if choice < 0.8:
        return [Stroke.make([[1.0, 0.0], [-1.0, 0.0]], True, [1.0, 1.0])]
    return fam_concave_polygon(rng)


def fam_tailed(rng: np.random.Generator) -> Figure:
    """A closed shape with a straight tail leaving it from a vertex or an edge."""
    base = _base_closed(rng)
    ring = flatten(base[0], 0.05)
    poly = Polygon(ring)
    centre = np.array(poly.centroid.coords[0])
    k = int(rng.integers(len(base[0].points)))
    start = base[0].points[k] if rng.random() < 0.5 or len(base[0].points) < 3 else ring[rng.integers(len(ring) - 1)]
    direction = start - centre
    direction = direction / vector_norm(direction)
    spin = np.radians(rng.uniform(-35, 35))
    rot = np.array([[np.cos(spin), -np.sin(spin)], [np.sin(spin), np.cos(spin)]])
    end = start + rot @ direction * rng.uniform(0.6, 1.1)
    return [*base, Stroke.make([start, end], False)]


def fam_pierced(rng: np.random.Generator) -> Figure:
    """A base shape (closed, or an open curve) with a straight line crossing right through it, at a clear
    angle and away from the base's corners."""
    base = _base_closed(rng) if rng.random() < 0.75 else fam_open_curve(rng)
    flat = [flatten(s, 0.05) for s in base]
    ring = np.vstack(flat)
    outline = shapely.union_all([LineString(f) for f in flat])
    edges = np.concatenate([np.stack([f[:-1], f[1:]], axis=1) for f in flat])
    corners = np.vstack([s.points for s in base])
    centre = ring.mean(axis=0)
    size = float(max(np.ptp(ring[:, 0]), np.ptp(ring[:, 1])))
    for _ in range(30):
        angle = rng.uniform(0, np.pi)
        direction = np.array([np.cos(angle), np.sin(angle)])
        normal = np.array([-direction[1], direction[0]])
        offset = centre + normal * rng.uniform(-0.25, 0.25) * size
        reach = np.abs((ring - offset) @ direction).max()
        a = offset - direction * (reach + rng.uniform(0.15, 0.35) * size)
        b = offset + direction * (reach + rng.uniform(0.15, 0.35) * size)
        hits = [np.array(p.coords[0]) for p in shapely.get_parts(LineString([a, b]).intersection(outline))
                if p.geom_type == "Point"]
        if not hits or min(vector_norm(corners - h, axis=1).min() for h in hits) < 0.12 * size:
            continue
        if _shallow_crossing(edges, a, b):
            continue
        return [*base, Stroke.make([a, b], False, part=0)]
    raise RuntimeError("no clean crossing")


def _shallow_crossing(edges: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """True if the segment a-b crosses some edge of the base (``edges``: start and end of every edge of its
    strokes flattened, edges x 2 x 2) at less than 30 degrees.  Which edges it meets is asked of all of them at
    once; the angle only of those (zero-length edges never count)."""
    d = (b - a) / vector_norm(b - a)
    for p, q in edges[shapely.intersects(shapely.linestrings(edges), LineString([a, b]))]:
        e = q - p
        length = vector_norm(e)
        if length >= 1e-12 and abs(float(d[0] * e[1] - d[1] * e[0])) / length < np.sin(np.radians(30)):
            return True
    return False


def fam_x(rng: np.random.Generator) -> Figure:
    """Two straight strokes crossing inside both."""
    angle = np.radians(rng.uniform(40, 90))
    l1, l2 = rng.uniform(1.4, 2.0), rng.uniform(1.4, 2.0)
    f1, f2 = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)
    d2 = np.array([np.cos(angle), np.sin(angle)])
    return [Stroke.make([[-f1 * l1, 0.0], [(1 - f1) * l1, 0.0]], False),
            Stroke.make([-f2 * l2 * d2, (1 - f2) * l2 * d2], False)]


def fam_star_polygon(rng: np.random.Generator) -> Figure:
    """A self-crossing star polygon ({5/2}, {7/2}, {7/3}) or a bow tie."""
    if rng.random() < 0.3:
        h1, h2 = rng.uniform(0.5, 1.0), rng.uniform(0.5, 1.0)
        return [Stroke.make([[-1.0, -h1], [1.0, h2], [1.0, -h2], [-1.0, h1]], True)]
    n, step = [(5, 2), (7, 2), (7, 3)][int(rng.integers(3))]
    pts = regular_vertices(n)
    return [Stroke.make(pts[(np.arange(n) * step) % n], True)]


def fam_loop_path(rng: np.random.Generator) -> Figure:
    """An open path that crosses itself once."""
    for _ in range(300):
        n = int(rng.integers(3, 6))
        lengths = rng.uniform(0.7, 1.4, size=n)
        turns = np.radians(rng.uniform(100, 160, size=n - 1)) * rng.choice([-1, 1])
        heading = np.concatenate([[0.0], turns]).cumsum()
        pts = _walk(lengths, heading)
        if not LineString(pts).is_simple:
            return [Stroke.make(pts, False)]
    raise RuntimeError("no loop")


def _small_piece(rng: np.random.Generator) -> Figure:
    """A small second part: a segment, an arc, a small polygon or circle."""
    kind = rng.random()
    if kind < 0.3:
        return [Stroke.make([[-0.5, 0.0], [0.5, 0.0]], False)]
    if kind < 0.5:
        return [Stroke.make([[-0.5, 0.0], [0.5, 0.0]], False, [rng.uniform(0.5, 1.0)])]
    if kind < 0.8:
        return [Stroke.make(_convex_vertices(rng, int(rng.integers(3, 6))) * 0.5, True)]
    return [Stroke.make([[0.45, 0.0], [-0.45, 0.0]], True, [1.0, 1.0])]


def fam_two_part(rng: np.random.Generator) -> Figure:
    """Two separate pieces side by side with a clear gap."""
    bases = (fam_convex_polygon, fam_symmetric_polygon, fam_open_polyline, fam_open_curve, fam_round)
    first = bases[int(rng.integers(len(bases)))](rng)
    second = _small_piece(rng) if rng.random() < 0.7 else fam_open_polyline(rng)
    for s in second:
        s.points = s.points * rng.uniform(0.6, 1.0)
    return _side_by_side(rng, first, second)


def _side_by_side(rng: np.random.Generator, first: Figure, second: Figure) -> Figure:
    """``second`` moved to one side of ``first`` with a gap of 0.25-0.45 of the first's size."""
    a = np.vstack([flatten(s, 0.05) for s in first])
    b = np.vstack([flatten(s, 0.05) for s in second])
    angle = rng.uniform(0, 2 * np.pi)
    direction = np.array([np.cos(angle), np.sin(angle)])
    size = max(np.ptp(a[:, 0]), np.ptp(a[:, 1]))
    gap = rng.uniform(0.25, 0.45) * size
    shift = (a @ direction).max() - (b @ direction).min() + gap
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    normal = np.array([-direction[1], direction[0]])
    move = direction * shift + normal * ((ca - cb) @ normal)
    moved = [Stroke(s.points + move, s.bulges, s.closed, 1) for s in second]
    return [*[Stroke(s.points, s.bulges, s.closed, 0) for s in first], *moved]


def fam_triangle(rng: np.random.Generator) -> Figure:
    """A triangle, alone, with a tail, with a separate piece, or a quadrangle split by a diagonal."""
    kind = rng.random()
    tri = _convex_vertices(rng, 3)
    if kind < 0.4:
        return [Stroke.make(tri, True)]
    if kind < 0.6:
        k = int(rng.integers(3))
        direction = tri[k] / vector_norm(tri[k])
        return [Stroke.make(tri, True), Stroke.make([tri[k], tri[k] + direction * rng.uniform(0.5, 0.9)], False)]
    if kind < 0.8:
        return _side_by_side(rng, [Stroke.make(tri, True)], _small_piece(rng))
    quad = _convex_vertices(rng, 4)
    return [Stroke.make(quad, True), Stroke.make([quad[0], quad[2]], False)]


def fam_quadrangle(rng: np.random.Generator) -> Figure:
    """A quadrangle: irregular, rectangle, kite or trapezoid; alone, tailed or with a separate piece."""
    kind = rng.random()
    if kind < 0.4:
        quad = _convex_vertices(rng, 4)
    elif kind < 0.6:
        w, h = rng.uniform(0.5, 1.0), rng.uniform(0.5, 1.0)
        quad = np.array([[-w, -h], [w, -h], [w, h], [-w, h]])
    else:
        quad = _symmetric_vertices(rng, 4, convex=True)
    extra = rng.random()
    if extra < 0.6:
        return [Stroke.make(quad, True)]
    if extra < 0.8:
        k = int(rng.integers(4))
        direction = quad[k] / vector_norm(quad[k])
        return [Stroke.make(quad, True), Stroke.make([quad[k], quad[k] + direction * rng.uniform(0.5, 0.9)], False)]
    return _side_by_side(rng, [Stroke.make(quad, True)], _small_piece(rng))


def line_families(k: int) -> tuple[Family, ...]:
    """Straight-line families that draw exactly ``k`` lines (for the "has k straight lines" concept)."""

    def polygon(rng: np.random.Generator) -> Figure:
        return [Stroke.make(_convex_vertices(rng, k), True)]

    def symmetric_polygon(rng: np.random.Generator) -> Figure:
        return [Stroke.make(_symmetric_vertices(rng, k, convex=bool(rng.random() < 0.6)), True)]

    def regular(rng: np.random.Generator) -> Figure:
        return [Stroke.make(regular_vertices(k), True)]

    def path(rng: np.random.Generator) -> Figure:
        return [Stroke.make(_open_path(rng, k), False)]

    def tailed(rng: np.random.Generator) -> Figure:
        base = _convex_vertices(rng, k - 1)
        j = int(rng.integers(k - 1))
        direction = base[j] / vector_norm(base[j])
        return [Stroke.make(base, True), Stroke.make([base[j], base[j] + direction * rng.uniform(0.6, 1.0)], False)]

    def two_part(rng: np.random.Generator) -> Figure:
        piece = [Stroke.make([[-0.5, 0.0], [0.5, 0.0]], False)]
        return _side_by_side(rng, [Stroke.make(_convex_vertices(rng, k - 1), True)], piece)

    families = [polygon, symmetric_polygon, regular, path] + ([tailed, two_part] if k >= 4 else [])
    for f in families:
        f.__name__ = f"fam_{f.__name__}_{k}"
    return tuple(families)
