"""Symmetric Structures (SS, paper App. C and Table 11; spec §2.5): four line drawings A-D, three share one
symmetry and one lacks it; which is the odd one?

Every figure is a connected path of short strokes with random turns made symmetric the paper's way: the
path and its mirror image about an axis through the path's start (within 45 degrees of vertical or of
horizontal), or the path and its copies turned by 360/k degrees about its start (k = 2 or 4).  The odd figure
(template ``broken_copy``) is built the same way, with the same number of strokes and normalised to the same
size, but one copy takes a different turn at one stroke (in a four-fold figure two neighbouring copies, see
``twin_bend``), so only its symmetry gives it away (spec §2.5: the release's bare, half-size asymmetric path
was a visual shortcut).  Where the copy departs (in its first half,
two or three strokes from its end, or at its last stroke) sets how close to symmetric the odd figure is; how
far its strokes stay from any symmetry (``decisive_size``) must be at least ``MIN_DECISIVE_PX`` pixels as
drawn, so the decisive detail is never a hook of a few pixels.

The three conformers:

* ``perturbed_pair`` (the designated confound) - a conformer whose turn at the same stroke was retaken in
  every copy, so it stays symmetric: a model reacting to an odd-looking kink instead of checking the whole
  figure picks it;
* ``plain``, ``plain_alt`` - ordinary conformers.  (Version 0.1 had a ``tilted`` conformer, always drawn
  oblique while the odd figure mostly stood upright: orientation pointed at the answer.)

Leak guards (``bench audit`` looks at the options alone): every figure's axis (or first arm) is tilted
independently from one distribution (``orientations``), so orientation says nothing about the role; no figure
has crossing or touching strokes; the odd four-fold figure keeps a square box like its conformers; no figure's
stroke length or box area stands out.  The rest follows from the rule and is undone figure by figure:

* ink centre: a figure with a turn symmetry has its ink's mean at its box's centre, a bent one not, so every
  figure is drawn with its measured ink mean at a point drawn around the tile's centre (``centred``);
* elongation: a four-fold figure has isotropic second moments, so the odd one bends two neighbouring copies
  whose changes cancel (``twin_bend``); elsewhere a bent copy leaves a less elongated figure, so the odd
  figure's elongation is matched to a hidden conformer's (``elongation_target``) and none exceeds
  ELONGATION_CAP;
* size: the figures are drawn at different scales in one size order that the drawn ink and the ink's box both
  follow, each figure's place in it fixed before its shape is known, the odd figure's balanced over the items
  like the answer letter (``_sizes``), so neither points at the answer (largest, smallest, median, most
  atypical) more often than at any other figure.

Every panel is drawn from its scene description (``describe``: strokes quantised to 1e-4 tile units; wide lines
with a round disc at every corner, ``draw_strokes``).  The generator rejects early and draws in bulk where it can
without changing what it accepts: the odd figure's candidates are drawn and screened for elongation in batches
(``odd_figures``), a set of conformers that cannot follow the size order is turned down before the odd figure is
drawn (``may_fit``, on sizes worked out from the strokes, ``base_features``).  The
generator checks its figures on their vertices (conformers have no symmetry beyond the intended one, the odd
figure has none at all, by a clear margin).  Verify works from the record and the pixels alone
(``verifiers.symmetric_structures``): it finds each figure's mirror axes and turns from the recorded strokes
by its own code, and confirms that each panel's ink lies on its recorded strokes and nowhere else.
"""

from __future__ import annotations

import cmath
import functools
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely.geometry import MultiLineString

from bench_core import GenerationError, Item, ItemRandom, Problem, option_letters
from bench_plugin_mindseye import folding
from bench_plugin_mindseye.base import Choices, MindsEyeTask, TierValues, follows
from bench_plugin_mindseye.layout import BACKGROUND, INK, SUPERSAMPLE, grey_level, grey_palette_image
from bench_plugin_mindseye.nuisance import FRAME, INK_THRESHOLD, singled_out
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.verifiers import symmetric_structures as verifier

SYMMETRIES = ("vertical", "horizontal", "rot2", "rot4")
CLOSENESS = ("far", "mid", "near")
#: Per difficulty: strokes per copy (the paper's path has 10, "path complexity") and how near the odd figure
#: is to symmetric (spec §7.1 item 4: "segments and foil closeness").
DIFFICULTY_KNOBS = {"easy": (4, "far"), "medium": (6, "mid"), "hard": (8, "near")}

#: Figures are normalised so the longer side of their bounding box is 1, and drawn at most FILL of the tile wide
#: (the largest figure of an item; the others at their ``Figure.scale`` times that).
FILL = 0.84
STROKE = 0.017
#: Vertex clearance: a corner must stay this far from every stroke it does not belong to (normalised units),
#: so no two strokes touch or overlap and every corner reads as a corner.
CLEARANCE = 0.04
#: A symmetry the figure must not have must miss by at least this much (vertex Hausdorff, normalised units)
#: and its drawn strokes by at least DRAWN_MARGIN; the solver's tolerance is about 0.035.
VERTEX_MARGIN = 0.08
DRAWN_MARGIN = 0.06
TURN = (25.0, 75.0)  # magnitude range of a turn between strokes, degrees
#: The odd figure's decisive difference (``decisive_size``) must be at least this many pixels as drawn.
MIN_DECISIVE_PX = 12.0
#: No stroke's centre line reaches further than this from the tile's centre (tile units; see ``item_fill``),
#: before the figure is moved by a few pixels to centre its ink (``centred``).
HALF_SPAN = 0.45
#: Each figure's drawn ink is centred on a point drawn around the tile's centre with this standard deviation
#: (pixels; ``centred``), and ink is what the option audit counts: a pixel whose darkest channel is below this.
CENTRE_JITTER = 0.5
AUDIT_INK = 195
#: Size order (``_sizes``): each figure's features at least SIZE_STEP (relative) above the previous one's, the
#: scale a further SIZE_GAP (log) up, among SIZE_DRAWS tries the first whose largest scale is within SIZE_RANGE
#: of the smallest.
SIZE_STEP = 0.05
SIZE_GAP = (0.0, 0.12)
SIZE_RANGE = 1.6
SIZE_DRAWS = 64
#: The odd figure's elongation matches a conformer's within this (``elongation_target``), in ODD_DRAWS tries.
#: No figure is more elongated than ELONGATION_CAP: nearly straight two-fold and mirror figures (a quarter of
#: the conformers reach 0.96) have no odd counterpart, as a bent copy rarely leaves more than 0.95.
ELONGATION_MATCH = 0.02
ELONGATION_CAP = 0.93
ODD_DRAWS = 20
#: Draws of the four figures an item may take (each at most a few hundredths of a second; a draw whose conformers
#: cannot follow the size order ends before the odd figure is drawn, ``may_fit``).  The hardest cell (bent last
#: stroke, eight strokes, the odd figure the smallest) took 3.7 draws on average and at most 16 over 100 items
#: (25 per symmetry type; 5.3 and 26 before version 0.2.3 counted fewer, costlier draws), about one success in
#: four draws, so a failure within DRAWS has odds far below 1e-30; ``GenerationError`` then.
DRAWS = 400
LENGTH = (0.75, 1.25)  # stroke length range, path units
#: The odd four-fold figure's ink is isotropic within this (``second_moment``; rendering alone leaves about
#: 0.01 on a four-fold figure), adjusting its second bent copy by at most TWIN_ADJUST (degrees of its bend,
#: relative length of its last stroke; see ``twin_bend``).
ISOTROPY = 2e-4
TWIN_ADJUST = (15.0, 0.2)

TEXTS = PromptTexts(
    question=(
        "Look at the four line drawings labelled A, B, C and D. Most of them share one visual property; find it, "
        "then pick the one figure that does not have it."
    ),
    hint=(
        "Look at the symmetry of each figure: does it look the same when mirrored about some line, or when turned "
        "by a half or a quarter turn?"
    ),
    puzzle_type="symmetry detection and odd-one-out",
    elimination=(
        "which mirror axes does each figure have, and after what turn (half, quarter) does it look the same, if "
        "any; which of these symmetries do most figures share; which figure lacks it?"
    ),
)


@attrs.frozen
class Figure:
    """One drawing: polylines in normalised units (bounding box centred on the origin, longer side 1), the scale
    it is drawn at (the largest figure of an item 1; see ``SymmetricStructures._sizes``), the item's ``fill`` (a
    figure at scale 1 spans ``fill`` of the tile: FILL, or less where a figure centred on its ink would not fit;
    see ``item_fill``) and its ``shift`` off the tile's centre."""

    polylines: tuple[np.ndarray, ...] = attrs.field(eq=False)
    scale: float = 1.0
    fill: float = FILL
    #: Tile units by which the figure is drawn off the tile's centre (``centred``).
    shift: tuple[float, float] = (0.0, 0.0)
    #: The figure's drawing per tile side, as read-only grey levels, made once (``SymmetricStructures.grey_drawing``);
    #: a figure made from this one (``attrs.evolve``) starts without any.
    drawings: dict[int, np.ndarray] = attrs.field(factory=dict, eq=False, repr=False, init=False)

    @property
    def vertices(self) -> np.ndarray:
        return np.concatenate(self.polylines)


# -- construction ---------------------------------------------------------------------------------------------
def path_headings(rng: np.random.Generator, segments: int, start: float) -> np.ndarray:
    """Headings (degrees) of a random path: each stroke turns by 25-75 degrees left or right (the turn sizes drawn
    first, then their sides as ``_signs`` draws them).  The headings are the start plus the running sum of the
    turns, added up one by one in plain floats: the sums ``numpy.cumsum`` makes, in the same order."""
    magnitudes = rng.uniform(*TURN, size=segments - 1).tolist()
    lefts = rng.integers(0, 2, size=segments - 1).tolist()
    start = float(start)
    out, total = [0.0 + start], 0.0  # 0.0 + start as numpy adds it (a start of -0.0 gives 0.0)
    for magnitude, left in zip(magnitudes, lefts, strict=True):
        total += magnitude if left == 1 else -magnitude
        out.append(total + start)
    return np.array(out)


def _signs(rng: np.random.Generator, count: int) -> np.ndarray:
    """``rng.choice([-1.0, 1.0], size=count)``, the same values from the same draws (``choice`` picks by
    ``integers(0, 2)``), without ``choice``'s overhead."""
    return np.where(rng.integers(0, 2, size=count) == 1, 1.0, -1.0)


def trace(headings: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The path's vertices from the origin."""
    t = np.radians(headings)
    steps = np.column_stack([np.cos(t), np.sin(t)]) * lengths[:, None]
    return np.vstack([[0.0, 0.0], np.cumsum(steps, axis=0)])


def assemble(kind: str, orientation: float, path: np.ndarray, copies: Mapping[int, np.ndarray]) -> list[np.ndarray]:
    """The figure's polylines: ``path`` plus its symmetric copies (numbered from 1, the path itself 0), copy
    ``j`` drawn from ``copies[j]`` where given (none for a symmetric figure)."""
    if kind in ("vertical", "horizontal"):
        mirror = folding.reflection((0.0, 0.0), orientation)
        return [np.vstack([folding.apply(mirror, copies.get(1, path))[::-1], path[1:]])]
    if kind == "rot2":
        arms = [folding.apply(_HALF_TURNS[j], copies.get(j, path)) for j in range(2)]
        return [np.vstack([arms[1][::-1], arms[0][1:]])]
    return joined_arms([folding.apply(_QUARTER_TURNS[j], copies.get(j, path)) for j in range(4)])


#: The turns by 360 * j / k degrees about the origin (``folding.rotation``), j = 0 .. k - 1, for k = 2 and 4.
_HALF_TURNS = tuple(folding.rotation((0.0, 0.0), 360.0 * j / 2) for j in range(2))
_QUARTER_TURNS = tuple(folding.rotation((0.0, 0.0), 360.0 * j / 4) for j in range(4))


def joined_arms(arms: Sequence[np.ndarray]) -> list[np.ndarray]:
    """A four-fold figure's polylines from its four turned arms: opposite arms joined at the start."""
    return [np.vstack([arms[2][::-1], arms[0][1:]]), np.vstack([arms[3][::-1], arms[1][1:]])]


def normalise(polylines: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Polylines moved and scaled so their bounding box is centred on the origin with longer side 1."""
    v = np.concatenate(polylines)
    lo, hi = v.min(axis=0), v.max(axis=0)
    scale = float((hi - lo).max())
    return tuple((p - (lo + hi) / 2) / scale for p in polylines)


def segments_of(polylines: Sequence[np.ndarray]) -> np.ndarray:
    """All strokes as an (n, 2, 2) array."""
    return np.concatenate([np.stack([p[:-1], p[1:]], axis=1) for p in polylines])


def clear(polylines: Sequence[np.ndarray]) -> bool:
    """Every vertex keeps CLEARANCE from every stroke it is not an end of (crossings mid-stroke are fine)."""
    segs = segments_of(polylines)
    verts = np.round(np.concatenate(polylines), 9)  # repeated vertices leave the least distance as it is
    a, b = segs[:, 0], segs[:, 1]
    ab = b - a
    t = np.clip(((verts[:, None, :] - a[None]) * ab[None]).sum(-1) / (ab * ab).sum(-1)[None], 0.0, 1.0)
    d = np.linalg.norm(verts[:, None, :] - (a[None] + t[..., None] * ab[None]), axis=-1)
    is_end = (np.linalg.norm(verts[:, None, :] - a[None], axis=-1) < 1e-7) | (
        np.linalg.norm(verts[:, None, :] - b[None], axis=-1) < 1e-7)
    return bool(np.where(is_end, np.inf, d).min() >= CLEARANCE)


def crossings(polylines: Sequence[np.ndarray]) -> int:
    """How many pairs of strokes without a common end cross each other."""
    segs = segments_of(polylines)
    a, b = segs[:, 0], segs[:, 1]

    def side(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        cross = (q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1]) - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0])
        return np.sign(cross)

    i, j = _pairs_above(len(segs))
    share = np.zeros(len(i), dtype=bool)
    for u in (a, b):
        for w in (a, b):
            share |= np.linalg.norm(u[i] - w[j], axis=-1) < 1e-7
    cross = (side(a[i], b[i], a[j]) != side(a[i], b[i], b[j])) & (side(a[j], b[j], a[i]) != side(a[j], b[j], b[i]))
    return int((cross & ~share).sum())


@functools.lru_cache(maxsize=64)
def _pairs_above(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``numpy.triu_indices(n, 1)``, made once per ``n``."""
    i, j = np.triu_indices(n, 1)
    i.setflags(write=False)
    j.setflags(write=False)
    return i, j


# -- the generator's symmetry audit (on vertices) -----------------------------------------------------------------
_AXES = np.arange(0.0, 180.0, 1.0)
_TURNS = tuple(360.0 * j / k for k in range(2, 7) for j in range(1, k))


_AXIS_COS2, _AXIS_SIN2 = np.cos(np.radians(2 * _AXES)), np.sin(np.radians(2 * _AXES))
#: The turns of ``_TURNS`` about the origin, made once (``folding.rotation``): their linear parts side by side, as
#: one (2, 2 * turns) matrix that turns an (n, 2) array of points by all of them in one product (what
#: ``folding.apply`` computes turn by turn), and their offsets.
_TURN_MAPS = tuple(folding.rotation((0.0, 0.0), angle) for angle in _TURNS)
_TURN_LINEAR = np.concatenate([m[:2, :2].T for m in _TURN_MAPS], axis=1)
_TURN_OFFSETS = np.stack([m[:2, 2] for m in _TURN_MAPS])[:, None, :]


def corner_set(polylines: Sequence[np.ndarray]) -> np.ndarray:
    """The figure's distinct corner points (rounded to 1e-9, so a corner shared by two polylines counts once)."""
    return np.unique(np.round(np.concatenate(polylines), 9), axis=0)


def axis_defects(rel: np.ndarray, which: np.ndarray) -> np.ndarray:
    """For the mirror axes ``_AXES[which]`` through the origin: the symmetric Hausdorff distance between the
    corner points ``rel`` (about their mean) and their mirror images.  Every axis's number comes from its own
    entries alone (element by element, and a product of two terms per entry), so it is the same whichever other
    axes are measured with it (``least_misses`` relies on that; its test holds the two to the bit).

    The images of every mirror come from one matrix product (the same sums of two products as one product per
    mirror), and square roots are taken after the least and largest squared distances are found (the root keeps
    the order of its arguments, so the result is the same)."""
    n = len(rel)
    c2, s2 = _AXIS_COS2[which], _AXIS_SIN2[which]
    mirrored = np.stack([c2[:, None] * rel[None, :, 0] + s2[:, None] * rel[None, :, 1],
                         s2[:, None] * rel[None, :, 0] - c2[:, None] * rel[None, :, 1]], axis=-1)
    # |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, with one product instead of an (axes, n, n, 2) array
    sq = (rel * rel).sum(axis=1)
    d2 = sq[None, :, None] + sq[None, None, :] - 2.0 * (mirrored.reshape(-1, 2) @ rel.T).reshape(len(c2), n, n)
    return np.sqrt(np.maximum(d2.min(axis=2).max(axis=1), 0.0))


def turn_defects(rel: np.ndarray) -> dict[float, float]:
    """Per turn of ``_TURNS`` about the origin: the symmetric Hausdorff distance between the corner points
    ``rel`` (about their mean) and their turned images, every turned copy made and measured at once."""
    n = len(rel)
    turned = (rel @ _TURN_LINEAR).reshape(n, len(_TURNS), 2).transpose(1, 0, 2) + _TURN_OFFSETS
    dx = turned[:, :, None, 0] - rel[None, None, :, 0]
    dy = turned[:, :, None, 1] - rel[None, None, :, 1]
    dd = dx * dx + dy * dy
    misses = np.sqrt(np.maximum(dd.min(axis=1).max(axis=1), dd.min(axis=2).max(axis=1)))
    return {angle: float(d) for angle, d in zip(_TURNS, misses, strict=True)}


#: ``least_misses`` measures every AXIS_STEP-th axis of ``_AXES`` first and bounds the others from the nearest
#: measured one; AXIS_SLACK covers the float rounding of a measured distance (at most a few 1e-8).
AXIS_STEP = 4
AXIS_SLACK = 1e-6
_AXIS_STEP_RADIANS = math.radians(float(_AXES[1] - _AXES[0]))
_COARSE_AXES = np.arange(0, len(_AXES), AXIS_STEP)
#: Per axis of ``_AXES``: the nearest axis of ``_COARSE_AXES`` (round the half circle of axes) and how many axis
#: steps it lies away.
_AXIS_NEAREST = _COARSE_AXES[np.argmin(np.minimum(
    np.abs(np.arange(len(_AXES))[:, None] - _COARSE_AXES[None, :]),
    len(_AXES) - np.abs(np.arange(len(_AXES))[:, None] - _COARSE_AXES[None, :])), axis=1)]
_AXIS_OFF = np.minimum(np.abs(np.arange(len(_AXES)) - _AXIS_NEAREST),
                       len(_AXES) - np.abs(np.arange(len(_AXES)) - _AXIS_NEAREST))


def least_misses(rel: np.ndarray, axes_left: np.ndarray, turn_misses: np.ndarray, count: int,
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The misses of the axes ``axes_left`` (indices into ``_AXES``) followed by ``turn_misses``, exact wherever
    they can be among the ``count`` least (every other one +inf), and the indices of the ``count`` least in
    the stable order of the exact misses: the same indices and values as measuring every axis
    (``axis_defects``) and sorting all of them.

    Every AXIS_STEP-th axis is measured; an axis in between is at least the nearest measured one's miss less
    twice the corners' reach times the angle between the axes (turning a mirror's axis by an angle turns every
    image point about the centre by twice that angle, and no point's nearest corner moves further than the point
    does).  Axes whose bound is not above the ``count``-th least exact miss are measured, until none is left:
    the rest are all further than ``count`` exact misses, so none of them is among the least, ties included."""
    reach = float(np.sqrt((rel * rel).sum(axis=1)).max())
    coarse = axis_defects(rel, _COARSE_AXES)
    measured = np.full(len(_AXES), np.nan)
    measured[_COARSE_AXES] = coarse
    bound = measured[_AXIS_NEAREST] - 2.0 * reach * _AXIS_STEP_RADIANS * _AXIS_OFF * (1.0 + 1e-9) - AXIS_SLACK
    exact = _AXIS_OFF == 0
    distance = np.concatenate([np.where(exact[axes_left], measured[axes_left], np.inf), turn_misses])
    lower = np.where(exact[axes_left], -np.inf, bound[axes_left])  # -inf: measured
    lower = np.concatenate([lower, np.full(len(turn_misses), -np.inf)])
    while True:
        kth = np.partition(distance, count - 1)[count - 1] if len(distance) >= count else np.inf
        open_ = np.flatnonzero(np.isinf(distance) & (lower <= kth) & (lower > -np.inf))
        if not len(open_):
            break
        distance[open_] = axis_defects(rel, axes_left[open_])
        lower[open_] = -np.inf
    return distance, np.argsort(distance, kind="stable")[:count]


def allowed(kind: str | None, orientation: float) -> tuple[list[float], set[float]]:
    """The mirror axes (degrees) and turns a figure of ``kind`` built along ``orientation`` has."""
    if kind in ("vertical", "horizontal"):
        return [orientation % 180.0], set()
    if kind == "rot2":
        return [], {180.0}
    if kind == "rot4":
        return [], {90.0, 180.0, 270.0}
    return [], set()


def symmetry_audit(polylines: Sequence[np.ndarray], kind: str | None, orientation: float) -> float | None:
    """The smallest miss over the symmetries the figure must NOT have (None if it has one of them, or lacks
    its own).  ``kind`` None means the figure must have no symmetry at all.  The misses are how far the corner
    set is from mapping onto itself under each mirror (``axis_defects``) and turn (``turn_defects``) about the
    corners' mean; only the axes that can be among the four least are measured (``least_misses``)."""
    v = corner_set(polylines)
    centre = v.mean(axis=0)
    rel = v - centre
    turns = turn_defects(rel)
    own_axes, own_turns = allowed(kind, orientation)
    for axis in own_axes:  # the intended symmetry must be exact
        if _hausdorff(v, folding.apply(folding.reflection(centre, axis), v)) > 1e-6:
            return None
    if any(turns[t] > 1e-6 for t in own_turns):
        return None
    # axes a few degrees off the figure's own axis nearly fit too; a second true axis that close is impossible
    near_own = np.zeros(len(_AXES), dtype=bool)
    for o in own_axes:
        near_own |= np.minimum(np.abs(_AXES - o), 180.0 - np.abs(_AXES - o)) < 10.0
    other_turns = [t for t in turns if t not in own_turns]
    # the misses, axes (in order) then turns, smallest first (a stable sort keeps ties in that order)
    left = np.flatnonzero(~near_own)
    axes_left = _AXES[left]
    distance, closest = least_misses(rel, left, np.array([turns[t] for t in other_turns]), 4)
    if distance[closest[0]] < VERTEX_MARGIN:
        return None
    # the strokes themselves must miss too, checked for the closest candidates: where the corners' images alone
    # stay DRAWN_MARGIN from the strokes (``_exact_bounds``, a lower bound of the distance measured), they do
    which = np.array([round(2.0 * float(axes_left[k])) if k < len(axes_left) else
                      _FINE_COUNT + _TURNS.index(other_turns[k - len(axes_left)]) for k in closest])
    sure = _exact_bounds(v, centre, segments_of(polylines), which) >= DRAWN_MARGIN
    lines = MultiLineString([p.tolist() for p in polylines]) if not sure.all() else None
    for k in closest[~sure]:
        m = folding.reflection(centre, float(axes_left[k])) if k < len(axes_left) else \
            folding.rotation(centre, other_turns[k - len(axes_left)])
        if shapely.hausdorff_distance(lines, folding.transform(lines, m), densify=0.1) < DRAWN_MARGIN:
            return None
    return float(distance[closest[0]])


def _hausdorff(a: np.ndarray, b: np.ndarray) -> float:
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=-1)
    return float(max(d.min(axis=0).max(), d.min(axis=1).max()))


# -- generation -----------------------------------------------------------------------------------------------
def bend_site(rng: np.random.Generator, segments: int, closeness: str) -> int:
    """The stroke (0-based, never the first) from which the odd figure's bent copy departs: the last stroke
    (near), one of the last two or three (mid), or one in the first half (far)."""
    if closeness == "near":
        return segments - 1
    if closeness == "mid":
        return int(rng.integers(max(1, segments - 3), max(2, segments - 1)))
    # never the first stroke: turning a whole mirror copy about the junction is just a tilted mirror
    return int(rng.integers(1, max(2, (segments + 1) // 2 + 1)))


def retake_turn(rng: np.random.Generator, headings: np.ndarray, at: int) -> tuple[np.ndarray, float]:
    """The headings with the turn before stroke ``at`` drawn afresh from the same distribution as every turn,
    at least 40 degrees away from the old one (so bent paths are no more or less curly than straight ones)."""
    old = float(headings[at] - headings[at - 1])
    while True:
        new = float(rng.uniform(*TURN) * (1.0 if rng.integers(0, 2) else -1.0))  # rng.choice([-1.0, 1.0])
        if abs(new - old) >= 40.0:
            break
    out = headings.copy()
    out[at:] += new - old
    return out, new - old


def make_figure(rng: np.random.Generator, kind: str, segments: int, orientation: float, start: float,
                broken: int | None, pair: int | None, elongation: tuple[float, float] = (0.0, math.inf),
                ) -> tuple[tuple[np.ndarray, ...], dict[str, Any]] | None:
    """One normalised figure of symmetry ``kind``: symmetric, or with one copy taking a different turn at
    stroke ``broken``, or with the turn at stroke ``pair`` retaken in every copy (still symmetric).  None if
    the draw fails a check (a flat corner, an elongation (``second_moment``) outside ``elongation``, touching or
    crossing strokes).

    Every random number is drawn before the first check, so the checks' order changes only the time a rejected
    draw costs: the cheap, often failing elongation test comes before the pairwise stroke tests."""
    headings = path_headings(rng, segments, start)
    lengths = rng.uniform(*LENGTH, size=segments)
    copy_headings = headings
    latent: dict[str, Any] = {}
    if pair is not None:
        headings, delta = retake_turn(rng, headings, pair)
        copy_headings = headings
        latent["bend"] = {"stroke": pair + 1, "degrees": round(delta, 1)}
    if broken is not None:
        copy_headings, delta = retake_turn(rng, headings, broken)
        latent["break"] = {"stroke": broken + 1, "degrees": round(delta, 1)}
    if flat_corner(headings) or (copy_headings is not headings and flat_corner(copy_headings)):
        return None  # keep every corner visible and no stroke folding back on the previous one
    which = int(rng.integers(1, 4)) if kind == "rot4" else 1
    if not (kind == "rot4" and broken is not None):
        # the elongation test on the strokes' ends alone, before any array is built: most odd draws fail it
        quick = quick_elongation(kind, orientation, headings, copy_headings, lengths, which,
                                 0 if broken is None else broken)
        if not elongation[0] - QUICK_SLACK <= quick <= elongation[1] + QUICK_SLACK:
            return None
    return finish_figure(kind, orientation, headings, copy_headings, lengths, which, broken, latent, elongation)


def finish_figure(kind: str, orientation: float, headings: np.ndarray, copy_headings: np.ndarray,
                  lengths: np.ndarray, which: int, broken: int | None, latent: dict[str, Any],
                  elongation: tuple[float, float]) -> tuple[tuple[np.ndarray, ...], dict[str, Any]] | None:
    """``make_figure``'s figure from its drawn numbers (the path's ``headings`` and ``lengths``, copy ``which``
    along ``copy_headings``), once they have passed its corner and quick elongation tests: the polylines
    assembled and normalised (the odd four-fold one by ``twin_bend``), then the exact elongation, stroke clearance,
    crossing and box tests.  None if one fails."""
    path = trace(headings, lengths)
    if kind == "rot4" and broken is not None:
        twin = twin_bend(path, copy_headings, lengths, broken, which)
        if twin is None:
            return None
        polylines, latent["break"]["twin"] = twin
    else:
        polylines = normalise(assemble(kind, orientation, path, {which: trace(copy_headings, lengths)}))
    if not elongation[0] <= abs(second_moment(polylines)) <= elongation[1]:
        return None
    # no touching strokes and no crossings: a crossing is a salient feature that symmetric and bent figures
    # would not share evenly (it made the odd figure the unique crosser 41% of the time instead of 25%)
    if not clear(polylines) or crossings(polylines):
        return None
    if broken is not None and kind == "rot4":
        v = np.concatenate(polylines)
        w, h = v.max(axis=0) - v.min(axis=0)
        if min(w, h) < 0.97:
            return None  # a four-fold figure has a square box; the odd one must not stand out by its box
    return polylines, latent


def flat_corner(headings: np.ndarray) -> bool:
    """Some corner of the path with these headings (degrees) turns by less than 20 degrees (a corner hard to see)
    or more than 150 (a stroke folding back on the previous one)."""
    for before, after in itertools.pairwise(headings.tolist()):
        turn = abs((after - before + 180.0) % 360.0 - 180.0)
        if turn < 20.0 or turn > 150.0:
            return True
    return False


def second_moment(polylines: Sequence[np.ndarray]) -> complex:
    """The strokes' second moment about their centroid as a complex number, sum over the wire of (z - c)^2 with
    z = x + iy, over the polar moment (sum of |z - c|^2): its modulus is the elongation of the ink (0 when the
    ink has no principal direction, as every figure with a turn symmetry of order 3 or more), its argument twice
    the principal direction."""
    segs = segments_of(polylines)
    a, b = segs[:, 0, 0] + 1j * segs[:, 0, 1], segs[:, 1, 0] + 1j * segs[:, 1, 1]
    length = np.abs(b - a)
    centre = (length * (a + b)).sum() / (2 * length.sum())
    a, b = a - centre, b - centre
    m2 = (length * (a * a + a * b + b * b)).sum() / 3
    polar = (length * (np.abs(a) ** 2 + (a * np.conj(b)).real + np.abs(b) ** 2)).sum() / 3
    return complex(m2 / polar)


#: ``quick_elongation`` agrees with ``abs(second_moment(...))`` to float rounding (about 1e-14): a draw is turned
#: down on it only when it misses the elongation window by more than this, so every draw it turns down the exact
#: test would turn down too, and every other draw still takes the exact test.
QUICK_SLACK = 1e-9


def quick_elongation(kind: str, orientation: float, headings: np.ndarray, copy_headings: np.ndarray,
                     lengths: np.ndarray, which: int, shared: int = 0) -> float:
    """``abs(second_moment(...))`` of the symmetric or singly bent figure ``make_figure`` assembles from these
    headings (copy ``which`` drawn from ``copy_headings``), in plain complex arithmetic on the strokes: no
    polyline is built or normalised (moving and scaling leave the measure as it is).  The wire sums of the path
    and of the bent path are taken once about the path's start (``_path_sums``; the first ``shared`` strokes,
    which the two must have in common, summed once); every copy is the path turned (or mirrored) about that start,
    which turns (or mirrors) its sums, and the total is moved to the centroid at the end (``second_moment`` sums
    about the centroid); the two differ by float rounding alone."""
    turns, strokes = headings.tolist(), lengths.tolist()
    head = _running_sums(turns[:shared], strokes[:shared])
    plain = _path_sums(_running_sums(turns[shared:], strokes[shared:], head))
    bent = plain if copy_headings is headings else \
        _path_sums(_running_sums(copy_headings.tolist()[shared:], strokes[shared:], head))
    if kind in ("vertical", "horizontal"):
        axis = cmath.rect(1.0, 2.0 * math.radians(orientation))  # the mirror: z -> e^(2i angle) conj(z)
        arms = [(plain, 1.0, False), (bent, axis, True)]
    else:
        k = 2 if kind == "rot2" else 4
        arms = [(bent if j == which else plain, cmath.rect(1.0, 2.0 * math.pi * j / k), False) for j in range(k)]
    total, first, second, polar = 0.0, 0j, 0j, 0.0
    for (length, arm_first, arm_second, arm_polar), turn, mirrored in arms:
        if mirrored:
            arm_first, arm_second = arm_first.conjugate(), arm_second.conjugate()
        total += length
        first += turn * arm_first
        second += turn * turn * arm_second
        polar += arm_polar
    centre = first / total
    return abs((second - total * centre * centre) / (polar - total * (centre.real ** 2 + centre.imag ** 2)))


#: The running wire sums of no stroke at all (``_running_sums``).
_NO_WIRE = (0j, 0.0, 0j, 0j, 0.0)


def _running_sums(headings: Sequence[float], lengths: Sequence[float],
                  state: tuple[complex, float, complex, complex, float] = _NO_WIRE,
                  ) -> tuple[complex, float, complex, complex, float]:
    """``state`` (the end of a path and its running sums: length, twice the sum of z, three times the sums of z^2
    and |z|^2) with strokes of these headings (degrees) and lengths added at its end, one by one: a path summed in
    two parts gives the very numbers it gives in one."""
    a, total, first, second, polar = state
    for heading, length in zip(headings, lengths, strict=True):
        b = a + cmath.rect(length, math.radians(heading))
        total += length
        first += length * (a + b)
        second += length * (a * a + a * b + b * b)
        polar += length * (a.real * a.real + a.imag * a.imag + a.real * b.real + a.imag * b.imag
                           + b.real * b.real + b.imag * b.imag)
        a = b
    return a, total, first, second, polar


def _path_sums(state: tuple[complex, float, complex, complex, float]) -> tuple[float, complex, complex, float]:
    """The wire sums of a path from the origin summed into ``state`` (``_running_sums``): its length, the sums over
    it of z, of z^2 and of |z|^2 (exact for straight strokes: length times (a + b) / 2, (a^2 + ab + b^2) / 3 and
    (|a|^2 + a.b + |b|^2) / 3 for a stroke from a to b)."""
    _, total, first, second, polar = state
    return total, first / 2, second / 3, polar / 3


def twin_bend(path: np.ndarray, bent_headings: np.ndarray, lengths: np.ndarray, broken: int, which: int,
              ) -> tuple[tuple[np.ndarray, ...], dict[str, float]] | None:
    """The odd four-fold figure: copies ``which`` and the next one bent at stroke ``broken``, the second's bend
    and last stroke adjusted a little so the figure's ink keeps isotropic second moments (``second_moment`` 0
    within ISOTROPY), like every figure with a four-fold turn; None if that needs more than TWIN_ADJUST.

    A four-fold figure has no principal direction, and one bent copy gives the odd figure one (the option
    audit's most elongated figure found it 38% of the time in four-fold items).  A bend changes its copy's
    second moment about the turn centre by some complex z, and the same bend in the copy turned by 90 degrees by
    i^2 z = -z, so two neighbouring copies bent alike cancel; what is left comes from the shift of the centroid
    (up to a few hundredths for a bend early in the copy), and a Newton step or three on the second copy's bend
    (degrees) and the length of its last stroke (relative) cancels it.  Two bent neighbours leave no turn or
    mirror symmetry, and miss each by as much as one bent copy does.

    Most searches fail (three in four draws); ``twin_search_fails`` tells most of them on the wire sums first."""
    if twin_search_fails(path, bent_headings, lengths, broken, which):
        return None
    # the arms no adjustment moves (``assemble``'s), turned once; only the second bent copy is turned per step
    second = (which + 1) % 4
    fixed = [folding.apply(_QUARTER_TURNS[j], trace(bent_headings, lengths) if j == which else path)
             for j in range(4)]

    def figure(x: np.ndarray) -> list[np.ndarray]:
        headings = bent_headings.copy()
        headings[broken:] += x[0]
        stretched = lengths.copy()
        stretched[-1] *= 1.0 + x[1]
        arms = list(fixed)
        arms[second] = folding.apply(_QUARTER_TURNS[second], trace(headings, stretched))
        return joined_arms(arms)

    def residual(x: np.ndarray) -> np.ndarray:
        m = second_moment(figure(x))
        return np.array([m.real, m.imag])

    x = np.zeros(2)
    for _ in range(5):
        r = residual(x)
        if np.hypot(*r) < ISOTROPY:
            break
        jacobian = np.column_stack([(residual(x + h) - r) / h[k] for k, h in enumerate(np.diag([0.5, 0.01]))])
        try:
            x = x - np.linalg.solve(jacobian, r)
        except np.linalg.LinAlgError:
            return None
    else:
        return None
    if abs(x[0]) > TWIN_ADJUST[0] or abs(x[1]) > TWIN_ADJUST[1]:
        return None
    return normalise(figure(x)), {"copies": [which, second], "extra_degrees": round(float(x[0]), 2),
                                  "last_stroke_scale": round(1.0 + float(x[1]), 4)}


#: ``twin_search_fails`` calls a verdict only when every number it rests on clears its threshold by this
#: (relative) margin, far beyond what float rounding moves it by, and only while every Jacobian's condition
#: stays below SCREEN_CONDITION (so rounding cannot grow through the Newton steps).
SCREEN_MARGIN = 1e-6
SCREEN_CONDITION = 1e6
_QUARTER_FACTORS = (1.0 + 0j, 1j, -1.0 + 0j, -1j)


def twin_search_fails(path: np.ndarray, bent_headings: np.ndarray, lengths: np.ndarray, broken: int,
                      which: int) -> bool:
    """True when ``twin_bend``'s search surely fails: the same Newton steps (same start, steps, stopping rule
    and limits) run on the figure's wire sums (``_wire_sums``: every copy's sums turned by i^j, no polyline
    assembled; the adjusted copy's strokes before ``broken`` summed once), which give its ``second_moment`` to
    float rounding, either never reach ISOTROPY or end beyond TWIN_ADJUST, every deciding comparison clearing
    its threshold by SCREEN_MARGIN.  False when the search may succeed or a comparison is too close to call:
    ``twin_bend`` then searches on the polylines."""
    second = (which + 1) % 4
    headings, strokes = bent_headings.tolist(), lengths.tolist()
    corners = path.tolist()
    plain = _wire_sums([complex(x, y) for x, y in corners], (0.0, 0j, 0j, 0.0))
    bent_points = _walk(0j, headings[:broken], strokes[:broken])
    head = _wire_sums(bent_points, (0.0, 0j, 0j, 0.0))  # the bent copies' common strokes before ``broken``
    bent = _wire_sums(_walk(bent_points[-1], headings[broken:], strokes[broken:]), head)
    total, first, square, polar = 0.0, 0j, 0j, 0.0
    for j in range(4):
        if j != second:
            length, arm_first, arm_square, arm_polar = bent if j == which else plain
            w = _QUARTER_FACTORS[j]
            total, first, square = total + length, first + w * arm_first, square + w * w * arm_square
            polar += arm_polar
    turn = _QUARTER_FACTORS[second]

    def residual(x: tuple[float, float]) -> tuple[float, float]:
        tail = [length * (1.0 + x[1]) if k == len(strokes) - 1 else length
                for k, length in enumerate(strokes) if k >= broken]
        length, arm_first, arm_square, arm_polar = _wire_sums(
            _walk(bent_points[-1], [h + x[0] for h in headings[broken:]], tail), head)
        t, f = total + length, first + turn * arm_first
        q, p = square + turn * turn * arm_square, polar + arm_polar
        centre = f / t
        m = (q - t * centre * centre) / (p - t * (centre.real**2 + centre.imag**2))
        return m.real, m.imag

    x = (0.0, 0.0)
    for _ in range(5):
        r = residual(x)
        size = math.hypot(*r)
        if abs(size - ISOTROPY) <= SCREEN_MARGIN * ISOTROPY:
            return False
        if size < ISOTROPY:
            break
        a, b = residual((x[0] + 0.5, x[1])), residual((x[0], x[1] + 0.01))
        j11, j21, j12, j22 = (a[0] - r[0]) / 0.5, (a[1] - r[1]) / 0.5, (b[0] - r[0]) / 0.01, (b[1] - r[1]) / 0.01
        det = j11 * j22 - j12 * j21
        if abs(det) * SCREEN_CONDITION <= j11 * j11 + j12 * j12 + j21 * j21 + j22 * j22:
            return False  # near singular: its condition number is about the sum of squares over the determinant
        x = (x[0] - (j22 * r[0] - j12 * r[1]) / det, x[1] - (j11 * r[1] - j21 * r[0]) / det)
    else:
        return True
    return any(abs(value) > limit * (1.0 + SCREEN_MARGIN) for value, limit in zip(x, TWIN_ADJUST, strict=True))


def _walk(start: complex, headings: Sequence[float], lengths: Sequence[float]) -> list[complex]:
    """The corners of strokes with these headings (degrees) and lengths from ``start``, ``start`` first."""
    points = [start]
    for heading, length in zip(headings, lengths, strict=True):
        points.append(points[-1] + cmath.rect(length, math.radians(heading)))
    return points


def _wire_sums(points: Sequence[complex], sums: tuple[float, complex, complex, float],
               ) -> tuple[float, complex, complex, float]:
    """``sums`` (a length and the sums of z, z^2 and |z|^2 over a wire, as ``_path_sums`` takes them) with the
    polyline through ``points`` added."""
    total, first, second, polar = sums
    for a, b in itertools.pairwise(points):
        length = abs(b - a)
        total += length
        first += length * (a + b) / 2
        second += length * (a * a + a * b + b * b) / 3
        polar += length * (a.real * a.real + a.imag * a.imag + a.real * b.real + a.imag * b.imag + b.real * b.real
                           + b.imag * b.imag) / 3
    return total, first, second, polar


def draw_figure(rng: np.random.Generator, kind: str, segments: int, orientation: float,
                broken: int | None, pair: int | None, odd: bool, elongation: tuple[float, float] = (0.0, 1.0),
                tries: int = 80) -> tuple[tuple[np.ndarray, ...], dict[str, Any]] | None:
    """A figure that passes the symmetry audit: none at all if ``odd``, else exactly ``kind`` (``tries`` draws),
    with its elongation (``second_moment``) in ``elongation`` and, whatever its role, at most ELONGATION_CAP."""
    window = (elongation[0], min(elongation[1], ELONGATION_CAP))
    for _ in range(tries):
        made = make_figure(rng, kind, segments, orientation, start_heading(rng, kind, orientation), broken, pair,
                           window)
        if made is None:
            continue
        miss = symmetry_audit(made[0], None if odd else kind, orientation)
        if miss is not None:
            made[1]["nearest_missing_symmetry"] = round(miss, 4)
            return made
    return None


#: The odd mirror and two-fold figures are drawn in batches (``odd_figures``): the first ODD_BATCH candidates, then
#: twice as many each time up to ODD_BATCH_MAX, until ODD_DRAWS * ODD_TRIES candidates have been drawn.
ODD_BATCH = 64
ODD_BATCH_MAX = 512
ODD_TRIES = 100


def retaken_turns(rng: np.random.Generator, old: np.ndarray) -> np.ndarray:
    """Per old turn (degrees, signed): a new turn uniform over the turns ``retake_turn`` allows (magnitude in TURN,
    either sign, at least 40 degrees from the old one), one uniform number each.  ``retake_turn`` draws a magnitude
    and a side, both uniform, until one is far enough from the old turn: a uniform draw over the two intervals
    of TURN kept only where it lands outside (old - 40, old + 40), that is uniform over what is left of them.
    Here what is left is four pieces (each interval less the open one, on either side of it, some empty) and the
    uniform number is laid along them."""
    low, high = TURN
    old = np.asarray(old, dtype=float)
    starts = np.stack([np.full_like(old, -high), np.maximum(-high, old + 40.0),
                       np.full_like(old, low), np.maximum(low, old + 40.0)], axis=-1)
    ends = np.stack([np.minimum(-low, old - 40.0), np.full_like(old, -low),
                     np.minimum(high, old - 40.0), np.full_like(old, high)], axis=-1)
    pieces = np.maximum(ends - starts, 0.0)
    reach = np.cumsum(pieces, axis=-1)
    u = rng.random(old.shape) * reach[..., -1]
    # the piece u falls on (an empty piece ends where the previous one does, so u is never on one), at most the
    # last non-empty piece (u rounded up onto the very end)
    last = 3 - np.argmax(pieces[..., ::-1] > 0, axis=-1)
    k = np.minimum((u[..., None] >= reach).sum(axis=-1), last)[..., None]
    piece = np.take_along_axis(pieces, k, axis=-1)[..., 0]
    offset = u - np.take_along_axis(reach, k, axis=-1)[..., 0] + piece
    return np.take_along_axis(starts, k, axis=-1)[..., 0] + np.clip(offset, 0.0, piece)


def _batch_sums(headings: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per row: the wire sums of the path from the origin with these headings (degrees) and lengths, as
    ``_path_sums`` gives them (length, sums of z, z^2 and |z|^2 over the wire), on arrays."""
    steps = lengths * np.exp(1j * np.radians(headings))
    z = np.concatenate([np.zeros((len(steps), 1), dtype=complex), np.cumsum(steps, axis=1)], axis=1)
    a, b = z[:, :-1], z[:, 1:]
    total = lengths.sum(axis=1)
    first = (lengths * (a + b)).sum(axis=1) / 2
    second = (lengths * (a * a + a * b + b * b)).sum(axis=1) / 3
    polar = (lengths * (a.real * a.real + a.imag * a.imag + a.real * b.real + a.imag * b.imag
                        + b.real * b.real + b.imag * b.imag)).sum(axis=1) / 3
    return total, first, second, polar


def batch_elongation(kind: str, orientation: float, headings: np.ndarray, copy_headings: np.ndarray,
                     lengths: np.ndarray) -> np.ndarray:
    """``quick_elongation`` of the mirror or two-fold figures with copy 1 along ``copy_headings``, one per row, on
    arrays (the same sums, added in another order: the two agree to float rounding)."""
    total, first, second, polar = _batch_sums(headings, lengths)
    _, bent_first, bent_second, bent_polar = _batch_sums(copy_headings, lengths)
    if kind in ("vertical", "horizontal"):
        axis = cmath.rect(1.0, 2.0 * math.radians(orientation))  # the mirror: z -> e^(2i angle) conj(z)
        first = first + axis * np.conj(bent_first)
        second = second + axis * axis * np.conj(bent_second)
    elif kind == "rot2":
        first, second = first - bent_first, second + bent_second  # the half turn: z -> -z
    else:
        raise ValueError(f"batch_elongation draws mirror and two-fold figures, not {kind}")
    total, polar = 2.0 * total, polar + bent_polar
    centre = first / total
    return np.abs((second - total * centre * centre) / (polar - total * (centre.real ** 2 + centre.imag ** 2)))


def odd_candidates(rng: np.random.Generator, kind: str, segments: int, orientation: float, broken: int,
                   count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``count`` odd mirror or two-fold figures' numbers as ``draw_figure`` draws them one by one (start heading,
    turns, stroke lengths, the copy's turn at ``broken`` retaken), drawn at once: (headings, the bent copy's
    headings, lengths, the retaken turn's change), one row per figure."""
    low, high = TURN
    if kind in ("vertical", "horizontal"):
        start = orientation + rng.uniform(25.0, 155.0, size=count) * np.where(rng.integers(0, 2, size=count), 1.0, -1.0)
    else:
        start = np.full(count, float(orientation))
    turns = rng.uniform(low, high, size=(count, segments - 1)) * np.where(
        rng.integers(0, 2, size=(count, segments - 1)), 1.0, -1.0)
    headings = np.concatenate([np.zeros((count, 1)), np.cumsum(turns, axis=1)], axis=1) + start[:, None]
    lengths = rng.uniform(*LENGTH, size=(count, segments))
    old = headings[:, broken] - headings[:, broken - 1]
    delta = retaken_turns(rng, old) - old
    bent = headings.copy()
    bent[:, broken:] += delta[:, None]
    return headings, bent, lengths, delta


def odd_figures(rng: np.random.Generator, kind: str, segments: int, orientation: float, broken: int,
                elongation: tuple[float, float], screen: Callable[[tuple[np.ndarray, ...]], bool] = lambda _: True):
    """The odd figures ``draw_figure(..., odd=True, elongation=elongation)`` would give that pass ``screen`` (a test
    on the polylines alone, taken before the costlier symmetry audit: a candidate must pass both, in either
    order), one after another: at most ODD_DRAWS of them, from at most ODD_DRAWS * ODD_TRIES candidates, each
    with its latent numbers.

    A four-fold one comes from ``make_figure`` draw by draw.  Mirror and two-fold ones are drawn in batches
    (``odd_candidates``) and screened on arrays (corners, ``batch_elongation`` with QUICK_SLACK): most candidates
    miss the elongation window, and the few left take ``make_figure``'s remaining tests (``finish_figure``) in
    the order drawn.  The candidates are independent draws from the distribution ``make_figure`` draws from,
    taken in order, so the first that passes every test is a draw from what it would give."""
    window = (elongation[0], min(elongation[1], ELONGATION_CAP))
    left, size, given = ODD_DRAWS * ODD_TRIES, ODD_BATCH, 0
    while left > 0 and given < ODD_DRAWS:
        if kind == "rot4":
            left -= 1
            made = make_figure(rng, kind, segments, orientation, start_heading(rng, kind, orientation), broken, None,
                               window)
            found = [] if made is None else [made]
        else:
            count = min(size, left)
            left -= count
            size = min(2 * size, ODD_BATCH_MAX)
            headings, bent, lengths, delta = odd_candidates(rng, kind, segments, orientation, broken, count)
            quick = batch_elongation(kind, orientation, headings, bent, lengths)
            keep = (quick >= window[0] - QUICK_SLACK) & (quick <= window[1] + QUICK_SLACK)
            keep &= ~(flat_corners(headings) | flat_corners(bent))
            found = (finish_figure(kind, orientation, headings[i], bent[i], lengths[i], 1, broken,
                                   {"break": {"stroke": broken + 1, "degrees": round(float(delta[i]), 1)}}, window)
                     for i in np.flatnonzero(keep))
        for made in found:
            if made is None or not screen(made[0]):
                continue
            miss = symmetry_audit(made[0], None, orientation)
            if miss is None:
                continue
            made[1]["nearest_missing_symmetry"] = round(miss, 4)
            given += 1
            yield made
            if given >= ODD_DRAWS:
                return


def flat_corners(headings: np.ndarray) -> np.ndarray:
    """``flat_corner`` of every row of headings."""
    turns = np.abs((np.diff(headings, axis=1) + 180.0) % 360.0 - 180.0)
    return (turns < 20.0).any(axis=1) | (turns > 150.0).any(axis=1)


#: Mirror axes (degrees) ``decisive_size`` measures.
_FINE_AXES = np.arange(0.0, 180.0, 0.5)
#: ``_exact_bounds`` is computed another way than the distances it bounds (and on vertices rounded to 1e-9): it is
#: lowered by this, so it never exceeds them.
BOUND_SLACK = 1e-8


#: ``transform_bounds`` measures every COARSE-th mirror of ``_FINE_AXES`` (and every turn) exactly and bounds the
#: mirrors in between from the nearest measured one.
COARSE = 4
#: The linear parts of every mirror of ``_FINE_AXES`` and turn of ``_TURNS``, in that order, as the four entries
#: xx, xy, yx, yy (x' = xx x + xy y, y' = yx x + yy y): a mirror about an axis at a is (cos 2a, sin 2a, sin 2a,
#: -cos 2a), a turn by t (cos t, -sin t, sin t, cos t).
_DOUBLED = np.radians(2.0 * _FINE_AXES)
_TURN_RADIANS = np.radians(np.array(_TURNS))
_LINEAR = np.stack([np.concatenate([np.cos(_DOUBLED), np.cos(_TURN_RADIANS)]),
                    np.concatenate([np.sin(_DOUBLED), -np.sin(_TURN_RADIANS)]),
                    np.concatenate([np.sin(_DOUBLED), np.sin(_TURN_RADIANS)]),
                    np.concatenate([-np.cos(_DOUBLED), np.cos(_TURN_RADIANS)])])
#: Per transform: the index of the exactly measured transform its bound comes from (itself for turns and every
#: COARSE-th mirror, else the nearest such mirror, round the circle of axes) and the angle (radians) between the
#: two mirrors' axes.
_FINE_COUNT = len(_FINE_AXES)
_NEAREST = np.concatenate([(np.round(np.arange(_FINE_COUNT) / COARSE).astype(int) * COARSE) % _FINE_COUNT,
                           _FINE_COUNT + np.arange(len(_TURNS))])
_OFF_AXIS = np.radians(np.concatenate([
    np.abs(np.arange(_FINE_COUNT) - np.round(np.arange(_FINE_COUNT) / COARSE) * COARSE) * 0.5,
    np.zeros(len(_TURNS))]))


def _exact_bounds(v: np.ndarray, centre: np.ndarray, segs: np.ndarray, which: np.ndarray) -> np.ndarray:
    """For each transform ``which`` indexes (mirrors of ``_FINE_AXES`` through ``centre``, then turns of ``_TURNS``
    about it): the largest distance from an image of a vertex in ``v`` to the nearest stroke of ``segs``, less
    BOUND_SLACK.  Every vertex's image lies on the figure's image, so no Hausdorff distance between the figure
    and its image is smaller.  Computed on the coordinates separately, as squared distances, for all the
    transforms at once."""
    xx, xy, yx, yy = _LINEAR[:, which]
    rel = v - centre
    mx = centre[0] + xx[:, None] * rel[None, :, 0] + xy[:, None] * rel[None, :, 1]  # (transforms, vertices)
    my = centre[1] + yx[:, None] * rel[None, :, 0] + yy[:, None] * rel[None, :, 1]
    ax, ay = segs[:, 0, 0], segs[:, 0, 1]
    dx, dy = segs[:, 1, 0] - ax, segs[:, 1, 1] - ay
    rx, ry = mx[..., None] - ax, my[..., None] - ay  # (transforms, vertices, strokes)
    t = np.clip((rx * dx + ry * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    ex, ey = rx - t * dx, ry - t * dy
    return np.sqrt((ex * ex + ey * ey).min(axis=-1).max(axis=-1)) - BOUND_SLACK


def transform_bounds(v: np.ndarray, centre: np.ndarray, segs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A lower bound of the Hausdorff distance between the figure and its image under every mirror of
    ``_FINE_AXES`` and turn of ``_TURNS`` (in that order), and which of them are exact (``_exact_bounds``).

    The turns and every COARSE-th mirror are measured; a mirror in between takes the bound of the nearest
    measured one less twice its vertices' reach from ``centre`` times the angle between the axes: turning the
    axis by an angle turns every image point about ``centre`` by twice that angle, which moves it by no more
    than that arc, and a point's distance to the strokes changes by no more than the point moves."""
    exact = np.arange(len(_NEAREST)) == _NEAREST
    measured = np.full(len(_NEAREST), np.nan)
    measured[exact] = _exact_bounds(v, centre, segs, np.flatnonzero(exact))
    reach = float(np.sqrt(((v - centre) ** 2).sum(axis=1)).max())
    return measured[_NEAREST] - 2.0 * reach * _OFF_AXIS * (1.0 + 1e-9), exact


def decisive_floor(polylines: Sequence[np.ndarray]) -> float:
    """A lower bound of ``decisive_size``: the least of its corner bounds (``transform_bounds``, each at most the
    distance it bounds) less the same allowance for the half degree between axes; no stroke is measured."""
    v = np.unique(np.round(np.concatenate(polylines), 9), axis=0)
    centre = v.mean(axis=0)
    bound, _ = transform_bounds(v, centre, segments_of(polylines))
    reach = float(np.linalg.norm(v - centre, axis=1).max())
    return float(bound.min()) - 2.0 * reach * math.radians(0.25)


def decisive_size(polylines: Sequence[np.ndarray]) -> float:
    """How far (normalised units) the drawn strokes stay, at least, from mapping onto themselves under any mirror
    about an axis through the vertex mean or any turn by 360/k (k = 2..6) about it: the smallest Hausdorff
    distance between the strokes and their image, over axes every half degree (less what a quarter degree can
    change) and those turns.

    Corner points give a lower bound for every transform (``transform_bounds``, exact for some and looser for the
    rest); the transform with the least bound is taken next: one with a loose bound has it (and every other loose
    bound that could be as low once made exact) made exact first, one with an exact bound has its strokes
    measured.  The search stops when no bound is below the best distance measured: no transform left could do
    better, so the result is the smallest distance over all of them, whatever order they were measured in."""
    lines = MultiLineString([p.tolist() for p in polylines])
    v = np.unique(np.round(np.concatenate(polylines), 9), axis=0)
    centre = v.mean(axis=0)
    segs = segments_of(polylines)
    bound, exact = transform_bounds(v, centre, segs)
    # the most a loose bound can lie below its measured neighbour's (``transform_bounds``): loose bounds this close
    # to the least one are made exact together
    window = 2.0 * float(np.sqrt(((v - centre) ** 2).sum(axis=1)).max()) * float(_OFF_AXIS.max()) * (1.0 + 1e-9)
    left = np.ones(len(bound), dtype=bool)
    best = math.inf
    while True:
        open_ = np.flatnonzero(left & (bound < best))
        if not len(open_):
            break
        k = int(open_[np.argmin(bound[open_])])
        if not exact[k]:
            loose = open_[~exact[open_] & (bound[open_] <= bound[k] + window)]
            bound[loose] = _exact_bounds(v, centre, segs, loose)
            exact[loose] = True
            continue
        left[k] = False
        m = folding.reflection(centre, _FINE_AXES[k]) if k < _FINE_COUNT else \
            folding.rotation(centre, _TURNS[k - _FINE_COUNT])
        best = min(best, float(shapely.hausdorff_distance(lines, folding.transform(lines, m), densify=0.05)))
    reach = float(np.linalg.norm(v - centre, axis=1).max())
    return best - 2.0 * reach * math.radians(0.25)


def ink_centre(polylines: Sequence[np.ndarray]) -> tuple[float, float]:
    """The centroid of the strokes taken as uniform wire: where the drawn ink's mean lies (for a figure with a turn
    symmetry, the centre of its box too; for any other, not)."""
    segs = segments_of(polylines)
    lengths = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    centre = (lengths[:, None] * (segs[:, 0] + segs[:, 1]) / 2).sum(axis=0) / lengths.sum()
    return float(centre[0]), float(centre[1])


def item_fill(figures: Sequence[Sequence[np.ndarray]], scales: Sequence[float]) -> float:
    """The part of the tile a figure at scale 1 spans (``Figure.fill``): FILL, or less if some figure, placed with
    its ink centre at the tile's centre, would reach further than HALF_SPAN from it (rounded down to 1e-4).

    Figures are centred on their ink, not on their box: a figure with a turn symmetry has both at one point, any
    other (the odd figure among turned ones) not, so box-centred drawings put the odd figure's ink off centre
    (the option audit's ink-centre features found it 62% of the time).  One fill for the item keeps the size
    order (``SymmetricStructures._sizes``)."""
    reach = 0.0
    for polylines, scale in zip(figures, scales, strict=True):
        v = np.concatenate(polylines) - np.array(ink_centre(polylines))
        reach = max(reach, float(scale) * float(np.abs(v).max()))
    return min(FILL, math.floor(HALF_SPAN / reach * 1e4) / 1e4)


def orientations(rng: np.random.Generator, kind: str, count: int) -> list[float]:
    """Each figure's construction angle, drawn independently from one distribution for every figure whatever
    its role: the mirror axis within 45 degrees either side of vertical or horizontal (as ``kind`` says), the
    first arm of a turned figure at any angle.  No figure is singled out by being upright or tilted."""
    if kind in ("vertical", "horizontal"):
        base = 90.0 if kind == "vertical" else 0.0
        return [base + float(rng.uniform(-45.0, 45.0)) for _ in range(count)]
    return [float(rng.uniform(0.0, 360.0)) for _ in range(count)]


def start_heading(rng: np.random.Generator, kind: str, orientation: float) -> float:
    """The first stroke's heading: for a mirror figure 25-155 degrees off the axis (so the two halves open up at
    the junction), for a turned figure along ``orientation``."""
    if kind in ("vertical", "horizontal"):
        return orientation + rng.uniform(25.0, 155.0) * (1.0 if rng.integers(0, 2) else -1.0)  # rng.choice([-1.0, 1.0])
    return orientation


def choose_knobs(rng: np.random.Generator, difficulty: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Symmetry type, strokes per copy and closeness of the odd figure: fixed ones from ``params``, the rest from
    the difficulty (the symmetry type uniformly)."""
    segments, closeness = DIFFICULTY_KNOBS[difficulty]
    symmetry = params.get("symmetry") or SYMMETRIES[int(rng.integers(len(SYMMETRIES)))]
    return {"symmetry": symmetry, "segments": params.get("segments") or segments,
            "closeness": params.get("closeness") or closeness}


def proxies(figures: Sequence[Sequence[np.ndarray]]) -> tuple[list[float], list[float]]:
    """Per figure: stroke length and bounding-box area in normalised units (stand-ins for the rendered ink and
    ink extent the base class audits)."""
    lengths, areas = [], []
    for f in figures:
        segs = segments_of(f)
        lengths.append(float(np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1).sum()))
        v = np.concatenate(f)
        w, h = v.max(axis=0) - v.min(axis=0)
        areas.append(float(w * h))
    return lengths, areas


def stroke_pixels(side: int) -> float:
    """The stroke width (output pixels) ``describe`` records for a tile of ``side`` pixels: STROKE of the side in
    whole supersampled pixels, at least 2 output pixels (on the 600x800 canvas)."""
    return max(2 * SUPERSAMPLE, round(STROKE * side * SUPERSAMPLE)) / SUPERSAMPLE


#: The drawn ink's box reaches this far (pixels) beyond the strokes' edges: about the part of a pixel a stroke's
#: edge must cover to make it ink (``ink_box``).
INK_REACH = 0.25


def ink_box(polylines: Sequence[np.ndarray], stroke: float) -> tuple[float, float]:
    """Width and height (pixels) of the ink of ``polylines`` (pixels) drawn ``stroke`` pixels wide as ``_drawing``
    draws them: every stroke a rectangle ending flat at its ends, a round joint (a disc) at every corner inside a
    polyline; the box of those, grown by INK_REACH on every side."""
    r = stroke / 2
    corners = []
    for p in polylines:
        d = p[1:] - p[:-1]
        n = np.stack([-d[:, 1], d[:, 0]], axis=1) * (r / np.hypot(d[:, 0], d[:, 1]))[:, None]
        corners += [p[:-1] + n, p[:-1] - n, p[1:] + n, p[1:] - n, p[1:-1] - r, p[1:-1] + r]
    points = np.concatenate(corners)
    width, height = points.max(axis=0) - points.min(axis=0) + 2 * INK_REACH
    return float(width), float(height)


#: How ink and ink extent grow with a figure's scale (ink in proportion, extent with its square; ``_sizes``).
SIZE_POWER = np.array([1.0, 2.0])
#: ``may_fit`` turns conformers down only when their least spread exceeds SIZE_RANGE by more than this (float
#: rounding of the sums it adds up in another order than ``size_trials``).
FIT_SLACK = 1e-9


def size_trials(base: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """Per row of ``gaps`` (SIZE_GAP steps, one per figure after the first): the log scales of the figures, in size
    order, whose sizes at scale 1 are ``base`` (log ink and log extent per figure, in that order): the first at 0,
    every next one the least that puts both its features SIZE_STEP (relative) above the previous figure's, plus
    its gap."""
    trial = np.zeros((len(gaps), len(base)))
    for k in range(1, len(base)):
        need = (base[k - 1] + SIZE_POWER * trial[:, k - 1, None] + math.log1p(SIZE_STEP) - base[k]) / SIZE_POWER
        trial[:, k] = need.max(axis=1) + gaps[:, k - 1]
    return trial


def may_fit(base: Sequence[np.ndarray | None], order: Sequence[int]) -> bool:
    """False when no figure in the place of the unknown ones (``None`` in ``base``, log sizes at scale 1 by figure
    index) lets ``_sizes`` space the figures along ``order`` within SIZE_RANGE: a necessary condition, checked on
    the conformers before the odd figure is drawn.

    Every trial of ``size_trials`` moves each figure's log scale at least so far beyond the previous figure's that
    both features rise by SIZE_STEP: by at least max over the features of (previous base - own base + log1p
    (SIZE_STEP)) / power.  Between two known figures with m places apart (an unknown one between them), the
    features rise by m steps, so the scales differ by at least max over the features of (earlier base - later
    base + m log1p(SIZE_STEP)) / power, whatever the figures between; and the spread of the scales (what must
    stay within SIZE_RANGE) is at least the sum of these least steps over any run of consecutive known figures."""
    known = [(place, np.asarray(base[k])) for place, k in enumerate(order) if base[k] is not None]
    least, low = 0.0, 0.0  # the running sum of least steps, and its lowest value so far
    for (p, a), (q, b) in itertools.pairwise(known):
        least += float(((a - b + (q - p) * math.log1p(SIZE_STEP)) / SIZE_POWER).max())
        if least - low > math.log(SIZE_RANGE) + FIT_SLACK:
            return False
        low = min(low, least)
    return True


class SymmetricStructures(MindsEyeTask):
    """Odd one out by symmetry over four path drawings (paper App. C)."""

    code = "SS"
    art = "relation"
    texts = TEXTS
    option_count = 4
    option_columns = 4
    query_count = 0
    cycled_choices: ClassVar[Choices] = {"symmetry": SYMMETRIES}
    tier_values: ClassVar[TierValues] = {"closeness": follows({t: k[1] for t, k in DIFFICULTY_KNOBS.items()})}

    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Strokes per copy plus the odd figure's closeness to symmetric (far 0, mid 1, near 2)."""
        return knobs["segments"] + CLOSENESS.index(knobs["closeness"])

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        knobs = choose_knobs(rng, difficulty, params)
        kind, segments, closeness = knobs["symmetry"], int(knobs["segments"]), knobs["closeness"]
        side = self.layout(params.get("size") or "1024x1024").tile
        # the odd figure's place in the size order, kept through every redraw (``_sizes``): balanced over
        # the items of a run like the answer letter (``plan``), drawn uniformly when built on its own
        rank = plan.rank if plan is not None else int(rng.integers(self.option_count))
        likely_scale = SIZE_RANGE ** -((self.option_count - 1 - rank) / (self.option_count - 1))
        for _ in range(DRAWS):
            site = bend_site(rng, segments, closeness)
            # every figure is tilted alike (``orientations``), so orientation carries nothing about the answer
            turn = orientations(rng, kind, self.option_count)
            plan = [("correct", "broken_copy", turn[0], site, None),
                    ("confound", "perturbed_pair", turn[1], None, site),
                    ("filler", "plain", turn[2], None, None),
                    ("filler", "plain_alt", turn[3], None, None)]
            # every figure's place in the size order (``_sizes``), the odd one's ``rank`` among them, is drawn
            # before any shape
            others = [int(k) + 1 for k in rng.permutation(self.option_count - 1)]
            size_order = [*others[:rank], 0, *others[rank:]]
            # the conformers one by one, each with its size at scale 1 and a check that the figures so far (any
            # figure in the place of those still to come) could follow the size order within SIZE_RANGE
            # (``may_fit``): if not, none of the rest (nor the odd figure) is drawn for them
            base: list[np.ndarray | None] = [None] * self.option_count
            drawn: list[Any] = []
            for k, (*_, orientation, _, pair) in enumerate(plan[1:], start=1):
                made = draw_figure(rng, kind, segments, orientation, None, pair, odd=False)
                if made is not None:
                    base[k] = self.base_features(made[0], side)
                if made is None or not may_fit(base, size_order):
                    drawn = [None]
                    break
                drawn.append(made)
            if any(d is None for d in drawn):
                continue
            # the odd figure's elongation is that of a further conformer, drawn like the others and not shown
            # (``elongation_target``)
            target = self.elongation_target(rng, kind, segments, site)
            if target is None:
                continue
            match = (target - ELONGATION_MATCH, target + ELONGATION_MATCH)
            # no nuisance feature may single out any figure (the base class audits the rendered tiles with
            # factor 2; these stand-ins use a stricter 1.5).  Every figure is held to it alike: a test on the odd
            # figure alone kept it near the others' middle, where the typical figure was it.  (Screened before the
            # odd figure's symmetry audit, ``odd_figures``.)
            shown = [d[0] for d in drawn]
            shown_lengths, shown_areas = proxies(shown)  # figure by figure: the same numbers as among all four

            def unremarkable(polylines: tuple[np.ndarray, ...], others: tuple = (shown_lengths, shown_areas)) -> bool:
                (length,), (area,) = proxies([polylines])
                lengths, areas = [length, *others[0]], [area, *others[1]]
                return not any(singled_out(lengths, k, 1.5, 0.5) or singled_out(areas, k, 1.5, 0.05)
                               for k in range(self.option_count))

            for odd in odd_figures(rng, kind, segments, plan[0][2], site, match, unremarkable):
                figures = [odd[0], *shown]
                # the decisive difference (how far the odd figure is from its nearest symmetry) must be clearly
                # visible as drawn: at least MIN_DECISIVE_PX on the item's canvas (checked once the scales are
                # known).  The odd figure's scale will be about SIZE_RANGE ** -((3 - rank) / 3) (1 for the
                # largest, 1 / SIZE_RANGE for the smallest), so a bend too small at that size is redrawn here,
                # before the sizes are sought.  A lower bound that clears it (``decisive_floor``) settles it; the
                # exact size is measured only then for an item whose sizes are found
                miss = None
                if decisive_floor(odd[0]) * FILL * side * likely_scale >= MIN_DECISIVE_PX:
                    break
                miss = decisive_size(odd[0])
                if miss * FILL * side * likely_scale >= MIN_DECISIVE_PX:
                    break
            else:
                continue
            base[0] = self.base_features(odd[0], side)
            sized = self._sizes(rng, figures, side, size_order, np.array(base))
            if sized is None:
                continue
            scales, measured = sized
            if miss is None:
                miss = decisive_size(odd[0])
            fill = measured[0].fill  # ``item_fill`` of these figures at these scales
            decisive = miss * fill * float(scales[0]) * side
            if decisive < MIN_DECISIVE_PX:
                continue
            contents = [self.centred(rng, figure, side) for figure in measured]
            lengths, _ = proxies(figures)
            latents = [{"symmetry": "none" if role == "correct" else kind,
                        "orientation": round(float(orientation) % 360.0, 1), **made[1]}
                       for (role, _, orientation, *_), made in zip(plan, [odd, *drawn], strict=True)]
            latents[0]["decisive_px"] = round(decisive, 1)
            options = [Option(role, template, {**latent, "strokes": len(segments_of(content.polylines)),
                                               "length": round(length, 3), "scale": round(content.scale, 4),
                                               "shift_px": [round(c * side, 2) for c in content.shift]},
                              content)
                       for (role, template, *_), latent, content, length in zip(plan, latents, contents, lengths,
                                                                                strict=True)]
            order = 1 if kind in ("vertical", "horizontal") else int(kind[-1])
            facts = {
                "knobs": knobs,
                "symmetry": kind,
                "k": order,
                "segments_per_copy": segments,
                "strokes_per_figure": len(segments_of(figures[0])),
                "odd_asymmetry": latents[0]["nearest_missing_symmetry"],
                "rule": f"three figures have {_describe(kind)}; the odd one has no symmetry at all",
            }
            return Stimulus((), (), options, facts)
        raise GenerationError(f"SS: no valid item for knobs {knobs} with the odd figure {rank + 1}. smallest of "
                              f"{self.option_count} after {DRAWS} draws")

    def plan(self, params: Mapping[str, Any], random: ItemRandom, source: int) -> SizePlan:
        """The odd figure's place in the size order, balanced over consecutive items (every place equally often
        in each block of four, as the answer letters are), so no size or ink shortcut finds it more often than
        chance by luck of the draw."""
        return SizePlan(random.balanced(self.option_count, "size rank", position=source))

    def elongation_target(self, rng: np.random.Generator, kind: str, segments: int, site: int) -> float | None:
        """The elongation (``second_moment``) the odd figure must have, within ELONGATION_MATCH: that of a
        conformer drawn afresh (the confound's way, turn at ``site`` retaken, or plainly, as one conformer in
        three is the confound), so the odd figure's elongation follows the conformers' distribution.  Left to
        itself a figure with one bent copy is less elongated than a symmetric one (a two-fold figure's copies
        point away from each other, a bent one less so): the least elongated figure was the odd one in 43% of
        two-fold items (61% with the bend in the first half of the copy).  A four-fold figure, odd or not, has
        none (``twin_bend``): 0.  None if the draw fails."""
        if kind == "rot4":
            return 0.0
        pair = site if rng.integers(3) == 0 else None
        drawn = draw_figure(rng, kind, segments, orientations(rng, kind, 1)[0], None, pair, odd=False)
        return None if drawn is None else abs(second_moment(drawn[0]))

    def base_features(self, polylines: Sequence[np.ndarray], side: int) -> np.ndarray:
        """What ``_sizes`` spaces the figures by: the logarithms of a figure's ink and ink extent (``grey_features``)
        at scale 1 and fill FILL, up to a constant common to every figure of an item (only their differences
        count), worked out on the strokes, not drawn.  Ink is the strokes' length (the stroke width is fixed:
        drawn ink is that length times the width, give or take the corners: within about 1% of the drawing's);
        extent is the box of the drawn strokes (``ink_box``, within about 0.3% of the drawing's)."""
        segs = segments_of(polylines)
        length = float(np.hypot(segs[:, 1, 0] - segs[:, 0, 0], segs[:, 1, 1] - segs[:, 0, 1]).sum())
        width, height = ink_box([p * (FILL * side) for p in polylines], stroke_pixels(side))
        return np.array([math.log(length), math.log(width * height)])

    def _sizes(self, rng: np.random.Generator, figures: Sequence[Sequence[np.ndarray]], side: int,
               order: Sequence[int], base: np.ndarray) -> tuple[np.ndarray, list[Figure]] | None:
        """Drawn scales for the figures (the odd one first) that leave ink and ink extent no information about
        the answer: both features rise along ``order`` (figure indices, smallest first), so they point at each
        place in it equally often, and the place of every figure, the odd one's included, is drawn before its
        shape is known (``build``).  None if that needs sizes further apart than SIZE_RANGE.

        An earlier version let the size order follow the shapes (``balancing.balanced_scales``, which
        pins only the answer's place and lets the others take the order that fits them best): with the odd figure
        pinned it stood further from its neighbours in size than they did from each other (the most atypical ink
        box was the odd one in 38% of four-fold items), and with a random figure pinned the odd figure's shape
        (after a bend, a little more stroke for its box) made it the largest in 36% of the items bent at the last
        stroke.  Here no figure's place depends on its shape, and every figure is spaced alike.

        Ink grows with the scale (the stroke width is fixed), the ink's box with its square: from the figures'
        sizes at scale 1 (``base``, ``base_features`` per figure), the scales put each figure a random step
        (SIZE_GAP, on a log scale) beyond what the previous one needs (``size_trials``), and the drawing confirms
        the order (half a SIZE_STEP at least) and that no figure is singled out in either feature.

        With the scales, the figures at those scales (``Figure``, the item's fill), holding the drawings measured."""
        names = ("ink", "extent")
        count = len(figures)
        gaps = rng.uniform(*SIZE_GAP, size=(SIZE_DRAWS, count - 1))
        trial = size_trials(np.asarray(base)[list(order)], gaps)
        fits = np.flatnonzero(np.ptp(trial, axis=1) <= math.log(SIZE_RANGE))
        if not len(fits):
            return None
        log_scales = np.empty(count)
        log_scales[list(order)] = trial[fits[0]]
        scales = np.exp(log_scales - log_scales.max())
        fill = item_fill(figures, scales)
        made = [Figure(tuple(f), float(s), fill) for f, s in zip(figures, scales, strict=True)]
        drawn = [grey_features(self.grey_drawing(figure, side)) for figure in made]
        values = np.array([[d[name] for name in names] for d in drawn])[list(order)]
        if not (values[1:] >= values[:-1] * (1 + SIZE_STEP / 2)).all():
            return None
        floors = [self.nuisance_floor[name] / 2 for name in names]
        if any(singled_out(list(values[:, j]), k, 0.9 * self.nuisance_factor, floors[j])
               for j in range(len(names)) for k in range(count)):
            return None
        return scales, made

    def centred(self, rng: np.random.Generator, figure: Figure, side: int) -> Figure:
        """``figure`` shifted so the mean of its drawn ink (as the option audit counts ink) lies a random fraction
        of a pixel (CENTRE_JITTER) from the tile's centre.

        Centring on the strokes' centroid (``describe``) is not enough: thick strokes rasterise to a little more
        ink along some directions than others, which moves the ink's mean by up to two pixels, except in a figure
        with a turn symmetry, whose errors cancel (so the odd figure alone would be off centre).  The mean is
        measured on the drawing and corrected (to about a tenth of a pixel); the random target, drawn alike for
        every figure, leaves every figure with the same measured and corrected error."""
        target = np.clip(rng.normal(0.0, CENTRE_JITTER, size=2), -3 * CENTRE_JITTER, 3 * CENTRE_JITTER)
        target += (side - 1) / 2  # the ink's mean pixel index of a figure drawn exactly at the centre
        shift = np.zeros(2)
        best = (math.inf, figure)
        for _ in range(4):
            place = (_q(shift[0]), _q(shift[1]))
            moved = figure if place == figure.shift else attrs.evolve(figure, shift=place)  # keeps its drawing
            error = np.array(_ink_mean(self.grey_drawing(moved, side))) - target
            if np.hypot(*error) < best[0]:
                best = (float(np.hypot(*error)), moved)
            if best[0] < 0.02:
                break
            shift -= error / side
        return best[1]

    # -- the scene record and drawing -------------------------------------------------------------------
    def describe(self, content: Figure, side: int) -> dict[str, Any]:
        """The figure as drawn, in tile units quantised to 1e-4 (the drawing reads only this): its polylines scaled
        by ``fill`` times ``scale`` and placed with the centroid of their strokes (``ink_centre``) at the tile's
        centre, and the stroke width."""
        reach = content.fill * content.scale
        cx, cy = ink_centre(content.polylines)
        ox, oy = 0.5 + content.shift[0], 0.5 + content.shift[1]
        scale = side * SUPERSAMPLE
        width = max(2 * SUPERSAMPLE, round(STROKE * scale))  # >= 2 px on the 600x800 canvas
        return {"kind": "figure",
                "polylines": [[[_q(ox + reach * (float(x) - cx)), _q(oy + reach * (float(y) - cy))] for x, y in line]
                              for line in content.polylines],
                "stroke": _q(width / scale)}

    def draw_query(self, content: Any, side: int) -> Image.Image:
        raise ValueError("Symmetric Structures has no query panel")

    def draw_option(self, content: Figure, side: int) -> Image.Image:
        """The figure drawn from its record (``describe``), made once per side (``grey_drawing``), as a new RGB
        image."""
        return Image.fromarray(self.grey_drawing(content, side)).convert("RGB")

    def render(self, problem: Problem) -> list[Image.Image]:
        """The base class's composite of the grey panels (``MindsEyeTask.render``: composed in one channel and
        handed to the core as its palette image), given the panels' grey drawings (``grey_drawing``) themselves:
        the RGB panels ``draw_option`` makes would only be split back into one channel."""
        stimulus, shown = problem.structure
        layout = self.layout(problem.params["size"])
        options = [Image.fromarray(self.grey_drawing(o.content, layout.tile)) for o in shown]
        image, _ = layout.compose([], options, stimulus.query_captions, option_letters(self.option_count))
        return [grey_palette_image(image)]

    def grey_drawing(self, content: Figure, side: int) -> np.ndarray:
        """The figure's drawing as grey levels (its three channels are equal), made once per side and kept
        read-only: the generator measures ink on it without converting it to RGB and back."""
        if side not in content.drawings:
            pixels = np.asarray(self._drawing(content, side))
            pixels.setflags(write=False)
            content.drawings[side] = pixels
        return content.drawings[side]

    def _drawing(self, content: Figure, side: int) -> Image.Image:
        """The figure drawn from its record (``describe``) on a grey tile: its one channel (mode L).

        The strokes are drawn supersampled (SUPERSAMPLE, ``draw_strokes``) on a canvas covering only the blocks of
        supersampled
        pixels they can reach (their corners' box grown by a stroke width, in whole output pixels, within the
        tile), their coordinates moved by the canvas's corner (whole blocks), and the canvas is reduced onto blank
        paper: every other block would reduce to white.  (Drawn on the whole tile instead, a few pixels of one
        figure in a hundred differ by a grey level or so, where the rasteriser rounds a moved coordinate the
        other way.)"""
        record = self.describe(content, side)
        factor = SUPERSAMPLE
        scale = side * factor
        width = max(1, round(record["stroke"] * scale))
        lines = [[(x * scale, y * scale) for x, y in line] for line in record["polylines"]]
        corners = np.array([point for line in lines for point in line])
        left, top = (max(0, int(v - width) // factor) for v in corners.min(axis=0))
        right, bottom = (min(side, int(v + width) // factor + 1) for v in corners.max(axis=0))
        panel = Image.new("L", (side, side), grey_level(BACKGROUND))
        if right > left and bottom > top:
            ox, oy = left * factor, top * factor
            canvas = Image.new("L", ((right - left) * factor, (bottom - top) * factor), grey_level(BACKGROUND))
            draw_strokes(ImageDraw.Draw(canvas), [[(x - ox, y - oy) for x, y in line] for line in lines], width)
            panel.paste(canvas.reduce(factor), (left, top))
        return panel

    # -- verification from the written item (``verifiers.symmetric_structures``, no generator code) -----------
    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        """The figures lacking a symmetry the three others have, from the recorded strokes."""
        return verifier.solve(scene)

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        return verifier.sketch(description, side)

    def verify(self, item: Item, images: Sequence[Image.Image]) -> list[str]:
        """The base checks, then: every option panel shows exactly its recorded strokes (no ink off them, none of
        them missing), so the symmetry found in the record is the symmetry of the picture."""
        failures = super().verify(item, images)
        failures += verifier.pixel_failures(item.metadata["scene"], images[0])  # reads the option boxes alone
        return failures


def draw_strokes(draw: ImageDraw.ImageDraw, lines: Sequence[Sequence[tuple[float, float]]], width: int) -> None:
    """Polylines (supersampled pixels) drawn in INK ``width`` pixels wide with round joints: each polyline as one
    wide line, and a disc at every corner inside it, as wide as the pie slice Pillow's ``joint="curve"`` draws
    there (the stroke width less a pixel each side).  The disc holds that pie slice and the rest of it lies
    within the strokes, so the drawing is ``joint="curve"``'s but for a few pixels of a figure at corners' rims
    (by at most a third of the ink's depth, after the reduction); one disc per corner costs less than the pie
    slice and the gap-covering lines Pillow works out for each corner."""
    ink, radius = grey_level(INK), width / 2 - 1
    for line in lines:
        draw.line(line, fill=ink, width=width)
        for x, y in line[1:-1]:
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=ink)


def grey_features(pixels: np.ndarray) -> dict[str, float]:
    """``nuisance.option_features``' ink and extent of a grey panel (its three channels equal, so its darkest
    channel is its grey level), from its grey levels: the same whole-number counts over the same pixel count."""
    inner = pixels[FRAME:-FRAME, FRAME:-FRAME]
    ink = inner < 255 - INK_THRESHOLD
    count = int(np.count_nonzero(ink))
    if not count:
        return {"ink": 0.0, "extent": 0.0}
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    box = (int(cols[-1]) + 1 - int(cols[0])) * (int(rows[-1]) + 1 - int(rows[0]))
    return {"ink": count / ink.size, "extent": float(box / ink.size)}


def _ink_mean(pixels: np.ndarray) -> tuple[float, float]:
    """The mean (column, row) of a grey panel's ink pixels (below AUDIT_INK), as the option audit counts ink: from
    the ink pixels' indices (whole numbers, so the means are exact: the sums of the ink's counts per column and
    per row weighted by their index)."""
    where = np.flatnonzero(pixels < AUDIT_INK)
    if not len(where):
        return math.nan, math.nan
    rows, cols = np.divmod(where, pixels.shape[1])
    return int(cols.sum()) / len(where), int(rows.sum()) / len(where)


def _q(value: float) -> float:
    """A coordinate quantised to 1e-4 tile units (a few hundredths of a pixel)."""
    return round(float(value), 4) + 0.0


def _describe(kind: str) -> str:
    return {"vertical": "mirror symmetry", "horizontal": "mirror symmetry", "rot2": "two-fold rotational symmetry",
            "rot4": "four-fold rotational symmetry"}[kind]


TASK = SymmetricStructures()
