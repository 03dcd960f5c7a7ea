"""VRA — Visual Relation Abstraction (paper App. C and Table 11; spec §2.1): Bongard-style concept induction.

Six line drawings in a 2 x 3 grid: five positives share a shape attribute of the Bongard-LOGO vocabulary
(closed, convex, has curves, only straight lines, symmetric, line crossing, two parts, k straight lines,
acute angle, triangle, quadrangle, regular, sector), the sixth (the answer) lacks it.  Figures are small
turtle-like programs (polylines whose edges may bulge into arcs), drawn with one stroke width.

Difficulty follows the paper's knobs (spec §7.1 item 4: single attribute vs attribute pair, near-miss
negative): easy = one attribute and a *far* negative drawn from figures that lack it; medium = one
attribute and a *near-miss* negative, a positive-like figure edited just enough to lose the attribute
(open a gap, dent a vertex, straighten an arc, ...; Bongard-LOGO's design); hard = an attribute pair
(positives and negative share the second attribute, the negative fails the first) and a smaller edit.

The generator measures every attribute of every figure from its polylines (``attributes.py``, plus a loose
end, its own check here) and rejects items in which any attribute of the vocabulary singles out a positive,
so the answer is unique (spec §7.2 odd-one-out uniqueness; issue 10: also by a loose stroke).  It also
rejects figures a viewer could not judge, or on which ``LineFigure`` is known to err: near-symmetric ones it
calls asymmetric (``clearly_asymmetric``), half discs (neither clearly a sector nor not), grazing crossings,
crossings next to corners, spikes, kinks between straight edges, stroke ends that nearly touch, and
junctions whose angles it cannot see.  The scene record (``Drawing.record``) holds each figure as drawn:
pen strokes in tile pixels (1/100 px) with edge bulges, stroke width and arc step; verify re-derives the
answer from it with the independent ``verifiers.relation_abstraction`` and checks the pixels stroke by
stroke.

Drawn sizes carry no information (``balanced_sizes``): a near miss (a gap opened, a corner cut) or a far
negative from a sparser family carries less ink than the positives, so the figures are drawn at different
scales chosen so that ink, ink extent and ink spread rank all six in one order, with the negative at a place that
is balanced over consecutive items (and the most atypical value at the small or the large end, also balanced),
and otherwise spaced at random.  Largest, smallest, most typical and most atypical then point at the negative
exactly 1/6 of the time.  The attributes are measured relative to the figure's size, so scaling never changes
them.  Every figure's ink centroid sits at the panel's centre (``place``).

Nor does the shape of the negative's ink (``ink_shape``: elongation, slant of the strokes, length per spread,
spread per box; ``bench audit`` measures the first two directly, and the others are what the sizes leave of ink,
spread and box).  The positives come from two families, three and two; a further positive of the family of two is
drawn and not shown, and the negative is drawn like it: a near miss edits a figure of that family (the family of
two is one with near misses wherever one of the two has them), a far negative comes from the far families, and of
up to 150 candidates, each turned to fit best, the one whose ink shape comes closest to the hidden positive's
among those that prove sound is the answer (``RelationAbstraction._negative``).  The six figures then fall into
two families three and three, the negative laid out like a member of its own.  Left to themselves the near misses
were shaped unlike the positives (the most atypical elongation was the answer in 30% of the items: regular
polygons have none, while moving one vertex gave the near miss some).  So the edits of "regular", "convex" and
"symmetric" keep a regular polygon's (or star's) turn symmetry of order three or more, which has no elongation:
every second vertex of a hexagon moves in or of a hexagon or octagon turns (alternating angles or sides), every
side is dented, every side gets a kink off its middle or every inner corner of a star turns (a pinwheel); a
regular polygon loses or gains a side for "lines"; a sector's apex moves either way; a triangle or quadrangle is
cut at a corner or dented in a side.  The far negatives of "regular" are as isotropic (hexagons and octagons with
alternating sides or angles, stars).  Like a shown positive, the hidden one is drawn again while an attribute
singles it out among them, and a negative that alone is thin (or alone is not) is drawn again.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

import attrs
import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely.geometry import LineString, Polygon

from bench_core import Item, ItemRandom, Problem, option_letters
from bench_plugin_mindseye.attributes import (
    AMBIGUOUS,
    LINE_ATTRIBUTES,
    LineFigure,
    StrokeShape,
    _rays_at,
    isolations,
    lookalike_pair,
    panel_features,
)
from bench_plugin_mindseye.base import MindsEyeTask
from bench_plugin_mindseye.layout import INK, Tile
from bench_plugin_mindseye.options import Option, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.verifiers import relation_abstraction as verifier

#: (rank, small_odd) of the item being generated: where the negative sits in the size order of the options and
#: which end of it is the most atypical (``balanced_sizes``), set by ``generate`` from balanced choices.
SIZE_PLAN: ContextVar[tuple[int, bool] | None] = ContextVar("SIZE_PLAN", default=None)

#: Stroke width of every figure, as a fraction of the panel side (>= 2 px at 600x800, whose panels are 176 px).
STROKE = 0.014
#: Figures are placed at FIT of the panel (their larger box side), then drawn at scales from
#: ``balanced_sizes`` (the largest 1), at most SIZE_RANGE apart; DRAWS candidate spacings per size order, each
#: step up to SIZE_GAP (on a log scale) beyond what the order needs, a random one of those that fit.
FIT = (0.72, 0.8)
#: Least distance of a placed figure's box from the panel's edge (``place``), as a fraction of the panel side.
PLACE_MARGIN = 0.07
SIZE_RANGE = 2.4
SIZE_STEP = 0.02
DRAWS = 150
SIZE_GAP = 0.2
#: The negative's ink is shaped like a further positive's, drawn like the shown ones and not shown (``ink_shape``:
#: elongation, slant of the strokes, their length over their spread, the spread over the root of their box): in up
#: to NEGATIVE_ROUNDS rounds of NEGATIVE_DRAWS candidate negatives (near misses: edits of figures of the
#: positive's family; far: figures of the far families), each turned to fit best (``_turn_to``), those within
#: SHAPE_SCALE of it are measured closest first, and in the last round all of them, until one proves sound
#: (``RelationAbstraction._negative``).
SHAPE_SCALE = np.array([0.02, 0.03, 0.03, 0.04])
NEGATIVE_DRAWS = 50
NEGATIVE_ROUNDS = 3
#: Tries at a sound item before ``build`` gives up (three star polygons and three triangles, say, need sizes
#: further apart than SIZE_RANGE for most draws, whose ink, ink box and spread must all rank them alike).
ATTEMPTS = 150
#: Largest chord of an arc sample, as a fraction of the panel side (keeps arcs smooth and recognisable).
ARC_CHORD = 0.02
#: Panels are drawn at this multiple of their size and reduced with a box filter.
DRAW_SUPERSAMPLE = 2


# -- figure programs --------------------------------------------------------------------------------
@attrs.define
class Stroke:
    """One pen stroke: vertices joined by edges that are straight (bulge 0) or circular arcs.

    ``bulges[i]`` belongs to the edge from vertex i to vertex i+1 (wrapping for closed strokes) and is
    tan(theta/4) for an arc of included angle theta, positive bulging towards the normal (-dy, dx) of the
    edge direction (dx, dy).
    ``part`` groups strokes that the program means to be one connected piece.
    """

    points: np.ndarray
    bulges: np.ndarray
    closed: bool
    part: int = 0

    @classmethod
    def make(cls, points: Sequence[Sequence[float]], closed: bool, bulges: Sequence[float] | None = None,
             part: int = 0) -> Stroke:
        """A stroke from vertex coordinates; all edges straight unless bulges are given."""
        p = np.asarray(points, dtype=float)
        count = len(p) if closed else len(p) - 1
        b = np.zeros(count) if bulges is None else np.asarray(bulges, dtype=float)
        return cls(p, b, closed, part)

    def copy(self) -> Stroke:
        """An independent copy (edits never change the original)."""
        return Stroke(self.points.copy(), self.bulges.copy(), self.closed, self.part)

    def edge(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """The end points of edge ``i`` (the last edge of a closed stroke wraps around)."""
        return self.points[i], self.points[(i + 1) % len(self.points)]


Figure = list[Stroke]


def arc_points(a: np.ndarray, b: np.ndarray, bulge: float, chord: float) -> np.ndarray:
    """Points of the arc from ``a`` to ``b`` with the given bulge, evenly spaced, both ends included."""
    length = float(np.linalg.norm(b - a))
    theta = 4.0 * np.arctan(abs(bulge))
    radius = length / (2.0 * np.sin(theta / 2.0))
    normal = np.array([-(b - a)[1], (b - a)[0]]) / length
    side = float(np.sign(bulge))
    apex = (a + b) / 2.0 + side * normal * abs(bulge) * length / 2.0  # sagitta = bulge * chord / 2
    centre = apex - side * normal * radius
    start = np.arctan2(a[1] - centre[1], a[0] - centre[0])
    towards = np.arctan2(apex[1] - centre[1], apex[0] - centre[0])
    # the apex sits half way along the arc, theta / 2 < pi from the start in the direction of travel
    direction = 1.0 if (towards - start) % (2 * np.pi) < np.pi else -1.0
    steps = max(4, int(np.ceil(np.degrees(theta) / 5.0)), int(np.ceil(radius * theta / chord)))
    t = start + direction * theta * np.linspace(0.0, 1.0, steps + 1)
    pts = centre + radius * np.column_stack([np.cos(t), np.sin(t)])
    pts[0], pts[-1] = a, b
    return pts


def flatten(stroke: Stroke, chord: float) -> np.ndarray:
    """The stroke as one polyline (closed strokes end on their first point)."""
    p = stroke.points
    n = len(p)
    out = [p[0]]
    for i in range(n if stroke.closed else n - 1):
        a, b = p[i], p[(i + 1) % n]
        if abs(stroke.bulges[i]) > 1e-9:
            out.extend(arc_points(a, b, float(stroke.bulges[i]), chord)[1:])
        else:
            out.append(b)
    poly = np.array(out)
    if stroke.closed:
        poly[-1] = poly[0]
    return poly


def _turned(polylines: Sequence[np.ndarray], turns: np.ndarray) -> np.ndarray:
    """For each angle of ``turns``, the shape of the figure's ink once turned by it (``ink_shape``)."""
    a = np.concatenate([p[:-1, 0] + 1j * p[:-1, 1] for p in polylines])
    b = np.concatenate([p[1:, 0] + 1j * p[1:, 1] for p in polylines])
    length = np.abs(b - a)
    total = float(length.sum())
    centre = (length * (a + b)).sum() / (2 * total)
    u, v = a - centre, b - centre
    m2 = (length * (u * u + u * v + v * v)).sum() / 3
    polar = float((length * (np.abs(u) ** 2 + (u * np.conj(v)).real + np.abs(v) ** 2)).sum() / 3)
    turns = np.asarray(turns, dtype=float)
    slant = (length[None] * np.abs(np.sin(2 * (np.angle(b - a)[None] + turns[:, None])))).sum(axis=1) / total
    points = np.concatenate([a, b])[None] * np.exp(1j * turns)[:, None]
    box = np.log(np.maximum(np.ptp(points.real, axis=1) * np.ptp(points.imag, axis=1), 1e-12)) / 2
    spread = math.log(polar / total) / 2
    return np.column_stack([np.full(len(turns), abs(m2) / polar), slant, np.full(len(turns), math.log(total) - spread),
                            spread - box])


def ink_shape(polylines: Sequence[np.ndarray]) -> np.ndarray:
    """How the ink of thin strokes along the polylines is laid out, apart from its size: its elongation (the
    modulus of the wire's second moment about its centroid, sum of (z - c)^2 with z = x + iy, over its polar
    moment, sum of |z - c|^2: 0 when the ink has no principal direction, as for every figure with a turn
    symmetry of order 3 or more, 1 for a straight line); the slant of its strokes (the mean over the wire of
    |sin 2 theta| for a stroke heading theta: 0 when every stroke is horizontal or vertical, 1 when every one
    runs at 45 degrees); the log of the strokes' length over the ink's spread (the root of its polar moment per
    length); and the log of the spread over the root of the area of the ink's box.  ``bench audit`` measures
    all of them on the drawn panel, up to the stroke width: elongation, diagonal edges, and ink, spread and
    the ink's box, which ``balanced_sizes`` ranks in one order, so that their ratios are what is left to tell a
    figure by.  The negative's must be distributed like a positive's."""
    return _turned(polylines, np.zeros(1))[0]


def _turn_to(rng: np.random.Generator, figure: Figure, target: np.ndarray) -> tuple[float, float]:
    """An angle to turn the figure by, and how far its ink shape (``ink_shape``) then lies from ``target`` in units
    of SHAPE_SCALE: one at random of the angles on a grid of 2.5 degree steps within a unit of the target, else
    the closest.  The shape repeats every quarter turn, so the quarter is drawn at random too."""
    turns = rng.uniform(0.0, np.pi / 72) + np.arange(36) * np.pi / 72
    misfit = np.hypot.reduce((_turned([flatten(s, 0.05) for s in figure], turns) - target) / SHAPE_SCALE, axis=1)
    close = np.flatnonzero(misfit <= 1.0)
    pick = int(close[rng.integers(len(close))]) if len(close) else int(np.argmin(misfit))
    return float(turns[pick] + rng.integers(4) * np.pi / 2), float(misfit[pick])


def ink_spread(tile: Image.Image) -> float:
    """The spread of a panel's ink as ``bench audit`` measures it: the root of the ink pixels' summed variances
    in x and y over the panel side, inside a 3-pixel frame (ink: darker than 195)."""
    grey = np.asarray(tile.convert("L"))[3:-3, 3:-3]
    rows, cols = np.nonzero(grey < 195)
    if not len(rows):
        return 0.0
    return float(math.sqrt(rows.var() + cols.var()) / max(grey.shape))


def figure_size(figure: Figure) -> float:
    """The larger side of the figure's bounding box."""
    pts = np.vstack([flatten(s, 0.05) for s in figure])
    return float(max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1]), 1e-9))


def _place(rng: np.random.Generator, figure: Figure, angle: float | None = None) -> Figure:
    """The figure placed in its panel (``place``) at a random fraction FIT of it."""
    return place(figure, rng, rng.uniform(*FIT), angle)


def place(figure: Figure, rng: np.random.Generator, extent: float, angle: float | None = None) -> Figure:
    """Rotate the figure (at random, or by ``angle``), scale its bounding box to ``extent`` of the panel and put
    the centre of its ink (the polylines' centroid) at the panel's centre, with a little jitter; return its
    strokes in panel units (0..1, y down).  A figure whose ink is far off its box's centre is drawn smaller, so
    that its box stays PLACE_MARGIN inside the panel.

    Centring the boxes instead left the ink's centre where the figure's shape put it: a near miss (a gap
    opened, a corner cut, a crossing line cut back) moved it further from the panel's centre than the
    positives' (the most atypical ink centre was the answer in 21% of the items)."""
    angle = rng.uniform(0.0, 2 * np.pi) if angle is None else angle
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    moved = [Stroke(s.points @ rot.T, s.bulges, s.closed, s.part) for s in figure]
    raw = [flatten(s, 0.02) for s in moved]
    pts = np.vstack(raw)
    low, high = pts.min(axis=0), pts.max(axis=0)
    a, b = np.vstack([p[:-1] for p in raw]), np.vstack([p[1:] for p in raw])
    length = np.hypot(*(b - a).T)
    centre = (((a + b) / 2) * length[:, None]).sum(axis=0) / length.sum()
    offset = np.array([0.5, 0.5]) + rng.uniform(-0.03, 0.03, size=2)
    room = np.minimum((offset - PLACE_MARGIN) / np.maximum(centre - low, 1e-9),
                      (1.0 - PLACE_MARGIN - offset) / np.maximum(high - centre, 1e-9))
    scale = min(extent / float(max(high - low)), float(room.min()))
    return [Stroke((s.points - centre) * scale + offset, s.bulges.copy(), s.closed, s.part) for s in moved]


# -- families of figures (raw coordinates, roughly the unit disc) ----------------------------------
def _convex_vertices(rng: np.random.Generator, n: int) -> np.ndarray:
    """An irregular convex polygon: sorted angles with a minimum gap, radii near 1."""
    for _ in range(100):
        gaps = rng.uniform(0.55, 1.45, size=n)
        angles = np.cumsum(gaps / gaps.sum() * 2 * np.pi) + rng.uniform(0, 2 * np.pi)
        radii = rng.uniform(0.8, 1.0, size=n)
        pts = np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
        poly = Polygon(pts)
        if _clear_corners(pts, True) and poly.is_valid and _same_area(poly.area, poly.convex_hull.area, 1e-9):
            return pts
    raise RuntimeError("no convex polygon")


def _clear_corners(pts: np.ndarray, closed: bool) -> bool:
    """True if the path turns by at least 30 degrees at every vertex (a viewer sees each one as a corner)."""
    p = [(float(x), float(y)) for x, y in pts]
    heading = [math.atan2(b[1] - a[1], b[0] - a[0]) for a, b in itertools.pairwise(p + p[:1] if closed else p)]
    turns = itertools.pairwise(heading[-1:] + heading if closed else heading)
    return all(math.degrees(abs((v - u + math.pi) % (2 * math.pi) - math.pi)) >= 30 for u, v in turns)


def _same_area(area: float, hull: float, rtol: float) -> bool:
    """Whether a polygon's area equals its convex hull's (``numpy.isclose`` with ``rtol``): it is convex."""
    return abs(area - hull) <= 1e-8 + rtol * abs(hull)


def _regular_vertices(n: int, radius: float = 1.0) -> np.ndarray:
    """The vertices of a regular n-gon of the given circumradius, one vertex at the top."""
    t = np.arange(n) * 2 * np.pi / n + np.pi / 2
    return radius * np.column_stack([np.cos(t), np.sin(t)])


def _symmetric_vertices(rng: np.random.Generator, n: int, convex: bool) -> np.ndarray:
    """A polygon symmetric about the y axis with ``n`` vertices (1 or 2 of them on the axis)."""
    for _ in range(200):
        on_axis = 1 if n % 2 else rng.choice([0, 2])
        pairs = (n - on_axis) // 2
        ys = np.sort(rng.uniform(-1.0, 1.0, size=pairs + on_axis))
        xs = rng.uniform(0.35, 1.0, size=pairs)
        if on_axis == 2:
            top, bottom = ys[0], ys[-1]
            side = np.column_stack([xs, ys[1:-1]]) if pairs else np.zeros((0, 2))
            right = [[0.0, top], *side.tolist(), [0.0, bottom]]
        elif on_axis == 1:
            right = [[0.0, ys[0]], *np.column_stack([xs, ys[1:]]).tolist()]
        else:
            right = np.column_stack([xs, ys]).tolist()
        right = np.array(right)
        left = right[::-1] * [-1, 1]
        left = left[1:] if on_axis and abs(right[-1][0]) < 1e-12 else left
        pts = np.vstack([right, left])
        if on_axis and abs(pts[-1][0]) < 1e-12 and np.allclose(pts[-1], pts[0]):
            pts = pts[:-1]
        pts = _dedupe(pts)
        if len(pts) != n or not _clear_corners(pts, closed=True):
            continue
        poly = Polygon(pts)
        if not poly.is_valid or poly.area < 0.4:
            continue
        is_convex = _same_area(poly.area, poly.convex_hull.area, 1e-6)
        if is_convex == convex:
            return pts
    raise RuntimeError("no symmetric polygon")


def _dedupe(pts: np.ndarray) -> np.ndarray:
    """The points without consecutive repeats (and without a repeated closing point)."""
    keep = [pts[0]]
    for p in pts[1:]:
        if math.hypot(p[0] - keep[-1][0], p[1] - keep[-1][1]) > 1e-9:
            keep.append(p)
    if len(keep) > 1 and math.hypot(keep[0][0] - keep[-1][0], keep[0][1] - keep[-1][1]) < 1e-9:
        keep.pop()
    return np.array(keep)


def _turn_symmetric(fig: Figure) -> np.ndarray | None:
    """The vertex radii (about the centroid) of a figure that is one closed straight polygon with a turn symmetry
    of order 3 or more (a regular polygon, a star), whose ink has no principal direction; else None."""
    if len(fig) != 1 or not fig[0].closed or np.abs(fig[0].bulges).max() > 1e-9 or len(fig[0].points) < 3:
        return None
    if ink_shape([flatten(fig[0], 1.0)])[0] > 1e-9:
        return None
    return np.hypot(*(fig[0].points - fig[0].points.mean(axis=0)).T)


def _edge_kinks(points: np.ndarray, at: float, depth: float) -> np.ndarray:
    """The polygon with a vertex inserted on every edge, ``at`` of the way along it, pushed ``depth`` of the
    edge's length to its left (inwards for a counter-clockwise polygon): the same on every edge, so the
    polygon keeps its turn symmetry."""
    out = []
    for a, b in zip(points, np.roll(points, -1, axis=0), strict=True):
        e = b - a
        out.extend([a, a + at * e + depth * np.array([-e[1], e[0]])])
    return np.array(out)


def _ccw(points: np.ndarray) -> np.ndarray:
    """The polygon's vertices in counter-clockwise order (y up)."""
    x, y = points.T
    return points if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0 else points[::-1].copy()


def fam_convex_polygon(rng: np.random.Generator) -> Figure:
    """An irregular convex polygon with 3-7 sides."""
    return [Stroke.make(_convex_vertices(rng, int(rng.integers(3, 8))), True)]


def fam_regular_polygon(rng: np.random.Generator) -> Figure:
    """A regular polygon with 3-8 sides."""
    return [Stroke.make(_regular_vertices(int(rng.integers(3, 9))), True)]


def fam_regular_even(rng: np.random.Generator) -> Figure:
    """A regular hexagon or octagon: the base of the near misses of "regular" (``edit_irregular``)."""
    return [Stroke.make(_regular_vertices(int(rng.choice([6, 8]))), True)]


def _turned_vertices(n: int, radial: float, angular: float) -> np.ndarray:
    """An n-gon (n even) from the regular one with every second vertex moved: in by ``radial`` of the radius and
    turned by ``angular`` of half the angle between vertices (the others turned back as far).  Either edit
    keeps a turn symmetry of order n / 2 >= 3 and n / 2 mirror axes: the figure stays isotropic (its ink has
    no principal direction, like a regular polygon's), only its sides (turned) or angles (moved in) alternate."""
    t = np.arange(n) * 2 * np.pi / n + np.pi / 2 + (-1.0) ** np.arange(n) * angular * np.pi / n
    r = np.where(np.arange(n) % 2 == 1, 1.0 - radial, 1.0)
    return np.column_stack([r * np.cos(t), r * np.sin(t)])


def fam_turn_polygon(rng: np.random.Generator) -> Figure:
    """A far negative of "regular" as isotropic as a regular polygon: a hexagon or octagon with alternating
    sides (equiangular) or alternating angles (equilateral), or a three-pointed star (``_turned_vertices``;
    the amounts keep every corner a clear one, ``_clear_corners``)."""
    kind = rng.choice(["sides", "angles", "star"])
    n = 6 if kind == "star" else int(rng.choice([6, 8]))
    if kind == "sides":
        return [Stroke.make(_turned_vertices(n, 0.0, rng.uniform(0.3, 0.6)), True)]
    if kind == "angles":
        radial = rng.uniform(0.15, 0.25) if n == 6 else rng.uniform(0.08, 0.1)
        return [Stroke.make(_turned_vertices(n, radial, 0.0), True)]
    return [Stroke.make(_turned_vertices(n, rng.uniform(0.72, 0.8), 0.0), True)]


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
    best = np.inf
    for i in range(len(pts) - 1):
        for j in range(i + 2, len(pts) - 1):
            best = min(best, LineString(pts[i:i + 2]).distance(LineString(pts[j:j + 2])))
    return best


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
    direction = direction / np.linalg.norm(direction)
    spin = np.radians(rng.uniform(-35, 35))
    rot = np.array([[np.cos(spin), -np.sin(spin)], [np.sin(spin), np.cos(spin)]])
    end = start + rot @ direction * rng.uniform(0.6, 1.1)
    return [*base, Stroke.make([start, end], False)]


def fam_pierced(rng: np.random.Generator) -> Figure:
    """A base shape (closed, or an open curve) with a straight line crossing right through it, at a clear
    angle and away from the base's corners."""
    base = _base_closed(rng) if rng.random() < 0.75 else fam_open_curve(rng)
    ring = np.vstack([flatten(s, 0.05) for s in base])
    outline = shapely.union_all([LineString(flatten(s, 0.05)) for s in base])
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
        if not hits or min(np.linalg.norm(corners - h, axis=1).min() for h in hits) < 0.12 * size:
            continue
        if _shallow_crossing(base, a, b):
            continue
        return [*base, Stroke.make([a, b], False, part=0)]
    raise RuntimeError("no clean crossing")


def _shallow_crossing(base: Figure, a: np.ndarray, b: np.ndarray) -> bool:
    """True if the segment a-b crosses some edge of the base at less than 30 degrees."""
    d = (b - a) / np.linalg.norm(b - a)
    for s in base:
        poly = flatten(s, 0.05)
        for p, q in itertools.pairwise(poly):
            e = q - p
            length = np.linalg.norm(e)
            if length < 1e-12:
                continue
            hit = LineString([p, q]).intersects(LineString([a, b]))
            if hit and abs(float(d[0] * e[1] - d[1] * e[0])) / length < np.sin(np.radians(30)):
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
    pts = _regular_vertices(n)
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
        direction = tri[k] / np.linalg.norm(tri[k])
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
        direction = quad[k] / np.linalg.norm(quad[k])
        return [Stroke.make(quad, True), Stroke.make([quad[k], quad[k] + direction * rng.uniform(0.5, 0.9)], False)]
    return _side_by_side(rng, [Stroke.make(quad, True)], _small_piece(rng))


def line_families(k: int) -> tuple[Family, ...]:
    """Straight-line families that draw exactly ``k`` lines (for the "has k straight lines" concept)."""

    def polygon(rng: np.random.Generator) -> Figure:
        return [Stroke.make(_convex_vertices(rng, k), True)]

    def symmetric_polygon(rng: np.random.Generator) -> Figure:
        return [Stroke.make(_symmetric_vertices(rng, k, convex=bool(rng.random() < 0.6)), True)]

    def regular(rng: np.random.Generator) -> Figure:
        return [Stroke.make(_regular_vertices(k), True)]

    def path(rng: np.random.Generator) -> Figure:
        return [Stroke.make(_open_path(rng, k), False)]

    def tailed(rng: np.random.Generator) -> Figure:
        base = _convex_vertices(rng, k - 1)
        j = int(rng.integers(k - 1))
        direction = base[j] / np.linalg.norm(base[j])
        return [Stroke.make(base, True), Stroke.make([base[j], base[j] + direction * rng.uniform(0.6, 1.0)], False)]

    def two_part(rng: np.random.Generator) -> Figure:
        piece = [Stroke.make([[-0.5, 0.0], [0.5, 0.0]], False)]
        return _side_by_side(rng, [Stroke.make(_convex_vertices(rng, k - 1), True)], piece)

    families = [polygon, symmetric_polygon, regular, path] + ([tailed, two_part] if k >= 4 else [])
    for f in families:
        f.__name__ = f"fam_{f.__name__}_{k}"
    return tuple(families)


# -- near-miss edits: each takes a positive-like figure and removes one attribute ---------------------
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
                if abs(s.bulges[i]) < 1e-9 and np.linalg.norm(np.subtract(*s.edge(i))) > 2.5 * magnitude * size]
    if not straight:
        return None
    i = straight[int(rng.integers(len(straight)))]
    a, b = s.edge(i)
    cut = a + (b - a) * magnitude * size / np.linalg.norm(b - a)
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
    if _turn_symmetric(fig) is not None:
        return [Stroke.make(_edge_kinks(_ccw(s.points), 0.5, 0.1 + 0.5 * magnitude), True, part=s.part)]
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
    inward /= np.linalg.norm(inward)
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
             if np.linalg.norm(np.subtract(*s.edge(i))) > 0.35 * size]
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
    radii = _turn_symmetric(fig)
    if radii is not None:
        s = fig[0]
        if np.ptp(radii) < 1e-6 * radii.max():
            points = _edge_kinks(_ccw(s.points), rng.uniform(0.15, 0.25), 0.26 + 0.4 * magnitude)
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
        first = min(points, key=lambda p: np.linalg.norm(p - a))
        if np.linalg.norm(first - a) < 0.2 * figure_size(fig):
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
    at_end = any(np.linalg.norm(e - p) < 1e-9 for e in ends for p in (pa, pb))
    if not at_end:
        move = move + move / np.linalg.norm(move) * ATTACH_OVERLAP * figure_size(fig)
    return [*[s.copy() for s in first], *[Stroke(s.points + move, s.bulges.copy(), s.closed, 1) for s in second]]


def edit_add_corner(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """k lines -> k + 1: a long straight edge gets a corner in its middle."""
    size = figure_size(fig)
    edges = [(k, i) for k, s in enumerate(fig) for i in range(len(s.bulges))
             if abs(s.bulges[i]) < 1e-9 and np.linalg.norm(np.subtract(*s.edge(i))) > 0.45 * size]
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
            return [Stroke.make(_regular_vertices(n + 1 if n == 3 or rng.random() < 0.5 else n - 1, radii[0]), True)]
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
            angle = np.degrees(np.arccos(np.clip(u @ v / np.linalg.norm(u) / np.linalg.norm(v), -1, 1)))
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
    points = _ccw(s.points)
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
            angle = np.degrees(np.arccos(np.clip(u @ v / np.linalg.norm(u) / np.linalg.norm(v), -1, 1)))
            if not only_acute or angle < 80:
                options.append((k, i))
    if not options or (only_acute and len(options) != 1):
        return None
    k, i = options[int(rng.integers(len(options)))]
    s = fig[k]
    n = len(s.points)
    u, v = s.points[i - 1] - s.points[i], s.points[(i + 1) % n] - s.points[i]
    cut = rng.uniform(0.28, 0.4) * min(np.linalg.norm(u), np.linalg.norm(v))
    p1 = s.points[i] + u / np.linalg.norm(u) * cut
    p2 = s.points[i] + v / np.linalg.norm(v) * cut
    # tails that started at the removed corner now start on the middle of the cut, a vertex of the outline
    # (so that the tail's end lies exactly on it)
    tails = [t for t in fig if not t.closed and np.linalg.norm(t.points[0] - s.points[i]) < 1e-9]
    middle = [(p1 + p2) / 2] if tails else []
    points = np.vstack([s.points[:i], [p1, *middle, p2], s.points[i + 1:]])
    out = [t.copy() for t in fig]
    out[k] = Stroke.make(points, True, part=s.part)
    for t in out:
        if not t.closed and np.linalg.norm(t.points[0] - s.points[i]) < 1e-9:
            t.points[0] = (p1 + p2) / 2
    return out


def edit_irregular(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Regular -> irregular: every second vertex of a regular hexagon moves in along its radius (the angles
    alternate), or every second vertex of a hexagon or octagon turns about the centre (the sides alternate), so
    the figure keeps a three- or four-fold turn and stays as isotropic as a regular polygon
    (``_turned_vertices``).  Moving one vertex made the near miss the only elongated figure of six (the odd
    elongation was the answer in every item)."""
    if len(fig) != 1 or not fig[0].closed or len(fig[0].points) not in (6, 8):
        return None
    n = len(fig[0].points)
    if n == 6 and rng.random() < 0.5:  # an octagon's corners would turn too little (``_clear_corners``)
        points = _turned_vertices(n, 0.05 + 0.6 * magnitude, 0.0)
    else:
        points = _turned_vertices(n, 0.0, 0.08 + 1.2 * magnitude)
    return [Stroke.make(points * np.linalg.norm(fig[0].points[0]), True)]


def edit_apex(fig: Figure, rng: np.random.Generator, magnitude: float) -> Figure | None:
    """Sector -> not a sector: the apex leaves the arc's centre, away from the arc (the straight sides grow) or
    towards it (they shrink), so the straight sides are not radii.  Only away made every near miss carry its ink
    further from its centre than a sector does (``ink_shape``)."""
    if len(fig) != 1 or len(fig[0].points) != 3:
        return None
    out = fig[0].copy()
    a, b = out.points[1], out.points[2]
    away = -((a + b) / 2 - out.points[0])
    norm = np.linalg.norm(away)
    if norm < 1e-6:
        away = np.array([-(b - a)[1], (b - a)[0]])
        norm = np.linalg.norm(away)
    shift = 0.35 + 1.5 * magnitude if rng.random() < 0.5 else -0.6 * (0.35 + 1.5 * magnitude)
    out.points[0] = out.points[0] + away / norm * shift
    if not Polygon(flatten(out, 0.05)).is_valid:
        return None
    return [out]


# -- concepts ---------------------------------------------------------------------------------------
Family = Callable[[np.random.Generator], Figure]
Edit = Callable[[Figure, np.random.Generator, float], "Figure | None"]


@attrs.frozen
class Concept:
    """An attribute the five positives share: where positives come from, how a near miss loses the
    attribute, where a far negative comes from, and which attribute value the positives have."""

    name: str
    attribute: str
    value: Any
    phrase: str
    positives: tuple[Family, ...]
    near: tuple[Family, ...]
    edit: Edit
    far: tuple[Family, ...]
    pairs: tuple[str, ...]


_STRAIGHT_FAMILIES = (fam_convex_polygon, fam_regular_polygon, fam_symmetric_polygon, fam_concave_polygon, fam_star,
                      fam_open_polyline, fam_symmetric_open, fam_x, fam_tailed, fam_pierced, fam_quadrangle,
                      fam_triangle)
_ROUND_FAMILIES = (fam_round, fam_bulged_polygon, fam_open_curve, fam_sector)
_OPEN_FAMILIES = (fam_open_polyline, fam_symmetric_open, fam_open_curve, fam_x, fam_loop_path)

CONCEPTS: dict[str, Concept] = {
    c.name: c
    for c in (
        Concept("closed", "closed", True, "are closed shapes",
                (fam_convex_polygon, fam_symmetric_polygon, fam_concave_polygon, fam_star, fam_round,
                 fam_bulged_polygon, fam_tailed, fam_regular_polygon, fam_sector),
                (fam_convex_polygon, fam_symmetric_polygon, fam_concave_polygon, fam_star, fam_round,
                 fam_bulged_polygon, fam_regular_polygon),
                edit_open_gap, _OPEN_FAMILIES, ("curved", "straight")),
        Concept("convex", "convex", True, "are convex",
                (fam_convex_polygon, fam_regular_polygon, fam_symmetric_polygon, fam_bulged_polygon, fam_round,
                 fam_sector, fam_quadrangle),
                (fam_convex_polygon, fam_regular_polygon, fam_symmetric_polygon, fam_bulged_polygon),
                edit_dent, (fam_concave_polygon, fam_star, fam_tailed), ("straight", "symmetric")),
        Concept("curved", "curved", True, "contain a curve",
                _ROUND_FAMILIES, (fam_round, fam_bulged_polygon, fam_open_curve, fam_sector),
                edit_straighten, _STRAIGHT_FAMILIES, ("closed", "symmetric")),
        Concept("straight", "curved", False, "use straight lines only",
                _STRAIGHT_FAMILIES, _STRAIGHT_FAMILIES, edit_bend, _ROUND_FAMILIES, ("closed", "symmetric")),
        Concept("symmetric", "symmetric", True, "are mirror symmetric",
                (fam_regular_polygon, fam_symmetric_polygon, fam_star, fam_round, fam_symmetric_open, fam_sector,
                 fam_open_curve),
                (fam_regular_polygon, fam_symmetric_polygon, fam_star, fam_symmetric_open),
                edit_skew, (fam_convex_polygon, fam_concave_polygon, fam_open_polyline, fam_tailed),
                ("closed", "curved", "straight")),
        Concept("crossing", "crossing", True, "have lines that cross",
                (fam_pierced, fam_x, fam_star_polygon, fam_loop_path), (fam_pierced, fam_x),
                edit_uncross, (fam_tailed, fam_convex_polygon, fam_open_polyline, fam_round), ("closed", "straight")),
        Concept("two-parts", "parts", 2, "consist of two separate parts",
                (fam_two_part, fam_triangle, fam_quadrangle), (fam_two_part,), edit_attach,
                (fam_tailed, fam_convex_polygon, fam_pierced, fam_open_polyline), ("straight", "closed")),
        Concept("lines", "lines", None, "have exactly {k} straight lines",
                (fam_convex_polygon, fam_symmetric_polygon, fam_concave_polygon, fam_open_polyline, fam_tailed,
                 fam_regular_polygon, fam_quadrangle, fam_triangle, fam_symmetric_open),
                (fam_convex_polygon, fam_symmetric_polygon, fam_open_polyline, fam_tailed, fam_regular_polygon,
                 fam_quadrangle),
                edit_recount, (fam_convex_polygon, fam_open_polyline, fam_concave_polygon), ("closed",)),
        Concept("acute", "acute", True, "have an acute angle",
                (fam_open_polyline, fam_triangle, fam_star, fam_symmetric_open, fam_convex_polygon, fam_sector),
                (fam_open_polyline, fam_convex_polygon, fam_symmetric_polygon),
                edit_widen, (fam_regular_polygon, fam_round, fam_open_curve), ("straight",)),
        Concept("triangle", "triangle", True, "contain a triangle",
                (fam_triangle, fam_star_polygon), (fam_triangle,), edit_reshape,
                (fam_quadrangle, fam_round, fam_open_polyline), ("straight",)),
        Concept("quadrangle", "quadrangle", True, "contain a quadrangle",
                (fam_quadrangle,), (fam_quadrangle,), edit_reshape,
                (fam_triangle, fam_round, fam_star), ("straight",)),
        Concept("regular", "regular", True, "are regular polygons",
                (fam_regular_polygon,), (fam_regular_even,), edit_irregular, (fam_turn_polygon, fam_star),
                ("convex",)),
        Concept("sector", "sector", True, "contain a sector (a slice bounded by two radii and an arc)",
                (fam_sector,), (fam_sector,), edit_apex, (fam_round, fam_bulged_polygon), ("closed",)),
    )
}

#: Which second attributes of a pair concept each family can give (so hard items draw from families that can
#: satisfy both attributes; the measured attributes still decide).
CAN_PAIR: dict[str, set[str]] = {
    "convex_polygon": {"closed", "straight", "convex"},
    "regular_polygon": {"closed", "straight", "convex", "symmetric"},
    "regular_even": {"closed", "straight", "convex", "symmetric"},
    "turn_polygon": {"closed", "straight", "convex", "symmetric"},
    "symmetric_polygon": {"closed", "straight", "convex", "symmetric"},
    "concave_polygon": {"closed", "straight", "symmetric"},
    "star": {"closed", "straight", "symmetric"},
    "bulged_polygon": {"closed", "curved", "convex"},
    "round": {"closed", "curved", "convex", "symmetric"},
    "sector": {"closed", "curved", "symmetric", "convex"},
    "open_polyline": {"straight"},
    "symmetric_open": {"straight", "symmetric"},
    "open_curve": {"curved", "symmetric"},
    "tailed": {"closed", "straight"},
    "pierced": {"closed", "straight", "curved"},
    "x": {"straight", "symmetric"},
    "star_polygon": {"closed", "straight", "symmetric"},
    "loop_path": {"closed", "straight"},
    "two_part": {"closed", "straight", "curved"},
    "triangle": {"closed", "straight"},
    "quadrangle": {"closed", "straight", "convex"},
}


def can_pair(family: Family, second: str) -> bool:
    """Whether ``family`` can draw figures with the pair attribute ``second``."""
    name = family.__name__.removeprefix("fam_")
    if name not in CAN_PAIR:  # the line-count families: straight, mostly closed, some symmetric
        return second in ("straight", "closed") or (second == "symmetric" and "regular" in name)
    return second in CAN_PAIR[name]


#: Attribute values meant by the second attribute of a pair concept.
PAIR_VALUES = {"closed": ("closed", True), "curved": ("curved", True), "straight": ("curved", False),
               "symmetric": ("symmetric", True), "convex": ("convex", True)}
#: Edit magnitudes (fraction of the figure size): medium near misses, and the closer ones of hard items.
MAGNITUDE = {"easy": 0.16, "medium": 0.14, "hard": 0.1}


# -- drawn sizes that carry no information -----------------------------------------------------------
def _ranked(values: np.ndarray, step: float, factor: float, floors: np.ndarray, small_odd: bool) -> np.ndarray:
    """Per candidate (leading axes), whether ``values`` (..., options in size order, features) rise by at least
    ``step`` from each option to the next in every feature, neither end is "singled out" (``base.singled_out``
    with ``factor`` and the features' floors), and the smallest (``small_odd``) or else the largest option lies
    furthest from the median ``sorted(values)[n // 2]`` (by a ``step`` margin)."""
    v = np.moveaxis(values, -2, 0)
    m = len(v) // 2
    ok = (v[1:] >= v[:-1] * (1 + step)).all(axis=0)
    low, high = v[m] - v[0], v[-1] - v[m]
    ok &= (low >= (1 + step) * high) if small_odd else (high >= (1 + step) * low)
    ok &= (v[1] - v[0] <= factor * (v[-1] - v[1]) + floors) & (v[-1] - v[-2] <= factor * (v[-2] - v[0]) + floors)
    return ok.all(axis=-1)


def _spacings(rng: np.random.Generator, base: np.ndarray, power: np.ndarray, step: float, factor: float,
              floors: np.ndarray, reach: np.ndarray, draws: int, small_odd: bool,
              room: np.ndarray | None = None, loose: float | None = None,
              gap: float = 0.12) -> tuple[np.ndarray, np.ndarray]:
    """For each candidate size order (leading axis: ``base`` holds the log features at scale 1, (orders,
    options in size order, features), ``reach`` the log linear sizes), the narrowest range of log sizes among
    ``draws`` random spacings that satisfy ``_ranked`` (inf where none does) and those log scales: all but the
    largest option spaced at random beyond what the order needs, the largest placed inside the interval the
    conditions leave it.  With ``room`` (orders, options, (log lowest, log highest) scale)) the score is
    instead how far the spacing overshoots the room (<= 0: some common factor fits every option in)."""
    orders, count, _ = base.shape
    m = count // 2
    trial = np.zeros((orders, draws, count))
    gaps = rng.uniform(0.0, gap, size=(orders, draws, count - 2))
    for j in range(1, count - 1):
        need = (base[:, None, j - 1] + power * trial[:, :, j - 1, None] + math.log1p(step) - base[:, None, j]) / power
        trial[:, :, j] = need.max(axis=-1) + gaps[:, :, j - 1]
    v = np.exp(base[:, None, :-1] + power * trial[:, :, :-1, None])  # features of all but the largest option
    lower = np.maximum(v[:, :, -1] * (1 + step), v[:, :, 1] + (v[:, :, 1] - v[:, :, 0] - floors) / factor)
    upper = v[:, :, -1] + factor * (v[:, :, -1] - v[:, :, 0]) + floors
    if small_odd:
        upper = np.minimum(upper, v[:, :, m] + (v[:, :, m] - v[:, :, 0]) / (1 + step))
    else:
        lower = np.maximum(lower, v[:, :, m] + (1 + step) * (v[:, :, m] - v[:, :, 0]))
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = ((np.log(lower) - base[:, None, -1]) / power).max(axis=-1)
        hi = ((np.log(upper) - base[:, None, -1]) / power).min(axis=-1)
    trial[:, :, -1] = lo + (hi - lo) * rng.uniform(0.2, 0.6, size=(orders, draws))
    predicted = np.exp(base[:, None] + power * trial[..., None])
    if room is None:
        size = reach[:, None] + trial
        spread = size.max(axis=-1) - size.min(axis=-1)
    else:
        spread = (room[:, None, :, 0] - trial).max(axis=-1) - (room[:, None, :, 1] - trial).min(axis=-1)
    ok = (hi > lo) & _ranked(predicted, step, factor, floors, small_odd)
    spread = np.where(ok, spread, np.inf)
    if loose is None:
        best = spread.argmin(axis=1)
    else:  # a random one of the spacings within ``loose``, not the narrowest
        best = np.where(spread <= loose, rng.random(spread.shape), -1.0).argmax(axis=1)
    pick = np.arange(orders)
    return spread[pick, best], trial[pick, best]


def balanced_sizes(rng: np.random.Generator, measure: Callable[[np.ndarray], Sequence[Mapping[str, float]]],
                   count: int, exponents: Mapping[str, float], rank: int, small_odd: bool, factor: float,
                   floors: Mapping[str, float], step: float, longest: float, draws: int,
                   rounds: int = 3, bounds: np.ndarray | None = None, loose: bool = False,
                   gap: float = 0.12) -> np.ndarray | None:
    """Drawn scales (the largest 1) for ``count`` options, the answer first, that leave the nuisance features
    no information about the answer - ``mental_composition.balanced_scales`` with one more freedom: every
    feature in ``exponents`` (name -> how it grows with the linear scale) ranks the options in one size order
    in which the answer is ``rank``-th smallest, and the smallest option (``small_odd``) or else the largest
    lies furthest from the median.  The caller draws ``rank`` and ``small_odd`` uniformly once per item, so
    largest, smallest, most atypical and most typical each point at the answer exactly 1/count of the time;
    letting either end be the atypical one (balanced_scales always makes it the smallest) lets figures whose
    ink and ink box grow differently with size share a narrower range of sizes.  ``measure(scales)`` returns
    the options' features drawn at those scales and each one's ``reach`` (its linear size); scales are
    predicted from a first measurement (feature ~ scale ** exponent) and measured again to confirm (half the
    ``step`` then suffices).  None if that needs sizes further apart than ``longest``.

    With ``bounds`` (options x (lowest, highest) scale, the natural size 1 among them) the scales are absolute
    instead: the search prefers the order and spacing that fit best inside the bounds, draws every option
    as large as they allow, and fails if no spacing fits (``longest`` is then ignored).

    With ``loose`` (and no bounds) the search takes a random one of the orders and spacings that need sizes
    at most ``longest`` apart instead of the narrowest: the narrowest spaces the options no further apart than
    their shapes demand, so how far apart the negative's ink, ink box and spread lie from its neighbours'
    told its shape (less ink for its box, say) from theirs."""
    names = list(exponents)
    power = np.array([float(exponents[n]) for n in names])
    floor = np.array([float(floors.get(n, 0.0)) for n in names])
    sigma = np.zeros(count)
    order = None
    logs = None if bounds is None else np.log(np.asarray(bounds, dtype=float))
    for attempt in range(rounds + 1):
        scales = np.exp(sigma - (sigma.max() if logs is None else 0.0))
        measured = measure(scales)
        values = np.array([[float(f[n]) for n in names] for f in measured])
        if order is not None and _ranked(values[order], step / 2, factor, floor, small_odd):
            return scales
        if attempt == rounds or (values <= 0).any():
            return None
        base = np.log(values) - power * sigma[:, None]
        reach = np.log([float(f["reach"]) for f in measured]) - sigma
        if order is None:  # the wrong options' order: the one needing the narrowest range of sizes
            orders = np.array([[*others[:rank], 0, *others[rank:]]
                               for others in itertools.permutations(range(1, count))])
        else:
            orders = order[None]
        within = math.log(longest) if loose and logs is None else None
        spread, trials = _spacings(rng, base[orders], power, step, factor, floor, reach[orders], draws, small_odd,
                                   None if logs is None else logs[orders], within, gap)
        fits = np.flatnonzero(spread <= within) if within is not None else np.zeros(0, dtype=int)
        best = int(fits[rng.integers(len(fits))]) if len(fits) else int(np.argmin(spread))
        if not spread[best] <= (math.log(longest) if logs is None else 0.0):
            return None
        order, trial = orders[best], trials[best]
        sigma = np.empty(count)
        sigma[order] = trial
        if logs is not None:
            sigma += float(np.min(logs[:, 1] - sigma))  # as large as the bounds allow
    return None  # pragma: no cover


# -- the task -----------------------------------------------------------------------------------------
@attrs.frozen(eq=False)
class Drawing:
    """What a panel of ``side`` pixels shows, exactly as drawn: pen strokes with vertices in tile pixels (rounded
    to 1/100 px) and edge bulges (rounded to 6 decimals), the stroke width in supersampled pixels and the arc
    sampling step in pixels.  The panel is a function of these values alone, which ``record`` stores in the
    scene; ``tiles`` memoises the rendered panel."""

    strokes: tuple[Stroke, ...] = attrs.field(converter=tuple)
    side: int
    width: int
    chord: float
    tiles: dict[int, Image.Image] = attrs.field(factory=dict, repr=False)

    @classmethod
    def of(cls, strokes: Sequence[Stroke], scale: float, side: int) -> Drawing:
        """Placed strokes (panel units) scaled by ``scale`` about the panel centre, in quantised tile pixels."""
        out = [Stroke(np.round(((s.points - 0.5) * scale + 0.5) * side, 2), np.round(s.bulges, 6), s.closed, s.part)
               for s in strokes]
        width = max(DRAW_SUPERSAMPLE, round(STROKE * side * DRAW_SUPERSAMPLE))
        return cls(out, side, width, round(ARC_CHORD * scale * side, 4))

    @property
    def polylines(self) -> list[np.ndarray]:
        """The drawn polylines in tile pixels (arcs sampled every ``chord`` px at most), rounded to 1/100 px."""
        return [np.round(flatten(s, self.chord), 2) for s in self.strokes]

    def record(self) -> dict[str, Any]:
        """The JSON description of the panel: stroke width (px), arc step (px) and the pen strokes."""
        return {
            "width": self.width / DRAW_SUPERSAMPLE,
            "arc_step": self.chord,
            "strokes": [{"closed": bool(s.closed), "points": s.points.tolist(), "bulges": s.bulges.tolist()}
                        for s in self.strokes],
        }


@attrs.frozen
class _Candidate:
    """A figure placed in its panel: the program, the placed strokes and their polylines (panel units), the
    measured attributes, the family."""

    figure: Figure
    strokes: Figure
    polylines: list[np.ndarray]
    attributes: dict[str, Any]
    family: str


#: The attribute vocabulary a figure must not be the odd one out by (unless it is the answer): the hint's and
#: a loose end (issue 10: the only figure with a dangling stroke is a second odd one out).
VOCABULARY = (*LINE_ATTRIBUTES, "loose")
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
    an arc sample), or lies near a corner of the other stroke but not on it."""
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
        for end, inner in ((p[0], p[1]), (p[-1], p[-2])):
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


class SizePlannedTask(MindsEyeTask):
    """An odd-one-out task whose unset concept, and whose answer's place in the size order, are balanced over
    consecutive items (spec §4.3: balance sub-types like the concept the same way as answer positions).

    ``generate`` publishes the (rank, small_odd) plan of ``balanced_sizes`` through ``SIZE_PLAN`` for
    ``build``; the plan is fixed through verify retries, so no retry can favour an easier place.
    """

    concept_order: tuple[str, ...] = ()

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        source = params["source"] if params["source"] is not None else random.index
        if params.get("concept") is None:
            concepts = self.concept_order
            params = {**params, "concept": concepts[random.balanced(len(concepts), "concept", position=source)]}
        plan = random.balanced(2 * self.option_count, "size-plan", position=source)  # every (place, end) pair
        token = SIZE_PLAN.set((plan % self.option_count, plan >= self.option_count))
        try:
            return super().generate(params, random)
        finally:
            SIZE_PLAN.reset(token)


class RelationAbstraction(SizePlannedTask):
    """Bongard-style odd-one-out: which figure lacks the attribute the other five share?"""

    concept_order = tuple(sorted(CONCEPTS))

    code = "VRA"
    art = "abstraction"
    option_count = 6
    option_columns = 3
    query_count = 0
    texts = PromptTexts(
        question=("Look at the six figures labelled A to F. Most of them share one visual property of their shape. "
                  "Work out what that property is, then say which single figure does not have it."),
        hint=("the shared property is about the shape itself, for example: convex, has curves, only straight lines, "
              "symmetric, has three (four, five, six) straight lines, closed, has an acute angle, has lines that "
              "cross, made of two parts, contains a triangle, contains a quadrangle, regular polygon, contains a "
              "sector. Orientation and size do not matter."),
        puzzle_type="abstract shapes (Bongard-style concept induction, odd one out)",
        elimination=("for each figure, note its key shape properties (closed or open, curves or straight lines, "
                     "symmetry, number of lines, parts, angles); find the property shared by five figures; the figure "
                     "that lacks it is the answer."),
    )

    # -- generation ------------------------------------------------------------------------------
    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Attributes in the concept, plus one for a near-miss negative, plus how small its edit is."""
        near = knobs["negative"] == "near-miss"
        return knobs["arity"] + near + (0.2 - float(knobs["edit_magnitude"] or 0.2)) * near * 5

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any]) -> Stimulus:
        """Five positives sharing the concept, one negative lacking it, checked for uniqueness."""
        concept_name = params.get("concept") or str(rng.choice(sorted(CONCEPTS)))
        concept = CONCEPTS[concept_name]
        side = self.layout(params["size"]).tile
        # the negative's place in the size order, uniform and kept through every redraw (``_scales``)
        rank, small_odd = SIZE_PLAN.get() or (int(rng.integers(self.option_count)), bool(rng.random() < 0.5))
        for _ in range(ATTEMPTS):
            built = self._attempt(rng, concept, difficulty, side, rank, small_odd)
            if built is not None:
                return built
        raise RuntimeError(f"VRA: could not build a sound {concept_name} item")

    def _attempt(self, rng: np.random.Generator, concept: Concept, difficulty: str, side: int,
                 rank: int, small_odd: bool) -> Stimulus | None:
        """One try: positives, a negative, uniqueness repair and the drawn sizes (the negative ``rank``-th
        smallest, ``_scales``); None if it fails."""
        want: dict[str, Any] = {}
        value = concept.value
        positive_families, near_families = concept.positives, concept.near
        if concept.name == "lines":
            value = int(rng.integers(3, 7))
            positive_families = near_families = line_families(value)
        want[concept.attribute] = value
        second = None
        if difficulty == "hard":
            second = str(rng.choice(list(concept.pairs)))
            key, val = PAIR_VALUES[second]
            want[key] = val
            positive_families = tuple(f for f in positive_families if can_pair(f, second))
            near_families = tuple(f for f in near_families if can_pair(f, second))
            if not positive_families or not near_families:
                return None
        near = difficulty != "easy"
        magnitude = MAGNITUDE[difficulty]
        # Positives come from two families, three from one and two from the other: every trait that goes
        # with a family is then shared by at least two figures and cannot single one out.  The negative's ink is
        # shaped like that of a further positive of the second family (drawn like the shown ones and, like them,
        # drawn again while some attribute singles it out among them, but not shown), and a near miss edits a
        # figure of that family: the six figures then fall into two families three and three, and the negative
        # is laid out like the two positives of its own (making it a fourth of the first family left it among
        # the typical figures far more often than a positive).
        picks = rng.permutation(len(positive_families))[:2]
        groups = [positive_families[int(k)] for k in picks]
        near_families = [f for f in near_families if f in groups] or list(near_families)
        if near and groups[0] in near_families and groups[-1] not in near_families:
            groups.reverse()  # the family with near misses is the one of two
        plan = [groups[0]] * 3 + [groups[-1]] * 2
        family = groups[-1]
        kin = near and family in near_families
        positives: list[_Candidate] = []
        for f in plan:
            p = self._sample(rng, (f,), want)
            if p is None:
                return None
            positives.append(p)
        hidden = self._sample(rng, (family,), want)
        for _ in range(10):
            if hidden is None:
                return None
            table = [p.attributes for p in positives] + [hidden.attributes]
            majority = {name: table[0][name] for name, k in isolations(table, VOCABULARY).items() if k == 5}
            if not majority:
                break
            hidden = self._sample(rng, (family,), {**want, **majority}, tries=25)
        else:
            return None
        target = ink_shape(hidden.polylines)
        sources = [family] if kin else near_families
        negative = self._negative(rng, concept, want, near, magnitude, sources, target)
        if negative is None:
            return None
        # repair: no attribute may isolate a positive (spec §7.2: odd-one-out uniqueness), nor "thin" the negative
        # (a lone thin positive is drawn again, so a lone thin negative would be the most elongated figure)
        for _ in range(30):
            table = [p.attributes for p in positives] + [negative.attributes]
            found = isolations(table, VOCABULARY)
            if found.get("thin") == 5:
                negative = self._negative(rng, concept, {**want, "thin": table[0]["thin"]}, near, magnitude, sources,
                                          target)
                if negative is None:
                    return None
                continue
            bad = {name: k for name, k in found.items() if k != 5}
            if not bad:
                break
            k = next(iter(bad.values()))
            majority = {name: table[(k + 1) % 6][name] for name, j in bad.items() if j == k}
            p = self._sample(rng, (plan[k],), {**want, **majority}, tries=25)
            if p is None:
                return None
            positives[k] = p
        else:
            return None
        if isolations([p.attributes for p in positives] + [negative.attributes], [concept.attribute]).get(
                concept.attribute) != 5:
            return None
        figures = [*positives, negative]
        # the drawn sizes: one size order, the negative rank-th smallest, that ink and ink extent both follow
        # (so neither points at the answer more often than at any other figure), which also keeps every
        # nuisance feature from singling the negative out
        drawn: dict[tuple[int, float], Drawing] = {}
        scales = self._scales(rng, [negative, *positives], side, rank, small_odd, drawn)
        if scales is None:
            return None
        order = [*range(1, 6), 0]  # figures are the positives then the negative; scales the negative first
        drawings = [drawn.get((k, float(scales[k]))) or Drawing.of(f.strokes, float(scales[k]), side)
                    for f, k in zip(figures, order, strict=True)]
        tiles = [self._render(d, side) for d in drawings]
        if lookalike_pair(tiles, 1.5 * self.min_option_difference) is not None:
            return None
        phrase = concept.phrase.format(k=value)
        if second:
            phrase += " and " + CONCEPTS[second].phrase
        # The wrong options are the positives.  The designated confound is the positive that looks most like
        # the negative (most attribute values in common): choosing it means judging by superficial match.
        def common(p: _Candidate) -> int:
            return sum(p.attributes[n] == negative.attributes[n] for n in VOCABULARY)

        closest = max(range(5), key=lambda k: (common(positives[k]), positives[k].family == negative.family, -k))
        options = [Option("correct", f"{'near-miss' if near else 'far'}-negative-{concept.name}",
                          {"family": negative.family, "attributes": _jsonable(negative.attributes),
                           "scale": round(float(scales[0]), 4)}, drawings[5])]
        for k, p in enumerate(positives):
            role = "confound" if k == closest else "filler"
            template = "lookalike-positive" if k == closest else f"positive-{k + 1}"
            options.append(Option(role, template, {"family": p.family, "attributes": _jsonable(p.attributes),
                                                   "scale": round(float(scales[k + 1]), 4)}, drawings[k]))
        concept_list = [concept.name] + ([second] if second else [])
        reason = f"the other figures {phrase}; this one does not"
        facts = {
            "concept": concept_list,
            "concept_value": value,
            "knobs": {"arity": len(concept_list), "negative": "near-miss" if near else "far",
                      "edit_magnitude": magnitude if near else None},
            "reason": reason,
        }
        return Stimulus((), (), options, facts)

    def _sample(self, rng: np.random.Generator, families: Sequence[Family], want: Mapping[str, Any],
                tries: int = 40) -> _Candidate | None:
        """A figure from ``families`` whose measured attributes match ``want`` and are all decidable."""
        for _ in range(tries):
            family = families[int(rng.integers(len(families)))]
            try:
                figure = family(rng)
            except RuntimeError:
                continue
            candidate = self._measure(rng, figure, family.__name__, want)
            if candidate is not None:
                return candidate
        return None

    def _measure(self, rng: np.random.Generator, figure: Figure, family: str,
                 want: Mapping[str, Any] | None = None) -> _Candidate | None:
        """Place the figure in a panel (``_place``) and measure it (``_measure_placed``)."""
        return self._measure_placed(figure, _place(rng, figure), family, want)

    def _measure_placed(self, figure: Figure, strokes: Figure, family: str,
                        want: Mapping[str, Any] | None = None) -> _Candidate | None:
        """Measure a figure placed in its panel; None if some attribute is undecidable or differs from ``want``
        (checked first, so that unsuitable figures cost little)."""
        if not all(legible_corners(s) for s in strokes):
            return None  # unclear corners or spikes
        polylines = [flatten(s, ARC_CHORD) for s in strokes]
        measured = LineFigure(polylines)
        if want and any(measured[k] != v for k, v in want.items() if k in LINE_ATTRIBUTES):
            return None
        values = measured.decided()
        if values is None:
            return None
        loose, sound = stroke_ends(polylines, measured.size)
        if not sound or loose == AMBIGUOUS or ("loose" in (want or {}) and loose != want["loose"]):
            return None
        if values["curved"] and values["closed"] and has_half_disc(polylines, measured.size):
            return None
        if values["symmetric"] is False and not clearly_asymmetric(polylines, measured.size):
            return None
        crossings, unclear = measured._crossings()
        if unclear or any(angle < MIN_CROSSING_ANGLE for _, angle in crossings):
            return None  # a crossing next to a stroke end, or at a grazing angle, looks like a touch
        vertices = np.vstack([s.points for s in strokes])
        if any(np.hypot(*(vertices - x).T).min() < LOOSE_APART * measured.size for x, _ in crossings):
            return None  # a crossing next to a corner: which edges cross, at what angle, is unclear
        if program_lines(strokes) != values["lines"]:
            return None  # the measured lines differ from the program's straight edges
        if len(strokes) > 1 and any(np.abs(s.bulges).max() > 1e-9 for s in strokes if len(s.bulges)):
            # where a stroke meets an arc, the arc's samples bend its tangent by up to a sample's angle (a few
            # degrees; the verifier takes the arc's own tangent): the angles there must come out alike with arcs
            # sampled twice as finely
            fine = LineFigure([flatten(s, ARC_CHORD / 2) for s in strokes])
            if any(fine[k] != values[k] for k in ("acute", "obtuse", "angle")):
                return None
        return _Candidate(figure, strokes, polylines, {**values, "loose": loose}, family.removeprefix("fam_"))

    def _negative(self, rng: np.random.Generator, concept: Concept, want: Mapping[str, Any], near: bool,
                  magnitude: float, near_families: Sequence[Family], target: np.ndarray) -> _Candidate | None:
        """The answer: a near miss (an edited positive that keeps every wanted attribute but the concept) or a
        far figure from families that lack the concept, whose ink is shaped (``ink_shape``) as nearly like
        ``target`` (a hidden positive's) as the candidates allow: NEGATIVE_DRAWS figures of ``near_families``,
        edited, or of the far families, placed in their panels, are measured closest first until one is sound,
        keeps the other wanted attributes and lacks the concept.

        Left to itself the negative's ink was shaped unlike the positives' (the most atypical elongation was the
        answer in 30% of the items, the most atypical spread in 23%): attaching two parts makes a figure rounder,
        cutting a crossing line back or a triangle's corner off leaves less ink in the middle, a far family draws
        longer or rounder figures than the positives'."""
        key = concept.attribute
        others = {k: v for k, v in want.items() if k != key}
        sources = near_families if near else concept.far
        # (misfit, draw, program, family, angle to turn it by, the near miss's base)
        pool: list[tuple[float, int, Figure, str, float, Figure | None]] = []
        for attempt in range(NEGATIVE_ROUNDS):
            for draw in range(NEGATIVE_DRAWS):
                family = sources[int(rng.integers(len(sources)))]
                try:
                    figure = base = family(rng)
                except RuntimeError:
                    continue
                if near:
                    figure = concept.edit([s.copy() for s in base], rng, magnitude)
                    if figure is None:
                        continue
                angle, misfit = _turn_to(rng, figure, target)
                pool.append((misfit, attempt * NEGATIVE_DRAWS + draw, figure, family.__name__, angle,
                             base if near else None))
            pool.sort(key=lambda entry: entry[:2])
            last = attempt == NEGATIVE_ROUNDS - 1
            while pool and (last or pool[0][0] <= 1.0):  # close candidates first; all of them in the last round
                _, _, figure, family, angle, base = pool.pop(0)
                candidate = self._measure_placed(figure, _place(rng, figure, angle), family, others)
                if candidate is None or (base is not None and self._measure(rng, base, family, want) is None):
                    continue  # unsound, or not the edit of a sound positive
                value = candidate.attributes[key]
                if concept.name == "lines":  # a near miss has a line more or less, a far figure two or more
                    lost = isinstance(value, int) and (abs(value - want[key]) in (1,) if near else
                                                       abs(value - want[key]) >= 2)
                else:
                    lost = value != want[key]
                if lost:
                    return candidate
        return None

    def _scales(self, rng: np.random.Generator, figures: Sequence[_Candidate], side: int, rank: int,
                small_odd: bool, drawn: dict[tuple[int, float], Drawing]) -> np.ndarray | None:
        """Drawn scales (the largest 1) for the figures, the negative first, from ``balanced_sizes`` (a random
        one of the spacings that fit, ``loose``): ink, its box and its spread (``ink_spread``) rank the figures
        in one size order in which the negative is ``rank``-th smallest.  Without it the near miss (a gap
        opened, a corner cut, a line shortened) tends to carry less ink than the positives, and (ranking ink
        and its box alone) its ink spread further for its size: the most atypical spread was the answer in 24%
        of the items.  Ink and spread grow with the scale (the stroke width is fixed), the box with the
        square; the figures are black, so saturation is 0 throughout.  The attributes are measured relative
        to the figure's size, so scaling never changes them.  ``drawn`` receives the drawings of the last
        measurement, keyed by (figure, scale): those of the chosen scales are the panels."""

        def measure(scales: np.ndarray) -> list[dict[str, float]]:
            out = []
            drawn.clear()  # only the last measurement's drawings can be the ones chosen
            for k, (f, s) in enumerate(zip(figures, scales, strict=True)):
                drawing = drawn[(k, float(s))] = Drawing.of(f.strokes, float(s), side)
                tile = self._render(drawing, side)
                pts = np.vstack(f.polylines)
                out.append({**panel_features(tile), "spread": ink_spread(tile),
                            "reach": float(s) * float(np.ptp(pts, axis=0).max())})
            return out

        return balanced_sizes(rng, measure, len(figures), {"ink": 1.0, "extent": 2.0, "spread": 1.0}, rank, small_odd,
                              0.9 * self.nuisance_factor, {k: v / 2 for k, v in self.nuisance_floor.items()},
                              SIZE_STEP, SIZE_RANGE, DRAWS, loose=True, gap=SIZE_GAP)

    # -- drawing -------------------------------------------------------------------------------------
    def _render(self, drawing: Drawing, side: int) -> Image.Image:
        """The panel of ``side`` pixels, drawn once from the drawing's quantised values and memoised."""
        if side != drawing.side:
            raise ValueError(f"VRA: a drawing for {drawing.side}-pixel panels cannot be drawn at {side} pixels")
        if side not in drawing.tiles:
            tile = Tile(side, supersample=DRAW_SUPERSAMPLE)
            radius = drawing.width / 2.0
            for poly in drawing.polylines:
                pts = [(float(x) * DRAW_SUPERSAMPLE, float(y) * DRAW_SUPERSAMPLE) for x, y in poly]
                tile.draw.line(pts, fill=INK, width=drawing.width, joint="curve")
                for x, y in (pts[0], pts[-1]):  # round caps (and the seam of closed strokes)
                    tile.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=INK)
            drawing.tiles[side] = tile.finish()
        return drawing.tiles[side]

    def draw_query(self, content: Any, side: int) -> Image.Image:
        """VRA has no query panel."""
        raise NotImplementedError("VRA has no query panel")

    def draw_option(self, content: Drawing, side: int) -> Image.Image:
        """One figure in its panel."""
        return self._render(content, side)

    # -- the scene record and its verification -------------------------------------------------------
    def describe(self, content: Drawing, side: int) -> dict[str, Any]:
        """The figure as drawn: stroke width, arc step and pen strokes in tile pixels (``Drawing.record``)."""
        if side != content.side:
            raise ValueError(f"VRA: a drawing for {content.side}-pixel panels described at {side} pixels")
        return content.record()

    def scene(self, stimulus: Stimulus, shown: Sequence[Option], size: str) -> dict[str, Any]:
        """The base scene record plus the concept the positives share (and its value for "lines")."""
        return {**super().scene(stimulus, shown, size), "concept": list(stimulus.facts["concept"]),
                "concept_value": stimulus.facts["concept_value"]}

    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        """The odd ones out of the recorded figures, measured by the independent verifier."""
        return verifier.solve_scene(scene)[0]

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        """The verifier's own crude rendering of one recorded figure."""
        return verifier.sketch(description, side)

    def verify(self, item: Item, images: Sequence[Image.Image]) -> list[str]:
        """The base checks, why the scene solver disagrees (if it does), and the stroke-level pixel checks: every
        recorded stroke is drawn in its panel and nothing else is."""
        failures = super().verify(item, images)
        scene = item.metadata["scene"]
        letters = option_letters(len(scene["options"]))
        satisfied, notes = verifier.solve_scene(scene)
        if item.answer not in letters or satisfied != [letters.index(item.answer)]:
            failures += notes
        failures += verifier.drawing_failures(images[0], scene)
        return failures


def _jsonable(values: Mapping[str, Any]) -> dict[str, Any]:
    """Attribute values as JSON-friendly scalars."""
    return {k: (v if isinstance(v, (bool, int, str)) else str(v)) for k, v in values.items()}


TASK = RelationAbstraction()
