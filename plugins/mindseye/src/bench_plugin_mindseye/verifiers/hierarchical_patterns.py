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

import contextlib
import functools
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image, ImageChops

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
#: A part's own stretch is the centre line that no other recorded part's ink can reach (see ``part_ink``); a
#: part with at least ``OWN_LEAST`` samples of its own must have ``OWN_PRESENT`` of them on ink darker than
#: ``OWN_DARKNESS`` (a sound drawing has all of them on the pen's core).  Parts in a hierarchy often lie on
#: their parent's or siblings' lines, so a part turned or left out can keep most of its whole centre line
#: inked by its neighbours; its own stretch cannot.
OWN_LEAST = 6
OWN_DARKNESS = 100
OWN_PRESENT = 0.9
#: Pixel-exact checks (pixel centres against the recorded centre lines): every pixel within half the pen less
#: ``CORE_SLACK`` of a centre line (a segment's square-cut tips left out) lies wholly under the pen and must be
#: ink (darker than ``INK_DARKNESS``), and no clear ink (darker than ``CLEAR_DARKNESS``, over half covered)
#: may lie further than half the pen plus ``EDGE_SLACK``; at most ``EXACT_ALLOWED`` pixels of each kind may
#: break this.  A sound drawing breaks neither (none in 256 panels of every generator at both sizes); a part
#: turned by 25 degrees shows ink off its place and leaves its place blank where no other part covers it.
CORE_SLACK = 0.75
EDGE_SLACK = 1.0
EXACT_ALLOWED = 2


@dataclass(frozen=True)
class Verdict:
    """The outcome of the self-similarity search: ``status`` is "self-similar" (then ``levels`` and
    ``branching`` say what was found, and ``root_code`` the type code of the root, the largest part), "broken"
    (proven: no set of maps regenerates the figure) or "undecided"."""

    status: str
    levels: int = 0
    branching: int = 0
    root_code: int = -1


class _Parts:
    """The primitives of one description in complex coordinates, grouped by type code (0 circle, 2 segment,
    n >= 3 polygon) for vectorised matching."""

    def __init__(self, description: Mapping[str, Any]):
        # per kind at once, parts in record order: segments, polygons (each vertex count at once), circles
        lines = [list(line) for line in description.get("segments", ())]
        if any(len(line) != 4 for line in lines):
            raise ValueError("a recorded segment is not [x0, y0, x1, y1]")
        ends = np.array(lines, dtype=float).reshape(-1, 2, 2)
        segments = ends[..., 0] + 1j * ends[..., 1]
        polygons = [_table(poly, 2, "polygon corner") for poly in description.get("polygons", ())]
        circles = _table(description.get("circles", ()), 3, "circle")
        count = len(segments) + len(polygons) + len(circles)
        placeholder = np.zeros(0, dtype=complex)  # each polygon's vertices are set below
        verts = [*segments, *([placeholder] * len(polygons)), *_complex(circles[:, :2])[:, None]]
        codes = np.zeros(count, dtype=int)
        codes[:len(segments)] = 2
        centre = np.zeros(count, dtype=complex)
        centre[:len(segments)] = segments.mean(axis=1)
        size = np.zeros(count)
        step = segments[:, 1] - segments[:, 0]
        size[:len(segments)] = np.hypot(step.real, step.imag)  # what abs() of each complex step gives
        corners = np.array([len(p) for p in polygons], dtype=int)
        for n in np.unique(corners).tolist():
            chosen = np.flatnonzero(corners == n)
            z = _complex(np.array([polygons[k] for k in chosen]).reshape(len(chosen), n, 2))
            area = (z.conj() * np.roll(z, -1, axis=1)).imag.sum(axis=1)
            z[area < 0] = z[area < 0, ::-1]  # counter-clockwise in y-down panel coordinates
            at = len(segments) + chosen
            codes[at] = n
            middle = z.mean(axis=1)
            centre[at] = middle
            size[at] = np.sqrt(np.mean(np.abs(z - middle[:, None]) ** 2, axis=1))
            for k, row in zip(at.tolist(), z, strict=True):
                verts[k] = row
        radius = np.zeros(count)
        radius[count - len(circles):] = circles[:, 2]
        centre[count - len(circles):] = _complex(circles[:, :2])
        size[count - len(circles):] = circles[:, 2]
        self.codes = codes
        self.verts = verts
        self.radius = radius
        self.centre = centre
        self.size = size
        self.groups: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        #: per type code with more than ``_DENSE`` parts: the parts' places in ``members`` in the order of their
        #: centres' x, and those x in that order (``_closest``)
        self.by_x: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for code in sorted(set(codes.tolist())):
            members = np.flatnonzero(self.codes == code)
            table = np.array([self.verts[i] for i in members]) if code else self.centre[members, None]
            self.groups[code] = (members, table)
            if len(members) > _DENSE:
                order = np.argsort(self.centre[members].real, kind="stable")
                self.by_x[code] = (order, self.centre[members].real[order])

    def __len__(self) -> int:
        return len(self.codes)

    def act(self, a: complex, b: complex) -> np.ndarray:
        """For every part, the index of the drawn part that ``z -> a z + b`` sends it onto, or -1."""
        out = np.full(len(self), -1)
        for code, (members, table) in self.groups.items():
            moved = a * table + b
            centres = moved.mean(axis=1)
            if code in self.by_x:
                best, least = self._closest(code, centres, abs(a) * self.size[members])
                close = least < TOLERANCE
            else:
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

    def _closest(self, code: int, centres: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For parts of type ``code`` moved to ``centres`` with sizes ``sizes``: the place in the code's members of
        the drawn part with the least gap (the larger of the centres' distance and the sizes' difference, the first
        of equal ones) and that gap -- what the all-pairs table of ``act`` gives wherever the gap is below
        ``TOLERANCE`` (elsewhere the gap is at least ``TOLERANCE``, and the place is 0 if no drawn part's centre
        lies within twice ``TOLERANCE`` in x).  Only the drawn parts whose centre lies that near in x are
        measured: a part with a gap below ``TOLERANCE`` is among them."""
        members = self.groups[code][0]
        order, xs = self.by_x[code]
        low = np.searchsorted(xs, centres.real - 2 * TOLERANCE, side="left")
        count = np.searchsorted(xs, centres.real + 2 * TOLERANCE, side="right") - low
        best = np.zeros(len(centres), dtype=np.intp)
        least = np.full(len(centres), np.inf)
        found = np.flatnonzero(count > 0)
        if not len(found):
            return best, least
        count, low = count[found], low[found]
        starts = np.cumsum(count) - count
        rows = np.repeat(found, count)
        places = order[np.arange(int(count.sum())) - np.repeat(starts, count) + np.repeat(low, count)]
        targets = members[places]
        # the very expression of the all-pairs table, pair by pair
        gap = np.maximum(np.abs(centres[rows] - self.centre[targets]), np.abs(sizes[rows] - self.size[targets]))
        smallest = np.minimum.reduceat(gap, starts)
        # the first of the equal least gaps: the least place among them
        first = np.minimum.reduceat(np.where(gap == np.repeat(smallest, count), places, len(members)), starts)
        best[found], least[found] = first, smallest
        return best, least


#: Parts of one type code above which ``_Parts.act`` measures each moved part against the drawn parts near it in x
#: only (``_Parts._closest``) instead of against all of them.
_DENSE = 48


def _table(rows: Any, width: int, name: str) -> np.ndarray:
    """Recorded rows of ``width`` numbers as an n x width array (an empty record: 0 x width)."""
    table = np.array(rows, dtype=float)
    if not table.size:
        return table.reshape(0, width)
    if table.ndim != 2 or table.shape[1] != width:
        raise ValueError(f"a recorded {name} is not {width} numbers")
    return table


def _complex(xy: np.ndarray) -> np.ndarray:
    """Points (..., 2) as complex numbers x + iy, exactly."""
    z = np.empty(xy.shape[:-1], dtype=complex)
    z.real, z.imag = xy[..., 0], xy[..., 1]
    return z


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
        # every cyclic shift of the target's corners at once, one row per shift (row k: the corners rolled back
        # by k, ``np.roll(x, -k)``): the least-squares similarity of the root onto each, kept where it fits
        rc = r - r.mean()
        shifted = x[_shifts(code)]
        middle = shifted.mean(axis=1)
        a = ((shifted - middle[:, None]) * rc.conj()).sum(axis=1) / np.sum(np.abs(rc) ** 2)
        b = middle - a * r.mean()
        fits = np.abs(a[:, None] * r + b[:, None] - shifted).max(axis=1) < TOLERANCE
        return [(complex(a[k]), complex(b[k])) for k in np.flatnonzero(fits).tolist()]
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


@functools.lru_cache(maxsize=16)
def _shifts(n: int) -> np.ndarray:
    """Row k: the indices (k, k + 1, ..., k - 1) mod n of the corners of an n-gon rolled back by k (read-only)."""
    table = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
    table.setflags(write=False)
    return table


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
    return Verdict("self-similar", levels, len(chosen), int(parts.codes[root]))


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
    """``figure_verdict`` of every option (the last scene's verdicts are kept: verify asks twice; inside
    ``shared_lines`` they are kept for the options object itself, which is not written to meanwhile)."""
    blocks = _open_blocks()
    if blocks:
        memo, options = blocks[-1], scene["options"]
        if (id(options), -1) not in memo:
            memo[(id(options), -1)] = (options, [figure_verdict(d) for d in options])
        return memo[(id(options), -1)][1]
    key = json.dumps(scene["options"])
    found = _LAST.get(key)  # one lookup: another thread may clear the table between two
    if found is None:
        found = [figure_verdict(d) for d in scene["options"]]
        _LAST.clear()
        _LAST[key] = found
    return found


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
        motif = claimed.get("motif") or ["?", -1]
        if _MOTIF_CODES.get(motif[0], motif[1]) != verdict.root_code:
            failures.append(f"figure {name}: the record claims motif {motif}, the root part is of type "
                            f"{verdict.root_code}")
    return failures


#: Per thread, the memos of its open ``shared_lines`` blocks: (id of a description, side) -> (the description, its
#: ``_prepared`` lines); (id of a scene's options, -1) -> (the options, their ``verdicts``).
_SHARED = threading.local()


def _open_blocks() -> list[dict[tuple[int, int], tuple[Any, Any]]]:
    """This thread's stack of open ``shared_lines`` memos (a block opened in one thread is not seen in another)."""
    blocks = getattr(_SHARED, "blocks", None)
    if blocks is None:
        blocks = _SHARED.blocks = []
    return blocks


@contextlib.contextmanager
def shared_lines() -> Iterator[None]:
    """Within the block, each description object's ``_prepared`` lines at one side are made once (the sketch and
    the pixel checks of one verify share them), and so are the ``verdicts`` of one options object; outside it
    they are made afresh every time (the verdicts: but for the last scene's).  The objects are not to be written
    to inside the block."""
    blocks = _open_blocks()
    blocks.append({})
    try:
        yield
    finally:
        blocks.pop()


def _prepared(description: Mapping[str, Any], side: int,
              ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray] | None]:
    """``_polylines`` of the description at ``side``, and their samples 0.7 pixels apart (``line_raster.samples``;
    None if there is no segment) -- made once per description object inside ``shared_lines``."""
    blocks = _open_blocks()
    memo = blocks[-1] if blocks else None
    key = (id(description), side)
    if memo is not None and key in memo:
        return memo[key][1]
    lines = _polylines(description, side)
    made = (lines, line_raster.samples(lines[0], step=0.7) if len(lines[0]) else None)
    if memo is not None:
        memo[key] = (description, made)  # the description kept alive with its lines: its id is not reused
    return made


def _polylines(description: Mapping[str, Any], side: int) -> tuple[np.ndarray, np.ndarray]:
    """The recorded parts as segments in continuous tile pixels, and the part each segment belongs to (parts in
    record order: segments, polygons, circles; a polygon's edges in order, closing back to its first corner)."""
    pieces, owners = [], []
    index = 0
    lines = description.get("segments", ())
    if any(len(line) != 4 for line in lines):
        raise ValueError("a recorded segment is not [x0, y0, x1, y1]")
    if len(lines):
        pieces.append(np.asarray(lines, dtype=float).reshape(-1, 2, 2) * side)
        owners.append(np.arange(len(lines)))
        index += len(lines)
    polygons = list(description.get("polygons", ()))
    start = 0
    while start < len(polygons):  # runs of polygons with as many corners, each run at once
        corners = len(polygons[start])
        stop = start + 1
        while stop < len(polygons) and len(polygons[stop]) == corners:
            stop += 1
        run = np.asarray(polygons[start:stop], dtype=float).reshape(stop - start, corners, 2) * side
        pieces.append(np.stack([run, np.roll(run, -1, axis=1)], axis=2).reshape(-1, 2, 2))
        owners.append(np.repeat(np.arange(index, index + stop - start), corners))
        index += stop - start
        start = stop
    circles = [(x * side, y * side, r * side) for x, y, r in description.get("circles", ())]
    if circles:
        # ``line_raster.circle_polyline`` of every circle, each as its own polyline: the circles with as many
        # points at once (the same angles), laid out in record order
        table = np.array(circles, dtype=float).reshape(-1, 3)
        counts = [max(16, int(np.ceil(2 * np.pi * r / 3.0))) for _, _, r in circles]
        runs: dict[int, np.ndarray] = {}
        for count in sorted(set(counts)):
            chosen = [k for k, c in enumerate(counts) if c == count]
            angles = np.linspace(0.0, 2 * np.pi, count + 1)
            cx, cy, r = (table[chosen, k][:, None] for k in range(3))
            ring = np.stack([cx + r * np.cos(angles)[None, :], cy + r * np.sin(angles)[None, :]], axis=2)
            runs[count] = np.stack([ring[:, :-1], ring[:, 1:]], axis=2)  # each polyline's segments, not closed
        taken = dict.fromkeys(runs, 0)
        for count in counts:
            seg = runs[count][taken[count]]
            taken[count] += 1
            pieces.append(seg)
            owners.append(np.full(len(seg), index))
            index += 1
    if not pieces:
        return np.zeros((0, 2, 2)), np.zeros(0, dtype=int)
    return np.concatenate(pieces), np.concatenate(owners)


def sketch(description: Mapping[str, Any], side: int) -> np.ndarray:
    """The recorded parts stroked with the recorded pen on white (RGB, side x side): every pixel within half the
    pen of the centre lines painted the recorded ink -- the pixels holding centre-line samples 0.7 pixels apart
    grown by a disc of half the pen (``line_raster.near``, worked out on the box of the strokes only,
    ``line_raster.grown_box``).  What panel identity compares with the panel at half resolution: on 80 written
    panels each at 1024x1024 and 600x800 at least 0.86 of the inked pixels agree (0.90 at 1024x1024; the pen's
    coverage counted on a grid twice as fine, the sketch before, agreed on at least 0.95 at several times the
    cost; the check asks for half)."""
    _, fine = _prepared(description, side)
    found = None
    if fine is not None:
        found = line_raster.grown_box(fine[0], side, float(description["pen"]) / 2)
    if found is None:
        return np.full((side, side, 3), 255, dtype=np.uint8)
    (x0, y0), box = found
    inked = np.zeros((side, side), dtype=np.uint8)
    inked[y0:y0 + box.shape[0], x0:x0 + box.shape[1]] = box
    # painted by Pillow: a palette image of two colours (white, the ink) turned into RGB
    picture = Image.fromarray(inked, "P")
    picture.putpalette([255, 255, 255, *(int(v) for v in description.get("ink", (20, 20, 20)))])
    return np.asarray(picture.convert("RGB"))


def _own_samples(points: np.ndarray, parts: np.ndarray, side: int, reach: float) -> np.ndarray:
    """Which centre-line samples (continuous tile pixels, each of the part in ``parts``) lie further than about
    ``reach`` pixels from every sample of another part: every pixel within ``reach`` of a sample's pixel holds no
    sample or samples of its own part only."""
    ij = np.floor(points).astype(int).clip(0, side - 1)
    parts = parts.astype(np.int16 if not len(parts) or int(parts.max()) < 2 ** 15 else np.int32)
    span = int(np.ceil(reach))
    # per pixel: -1 where no sample lies, the part where the samples of one part lie, -2 where two parts meet; on a
    # grid padded by ``span`` with -1 (an offset off the tile tests nothing)
    wide = side + 2 * span
    at = (ij[:, 1] + span) * wide + ij[:, 0] + span
    held = np.full(wide * wide, -1, dtype=parts.dtype)
    held[at] = parts
    held[at[held[at] != parts]] = -2
    dy, dx = np.mgrid[-span:span + 1, -span:span + 1]
    inside = dx * dx + dy * dy <= reach * reach
    offsets = (dy[inside] * wide + dx[inside]).ravel()
    around = held[offsets[:, None] + at[None, :]]  # one row per offset
    return ((around == parts[None, :]) | (around == -1)).all(axis=0)


def _tips(points: np.ndarray, which: np.ndarray, segments: np.ndarray, recorded: int, reach: float) -> np.ndarray:
    """Which samples (``line_raster.samples`` of ``segments``: ``which`` holds each one's segment) lie within
    ``reach`` of an end of their segment, a recorded segment (one of the first ``recorded``; the others are the
    polygons' and circles' edges, which have no tips).  The samples come segment by segment, so those of the
    recorded segments come first, and only those are measured."""
    tips = np.zeros(len(points), dtype=bool)
    count = int(np.searchsorted(which, recorded))
    if count:
        near, ends = points[:count], segments[which[:count]]
        tips[:count] = np.minimum(np.hypot(*(near - ends[:, 0]).T), np.hypot(*(near - ends[:, 1]).T)) < reach
    return tips


def part_ink(tile: np.ndarray, description: Mapping[str, Any], lines: tuple[np.ndarray, np.ndarray] | None = None,
             darkness: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per recorded part (segments, polygons, circles in record order): the fraction of its centre-line samples
    (about a pixel apart; a segment's square-cut tips, within a pixel of its ends, left out unless nothing else
    is left) on ink darker than ``INK_DARKNESS``; how many samples its own stretch has (the samples, tips left
    out, further than half the pen plus ``STRAY_REACH`` plus a pixel of rounding from every other part's
    centre line); and the fraction of those on ink darker than ``OWN_DARKNESS``.  ``lines``: ``_polylines`` of
    the description at the tile's side, and the tile's ``line_raster.darkness``: if already made (then ``tile``
    is not read)."""
    side = (tile if darkness is None else darkness).shape[0]
    segments, owner = lines if lines is not None else _polylines(description, side)
    if not len(segments):
        return np.zeros(0), np.zeros(0, dtype=int), np.zeros(0)
    points, which = line_raster.samples(segments)
    if darkness is None:
        darkness = line_raster.darkness(line_raster.pixel_at(tile, points))
    else:  # the darkness of the pixel holding each sample, clipped to the tile (``line_raster.pixel_at``)
        x = np.clip(np.floor(points[:, 0]).astype(int), 0, darkness.shape[1] - 1)
        y = np.clip(np.floor(points[:, 1]).astype(int), 0, darkness.shape[0] - 1)
        darkness = darkness[y, x]
    parts = owner[which]
    count = int(owner.max()) + 1
    tips = _tips(points, which, segments, len(description.get("segments", ())), 1.0)
    body = ~tips | (np.bincount(parts[~tips], minlength=count) == 0)[parts]
    shown = np.bincount(parts[body], weights=darkness[body] > INK_DARKNESS, minlength=count) / np.maximum(
        np.bincount(parts[body], minlength=count), 1)
    own = _own_samples(points, parts, side, float(description["pen"]) / 2 + STRAY_REACH + 1.0) & ~tips
    own_count = np.bincount(parts[own], minlength=count)
    own_shown = np.bincount(parts[own], weights=darkness[own] > OWN_DARKNESS, minlength=count) / np.maximum(
        own_count, 1)
    return shown, own_count, own_shown


def _near(points: np.ndarray, side: int, radius: float) -> np.ndarray:
    """The pixels (side x side booleans) whose centres lie within ``radius`` of one of ``points`` (continuous
    tile pixels)."""
    return _near_both(points, np.ones(len(points), dtype=bool), side, radius, radius)[1]


def _near_both(points: np.ndarray, inner_points: np.ndarray, side: int, inner: float, outer: float,
               ) -> tuple[np.ndarray, np.ndarray]:
    """``_near`` of the points flagged in ``inner_points`` with radius ``inner`` and of all points with radius
    ``outer`` (at least ``inner``), in one pass over the pixel offsets: each point's distance to each nearby
    pixel centre, ``(cx + 0.5 - x) ** 2 + (cy + 0.5 - y) ** 2``, is worked out once, on a grid padded so that
    every offset of a point that can reach the tile lands on it."""
    if outer <= 0 or not len(points):
        return np.zeros((side, side), dtype=bool), np.zeros((side, side), dtype=bool)
    span = int(np.ceil(outer))
    base = np.floor(points).astype(int)
    if base.min() < -span or base.max() >= side + span:  # (a whole-array test first: most often all are on)
        on = ((base >= -span) & (base < side + span)).all(axis=1)  # the others reach no pixel of the tile
        points, base, inner_points = points[on], base[on], inner_points[on]
    pad = 2 * span
    wide = side + 2 * pad
    grids = np.zeros(wide * wide, dtype=bool), np.zeros(wide * wide, dtype=bool)
    steps = range(-span, span + 1)
    left, x, y = base[:, 0].astype(float), points[:, 0], points[:, 1]
    across = np.empty((len(steps), len(points)))  # one row per column offset
    for row, dx in zip(across, steps, strict=True):
        np.subtract(left + (dx + 0.5), x, out=row)  # the whole number cx plus a half, less x
    np.square(across, out=across)
    origin = ((base[:, 1] + pad) * wide + base[:, 0] + pad).astype(np.intp)
    # each point's pixel at every column offset (row offset nil), made once: a row offset adds dy * wide to the
    # pixels it marks (native indices: numpy marks pixels by them fastest)
    cells = origin[None, :] + np.array(steps, dtype=np.intp)[:, None]
    outer_limit, inner_limit = outer * outer, inner * inner
    # the column offsets whose pixel centres can lie within ``inner`` of a point (at least |dx| - 0.5 away)
    reach = min(int(np.floor(inner + 0.5)), span) if inner > 0 else 0
    near_columns = slice(span - reach, span + reach + 1)
    for dy in steps:
        nearest = max(abs(dy) - 0.5, 0.0)  # the least distance from a point to this row's pixel centres
        if nearest > outer:
            continue
        down = ((base[:, 1] + (dy + 0.5)) - y) ** 2
        if nearest + 1.0 > outer:  # a row at the circle's rim: only some points reach it
            live = np.flatnonzero(down <= outer_limit)
            d2 = across[:, live] + down[None, live]
            at = cells[:, live]
            flagged = inner_points[None, live]
        else:
            d2 = across + down[None, :]
            at = cells
            flagged = inner_points[None, :]
        # the marked pixels picked by their flat places (``take`` of ``flatnonzero``: what boolean indexing
        # gives, in less time)
        hit = at.take(np.flatnonzero(d2 <= outer_limit))
        hit += dy * wide
        grids[1][hit] = True
        if inner > 0 and nearest <= inner:  # a row further than ``inner`` from every point holds no inner pixel
            hit = at[near_columns].take(np.flatnonzero((d2[near_columns] <= inner_limit) & flagged))
            hit += dy * wide
            grids[0][hit] = True
    return tuple(g.reshape(wide, wide)[pad:pad + side, pad:pad + side].copy() for g in grids)


def pen_masks(description: Mapping[str, Any], side: int, lines: tuple[np.ndarray, np.ndarray] | None = None,
              fine: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The pixels wholly under the recorded pen (centres within half the pen less ``CORE_SLACK`` of a recorded
    centre line, a pen's length at each end of a segment left out: a square-cut end meeting other strokes
    leaves notches), and the pixels ink may cover (centres within half the pen plus ``EDGE_SLACK``).  ``lines``:
    ``_polylines`` of the description, if already made; ``fine``: their samples 0.7 pixels apart
    (``line_raster.samples``), if already made."""
    segments, _ = lines if lines is not None else _polylines(description, side)
    if not len(segments):
        empty = np.zeros((side, side), dtype=bool)
        return empty, empty.copy()
    pen = float(description["pen"])
    points, which = fine if fine is not None else line_raster.samples(segments, step=0.7)
    tips = _tips(points, which, segments, len(description.get("segments", ())), pen)
    return _near_both(points, ~tips, side, pen / 2 - CORE_SLACK, pen / 2 + EDGE_SLACK)


def exact_pixel_faults(tile: np.ndarray, description: Mapping[str, Any],
                       lines: tuple[np.ndarray, np.ndarray] | None = None,
                       fine: tuple[np.ndarray, np.ndarray] | None = None,
                       darkness: np.ndarray | None = None) -> tuple[int, int]:
    """(pixels wholly under the recorded pen left blank, clear ink pixels beyond the pen's edge; see
    ``pen_masks``), the frame of ``BORDER`` pixels left out.  ``lines``, ``fine`` (see ``pen_masks``) and the
    tile's ``line_raster.darkness``: if already made."""
    darkness = darkness if darkness is not None else line_raster.darkness(tile)
    core, edge = pen_masks(description, darkness.shape[0], lines, fine)
    blank = core & (darkness <= INK_DARKNESS)
    off = (darkness > CLEAR_DARKNESS) & ~edge
    for grid in (blank, off):
        grid[:BORDER], grid[-BORDER:], grid[:, :BORDER], grid[:, -BORDER:] = False, False, False, False
    return int(blank.sum()), int(off.sum())


def panel_pixel_failures(tile: np.ndarray | None, description: Mapping[str, Any], name: str,
                         darkness: np.ndarray | None = None) -> list[str]:
    """Parts of the record that the panel's pixels do not show (less than ``PRESENT`` of a part's centre line
    inked, or less than ``OWN_PRESENT`` of its own stretch, see ``part_ink``), and clear ink lying off every
    recorded part (more than ``STRAY_ALLOWED`` pixels).  ``darkness``: the tile's ``line_raster.darkness``, if
    already made (then ``tile`` is not read)."""
    darkness = darkness if darkness is not None else line_raster.darkness(tile)
    side = darkness.shape[0]
    failures = []
    lines, fine = _prepared(description, side)
    shown, own_count, own_shown = part_ink(tile, description, lines, darkness)
    missing = int(((shown < PRESENT) | ((own_count >= OWN_LEAST) & (own_shown < OWN_PRESENT))).sum())
    if missing:
        failures.append(f"figure {name}: {missing} recorded part(s) are not drawn where the record puts them")
    # the centre lines sampled 0.7 pixels apart (``_prepared``) and the tile's darkness serve the checks below too
    blank, off = exact_pixel_faults(tile, description, lines, fine, darkness)
    # the stray check's allowed pixels hold every pixel ``pen_masks`` lets ink cover (a pixel centre within half
    # the pen plus EDGE_SLACK of a sample on the tile lies within half the pen plus STRAY_REACH of the sample's
    # pixel, EDGE_SLACK + 0.71 < STRAY_REACH): its stray ink is part of the ink off the pen's edge, so it can
    # exceed STRAY_ALLOWED only where that exceeds EXACT_ALLOWED -- it is counted there (and wherever a sample
    # lies off the tile, which ``line_raster.grown`` does not mark)
    if off > EXACT_ALLOWED or (fine is not None and not _on_tile(fine[0], side)):
        allowed = line_raster.grown(fine[0], side, float(description["pen"]) / 2 + STRAY_REACH) \
            if fine is not None else np.zeros((side, side), dtype=bool)  # ``line_raster.near``
        stray = (darkness > CLEAR_DARKNESS) & ~allowed
        stray[:BORDER], stray[-BORDER:], stray[:, :BORDER], stray[:, -BORDER:] = False, False, False, False
        if int(stray.sum()) > STRAY_ALLOWED:
            failures.append(f"figure {name}: {int(stray.sum())} ink pixels lie off every recorded part")
    if blank > EXACT_ALLOWED:
        failures.append(f"figure {name}: {blank} pixels under the pen of a recorded part are blank")
    if off > EXACT_ALLOWED:
        failures.append(f"figure {name}: {off} ink pixels lie beyond the pen's edge of every recorded part")
    return failures


def _on_tile(points: np.ndarray, side: int) -> bool:
    """Whether every point (continuous tile pixels) lies in a pixel of the side x side tile."""
    return bool(not len(points) or (points.min() >= 0 and points.max() < side))


def pixel_failures(scene: Mapping[str, Any], image: Any) -> list[str]:
    """``panel_pixel_failures`` of every option panel cut from the image at its recorded box."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    pixels = None
    failures = []
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        left, top, right, bottom = box
        side = scene["tile"]
        if all(isinstance(v, int) for v in box) and min(left, top) >= 0 and right - left == side \
                and bottom - top == side and right <= width and bottom <= height:
            darkness = _tile_darkness(rgb, box)
        else:  # cut as the whole array's slice would be (a box off the picture is cut short)
            pixels = np.asarray(rgb) if pixels is None else pixels
            tile = pixels[top:bottom, left:right]
            if tile.shape[:2] != (side, side):
                failures.append(f"figure {chr(ord('A') + k)}: box {box} is not a {side} px tile")
                continue
            darkness = line_raster.darkness(tile)
        failures += panel_pixel_failures(None, description, chr(ord("A") + k), darkness)
    return failures


def _tile_darkness(rgb: Any, box: Sequence[int]) -> np.ndarray:
    """``line_raster.darkness`` of the pixels of the RGB picture ``rgb`` in ``box`` (wholly on the picture): its
    darkest channel taken by Pillow (``ImageChops.darker``) on the box alone, so that only the box's pixels, one
    byte each, are turned into an array."""
    red, green, blue = rgb.crop(tuple(int(v) for v in box)).split()
    darkest = np.asarray(ImageChops.darker(ImageChops.darker(red, green), blue))
    return 255 - darkest.astype(np.int16)
