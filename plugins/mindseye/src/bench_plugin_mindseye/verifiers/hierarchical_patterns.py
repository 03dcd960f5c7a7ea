"""Artefact verifier of Hierarchical Pattern Equivalence (HPE): which figure is not an exactly self-similar
hierarchy, read from the recorded primitives alone, and whether the pixels show those primitives.

A panel description (``scene["options"][k]``) holds the primitives as drawn, in unit panel coordinates (0..1,
y down): ``segments`` ``[x0, y0, x1, y1]``, ``polygons`` ``[[x, y], ...]``, ``circles`` ``[x, y, r]``; the pen
width in tile pixels and its colour; and the recursion parameters the generator claims (``levels``,
``branching``, ``motif``).

The self-similarity test works on complex coordinates and direct similarities ``z -> a z + b``.  A figure is
self-similar when there are maps g_1 ... g_k such that, starting from the root R (the unique largest part),
the levels L_0 = {R}, L_{l+1} = union of g_i(L_l) are disjoint sets of drawn parts with k^l members each, at
least three of them, that together hold every drawn part, and the level after the last lies wholly off the
drawing.  Each level is matched against the drawn parts before the next is made, so quantisation errors do
not pile up.  The maps are searched exhaustively: the largest part not yet explained is always a child of
the root (every map shrinks), so it fixes the next map up to the symmetries of the root (2 for a segment, n
for an n-gon; for circles, the direction is fixed by where the map must send a reference circle), and every
such choice is tried.  A figure for which no choice works is proven not self-similar.

Circles show no orientation of their own, so a circle is read as facing away from its parent: in a figure of
circles, every map must turn its copy by the same angle relative to the direction in which its child sits
from the root, and the root faces one of its children (that child's map does not turn).  Without this, a
ring whose sub-rings are turned at will would pass as a copy of itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench_plugin_mindseye.verifiers import line_raster

#: Two parts are the same when every vertex (centre and radius for circles) is within this (unit panel).
TOLERANCE = 1e-3
#: Two turns are the same within this (radians).
ANGLE_TOLERANCE = 0.02
#: A root must be larger than every other part by this factor.
ROOT_MARGIN = 1.001
#: Search nodes after which a figure is declared undecided (never reached by the task's figures).
SEARCH_LIMIT = 4000
#: Pixel checks: darkness (255 - darkest channel) counted as ink, as clear ink, and the least fraction of a
#: part's centre line that must be inked; stray ink pixels allowed off every recorded part.
INK_DARKNESS = 60
CLEAR_DARKNESS = 100
PRESENT = 0.8
STRAY_ALLOWED = 3
#: How far (pixels) beyond the pen's edge ink may lie and still count as part of a recorded part.
STRAY_REACH = 2.0
BORDER = 3


@dataclass(frozen=True)
class Verdict:
    """The outcome of the self-similarity search: ``status`` is "self-similar" (then ``levels`` and
    ``branching`` say what was found), "broken" (proven: no set of maps regenerates the figure) or
    "undecided"."""

    status: str
    levels: int = 0
    branching: int = 0


class _Parts:
    """The primitives of one description in complex coordinates, grouped by type code (0 circle, 2 segment,
    n >= 3 polygon) for vectorised matching."""

    def __init__(self, description: Mapping[str, Any]):
        codes, verts, radii = [], [], []
        for x0, y0, x1, y1 in description.get("segments", ()):
            codes.append(2)
            verts.append(np.array([x0 + 1j * y0, x1 + 1j * y1]))
            radii.append(0.0)
        for poly in description.get("polygons", ()):
            z = np.array([complex(x, y) for x, y in poly])
            area = float(np.sum((z.conj() * np.roll(z, -1)).imag))
            codes.append(len(z))
            verts.append(z if area >= 0 else z[::-1])
            radii.append(0.0)
        for x, y, r in description.get("circles", ()):
            codes.append(0)
            verts.append(np.array([complex(x, y)]))
            radii.append(float(r))
        self.codes = np.array(codes, dtype=int)
        self.verts = verts
        self.radius = np.array(radii, dtype=float)
        self.centre = np.array([v.mean() for v in verts], dtype=complex)
        self.size = np.array([
            self.radius[i] if c == 0 else (abs(v[1] - v[0]) if c == 2 else float(np.sqrt(np.mean(np.abs(v - v.mean())
                                                                                                 ** 2))))
            for i, (c, v) in enumerate(zip(codes, verts, strict=True))
        ])
        self.groups: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for code in sorted(set(codes)):
            members = np.flatnonzero(self.codes == code)
            table = np.array([self.verts[i] for i in members]) if code else self.centre[members, None]
            self.groups[code] = (members, table)

    def __len__(self) -> int:
        return len(self.codes)

    def act(self, a: complex, b: complex) -> np.ndarray:
        """For every part, the index of the drawn part that ``z -> a z + b`` sends it onto, or -1."""
        out = np.full(len(self), -1)
        for code, (members, table) in self.groups.items():
            moved = a * table + b
            centres = moved.mean(axis=1)
            gap = np.maximum(np.abs(centres[:, None] - self.centre[None, members]),
                             np.abs(abs(a) * self.size[members][:, None] - self.size[None, members]))
            best = np.argmin(gap, axis=1)
            close = gap[np.arange(len(members)), best] < TOLERANCE
            if code and close.any():
                rows = np.flatnonzero(close)
                d = np.abs(moved[rows][:, :, None] - table[best[rows]][:, None, :])
                far = np.maximum(d.min(axis=2).max(axis=1), d.min(axis=1).max(axis=1))
                close[rows] = far < TOLERANCE
            out[members[close]] = members[best[close]]
        return out


def _maps(parts: _Parts, root: int, target: int, reference: int | None) -> list[tuple[complex, complex]]:
    """Every direct similarity that sends the root part onto the ``target`` part (one per symmetry of the
    root; for circles, one per drawn circle the ``reference`` circle could be sent to)."""
    code = parts.codes[root]
    if parts.codes[target] != code:
        return []
    r, x = parts.verts[root], parts.verts[target]
    if code == 2:
        return [((x[1] - x[0]) / (r[1] - r[0]), x[0] - (x[1] - x[0]) / (r[1] - r[0]) * r[0]),
                ((x[0] - x[1]) / (r[1] - r[0]), x[1] - (x[0] - x[1]) / (r[1] - r[0]) * r[0])]
    if code >= 3:
        out = []
        rc = r - r.mean()
        for shift in range(code):
            xs = np.roll(x, -shift)
            a = complex(np.sum((xs - xs.mean()) * rc.conj()) / np.sum(np.abs(rc) ** 2))
            b = complex(xs.mean() - a * r.mean())
            if np.abs(a * r + b - xs).max() < TOLERANCE:
                out.append((a, b))
        return out
    rho = parts.radius[target] / parts.radius[root]
    c_root, c_target = parts.centre[root], parts.centre[target]
    if reference is None:  # every circle is concentric with the root: the direction does not matter
        return [(complex(rho), c_target - rho * c_root)]
    arm = parts.centre[reference] - c_root
    circles = parts.groups[0][0]
    out = []
    for y in circles:
        if abs(parts.radius[y] - rho * parts.radius[reference]) >= TOLERANCE:
            continue
        reach = parts.centre[y] - c_target
        if abs(abs(reach) - rho * abs(arm)) >= TOLERANCE:
            continue
        a = rho * (reach / arm) / abs(reach / arm)
        out.append((complex(a), complex(c_target - a * c_root)))
    return out


def _levels(acts: Sequence[np.ndarray], root: int, count: int) -> int:
    """The number of levels the maps (as part-to-part actions) regenerate from the root, or 0 if they do not
    regenerate exactly the drawn parts (disjoint levels of k^l parts, the level after the last wholly off)."""
    level = np.array([root])
    seen = np.zeros(count, dtype=bool)
    seen[root] = True
    levels = 1
    while True:
        following = np.concatenate([act[level] for act in acts])
        off = following < 0
        if off.all():
            break
        if off.any() or len(np.unique(following)) != len(following) or seen[following].any():
            return 0
        seen[following] = True
        level = following
        levels += 1
    return levels if seen.all() and levels >= 3 else 0


def figure_verdict(description: Mapping[str, Any]) -> Verdict:
    """Whether the recorded figure is an exactly self-similar hierarchy (see the module docstring)."""
    parts = _Parts(description)
    count = len(parts)
    if count < 3:
        return Verdict("broken")
    order = np.argsort(-parts.size, kind="stable")
    root = int(order[0])
    if parts.size[order[1]] * ROOT_MARGIN >= parts.size[root] or parts.size[root] < TOLERANCE:
        return Verdict("broken")
    reference = None
    if parts.codes[root] == 0:
        off_centre = [int(i) for i in order[1:] if parts.codes[i] == 0
                      and abs(parts.centre[i] - parts.centre[root]) >= TOLERANCE]
        reference = off_centre[0] if off_centre else None
    cache: dict[int, list[tuple[np.ndarray, complex]]] = {}

    def candidates(target: int) -> list[tuple[np.ndarray, complex]]:
        """The distinct maps root -> target that also send the target somewhere on the drawing (it has
        children: there are at least three levels), most parts kept on the drawing first."""
        if target not in cache:
            found: dict[bytes, tuple[np.ndarray, complex]] = {}
            for a, b in _maps(parts, root, target, reference):
                act = parts.act(a, b)
                if act[root] == target and act[target] >= 0:
                    key = act.tobytes() + (np.round(_spin(parts, root, target, a), 2).tobytes() if reference else b"")
                    found.setdefault(key, (act, a))
            cache[target] = sorted(found.values(), key=lambda c: -int((c[0] >= 0).sum()))
        return cache[target]

    budget = [SEARCH_LIMIT]

    def search(chosen: list[tuple[np.ndarray, complex, int]], explained: np.ndarray) -> int:
        """Levels regenerated by the ``chosen`` maps plus those still to be found, 0 if no choice works."""
        budget[0] -= 1
        if budget[0] < 0:
            raise _Undecided
        if explained.all():
            if reference is not None and min(abs(np.angle(a)) for _, a, _ in chosen) >= ANGLE_TOLERANCE:
                return 0  # circles: the root faces one of its children, whose copy is not turned
            return _levels([act for act, _, _ in chosen], root, count)
        rest = np.flatnonzero(~explained)
        target = int(rest[np.argmax(parts.size[rest])])
        for act, a in candidates(target):
            if reference is not None and chosen and not _same_angle(
                    _spin(parts, root, target, a), _spin(parts, root, chosen[0][2], chosen[0][1])):
                continue
            grown = explained.copy()
            grown[act[act >= 0]] = True
            chosen.append((act, a, target))
            levels = search(chosen, grown)
            if levels:
                return levels
            chosen.pop()
        return 0

    start = np.zeros(count, dtype=bool)
    start[root] = True
    chosen: list[tuple[np.ndarray, complex, int]] = []
    try:
        levels = search(chosen, start)
    except _Undecided:
        return Verdict("undecided")
    if not levels:
        return Verdict("broken")
    return Verdict("self-similar", levels, len(chosen))


def _spin(parts: _Parts, root: int, target: int, a: complex) -> float:
    """How far a map turns the copy beyond the direction in which its child sits from the root (circles only:
    a circle shows no orientation, so it is read as facing away from its parent)."""
    return float(np.angle(a) - np.angle(parts.centre[target] - parts.centre[root]))


def _same_angle(one: float, other: float) -> bool:
    return abs(np.exp(1j * one) - np.exp(1j * other)) < ANGLE_TOLERANCE


class _Undecided(Exception):
    """The search ran out of budget."""


_LAST: dict[str, list[Verdict]] = {}


def verdicts(scene: Mapping[str, Any]) -> list[Verdict]:
    """``figure_verdict`` of every option (the last scene's verdicts are kept: verify asks twice)."""
    key = json.dumps(scene["options"])
    if key not in _LAST:
        _LAST.clear()
        _LAST[key] = [figure_verdict(d) for d in scene["options"]]
    return _LAST[key]


def solve_scene(scene: Mapping[str, Any]) -> list[int]:
    """Indices of the options whose figure is not proven self-similar (the one that breaks its rule)."""
    return [k for k, verdict in enumerate(verdicts(scene)) if verdict.status != "self-similar"]


#: The part type code each recorded motif is drawn with.
_MOTIF_CODES = {"seg": 2, "square": 4, "circle": 0}


def record_failures(scene: Mapping[str, Any]) -> list[str]:
    """What the record claims and the figures contradict: a figure the search cannot decide, and a
    self-similar figure whose levels, children per part or motif differ from its recorded recursion."""
    failures = []
    for k, (description, verdict) in enumerate(zip(scene["options"], verdicts(scene), strict=True)):
        name = chr(ord("A") + k)
        if verdict.status == "undecided":
            failures.append(f"figure {name}: self-similarity could not be decided")
            continue
        if verdict.status != "self-similar":
            continue
        claimed = description.get("recursion", {})
        found = {"levels": verdict.levels, "branching": verdict.branching}
        for key, value in found.items():
            if claimed.get(key) != value:
                failures.append(f"figure {name}: the record claims {key} {claimed.get(key)}, the figure has {value}")
        parts = _Parts(description)
        root_code = int(parts.codes[int(np.argmax(parts.size))])
        motif = claimed.get("motif") or ["?", -1]
        if _MOTIF_CODES.get(motif[0], motif[1]) != root_code:
            failures.append(f"figure {name}: the record claims motif {motif}, the root part is of type {root_code}")
    return failures


def _polylines(description: Mapping[str, Any], side: int) -> tuple[np.ndarray, np.ndarray]:
    """The recorded parts as segments in continuous tile pixels, and the part each segment belongs to."""
    pieces, owners = [], []
    index = 0
    for x0, y0, x1, y1 in description.get("segments", ()):
        pieces.append(np.array([[[x0, y0], [x1, y1]]]) * side)
        owners.append(np.full(1, index))
        index += 1
    for poly in description.get("polygons", ()):
        seg = line_raster.polyline_segments(np.asarray(poly, dtype=float) * side, closed=True)
        pieces.append(seg)
        owners.append(np.full(len(seg), index))
        index += 1
    for x, y, r in description.get("circles", ()):
        seg = line_raster.polyline_segments(line_raster.circle_polyline(x * side, y * side, r * side), closed=False)
        pieces.append(seg)
        owners.append(np.full(len(seg), index))
        index += 1
    if not pieces:
        return np.zeros((0, 2, 2)), np.zeros(0, dtype=int)
    return np.concatenate(pieces), np.concatenate(owners)


def sketch(description: Mapping[str, Any], side: int) -> np.ndarray:
    """The recorded parts stroked with the recorded pen on white (RGB, side x side)."""
    segments, _ = _polylines(description, side)
    cover = line_raster.stroke_coverage(side, segments, float(description["pen"]))
    return line_raster.paint(side, [(cover, description.get("ink", (20, 20, 20)))])


def panel_pixel_failures(tile: np.ndarray, description: Mapping[str, Any], name: str) -> list[str]:
    """Parts of the record that the panel's pixels do not show (less than ``PRESENT`` of a part's centre line
    inked), and clear ink lying off every recorded part (more than ``STRAY_ALLOWED`` pixels)."""
    side = tile.shape[0]
    failures = []
    darkness = line_raster.darkness(tile)
    segments, owner = _polylines(description, side)
    if len(segments):
        points, which = line_raster.samples(segments)
        inked = line_raster.darkness(line_raster.pixel_at(tile, points)) > INK_DARKNESS
        parts = owner[which]
        shown = np.bincount(parts, weights=inked, minlength=owner.max() + 1) / np.bincount(parts)
        missing = int((shown < PRESENT).sum())
        if missing:
            failures.append(f"figure {name}: {missing} recorded part(s) are not drawn where the record puts them")
    allowed = line_raster.near(side, segments, float(description["pen"]) / 2 + STRAY_REACH)
    stray = (darkness > CLEAR_DARKNESS) & ~allowed
    stray[:BORDER], stray[-BORDER:], stray[:, :BORDER], stray[:, -BORDER:] = False, False, False, False
    if int(stray.sum()) > STRAY_ALLOWED:
        failures.append(f"figure {name}: {int(stray.sum())} ink pixels lie off every recorded part")
    return failures


def pixel_failures(scene: Mapping[str, Any], image: Any) -> list[str]:
    """``panel_pixel_failures`` of every option panel cut from the image at its recorded box."""
    pixels = np.asarray(image.convert("RGB"))
    failures = []
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        left, top, right, bottom = box
        tile = pixels[top:bottom, left:right]
        if tile.shape[:2] != (scene["tile"], scene["tile"]):
            failures.append(f"figure {chr(ord('A') + k)}: box {box} is not a {scene['tile']} px tile")
            continue
        failures += panel_pixel_failures(tile, description, chr(ord("A") + k))
    return failures
