"""Mental Composition (MC, paper §3.2, App. C, Table 11; spec §2.8): a flat net labelled "Original Shape" above
four shaded 3D solids; exactly one is what the net folds into.

Nets are always valid: each is the target solid cut along the complement of a random spanning tree of its
face graph and unfolded into the plane, kept only if no two faces overlap and no two faces that are not
hinged share an edge (shapely).  Proportions come from the solid itself, so a 1x1x3 cuboid's net has 1x3
rectangles.  A cone's net is a sector whose arc is as long as the base circle's perimeter.  Difficulty
follows the paper: easy items use simple solids in one colour, hard items the regular polyhedra with
confounding colours (medium: all nine solids, colour confounds on).

The options first, the answer second (issue 7: the right solid's kind used to be the one shown twice, so
"pick the undistorted one of the pair" beat chance).  Every item shows a world of four solids from its set
(``WORLD``): a kind and a proportion variant of it (a cuboid for a cube, another cuboid, a longer prism, a
taller pyramid or cone, a tall triangular pyramid for a tetrahedron, a stretched bipyramid for an octahedron,
a stretched dodecahedron or icosahedron), the kind of another family with the nearest number of faces, and a
kind of a third family.  The net is then cut from one of the four drawn uniformly, and nothing that rejects a
draw looks at which one: the options alone carry no information about the answer.  The wrong options' named
templates (App. D "distractor taxonomy": colours and a similar number of faces; spec §7.1) follow from where
the net came from:

* from the pair: its partner is ``proportion`` (counting faces is not enough), the nearest-face-count solid
  ``similar_face_count`` and the third ``different_solid``;
* from a single solid: the pair is a ``decoy_pair`` and ``decoy_pair_variant`` (a kind shown twice, wrong in
  both proportions) and the other single a ``different_solid``.

Colours: with colour confounds on, the four solids wear four colours of one saturation and value, and the
net wears the colour of one of them drawn uniformly, so the net-coloured solid is the answer exactly as
often as chance (1 in 4) and, when wrong, is the designated confound; with confounds off everything shares
one colour.

Sizes: every solid is normalised to one bounding radius, but regular solids look bigger and inkier than
stretched ones, so the options are drawn at different sizes (``balanced_scales``): one size order, the one
needing the narrowest range, that ink, ink extent and saturation all follow.  It is found without looking at
which option is the answer, so the answer is the largest, smallest, median or most atypical option exactly
as often as any other.

Geometry is quantised before drawing (solid vertices and cone frames to 6 decimals, sizes to 6 decimals,
the panel scale to 1/64 pixel, net coordinates to 1/100 pixel) and recorded as drawn in the scene;
``verifiers.mental_composition`` folds the drawn net onto each drawn solid by code of its own and checks the
pixels.  The generator keeps its own acceptance check (``folds_into``): it refolds the net onto each option,
trying every placement of one net face on a solid face of the same size, propagating the placement across
the net's hinges through the solid's edge adjacency, and accepting if this maps net faces one-to-one onto
congruent solid faces (up to a common scale); a cone net is accepted by a round solid that comes to a point
and whose base radius over slant height equals the net's circle radius over sector radius.
"""

from __future__ import annotations

import colorsys
import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import shapely
from PIL import Image

from bench_core import Item
from bench_plugin_mindseye import nuisance, raster3d
from bench_plugin_mindseye.balancing import balanced_scales
from bench_plugin_mindseye.base import MindsEyeTask, TierValues, follows, panel_tiles
from bench_plugin_mindseye.layout import SUPERSAMPLE, Tile
from bench_plugin_mindseye.options import Option, SizePlan, Stimulus
from bench_plugin_mindseye.prompts import PromptTexts
from bench_plugin_mindseye.verifiers import mental_composition as verifier

#: The paper's net sets (§3.2): simple solids for easy items, regular polyhedra added for hard ones.  An item's
#: four solids come from its set (and the proportion variants of its kinds).
SIMPLE = ("cube", "cuboid", "triangular_prism", "square_pyramid", "cone")
COMPLEX = ("tetrahedron", "octahedron", "dodecahedron", "icosahedron")
SETS = {"simple": SIMPLE, "mixed": SIMPLE + COMPLEX, "complex": COMPLEX}
#: Face counts (for choosing similar-face-count solids; the solver counts faces itself).
FACES = {
    "cone": 2, "tetrahedron": 4, "triangular_pyramid": 4, "triangular_prism": 5, "square_pyramid": 5, "cube": 6,
    "cuboid": 6, "octahedron": 8, "bipyramid": 8, "dodecahedron": 12, "icosahedron": 20,
}
#: Kinds that are the same solid up to proportions (never each other's "similar face count" foil).
FAMILY = {"cube": "box", "cuboid": "box", "tetrahedron": "tetra", "triangular_pyramid": "tetra",
          "octahedron": "octa", "bipyramid": "octa"}
#: Proportion choices: every pair differs by a factor of at least 1.5 in some ratio, so the difference
#: shows in the rendered solid (spec §7.2: no near-cube cuboid against a cube).
CUBOIDS = ((1, 1, 2), (1, 2, 2), (1, 1, 3), (1, 2, 3))
PRISM_LENGTHS = (1.0, 2.0, 3.0)
PYRAMID_HEIGHTS = (0.6, 1.4)
CONE_RATIOS = (0.28, 0.45, 0.65)  # base radius / slant height; the sector's angle is 360 degrees times this
TETRA_HEIGHT = math.sqrt(2 / 3)
TALL_TETRA_HEIGHT = 2.0
STRETCHED_OCTA = 1.8
STRETCHED_ROUND = 1.7  # dodecahedron and icosahedron stretched along one axis
KNOBS = {
    "easy": {"solids": "simple", "colour_confound": False},
    "medium": {"solids": "mixed", "colour_confound": True},
    "hard": {"solids": "complex", "colour_confound": True},
}
#: Nine hues of equal saturation and value, so that no option stands out by colour strength.
PALETTE = [tuple(round(255 * c) for c in colorsys.hsv_to_rgb(h / 360, 0.55, 0.93)) for h in range(0, 360, 40)]
EDGE = (35, 35, 35)
ROUND_SEGMENTS = 48
#: The four solids of an item by their part in it: a kind and a proportion variant of it, a kind with a
#: similar number of faces, and another kind.  The net is cut from one of the four, drawn uniformly: the
#: options alone (a kind shown twice, a regular solid beside its stretched twin, colours, sizes) then say
#: nothing about which one it is.
WORLD = ("pair", "pair_variant", "similar", "other")
#: Pixel coordinates of a drawn net are rounded to this many decimals before drawing (and recorded so).
NET_DECIMALS = 2


# -- solids ---------------------------------------------------------------------------------------------
def hull_faces(points: np.ndarray) -> list[list[int]]:
    """The faces of the convex hull of ``points`` (all of them vertices), each a vertex cycle counter-clockwise
    seen from outside.

    Every triple of points is a candidate plane (in ``itertools.combinations`` order); a plane with all points
    on one side is a face, its members the points on it.  Which triples bound the hull is found for all of
    them at once; the faces are then taken in triple order, each from its first triple, as one by one."""
    points = np.asarray(points, dtype=float)
    size = np.ptp(points, axis=0).max()
    triples = np.array(list(itertools.combinations(range(len(points)), 3)))
    first = points[triples[:, 0]]
    normals = np.cross(points[triples[:, 1]] - first, points[triples[:, 2]] - first)
    lengths = np.sqrt((normals * normals).sum(axis=1))
    plane = lengths >= 1e-9 * size**2
    normals /= np.where(plane, lengths, 1.0)[:, None]
    sides = np.einsum("tnd,td->tn", points[None, :, :] - first[:, None, :], normals)
    above, below = sides.max(axis=1) > 1e-7 * size, sides.min(axis=1) < -1e-7 * size
    on_plane = np.abs(sides) <= 1e-7 * size
    faces: dict[frozenset, list[int]] = {}
    for t in np.flatnonzero(plane & ~(above & below)).tolist():
        members = frozenset(np.flatnonzero(on_plane[t]).tolist())
        if members in faces:
            continue
        i, j, k = triples[t].tolist()
        normal = np.cross(points[j] - points[i], points[k] - points[i])
        normal /= np.linalg.norm(normal)
        if above[t]:
            normal = -normal
        centre = points[list(members)].mean(axis=0)
        u = points[i] - centre
        u /= np.linalg.norm(u)
        w = np.cross(normal, u)
        order = sorted(members, key=lambda m: math.atan2((points[m] - centre) @ w, (points[m] - centre) @ u))
        faces[members] = order
    return list(faces.values())


def _polygon(n: int, side: float) -> np.ndarray:
    """A regular ``n``-gon with edge ``side`` in the plane z=0, centred on the origin."""
    radius = side / (2 * math.sin(math.pi / n))
    angles = 2 * math.pi * np.arange(n) / n + math.pi / 2
    return np.stack([radius * np.cos(angles), radius * np.sin(angles), np.zeros(n)], axis=1)


@functools.cache
def polyhedron(kind: str, proportion: tuple[float, ...] = ()) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """Vertices and faces of a polyhedral ``kind`` in its resting pose (base on z=0 where it has one)."""
    phi = (1 + math.sqrt(5)) / 2
    if kind in ("cube", "cuboid"):
        a, b, c = proportion or (1, 1, 1)
        points = np.array([(x * a, y * b, z * c) for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
    elif kind == "triangular_prism":  # lying on a rectangular face, like a tent
        length = proportion[0] if proportion else 1.5
        base = _polygon(3, 1.0)
        base[:, 1] -= base[:, 1].min()
        points = np.vstack([base, base + np.array([0.0, 0.0, length])])[:, [0, 2, 1]]
    elif kind in ("square_pyramid", "tetrahedron", "triangular_pyramid"):
        n = 4 if kind == "square_pyramid" else 3
        height = proportion[0] if proportion else {"tetrahedron": TETRA_HEIGHT}.get(kind, 1.5)
        points = np.vstack([_polygon(n, 1.0), [[0, 0, height]]])
    elif kind in ("octahedron", "bipyramid"):
        stretch = proportion[0] if proportion else 1.0
        points = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, stretch), (0, 0, -stretch)], float)
    elif kind == "dodecahedron":
        points = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        for s, t in itertools.product((-1, 1), repeat=2):
            points += [(0, s / phi, t * phi), (s / phi, t * phi, 0), (s * phi, 0, t / phi)]
        points = np.array(points, dtype=float)
    elif kind == "icosahedron":
        points = []
        for s, t in itertools.product((-1, 1), repeat=2):
            points += [(0, s, t * phi), (s, t * phi, 0), (s * phi, 0, t)]
        points = np.array(points, dtype=float)
    else:
        raise ValueError(f"unknown polyhedron {kind!r}")
    if kind in ("dodecahedron", "icosahedron") and proportion:
        points = points * [1, 1, proportion[0]]  # the stretched (non-regular) variant
    return points, tuple(tuple(f) for f in hull_faces(points))


def cone_mesh(base: np.ndarray, axis: np.ndarray, start: np.ndarray, radius: float, height: float
              ) -> tuple[np.ndarray, list[list[int]], list[int]]:
    """Facets of a cone standing on the circle of ``radius`` about ``base`` (``axis`` its unit axis, ``start``
    the unit direction of the first ring vertex), apex ``height`` up the axis, and their outline groups (the
    side one smooth group, the base another).  Vertices rounded to 6 decimals; the ring uses Python's
    trigonometry, not numpy's, whose SIMD paths differ in the last bits."""
    n = ROUND_SEGMENTS
    across = np.cross(axis, start)
    ring = [base + radius * (math.cos(2 * math.pi * k / n) * start + math.sin(2 * math.pi * k / n) * across)
            for k in range(n)]
    vertices = np.round(np.vstack([*ring, base + height * axis]), 6) + 0.0
    faces = [[k, (k + 1) % n, n] for k in range(n)] + [list(range(n - 1, -1, -1))]  # the base seen from below
    return vertices, faces, [0] * n + [1]


#: The faces of every ``cone_mesh``, as a tuple.
_CONE_FACES = tuple(tuple(f) for f in cone_mesh(np.zeros(3), np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0]),
                                                1.0, 1.0)[1])


def _rounded(values: Any) -> Any:
    """``values`` rounded to the 6 decimals that items record (a float, or an array as a nested list)."""
    if isinstance(values, float):
        return round(values, 6) + 0.0
    return (np.round(np.asarray(values, dtype=float), 6) + 0.0).tolist()


class Solid:
    """One option: a solid as displayed, normalised to a unit bounding radius and turned to its presentation
    pose (polyhedra: ``vertices`` and ``faces``; cones: the ``profile`` [base radius, top radius, height] and
    the ``frame`` [base centre, axis, first ring direction]), all rounded to 6 decimals; its colour; and the
    size it is drawn at relative to the unit radius."""

    def __init__(self, kind: str, proportion: tuple[float, ...], colour: tuple[int, int, int], matrix: np.ndarray):
        self.kind = kind
        self.proportion = tuple(proportion)
        self.colour = tuple(colour)
        matrix = np.asarray(matrix, dtype=float)
        if kind == "cone":
            height = math.sqrt(1 / proportion[0] ** 2 - 1)  # base radius 1, slant 1 / ratio
            size = math.hypot(1.0, height / 2)  # the rim, seen from the middle of the axis
            self.vertices, self.faces = None, None
            self.profile = [_rounded(1 / size), 0.0, _rounded(height / size)]
            self.frame = [_rounded(matrix @ [0.0, 0.0, -height / 2 / size]), _rounded(matrix[:, 2]),
                          _rounded(matrix[:, 0])]
        else:
            vertices, faces = polyhedron(kind, tuple(proportion))
            vertices = vertices - (vertices.min(axis=0) + vertices.max(axis=0)) / 2
            size = np.linalg.norm(vertices, axis=1).max()  # same bounding radius for every solid
            self.vertices = np.round(vertices / size @ matrix.T, 6) + 0.0
            self.faces = [list(f) for f in faces]
            self.profile, self.frame = None, None
        #: the drawn size relative to the unit bounding radius, set per option by ``balanced_scales`` (the
        #: solver's rules are scale-free, so it never needs it); kept to 6 decimals
        self.size = 1.0
        self.relative_scale = 0.0
        self.cache: dict[int, Image.Image] = {}

    def drawn(self) -> dict[str, Any]:
        """The geometry as drawn at ``size`` (world units, 6 decimals): what the scene records and the mesh
        is built from."""
        if self.profile is None:
            return {"solid": "polyhedron", "vertices": _rounded(np.asarray(self.vertices) * self.size),
                    "faces": self.faces}
        base, axis, start = self.frame
        return {"solid": "revolution", "base": _rounded(np.asarray(base) * self.size), "axis": axis, "start": start,
                "bottom": _rounded(self.profile[0] * self.size), "top": 0.0,
                "height": _rounded(self.profile[2] * self.size), "segments": ROUND_SEGMENTS}

    def mesh(self) -> raster3d.Mesh:
        geometry = self.drawn()
        if geometry["solid"] == "polyhedron":
            faces = geometry["faces"]
            return raster3d.Mesh(np.asarray(geometry["vertices"]), faces, [self.colour] * len(faces),
                                 centres=np.zeros((len(faces), 3)))  # convex: its faces never cover one another
        vertices, faces, groups = cone_mesh(*(np.asarray(geometry[k]) for k in ("base", "axis", "start")),
                                            geometry["bottom"], geometry["height"])
        return raster3d.Mesh(vertices, faces, [self.colour] * len(faces), groups, centres=np.zeros((len(faces), 3)))

    def topology(self) -> tuple[tuple[int, ...], ...]:
        """The faces of ``mesh()`` as a tuple (shared by every solid of its kind: ``estimated_features``' key)."""
        return polyhedron(self.kind, self.proportion)[1] if self.profile is None else _CONE_FACES

    def pixel_scale(self, side: int) -> float:
        """Pixels per world unit in a ``side``-pixel panel (on the renderer's scale grid)."""
        return raster3d.quantised_scale(self.relative_scale * side)


#: Resting poses about the vertical: (yaw centre, symmetry period, jitter), degrees.  The centre puts the
#: camera midway between two side faces (for a regular n-gon base built by ``_polygon`` the side normals sit
#: at 90 + 180/n + 360k/n degrees, the camera at azimuth -60), so no side is seen edge-on as a sliver.  A
#: negative jitter J means "between 10 and |J| degrees to either side of the centre".
POSES: dict[str, tuple[float, float, float]] = {
    "cube": (75, 90, 15), "cuboid": (75, 90, 15),
    "triangular_prism": (-15, 180, 15),  # lying: one triangular end and one slanted side in view
    # a tetrahedron seen exactly between two faces reads as a flat rhombus: keep it 10-22 degrees off
    "tetrahedron": (90, 120, -22), "triangular_pyramid": (90, 120, -22),
    "square_pyramid": (30, 90, 12), "octahedron": (30, 90, 12), "bipyramid": (30, 90, 12),
}


def presentation(rng: np.random.Generator, kind: str) -> np.ndarray:
    """A resting pose that shows the solid's characteristic faces: a yaw drawn around the kind's best view
    (any yaw for round solids), with a fixed tilt for the dodecahedron and icosahedron, which have no natural
    base."""
    centre, period, jitter = POSES.get(kind, (0.0, 360.0, 180.0))
    if jitter < 0:  # a band on either side of the centre, avoiding the centre itself
        offset = float(rng.uniform(10, -jitter)) * (1 if rng.random() < 0.5 else -1)
    else:
        offset = float(rng.uniform(-jitter, jitter))
    yaw = centre + period * int(rng.integers(max(1, round(360 / period)))) + offset
    matrix = raster3d.rotation("z", yaw)
    if kind in ("dodecahedron", "icosahedron"):
        matrix = matrix @ raster3d.rotation("x", 20)
    return matrix


# -- nets -----------------------------------------------------------------------------------------------
class PolyNet:
    """A polyhedral net: 2D faces (counter-clockwise, seen from the outside of the solid) and hinges
    ``(face, edge, other face, other edge)``, edge k running from vertex k to k+1."""

    def __init__(self, faces: Sequence[np.ndarray], hinges: Sequence[tuple[int, int, int, int]],
                 colour: tuple[int, int, int]):
        self.faces = [np.asarray(f, dtype=float) for f in faces]
        self.hinges = [tuple(h) for h in hinges]
        self.colour = tuple(colour)
        self.cache: dict[int, Image.Image] = {}

    def outline_points(self) -> np.ndarray:
        return np.vstack(self.faces)


class ConeNet:
    """A cone's net: a sector (apex, radius, direction of its bisector, opening angle, radians) and the base
    circle touching the middle of its arc."""

    def __init__(self, radius: float, sweep: float, direction: float, circle: float, colour: tuple[int, int, int]):
        self.apex = np.zeros(2)
        self.radius, self.sweep, self.direction, self.circle = radius, sweep, direction, circle
        self.centre = (radius + circle) * np.array([math.cos(direction), math.sin(direction)])
        self.colour = tuple(colour)
        self.cache: dict[int, Image.Image] = {}

    def outline_points(self) -> np.ndarray:
        """Points around the outline (apex, arc, base circle), by Python's trigonometry (numpy's SIMD paths
        differ in the last bits, and these points place the drawing)."""
        arc = [self.direction + self.sweep * (k / 32 - 0.5) for k in range(33)]
        ring = [2 * math.pi * k / 64 for k in range(65)]
        return np.array([
            list(self.apex),
            *([self.radius * math.cos(a), self.radius * math.sin(a)] for a in arc),
            *([self.centre[0] + self.circle * math.cos(a), self.centre[1] + self.circle * math.sin(a)] for a in ring),
        ])


def net_layout(net: PolyNet | ConeNet, side: int) -> dict[str, Any]:
    """The net as drawn in a ``side``-pixel panel, which is also its scene record: fitted to 86% of the panel,
    pixel coordinates (x right, y down) and angles (degrees clockwise from +x, as Pillow draws them) rounded
    to ``NET_DECIMALS``; polygon faces, or a sector and its base circle; the colour and outline width (pixels).
    ``draw_query`` draws exactly these numbers."""
    points = net.outline_points()
    low, high = points.min(axis=0), points.max(axis=0)
    factor = 0.86 * side / float(max(high - low))
    middle = (low + high) / 2

    def px(p: np.ndarray) -> list[list[float]]:
        q = (np.atleast_2d(p) - middle) * factor
        return [[round(side / 2 + x, NET_DECIMALS) + 0.0, round(side / 2 - y, NET_DECIMALS) + 0.0]
                for x, y in q.tolist()]

    width = max(2 * SUPERSAMPLE, round(0.011 * side * SUPERSAMPLE))  # whole supersampled pixels
    record: dict[str, Any] = {"colour": list(net.colour), "edge": round(width / SUPERSAMPLE, 6)}
    if isinstance(net, ConeNet):
        start = round(-math.degrees(net.direction + net.sweep / 2), NET_DECIMALS)
        record.update(net="sector", apex=px(net.apex)[0], radius=round(net.radius * factor, NET_DECIMALS),
                      start=start, end=round(start + math.degrees(net.sweep), NET_DECIMALS),
                      centre=px(net.centre)[0], circle=round(net.circle * factor, NET_DECIMALS))
    else:
        record.update(net="polygons", faces=[px(face) for face in net.faces])
    return record


def _face_frame(points: np.ndarray) -> np.ndarray:
    """A planar face's vertices in its own 2D frame, counter-clockwise seen from outside."""
    normal = np.cross(points[1] - points[0], points[2] - points[0])
    normal /= np.linalg.norm(normal)
    e1 = (points[1] - points[0]) / np.linalg.norm(points[1] - points[0])
    e2 = np.cross(normal, e1)
    rel = points - points[0]
    return np.stack([rel @ e1, rel @ e2], axis=1)


def edge_owners(faces: Sequence[Sequence[int]]) -> dict[tuple[int, int], tuple[int, int]]:
    """Directed edge (u, v) -> (face, index of the edge in that face)."""
    return {(f[k], f[(k + 1) % len(f)]): (i, k) for i, f in enumerate(faces) for k in range(len(f))}


_FRAMES: dict[tuple, list[np.ndarray]] = {}


def _face_frames(vertices: np.ndarray, faces: Sequence[Sequence[int]]) -> list[np.ndarray]:
    """``_face_frame`` of every face (worked out once per solid: the few solids recur in every item)."""
    key = (vertices.tobytes(), tuple(map(tuple, faces)))
    frames = _FRAMES.get(key)  # one lookup: another thread may clear the table between two
    if frames is None:
        frames = [_face_frame(vertices[list(f)]) for f in faces]
        if len(_FRAMES) > 256:
            _FRAMES.clear()
        _FRAMES[key] = frames
    return [frame.copy() for frame in frames]


def unfold(rng: np.random.Generator, vertices: np.ndarray, faces: Sequence[Sequence[int]], tries: int = 300
           ) -> tuple[list[np.ndarray], list[tuple[int, int, int, int]]] | None:
    """Cut the solid along the complement of a random spanning tree of its faces and lay it flat (each child
    face rotated about its hinge into the parent's plane); the first layout without overlaps or stray
    shared edges, or None."""
    owners = edge_owners(faces)
    local = _face_frames(vertices, faces)
    for _ in range(tries):
        root = int(rng.integers(len(faces)))
        placed = {root: local[root] - local[root].mean(axis=0)}
        hinges: list[tuple[int, int, int, int]] = []
        frontier = [(root, k) for k in range(len(faces[root]))]
        while frontier:
            parent, k = frontier.pop(int(rng.integers(len(frontier))))
            f = faces[parent]
            u, v = f[k], f[(k + 1) % len(f)]
            child, m = owners[(v, u)]
            if child in placed:
                continue
            # the child's edge m runs v -> u; put it onto the parent's u -> v edge, reversed
            a, b = placed[parent][k], placed[parent][(k + 1) % len(f)]
            la, lb = local[child][(m + 1) % len(faces[child])], local[child][m]
            angle = math.atan2(*(a - b)[::-1]) - math.atan2(*(la - lb)[::-1])
            c, s = math.cos(angle), math.sin(angle)
            turn = np.array([[c, -s], [s, c]])
            placed[child] = (local[child] - lb) @ turn.T + b
            hinges.append((parent, k, child, m))
            frontier += [(child, j) for j in range(len(faces[child])) if j != m]
        polygons = [placed[i] for i in range(len(faces))]
        if net_is_clean(polygons, hinges):
            return polygons, hinges
    return None


def net_is_clean(polygons: Sequence[np.ndarray], hinges: Sequence[tuple[int, int, int, int]]) -> bool:
    """No two faces overlap, and faces that are not hinged together share no edge (they may touch at a corner):
    otherwise the drawing would suggest a fold that is not there."""
    shapes = np.array([shapely.Polygon(p) for p in polygons], dtype=object)
    scale = max(np.ptp(np.vstack(polygons), axis=0))
    shrunk = shapely.buffer(shapes, -1e-4 * scale)
    hinged = {frozenset((h[0], h[2])) for h in hinges}
    pairs = [(i, j) for i in range(len(polygons)) for j in range(i + 1, len(polygons))]
    first = np.array([p[0] for p in pairs])
    second = np.array([p[1] for p in pairs])
    if shapely.intersects(shrunk[first], shrunk[second]).any():
        return False
    # faces not hinged together whose boxes come within the width of the buffer below (twice it: room to spare) of
    # each other: the boundaries of the others cannot meet, their shared length is 0
    bounds = shapely.bounds(shapes)
    reach = 2e-6 * scale
    loose = [(i, j) for i, j in pairs if frozenset((i, j)) not in hinged
             and max(bounds[j, 0] - bounds[i, 2], bounds[i, 0] - bounds[j, 2], bounds[j, 1] - bounds[i, 3],
                     bounds[i, 1] - bounds[j, 3]) <= reach]
    if loose:
        a = shapely.boundary(shapes[[i for i, _ in loose]])
        others = sorted({j for _, j in loose})  # each face's boundary buffered once
        buffered = dict(zip(others, shapely.buffer(shapely.boundary(shapes[others]), 1e-6 * scale), strict=True))
        b = np.array([buffered[j] for _, j in loose], dtype=object)
        if (shapely.length(shapely.intersection(a, b)) > 1e-3 * scale).any():
            return False
    return True


def orient_net(rng: np.random.Generator, polygons: list[np.ndarray]) -> list[np.ndarray]:
    """Turn the net so its minimum-area bounding rectangle is axis-aligned (it fills a square panel best),
    then by a random quarter turn."""
    hull = shapely.MultiPoint(np.vstack(polygons).tolist()).minimum_rotated_rectangle
    corners = np.asarray(hull.exterior.coords)[:2]
    angle = -math.atan2(*(corners[1] - corners[0])[::-1]) + math.pi / 2 * int(rng.integers(4))
    c, s = math.cos(angle), math.sin(angle)
    turn = np.array([[c, -s], [s, c]])
    return [p @ turn.T for p in polygons]


# -- the solver: fold the net back onto a solid --------------------------------------------------------
def _distances(points: np.ndarray) -> np.ndarray:
    return np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)


def _mirrored(net: PolyNet) -> PolyNet:
    """The net seen from its back (folded the other way): x negated, every cycle reversed."""
    faces = [(f * [-1, 1])[::-1] for f in net.faces]

    def flip(face: int, edge: int) -> int:
        n = len(net.faces[face])
        return (n - 2 - edge) % n

    hinges = [(i, flip(i, ki), j, flip(j, kj)) for i, ki, j, kj in net.hinges]
    return PolyNet(faces, hinges, net.colour)


def refolds_onto(net: PolyNet, vertices: np.ndarray, faces: Sequence[Sequence[int]]) -> bool:
    """True if the net, folded along its hinges, closes up into the polyhedron (vertices, faces): some placement
    of net face 0 on a solid face propagates through the hinges to a one-to-one map onto the solid's faces
    with every face congruent to its image at one common scale."""
    if len(net.faces) != len(faces):
        return False
    owners = edge_owners(faces)
    links: dict[int, list[tuple[int, int, int]]] = {i: [] for i in range(len(net.faces))}
    for i, ki, j, kj in net.hinges:
        links[i].append((ki, j, kj))
        links[j].append((kj, i, ki))
    flat = [_distances(f) for f in net.faces]
    solid = [_distances(vertices[list(f)]) for f in faces]

    def congruent(i: int, g: int, offset: int, scale: float) -> bool:
        n = len(faces[g])
        if n != len(net.faces[i]):
            return False
        turn = (np.arange(n) + offset) % n
        return bool(np.abs(flat[i] - scale * solid[g][np.ix_(turn, turn)]).max() <= 1e-3 * flat[i].max())

    # net face 0 tried on every solid face and turn at once (``congruent`` of each, the same numbers compared)
    first, n = flat[0], len(net.faces[0])
    scales = [first.sum() / distances.sum() for distances in solid]
    fits = [np.zeros(len(f), dtype=bool) for f in faces]
    same = [g for g, f in enumerate(faces) if len(f) == n]
    if same:
        turns = (np.arange(n)[None, :] + np.arange(n)[:, None]) % n  # offset x corner
        spans = np.stack([solid[g] for g in same])[:, turns[:, :, None], turns[:, None, :]]  # face x offset x n x n
        scaled = np.array([scales[g] for g in same])[:, None, None, None] * spans
        close = np.abs(first - scaled).max(axis=(2, 3)) <= 1e-3 * first.max()
        for g, row in zip(same, close, strict=True):
            fits[g] = row
    for start in range(len(faces)):
        scale = scales[start]
        for offset in range(len(faces[start])):
            if not fits[start][offset]:
                continue
            mapping, taken, queue = {0: (start, offset)}, {start}, [0]
            while queue:
                i = queue.pop()
                g, o = mapping[i]
                cycle = faces[g]
                for ki, j, kj in links[i]:
                    u, v = cycle[(ki + o) % len(cycle)], cycle[(ki + o + 1) % len(cycle)]
                    h, m = owners[(v, u)]  # the solid face across that edge
                    image = (h, (m - kj) % len(faces[h]))
                    if j in mapping:
                        if mapping[j] != image:
                            break
                        continue
                    if h in taken or not congruent(j, *image, scale):
                        break
                    mapping[j] = image
                    taken.add(h)
                    queue.append(j)
                else:
                    continue
                break  # an inconsistent hinge: try the next placement
            else:
                if len(mapping) == len(faces):
                    return True
    return False


def folds_into(net: PolyNet | ConeNet, solid: Solid) -> bool:
    """The solver's rule for one option, from the net's geometry and the displayed solid only."""
    if isinstance(net, ConeNet):
        if solid.profile is None:
            return False
        bottom, top, height = solid.profile
        if top > 1e-9 or bottom <= 0:
            return False  # a sector and a circle fold into a solid that comes to a point
        if abs(net.radius * net.sweep - 2 * math.pi * net.circle) > 1e-6 * net.radius:
            return False  # the arc would not close around the base
        return abs(bottom / math.hypot(bottom, height) - net.circle / net.radius) < 0.02
    if solid.profile is not None:
        return False
    return any(refolds_onto(candidate, solid.vertices, solid.faces) for candidate in (net, _mirrored(net)))


# -- option sizes that carry no information ---------------------------------------------------------------
#: Audited nuisance features and how each grows with an option's drawn (linear) scale: MC's are all areas.
AREA_FEATURES = {"ink": 2.0, "extent": 2.0, "saturation": 2.0}
#: Size order (``balanced_scales``): consecutive options differ by at least SIZE_STEP (relative) in every
#: feature, and the longest side of the largest option's ink box is at most SIZE_RANGE times the smallest one's.
SIZE_STEP = 0.05
SIZE_RANGE = 1.6


def _reach(mesh: raster3d.Mesh) -> float:
    """The longer side of the mesh's projected box, world units."""
    x0, y0, x1, y1 = raster3d.screen_box(mesh)
    return max(x1 - x0, y1 - y0)


@functools.cache
def _edges(faces: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every directed edge of a closed mesh's faces: (face, from vertex, to vertex, the face across it)."""
    owner = np.array([i for i, f in enumerate(faces) for _ in f], dtype=np.int64)
    start = np.array([v for f in faces for v in f], dtype=np.int64)
    end = np.array([f[(k + 1) % len(f)] for f in faces for k in range(len(f))], dtype=np.int64)
    keys = {(int(u), int(v)): int(i) for i, u, v in zip(owner, start, end, strict=True)}
    across = np.array([keys[(int(v), int(u))] for u, v in zip(start, end, strict=True)], dtype=np.int64)
    for shared in (owner, start, end, across):  # cached for every caller: read-only
        shared.flags.writeable = False
    return owner, start, end, across


#: Whether ``balanced_scales``' first round (every option at size 1, only read to predict the sizes) takes the
#: options' features from ``estimated_features`` instead of drawing the panels; the confirming rounds always draw
#: and measure them.  On since task version 0.2.4 (~4 ms an item less), once the verifier's outline-core check
#: (``verifiers.projection``) closed the blind spot the items it made had exposed (a notch through half an inner
#: edge).
ESTIMATED_FIRST_ROUND = True
#: ``estimated_features``: how far past its faces' edges a panel's outline reaches (ink, ink box) and how far
#: into each face it reaches (saturation), in supersampled pixels beyond ``render``'s outline radius.
OUTLINE_OUTSIDE = 0.5
OUTLINE_INSIDE = 0.25


def estimated_features(mesh: raster3d.Mesh, faces: tuple[tuple[int, ...], ...], side: int, scale: float
                       ) -> dict[str, float]:
    """The nuisance features (``raster3d.panel_features``) that ``raster3d.render`` of the convex ``mesh`` (its
    ``faces`` as a tuple) at ``scale`` would measure, worked out from the projected faces instead of drawn:
    ink is the silhouette (the front faces' projected areas) grown by the outline, which a square brush draws
    (a convex region grown by a square of half-width d gains d times twice its box's width plus height, and
    4 d^2); the ink box is the silhouette's box grown by the outline, on whole output pixels as ``render`` lays
    its blocks; saturation is each front face's colour strength over its area less the outline's band along
    its edges where the outline group changes (a face of a round surface loses it along the group's border).
    Within a few tenths of a percent of the drawn panel's features: a first guess for ``balanced_scales``,
    whose later rounds measure the drawn panels."""
    ss = raster3d.SUPERSAMPLE
    radius = max(1, round((raster3d.edge_width(side) * ss - 1) / 2))  # ``render``'s outline brush
    outside, inside = (radius + OUTLINE_OUTSIDE) / ss, (radius + OUTLINE_INSIDE) / ss
    camera = raster3d.CAMERA
    cam = camera.project(mesh.vertices)[:, :2]
    owner, start, end, across = _edges(faces)
    # unit normals by Newell's sums over each face's edges (the faces are planar)
    p, q = mesh.vertices[start], mesh.vertices[end]
    normals = np.stack([np.bincount(owner, (p[:, i] - q[:, i]) * (p[:, j] + q[:, j]), len(faces))
                        for i, j in ((1, 2), (2, 0), (0, 1))], axis=1)
    normals /= np.sqrt((normals * normals).sum(axis=1))[:, None]
    front = (normals @ camera.toward) >= 1e-4  # as ``render`` culls
    shade = raster3d.AMBIENT + (1 - raster3d.AMBIENT) * (1 + normals @ raster3d.LIGHT) / 2
    colours = np.clip(mesh.colours * shade[:, None], 0, 255).round()
    strength = colours.max(axis=1) - colours.min(axis=1)
    xy = cam * scale
    a, b = xy[start], xy[end]
    area = np.bincount(owner, a[:, 0] * b[:, 1] - b[:, 0] * a[:, 1], len(faces)) / 2  # front faces: positive
    groups = mesh.groups
    border = ~(front[across] & (groups[across] == groups[owner]))
    reach = np.bincount(owner, np.where(border, np.abs(b - a).sum(axis=1), 0.0), len(faces))
    low, high = xy.min(axis=0), xy.max(axis=0)
    width, height = high - low
    pixels = (side - 2 * nuisance.FRAME) ** 2
    ink = (float(area[front].sum()) + 2 * outside * (width + height) + 4 * outside * outside) / pixels
    # the ink box: from the first pixel beside the first covered one to the last covered one, grown by the brush
    size, pix = side * ss, scale * ss
    middle = (cam.min(axis=0) + cam.max(axis=0)) / 2
    px = (cam[:, 0] - middle[0]) * pix + size / 2
    py = size / 2 - (cam[:, 1] - middle[1]) * pix
    columns = (math.floor(float(px.max()) - 0.5) + radius) // ss - (math.ceil(float(px.min()) - 0.5) - 1 - radius) // ss
    rows = (math.floor(float(py.max()) - 0.5) + radius) // ss - (math.ceil(float(py.min()) - 0.5) - 1 - radius) // ss
    extent = (columns + 1) * (rows + 1) / pixels
    # per outline group shown: its faces' strength over their areas less the band, and the band's corners
    _, group, members = np.unique(groups[front], return_inverse=True, return_counts=True)
    kept = np.bincount(group, (strength * (area - inside * reach))[front], len(members))
    kept += 4 * inside * inside * np.bincount(group, strength[front], len(members)) / members
    saturation = float(np.maximum(kept, 0.0).sum())
    return {"ink": ink, "extent": extent, "saturation": saturation / pixels / 255}


# -- the task -------------------------------------------------------------------------------------------
class MentalComposition(MindsEyeTask):
    """MC: choose the solid the net folds into."""

    code = "MC"
    art = "transformation"
    texts = PromptTexts(
        question=(
            "The figure labelled Original Shape is a flat net cut from card. The four figures labelled A, B, "
            "C and D are 3D solids. Which solid do you get by folding the net along its edges?"
        ),
        hint=(
            "Picture folding the net up along the lines between its faces. Count the faces and note their shapes "
            "and proportions, see which faces meet along an edge once folded, and look for the solid with exactly "
            "those faces. Colour does not matter."
        ),
        puzzle_type="net folding (2D net to 3D solid)",
        elimination=(
            "compare the number of faces, the shape and proportions of each face, and which faces meet once the "
            "net is folded; discard any solid the net cannot close up into."
        ),
    )
    option_count = 4
    option_columns = 4
    query_count = 1
    tier_values: ClassVar[TierValues] = {"solids": follows({t: k["solids"] for t, k in KNOBS.items()})}

    def knob_hardness(self, knobs: Mapping[str, Any]) -> float:
        """Solid tier (simple 0, mixed 1, complex 2), plus one for the colour confound."""
        return ("simple", "mixed", "complex").index(knobs["solids"]) + bool(knobs["colour_confound"])

    def knobs(self, difficulty: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """The structural knobs: difficulty defaults, overridden by explicit parameters."""
        base = KNOBS[difficulty]
        confound = params.get("colour_confound")
        return {"solids": params.get("solids") or base["solids"],
                "colour_confound": base["colour_confound"] if confound is None else bool(confound)}

    def build(self, rng: np.random.Generator, difficulty: str, params: Mapping[str, Any],
              plan: SizePlan | None = None) -> Stimulus:
        knobs = self.knobs(difficulty, params)
        side = self.layout(params["size"]).tile
        for _ in range(100):
            made = self._attempt(rng, knobs, side)
            if made is not None:
                return made
        raise RuntimeError(f"MC: no sound item for knobs {knobs}")  # pragma: no cover

    def _proportion(self, rng: np.random.Generator, kind: str) -> tuple[float, ...]:
        """Random proportions of ``kind`` (an empty tuple for solids with fixed shape)."""
        if kind == "cuboid":
            dims = list(CUBOIDS[int(rng.integers(len(CUBOIDS)))])
            return tuple(float(d) for d in rng.permutation(dims))
        if kind == "triangular_prism":
            return (float(rng.choice(PRISM_LENGTHS)),)
        if kind == "square_pyramid":
            return (float(rng.choice(PYRAMID_HEIGHTS)),)
        if kind == "cone":
            return (float(rng.choice(CONE_RATIOS)),)
        return ()

    def _variant(self, rng: np.random.Generator, kind: str, proportion: tuple[float, ...]
                 ) -> tuple[str, tuple[float, ...]]:
        """The same kind of solid (or its family) in clearly different proportions."""
        if kind == "cube":
            return "cuboid", self._proportion(rng, "cuboid")
        if kind == "cuboid":
            others = [c for c in CUBOIDS if sorted(c) != sorted(proportion)] + [(1, 1, 1)]
            dims = others[int(rng.integers(len(others)))]
            return ("cube", ()) if dims == (1, 1, 1) else ("cuboid", tuple(float(d) for d in rng.permutation(dims)))
        if kind == "triangular_prism":
            return kind, (float(rng.choice([x for x in PRISM_LENGTHS if x != proportion[0]])),)
        if kind == "square_pyramid":
            return kind, (float(rng.choice([x for x in PYRAMID_HEIGHTS if x != proportion[0]])),)
        if kind == "cone":
            return kind, (float(rng.choice([x for x in CONE_RATIOS if abs(x - proportion[0]) >= 0.19])),)
        if kind == "tetrahedron":
            return "triangular_pyramid", (TALL_TETRA_HEIGHT,)
        if kind == "octahedron":
            return "bipyramid", (STRETCHED_OCTA,)
        if kind in ("dodecahedron", "icosahedron"):
            return kind, (STRETCHED_ROUND,)
        raise ValueError(f"no proportion variant for {kind!r}")

    def _net(self, rng: np.random.Generator, kind: str, proportion: tuple[float, ...],
             colour: tuple[int, int, int]) -> PolyNet | ConeNet | None:
        if kind == "cone":
            ratio = proportion[0]
            return ConeNet(1.0, 2 * math.pi * ratio, float(rng.uniform(0, 2 * math.pi)), ratio, colour)
        vertices, faces = polyhedron(kind, proportion)
        unfolded = unfold(rng, vertices, faces)
        if unfolded is None:
            return None
        polygons, hinges = unfolded
        return PolyNet(orient_net(rng, polygons), hinges, colour)

    def _world(self, rng: np.random.Generator, kinds: Sequence[str]) -> dict[str, tuple[str, tuple[float, ...]]]:
        """The item's four solids (kind, proportions) by their part in ``WORLD``, all from ``kinds`` and their
        proportion variants: a kind and its variant, the kind of another family with the nearest number of
        faces, and a kind of a third family."""
        anchor = kinds[int(rng.integers(len(kinds)))]
        proportion = self._proportion(rng, anchor)
        family = FAMILY.get(anchor, anchor)
        rest = [k for k in kinds if FAMILY.get(k, k) != family]
        nearest = min(abs(FACES[k] - FACES[anchor]) for k in rest)
        close = [k for k in rest if abs(FACES[k] - FACES[anchor]) == nearest]
        similar = close[int(rng.integers(len(close)))]
        free = [k for k in rest if FAMILY.get(k, k) != FAMILY.get(similar, similar)]
        other = free[int(rng.integers(len(free)))]
        return {"pair": (anchor, proportion), "pair_variant": self._variant(rng, anchor, proportion),
                "similar": (similar, self._proportion(rng, similar)), "other": (other, self._proportion(rng, other))}

    @staticmethod
    def templates(source: str) -> dict[str, str]:
        """The template of each solid of the world when the net is cut from ``source``: with the net from the
        pair, its partner is ``proportion``, the similar solid ``similar_face_count`` and the last
        ``different_solid``; with the net from a single solid, the pair is a ``decoy_pair`` (the kind and its
        ``decoy_pair_variant``: a kind shown twice, wrong in both proportions) and the other single is a
        ``different_solid``."""
        if source in ("pair", "pair_variant"):
            partner = "pair_variant" if source == "pair" else "pair"
            return {source: "folded_net", partner: "proportion", "similar": "similar_face_count",
                    "other": "different_solid"}
        single = "other" if source == "similar" else "similar"
        return {source: "folded_net", "pair": "decoy_pair", "pair_variant": "decoy_pair_variant",
                single: "different_solid"}

    def _attempt(self, rng: np.random.Generator, knobs: Mapping[str, Any], side: int) -> Stimulus | None:
        """One try at a stimulus, or None.  Everything is drawn afresh on each try, the solid the net is cut
        from and the options' size order included, and nothing that rejects a try depends on which option is
        the answer: the accepted options then carry no information about it (they are exchangeable)."""
        world = self._world(rng, SETS[knobs["solids"]])
        source = WORLD[int(rng.integers(len(WORLD)))]
        templates = self.templates(source)
        target, proportion = world[source]

        # -- colours: with confounds on, four different colours and the net in the colour of one solid drawn
        # uniformly, so the net-coloured solid is the right one exactly as often as chance (1 in 4)
        palette = [PALETTE[int(k)] for k in rng.permutation(len(PALETTE))]
        if knobs["colour_confound"]:
            colours = dict(zip(WORLD, palette, strict=False))
            net_colour = colours[WORLD[int(rng.integers(len(WORLD)))]]
        else:
            colours = dict.fromkeys(WORLD, palette[0])
            net_colour = palette[0]

        # -- the designated confound: the net-coloured wrong solid if there is one, else the closest kind
        wrong = [part for part in WORLD if part != source]
        coloured = [part for part in wrong if knobs["colour_confound"] and colours[part] == net_colour]
        if coloured:
            confound = coloured[0]
        else:
            closest = ("proportion", "similar_face_count") if source.startswith("pair") else ("decoy_pair",
                                                                                              "different_solid")
            name = closest[0] if rng.random() < 0.5 else closest[1]
            confound = next(part for part in wrong if templates[part] == name)

        net = self._net(rng, target, proportion, net_colour)
        if net is None:
            return None
        parts = [source, *wrong]  # the right solid first (``_panels_sound``'s answer)
        for attempt in range(6):
            solids = {part: Solid(*world[part], colours[part], presentation(rng, world[part][0])) for part in parts}
            if attempt == 0 and [folds_into(net, s) for s in solids.values()] != [True, False, False, False]:
                return None  # a foil that the net also folds into, or a net that closes into nothing
            if self._panels_sound(rng, list(solids.values()), side):
                break
        else:
            return None

        options = []
        for part, solid in solids.items():
            role = "correct" if part == source else "confound" if part == confound else "filler"
            latent = {"solid": solid.kind, "proportion": list(solid.proportion), "faces": FACES[solid.kind],
                      "colour": list(solid.colour), "net_coloured": solid.colour == net_colour}
            options.append(Option(role, templates[part], latent, solid))
        facts = {
            "knobs": dict(knobs),
            "net_from": source,
            "net_solid": target,
            "net_proportion": list(proportion),
            "net_faces": FACES[target],
            "net_colour": list(net_colour),
            "hinges": [list(h) for h in getattr(net, "hinges", [])],
            "correct_shares_net_colour": colours[source] == net_colour,
        }
        return Stimulus(query=(net,), query_captions=("Original Shape",), options=options, facts=facts)

    def _panels_sound(self, rng: np.random.Generator, solids: list[Solid], side: int) -> bool:
        """Size the options (``balanced_scales``: every nuisance feature follows one size order, the one that
        needs the narrowest range, found without looking at which option is the answer), render them at one
        shared scale and keep them if no nuisance feature singles out any option (the right one is
        ``solids[0]``, but what is rejected must not depend on that) and all differ visibly."""
        meshes: list[raster3d.Mesh] = []
        meshes_drawn: list[bool] = []  # empty until the first (estimated) round is done

        def measure(scales: np.ndarray) -> list[dict[str, float]]:
            for solid, size in zip(solids, scales, strict=True):
                solid.size = round(float(size), 6)
            meshes[:] = [s.mesh() for s in solids]
            scale = raster3d.quantised_scale(raster3d.shared_scale(meshes, side), down=True)
            if ESTIMATED_FIRST_ROUND and not meshes_drawn:  # the first guess, from the projected faces, not drawn
                meshes_drawn.append(True)
                drawn.clear()  # nothing drawn at these scales
                return [{**estimated_features(mesh, s.topology(), side, scale), "reach": _reach(mesh) * scale / side}
                        for s, mesh in zip(solids, meshes, strict=True)]
            for solid, mesh in zip(solids, meshes, strict=True):
                solid.relative_scale = scale / side
                solid.cache = {side: raster3d.render(mesh, side, scale).indexed}
            drawn[:] = [raster3d.panel_features(s.cache[side]) for s in solids]
            return [{**features, "reach": _reach(mesh) * scale / side}
                    for features, mesh in zip(drawn, meshes, strict=True)]

        drawn: list[dict[str, float]] = []  # the features of the panels last drawn
        if balanced_scales(rng, measure, len(solids), AREA_FEATURES, None, 0.9 * self.nuisance_factor,
                           {k: v / 2 for k, v in self.nuisance_floor.items()}, SIZE_STEP, SIZE_RANGE) is None:
            return False
        # the scales returned were confirmed on panels drawn at them (never on the first, estimated round): the
        # panels kept, whose features the audit reads as measured
        tiles = [s.cache[side] for s in solids]
        return raster3d.panels_clean(tiles, self.nuisance_factor, self.nuisance_floor, self.min_option_difference,
                                     features=drawn)

    # -- drawing -------------------------------------------------------------------------------------
    def draw_query(self, content: PolyNet | ConeNet, side: int) -> Image.Image:
        layout = net_layout(content, side)
        tile = Tile(side)
        ss = tile.supersample
        colour = tuple(layout["colour"])
        width = round(layout["edge"] * ss)
        if layout["net"] == "sector":
            (ax, ay), r = (v * ss for v in layout["apex"]), layout["radius"] * ss
            tile.draw.pieslice((ax - r, ay - r, ax + r, ay + r), layout["start"], layout["end"], fill=colour,
                               outline=EDGE, width=width)
            (cx, cy), rc = (v * ss for v in layout["centre"]), layout["circle"] * ss
            tile.draw.ellipse((cx - rc, cy - rc, cx + rc, cy + rc), fill=colour, outline=EDGE, width=width)
        else:
            rings = [[(x * ss, y * ss) for x, y in face] for face in layout["faces"]]
            for ring in rings:
                tile.draw.polygon(ring, fill=colour)
            for ring in rings:
                tile.draw.line([*ring, ring[0], ring[1]], fill=EDGE, width=width, joint="curve")
        return tile.finish()

    def draw_option(self, content: Solid, side: int) -> Image.Image:
        if side not in content.cache:  # normally drawn during build's audit; the scale is the item's
            content.cache[side] = raster3d.render(content.mesh(), side, content.pixel_scale(side)).indexed
        return content.cache[side]

    def render(self, problem: Any) -> list[Image.Image]:
        """The panels placed by the layout as the base class places them, composed as a palette image
        (``raster3d.render_item``)."""
        return raster3d.render_item(self, problem)

    # -- the scene record and its verifier -----------------------------------------------------------------
    def describe(self, content: PolyNet | ConeNet | Solid, side: int) -> dict[str, Any]:
        """The net as laid out in pixels (``net_layout``), or a solid's drawn geometry, colour and view."""
        if isinstance(content, Solid):
            return {**content.drawn(), "colour": list(content.colour),
                    **raster3d.view_record(content.pixel_scale(side), side)}
        return net_layout(content, side)

    def solve_scene(self, scene: Mapping[str, Any]) -> list[int]:
        return verifier.solve_scene(scene)

    def sketch(self, description: Mapping[str, Any], side: int) -> np.ndarray:
        return verifier.sketch(description, side)

    def verify(self, item: Item, images: Sequence[Image.Image]) -> list[str]:
        """The base checks, and every panel's silhouette and face colours on the pixels (the panels' sketches
        worked out together first, for both)."""
        metadata = item.metadata
        scene = metadata.get("scene") if isinstance(metadata, Mapping) else None
        tiles = panel_tiles(images[0], scene) if images else None  # cut once for both
        with verifier.keyed(scene):  # each panel's memo key written once for all the checks
            verifier.prepare(scene)
            return super().verify(item, images, tiles=tiles) + verifier.pixel_failures(
                item.metadata["scene"], images[0], prepared=True, tiles=tiles)


TASK = MentalComposition()
