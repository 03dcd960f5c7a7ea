"""Panels of conceptual slippage (Mind's Eye kit): marks (shapes, outlines, open outlines), how a panel's ink is
laid out apart from its size (``ink_shape``), the two-row reading of the alignment concept, and the look that
varies across the panels of an item (shapes, colours, widths, counts, radii).  Geometry lives on a grid of
1/GRID of the panel side.
"""

from __future__ import annotations

import colorsys
import functools
import itertools
import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import shapely
from PIL import Image
from shapely.geometry import Polygon, box

from bench_plugin_mindseye.attributes import (
    AMBIGUOUS,
    border_width,
    ink_pieces,
    mark_fill,
    marks_bounds,
    scene_attributes,
    word_attributes,
)
from bench_plugin_mindseye.memo import memoised

CONCEPTS = ("spacing", "alignment", "number", "enclosure", "symmetry", "topology", "border", "hollowness", "word")


SHAPES = ("circle", "square", "triangle", "pentagon", "hexagon", "star", "diamond", "ellipse")


#: Colours of the marks: eight hues, each at the values that keep it clearly ink on white (mean channel 75 to
#: 170), all of one colourfulness (largest minus smallest channel 156).  Equal colourfulness makes a panel's
#: saturation follow its ink, so that the drawn sizes that rank ink (``ConceptualSlippage._sized``) rank
#: saturation the same way; the spread of lightness, drawn for every panel alike, makes the contrast of the
#: marks' edges vary from panel to panel as much as their length does.
def _palette() -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    colours, hues = [], []
    for hue in range(8, 360, 45):
        for top in range(156, 256, 10):  # the largest channel; the smallest is 156 below it
            r, g, b = (round(255 * c) for c in colorsys.hsv_to_rgb(hue / 360, 156 / top, top / 255))
            if 75 <= (r + g + b) / 3 <= 170:
                colours.append((r, g, b))
                hues.append(hue)
    return tuple(colours), tuple(hues)


PALETTE, PALETTE_HUES = _palette()


#: The two colours of a panel that mixes colours have hues at least this many degrees apart (no channel then
#: differs by less than 107): two shades of one hue, or neighbouring hues, might not read as two colours.
MIXED_HUES_APART = 90


#: Panel-level nuisance properties (``Panel.mixed``): each must hold for no panel of an item or for at least
#: two, and fail for none or at least two (``ConceptualSlippage._nuisance_leak``), or it singles a panel out.
MIXED = ("mixed colours", "mixed kinds")


#: Outline widths relative to the shape's inradius (``attributes.inradius``): thick is about three times thin
#: (spec §2.4 border check), both near the middle of the classes the attributes tell apart, as close together
#: as that allows: thin outlines carry much more outline per ink than thick ones, which a solver that sees
#: only the options could measure (edge density).  Thin outlines are never below 0.0115 of the panel (>= 2 px
#: on the 176-pixel panels of the 600x800 canvas).
WIDTH = {"thin": (0.19, 0.22), "medium": (0.31, 0.37), "thick": (0.54, 0.6)}


#: Outline width of the hollow marks of the hollowness concept: thick walls round a clear hole, so that a
#: hollow mark carries not much more outline per ink than a filled one.
HOLLOW_WIDTH = (0.53, 0.6)


MIN_WIDTH = 0.0115


#: Letter strokes of the word concept, as a fraction of the panel side.
WORD_STROKE = 0.016


#: Geometry is drawn and recorded on a grid of 1/GRID of the panel side (0.03 px on the 1024x1024 canvas).
GRID = 10000


STROKE_GRID = round(WORD_STROKE * GRID)


#: Content stays MARGIN inside the panel; objects, holes and outline strokes never shrink below these sizes in
#: the 176-pixel panels of the 600x800 canvas (5 px object radius, 4.5 px holes, about 2 px strokes).
MARGIN = 0.03
SMALL_PANEL = 176
MIN_OBJECT, MIN_HOLE, MIN_STROKE = 5.05 / SMALL_PANEL, 4.55 / SMALL_PANEL, 1.75 / SMALL_PANEL


def shape_polygon(kind: str, centre: Sequence[float], radius: float, rotation: float) -> Polygon:
    """A filled shape of the vocabulary, ``radius`` its circumradius (the ellipse's half length)."""
    return Polygon(_turned_shape(kind, rotation) * radius + np.asarray(centre))


@functools.lru_cache(maxsize=1024)
def _turned_shape(kind: str, rotation: float) -> np.ndarray:
    """The vertices of a shape kind at unit circumradius about the origin, turned by ``rotation`` (made once per
    kind and turn: the marks of a panel share their turn)."""
    c, s = np.cos(rotation), np.sin(rotation)
    pts = _unit_shape(kind) @ np.array([[c, s], [-s, c]])
    pts.setflags(write=False)
    return pts


@functools.cache
def _unit_shape(kind: str) -> np.ndarray:
    """The vertices of a shape kind at unit circumradius about the origin, unturned (made once per kind)."""
    if kind == "circle":
        t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
        pts = np.column_stack([np.cos(t), np.sin(t)])
    elif kind == "ellipse":
        t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
        pts = np.column_stack([np.cos(t), 0.6 * np.sin(t)])
    elif kind == "star":
        t = np.arange(10) * np.pi / 5 - np.pi / 2
        r = np.where(np.arange(10) % 2 == 0, 1.0, 0.5)
        pts = np.column_stack([r * np.cos(t), r * np.sin(t)])
    elif kind == "diamond":
        pts = np.array([[0, -1], [0.65, 0], [0, 1], [-0.65, 0]], dtype=float)
    else:
        n = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}[kind]
        t = np.arange(n) * 2 * np.pi / n - np.pi / 2 + (np.pi / 4 if n == 4 else 0.0)
        pts = np.column_stack([np.cos(t), np.sin(t)])
    pts.setflags(write=False)
    return pts


def outline(shape: Polygon, width: float) -> Polygon:
    """The shape drawn as an outline of the given stroke width (a band with a hole)."""
    inner = shape.buffer(-width, join_style="mitre")
    if inner.is_empty or inner.geom_type != "Polygon" or inner.area < 0.12 * shape.area:
        raise ValueError("outline too thick for this shape")
    return shape.difference(inner)


#: Shape kinds whose edges all touch one circle round the centre (the regular polygons, the 48-gon circle, the
#: regular star, the rhombus): shrunk inwards by a width, such a shape is the shape scaled about its centre.
TANGENTIAL = frozenset({"circle", "square", "triangle", "pentagon", "hexagon", "star", "diamond"})


@functools.cache
def _edge_distance(kind: str) -> float:
    """How far the edges of a tangential kind (``TANGENTIAL``) lie from its centre at unit circumradius."""
    a = _unit_shape(kind)
    b = np.roll(a, -1, axis=0)
    return float((np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]) / np.hypot(*(b - a).T)).min())


def shape_outline(kind: str, centre: Sequence[float], radius: float, rotation: float, width: float) -> Polygon:
    """``outline(shape_polygon(kind, centre, radius, rotation), width)``, measured rather than overlaid for the
    kinds of ``TANGENTIAL``: their inward mitred offset (the hole) is the shape scaled about its centre by (d -
    width) / d, d the edges' distance from the centre, and the band is made with its rings as GEOS's difference
    orders them (the shell the shape's corners in reverse from its last corner, the hole the scaled corners from
    the second one on), the same polygon but for the last bits of the hole's coordinates (test_cs_fast_paths)."""
    if kind not in TANGENTIAL:
        return outline(shape_polygon(kind, centre, radius, rotation), width)
    corners = _turned_shape(kind, rotation) * radius + np.asarray(centre)
    distance = _edge_distance(kind) * radius
    factor = (distance - width) / distance
    if factor <= 0 or factor * factor < 0.12:
        raise ValueError("outline too thick for this shape")
    inner = np.asarray(centre) + (corners - np.asarray(centre)) * factor
    return Polygon(corners[::-1], [np.roll(inner, -1, axis=0)])


def open_outline(band: Polygon, centre: Sequence[float], angle: float, gap: float) -> Polygon:
    """An outline with a cut of width ``gap`` on the side at ``angle`` (open: no enclosed hole)."""
    cut = affine_each([box(0.0, -gap / 2, 1.0, gap / 2)], [rotation(angle, (0, 0))])[0]
    cut = affine_each([cut], [(1.0, 0.0, 0.0, 1.0, *centre)])[0]
    result = band.difference(cut)
    if result.geom_type != "Polygon" or result.interiors:
        raise ValueError("the cut did not open the outline")
    return result


def affine_each(polygons: Sequence[Polygon], matrices: Sequence[Sequence[float]]) -> list[Polygon]:
    """Each polygon moved by its own affine map ``(a, b, d, e, xoff, yoff)``: x' = a x + b y + xoff, y' = d x + e
    y + yoff, evaluated in that order as ``shapely.affinity.affine_transform`` evaluates it (so the coordinates
    are the same bit for bit), every polygon's coordinates in one pass."""
    geometries = np.empty(len(polygons), dtype=object)
    geometries[:] = polygons
    coords, index = shapely.get_coordinates(geometries, return_index=True)
    m = np.asarray(matrices, dtype=float)[index]
    x, y = coords[:, 0], coords[:, 1]
    moved = np.stack([m[:, 0] * x + m[:, 1] * y + m[:, 4], m[:, 2] * x + m[:, 3] * y + m[:, 5]]).T
    return list(shapely.set_coordinates(geometries, moved))


def affine_chain(polygon: Polygon, matrices: Sequence[Sequence[float]]) -> Polygon:
    """One polygon moved by each affine map of ``matrices`` in turn, bit for bit as ``affine_each`` one map at a
    time (a polygon without holes: its exterior's coordinates are mapped and made a polygon again)."""
    if polygon.interiors:
        raise ValueError("affine_chain maps polygons without holes")
    coords = shapely.get_coordinates(polygon)
    x, y = coords[:, 0], coords[:, 1]
    for a, b, d, e, xoff, yoff in matrices:
        x, y = a * x + b * y + xoff, d * x + e * y + yoff
    return Polygon(np.stack([x, y]).T)


def rotation(angle: float, origin: Sequence[float]) -> tuple[float, ...]:
    """The affine map (``affine_each``) of ``shapely.affinity.rotate`` by ``angle`` radians about ``origin``, its
    coefficients computed as that function computes them."""
    cosp, sinp = math.cos(angle), math.sin(angle)
    if abs(cosp) < 2.5e-16:
        cosp = 0.0
    if abs(sinp) < 2.5e-16:
        sinp = 0.0
    x0, y0 = origin
    return (cosp, -sinp, sinp, cosp, x0 - x0 * cosp + y0 * sinp, y0 - x0 * sinp - y0 * cosp)


_MOMENT_DIVISORS = np.array([2.0, 6.0, 6.0, 12.0, 12.0, 24.0])


def _ring_terms(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """The terms (6, edges) whose sums over a closed ring's edges, over 2, 6, 6, 12, 12 and 24, are the area and
    first and second moments (area, sx, sy, sxx, syy, sxy) of the region it bounds (Green's theorem): edge k runs
    from (x0[k], y0[k]) to (x1[k], y1[k])."""
    cross = x0 * y1 - x1 * y0
    return np.stack([cross, (x0 + x1) * cross, (y0 + y1) * cross, (x0 * x0 + x0 * x1 + x1 * x1) * cross,
                     (y0 * y0 + y0 * y1 + y1 * y1) * cross,
                     (x0 * y1 + 2 * x0 * y0 + 2 * x1 * y1 + x1 * y0) * cross])


def _ring_moments(ring: np.ndarray) -> np.ndarray:
    """Area, first and second moments (area, sx, sy, sxx, syy, sxy) of the region a closed ring bounds (``ring``
    with its closing point, either way round)."""
    moments = _ring_terms(ring[:-1, 0], ring[:-1, 1], ring[1:, 0], ring[1:, 1]).sum(axis=1) / _MOMENT_DIVISORS
    return moments if moments[0] >= 0 else -moments


class _Unmeasured(Exception):
    """A polygon's ink terms are not memoised yet."""


def _unmeasured(polygon: Polygon) -> Any:
    raise _Unmeasured


def measure_ink(polygons: Sequence[Polygon]) -> None:
    """Memoise the ink terms of every polygon of ``polygons`` not yet measured (its exterior's moments
    (``_ring_moments``), length and box (x0, y0, x1, y1) over its corners, and each hole's moments and length:
    what ``ink_shape`` adds up), all at once: the terms of every edge of every ring in one pass, then each ring's
    sums over its own edges (numpy sums a ring's terms as it sums them alone)."""
    todo = []
    for polygon in polygons:
        try:
            memoised(polygon, _INK_TERMS, _unmeasured)
        except _Unmeasured:
            todo.append(polygon)
    todo = list({id(p): p for p in todo}.values())
    if not todo:
        return
    rings, owner = shapely.get_rings(todo, return_index=True)
    coords, ring_of = shapely.get_coordinates(rings, return_index=True)
    lengths = shapely.length(rings).tolist()
    ends = np.cumsum(np.bincount(ring_of, minlength=len(rings))).tolist()
    terms = _ring_terms(coords[:-1, 0], coords[:-1, 1], coords[1:, 0], coords[1:, 1])
    measured: dict[int, tuple[Any, ...]] = {}
    start = 0
    for r, end in enumerate(ends):
        moments = terms[:, start:end - 1].sum(axis=1) / _MOMENT_DIVISORS
        moments = tuple((moments if moments[0] >= 0 else -moments).tolist())
        k = int(owner[r])
        if k not in measured:  # the exterior, first of the polygon's rings
            corners = coords[start:end - 1]
            box = (*corners.min(axis=0).tolist(), *corners.max(axis=0).tolist())
            measured[k] = (moments, lengths[r], box, [])
        else:
            measured[k][3].append((moments, lengths[r]))
        start = end
    for k, polygon in enumerate(todo):
        shell, length, box, holes = measured[k]
        memoised(polygon, _INK_TERMS, lambda _, terms=(shell, length, box, tuple(holes)): terms)


_INK_TERMS = "ink terms"


def ink_shape(polygons: Sequence[Polygon]) -> np.ndarray:
    """How the ink of a panel is laid out, independent of the drawn size: the elongation of its second moments
    (0 round, 1 a line), and the logs of its outline length over the root of its area (edge density), of its
    spread (root of the second moments) over the root of its area, and of its box over its area.  Scaling the
    panel changes none of them; sizing (``_sized``) then sets the amount of ink.  These are what a solver
    that sees only the options could measure, so the violator's must be distributed like a conformer's.
    (The sums run in Python's float arithmetic, term by term in the polygons' order.)"""
    measure_ink(polygons)
    area = sx = sy = sxx = syy = sxy = 0.0
    outline_length = 0.0
    x_low = y_low = math.inf
    x_high = y_high = -math.inf
    for polygon in polygons:
        (a, b, c, d, e, f), shell_length, (u0, v0, u1, v1), holes = memoised(polygon, _INK_TERMS, _unmeasured)
        area, sx, sy, sxx, syy, sxy = area + a, sx + b, sy + c, sxx + d, syy + e, sxy + f
        x_low, y_low, x_high, y_high = min(x_low, u0), min(y_low, v0), max(x_high, u1), max(y_high, v1)
        outline_length += shell_length
        for (a, b, c, d, e, f), length in holes:
            area, sx, sy, sxx, syy, sxy = area - a, sx - b, sy - c, sxx - d, syy - e, sxy - f
            outline_length += length
    cx, cy = sx / area, sy / area
    vxx, vyy, vxy = sxx / area - cx * cx, syy / area - cy * cy, sxy / area - cx * cy
    spread = vxx + vyy
    return np.array([float(np.hypot(vxx - vyy, 2 * vxy) / spread), np.log(outline_length / np.sqrt(area)),
                     0.5 * np.log(spread / area), np.log((x_high - x_low) * (y_high - y_low) / area)])


#: Two rows: every centre within ROWS_ON of its row's line (the lines parallel and at least ROWS_CLEAR apart) is
#: two rows; further than ROWS_OFF for every way of splitting the objects into two rows of at least two whose
#: lines lie at least ROWS_APART apart is not; anything else is undecidable.
ROWS_ON, ROWS_OFF, ROWS_APART, ROWS_CLEAR = 0.012, 0.06, 0.08, 0.12


@functools.lru_cache(maxsize=16)
def _partitions(n: int) -> np.ndarray:
    """Every split of ``n`` objects into two groups of at least two, as boolean rows (object 0 in group 0)."""
    codes = np.arange(2 ** (n - 1))
    masks = ((codes[:, None] >> np.arange(n)[None, :]) & 1).astype(bool)
    sizes = masks.sum(axis=1)
    masks = masks[(sizes >= 2) & (sizes <= n - 2)]
    masks.setflags(write=False)
    return masks


@functools.lru_cache(maxsize=16)
def _pairs(n: int) -> np.ndarray:
    """Every pair (i, j), i < j, of ``n`` objects, in ``itertools.combinations`` order."""
    pairs = np.array(list(itertools.combinations(range(n), 2)))
    pairs.setflags(write=False)
    return pairs


@functools.lru_cache(maxsize=16)
def _triples(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every triple of ``n`` objects (in ``itertools.combinations`` order), and for every split of
    ``_partitions(n)`` whether each triple lies wholly in one of its two groups."""
    triples = np.array(list(itertools.combinations(range(n), 3)))
    masks = _partitions(n)
    in_group = masks[:, triples]  # (splits, triples, 3)
    within = in_group.all(axis=2) | (~in_group).all(axis=2)
    triples.setflags(write=False)
    within.setflags(write=False)
    return triples, within


def _split_floors(centres: np.ndarray) -> np.ndarray:
    """For every split of ``_partitions``, a value its ``rows_residual`` term cannot go below: the largest half
    width (height over the longest side) of a triangle of centres within one of its groups, since three
    points within r of one line fit in a strip 2r wide."""
    triples, within = _triples(len(centres))
    a, b, c = centres[triples[:, 0]], centres[triples[:, 1]], centres[triples[:, 2]]
    cross = np.abs((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]))
    longest = np.maximum(np.maximum(np.hypot(*(b - a).T), np.hypot(*(c - a).T)), np.hypot(*(c - b).T))
    half_width = cross / np.maximum(longest, 1e-12) / 2
    return np.where(within, half_width[None, :], 0.0).max(axis=1)


def rows_residual(centres: np.ndarray, apart: float = ROWS_APART) -> float:
    """The least, over every split of the centres into two rows of at least two whose lines lie at least
    ``apart`` apart, of the largest distance of a centre from its row's line (the two lines parallel, across
    the least-squares direction of the split or the direction of any two centres, whichever fits best): 0
    for two exact parallel rows; inf if no split has its rows apart.

    Splits are measured best first by a floor on what they can reach (``_split_floors``), and those whose
    floor lies above the least found so far, or whose row means lie closer than ``apart`` (no direction can
    put their lines further apart), are left out unmeasured: the result is the least over all splits."""
    n = len(centres)
    if n < 4:
        return math.inf
    masks = _partitions(n)  # (splits, n)
    floors = _split_floors(centres)
    order = np.argsort(floors, kind="stable")
    best = math.inf
    for start in range(0, len(order), _SPLITS_AT_ONCE):
        chosen = order[start:start + _SPLITS_AT_ONCE]
        chosen = chosen[floors[chosen] <= best * (1 + 1e-9)]
        if not len(chosen):
            break
        best = min(best, _rows_residual_of(centres, masks[np.sort(chosen)], apart))
    return best


#: How many splits ``rows_residual`` measures at once (numpy's overhead per call against work it may skip).
_SPLITS_AT_ONCE = 12


def _rows_residual_of(centres: np.ndarray, masks: np.ndarray, apart: float) -> float:
    """``rows_residual`` over the splits ``masks`` only."""
    weights = np.stack([masks, ~masks], axis=1).astype(float)  # (splits, 2, n)
    means = weights @ centres / weights.sum(axis=2, keepdims=True)  # (splits, 2, 2)
    between = means[:, 0] - means[:, 1]
    possible = np.hypot(between[:, 0], between[:, 1]) >= apart * (1 - 1e-9)
    if not possible.any():
        return math.inf
    masks, means = masks[possible], means[possible]
    pairs = _pairs(len(centres))
    steps = centres[pairs[:, 1]] - centres[pairs[:, 0]]
    shared = np.column_stack([-steps[:, 1], steps[:, 0]]) / np.maximum(np.hypot(*steps.T), 1e-12)[:, None]
    own = np.where(masks[:, :, None], means[:, None, 0], means[:, None, 1])  # each centre's row mean
    deviation = centres[None] - own  # (splits, n, 2)
    scatter = deviation.transpose(0, 2, 1) @ deviation
    fitted = np.linalg.eigh(scatter)[1][:, :, 0]  # (splits, 2): the least-squares normal of each split
    normals = np.concatenate([fitted[:, None, :], np.broadcast_to(shared, (len(masks), *shared.shape))], axis=1)
    residual = np.abs(normals @ deviation.transpose(0, 2, 1)).max(axis=2)  # (splits, normals)
    distance = np.abs((normals @ (means[:, 0] - means[:, 1])[:, :, None])[:, :, 0])
    return float(np.where(distance >= apart, residual, math.inf).min())


def two_rows(polygons: Sequence[Polygon]) -> bool | str:
    """Whether the objects stand in two parallel rows (True), clearly do not (False) or neither (AMBIGUOUS)."""
    pieces = ink_pieces(polygons)
    centres = np.array([[p.centroid.x, p.centroid.y] for p in pieces])
    if rows_residual(centres, ROWS_CLEAR) <= ROWS_ON:
        return True
    if rows_residual(centres) > ROWS_OFF:
        return False
    return AMBIGUOUS


@attrs.frozen
class Mark:
    """One filled object of a panel: its outline (a polygon, with a hole if drawn hollow), colour and shape
    kind (recorded in the scene; the polygon is what is drawn)."""

    polygon: Polygon
    colour: tuple[int, int, int]
    kind: str = ""


@attrs.frozen
class Panel:
    """What one option shows: filled marks, or a word as letter strokes.  ``tiles`` memoises drawings."""

    marks: tuple[Mark, ...] = ()
    word: tuple[np.ndarray, ...] = ()
    word_colour: tuple[int, int, int] = (25, 25, 25)
    text: str = ""  # the word as generated (metadata only; the solver reads the strokes)
    rows: bool = False  # an alignment panel: 'aligned' means two parallel rows (``two_rows``)
    tiles: dict[int, Image.Image] = attrs.field(factory=dict, eq=False, repr=False)
    memo: dict[Any, Any] = attrs.field(factory=dict, eq=False, repr=False)

    def room(self) -> tuple[float, float]:
        """(smallest, largest) scale the marks can be drawn at: the content fits MARGIN inside the panel, and
        objects, holes and outline strokes stay legible at 600x800 (``MIN_OBJECT``...); 1 always fits.  Measured
        once per panel (the geometry never changes)."""
        if "room" not in self.memo:
            self.memo["room"] = self._room()
        return self.memo["room"]

    def _room(self) -> tuple[float, float]:
        """``room``, measured."""
        x0, y0, x1, y1 = marks_bounds([m.polygon for m in self.marks])
        high = (1 - 2 * MARGIN) / max(x1 - x0, y1 - y0)
        low = 0.0
        for mark in self.marks:
            poly = mark.polygon
            low = max(low, MIN_OBJECT / np.sqrt(shapely.convex_hull(poly).area / np.pi))
            for ring in poly.interiors:
                hole = Polygon(ring)
                low = max(low, MIN_HOLE / (2 * hole.area / hole.length))
            if poly.interiors or mark_fill(poly) == "hollow":
                low = max(low, MIN_STROKE / border_width(poly))
        return min(low, 1.0), max(high, 1.0)

    def spread(self, target: float) -> Panel:
        """The panel with its marks moved apart from their common centre (each mark unchanged) so that the
        ink's box over the marks' area comes as close to ``target`` as staying MARGIN inside the panel allows;
        the panel itself if it already reaches it.  Only ever apart: positions that grow keep every attribute
        that holds clearly (a layout clearly not aligned or not symmetric only becomes more so, exact symmetry
        about an axis through the centre stays exact); the caller measures again all the same."""
        polys = [m.polygon for m in self.marks]
        if len(polys) < 2:
            return self
        bounds = np.array([p.bounds for p in polys])
        centres = np.array([[p.centroid.x, p.centroid.y] for p in polys])
        middle = centres.mean(axis=0)
        area = sum(p.area for p in polys)
        t = np.linspace(1.0, 2.0, 41)
        shift = (t[None, :, None] - 1.0) * (centres - middle)[:, None, :]  # (marks, candidates, xy)
        low = (bounds[:, None, :2] + shift).min(axis=0)
        high = (bounds[:, None, 2:] + shift).max(axis=0)
        ratio = np.prod(high - low, axis=1) / area
        if ratio[0] >= target:
            return self
        ok = (low >= MARGIN).all(axis=1) & (high <= 1 - MARGIN).all(axis=1) & (ratio <= target)
        ok[0] = True
        best = float(t[ok].max())
        if best < 1.0 + 1e-3:
            return self
        shifts = [(1.0, 0.0, 0.0, 1.0, *((best - 1.0) * (c - middle)).tolist()) for c in centres]
        moved = [Mark(polygon, m.colour, m.kind)
                 for m, polygon in zip(self.marks, affine_each(polys, shifts), strict=True)]
        return Panel(marks=tuple(moved), rows=self.rows)

    def scaled(self, scale: float) -> Panel:
        """The panel with its marks scaled by ``scale`` about the centre of their box, moved just enough to
        stay MARGIN inside the panel (the concept attributes depend on neither)."""
        if abs(scale - 1.0) < 1e-12:
            return self
        x0, y0, x1, y1 = marks_bounds([m.polygon for m in self.marks])
        centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        half = scale * np.array([x1 - x0, y1 - y0]) / 2
        fits = half <= 0.5 - MARGIN + 1e-9
        moved = np.where(fits, np.clip(centre, np.minimum(MARGIN + half, 0.5), np.maximum(1 - MARGIN - half, 0.5)),
                         centre)
        offset = moved - scale * centre
        matrix = [scale, 0.0, 0.0, scale, float(offset[0]), float(offset[1])]
        moved = affine_each([m.polygon for m in self.marks], [matrix] * len(self.marks))
        return Panel(marks=tuple(Mark(polygon, m.colour, m.kind) for m, polygon in zip(self.marks, moved, strict=True)),
                     rows=self.rows)

    def attributes(self) -> dict[str, Any]:
        """The concept attributes, measured from the geometry (once per panel: the geometry never changes)."""
        if "attributes" not in self.memo:
            self.memo["attributes"] = (word_attributes(self.word) if self.word
                                       else scene_attributes([(m.polygon, m.colour) for m in self.marks]))
            if self.rows:  # the alignment concept: objects line up in two parallel rows
                self.memo["attributes"]["aligned"] = two_rows([m.polygon for m in self.marks])
        return dict(self.memo["attributes"])

    def mixed(self) -> dict[str, bool]:
        """The panel-level nuisance properties of ``MIXED``: whether its marks show more than one colour, and
        more than one shape kind (a container counts with its contents; a word panel mixes neither)."""
        return {"mixed colours": len({m.colour for m in self.marks}) > 1,
                "mixed kinds": len({m.kind for m in self.marks}) > 1}

    def shape(self) -> np.ndarray:
        """``ink_shape`` of the marks (once per panel)."""
        if "shape" not in self.memo:
            self.memo["shape"] = ink_shape([m.polygon for m in self.marks])
        return self.memo["shape"]


@attrs.frozen
class Look:
    """The nuisance of one panel: shape kinds, colours, object count, size and orientation."""

    kinds: tuple[str, ...]
    colours: tuple[tuple[int, int, int], ...]
    count: int
    radius: float
    rotation: float

    def kind(self, i: int) -> str:
        """The shape kind of the i-th object (kinds alternate when a panel mixes two)."""
        return self.kinds[i % len(self.kinds)]

    def colour(self, i: int) -> tuple[int, int, int]:
        """The colour of the i-th object (colours alternate when a panel mixes two)."""
        return self.colours[i % len(self.colours)]


#: Object counts and sizes per concept (sizes as circumradius, fraction of the panel side).
COUNTS = {"spacing": (4, 5), "alignment": (6, 8), "number": (3, 6), "enclosure": (3, 4), "symmetry": (2, 3),
          "topology": (2, 5), "border": (2, 5), "hollowness": (2, 5), "word": (3, 6)}


RADII = {"spacing": (0.045, 0.07), "alignment": (0.045, 0.07), "number": (0.06, 0.09), "enclosure": (0.048, 0.06),
         "symmetry": (0.055, 0.085), "topology": (0.09, 0.125), "border": (0.095, 0.13), "hollowness": (0.09, 0.125),
         "word": (0.12, 0.16)}


def allowed_kinds(concept: str) -> tuple[str, ...]:
    """The shape kinds a concept draws from.  Thick borders need roomy shapes (so the hole stays >= 5 px
    wide at 600x800, and can still shrink with the drawn size: squares, with the smallest hole, are left
    out); outlines of thin ellipses read poorly, so outline concepts leave ellipses out."""
    if concept == "border":
        return ("circle", "pentagon", "hexagon")
    if concept in ("symmetry", "topology"):
        return tuple(k for k in SHAPES if k != "ellipse")
    return SHAPES


def draw_look(rng: np.random.Generator, concept: str, slippage: str, item_kind: str, count: int | None) -> Look:
    """One panel's nuisance.  ``slippage`` low: the item's one shape kind; medium: the kind varies per panel;
    high: kinds and colours may also mix inside a panel (two colours of hues ``MIXED_HUES_APART`` apart).
    Counts and sizes always vary (``count`` fixes the count, for the number concept)."""
    vocabulary = allowed_kinds(concept)
    if slippage == "low":
        kinds: tuple[str, ...] = (item_kind,)
    elif slippage == "medium" or rng.random() < 0.5:
        kinds = (str(rng.choice(vocabulary)),)
    else:
        kinds = tuple(str(k) for k in rng.choice(vocabulary, size=2, replace=False))
    palette = rng.permutation(len(PALETTE))
    colours = (PALETTE[palette[0]],) if slippage != "high" or rng.random() < 0.5 else (
        PALETTE[palette[0]], PALETTE[next(int(k) for k in palette[1:] if _hues_apart(int(k), int(palette[0])))])
    lo, hi = COUNTS[concept]
    n = count if count is not None else int(rng.integers(lo, hi + 1))
    r_lo, r_hi = RADII[concept]
    return Look(kinds, colours, n, float(rng.uniform(r_lo, r_hi)), float(rng.uniform(0, 2 * np.pi)))


def _hues_apart(a: int, b: int) -> bool:
    """Whether palette colours ``a`` and ``b`` have hues at least ``MIXED_HUES_APART`` degrees apart."""
    gap = abs(PALETTE_HUES[a] - PALETTE_HUES[b]) % 360
    return min(gap, 360 - gap) >= MIXED_HUES_APART


def scatter(rng: np.random.Generator, n: int, radius: float, low: float = 0.12, high: float = 0.88,
            avoid: Sequence[tuple[np.ndarray, float]] = ()) -> list[np.ndarray] | None:
    """``n`` centres at random, far enough apart that marks of ``radius`` never touch: of SCATTER_TRIES random
    tries, each in turn is placed when it lies further than 2.4 ``radius`` + 0.03 from every centre placed
    before it and clear of ``avoid`` (centre, radius).  The tries still free are tracked as a whole: placing
    a centre rules out the tries too near it (``_apart``), and the next centre is the first try after it
    still free, so a draw costs one pass over the tries per centre, not one per try."""
    near = 2.4 * radius + 0.03
    # the 400 tries drawn at once; the generator is then left as if only the tries used had been drawn
    state = rng.bit_generator.state
    tries = rng.uniform(low + radius, high - radius, size=(SCATTER_TRIES, 2))
    free = np.ones(SCATTER_TRIES, dtype=bool)
    for c, r in avoid:
        free &= _apart(tries, float(c[0]), float(c[1]), r + radius + 0.04)
    placed: list[int] = []
    t = -1
    while True:
        later = np.flatnonzero(free[t + 1:])
        if not len(later):
            return None
        t += 1 + int(later[0])
        placed.append(t)
        if len(placed) == n:
            unused_from(rng, state, 2 * (t + 1))
            return [tries[k].copy() for k in placed]
        free &= _apart(tries, float(tries[t, 0]), float(tries[t, 1]), near)


def _apart(points: np.ndarray, u: float, v: float, limit: float) -> np.ndarray:
    """For each point (x, y), ``math.sqrt((x - u) ** 2 + (y - v) ** 2) > limit`` in Python's float arithmetic,
    bit for bit: numpy's distances (whose squares may differ from Python's ``** 2`` in the last bit) decide
    every point but those within a billionth of ``limit``, which Python's expression decides."""
    dx, dy = points[:, 0] - u, points[:, 1] - v
    distance = np.sqrt(dx * dx + dy * dy)
    out = distance > limit
    for k in np.flatnonzero(np.abs(distance - limit) <= 1e-9 * abs(limit)).tolist():
        x, y = points[k].tolist()
        out[k] = math.sqrt((x - u) ** 2 + (y - v) ** 2) > limit
    return out


#: How many random centres ``scatter`` tries.
SCATTER_TRIES = 400


def unused_from(rng: np.random.Generator, state: dict[str, Any], used: int) -> None:
    """Put ``rng`` back to ``state`` (its bit generator's state before a batch of uniform doubles was drawn),
    then draw the first ``used`` of them again: the generator is left exactly as if only those had been
    drawn one call at a time (each uniform double takes one 64-bit output; a buffered 32-bit half, which
    doubles leave alone, comes back with the state)."""
    rng.bit_generator.state = state
    if used:
        rng.random(used)
