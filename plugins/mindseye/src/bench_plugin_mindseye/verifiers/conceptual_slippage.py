"""The artefact verifier of Visual Conceptual Slippage (VCS): re-derives the odd panel from the scene record
and checks the pixels, with no code of the generator (``conceptual_slippage``, ``attributes``).

The record (``describe``) gives every option panel as drawn, in integers on a grid of 1/``grid`` of the panel
side (x right, y down): either marks (colour, shape kind, rings: exterior first, then holes) or a word (the
text as generated, its colour, the stroke width and the strokes, polylines drawn with round joins and ends).
The scene also names the item's concept.

The solver measures the task's vocabulary on each panel by its own geometry (shapely for areas, distances and
intersections): how many separate objects there are, whether their centres lie on one line and are evenly
spaced along it (in alignment items: whether they stand in two parallel rows, ``rows_fit``), whether one
object lies inside another's outline, whether the panel is mirror symmetric about a vertical, horizontal or
diagonal axis through its ink, whether the marks are filled or outlines, how thick
the outlines are relative to the shape, and whether they are closed.  A word is read with the verifier's own
letter model (``PROBES``: points where each letter has ink and points where it has none, on a 4 x 6 design
grid): it is written the right way round if its letters, left to right, are the recorded text, and mirrored if
its letters, mirrored and read right to left, are.  The panel that the concept singles out must be the only
panel that any attribute of the vocabulary singles out.

Besides the concepts, two panel-level properties of the nuisance must not single out a panel either
(``mixed_values``): whether a panel's marks show two colours (recorded colours, which the pixel check ties to
the picture, clearly apart) and whether they are of two shape kinds (each mark's kind read from its outline by
the verifier's own templates of the vocabulary's shapes, ``mark_kind``, over every turn and mirror image; the
recorded kind only for an outline cut open).  A mark whose outline is not of its recorded kind, or a panel
whose mixedness cannot be told, fails.

The pixel check rasterises each description by its own scanline fill (``raster``) and requires, away from the
edges of the marks, that every pixel inside a mark has the mark's recorded colour and every pixel outside all
marks is blank (``fidelity_misses``: a mark moved, recoloured, filled, closed, opened or left out shows), and
that each mark carries the ink of its recorded area to within a fraction of a pixel along its outline
(``ink_errors``: a mark drawn larger, smaller or with a thicker or thinner border shows).  Letter strokes are
too thin for the first check to see inside them: on a word panel every pixel well inside a recorded stroke
must show the word's colour, stroke by stroke, and every pixel well outside all strokes must be blank
(``word_misses``: a stroke left out, moved by two pixels or recoloured shows).  ``sketch`` serves
the base class's panel identity check from the same rasterisation.  The solver adds one check of its own
(``scene_failures``): unless the concept is the number, no count of objects may single out a panel.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely
from PIL import Image, ImageChops
from shapely.geometry import Polygon

#: A measurement between the clear answers: it makes its panel stand out, so the item fails.
UNDECIDED = "undecided"
#: The vocabulary of panels of marks (what the question's hint names) and of word panels.
MARK_VOCABULARY = ("number", "aligned", "spacing", "enclosure", "symmetric", "fill", "border", "topology")
WORD_VOCABULARY = ("mirrored", "number")
#: The attribute that carries each concept.
CONCEPT_KEY = {"spacing": "spacing", "alignment": "aligned", "number": "number", "enclosure": "enclosure",
               "symmetry": "symmetric", "topology": "topology", "border": "border", "hollowness": "fill",
               "word": "mirrored"}

# -- thresholds (panel units, the panel side is 1) ----------------------------------------------------------
#: Marks closer than this touch and make one object.
TOUCH = 0.004
#: Objects of one row differ in size (convex hull area) by less than SAME_SIZE; a container and its contents by
#: more than MIXED_SIZE.
SAME_SIZE, MIXED_SIZE = 2.7, 3.5
#: Largest distance of an object's centre from the best line: on the line below ON_LINE, off it above OFF_LINE.
ON_LINE, OFF_LINE = 0.025, 0.045
#: Alignment items: objects standing in two parallel rows.  Largest distance of a centre from its row's line:
#: in rows below ON_ROWS, off them above OFF_ROWS; the rows' lines at least ROWS_APART apart.
ON_ROWS, OFF_ROWS, ROWS_APART = 0.025, 0.045, 0.1
#: Coefficient of variation of the gaps between neighbours along a line: even below EVEN, uneven above UNEVEN.
EVEN, UNEVEN = 0.1, 0.15
#: Mirror symmetry: every mark's mirror image overlaps a mark of its colour by at least MIRRORED (intersection
#: over union) for one axis; below UNMIRRORED for every axis it is not symmetric.  A mirror image whose centre
#: lands further than CENTRE_SLACK times the square root of the mark's area from every mark of its colour
#: cannot reach UNMIRRORED, so its overlap is not computed.
MIRRORED, UNMIRRORED, CENTRE_SLACK = 0.8, 0.7, 0.3
AXES_DEG = (0.0, 45.0, 90.0, 135.0)
#: A mark with holes of at least HOLE_SHARE of its outline's area is a closed outline.
HOLE_SHARE = 0.05
#: Stroke width (twice the area over the boundary length) relative to the shape's size (twice the area over
#: the perimeter of its convex hull, the inradius of a regular shape): filled shapes reach 0.55 (the star) or
#: more, outlines without a hole at most 0.37; outline borders are thin, medium or thick by these bands.
SOLID = 0.46
BORDERS = (("thin", 0.0, 0.265), ("medium", 0.27, 0.47), ("thick", 0.48, math.inf))
#: Panel-level nuisance (``mixed_values``): two recorded colours are the same up to COLOURS_SAME (largest
#: channel difference) and clearly two colours from COLOURS_APART.  A mark's outline profile (``outline_profile``)
#: within KIND_MATCH of a kind's, every other kind's beyond KIND_APART, is of that kind (root mean square of
#: the relative radius over PROFILE_BINS directions: drawn shapes lie within 0.025 of their kind, the nearest
#: two kinds, circle and hexagon, 0.045 apart).
COLOURS_SAME, COLOURS_APART = 12, 90
KINDS = ("circle", "square", "triangle", "pentagon", "hexagon", "star", "diamond", "ellipse")
PROFILE_BINS = 180
KIND_MATCH, KIND_APART = 0.03, 0.038
#: The panel-level nuisance properties: each must hold for none of the panels or at least two, and fail for
#: none or at least two, or it singles a panel out (issue 10: a conformer that alone mixed colours).
MIXED_VOCABULARY = ("mixed colours", "mixed kinds")
#: Letter model: a probe has ink when a stroke passes closer than INK_REACH (design-grid units, a letter is 4
#: wide and 6 tall).
INK_REACH = 0.4
#: Pixel check: colours of pixels inside a mark within COLOUR_SLACK of its colour (largest channel difference),
#: pixels outside all marks no darker than 255 - COLOUR_SLACK in any channel; FIDELITY_SLACK pixels per panel
#: may miss (rounding at needle-sharp corners); the 3-pixel frame is not looked at.
COLOUR_SLACK = 60
FIDELITY_SLACK = 3
FRAME = 3
#: A mark's ink in the picture minus its recorded area, per pixel of its boundary: the 3x supersampled fill
#: lands between -0.05 and +0.2; a boundary moved by half a pixel on average falls outside.
INK_BIAS = (-0.3, 0.5)
RIM = 3
#: Word panels (``word_misses``): letter strokes are a few pixels wide (3.3 px on the 600x800 canvas), so few of
#: their pixels are away from an edge.  A pixel whose centre lies at least WORD_INSET px inside a stroke's edge
#: (the whole pixel inside, with a third of a pixel to spare for the 3x supersampled drawing) shows the word's
#: colour, and one at least WORD_INSET px outside every stroke is blank, each within COLOUR_SLACK.  Measured on
#: 400 word items at both canvas sizes: the largest channel difference is 25 inside and 0 outside (with an inset
#: of 0.75 px: 50 and 28; 0.5 px: 113 and 91), so no pixel may miss.  Every stroke of 240 word panels left out
#: or moved by two pixels shows in at least 7 or 4 pixels (600x800; 19 or 6 at 1024x1024).
WORD_INSET = 1.0

#: Where each capital letter written the right way round has ink ("+") and none ("-"), on its 4 x 6 design
#: grid (x right from the left edge, y down from the top; letters centred on x = 2).  Symmetric letters have
#: symmetric probes; an asymmetric letter's mirror image fails at least one of its probes.
PROBES: dict[str, tuple[tuple[str, float, float], ...]] = {
    "A": (("+", 2, 0), ("+", 0, 6), ("+", 4, 6), ("+", 2, 3.6), ("-", 2, 5.2), ("-", 0, 0), ("-", 4, 0)),
    "B": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 1.5, 0), ("+", 1.5, 3), ("+", 1.5, 6), ("+", 3.6, 1.5),
          ("+", 4, 4.5), ("-", 2, 1.5), ("-", 2, 4.5), ("-", 4, 3)),
    "C": (("+", 4, 1), ("+", 2, 0), ("+", 0, 3), ("+", 2, 6), ("+", 4, 5), ("-", 4, 3), ("-", 2, 3)),
    "D": (("+", 0, 0.5), ("+", 0, 2), ("+", 0, 3), ("+", 0, 5.5), ("+", 4, 2), ("+", 4, 3), ("+", 1.2, 0),
          ("+", 1.2, 6), ("-", 2, 3), ("-", 3, 3.4), ("-", 4, 0.3), ("-", 4, 5.7)),
    "E": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 3.5, 0), ("+", 2.5, 3), ("+", 3.5, 6), ("-", 4, 1.5),
          ("-", 4, 4.5), ("-", 2, 1.5), ("-", 2, 4.5)),
    "F": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 3.5, 0), ("+", 2.5, 3), ("-", 3, 6), ("-", 4, 1.5),
          ("-", 2, 4.5)),
    "G": (("+", 4, 1), ("+", 2, 0), ("+", 0, 3), ("+", 2, 6), ("+", 4, 4), ("+", 3, 3.4), ("-", 4, 2.2),
          ("-", 2, 2)),
    "H": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 4, 0.5), ("+", 4, 3), ("+", 4, 5.5), ("+", 2, 3),
          ("-", 2, 0), ("-", 2, 6), ("-", 1, 1.5), ("-", 3, 1.5)),
    "I": (("+", 2, 1.5), ("+", 2, 4.5), ("+", 1, 0), ("+", 3, 0), ("+", 1, 6), ("+", 3, 6), ("-", 0.2, 3),
          ("-", 3.8, 3)),
    "J": (("+", 4, 0.5), ("+", 4, 3), ("+", 2, 6), ("+", 0, 4.8), ("-", 0, 1.5), ("-", 2, 3), ("-", 2, 0)),
    "K": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 4, 0), ("+", 4, 6), ("+", 2, 1.8), ("-", 4, 3),
          ("-", 2, 0)),
    "L": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 2, 6), ("+", 4, 6), ("-", 2, 0), ("-", 4, 0),
          ("-", 2, 3)),
    "M": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 4, 0.5), ("+", 4, 3), ("+", 4, 5.5), ("+", 2, 3.5),
          ("+", 1, 1.75), ("+", 3, 1.75), ("-", 2, 0.5), ("-", 2, 5.5)),
    "N": (("+", 0, 0.5), ("+", 0, 5.5), ("+", 4, 0.5), ("+", 4, 5.5), ("+", 1, 1.5), ("-", 3, 1.5), ("-", 1, 4.5)),
    "O": (("+", 2, 0), ("+", 2, 6), ("+", 0, 2), ("+", 0, 3), ("+", 4, 2), ("+", 4, 3), ("-", 2, 3), ("-", 0, 0),
          ("-", 4, 0), ("-", 2.5, 4.5), ("-", 1.5, 4.5)),
    "P": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 1.5, 0), ("+", 4, 1.6), ("+", 1.5, 3.2), ("-", 2, 1.6),
          ("-", 3, 4.75), ("-", 4, 4.5)),
    "Q": (("+", 2, 0), ("+", 2, 6), ("+", 0, 3), ("+", 4, 3), ("+", 2.5, 4.5), ("-", 2, 3), ("-", 1.5, 4.5)),
    "R": (("+", 0, 0.5), ("+", 0, 3), ("+", 0, 5.5), ("+", 1.5, 0), ("+", 4, 1.6), ("+", 1.5, 3.2),
          ("+", 2.9, 4.6), ("-", 2, 1.6), ("-", 4, 4)),
    "S": (("+", 4, 1), ("+", 2, 0), ("+", 0, 1.5), ("+", 2, 3), ("+", 4, 4.5), ("+", 2, 6), ("+", 0, 5),
          ("-", 4, 2), ("-", 0, 4)),
    "T": (("+", 0, 0), ("+", 4, 0), ("+", 2, 0), ("+", 2, 3), ("+", 2, 6), ("-", 0, 3), ("-", 4, 3), ("-", 0.5, 6),
          ("-", 3.5, 6)),
    "U": (("+", 0, 0.5), ("+", 0, 3), ("+", 4, 0.5), ("+", 4, 3), ("+", 2, 6), ("-", 2, 0), ("-", 2, 3)),
    "V": (("+", 0, 0), ("+", 4, 0), ("+", 2, 6), ("+", 1, 3), ("+", 3, 3), ("-", 2, 0), ("-", 2, 3), ("-", 0, 6),
          ("-", 4, 6)),
    "W": (("+", 0, 0), ("+", 4, 0), ("+", 1, 6), ("+", 3, 6), ("+", 2, 2.5), ("-", 2, 0.5), ("-", 2, 6)),
    "X": (("+", 0, 0), ("+", 4, 0), ("+", 0, 6), ("+", 4, 6), ("+", 2, 3), ("-", 2, 0), ("-", 2, 6), ("-", 0, 3),
          ("-", 4, 3)),
    "Y": (("+", 0, 0), ("+", 4, 0), ("+", 2, 3), ("+", 2, 6), ("+", 1, 1.5), ("+", 3, 1.5), ("-", 2, 0),
          ("-", 0, 6), ("-", 4, 6)),
    "Z": (("+", 0, 0), ("+", 4, 0), ("+", 0, 6), ("+", 4, 6), ("+", 2, 3), ("+", 3, 1.5), ("-", 1, 1.5),
          ("-", 0, 3), ("-", 4, 3)),
}
LETTER_WIDTH, LETTER_HEIGHT = 4.0, 6.0


# -- reading the record ---------------------------------------------------------------------------------------
def _points(flat: Sequence[int], grid: int) -> np.ndarray:
    """A flat ``[x0, y0, x1, y1, ...]`` list of grid integers as an (n, 2) array in panel units."""
    return np.asarray(flat, dtype=float).reshape(-1, 2) / grid


_PARSED: dict[tuple[int, int], tuple[Any, list[tuple[Polygon, tuple[int, ...]]]]] = {}


def read_marks(description: Mapping[str, Any], grid: int) -> list[tuple[Polygon, tuple[int, ...]]]:
    """The marks of a description as (polygon in panel units, colour), parsed once per description object."""
    cached = _PARSED.get((id(description), grid))
    if cached is not None and cached[0] is description:
        return cached[1]
    out = []
    for mark in description["marks"]:
        shell, *holes = (_points(ring, grid) for ring in mark["rings"])
        out.append((Polygon(shell, holes), tuple(int(c) for c in mark["colour"])))
    if len(_PARSED) > 24:
        _PARSED.clear()
    _PARSED[(id(description), grid)] = (description, out)
    return out


# -- concepts of a panel of marks -------------------------------------------------------------------------------
def _objects(polygons: Sequence[Polygon]) -> list[list[int]]:
    """Groups of marks that touch (closer than TOUCH), each group one object, by union-find."""
    parent = list(range(len(polygons)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    bounds = shapely.bounds(np.array(polygons, dtype=object)) if polygons else np.zeros((0, 4))
    for i in range(len(polygons)):
        for j in range(i + 1, len(polygons)):
            apart = max(bounds[j, 0] - bounds[i, 2], bounds[i, 0] - bounds[j, 2],
                        bounds[j, 1] - bounds[i, 3], bounds[i, 1] - bounds[j, 3])
            if apart < TOUCH and polygons[i].distance(polygons[j]) < TOUCH:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(polygons)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _line_fit(points: np.ndarray) -> tuple[np.ndarray, float]:
    """The direction of the line that best fits ``points`` (least squares, perpendicular distances) and the
    largest distance of a point from it."""
    centred = points - points.mean(axis=0)
    sxx, syy = float((centred[:, 0] ** 2).sum()), float((centred[:, 1] ** 2).sum())
    sxy = float((centred[:, 0] * centred[:, 1]).sum())
    angle = 0.5 * math.atan2(2.0 * sxy, sxx - syy)
    direction = np.array([math.cos(angle), math.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    return direction, float(np.abs(centred @ normal).max())


def rows_fit(points: np.ndarray) -> float:
    """How far the points are from standing in two parallel rows: for every direction through two of the
    points, the points projected across it split at the widest gap into two rows of at least two whose lines
    lie at least ROWS_APART apart; the largest distance of a point from its row's line, least over the
    directions (inf if no direction splits the points so)."""
    best = math.inf
    for i, j in itertools.combinations(range(len(points)), 2):
        step = points[j] - points[i]
        length = math.hypot(float(step[0]), float(step[1]))
        if length < 1e-9:
            continue
        across = np.sort(points @ np.array([-step[1], step[0]]) / length)
        cut = int(np.argmax(np.diff(across))) + 1
        if cut < 2 or len(across) - cut < 2:
            continue
        low, high = across[:cut], across[cut:]
        if float(high.mean() - low.mean()) < ROWS_APART:
            continue
        best = min(best, float(max(np.abs(low - low.mean()).max(), np.abs(high - high.mean()).max())))
    return best


def _reflect(points: np.ndarray, centre: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """``points`` mirrored about the line through ``centre`` along the unit vector ``axis``."""
    q = points - centre
    return centre + 2.0 * (q @ axis)[:, None] * axis[None, :] - q


def symmetry_score(polygons: Sequence[Polygon], colours: Sequence[tuple[int, ...]], grid: int | None = None) -> float:
    """The best, over a vertical, horizontal and two diagonal axes through the centroid of all ink, of the
    worst-matched mark's overlap (intersection over union) between its mirror image and a mark of its colour.
    With ``grid`` the mirror images are snapped to the record's grid first: an image that lands exactly on a
    recorded mark must be that mark, not a copy a rounding error away (overlaying two polygons whose edges
    differ in the last bit can lose their common area)."""
    areas = np.array([p.area for p in polygons])
    centres = np.array([[c.x, c.y] for c in (p.centroid for p in polygons)])
    centre = (centres * areas[:, None]).sum(axis=0) / areas.sum()
    best = 0.0
    for degrees in AXES_DEG:
        axis = np.array([math.cos(math.radians(degrees)), math.sin(math.radians(degrees))])
        images = _reflect(centres, centre, axis)
        worst = 1.0
        for i, polygon in enumerate(polygons):
            near = [j for j in range(len(polygons)) if colours[j] == colours[i]
                    and float(np.hypot(*(images[i] - centres[j]))) <= CENTRE_SLACK * math.sqrt(areas[i])]
            if not near:
                worst = 0.0
                break
            image = shapely.transform(polygon, lambda xy, axis=axis: _reflect(xy, centre, axis))
            if grid:
                image = shapely.transform(image, lambda xy: np.round(xy * grid) / grid)
            overlap = 0.0
            for j in near:
                common = image.intersection(polygons[j]).area
                overlap = max(overlap, common / (areas[i] + areas[j] - common))
            worst = min(worst, overlap)
            if worst <= best:
                break
        best = max(best, worst)
    return best


def _relative_stroke(polygon: Polygon) -> float:
    """Stroke width of a mark (twice its area over its boundary length: the band width of an outline) over its
    shape's size (twice the area over the perimeter of its convex hull)."""
    hull = polygon.convex_hull
    return (2.0 * polygon.area / polygon.length) / (2.0 * hull.area / hull.length)


def _common(values: Sequence[Any]) -> Any:
    """The panel's value from its marks' values: the shared one, 'mixed', None when there are none, UNDECIDED
    if any mark is undecided."""
    if not values:
        return None
    if UNDECIDED in values:
        return UNDECIDED
    return values[0] if all(v == values[0] for v in values) else "mixed"


def mark_values(marks: Sequence[tuple[Polygon, tuple[int, ...]]], rows: bool = False,
                grid: int | None = None) -> dict[str, Any]:
    """The vocabulary measured on one panel of marks.

    ``number``: separate objects; ``aligned``: their centres on one line (None below three objects or when
    they differ much in size, as a container and its contents do), or with ``rows`` (alignment items) in two
    parallel rows (``rows_fit``); ``spacing``: 'even' or 'uneven' gaps along that one line (None unless
    aligned on one line); ``enclosure``: some mark lies inside another's outline without touching it;
    ``symmetric``; ``fill``: 'solid', 'hollow' or 'mixed'; ``border``: 'thin', 'medium', 'thick' or 'mixed'
    outlines (None without outlines); ``topology``: 'closed', 'open' or 'mixed' outlines.
    """
    polygons = [p for p, _ in marks]
    colours = [c for _, c in marks]
    values: dict[str, Any] = {}
    objects = _objects(polygons)
    values["number"] = len(objects)
    values["aligned"] = values["spacing"] = None
    if len(objects) >= 3:
        hulls = [shapely.convex_hull(shapely.union_all([polygons[i] for i in group])).area for group in objects]
        ratio = max(hulls) / min(hulls)
        if ratio < SAME_SIZE:
            centres = []
            for group in objects:
                weights = np.array([polygons[i].area for i in group])
                points = np.array([[polygons[i].centroid.x, polygons[i].centroid.y] for i in group])
                centres.append((points * weights[:, None]).sum(axis=0) / weights.sum())
            direction, residual = _line_fit(np.array(centres))
            if residual < ON_LINE:
                values["aligned"] = True
                gaps = np.diff(np.sort(np.array(centres) @ direction))
                variation = float(gaps.std() / gaps.mean())
                values["spacing"] = "even" if variation < EVEN else "uneven" if variation > UNEVEN else UNDECIDED
            else:
                values["aligned"] = False if residual > OFF_LINE else UNDECIDED
        elif ratio <= MIXED_SIZE:
            values["aligned"] = UNDECIDED
    if rows:
        centres = []
        for group in objects:  # each object's centre: its marks' centroids weighted by their areas
            weights = np.array([polygons[i].area for i in group])
            points = np.array([[polygons[i].centroid.x, polygons[i].centroid.y] for i in group])
            centres.append((points * weights[:, None]).sum(axis=0) / weights.sum())
        fit = rows_fit(np.array(centres)) if len(centres) >= 4 else math.inf
        values["aligned"] = True if fit < ON_ROWS else False if fit > OFF_ROWS else UNDECIDED
        values["spacing"] = None
    values["enclosure"] = any(
        i != j and Polygon(outer.exterior).contains(inner) and not outer.intersects(inner)
        for i, outer in enumerate(polygons) for j, inner in enumerate(polygons)
        if _inside_box(inner.bounds, outer.bounds)
    )
    score = symmetry_score(polygons, colours, grid)
    values["symmetric"] = True if score >= MIRRORED else False if score < UNMIRRORED else UNDECIDED
    fills, borders, closures = [], [], []
    for polygon in polygons:
        holes = sum(Polygon(ring).area for ring in polygon.interiors)
        closed = holes >= HOLE_SHARE * Polygon(polygon.exterior).area
        stroke = _relative_stroke(polygon)
        if closed or stroke < SOLID:
            fills.append("hollow")
            closures.append("closed" if closed else "open")
            borders.append(next((name for name, low, high in BORDERS if low <= stroke <= high), UNDECIDED))
        else:
            fills.append("solid")
    values["fill"] = _common(fills)
    values["border"] = _common(borders)
    values["topology"] = _common(closures)
    return values


# -- panel-level nuisance: mixed colours, mixed kinds ----------------------------------------------------------
def _kind_outline(kind: str) -> np.ndarray:
    """The outline of a shape kind of the task's vocabulary as this verifier knows it: circumradius 1, centred
    on the origin, any turn (profiles are compared over every turn and mirror image)."""
    if kind in ("circle", "ellipse"):
        t = np.linspace(0.0, 2.0 * np.pi, 360, endpoint=False)
        return np.column_stack([np.cos(t), (0.6 if kind == "ellipse" else 1.0) * np.sin(t)])
    if kind == "diamond":  # the long diagonal twice the short one's 0.65
        return np.array([[1.0, 0.0], [0.0, 0.65], [-1.0, 0.0], [0.0, -0.65]])
    if kind == "star":  # five points, the inner corners at half the radius
        t = np.arange(10) * np.pi / 5
        r = np.where(np.arange(10) % 2 == 0, 1.0, 0.5)
        return np.column_stack([r * np.cos(t), r * np.sin(t)])
    n = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}[kind]
    t = np.arange(n) * 2.0 * np.pi / n
    return np.column_stack([np.cos(t), np.sin(t)])


def outline_profile(ring: np.ndarray) -> np.ndarray:
    """A closed outline (vertices, either way round) as its distance from its convex hull's centroid in each of
    PROFILE_BINS directions (the farthest outline point in that direction), over the mean: a function of the
    shape alone, not of its place or size; a turn shifts it cyclically, a mirror image reverses it."""
    return outline_profiles([ring])[0]


def outline_profiles(rings: Sequence[np.ndarray]) -> np.ndarray:
    """``outline_profile`` of each ring (one row each), the rings' hulls and directions measured all at once."""
    rings = [np.asarray(ring, dtype=float) for ring in rings]
    samples = 8 * PROFILE_BINS
    points = np.empty((len(rings) * samples, 2))
    for k, ring in enumerate(rings):
        closed = np.vstack([ring, ring[:1]])
        length = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(closed, axis=0).T))])
        t = np.linspace(0.0, length[-1], samples, endpoint=False)
        points[k * samples:(k + 1) * samples, 0] = np.interp(t, length, closed[:, 0])
        points[k * samples:(k + 1) * samples, 1] = np.interp(t, length, closed[:, 1])
    owner = np.repeat(np.arange(len(rings)), [len(ring) for ring in rings])
    hulls = shapely.convex_hull(shapely.multipoints(np.vstack(rings), indices=owner))
    centres = shapely.get_coordinates(shapely.centroid(hulls))
    offset = points - np.repeat(centres, samples, axis=0)
    bins = np.floor((np.arctan2(offset[:, 1], offset[:, 0]) + np.pi) / (2 * np.pi) * PROFILE_BINS).astype(int)
    profiles = np.full(len(rings) * PROFILE_BINS, -1.0)
    row = np.repeat(np.arange(len(rings)) * PROFILE_BINS, samples)
    np.maximum.at(profiles, row + bins % PROFILE_BINS, np.hypot(*offset.T))
    profiles = profiles.reshape(len(rings), PROFILE_BINS)
    index = np.arange(PROFILE_BINS)
    for k, profile in enumerate(profiles):
        seen = profile >= 0
        if not seen.all():
            profile = np.interp(index, index[seen], profile[seen], period=PROFILE_BINS)
        profiles[k] = profile / profile.mean()
    return profiles


def profile_distance(profile: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The root mean square difference between ``profile`` and each row of ``others``, at the turn and mirror
    image that fit best (every cyclic shift of the row and of the row reversed, by FFT correlation)."""
    others = np.atleast_2d(others)
    both = np.concatenate([others, others[:, ::-1]])
    return _best_fits(profile, np.fft.rfft(both, axis=1), (both ** 2).sum(axis=1, keepdims=True), len(others))


def _best_fits(profile: np.ndarray, spectra: np.ndarray, energies: np.ndarray, count: int) -> np.ndarray:
    """``profile_distance`` of each row of ``profile`` (one profile, or a stack of them: a row of distances each)
    from the rows' spectra (``rfft``) and sums of squares, the mirrored rows after the ``count`` rows themselves."""
    own = np.conj(np.fft.rfft(profile, axis=-1))[..., None, :]
    correlation = np.fft.irfft(spectra * own, n=PROFILE_BINS, axis=-1)
    squares = (profile ** 2).sum(axis=-1)[..., None, None] + energies - 2.0 * correlation
    best = np.sqrt(np.maximum(squares, 0.0).min(axis=-1) / PROFILE_BINS)
    return np.minimum(best[..., :count], best[..., count:])


_KIND_PROFILES = np.array([outline_profile(_kind_outline(kind)) for kind in KINDS])
#: The kinds' profiles and their mirror images, as ``profile_distance`` compares with them (made once).
_KIND_BOTH = np.concatenate([_KIND_PROFILES, _KIND_PROFILES[:, ::-1]])
_KIND_SPECTRA = np.fft.rfft(_KIND_BOTH, axis=1)
_KIND_ENERGIES = (_KIND_BOTH ** 2).sum(axis=1, keepdims=True)


def mark_kind(polygon: Polygon) -> str | None:
    """The shape kind of a mark, from its outer outline (``outline_profile``, nearest of ``KINDS`` within
    KIND_MATCH with every other kind beyond KIND_APART; UNDECIDED otherwise), or None for an outline cut open
    (its cut removes part of the outline, a corner even: the kind is not measured)."""
    return mark_kinds([polygon])[0]


def mark_kinds(polygons: Sequence[Polygon]) -> list[str | None]:
    """``mark_kind`` of each mark, the outlines profiled all at once."""
    measured = [k for k, polygon in enumerate(polygons) if polygon.interiors or _relative_stroke(polygon) >= SOLID]
    kinds: list[str | None] = [None] * len(polygons)
    if not measured:
        return kinds
    profiles = outline_profiles([np.asarray(polygons[k].exterior.coords)[:-1] for k in measured])
    for k, distance in zip(measured, _best_fits(profiles, _KIND_SPECTRA, _KIND_ENERGIES, len(KINDS)), strict=True):
        nearest, second = np.argsort(distance)[:2]
        kinds[k] = (KINDS[int(nearest)] if distance[nearest] <= KIND_MATCH and distance[second] >= KIND_APART
                    else UNDECIDED)
    return kinds


def mixed_values(description: Mapping[str, Any], grid: int) -> tuple[dict[str, Any], list[str]]:
    """The panel-level nuisance of one panel of marks: ``mixed colours`` (two marks' recorded colours differ
    by COLOURS_APART or more in some channel; the pixel check ties the colours to the picture) and ``mixed
    kinds`` (two marks' outlines are of different kinds: each mark's kind measured from its rings,
    ``mark_kind``, the recorded kind only where an outline is cut open), UNDECIDED between the clear
    answers; and notes on marks whose recorded kind is not the kind their outline shows."""
    marks = read_marks(description, grid)
    colours = np.array([c for _, c in marks], dtype=int).reshape(-1, 3)
    apart = np.abs(colours[:, None, :] - colours[None, :, :]).max(axis=2) if len(colours) else np.zeros((0, 0))
    mixed_colours: Any = bool((apart >= COLOURS_APART).any())
    if ((apart > COLOURS_SAME) & (apart < COLOURS_APART)).any():
        mixed_colours = UNDECIDED
    kinds, notes = [], []
    shapes = mark_kinds([polygon for polygon, _ in marks])
    for k, (measured, record) in enumerate(zip(shapes, description["marks"], strict=True)):
        recorded = str(record.get("kind", ""))
        if measured is not None and measured != recorded:
            notes.append(f"mark {k + 1} is recorded as a {recorded or 'shape of no kind'} but its outline is "
                         + (f"a {measured}" if measured != UNDECIDED else "of no clear kind"))
        kinds.append(recorded if measured is None else measured)
    mixed_kinds: Any = UNDECIDED if UNDECIDED in kinds else len(set(kinds)) > 1
    return {"mixed colours": mixed_colours, "mixed kinds": mixed_kinds}, notes


def _inside_box(inner: Sequence[float], outer: Sequence[float]) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# -- words -----------------------------------------------------------------------------------------------------
def letter_groups(strokes: Sequence[np.ndarray]) -> list[list[np.ndarray]]:
    """The strokes grouped into letters, left to right: strokes whose horizontal extents overlap."""
    order = sorted(strokes, key=lambda s: float(s[:, 0].min()))
    groups: list[list[np.ndarray]] = []
    right = -math.inf
    for stroke in order:
        low, high = float(stroke[:, 0].min()), float(stroke[:, 0].max())
        if groups and low <= right:
            groups[-1].append(stroke)
            right = max(right, high)
        else:
            groups.append([stroke])
            right = high
    return groups


def _distance_to_strokes(points: np.ndarray, strokes: Sequence[np.ndarray]) -> np.ndarray:
    """For each point, the distance to the nearest stroke segment."""
    a = np.vstack([s[:-1] for s in strokes])
    b = np.vstack([s[1:] for s in strokes])
    d = b - a
    length2 = np.maximum((d * d).sum(axis=1), 1e-18)
    rel = points[:, None, :] - a[None, :, :]
    t = np.clip((rel * d[None, :, :]).sum(axis=2) / length2[None, :], 0.0, 1.0)
    gap = rel - t[:, :, None] * d[None, :, :]
    return np.sqrt((gap * gap).sum(axis=2)).min(axis=1)


def reads_as(letter_strokes: Sequence[np.ndarray], letter: str, mirrored: bool, top: float, unit: float) -> bool:
    """Whether one letter's strokes (panel units) show ``letter`` (mirrored left-right if ``mirrored``): every
    probe of the letter model has ink, or none, as it says.  ``top`` and ``unit`` place the design grid."""
    probes = PROBES.get(letter)
    if probes is None:
        return False
    xs = np.concatenate([s[:, 0] for s in letter_strokes])
    middle = (float(xs.min()) + float(xs.max())) / 2.0
    grid = [np.column_stack([(s[:, 0] - middle) / unit + LETTER_WIDTH / 2.0, (s[:, 1] - top) / unit])
            for s in letter_strokes]
    if mirrored:
        grid = [np.column_stack([LETTER_WIDTH - g[:, 0], g[:, 1]]) for g in grid]
    points = np.array([[x, y] for _, x, y in probes], dtype=float)
    inked = _distance_to_strokes(points, grid) < INK_REACH
    wanted = np.array([sign == "+" for sign, _, _ in probes])
    return bool((inked == wanted).all())


def word_values(word: Mapping[str, Any], grid: int) -> dict[str, Any]:
    """``mirrored``: False if the letters read left to right are the recorded text, True if read mirrored and
    right to left they are, UNDECIDED if both or neither; ``number``: how many letters."""
    strokes = [_points(flat, grid) for flat in word["strokes"]]
    text = str(word["text"])
    groups = letter_groups(strokes)
    values: dict[str, Any] = {"number": len(groups), "mirrored": UNDECIDED}
    if len(groups) != len(text) or not strokes:
        return values
    ys = np.concatenate([s[:, 1] for s in strokes])
    top, unit = float(ys.min()), (float(ys.max()) - float(ys.min())) / LETTER_HEIGHT
    plain = all(reads_as(g, text[k], False, top, unit) for k, g in enumerate(groups))
    mirror = all(reads_as(g, text[len(text) - 1 - k], True, top, unit) for k, g in enumerate(groups))
    if plain != mirror:
        values["mirrored"] = mirror
    return values


# -- the scene ------------------------------------------------------------------------------------------------
def panel_values(description: Mapping[str, Any], grid: int, rows: bool = False) -> dict[str, Any]:
    """The vocabulary measured on one panel description (``rows``: of an alignment item)."""
    return _panel_measures(description, grid, rows)[0]


def _panel_measures(description: Mapping[str, Any], grid: int, rows: bool) -> tuple[dict[str, Any], dict[str, Any],
                                                                                   list[str]]:
    """The vocabulary of one panel (``panel_values``), its mixed colours and kinds and the notes on its marks'
    kinds (``mixed_values``; none for a word), each mark's kind measured once."""
    if "word" in description:
        return word_values(description["word"], grid), {}, []
    mixed, notes = mixed_values(description, grid)
    return {**mark_values(read_marks(description, grid), rows, grid), **mixed}, mixed, notes


def odd_one_out(values: Sequence[Any]) -> int | None:
    """The index of the one value that differs while all the others are equal, else None."""
    for k, value in enumerate(values):
        others = [v for j, v in enumerate(values) if j != k]
        if others and all(v == others[0] for v in others) and value != others[0]:
            return k
    return None


_MEASURED: dict[int, tuple[Any, list[tuple[dict[str, Any], dict[str, Any], list[str]]]]] = {}


def _scene_measures(scene: Mapping[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any], list[str]]]:
    """``_panel_measures`` of every option panel (letter order), measured once per scene object (the solver
    and ``scene_failures`` both read them)."""
    cached = _MEASURED.get(id(scene))
    if cached is not None and cached[0] is scene:
        return cached[1]
    grid = int(scene.get("grid", 10000))
    in_rows = scene.get("concept") == "alignment"
    measures = [_panel_measures(d, grid, in_rows) for d in scene["options"]]
    _MEASURED.clear()
    _MEASURED[id(scene)] = (scene, measures)
    return measures


def measure_scene(scene: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The vocabulary of every option panel (letter order), measured once per scene object."""
    return [values for values, _, _ in _scene_measures(scene)]


def isolations(scene: Mapping[str, Any]) -> dict[str, int]:
    """For each attribute of the vocabulary that singles out one panel, that panel."""
    rows = measure_scene(scene)
    words = ["word" in d for d in scene["options"]]
    if any(words) and not all(words):
        raise ValueError("the panels mix words and marks")
    vocabulary = WORD_VOCABULARY if all(words) else (*MARK_VOCABULARY, *MIXED_VOCABULARY)
    found = {}
    for name in vocabulary:
        k = odd_one_out([row.get(name) for row in rows])
        if k is not None:
            found[name] = k
    return found


def solve_scene(scene: Mapping[str, Any]) -> list[int]:
    """The panels that some attribute of the vocabulary singles out; none if the scene names a concept that
    singles out no panel.  A sound item gives exactly its answer."""
    found = isolations(scene)
    concept = scene.get("concept")
    if concept is not None and CONCEPT_KEY.get(concept) not in found:
        return []
    return sorted(set(found.values()))


# -- pixels -----------------------------------------------------------------------------------------------------
def _fill_marks(marks: Sequence[Sequence[np.ndarray]], side: int) -> np.ndarray:
    """Which mark covers each pixel centre (-1: none), for marks given as rings in pixel units (exterior first,
    then holes), by one scanline pass over every edge: along each row of pixel centres, a crossing of mark k's
    exterior counts +(k + 1) on entering and -(k + 1) on leaving, a crossing of one of its holes the opposite,
    so the running sum is k + 1 inside mark k and 0 outside every mark (marks do not overlap)."""
    starts, ends, weights = [], [], []
    for k, rings in enumerate(marks):
        for r, ring in enumerate(rings):
            nxt = np.roll(ring, -1, axis=0)
            area = float((ring[:, 0] * nxt[:, 1] - nxt[:, 0] * ring[:, 1]).sum())
            turn = (1.0 if area > 0 else -1.0) * (1.0 if r == 0 else -1.0)
            # with y down, a ring of positive shoelace area runs up its left side: that crossing enters
            weights.append(-np.sign(nxt[:, 1] - ring[:, 1]) * turn * (k + 1))
            starts.append(ring)
            ends.append(nxt)
    labels = np.full((side, side), -1, dtype=np.int16)
    if not starts:
        return labels
    p, q, w = np.vstack(starts), np.vstack(ends), np.concatenate(weights)
    sloped = w != 0
    p, q, w = p[sloped], q[sloped], w[sloped]
    low, high = np.minimum(p[:, 1], q[:, 1]), np.maximum(p[:, 1], q[:, 1])
    first = np.clip(np.ceil(low - 0.5), 0, side).astype(np.int64)  # rows whose centre r + 0.5 is in [low, high)
    last = np.clip(np.ceil(high - 0.5), 0, side).astype(np.int64)
    counts = np.maximum(last - first, 0)
    edge = np.repeat(np.arange(len(w)), counts)
    rows = first[edge] + np.arange(len(edge)) - np.repeat(np.cumsum(counts) - counts, counts)
    centre = rows + 0.5
    x = p[edge, 0] + (centre - p[edge, 1]) * (q[edge, 0] - p[edge, 0]) / (q[edge, 1] - p[edge, 1])
    columns = np.clip(np.ceil(x - 0.5), 0, side).astype(np.int64)  # first pixel whose centre is past the crossing
    if not len(rows):
        return labels
    # only the window of rows and columns the crossings span: outside it every running sum is 0 (the weights
    # are whole numbers, so the sums are exact and a window's sums are the whole rows' sums)
    r0, r1, c0, c1 = int(rows.min()), int(rows.max()) + 1, int(columns.min()), int(columns.max()) + 1
    width = c1 - c0
    steps = np.bincount((rows - r0) * width + (columns - c0), weights=w[edge], minlength=(r1 - r0) * width)
    inside = np.rint(np.cumsum(steps.reshape(r1 - r0, width), axis=1)).astype(np.int16)
    c1 = min(c1, side)
    labels[r0:r1, c0:c1] = inside[:, :c1 - c0] - 1
    return labels


def _stroke_mask(strokes: Sequence[np.ndarray], radius: float, side: int) -> np.ndarray:
    """Pixels whose centre lies within ``radius`` of a stroke of at least two points (pixel units)."""
    mask = np.zeros((side, side), dtype=bool)
    for stroke in strokes:
        if len(stroke) > 1:
            (r0, r1, c0, c1), gap2 = _stroke_gaps(stroke, radius, side)
            mask[r0:r1, c0:c1] |= gap2 <= radius * radius
    return mask


def _stroke_gaps(stroke: np.ndarray, reach: float, side: int) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """The window (rows r0:r1, columns c0:c1) of pixels whose centre may lie within ``reach`` of a stroke (a
    polyline, pixel units), and the squared distance of each of its pixel centres from the stroke's centre line
    (a single point: from the point), every segment at once."""
    r0 = max(0, math.floor(float(stroke[:, 1].min()) - reach - 0.5))
    r1 = max(r0, min(side, math.ceil(float(stroke[:, 1].max()) + reach + 0.5)))
    c0 = max(0, math.floor(float(stroke[:, 0].min()) - reach - 0.5))
    c1 = max(c0, min(side, math.ceil(float(stroke[:, 0].max()) + reach + 0.5)))
    starts, ends = (stroke[:-1], stroke[1:]) if len(stroke) > 1 else (stroke, stroke)
    step = ends - starts
    length2 = np.maximum((step * step).sum(axis=1), 1e-12)
    ys = (np.arange(r0, r1) + 0.5)[None, :, None] - starts[:, 1, None, None]  # (segments, rows, 1)
    xs = (np.arange(c0, c1) + 0.5)[None, None, :] - starts[:, 0, None, None]  # (segments, 1, columns)
    dx, dy = step[:, 0, None, None], step[:, 1, None, None]
    t = np.clip((xs * dx + ys * dy) / length2[:, None, None], 0.0, 1.0)
    gap2 = ((xs - t * dx) ** 2 + (ys - t * dy) ** 2).min(axis=0)
    return (r0, r1, c0, c1), gap2


def word_misses(tile: np.ndarray, word: Mapping[str, Any], grid: int) -> tuple[list[tuple[int, int]], int]:
    """How a word panel (``tile``, RGB) disagrees with its recorded strokes: (stroke, pixels) for each stroke
    with pixels at least WORD_INSET inside its edge that are not the word's colour, and how many pixels at least
    WORD_INSET outside every stroke are not blank (white), by more than COLOUR_SLACK in some channel, the
    FRAME-pixel frame not looked at."""
    side = tile.shape[0]
    scale = side / grid
    radius = float(word["stroke"]) * scale / 2.0
    inner2 = max(radius - WORD_INSET, 0.0) ** 2
    outer2 = (radius + WORD_INSET) ** 2
    colour = [int(c) for c in word["colour"]]
    near = np.zeros((side, side), dtype=bool)
    strokes = []
    for k, flat in enumerate(word["strokes"]):
        stroke = np.asarray(flat, dtype=float).reshape(-1, 2) * scale
        (r0, r1, c0, c1), gap2 = _stroke_gaps(stroke, radius + WORD_INSET, side)
        window = tile[r0:r1, c0:c1].astype(np.int16)
        unlike = np.zeros(gap2.shape, dtype=bool)
        for channel, value in enumerate(colour):
            unlike |= np.abs(window[:, :, channel] - value) > COLOUR_SLACK
        missed = int(np.count_nonzero(unlike & (gap2 <= inner2)))
        if missed:
            strokes.append((k, missed))
        near[r0:r1, c0:c1] |= gap2 < outer2
    near[:FRAME] = near[-FRAME:] = True
    near[:, :FRAME] = near[:, -FRAME:] = True
    inked = np.minimum(np.minimum(tile[:, :, 0], tile[:, :, 1]), tile[:, :, 2]) < 255 - COLOUR_SLACK
    return strokes, int(np.count_nonzero(inked & ~near))


_RASTERS: dict[tuple[int, int], tuple[Any, np.ndarray, np.ndarray]] = {}


def raster(description: Mapping[str, Any], side: int, grid: int) -> tuple[np.ndarray, np.ndarray]:
    """Which mark covers each pixel centre of a ``side`` x ``side`` panel (-1: none) and the panel drawn in
    the marks' colours on white (RGB), by the verifier's own scanline fill of the recorded rings (a word is
    one mark: its strokes at their width)."""
    key = (id(description), side)
    cached = _RASTERS.get(key)
    if cached is not None and cached[0] is description:
        return cached[1], cached[2]
    labels = np.full((side, side), -1, dtype=np.int16)
    colours: list[tuple[int, ...]] = []
    scale = side / grid
    if "word" in description:
        word = description["word"]
        strokes = [np.asarray(flat, dtype=float).reshape(-1, 2) * scale for flat in word["strokes"]]
        labels[_stroke_mask(strokes, float(word["stroke"]) * scale / 2.0, side)] = 0
        colours.append(tuple(int(c) for c in word["colour"]))
    else:
        marks = [[np.asarray(flat, dtype=float).reshape(-1, 2) * scale for flat in mark["rings"]]
                 for mark in description["marks"]]
        labels = _fill_marks(marks, side)
        colours = [tuple(int(c) for c in mark["colour"]) for mark in description["marks"]]
    indexed = Image.frombytes("P", (side, side), (labels + 1).astype(np.uint8).tobytes())  # label -1: white
    indexed.putpalette([value for colour in [(255, 255, 255), *colours] for value in colour])
    drawn = np.asarray(indexed.convert("RGB"))
    if len(_RASTERS) > 24:
        _RASTERS.clear()
    _RASTERS[key] = (description, labels, drawn)
    return labels, drawn


def sketch(description: Mapping[str, Any], side: int, grid: int) -> np.ndarray:
    """The description drawn crudely (``side`` x ``side`` RGB, white background) by ``raster``."""
    return raster(description, side, grid)[1]


def _settled(labels: np.ndarray) -> np.ndarray:
    """Pixels whose eight neighbours carry their own label (away from every edge of a mark)."""
    edge = np.zeros(labels.shape, dtype=bool)
    across = labels[:, 1:] != labels[:, :-1]
    down = labels[1:, :] != labels[:-1, :]
    edge[:, 1:] |= across
    edge[:, :-1] |= across
    edge[1:, :] |= down
    edge[:-1, :] |= down
    near = edge.copy()  # grow by one pixel in all eight directions
    near[1:, :] |= edge[:-1, :]
    near[:-1, :] |= edge[1:, :]
    grown = near.copy()
    grown[:, 1:] |= near[:, :-1]
    grown[:, :-1] |= near[:, 1:]
    settled = ~grown
    settled[0, :] = settled[-1, :] = settled[:, 0] = settled[:, -1] = False
    return settled


def fidelity_misses(tile: np.ndarray, description: Mapping[str, Any], grid: int) -> int:
    """How many pixels of a panel (``tile``, RGB) away from the edges of its recorded marks disagree with the
    record: inside a mark but not its colour, or outside all marks but not blank (white), by more than
    COLOUR_SLACK in some channel."""
    labels, drawn = raster(description, tile.shape[0], grid)
    settled = _settled(labels)
    settled[:FRAME] = settled[-FRAME:] = False
    settled[:, :FRAME] = settled[:, -FRAME:] = False
    gap = ImageChops.difference(Image.fromarray(np.ascontiguousarray(tile)), Image.fromarray(drawn))
    r, g, b = gap.split()
    far = np.asarray(ImageChops.lighter(ImageChops.lighter(r, g), b)) > COLOUR_SLACK
    return int(np.count_nonzero(far & settled))


def ink_errors(tile: np.ndarray, description: Mapping[str, Any], grid: int) -> list[tuple[int, float]]:
    """Marks whose ink in the panel (``tile``, RGB) is not their recorded area: (mark, error in pixels per
    pixel of boundary) for each mark whose error lies outside INK_BIAS.  A pixel's ink is how far the darkest
    channel of the mark's colour went from white towards that colour.  Each pixel counts for one mark: its
    own, else the smallest mark whose box, grown by RIM pixels, holds it (the antialiased rim of a mark, and
    the hole of a container, belong to that mark)."""
    if "marks" not in description:
        return []
    side = tile.shape[0]
    labels, _ = raster(description, side, grid)
    marks = read_marks(description, grid)
    owner = labels.copy()
    windows = []
    for x0, y0, x1, y1 in shapely.bounds(np.array([p for p, _ in marks], dtype=object)).tolist():
        windows.append((max(0, math.floor(y0 * side) - RIM), min(side, math.ceil(y1 * side) + RIM),
                        max(0, math.floor(x0 * side) - RIM), min(side, math.ceil(x1 * side) + RIM)))
    sizes = [(r1 - r0) * (c1 - c0) for r0, r1, c0, c1 in windows]
    for k in sorted(range(len(marks)), key=lambda k: -sizes[k]):  # larger boxes first: smaller ones win
        r0, r1, c0, c1 = windows[k]
        view, free = owner[r0:r1, c0:c1], labels[r0:r1, c0:c1] < 0
        view[free] = k
    out = []
    for k, (polygon, colour) in enumerate(marks):
        r0, r1, c0, c1 = windows[k]
        channel = int(np.argmin(colour))
        mine = owner[r0:r1, c0:c1] == k
        ink = float((255.0 - tile[r0:r1, c0:c1, channel][mine]).sum()) / max(255.0 - colour[channel], 1.0)
        error = (ink - polygon.area * side * side) / (polygon.length * side)
        if not INK_BIAS[0] <= error <= INK_BIAS[1]:
            out.append((k, error))
    return out


def scene_failures(scene: Mapping[str, Any], image: Image.Image) -> list[str]:
    """What the base class does not check: a count of objects that singles out a panel when the concept is
    not the number (a shortcut, or a second odd one out), a mark whose outline is not of its recorded kind or a
    panel whose mixed colours or kinds are undecidable (``mixed_values``; a panel that alone mixes them, or
    alone does not, the solver already finds), and every option panel's pixels against its record
    (``fidelity_misses``, ``ink_errors``, ``word_misses``)."""
    failures = []
    letters = [chr(ord("A") + k) for k in range(len(scene["options"]))]
    concept = scene.get("concept")
    if concept != "number":
        counts = odd_one_out([row.get("number") for row in measure_scene(scene)])
        if counts is not None:
            failures.append(f"the number of objects singles out panel {letters[counts]} ({concept} item)")
    grid = int(scene.get("grid", 10000))
    for letter, description, (_, mixed, notes) in zip(letters, scene["options"], _scene_measures(scene), strict=True):
        if "marks" not in description:
            continue
        failures += [f"panel {letter}: {note}" for note in notes]
        failures += [f"panel {letter}: cannot tell whether it shows {name}" for name, value in mixed.items()
                     if value == UNDECIDED]
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    for letter, box, description in zip(letters, scene["option_boxes"], scene["options"], strict=True):
        left, top, right, bottom = (int(v) for v in box)
        if not (0 <= left < right <= rgb.width and 0 <= top < bottom <= rgb.height and right - left == bottom - top):
            failures.append(f"panel {letter}: box {box} does not fit the image")
            continue
        tile = np.asarray(rgb.crop((left, top, right, bottom)))
        if "word" in description:
            strokes, stray = word_misses(tile, description["word"], grid)
            failures += [f"panel {letter}: {missed} pixels inside stroke {k + 1} of its word are not its colour"
                         for k, missed in strokes]
            if stray:
                failures.append(f"panel {letter}: {stray} pixels away from the strokes of its word are not blank")
        misses = fidelity_misses(tile, description, grid)
        if misses > FIDELITY_SLACK:
            failures.append(f"panel {letter}: {misses} pixels away from the edges of its marks do not show its record")
        for k, error in ink_errors(tile, description, grid):
            failures.append(f"panel {letter}: mark {k + 1} carries {error:+.2f} px of ink per px of its outline "
                            "more than its recorded area")
    return failures
