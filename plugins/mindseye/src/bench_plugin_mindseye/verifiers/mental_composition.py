"""Artefact verifier of Mental Composition (MC): which solid does the net fold into?

The query's description is the net as drawn, in panel pixels: ``net: "polygons"`` with its faces, or
``net: "sector"`` (apex, radius, start and end angles in degrees clockwise from +x, base circle centre and
radius).  Nothing says which faces are hinged: two faces are hinged where they share a whole drawn edge.
An option's description is the solid as drawn, in world units: ``solid: "polyhedron"`` (vertices, faces as
vertex cycles) or ``solid: "revolution"`` (base centre, axis, first ring direction, base and top radius,
height, facet count), with its colour and the view it was drawn with.

``solve_scene`` folds: it lays one net face on a solid face (every face, every corner alignment, the net
seen from either side), then turns each hinged neighbour about the shared edge onto the solid face across
that edge, and accepts when every net face lands corner on corner on its own solid face at the one scale
that makes the net's total perimeter the solid's.  A sector and a circle fold into a cone when the arc is
as long as the circle's rim and the cone's base radius over its slant height is the circle's radius over
the sector's.  ``sketch`` draws nets flat and solids by ``projection``; ``pixel_failures`` checks every
panel's silhouette and face colours on the decoded image.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from bench_plugin_mindseye.verifiers.projection import (
    BEYOND_PEN,
    PEN,
    Drawing,
    FaceSet,
    Memo,
    Paper,
    draw_face_sets,
    draw_flat,
    face_set,
    paper_region,
    paper_regions,
    projected,
    scene_panels,
    scene_pixel_failures,
)

#: Net corners closer than this (pixels) are one point of the drawing (coordinates are kept to 0.01 px).
HINGE_TOLERANCE = 0.05
#: A folded corner must land within this share of the solid's mean edge length of its vertex.
FOLD_TOLERANCE = 0.02
#: Relative tolerance of the cone rule (arc against rim, and the two radius ratios).
CONE_TOLERANCE = 0.02


# -- the net, as drawn -------------------------------------------------------------------------------------
Point = tuple[float, ...]


def _net_faces(description: Mapping[str, Any], mirrored: bool) -> list[list[Point]]:
    """The net's faces in a y-up frame (seen from the back when ``mirrored``), each counter-clockwise."""
    sign = -1.0 if mirrored else 1.0
    faces = []
    for face in description["faces"]:
        points = [(sign * float(x), -float(y)) for x, y in face]
        area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1], strict=True))
        faces.append(points if area > 0 else points[::-1])
    return faces


def _hinges(faces: Sequence[Sequence[Point]]) -> dict[int, list[tuple[int, int, int]]]:
    """Per face, its hinges (own edge k, from corner k to k+1; the other face; that face's edge): faces that
    share a whole drawn edge, run in opposite directions as two counter-clockwise faces side by side."""
    owners = [(i, k) for i, face in enumerate(faces) for k in range(len(face))]
    starts = np.array([faces[i][k] for i, k in owners])
    ends = np.array([faces[i][(k + 1) % len(faces[i])] for i, k in owners])
    meets = _apart(starts, ends) < HINGE_TOLERANCE
    meets &= _apart(ends, starts) < HINGE_TOLERANCE
    links: dict[int, list[tuple[int, int, int]]] = {i: [] for i in range(len(faces))}
    for a, b in zip(*np.nonzero(meets), strict=True):
        (i, k), (j, m) = owners[int(a)], owners[int(b)]
        if i != j:
            links[i].append((k, j, m))
    return links


def _apart(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The largest coordinate difference between every point of ``first`` and every point of ``second`` (rows x
    coordinates): coordinate by coordinate (quicker than a reduction over a short last axis)."""
    if first.ndim != 2 or first.shape[1] != 2 or second.ndim != 2 or second.shape[1] != 2:
        return np.abs(first[:, None, :] - second[None, :, :]).max(axis=2)
    return np.maximum(np.abs(first[:, 0, None] - second[None, :, 0]), np.abs(first[:, 1, None] - second[None, :, 1]))


def _length(a: Point, b: Point) -> float:
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)))


def _sides(points: Sequence[Point]) -> list[float]:
    """Edge lengths of a polygon, edge k from corner k to k+1."""
    return [_length(points[k], points[(k + 1) % len(points)]) for k in range(len(points))]


# -- the solid, as drawn -----------------------------------------------------------------------------------
def _cross(a: Point, b: Point) -> Point:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _minus(a: Point, b: Point) -> Point:
    return tuple(x - y for x, y in zip(a, b, strict=True))


class Polyhedron:
    """A drawn convex polyhedron: vertices, faces as cycles counter-clockwise seen from outside, their outward
    unit normals and edge lengths, and which face owns each directed edge."""

    def __init__(self, vertices: Sequence[Sequence[float]], faces: Sequence[Sequence[int]]):
        self.vertices = [tuple(float(c) for c in v) for v in vertices]
        centre = tuple(sum(c) / len(self.vertices) for c in zip(*self.vertices, strict=True))
        self.cycles, self.normals = [], []
        for face in faces:
            p = [self.vertices[v] for v in face]
            normal = _cross(_minus(p[1], p[0]), _minus(p[2], p[0]))
            middle = tuple(sum(c) / len(p) for c in zip(*p, strict=True))
            outward = sum(n * d for n, d in zip(normal, _minus(middle, centre), strict=True)) > 0
            cycle = list(face) if outward else list(face)[::-1]
            size = math.sqrt(sum(n * n for n in normal))
            self.cycles.append(cycle)
            self.normals.append(tuple((n if outward else -n) / size for n in normal))
        self.sides = [_sides([self.vertices[v] for v in c]) for c in self.cycles]
        self.owner = {(c[k], c[(k + 1) % len(c)]): (g, k) for g, c in enumerate(self.cycles) for k in range(len(c))}
        self.perimeter = sum(sum(s) for s in self.sides)
        self.mean_edge = self.perimeter / sum(len(s) for s in self.sides)


def _lands(corners: Sequence[Point], solid: Polyhedron, face: int, shift: int, scale: float,
           tolerance: float) -> bool:
    """True if the net face ``corners`` (2D, counter-clockwise), laid on solid face ``face`` with corner 0 on
    cycle vertex ``shift`` and corner 1 towards the next one, its inside on the face's inside, and shrunk by
    ``scale`` (net units per solid unit), puts every corner k on cycle vertex k + ``shift``."""
    cycle = solid.cycles[face]
    n = len(cycle)
    c0, c1 = corners[0], corners[1]
    length = _length(c0, c1)
    dx, dy = (c1[0] - c0[0]) / length, (c1[1] - c0[1]) / length
    origin, toward = solid.vertices[cycle[shift % n]], solid.vertices[cycle[(shift + 1) % n]]
    e1 = _minus(toward, origin)
    size = math.sqrt(sum(x * x for x in e1))
    e1 = tuple(x / size for x in e1)
    e2 = _cross(solid.normals[face], e1)
    for k in range(2, n):
        rx, ry = corners[k][0] - c0[0], corners[k][1] - c0[1]
        along, across = (rx * dx + ry * dy) / scale, (rx * -dy + ry * dx) / scale
        target = solid.vertices[cycle[(k + shift) % n]]
        miss = sum((o + along * a + across * b - t) ** 2 for o, a, b, t in zip(origin, e1, e2, target, strict=True))
        if miss > tolerance**2:
            return False
    return abs(length / scale - size) <= tolerance


def _fold(faces: Sequence[Sequence[Point]], links: Mapping[int, list[tuple[int, int, int]]], solid: Polyhedron,
          root: int, shift: int, scale: float, tolerance: float) -> bool:
    """Fold the net with face 0 laid on solid face ``root`` (net corner k on cycle vertex k + ``shift``): every
    face, reached over hinges, must land corner on corner on a solid face of its own."""
    placed = {0: (root, shift)}
    taken = {root}
    queue = [0]
    while queue:
        i = queue.pop()
        g, s = placed[i]
        cycle = solid.cycles[g]
        n = len(cycle)
        if len(faces[i]) != n or not _lands(faces[i], solid, g, s, scale, tolerance):
            return False
        for k, j, m in links[i]:
            u, v = cycle[(k + s) % n], cycle[(k + 1 + s) % n]
            if (v, u) not in solid.owner:
                return False  # not a closed surface
            h, t = solid.owner[(v, u)]  # the solid face across the edge, and where v -> u runs in it
            image = (h, (t - m) % len(solid.cycles[h]))  # net corner m of face j goes on v
            if j in placed:
                if placed[j] != image:
                    return False
                continue
            if h in taken:
                return False
            placed[j] = image
            taken.add(h)
            queue.append(j)
    return len(placed) == len(faces) == len(solid.cycles)


def _net_sides(net: Mapping[str, Any]) -> list[tuple[list[list[Point]], dict[int, list[tuple[int, int, int]]],
                                                        float]]:
    """The polygon net as ``polygons_fold`` folds it, seen from the front and from the back: its faces
    (``_net_faces``), hinges (``_hinges``) and perimeter."""
    parts = []
    for mirrored in (False, True):
        faces = _net_faces(net, mirrored)
        parts.append((faces, _hinges(faces), sum(sum(_sides(f)) for f in faces)))
    return parts


def polygons_fold(net: Mapping[str, Any], solid: Mapping[str, Any], sides: Sequence[tuple] | None = None) -> bool:
    """True if the polygon net folds along its drawn hinges into the polyhedron (up to scale).  ``sides``: the
    net's ``_net_sides``, if already worked out (they do not depend on the solid)."""
    if solid.get("solid") != "polyhedron" or len(solid["faces"]) != len(net["faces"]):
        return False
    if sorted(len(f) for f in solid["faces"]) != sorted(len(f) for f in net["faces"]):
        return False
    shape = Polyhedron(solid["vertices"], solid["faces"])
    tolerance = FOLD_TOLERANCE * shape.mean_edge
    for faces, links, perimeter in _net_sides(net) if sides is None else sides:
        scale = perimeter / shape.perimeter
        first = [x / scale for x in _sides(faces[0])]
        n = len(first)
        for root, sides in enumerate(shape.sides):
            if len(sides) != n:
                continue
            for shift in range(n):
                if any(abs(first[k] - sides[(k + shift) % n]) > tolerance for k in range(n)):
                    continue  # face 0 does not fit there: no need to fold
                if _fold(faces, links, shape, root, shift, scale, tolerance):
                    return True
    return False


def sector_folds(net: Mapping[str, Any], solid: Mapping[str, Any]) -> bool:
    """True if the sector and circle wrap into the solid: a cone (no top) whose base radius over slant height
    is the circle's radius over the sector's, with the arc as long as the circle's rim."""
    if solid.get("solid") != "revolution" or float(solid["top"]) > 1e-6:
        return False
    radius, circle = float(net["radius"]), float(net["circle"])
    arc = radius * math.radians(float(net["end"]) - float(net["start"]))
    if abs(arc - 2 * math.pi * circle) > CONE_TOLERANCE * 2 * math.pi * circle:
        return False
    bottom, height = float(solid["bottom"]), float(solid["height"])
    return abs(bottom / math.hypot(bottom, height) - circle / radius) < CONE_TOLERANCE


def folds_into(net: Mapping[str, Any], solid: Mapping[str, Any]) -> bool:
    """The rule for one option, from the two descriptions."""
    if net.get("net") == "sector":
        return sector_folds(net, solid)
    if net.get("net") == "polygons":
        return polygons_fold(net, solid)
    return False


def solve_scene(scene: Mapping[str, Any]) -> list[int]:
    """Indices of the options the net folds into (``folds_into`` of each, the net's two sides worked out once)."""
    net = scene["query"][0]
    sides: list = []

    def folds(solid: Mapping[str, Any]) -> bool:
        if net.get("net") != "polygons" or solid.get("solid") != "polyhedron" \
                or len(solid["faces"]) != len(net["faces"]):
            return folds_into(net, solid)
        if not sides:
            sides.extend(_net_sides(net))
        return polygons_fold(net, solid, sides)

    return [k for k, solid in enumerate(scene["options"]) if folds(solid)]


# -- sketches and pixels -----------------------------------------------------------------------------------
def _revolution(solid: Mapping[str, Any]) -> tuple[np.ndarray, list[list[int]], list[int]]:
    """Facets of a solid of revolution (cone, or frustum with a top cap) and their outline groups."""
    n = int(solid["segments"])
    base, axis, start = (np.asarray(solid[k], dtype=float) for k in ("base", "axis", "start"))
    across = np.cross(axis, start)
    angles = np.arange(n) * (2 * math.pi / n)
    ring = np.cos(angles)[:, None] * start + np.sin(angles)[:, None] * across
    top = base + float(solid["height"]) * axis
    if float(solid["top"]) > 1e-6:
        vertices = np.vstack([base + float(solid["bottom"]) * ring, top + float(solid["top"]) * ring])
        faces = [[k, (k + 1) % n, n + (k + 1) % n, n + k] for k in range(n)] + [list(range(n, 2 * n))]
        groups = [0] * n + [2]
    else:
        vertices = np.vstack([base + float(solid["bottom"]) * ring, top])
        faces = [[k, (k + 1) % n, n] for k in range(n)]
        groups = [0] * n
    return vertices, [*faces, list(range(n))], [*groups, 1]


def _disc_part(centre: Sequence[float], radius: float, side: int, start: float | None = None,
               end: float | None = None) -> tuple[tuple[int, int], np.ndarray]:
    """Pixels (by their centres) of a disc, or of its sector from ``start`` to ``end`` degrees clockwise
    from +x on screen: the top-left of the clipped box and the mask over it."""
    x0, y0 = max(math.floor(centre[0] - radius), 0), max(math.floor(centre[1] - radius), 0)
    x1, y1 = min(math.ceil(centre[0] + radius), side), min(math.ceil(centre[1] + radius), side)
    dx = np.arange(x0 + 0.5, max(x1, x0)) - centre[0]
    dy = (np.arange(y0 + 0.5, max(y1, y0)) - centre[1])[:, None]
    mask = dx * dx + dy * dy <= radius * radius
    if start is not None and end is not None:
        mask &= (np.degrees(np.arctan2(dy, dx)) - start) % 360 <= end - start
    return (x0, y0), mask


def _solid_faces(description: Mapping[str, Any], side: int) -> FaceSet:
    """The faces of a solid's panel turned to the camera, ready to draw."""
    colour = np.asarray(description["colour"], dtype=float)
    if description["solid"] == "revolution":
        vertices, faces, groups = _revolution(description)
    else:
        vertices, faces = np.asarray(description["vertices"], dtype=float), description["faces"]
        groups = list(range(len(faces)))
    return face_set(vertices, faces, np.tile(colour, (len(faces), 1)), groups, description, side)


def _draw(key: str, side: int) -> Drawing:
    """The sketch of the panel described by ``key`` (sorted JSON)."""
    description = json.loads(key)
    if "net" in description:
        colour = np.asarray(description["colour"], dtype=float)
        if description["net"] == "sector":
            sector = _disc_part(description["apex"], float(description["radius"]), side,
                                float(description["start"]), float(description["end"]))
            circle = _disc_part(description["centre"], float(description["circle"]), side)
            return draw_flat([], np.tile(colour, (2, 1)), side, description["edge"], masks=[sector, circle])
        faces = description["faces"]
        return draw_flat(faces, np.tile(colour, (len(faces), 1)), side, description["edge"])
    return draw_face_sets([_solid_faces(description, side)])[0]


def drawing(description: Mapping[str, Any], side: int) -> Drawing:
    """The sketch of one panel (memoised: verify asks twice)."""
    return _drawing(_key(description), side)


#: Within a ``keyed`` block, the memo key of each panel description of its scene, by the description's identity,
#: kept with the description itself (a key is only used for the very object it was written from); per thread.
_known = threading.local()


def _key(description: Mapping[str, Any]) -> str:
    """A description's memo key: its sorted JSON (written once per panel within a ``keyed`` block)."""
    known = getattr(_known, "keys", None)
    if known is not None:
        entry = known.get(id(description))
        if entry is not None and entry[0] is description:
            return entry[1]
    return json.dumps(description, sort_keys=True)


@contextlib.contextmanager
def keyed(scene: Any) -> Iterator[None]:
    """Within the block, every panel description of ``scene`` has its memo key (``_key``) written once, for the
    memoised sketches and paper zones that ``prepare``, the base class's checks and ``pixel_failures`` each ask
    for.  The scene must not change meanwhile (verify only reads it).  A panel that cannot be read is left to
    the checks."""
    keys: dict[int, tuple[Any, str]] = {}
    try:
        for description in [*scene["query"], *scene["options"]]:
            keys[id(description)] = (description, json.dumps(description, sort_keys=True))
    except Exception:
        pass
    previous = getattr(_known, "keys", None)
    _known.keys = keys
    try:
        yield
    finally:
        _known.keys = previous


def _silhouette(description: Mapping[str, Any], side: int) -> list[np.ndarray]:
    """What a panel draws as convex parts in panel pixels: the net's faces, the sector (in slices of at most
    90 degrees) and its circle, or the solid's projected vertices (their hull is its outline)."""
    if description.get("net") == "sector":
        (ax, ay), radius = description["apex"], float(description["radius"])
        start, end = float(description["start"]), float(description["end"])
        slices = max(1, math.ceil((end - start) / 90))
        bounds = np.linspace(start, end, slices + 1)
        parts = []
        for a, b in itertools.pairwise(bounds):
            angles = np.radians(np.linspace(a, b, 33))
            arc = np.stack([ax + radius * np.cos(angles), ay + radius * np.sin(angles)], axis=1)
            parts.append(np.vstack([[ax, ay], arc]))
        (cx, cy), circle = description["centre"], float(description["circle"])
        angles = np.radians(np.arange(256) * 360 / 256)
        return [*parts, np.stack([cx + circle * np.cos(angles), cy + circle * np.sin(angles)], axis=1)]
    if description.get("net") == "polygons":
        return [np.asarray(face, dtype=float) for face in description["faces"]]
    if description["solid"] == "revolution":
        vertices = _revolution(description)[0]
    else:
        vertices = np.asarray(description["vertices"], dtype=float)
    return [projected(vertices, description, side)]


def _reach(description: Mapping[str, Any]) -> float:
    """How far beyond a panel's silhouette the paper begins: a solid's beyond its square pen, a net's a pixel and
    a quarter beyond half its round pen (drawn on the pixel-centre grid, a quarter pixel off)."""
    return float(description["edge"]) / 2 + 1.25 if "net" in description else PEN / 2 + BEYOND_PEN


#: The sketch of a panel, and its paper zone (``paper_zone`` of ``_silhouette`` at ``_reach``), by description (as
#: sorted JSON) and side.
_drawing = Memo(_draw)
_paper = Memo(lambda key, side: _paper_of(json.loads(key), side))


def _paper_of(description: Mapping[str, Any], side: int) -> Paper:
    """``paper_zone`` of a panel's silhouette at its reach, with its box."""
    return paper_region(_silhouette(description, side), side, _reach(description))


def prepare(scene: Any) -> None:
    """Work out the sketch of every solid of ``scene`` and the paper zone of every panel at once
    (``draw_face_sets``, ``paper_regions``) for the checks that follow, which find them memoised: the same as
    they would work out panel by panel.  A panel that cannot be read is left to them."""
    try:
        side, described = scene["tile"], [*scene["query"], *scene["options"]]
        keys = {_key(d): d for d in described}  # each key's description, as read
    except Exception:
        return
    solids, parted, reaches = {}, {}, []
    for key, description in keys.items():
        try:
            if (key, side) not in _drawing and "net" not in description:
                solids[key] = _solid_faces(description, side)
            if (key, side) not in _paper:
                parts, reach = _silhouette(description, side), _reach(description)
                if parts:
                    parted[key] = parts
                    reaches.append(reach)
        except Exception:
            continue
    try:
        for key, sketched in zip(solids, draw_face_sets(list(solids.values())), strict=True):
            _drawing.put((key, side), sketched)
        for key, zone in zip(parted, paper_regions(list(parted.values()), side, reaches), strict=True):
            _paper.put((key, side), zone)
    except Exception:
        return


def marker(description: Mapping[str, Any], side: int) -> tuple[Drawing, Paper, bool]:
    """The sketch of one panel, the pixels around it that must be paper (``_paper``) and whether the sketch
    places its outlines to a pixel: not on a sector net, whose outline is drawn inside the rim (memoised)."""
    paper = _paper(_key(description), side)
    return drawing(description, side), paper, description.get("net") != "sector"


def sketch(description: Mapping[str, Any], side: int) -> np.ndarray:
    """A crude RGB drawing of one panel: the net's faces flat, or the solid's faces flat-shaded."""
    return drawing(description, side).rgb


def pixel_failures(scene: Mapping[str, Any], image: Any, prepared: bool = False,
                   tiles: tuple[Sequence[np.ndarray], Sequence[np.ndarray]] | None = None) -> list[str]:
    """Every panel cut from ``image`` at its box must show its description: the silhouette, inside each
    clearly visible face of the net or the solid its recorded colour (shaded as recorded on solids), and no small
    mark (``scene_mark_failures``).  A sector net's outline is drawn inside its rim, where the sketch does not
    place it to a pixel, so on it only the paper around the net is checked for marks.  ``prepared``: ``prepare``
    has just been run on this scene; ``tiles``, the query and option panels already cut from ``image`` (an RGB
    image) at their boxes, if the caller has them (``scene_panels``)."""
    if not prepared:
        prepare(scene)
    panels = scene_panels(scene, image, "the net", tiles)
    # each panel's memo key written once for the checks below (``drawing``, ``marker``), by the description's
    # identity: the scene holds every description for the length of this call
    keys = {id(panel.description): _key(panel.description) for panel in panels}

    def sketched(description: Mapping[str, Any], side: int) -> tuple[Drawing, None]:
        return _drawing(keys[id(description)], side), None

    def marked(description: Mapping[str, Any], side: int) -> tuple[Drawing, Paper, bool]:
        key = keys[id(description)]
        return _drawing(key, side), _paper(key, side), description.get("net") != "sector"

    return scene_pixel_failures(panels, scene["tile"], sketched, marked)
