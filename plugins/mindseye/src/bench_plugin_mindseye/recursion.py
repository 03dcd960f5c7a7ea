"""Recursive line drawings for Hierarchical Pattern Equivalence (HPE), and a solver that judges self-similarity
from the drawn geometry alone.

A construction is an iterated similarity tree (paper §3, "Hierarchical Pattern Equivalence": nested circles,
concentric polygons, fractal/L-system trees, Sierpinski gaskets, Pythagoras trees): a root *frame* (origin,
angle, scale) carries a motif (a segment, a square standing on its base, a regular polygon or a circle), and a
*rule* lists child maps (offset, turn, ratio) in the parent's frame.  Expanding the rule level by level gives
the nodes; every node is drawn as the motif under its frame.  A violation is a near miss of the same
construction (spec §2.2 "motif substitution ... ratio broken at one level"): the children of one node, or a
whole level, get a wrong ratio or turn; one sub-part is missing; or one node's children are drawn with another
motif.  Everything is drawn in one pen, and the drawing is fitted to the panel before drawing (never clipped).
A tree draws its angles and ratios from ranges for its depth that keep its crown open, and is drawn again while
two of its strokes (a near miss's included) come closer than a pen width (``crowded``).

The solver (``self_similar``) never sees the rule.  It takes the flat list of drawn primitives, finds the root
(the largest primitive) and its direct children from containment or shared vertices, reads the rule off that
first level, regenerates the whole tree from it, and accepts the drawing only if the regenerated primitives
are exactly the drawn ones.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

#: Margin left around a fitted drawing, as a fraction of the panel side.
MARGIN = 0.07
#: Smallest legible part per kind (segment length, polygon circumradius, circle radius) as a fraction of the
#: panel side.  On the 271 px panels of the 600x800 canvas: a 3 px twig, a polygon 4.3 px from centre to corner
#: (a triangle with 7.5 px sides), a circle of 5 px radius (the spec's minimum dot, §3.3).
MIN_PART = {"seg": 0.012, "poly": 0.016, "circle": 0.019}
#: Two primitives are the same when their descriptors differ by less than this (panel units).
MATCH_TOLERANCE = 5e-4
#: Two strokes of a tree that share no end point stay at least this far apart (panel units, about a pen width:
#: closer, they read as touching).
CLEARANCE = 0.006

GENERATORS = ("binary_tree", "ternary_tree", "pythagoras_tree", "nested_shapes", "corner_polygons", "circle_ring")
VIOLATIONS = ("scale", "angle", "missing", "motif")
#: Which violations each generator can carry (a chain has no sub-part to drop; a tree has no motif to swap).
SUPPORTS: dict[str, tuple[str, ...]] = {
    "binary_tree": ("scale", "angle", "missing"),
    "ternary_tree": ("scale", "angle", "missing"),
    "pythagoras_tree": ("scale", "angle", "missing"),
    "nested_shapes": ("scale", "angle", "motif"),
    "corner_polygons": ("scale", "angle", "missing", "motif"),
    "circle_ring": ("scale", "angle", "missing"),
}
#: Levels drawn (root included) for the hierarchy-depth knob 3 / 4 / 5, per generator.
LEVELS: dict[str, tuple[int, int, int]] = {
    "binary_tree": (5, 6, 7),
    "ternary_tree": (3, 4, 5),
    "pythagoras_tree": (4, 5, 5),
    "nested_shapes": (5, 6, 7),
    "corner_polygons": (3, 4, 5),
    "circle_ring": (3, 4, 5),
}
#: Generators drawn in straight strokes that must keep clear of each other (``crowded``).
TREES = ("binary_tree", "ternary_tree", "pythagoras_tree")
#: Plain (symmetric) trees per number of levels: branch angle range (degrees) and ratio range (lowest ratio, and
#: the highest at the lowest and at the highest angle, linear in between).  A deeper tree needs a smaller ratio and
#: a wider angle so its crown stays open (no two branches closer than ``CLEARANCE``); the lowest ratio keeps its
#: twigs legible (``MIN_PART``).  A drawing with fewer levels than listed uses the first row.
PLAIN_TREES: dict[str, dict[int, tuple[float, float, float, float, float]]] = {
    "binary_tree": {5: (22, 45, 0.58, 0.645, 0.685), 6: (28, 55, 0.52, 0.58, 0.655), 7: (36, 60, 0.565, 0.578, 0.638)},
    "ternary_tree": {3: (42, 58, 0.46, 0.52, 0.52), 4: (45, 65, 0.4, 0.448, 0.49), 5: (55, 72, 0.395, 0.413, 0.45)},
}
#: Irregular trees per number of levels: ranges of the narrow and the wide side angle, and of the ratios of the
#: side branches (binary: the narrow, longer one and the wide, shorter one; ternary: both sides, then the middle).
#: A deep ternary crown has room only for a middle branch longer than the sides.
IRREGULAR_TREES: dict[str, dict[int, tuple[tuple[float, float], ...]]] = {
    "binary_tree": {5: ((12, 24), (38, 55), (0.7, 0.78), (0.55, 0.63)),
                    6: ((12, 22), (44, 60), (0.68, 0.76), (0.55, 0.62)),
                    7: ((12, 22), (50, 66), (0.68, 0.74), (0.6, 0.65))},
    "ternary_tree": {3: ((25, 35), (50, 62), (0.46, 0.52), (0.34, 0.42)),
                     4: ((32, 42), (50, 62), (0.46, 0.52), (0.3, 0.36)),
                     5: ((60, 66), (70, 78), (0.41, 0.425), (0.46, 0.5))},
}
#: Pythagoras trees per number of levels: the angle at the base of the triangle (plain, irregular).  At 5 levels
#: any plain angle but 45 degrees runs the inner branches into each other (at 45 they meet corner to corner), and
#: an irregular one must stay near 38 (farther off, the small side's squares get too small); 6 levels have no
#: legible angle that keeps the branches apart.
PYTHAGORAS: dict[int, tuple[tuple[float, float], tuple[float, float]]] = {
    4: ((40, 50), (28, 35)),
    5: ((45, 45), (37, 38.3)),
}
#: Draws of a tree construction before ``construct`` gives up looking for one that is not ``crowded``.
REDRAWS = 8
#: Violation magnitudes per subtlety: scale factor of the broken ratio, extra turn (degrees).
SCALE_BREAK = {"blatant": 0.58, "moderate": 0.7, "subtle": 0.78}
ANGLE_BREAK = {"blatant": 40.0, "moderate": 28.0, "subtle": 20.0}


# -- frames, rules and primitives ------------------------------------------------------------------------
@attrs.frozen
class ChildMap:
    """Where a child sits in its parent's frame: offset (in parent scale units), turn, scale ratio."""

    dx: float
    dy: float
    turn: float
    ratio: float


@attrs.frozen
class Group:
    """Primitives of one kind: ``seg`` (m x 2 x 2 end points), ``poly`` (m x n x 2 vertices, closed) or
    ``circle`` (m x 3: centre and radius)."""

    kind: str
    data: np.ndarray = attrs.field(eq=False)

    def __len__(self) -> int:
        return len(self.data)


def _children(frames: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """Frames (x, y, angle, scale) of every child of every parent frame, parent-major; ``maps`` holds a rule's
    child maps as rows (dx, dy, turn, ratio), see ``_map_table``."""
    x, y, a, s = (frames[:, None, k] for k in range(4))
    cos, sin = np.cos(a), np.sin(a)
    out = np.empty((len(frames), len(maps), 4))
    out[..., 0] = x + s * (cos * maps[:, 0] - sin * maps[:, 1])
    out[..., 1] = y + s * (sin * maps[:, 0] + cos * maps[:, 1])
    out[..., 2] = a + maps[:, 2]
    out[..., 3] = s * maps[:, 3]
    return out.reshape(-1, 4)


def _map_table(rule: Sequence[ChildMap]) -> np.ndarray:
    """A rule's child maps as rows (dx, dy, turn, ratio), what ``_children`` takes."""
    return np.array([[c.dx, c.dy, c.turn, c.ratio] for c in rule], dtype=float).reshape(-1, 4)


@attrs.frozen
class Break:
    """A violation: at ``level``, the children of one parent (``parent`` = its index within level - 1) or of
    every parent (``parent`` None) follow ``rule`` instead, are drawn with ``motif``, or lose child ``drop``."""

    level: int
    parent: int | None = None
    rule: tuple[ChildMap, ...] | None = None
    motif: tuple[str, int] | None = None
    drop: int | None = None


def expand(
    root: tuple[float, float, float, float], rules: Sequence[Sequence[ChildMap]], fault: Break | None = None
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Frames of every level (``rules[L - 1]`` makes level L from level L - 1, so ``len(rules) + 1`` levels), and
    per level a mask of the frames drawn with the fault's substitute motif."""
    levels = [np.array([root], dtype=float)]
    swapped = [np.zeros(1, dtype=bool)]
    tables: dict[int, np.ndarray] = {}  # one table per rule (the levels of a construction share one rule)
    for level, rule in enumerate(rules, start=1):
        parents = levels[-1]
        if id(rule) not in tables:
            tables[id(rule)] = _map_table(rule)
        frames = _children(parents, tables[id(rule)])
        if fault is None or fault.level != level:
            levels.append(frames)
            swapped.append(np.zeros(len(frames), dtype=bool))
            continue
        frames = frames.reshape(len(parents), len(rule), 4)
        mask = np.zeros(frames.shape[:2], dtype=bool)
        keep = np.ones(frames.shape[:2], dtype=bool)
        chosen = slice(None) if fault.parent is None else slice(fault.parent, fault.parent + 1)
        if fault.rule is not None:
            frames[chosen] = _children(parents[chosen], _map_table(fault.rule)).reshape(-1, len(rule), 4)
        if fault.motif is not None:
            mask[chosen] = True
        if fault.drop is not None:
            keep[chosen, fault.drop] = False
        levels.append(frames[keep])
        swapped.append(mask[keep])
    return levels, swapped


def draw_motif(motif: tuple[str, int], frames: np.ndarray) -> Group:
    """The motif under each frame: a segment from the origin along the angle, a square standing on its base
    edge (centred on the origin, interior to the left), a regular n-gon or a circle (scale = circumradius)."""
    kind, n = motif
    x, y, a, s = frames.T
    cos, sin = np.cos(a), np.sin(a)
    if kind == "seg":
        return Group("seg", np.stack([np.stack([x, y], 1), np.stack([x + s * cos, y + s * sin], 1)], axis=1))
    if kind == "square":
        o = np.stack([x, y], 1)
        u, v = np.stack([cos, sin], 1) * s[:, None], np.stack([-sin, cos], 1) * s[:, None]
        return Group("poly", np.stack([o - u / 2, o + u / 2, o + u / 2 + v, o - u / 2 + v], axis=1))
    if kind == "poly":
        angles = a[:, None] + 2 * math.pi * np.arange(n)[None, :] / n
        return Group("poly", np.stack([x[:, None] + s[:, None] * np.cos(angles),
                                       y[:, None] + s[:, None] * np.sin(angles)], axis=2))
    return Group("circle", np.stack([x, y, s], axis=1))


def fit(groups: Sequence[Group]) -> tuple[Group, ...]:
    """The drawing moved into the unit panel (y down) by one similarity, so its bounding box fills the panel
    less ``MARGIN`` on each side and is centred: the box is fitted before drawing, nothing is clipped
    (spec §2.2)."""
    lo, hi = np.full(2, np.inf), np.full(2, -np.inf)
    groups = [g for g in groups if len(g)]
    for g in groups:  # each coordinate's least and greatest taken apart (numpy reduces a short last axis slowly)
        if g.kind == "circle":
            low, high = g.data[:, :2] - g.data[:, 2:], g.data[:, :2] + g.data[:, 2:]
        else:
            low = high = g.data
        lo = np.minimum(lo, [low[..., 0].min(), low[..., 1].min()])
        hi = np.maximum(hi, [high[..., 0].max(), high[..., 1].max()])
    scale = (1 - 2 * MARGIN) / float(max(hi - lo))
    centre = (lo + hi) / 2

    def move(xy: np.ndarray) -> np.ndarray:
        out = (xy - centre) * scale
        return np.stack([0.5 + out[..., 0], 0.5 - out[..., 1]], axis=-1)  # y up -> y down

    fitted = []
    for g in groups:
        if g.kind == "circle":
            fitted.append(Group("circle", np.concatenate([move(g.data[:, :2]), g.data[:, 2:] * scale], axis=1)))
        else:
            fitted.append(Group(g.kind, move(g.data)))
    return tuple(fitted)


def _merge(groups: Sequence[Group]) -> list[Group]:
    """Groups of the same kind and vertex count joined (one per shape type)."""
    merged: dict[tuple[str, int], list[np.ndarray]] = {}
    for g in groups:
        if len(g):
            merged.setdefault((g.kind, g.data.shape[1]), []).append(g.data)
    return [Group(kind, np.concatenate(parts)) for (kind, _), parts in merged.items()]


def sizes(group: Group) -> np.ndarray:
    """Segment lengths, polygon circumradii (RMS vertex distance) or circle radii."""
    if group.kind == "seg":
        return np.hypot(*(group.data[:, 1] - group.data[:, 0]).T)
    if group.kind == "circle":
        return group.data[:, 2].copy()
    rel = group.data - group.data.mean(axis=1, keepdims=True)
    return np.sqrt((rel[..., 0] ** 2 + rel[..., 1] ** 2).mean(axis=1))  # the sum over the two coordinates, faster


def _edges(groups: Sequence[Group]) -> tuple[np.ndarray, np.ndarray]:
    """Every drawn straight stroke (m x 2 x 2): the segments and the polygon edges, with the index of the polygon
    each comes from (-1 for a segment)."""
    edges, owner, polygons = [np.zeros((0, 2, 2))], [np.zeros(0, dtype=int)], 0
    for g in groups:
        if g.kind == "seg":
            edges.append(g.data)
            owner.append(np.full(len(g), -1))
        elif g.kind == "poly":
            edges.append(np.stack([g.data, np.roll(g.data, -1, axis=1)], axis=2).reshape(-1, 2, 2))
            owner.append(np.repeat(np.arange(polygons, polygons + len(g)), g.data.shape[1]))
            polygons += len(g)
    return np.concatenate(edges), np.concatenate(owner)


def _point_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances from points ``p`` to segments ``ab`` (broadcast over leading axes)."""
    d = b - a
    # sums of the two coordinates written out: what ``sum(axis=-1)`` gives over two terms, to the bit, without
    # numpy's slow reduction along a short last axis
    length = d[..., 0] ** 2 + d[..., 1] ** 2
    pa = p - a
    t = np.clip((pa[..., 0] * d[..., 0] + pa[..., 1] * d[..., 1]) / np.where(length > 0, length, 1.0), 0.0, 1.0)
    off = a + t[..., None] * d - p
    return np.hypot(off[..., 0], off[..., 1])


def gap(groups: Sequence[Group], within: float = math.inf) -> float:
    """The smallest distance (panel units) between two straight strokes of a drawing that share no end point:
    zero where two cross, small where two run side by side or a twig ends on another branch.  Strokes that meet
    at an end point (a branch and its children, adjacent squares of a Pythagoras tree) are joints, not contacts;
    the edges of one polygon are never compared.  Circles are not considered.

    With ``within``, only pairs of strokes whose bounding boxes come closer than ``within`` are measured (two
    strokes are at least as far apart as their boxes): the result is the same wherever it is below ``within``,
    and at least ``within`` (or infinite) otherwise, at a fraction of the cost for a sprawling tree."""
    edges, owner = _edges(groups)
    if math.isfinite(within):
        i, j = _close_boxes(np.minimum(edges[:, 0], edges[:, 1]), np.maximum(edges[:, 0], edges[:, 1]), within)
    else:
        i, j = _pairs(len(edges))
    # the larger coordinate difference of each pair of ends, the two coordinates compared as ``max`` over them would
    diff = np.abs(edges[i][:, :, None, :] - edges[j][:, None, :, :])
    ends = np.maximum(diff[..., 0], diff[..., 1]).reshape(len(i), 4)
    keep = ~(ends < 1e-6).any(axis=1) & ((owner[i] < 0) | (owner[i] != owner[j]))
    a, b = edges[i[keep]], edges[j[keep]]
    if not len(a):
        return math.inf
    # each end of either stroke against the other stroke, the four at once
    points = np.concatenate([b[:, 0], b[:, 1], a[:, 0], a[:, 1]])
    strokes = np.concatenate([a, a, b, b])
    near = _point_segment(points, strokes[:, 0], strokes[:, 1]).reshape(4, -1).min(axis=0)

    # on which side of each stroke each end of the other lies, the four at once: they cross where both straddle
    p, q = np.concatenate([a[:, 0], a[:, 0], b[:, 0], b[:, 0]]), np.concatenate([a[:, 1], a[:, 1], b[:, 1], b[:, 1]])
    side = np.sign((q[:, 0] - p[:, 0]) * (points[:, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (points[:, 0] - p[:, 0]))
    side = side.reshape(4, -1)
    crossing = (side[0] * side[1] < 0) & (side[2] * side[3] < 0)
    return float(np.where(crossing, 0.0, near).min())


def _close_boxes(low: np.ndarray, high: np.ndarray, within: float) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i < j) of boxes (low and high corners, n x 2) whose separation -- the larger of the gaps along x
    and along y, negative where they overlap -- is below ``within``: the boxes sorted by their left edge, each is
    paired only with the later ones whose left edge starts less than ``within`` right of its own right edge (a
    sweep), and those candidates are then tested on both axes."""
    order = np.argsort(low[:, 0], kind="stable")
    lefts = low[order, 0]
    stop = np.searchsorted(lefts, high[order, 0] + within, side="left")  # candidates: sorted positions p+1 .. stop-1
    count = np.maximum(stop - np.arange(len(order)) - 1, 0)
    first = np.repeat(np.arange(len(order)), count)
    second = first + 1 + (np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count))
    a, b = order[first], order[second]
    gaps = np.maximum(low[a] - high[b], low[b] - high[a])
    apart = np.maximum(gaps[:, 0], gaps[:, 1])  # what ``max(axis=1)`` gives, faster
    keep = apart < within
    a, b = a[keep], b[keep]
    return np.minimum(a, b), np.maximum(a, b)


def crowded(groups: Sequence[Group], clearance: float = CLEARANCE) -> bool:
    """Whether two strokes that share no end point come closer than ``clearance`` (panel units): they would read
    as touching, or they cross -- a tree whose branches run into each other looks like a defect."""
    # boxes a hair further apart than the clearance cannot hold a pair measured closer than it
    return gap(groups, within=clearance + 1e-9) < clearance


@functools.lru_cache(maxsize=32)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``numpy.triu_indices(n, 1)``, made once per ``n`` (read-only)."""
    i, j = np.triu_indices(n, k=1)
    i.setflags(write=False)
    j.setflags(write=False)
    return i, j


# -- generators ----------------------------------------------------------------------------------------
@attrs.frozen
class Construction:
    """A drawn panel: fitted primitives plus the JSON-able description of how they were made."""

    groups: tuple[Group, ...]
    latent: dict[str, Any]


def _uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _signed(rng: np.random.Generator, lo: float, hi: float) -> float:
    return _uniform(rng, lo, hi) * (1 if rng.random() < 0.5 else -1)


def _plain_tree(rng: np.random.Generator, row: tuple[float, float, float, float, float]) -> tuple[float, float]:
    """A plain tree's branch angle and ratio from a ``PLAIN_TREES`` row: the ratio's ceiling rises with the angle."""
    low, high, r_low, r_top_low, r_top_high = row
    a = _uniform(rng, low, high)
    top = r_top_low + (r_top_high - r_top_low) * (a - low) / (high - low)
    return a, _uniform(rng, r_low, top)


def _tree_rule(angles: Sequence[float], ratios: Sequence[float]) -> list[ChildMap]:
    return [ChildMap(1.0, 0.0, a, r) for a, r in zip(angles, ratios, strict=True)]


def _pythagoras_rule(alpha: float) -> list[ChildMap]:
    ca, sa = math.cos(alpha), math.sin(alpha)
    apex = (-0.5 + ca * ca, 1 + ca * sa)
    left = ChildMap(-0.5 + ca * ca / 2, 1 + ca * sa / 2, alpha, ca)
    right = ChildMap(apex[0] + sa * sa / 2, apex[1] - sa * ca / 2, alpha - math.pi / 2, sa)
    return [left, right]


def _corner_rule(n: int, ratio: float, twist: float, corners: Sequence[int]) -> list[ChildMap]:
    """Children in the given corners of an n-gon, each touching its corner (before any twist)."""
    return [
        ChildMap((1 - ratio) * math.cos(2 * math.pi * j / n), (1 - ratio) * math.sin(2 * math.pi * j / n), twist, ratio)
        for j in corners
    ]


def _ring_rule(ratios: Sequence[float], turn: float = 0.0) -> list[ChildMap]:
    """Children on a ring; each child's frame points outward from its parent (the solver reads circle frames the
    same way), so the ring keeps its orientation relative to the outward direction at every level."""
    k = len(ratios)
    out = []
    for j, r in enumerate(ratios):
        phi = 2 * math.pi * j / k + turn
        d = 1 - r - 0.04
        out.append(ChildMap(d * math.cos(phi), d * math.sin(phi), phi, r))
    return out


def _by_levels(table: dict[int, Any], levels: int) -> Any:
    """The row of a per-levels table for a drawing of ``levels`` levels (the nearest listed row)."""
    return table[min(max(levels, min(table)), max(table))]


def _spec(generator: str, rng: np.random.Generator, rule_kind: str, motif_hint: Any, levels: int) -> dict[str, Any]:
    """Free parameters of one construction of ``generator`` under a plain or irregular (yet consistent) rule; a
    tree's angles and ratios come from ranges for its number of levels (``PLAIN_TREES``, ``IRREGULAR_TREES``,
    ``PYTHAGORAS``)."""
    irregular = rule_kind == "irregular"
    if generator == "binary_tree":
        if irregular:
            (a1, a2, r1, r2) = (_uniform(rng, *span) for span in _by_levels(IRREGULAR_TREES[generator], levels))
            if rng.random() < 0.5:
                a1, a2, r1, r2 = a2, a1, r2, r1
            return {"angles": [a1, -a2], "ratios": [r1, r2], "motif": ["seg", 2]}
        a, r = _plain_tree(rng, _by_levels(PLAIN_TREES[generator], levels))
        return {"angles": [a, -a], "ratios": [r, r], "motif": ["seg", 2]}
    if generator == "ternary_tree":
        if irregular:
            (a1, a2, r, rm) = (_uniform(rng, *span) for span in _by_levels(IRREGULAR_TREES[generator], levels))
            if rng.random() < 0.5:
                a1, a2 = a2, a1
            return {"angles": [a1, 0.0, -a2], "ratios": [r, rm, r], "motif": ["seg", 2]}
        a, r = _plain_tree(rng, _by_levels(PLAIN_TREES[generator], levels))
        return {"angles": [a, 0.0, -a], "ratios": [r, r, r], "motif": ["seg", 2]}
    if generator == "pythagoras_tree":
        alpha = _uniform(rng, *_by_levels(PYTHAGORAS, levels)[irregular])
        if irregular and rng.random() < 0.5:
            alpha = 90 - alpha
        return {"alpha": alpha, "motif": ["square", 4]}
    if generator == "nested_shapes":
        n = motif_hint if motif_hint is not None else int(rng.choice([0, 3, 4, 5, 6]))
        if n == 0:  # circles: concentric (plain) or all tangent at one point (irregular)
            return {"motif": ["circle", 0], "ratio": _uniform(rng, 0.74, 0.84), "offset": bool(irregular),
                    "twist": 0.0}
        if irregular:
            return {"motif": ["poly", n], "ratio": _uniform(rng, 0.78, 0.86),
                    "twist": _signed(rng, 0.08, 0.16) * 360 / n, "offset": False}
        if n >= 4 and rng.random() < 0.5:  # the classic inscribed figure: vertices on the parent's edge midpoints
            return {"motif": ["poly", n], "ratio": math.cos(math.pi / n), "twist": 180 / n, "offset": False}
        return {"motif": ["poly", n], "ratio": _uniform(rng, 0.74, 0.84), "twist": 0.0, "offset": False}
    if generator == "corner_polygons":
        n = motif_hint if motif_hint is not None else int(rng.choice([3, 4]))
        ratio = 0.5 if n == 3 else _uniform(rng, 0.4, 0.46)
        corners = list(range(n))
        if irregular:  # the same corner left empty at every level: lopsided, yet a copy at every scale
            corners.remove(int(rng.integers(n)))
        return {"motif": ["poly", n], "ratio": ratio, "twist": 0.0, "corners": corners}
    if generator == "circle_ring":
        k = motif_hint if motif_hint is not None else int(rng.choice([2, 3, 4]))
        top = {2: 0.47, 3: 0.44, 4: 0.4}[k]
        if irregular:
            big, small = _uniform(rng, top + 0.02, top + 0.08), _uniform(rng, top - 0.16, top - 0.1)
            return {"motif": ["circle", k], "ratios": [big] + [small] * (k - 1)}
        r = _uniform(rng, top - 0.05, top)
        return {"motif": ["circle", k], "ratios": [r] * k}
    raise ValueError(f"unknown generator {generator!r}")


def _rule(generator: str, spec: dict[str, Any], break_turn: float = 0.0, break_scale: float = 1.0) -> list[ChildMap]:
    """The child maps of one level; ``break_turn`` (degrees) and ``break_scale`` distort them for a broken level."""
    if generator in ("binary_tree", "ternary_tree"):
        # a broken level opens (turn > 0) or closes (turn < 0) every side branch by the same amount
        angles = [a + math.copysign(1.0, a) * break_turn if a else 0.0 for a in spec["angles"]]
        return _tree_rule([math.radians(a) for a in angles], [r * break_scale for r in spec["ratios"]])
    if generator == "pythagoras_tree":
        rule = _pythagoras_rule(math.radians(spec["alpha"] + break_turn))
        return [attrs.evolve(c, ratio=c.ratio * break_scale) for c in rule]
    if generator == "nested_shapes":
        r = spec["ratio"] * break_scale
        if spec["offset"]:  # tangent circles: the child touches its parent on the frame's direction
            turn = math.radians(break_turn)
            return [ChildMap((1 - r) * math.cos(turn), (1 - r) * math.sin(turn), turn, r)]
        return [ChildMap(0.0, 0.0, math.radians(spec["twist"] + break_turn), r)]
    if generator == "corner_polygons":
        n = spec["motif"][1]
        return _corner_rule(n, spec["ratio"] * break_scale, math.radians(spec["twist"] + break_turn), spec["corners"])
    if generator == "circle_ring":
        return _ring_rule([r * break_scale for r in spec["ratios"]], math.radians(break_turn))
    raise ValueError(f"unknown generator {generator!r}")


def _root(generator: str, rng: np.random.Generator) -> tuple[float, float, float, float]:
    if generator in ("binary_tree", "ternary_tree"):
        return 0.0, 0.0, math.radians(90 + _signed(rng, 0, 6)), 1.0
    if generator == "pythagoras_tree":
        return 0.0, 0.0, math.radians(_signed(rng, 0, 5)), 1.0
    return 0.0, 0.0, float(rng.uniform(0, 2 * math.pi)), 1.0


def _swap_motif(motif: tuple[str, int], subtlety: str, rng: np.random.Generator) -> tuple[str, int]:
    """A different motif for a substituted level: far (circle <-> polygon, triangle <-> square) or near (n +- 1)."""
    kind, n = motif
    if kind == "circle":
        return ("poly", int(rng.choice([5, 6]))) if subtlety == "blatant" else ("poly", int(rng.choice([7, 8])))
    if subtlety == "blatant":
        return ("poly", 4 if n == 3 else 3) if rng.random() < 0.5 else ("circle", 0)
    if subtlety == "moderate":
        return "poly", (n + 2 if n <= 4 else n - 2)
    return "poly", (n + 1 if n == 3 or rng.random() < 0.5 else n - 1)


def construct(
    generator: str,
    rng: np.random.Generator,
    depth: int,
    rule_kind: str = "plain",
    motif_hint: Any = None,
    violation: str | None = None,
    subtlety: str = "moderate",
) -> Construction:
    """One panel of ``generator`` at hierarchy depth knob ``depth`` (3-5), valid or carrying ``violation``.

    Levels are dropped (down to 3) while a part would be smaller than ``MIN_PART`` allows: a rule with a small
    ratio (an irregular tree's short branch) runs out of room sooner than the depth knob asks for.  A tree is
    drawn again instead (up to ``REDRAWS`` times) while a part is too small or two of its strokes come too close
    (``crowded``): its ranges keep a valid rule legible and clear at the full depth, but a broken level (a wider
    or narrower turn, a shrunk or enlarged sub-tree) can still shrink a twig or run into a neighbour, and a
    violator that alone lost a level would stand out by its depth.  Only when no draw of ``levels`` levels
    works does the tree lose a level (down to 3, where the last draw is returned as it is and the caller rejects
    it)."""
    levels = LEVELS[generator][depth - 3]
    while True:
        for _ in range(REDRAWS if generator in TREES else 1):
            spec = _spec(generator, rng, rule_kind, motif_hint, levels)
            if violation == "angle" and generator == "nested_shapes" and spec["motif"][0] == "circle" \
                    and not spec["offset"]:
                # turning a concentric circle shows nothing: break a polygon chain instead
                spec = _spec(generator, rng, rule_kind, int(rng.choice([3, 4, 5, 6])), levels)
            if generator not in TREES:
                return _legible(generator, rng, spec, rule_kind, levels, violation, subtlety)
            panel = _construct_levels(generator, rng, spec, rule_kind, levels, violation, subtlety)
            if legibility(panel.groups) >= 1 and not crowded(panel.groups):
                return panel
        if levels == 3:
            return panel
        levels -= 1


def _legible(
    generator: str, rng: np.random.Generator, spec: dict[str, Any], rule_kind: str, levels: int,
    violation: str | None, subtlety: str,
) -> Construction:
    """The construction of ``spec`` with at most ``levels`` levels, as many as stay legible."""
    motif = (spec["motif"][0], int(spec["motif"][1]))
    # wider branching runs out of room sooner: cap the levels so the smallest part stays legible at 600x800
    if generator == "circle_ring":
        levels = min(levels, {2: 5, 3: 4, 4: 4}[motif[1]])
    elif generator == "corner_polygons" and motif[1] == 4:
        levels = min(levels, 4)
    while True:
        panel = _construct_levels(generator, rng, spec, rule_kind, levels, violation, subtlety)
        if levels == 3 or legibility(panel.groups) >= 1:
            return panel
        levels -= 1


def legibility(groups: Sequence[Group]) -> float:
    """The smallest ratio of a part's size (length, circumradius, radius) to its kind's ``MIN_PART``: at least 1
    when every part is legible on the smaller canvas."""
    return min(float(sizes(g).min()) / MIN_PART[g.kind] for g in groups if len(g))


def _construct_levels(
    generator: str, rng: np.random.Generator, spec: dict[str, Any], rule_kind: str, levels: int,
    violation: str | None, subtlety: str,
) -> Construction:
    """The construction of ``spec`` with ``levels`` levels."""
    motif = (spec["motif"][0], int(spec["motif"][1]))
    drawn_motif = ("circle", 0) if motif[0] == "circle" else motif
    latent: dict[str, Any] = {"generator": generator, "rule": rule_kind, "levels": levels,
                              **{k: v for k, v in spec.items() if k != "motif"}, "motif": list(drawn_motif)}
    rules = [_rule(generator, spec)] * (levels - 1)  # one rule, every level (a fault replaces it at one)
    fault = None
    if violation is not None:
        level, scope = _break_place(generator, drawn_motif, violation, subtlety, levels, rng)
        parent = None if scope == "level" else int(rng.integers(_level_sizes(rules, level - 1)))
        latent.update(violation=violation, subtlety=subtlety, break_level=level, break_scope=scope,
                      break_parent=parent)
        if violation == "scale":
            factor = SCALE_BREAK[subtlety]
            ratio = max(c.ratio for c in rules[level - 1])
            # enlarge only where the child stays clearly smaller than its parent (keeps the parse unambiguous)
            if rng.random() < 0.5 and ratio / factor < 0.9:
                factor = 1 / factor
            latent["break_factor"] = factor
            fault = Break(level, parent, rule=tuple(_rule(generator, spec, break_scale=factor)))
        elif violation == "angle":
            turn = ANGLE_BREAK[subtlety]
            if motif[0] == "poly" and generator != "pythagoras_tree":
                turn = min(turn, 0.42 * 360 / motif[1])  # stay clear of the polygon's own symmetry
            if subtlety == "blatant" and generator == "corner_polygons" and motif[1] == 3:
                turn = 60.0  # the upside-down triangle
            turn = _feasible_turn(generator, spec, turn, rng)
            latent["break_turn"] = turn
            fault = Break(level, parent, rule=tuple(_rule(generator, spec, break_turn=turn)))
        elif violation == "missing":
            fault = Break(level, parent, drop=int(rng.integers(len(rules[level - 1]))))
            latent["missing_child"] = fault.drop
        elif violation == "motif":
            fault = Break(level, parent, motif=_swap_motif(drawn_motif, subtlety, rng))
            latent["substitute"] = list(fault.motif)
    frames, swapped = expand(_root(generator, rng), rules, fault)
    # every level at once: the same primitives, in the same order, as drawing and merging level by level
    every, mask = np.concatenate(frames), np.concatenate(swapped)
    groups = [draw_motif(drawn_motif, every[~mask])]
    if mask.any():
        groups.append(draw_motif(fault.motif, every[mask]))
    return Construction(tuple(_merge(fit(groups))), latent)


def _level_sizes(rules: Sequence[Sequence[ChildMap]], level: int) -> int:
    return int(np.prod([len(r) for r in rules[:level]])) if level else 1


def _break_place(
    generator: str, motif: tuple[str, int], violation: str, subtlety: str, levels: int, rng: np.random.Generator
) -> tuple[int, str]:
    """Where the rule breaks: (level, scope).  Blatant and moderate violations break one parent's children, near
    the top or in the middle (a sub-part that is visibly not a copy of its siblings); subtle ones break a whole
    deep level (every part at that depth keeps the same wrong proportion, so only comparing levels shows it)."""
    # a ring turned at level 1 is invisible (the root circle has no orientation); a part missing at level 1
    # would remove a third to a half of the ink, a leak rather than a near miss
    circles = generator == "circle_ring" or (generator == "nested_shapes" and motif == ("circle", 0))
    lowest = 2 if (circles and violation == "angle") or violation == "missing" else 1
    choices = list(range(lowest, levels))
    if subtlety == "blatant":
        choices = choices[1:3] if violation != "missing" and len(choices) > 2 else choices[:2]
    elif subtlety == "subtle":
        choices = choices[-2:]
    else:
        choices = choices[len(choices) // 4: max(len(choices) // 4 + 1, 3 * len(choices) // 4)]
    scope = "level" if subtlety == "subtle" and violation in ("scale", "angle") else "node"
    return int(rng.choice(choices)), scope


def _feasible_turn(generator: str, spec: dict[str, Any], turn: float, rng: np.random.Generator) -> float:
    """A signed extra turn that keeps the broken level drawable (branch angles and the Pythagoras angle stay
    within sensible bounds)."""
    sign = 1 if rng.random() < 0.5 else -1
    if generator in ("binary_tree", "ternary_tree"):
        smallest = min(abs(a) for a in spec["angles"] if a)
        largest = max(abs(a) for a in spec["angles"])
        if smallest - turn < 6:
            sign = 1
        elif largest + turn > 100:  # a side branch may open past the perpendicular (closing crowds the crown)
            sign = -1
    elif generator == "pythagoras_tree":
        alpha = spec["alpha"]
        if alpha - turn < 14:
            sign = 1
        elif alpha + turn > 76:
            sign = -1
    return sign * turn


# -- the solver ------------------------------------------------------------------------------------------
@attrs.frozen
class _Flat:
    """All primitives of a drawing in one table: group index and row of each, type code (0 circle, 2 segment,
    n polygon), centre, size and the orientation descriptor."""

    groups: tuple[Group, ...]
    owner: np.ndarray
    row: np.ndarray
    codes: np.ndarray
    desc: np.ndarray

    def points(self, i: int) -> np.ndarray:
        return self.groups[self.owner[i]].data[self.row[i]]

    def kind(self, i: int) -> str:
        return self.groups[self.owner[i]].kind


def _describe(group: Group) -> tuple[np.ndarray, np.ndarray]:
    """Type codes and descriptors (cx, cy, size, size*cos(m phi), size*sin(m phi)) of a group; phi is the
    orientation modulo the primitive's own symmetry (m = 2 for a segment, n for an n-gon, none for a circle)."""
    d = group.data
    size = sizes(group)
    out = np.zeros((len(d), 5))
    if group.kind == "circle":
        out[:, :3] = d
        return np.zeros(len(d), dtype=int), out
    centre = d.mean(axis=1)
    if group.kind == "seg":
        v, m = d[:, 1] - d[:, 0], 2
    else:
        v, m = d[:, 0] - centre, d.shape[1]
    phi = np.arctan2(v[:, 1], v[:, 0])
    out[:, :2], out[:, 2] = centre, size
    out[:, 3], out[:, 4] = size * np.cos(m * phi), size * np.sin(m * phi)
    return np.full(len(d), m, dtype=int), out


def _flatten(groups: Sequence[Group]) -> _Flat:
    groups = tuple(g for g in groups if len(g))
    described = [_describe(g) for g in groups]
    owner = np.concatenate([np.full(len(g), k) for k, g in enumerate(groups)])
    row = np.concatenate([np.arange(len(g)) for g in groups])
    return _Flat(groups, owner, row, np.concatenate([c for c, _ in described]),
                 np.concatenate([d for _, d in described]))


def _inside(flat: _Flat, points: np.ndarray) -> np.ndarray:
    """inside[i, j]: point j lies strictly inside closed primitive i (convex polygons and circles)."""
    result = np.zeros((len(flat.codes), len(points)), dtype=bool)
    start = 0
    for g in flat.groups:
        rows = slice(start, start + len(g))
        start += len(g)
        if g.kind == "circle":
            result[rows] = np.hypot(points[None, :, 0] - g.data[:, None, 0], points[None, :, 1] - g.data[:, None, 1]) \
                < g.data[:, None, 2] * (1 - 1e-9)
        elif g.kind == "poly":
            q = g.data.copy()
            x, y = q[..., 0], q[..., 1]
            clockwise = (x * np.roll(y, -1, axis=1) - y * np.roll(x, -1, axis=1)).sum(axis=1) < 0
            q[clockwise] = q[clockwise, ::-1]
            edges = np.roll(q, -1, axis=1) - q  # m x n x 2
            rel = points[None, :, None, :] - q[:, None, :, :]  # m x p x n x 2
            cross = edges[:, None, :, 0] * rel[..., 1] - edges[:, None, :, 1] * rel[..., 0]
            result[rows] = (cross > 1e-12).all(axis=2)
    return result


def _square_frame(p: np.ndarray, target: np.ndarray, nearest: bool) -> tuple[float, float, float, float]:
    """Frame of a square standing on the edge nearest to (or farthest from) ``target``, interior on its left."""
    mids = (p + np.roll(p, -1, axis=0)) / 2
    dist = np.hypot(*(mids - target).T)
    k = int(np.argmin(dist) if nearest else np.argmax(dist))
    a, b = p[k], p[(k + 1) % len(p)]
    d = b - a
    inward = p.mean(axis=0) - mids[k]
    if d[0] * inward[1] - d[1] * inward[0] < 0:
        d = -d
    return float(mids[k][0]), float(mids[k][1]), math.atan2(d[1], d[0]), float(np.hypot(*d))


def _segment_frame(p: np.ndarray, base: int) -> tuple[float, float, float, float]:
    d = p[1 - base] - p[base]
    return float(p[base][0]), float(p[base][1]), math.atan2(d[1], d[0]), float(np.hypot(*d))


def _root_frames(flat: _Flat, root: int, first: Sequence[int], contained: bool) -> list[tuple]:
    """Candidate frames of the root: a segment starts at the end its children do not touch; a square in a tree
    stands on the edge facing away from its children; a nested polygon offers one frame per vertex; a circle
    points at each of its children in turn (it has no orientation of its own)."""
    kind, p = flat.kind(root), flat.points(root)
    centres = flat.desc[list(first), :2]
    if kind == "seg":
        touching = np.concatenate([flat.points(i).reshape(-1, 2) for i in first])
        far = np.hypot(*(p[:, None, :] - touching[None]).transpose(2, 0, 1)).min(axis=1)
        return [_segment_frame(p, int(np.argmax(far)))]
    if kind == "poly" and not contained:
        return [_square_frame(p, centres.mean(axis=0), nearest=False)]
    if kind == "circle":
        frames = []
        for c in centres:
            d = c - p[:2]
            frames.append((float(p[0]), float(p[1]), math.atan2(d[1], d[0]) if np.hypot(*d) > 1e-9 else 0.0,
                           float(p[2])))
        return frames
    centre = p.mean(axis=0)
    size = float(flat.desc[root, 2])
    return [(float(centre[0]), float(centre[1]), math.atan2(*(v - centre)[::-1]), size) for v in p]


def _child_frame_of(flat: _Flat, i: int, parent: tuple, contained: bool) -> tuple[float, float, float, float]:
    """Frame of a direct child, read the same way as the root's but relative to its parent."""
    ox, oy, angle, scale = parent
    kind, p = flat.kind(i), flat.points(i)
    if kind == "seg":
        tip = np.array([ox + scale * math.cos(angle), oy + scale * math.sin(angle)])
        return _segment_frame(p, int(np.argmin(np.hypot(*(p - tip).T))))
    if kind == "poly" and not contained:
        centre = np.array([ox, oy]) + scale * np.array([-math.sin(angle), math.cos(angle)]) / 2
        return _square_frame(p, centre, nearest=True)
    if kind == "circle":
        d = p[:2] - np.array([ox, oy])
        turned = math.atan2(d[1], d[0]) if np.hypot(*d) > 1e-9 * max(1.0, scale) else angle
        return float(p[0]), float(p[1]), turned, float(p[2])
    # a polygon nested in its parent: of its vertex frames, the one closest in angle to the parent's
    centre = p.mean(axis=0)
    angles = np.arctan2(p[:, 1] - centre[1], p[:, 0] - centre[0])
    best = angles[int(np.argmin(np.abs(np.remainder(angles - angle + math.pi, 2 * math.pi) - math.pi)))]
    return float(centre[0]), float(centre[1]), float(best), float(flat.desc[i, 2])


def self_similar(groups: Sequence[Group], min_levels: int = 3) -> bool:
    """True if the drawing is an exactly self-similar hierarchy of at least ``min_levels`` levels: the rule read
    off the root and its direct children, applied again and again, reproduces every drawn primitive and nothing
    else.  Uses only the drawn geometry (the generator's rule is never consulted)."""
    flat = _flatten(groups)
    count = len(flat.codes)
    if count < min_levels:
        return False
    size = flat.desc[:, 2]
    root = int(np.argmax(size))
    kind, rp = flat.kind(root), flat.points(root)
    centres = flat.desc[:, :2]
    others = np.arange(count) != root
    # nested drawings hold their parts inside the root (a twisted part may poke out, so "some" is enough);
    # trees attach their parts at shared vertices instead
    contained = kind in ("poly", "circle") and bool(_inside(_flatten([_single(flat, root)]), centres[others]).any())
    if contained:
        inside = _inside(flat, centres)
        holders = inside & (size[:, None] > size[None, :] * (1 + 1e-9))
        holders[root] = False
        first = [int(i) for i in np.flatnonzero(inside[root] & ~holders.any(axis=0) & others)]
    else:
        if kind == "circle":
            return False
        first = []
        for k, g in enumerate(flat.groups):
            if g.kind == "circle":
                continue
            gap = np.hypot(g.data[:, :, None, 0] - rp[None, None, :, 0], g.data[:, :, None, 1] - rp[None, None, :, 1])
            hits = np.flatnonzero((gap < MATCH_TOLERANCE).any(axis=(1, 2)))
            first.extend(int(i) for i in np.flatnonzero(flat.owner == k)[hits] if i != root)
    if not first:
        return False
    for root_frame in _root_frames(flat, root, first, contained):
        rule = []
        ox, oy, angle, scale = root_frame
        cos, sin = math.cos(angle), math.sin(angle)
        for i in first:
            x, y, a, s = _child_frame_of(flat, i, root_frame, contained)
            dx, dy = x - ox, y - oy
            rule.append(((cos * dx + sin * dy) / scale, (-sin * dx + cos * dy) / scale,
                         math.remainder(a - angle, 2 * math.pi), s / scale))
        if _regenerates(flat, root, root_frame, rule, min_levels):
            return True
    return False


def _single(flat: _Flat, i: int) -> Group:
    return Group(flat.kind(i), flat.points(i)[None])


def _regenerates(flat: _Flat, root: int, root_frame: tuple, rule: Sequence[tuple[float, float, float, float]],
                 min_levels: int) -> bool:
    """Whether applying ``rule`` from the root reproduces the drawing: same count, same primitives."""
    maps = np.array(rule, dtype=float).reshape(-1, 4)  # rows (dx, dy, turn, ratio), as ``_map_table`` makes
    levels = [np.array([root_frame], dtype=float)]
    total = 1
    while total < len(flat.codes):
        following = _children(levels[-1], maps)
        if following[:, 3].min() < 1e-6:
            return False
        levels.append(following)
        total += len(following)
    if total != len(flat.codes) or len(levels) < min_levels:
        return False
    frames = np.concatenate(levels)
    # carry the root primitive from its own frame to every regenerated frame
    ratio = frames[:, 3] / root_frame[3]
    turn = frames[:, 2] - root_frame[2]
    cos, sin = np.cos(turn) * ratio, np.sin(turn) * ratio
    kind, rp = flat.kind(root), flat.points(root)
    o = np.array(root_frame[:2])
    if kind == "circle":
        rel = rp[:2] - o
        centre = np.stack([frames[:, 0] + cos * rel[0] - sin * rel[1], frames[:, 1] + sin * rel[0] + cos * rel[1]], 1)
        made = Group("circle", np.concatenate([centre, (rp[2] * ratio)[:, None]], axis=1))
    else:
        rx, ry = (rp - o)[None, :, 0], (rp - o)[None, :, 1]
        c, s = cos[:, None], sin[:, None]
        x, y = frames[:, None, 0], frames[:, None, 1]
        made = Group(kind, np.stack([x + c * rx - s * ry, y + s * rx + c * ry], axis=2))
    made_codes, made_desc = _describe(made)
    if not np.array_equal(np.sort(made_codes), np.sort(flat.codes)):
        return False
    gap = np.abs(flat.desc[:, None, :] - made_desc[None, :, :]).max(axis=2)
    gap[flat.codes[:, None] != made_codes[None, :]] = np.inf
    return bool((gap.min(axis=1) < MATCH_TOLERANCE).all() and (gap.min(axis=0) < MATCH_TOLERANCE).all())
