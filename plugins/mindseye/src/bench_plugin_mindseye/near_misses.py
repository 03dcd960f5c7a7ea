"""Near misses of relation abstraction: edits that take a figure having a concept to one that just lacks it (a
gap opened, a corner dented or cut, a vertex skewed, a crossing undone, a part attached ...) while keeping the
rest of its shape.  An edit returns None when it does not apply to the figure.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from bench_plugin_mindseye.figure_families import (
    counter_clockwise,
    edge_kinks,
    regular_vertices,
    turn_symmetric_radii,
    turned_vertices,
)
from bench_plugin_mindseye.strokes import Figure, Stroke, arc_points, figure_size, flatten, vector_norm


def edit_open_gap(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Closed -> open: cut a gap next to a corner of a closed stroke."""
    closed = [k for k, s in enumerate(fig) if s.closed and len(s.points) >= 3]
    if not closed:
        return None
    k = closed[int(rng.integers(len(closed)))]
    s = fig[k]
    size = figure_size(fig)
    n = len(s.points)
    straight = [i for i in range(n)
                if abs(s.bulges[i]) < 1e-9 and vector_norm(np.subtract(*s.edge(i))) > 2.5 * magnitude * size]
    if not straight:
        return None
    i = straight[int(rng.integers(len(straight)))]
    a, b = s.edge(i)
    cut = a + (b - a) * magnitude * size / vector_norm(b - a)
    order = [(i + 1 + j) % n for j in range(n)]
    points = [cut, *[s.points[j] for j in order]]
    bulges = [0.0, *[s.bulges[(i + 1 + j) % n] for j in range(n - 1)]]
    out = [t.copy() for t in fig]
    out[k] = Stroke.make(points, False, bulges, s.part)
    return out


def edit_dent(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Convex -> concave: push one vertex (between two straight edges) inside the polygon.  A regular polygon
    is dented in the middle of every side instead, so that it stays as isotropic as the regular polygons among
    the positives (``ink_shape``)."""
    s = fig[0]
    if turn_symmetric_radii(fig) is not None:
        return [Stroke.make(edge_kinks(counter_clockwise(s.points), 0.5, 0.1 + 0.5 * magnitude), True, part=s.part)]
    n = len(s.points)
    if len(fig) != 1 or not s.closed or n < 4:
        return None
    size = figure_size(fig)
    options = [i for i in range(n) if abs(s.bulges[i]) < 1e-9 and abs(s.bulges[i - 1]) < 1e-9]
    if not options:
        return None
    i = options[int(rng.integers(len(options)))]
    prev, nxt = s.points[i - 1], s.points[(i + 1) % n]
    centre = Polygon(s.points).centroid.coords[0]
    chord_mid = (prev + nxt) / 2
    inward = np.asarray(centre) - chord_mid
    inward /= vector_norm(inward)
    out = s.copy()
    out.points[i] = chord_mid + inward * magnitude * size * 1.2
    if not Polygon(out.points).is_valid:
        return None
    return [out]


def edit_straighten(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Curved -> straight: every arc becomes a two-segment corner through its midpoint."""
    out, changed = [], False
    for s in fig:
        pts, bulges = [s.points[0]], []
        n = len(s.points)
        for i in range(n if s.closed else n - 1):
            a, b = s.edge(i)
            if abs(s.bulges[i]) > 1e-9:
                arc = arc_points(a, b, float(s.bulges[i]), 0.01)
                pts.append(arc[len(arc) // 2])
                bulges.extend([0.0, 0.0])
                changed = True
            else:
                bulges.append(0.0)
            pts.append(b)
        if s.closed:
            pts = pts[:-1]
        out.append(Stroke.make(pts, s.closed, bulges, s.part))
    return out if changed else None


def edit_bend(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Straight -> curved: one long straight edge bulges into an arc."""
    size = figure_size(fig)
    edges = [(k, i) for k, s in enumerate(fig) for i in range(len(s.bulges))
             if vector_norm(np.subtract(*s.edge(i))) > 0.35 * size]
    if not edges:
        return None
    k, i = edges[int(rng.integers(len(edges)))]
    out = [t.copy() for t in fig]
    out[k].bulges[i] = rng.choice([-1, 1]) * (0.2 + 1.2 * magnitude)
    return out


def edit_skew(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Symmetric -> asymmetric: move one vertex sideways.  A regular polygon or a star becomes a pinwheel
    instead, which keeps its turn symmetry and so stays as isotropic as the regular polygons and stars among
    the positives (``ink_shape``): every side of a regular polygon gets a kink off its middle, every inner
    corner of a star turns a little about the centre."""
    radii = turn_symmetric_radii(fig)
    if radii is not None:
        s = fig[0]
        if np.ptp(radii) < 1e-6 * radii.max():
            points = edge_kinks(counter_clockwise(s.points), rng.uniform(0.15, 0.25), 0.26 + 0.4 * magnitude)
        else:  # the inner corners turn most of the way towards the next point (less leaves it nearly symmetric)
            inner = radii < radii.mean()
            turn = rng.choice([-1, 1]) * (0.6 + 1.5 * magnitude) * 2 * np.pi / len(s.points)
            rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
            centre = s.points.mean(axis=0)
            points = s.points.copy()
            points[inner] = (points[inner] - centre) @ rot.T + centre
        return [Stroke.make(points, True, part=s.part)]
    size = figure_size(fig)
    k = int(rng.integers(len(fig)))
    s = fig[k]
    i = int(rng.integers(len(s.points)))
    angle = rng.uniform(0, 2 * np.pi)
    out = [t.copy() for t in fig]
    out[k].points[i] = s.points[i] + size * (0.6 + magnitude * 2.5) * 0.16 * np.array([np.cos(angle), np.sin(angle)])
    if out[k].closed and not Polygon(flatten(out[k], 0.05)).is_valid:
        return None
    return out


def edit_uncross(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Crossing -> touching: a straight stroke is cut back to its first meeting with another stroke."""
    singles = [k for k, s in enumerate(fig) if not s.closed and len(s.points) == 2 and abs(s.bulges[0]) < 1e-9]
    rng.shuffle(singles)
    for k in singles:
        a, b = fig[k].points
        if rng.random() < 0.5:
            a, b = b, a
        others = shapely.union_all([LineString(flatten(s, 0.01)) for j, s in enumerate(fig) if j != k])
        hits = LineString([a, b]).intersection(others)
        points = [np.array(p.coords[0]) for p in shapely.get_parts(hits) if p.geom_type == "Point"]
        if not points:
            continue
        first = min(points, key=lambda p: vector_norm(p - a))
        if vector_norm(first - a) < 0.2 * figure_size(fig):
            continue
        out = [t.copy() for t in fig]
        out[k] = Stroke.make([a, first], False, part=fig[k].part)
        return out
    return None


#: How far (relative to the figure size) ``edit_attach`` pushes a part into the other when no stroke end meets.
ATTACH_OVERLAP = 0.08


def edit_attach(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Two parts -> one: slide the second part until a stroke end of one touches the other, or else on until
    the two overlap by ``ATTACH_OVERLAP`` of the figure size (a tangential touch, or a corner on an edge, is
    neither clearly touching nor clearly crossing once drawn)."""
    first = [s for s in fig if s.part == 0]
    second = [s for s in fig if s.part == 1]
    if not first or not second:
        return None
    ga = shapely.union_all([LineString(flatten(s, 0.01)) for s in first])
    gb = shapely.union_all([LineString(flatten(s, 0.01)) for s in second])
    pa, pb = (np.array(p.coords[0]) for p in shapely.shortest_line(ga, gb).boundary.geoms)
    move = pa - pb
    ends = [e for s in fig if not s.closed for e in (s.points[0], s.points[-1])]
    at_end = any(vector_norm(e - p) < 1e-9 for e in ends for p in (pa, pb))
    if not at_end:
        move = move + move / vector_norm(move) * ATTACH_OVERLAP * figure_size(fig)
    return [*[s.copy() for s in first], *[Stroke(s.points + move, s.bulges.copy(), s.closed, 1) for s in second]]


def edit_add_corner(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """k lines -> k + 1: a long straight edge gets a corner in its middle."""
    size = figure_size(fig)
    edges = [(k, i) for k, s in enumerate(fig) for i in range(len(s.bulges))
             if abs(s.bulges[i]) < 1e-9 and vector_norm(np.subtract(*s.edge(i))) > 0.45 * size]
    if not edges:
        return None
    k, i = edges[int(rng.integers(len(edges)))]
    s = fig[k]
    a, b = s.edge(i)
    normal = np.array([-(b - a)[1], (b - a)[0]])
    mid = (a + b) / 2 + normal * rng.choice([-1, 1]) * rng.uniform(0.18, 0.28)
    out = [t.copy() for t in fig]
    points = np.insert(s.points, i + 1, mid, axis=0)
    bulges = np.insert(s.bulges, i + 1, 0.0)
    out[k] = Stroke(points, bulges, s.closed, s.part)
    return out


def edit_recount(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """k lines -> k +- 1: add a corner to a line or remove one; a regular polygon may instead become the regular
    polygon with a side more or less, the only near miss as isotropic as it (``ink_shape``)."""
    s = fig[0]
    if len(fig) == 1 and s.closed and rng.random() < 0.5:
        radii = np.hypot(*(s.points - s.points.mean(axis=0)).T)
        sides = np.hypot(*(np.roll(s.points, -1, axis=0) - s.points).T)
        if np.ptp(radii) < 1e-9 * radii.max() and np.ptp(sides) < 1e-9 * sides.max() and not s.bulges.any():
            n = len(s.points)
            return [Stroke.make(regular_vertices(n + 1 if n == 3 or rng.random() < 0.5 else n - 1, radii[0]), True)]
    edit = edit_add_corner if rng.random() < 0.5 else edit_remove_corner
    return edit(fig, rng, magnitude)


def edit_remove_corner(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """k lines -> k - 1: drop a polygon vertex, or the last segment of an open path."""
    options = [k for k, s in enumerate(fig) if len(s.points) >= (4 if s.closed else 3)]
    if not options:
        return None
    k = options[int(rng.integers(len(options)))]
    s = fig[k]
    out = [t.copy() for t in fig]
    if s.closed:
        i = int(rng.integers(len(s.points)))
        if abs(s.bulges[i]) > 1e-9 or abs(s.bulges[i - 1]) > 1e-9:
            return None
        out[k] = Stroke(np.delete(s.points, i, axis=0), np.delete(s.bulges, i), True, s.part)
    else:
        out[k] = Stroke(s.points[:-1], s.bulges[:-1], False, s.part)
    return out


def edit_widen(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Acute -> not acute: open every sharp turn of an open path to 100-140 degrees, or cut the one sharp
    corner of a polygon off."""
    if len(fig) == 1 and not fig[0].closed:
        pts = fig[0].points.copy()
        for i in range(1, len(pts) - 1):
            u, v = pts[i - 1] - pts[i], pts[i + 1] - pts[i]
            angle = np.degrees(np.arccos(np.clip(u @ v / vector_norm(u) / vector_norm(v), -1, 1)))
            if angle < 90:
                target = np.radians(rng.uniform(100, 140))
                side = np.sign(u[0] * v[1] - u[1] * v[0]) or 1.0
                base = np.arctan2(u[1], u[0]) + side * target
                rot = base - np.arctan2(v[1], v[0])
                c, s_ = np.cos(rot), np.sin(rot)
                tail = pts[i + 1:] - pts[i]
                pts[i + 1:] = pts[i] + tail @ np.array([[c, s_], [-s_, c]])
        if not LineString(pts).is_simple:
            return None
        return [Stroke.make(pts, False)]
    return edit_cut_corner(fig, rng, magnitude, only_acute=True)


def edit_reshape(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Triangle -> quadrangle, quadrangle -> pentagon: a corner of a closed straight stroke is cut off
    (``edit_cut_corner``), or a side is dented in the middle (``edit_dent_side``).  Cutting alone made every
    near miss rounder than the figures it came from (more spread for its ink, ``ink_shape``); a dent makes it
    less round."""
    return (edit_cut_corner if rng.random() < 0.5 else edit_dent_side)(fig, rng, magnitude)


def edit_dent_side(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """A straight side of a closed straight stroke gets a corner in its middle, pushed into the stroke's inside
    by 0.15-0.3 of the side's length (a side more, and the region is no longer the polygon it was)."""
    options = [k for k, s in enumerate(fig) if s.closed and np.abs(s.bulges).max() < 1e-9 and len(s.points) >= 3]
    if not options:
        return None
    k = options[int(rng.integers(len(options)))]
    s = fig[k]
    points = counter_clockwise(s.points)
    i = int(rng.integers(len(points)))
    a, b = points[i], points[(i + 1) % len(points)]
    e = b - a
    dent = (a + b) / 2 + (0.15 + magnitude) * np.array([-e[1], e[0]])  # the left of a ccw side is inside
    out = [t.copy() for t in fig]
    out[k] = Stroke.make(np.insert(points, i + 1, dent, axis=0), True, part=s.part)
    return out


def edit_cut_corner(fig: Figure, rng: np.random.Generator, magnitude: float, only_acute: bool = False) -> Figure | None:
    """A corner of a closed straight stroke is cut off (triangle -> quadrangle, quadrangle -> pentagon)."""
    options = []
    for k, s in enumerate(fig):
        if not s.closed or np.abs(s.bulges).max() > 1e-9:
            continue
        n = len(s.points)
        for i in range(n):
            u, v = s.points[i - 1] - s.points[i], s.points[(i + 1) % n] - s.points[i]
            angle = np.degrees(np.arccos(np.clip(u @ v / vector_norm(u) / vector_norm(v), -1, 1)))
            if not only_acute or angle < 80:
                options.append((k, i))
    if not options or (only_acute and len(options) != 1):
        return None
    k, i = options[int(rng.integers(len(options)))]
    s = fig[k]
    n = len(s.points)
    u, v = s.points[i - 1] - s.points[i], s.points[(i + 1) % n] - s.points[i]
    cut = rng.uniform(0.28, 0.4) * min(vector_norm(u), vector_norm(v))
    p1 = s.points[i] + u / vector_norm(u) * cut
    p2 = s.points[i] + v / vector_norm(v) * cut
    # tails that started at the removed corner now start on the middle of the cut, a vertex of the outline
    # (so that the tail's end lies exactly on it)
    tails = [t for t in fig if not t.closed and vector_norm(t.points[0] - s.points[i]) < 1e-9]
    middle = [(p1 + p2) / 2] if tails else []
    points = np.vstack([s.points[:i], [p1, *middle, p2], s.points[i + 1:]])
    out = [t.copy() for t in fig]
    out[k] = Stroke.make(points, True, part=s.part)
    for t in out:
        if not t.closed and vector_norm(t.points[0] - s.points[i]) < 1e-9:
            t.points[0] = (p1 + p2) / 2
    return out


def edit_irregular(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Regular -> irregular: every second vertex of a regular hexagon moves in along its radius (the angles
    alternate), or every second vertex of a hexagon or octagon turns about the centre (the sides alternate), so
    the figure keeps a three- or four-fold turn and stays as isotropic as a regular polygon
    (``turned_vertices``).  Moving one vertex made the near miss the only elongated figure of six (the odd
    elongation was the answer in every item)."""
    if len(fig) != 1 or not fig[0].closed or len(fig[0].points) not in (6, 8):
        return None
    n = len(fig[0].points)
    if n == 6 and rng.random() < 0.5:  # an octagon's corners would turn too little (``_clear_corners``)
        points = turned_vertices(n, 0.05 + 0.6 * magnitude, 0.0)
    else:
        points = turned_vertices(n, 0.0, 0.08 + 1.2 * magnitude)
    return [Stroke.make(points * vector_norm(fig[0].points[0]), True)]


def edit_apex(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Sector -> not a sector: the apex leaves the arc's centre, away from the arc (the straight sides grow) or
    towards it (they shrink), so the straight sides are not radii.  Only away made every near miss carry its ink
    further from its centre than a sector does (``ink_shape``)."""
    if len(fig) != 1 or len(fig[0].points) != 3:
        return None
    out = fig[0].copy()
    a, b = out.points[1], out.points[2]
    away = -((a + b) / 2 - out.points[0])
    norm = vector_norm(away)
    if norm < 1e-6:
        away = np.array([-(b - a)[1], (b - a)[0]])
        norm = vector_norm(away)
    shift = 0.35 + 1.5 * magnitude if rng.random() < 0.5 else -0.6 * (0.35 + 1.5 * magnitude)
    out.points[0] = out.points[0] + away / norm * shift
    if not Polygon(flatten(out, 0.05)).is_valid:
        return None
    return [out]
