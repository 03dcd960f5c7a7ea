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

import heapq
import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from PIL import Image

from bench_core import Item, option_letters
from bench_plugin_mindseye.attributes import (
    AMBIGUOUS,
    LINE_ATTRIBUTES,
    isolations,
    lookalike_pair,
)
from bench_plugin_mindseye.balancing import SizePlannedTask, balanced_sizes
from bench_plugin_mindseye.figure_checks import (
    LOOSE_APART,
    MIN_CROSSING_ANGLE,
    QuickLineFigure,
    clearly_asymmetric,
    has_half_disc,
    legible_corners,
    program_lines,
    stroke_ends,
)
from bench_plugin_mindseye.figure_families import (
    fam_bulged_polygon,
    fam_concave_polygon,
    fam_convex_polygon,
    fam_loop_path,
    fam_open_curve,
    fam_open_polyline,
    fam_pierced,
    fam_quadrangle,
    fam_regular_even,
    fam_regular_polygon,
    fam_round,
    fam_sector,
    fam_star,
    fam_star_polygon,
    fam_symmetric_open,
    fam_symmetric_polygon,
    fam_tailed,
    fam_triangle,
    fam_turn_polygon,
    fam_two_part,
    fam_x,
    line_families,
)
from bench_plugin_mindseye.layout import INK, Tile, grey_level
from bench_plugin_mindseye.near_misses import (
    edit_apex,
    edit_attach,
    edit_bend,
    edit_dent,
    edit_irregular,
    edit_open_gap,
    edit_recount,
    edit_reshape,
    edit_skew,
    edit_straighten,
    edit_uncross,
    edit_widen,
)
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.strokes import (
    Edit,
    Family,
    Figure,
    Stroke,
    arc_circle,
    arc_points,
    flatten,
    grey_features,
    ink_shape,
    place,
    turned_ink_shapes,
)
from bench_plugin_mindseye.verifiers import relation_abstraction as verifier

#: Stroke width of every figure, as a fraction of the panel side (>= 2 px at 600x800, whose panels are 176 px).
STROKE = 0.014
#: Figures are placed at FIT of the panel (their larger box side), then drawn at scales from
#: ``balanced_sizes`` (the largest 1), at most SIZE_RANGE apart; DRAWS candidate spacings per size order, each
#: step up to SIZE_GAP (on a log scale) beyond what the order needs, a random one of those that fit.
FIT = (0.72, 0.8)
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
#: A stroke end resting on another stroke's arc makes angles this task measures along the arc's chords, up to ~5
#: degrees off the arc's own tangent (what the verifier reads): such a junction is kept only when its exact angle is
#: within the first of these many degrees of a right angle or at least the second away from one, where no chord
#: error moves it across the measured band of "right" (4-11 degrees off) and the verifier's (7-8) differently.
ARC_JUNCTION_CLEAR = (1.0, 14.0)
#: Strokes closer than this (a fraction of the figure's size) touch, as ``LineFigure`` has it.
ARC_JUNCTION_TOUCH = 0.012
#: Panels are drawn at this multiple of their size and reduced with a box filter.
DRAW_SUPERSAMPLE = 2
#: The attributes ``LineFigure`` measures at the most cost (mirror symmetry, the smallest rectangle, the ink's
#: distance from its hull): a figure's wanted values among them are checked after the others.
COSTLY = ("symmetric", "thin", "convex")


# -- figure programs --------------------------------------------------------------------------------


def _turn_to(rng: np.random.Generator, figure: Figure, target: np.ndarray) -> tuple[float, float]:
    """An angle to turn the figure by, and how far its ink shape (``ink_shape``) then lies from ``target`` in units
    of SHAPE_SCALE: one at random of the angles on a grid of 2.5 degree steps within a unit of the target, else
    the closest.  The shape repeats every quarter turn, so the quarter is drawn at random too.  (``_negative``
    takes these turns in two steps, ``_Turning``; this is what they are held to.)"""
    turns = rng.uniform(0.0, np.pi / 72) + np.arange(36) * np.pi / 72
    shapes = turned_ink_shapes([flatten(s, 0.05) for s in figure], turns)
    misfit = np.hypot.reduce((shapes - target) / SHAPE_SCALE, axis=1)
    close = np.flatnonzero(misfit <= 1.0)
    pick = int(close[rng.integers(len(close))]) if len(close) else int(np.argmin(misfit))
    return float(turns[pick] + rng.integers(4) * np.pi / 2), float(misfit[pick])


def _turn_free_shape(polylines: Sequence[np.ndarray]) -> tuple[float, float]:
    """The columns of ``ink_shape`` that no turn changes, its elongation and the log of the length over the spread,
    in real arithmetic (``turned_ink_shapes`` has them in complex numbers: the same to rounding)."""
    a = np.concatenate([p[:-1] for p in polylines])
    b = np.concatenate([p[1:] for p in polylines])
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    length = np.hypot(bx - ax, by - ay)
    total = float(length.sum())
    cx = float((length * (ax + bx)).sum()) / (2 * total)
    cy = float((length * (ay + by)).sum()) / (2 * total)
    ux, uy, vx, vy = ax - cx, ay - cy, bx - cx, by - cy
    real = float((length * (ux * ux - uy * uy + ux * vx - uy * vy + vx * vx - vy * vy)).sum())
    imag = float((length * (2 * ux * uy + ux * vy + uy * vx + 2 * vx * vy)).sum())
    polar = float((length * (ux * ux + uy * uy + ux * vx + uy * vy + vx * vx + vy * vy)).sum()) / 3
    return math.hypot(real, imag) / 3 / polar, math.log(total) - math.log(polar / total) / 2


#: How far ``_turn_free_shape``'s misfit bound is lowered to cover its rounding (many orders of magnitude more).
_BOUND_SLACK = 1e-7


@attrs.define
class _Turning:
    """``_turn_to`` in two steps: its random draws and a lower bound on the misfit when the figure is drawn (from
    the columns of the ink shape that no turn changes), the best turn only when asked (``settle``).  A figure no
    turn can bring within a unit of the target takes the closest turn, which needs no draw beyond the grid's
    offset and the quarter, so the draws are those of ``_turn_to`` and so are the angle and misfit ``settle``
    gives; a figure that might come within a unit is settled at once, exactly as ``_turn_to`` does it."""

    lower: float
    angle: float = 0.0
    misfit: float | None = None
    turns: np.ndarray | None = None
    polylines: list[np.ndarray] | None = None
    quarter: Any = None
    target: np.ndarray | None = None

    @classmethod
    def of(cls, rng: np.random.Generator, figure: Figure, target: np.ndarray) -> _Turning:
        turns = rng.uniform(0.0, np.pi / 72) + np.arange(36) * np.pi / 72
        polylines = [flatten(s, 0.05) for s in figure]
        elongation, length = _turn_free_shape(polylines)
        lower = max(0.0, math.hypot((elongation - target[0]) / SHAPE_SCALE[0],
                                    (length - target[2]) / SHAPE_SCALE[2]) - _BOUND_SLACK)
        if lower <= 1.0:  # some turn may come within a unit: ``_turn_to`` itself
            shapes = turned_ink_shapes(polylines, turns)
            misfit = np.hypot.reduce((shapes - target) / SHAPE_SCALE, axis=1)
            close = np.flatnonzero(misfit <= 1.0)
            pick = int(close[rng.integers(len(close))]) if len(close) else int(np.argmin(misfit))
            return cls(lower, float(turns[pick] + rng.integers(4) * np.pi / 2), float(misfit[pick]))
        return cls(lower, turns=turns, polylines=polylines, quarter=rng.integers(4), target=target)

    def settle(self) -> None:
        """The closest turn (``_turn_to`` with no turn within a unit)."""
        if self.misfit is None:
            shapes = turned_ink_shapes(self.polylines, self.turns)
            misfit = np.hypot.reduce((shapes - self.target) / SHAPE_SCALE, axis=1)
            pick = int(np.argmin(misfit))
            self.angle, self.misfit = float(self.turns[pick] + self.quarter * np.pi / 2), float(misfit[pick])


def _place(rng: np.random.Generator, figure: Figure, angle: float | None = None) -> Figure:
    """The figure placed in its panel (``place``) at a random fraction FIT of it."""
    return place(figure, rng, rng.uniform(*FIT), angle)


# -- families of figures (raw coordinates, roughly the unit disc) ----------------------------------


# -- near-miss edits: each takes a positive-like figure and removes one attribute ---------------------


# -- concepts ---------------------------------------------------------------------------------------


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


#: The attribute vocabulary a figure must not be the odd one out by (unless it is the answer): the hint's, a
#: right angle and a loose end (issue 10: the only figure with a dangling stroke, and the only right triangle,
#: were second odd ones out).
VOCABULARY = (*LINE_ATTRIBUTES, "loose")


def _end_direction(stroke: Stroke, first: bool) -> np.ndarray:
    """The line along which an open stroke leaves its first (or last) point: its end edge, or that arc's tangent."""
    p = stroke.points
    a, b, bulge = (p[0], p[1], stroke.bulges[0]) if first else (p[-1], p[-2], stroke.bulges[len(p) - 2])
    if abs(float(bulge)) <= 1e-9:
        return b - a
    centre = arc_circle(p[0], p[1], float(bulge))[0] if first else arc_circle(p[-2], p[-1], float(bulge))[0]
    d = a - centre
    return np.array([-d[1], d[0]])


def arc_junction_offsets(strokes: Sequence[Stroke], size: float) -> list[float]:
    """For every open stroke's end that rests on another stroke's arc, how many degrees the exact angle there
    (between the end's line and the arc's tangent at the end) is off a right angle."""
    touch = ARC_JUNCTION_TOUCH * size
    offsets = []
    for k, stroke in enumerate(strokes):
        if stroke.closed or len(stroke.points) < 2:
            continue
        for first in (True, False):
            end = stroke.points[0] if first else stroke.points[-1]
            line = _end_direction(stroke, first)
            for j, other in enumerate(strokes):
                if j == k:
                    continue
                q, n = other.points, len(other.points)
                for i in range(n if other.closed else n - 1):
                    bulge = float(other.bulges[i])
                    if abs(bulge) <= 1e-9:
                        continue
                    centre, radius, _apex, _theta = arc_circle(q[i], q[(i + 1) % n], bulge)
                    d = end - centre
                    if abs(float(np.hypot(*d)) - radius) > touch:
                        continue
                    samples = arc_points(q[i], q[(i + 1) % n], bulge, ARC_CHORD)
                    gap = float(np.hypot(*np.diff(samples, axis=0).T).max())
                    if float(np.hypot(*(samples - end).T).min()) > touch + gap:
                        continue  # on the circle, not on the arc
                    tangent = np.array([-d[1], d[0]])
                    cosine = abs(float(line @ tangent)) / (float(np.hypot(*line)) * float(np.hypot(*tangent)))
                    offsets.append(float(np.degrees(np.arcsin(min(1.0, cosine)))))
    return offsets


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

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        """Five positives sharing the concept, one negative lacking it, checked for uniqueness."""
        concept_name = params.get("concept") or str(rng.choice(sorted(CONCEPTS)))
        concept = CONCEPTS[concept_name]
        side = self.layout(params["size"]).tile
        # the negative's place in the size order, uniform and kept through every redraw (``_scales``)
        rank, small_odd = (plan.rank, bool(plan.small_odd)) if plan else (int(rng.integers(self.option_count)),
                                                                          bool(rng.random() < 0.5))
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
        if want and isinstance(want.get("parts"), int) and want["parts"] > len(strokes):
            return None  # no more parts than strokes: two parts wanted of a single stroke need no measuring
        if not all(legible_corners(s) for s in strokes):
            return None  # unclear corners or spikes
        polylines = [flatten(s, ARC_CHORD) for s in strokes]
        measured = QuickLineFigure(polylines)
        wanted = sorted((k for k in want or {} if k in LINE_ATTRIBUTES), key=lambda k: k in COSTLY)
        if any(measured[k] != want[k] for k in wanted):  # the cheap ones first
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
        if any(ARC_JUNCTION_CLEAR[0] < off < ARC_JUNCTION_CLEAR[1]
               for off in arc_junction_offsets(strokes, measured.size)):
            return None  # an end on an arc at an angle its chords may misread (seed 1 item 37 of 0.2.2)
        if len(strokes) > 1 and any(np.abs(s.bulges).max() > 1e-9 for s in strokes if len(s.bulges)):
            # where a stroke meets an arc, the arc's samples bend its tangent by up to a sample's angle (a few
            # degrees; the verifier takes the arc's own tangent): the angles there must come out alike with arcs
            # sampled twice as finely
            fine = QuickLineFigure([flatten(s, ARC_CHORD / 2) for s in strokes])
            if any(fine[k] != values[k] for k in ("acute", "obtuse", "angle", "right")):
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
        # (misfit, or while unsettled its lower bound; draw; the turn; program; family; the near miss's base).  The
        # candidates are taken in the order of ``_turn_to``'s misfits (the draw breaking ties) without turning
        # most of them: a candidate is settled when its lower bound comes first, then put back in its place
        # (its misfit is no smaller), so only those measured, and those whose bound lies below a measured one's
        # misfit, are ever turned.
        pool: list[tuple[float, int, _Turning, Figure, str, Figure | None]] = []
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
                turning = _Turning.of(rng, figure, target)
                key_value = turning.misfit if turning.misfit is not None else turning.lower
                heapq.heappush(pool, (key_value, attempt * NEGATIVE_DRAWS + draw, turning, figure, family.__name__,
                                      base if near else None))
            last = attempt == NEGATIVE_ROUNDS - 1
            # close candidates first (no unsettled one is within a unit); all of them in the last round
            while pool and (last or pool[0][0] <= 1.0):
                _, number, turning, figure, family, base = heapq.heappop(pool)
                if turning.misfit is None:
                    turning.settle()
                    heapq.heappush(pool, (turning.misfit, number, turning, figure, family, base))
                    continue
                candidate = self._measure_placed(figure, _place(rng, figure, turning.angle), family, others)
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

        # every figure drawn at a scale once: (figure, scale) -> its drawing and features (the largest figure is
        # drawn at scale 1 by the first measurement and, mostly, by the next)
        seen: dict[tuple[int, float], tuple[Drawing, dict[str, float]]] = {}
        extents = [float(np.ptp(np.vstack(f.polylines), axis=0).max()) for f in figures]

        def measure(scales: np.ndarray) -> list[dict[str, float]]:
            out = []
            drawn.clear()  # only the last measurement's drawings can be the ones chosen
            for k, (f, s) in enumerate(zip(figures, scales, strict=True)):
                at = (k, float(s))
                if at not in seen:
                    drawing = Drawing.of(f.strokes, float(s), side)
                    seen[at] = drawing, {**grey_features(self._render(drawing, side)), "reach": float(s) * extents[k]}
                drawn[at], features = seen[at]
                out.append(dict(features))
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
            tile = Tile(side, supersample=DRAW_SUPERSAMPLE, grey=True)  # black strokes on white
            radius = drawing.width / 2.0
            ink = grey_level(INK)
            for poly in drawing.polylines:
                pts = [(float(x) * DRAW_SUPERSAMPLE, float(y) * DRAW_SUPERSAMPLE) for x, y in poly]
                tile.draw.line(pts, fill=ink, width=drawing.width, joint="curve")
                for x, y in (pts[0], pts[-1]):  # round caps (and the seam of closed strokes)
                    tile.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=ink)
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
