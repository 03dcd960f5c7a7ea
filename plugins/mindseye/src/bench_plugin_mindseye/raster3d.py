"""A small numpy 3D renderer for the two Mind's Eye tasks that show solids: mental rotation (MT, polycubes)
and mental composition (MC, folded nets).

Spec §3.3 / §7.2 ask for: an orthographic view from one fixed camera that shows three faces of a box
(elevation 30°, azimuth -60°, the view of the paper's release), hidden surfaces removed with a z-buffer
(sorting faces by depth fails at oblique 60°/120° poses), Lambert shading with a fixed light plus ambient
so that even white cubes show three distinct tones, outlines on visible faces only, and one scale for every
panel of an item.  Everything is vectorised per face: each convex face is filled over its pixel bounding
box from its per-row spans (where each pixel row crosses the face's edges, worked out for all faces at once)
and a depth plane, at 2x supersampling, then box-filtered down.  Meshes that are one convex solid, or lattice
cubes (translates of one centrally symmetric box), are painted part by part far to near instead, which draws
the same pixels without depths (``Mesh.centres``).  Panels come out as palette images whose palette holds
each face's colour blended with 0-3 quarters of the outline colour: exactly the box filter's pixels.

Also here: the nuisance audit the 3D tasks run on their own panels before committing to a stimulus (the base
class's verify rejects items whose answer panel stands out by ink, extent or saturation), read through the
panels' palettes; cube visibility for mental rotation's pose search, counted cube by cube
(``cube_visibility``); and ``compose``, the item's picture as the palette image the core writes, built from the
panels' palette indices and the layout's captions in ``CAPTION_LEVELS`` greys.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from PIL import Image, ImageChops

from bench_core import option_letters, palette_indices
from bench_plugin_mindseye import nuisance
from bench_plugin_mindseye.layout import FRAME as LAYOUT_FRAME_RGB
from bench_plugin_mindseye.layout import INK as LAYOUT_INK_RGB
from bench_plugin_mindseye.layout import colour_keys

#: The fixed camera (degrees), matplotlib's default 3D view as used by the paper's release (spec §2.6).
ELEVATION = 30.0
AZIMUTH = -60.0
#: Supersampling of 3D panels (spec: 2x is enough once edges are at least two output pixels wide).
SUPERSAMPLE = 2
BACKGROUND = (255, 255, 255)
EDGE = (35, 35, 35)
#: Lambert shading: shade = AMBIENT + (1 - AMBIENT) * (1 + n.L) / 2.  The wrapped form keeps faces turned
#: away from the light distinguishable instead of flattening them all to the ambient tone.
AMBIENT = 0.34


def _unit(v: Sequence[float]) -> np.ndarray:
    a = np.asarray(v, dtype=float)
    return a / np.linalg.norm(a)


class Camera:
    """An orthographic camera looking at the origin from ``elevation``/``azimuth`` with z up."""

    def __init__(self, elevation: float = ELEVATION, azimuth: float = AZIMUTH):
        self.elevation, self.azimuth = float(elevation), float(azimuth)
        el, az = math.radians(elevation), math.radians(azimuth)
        #: unit vector from the scene towards the viewer
        self.toward = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        self.right = _unit(np.cross([0.0, 0.0, 1.0], self.toward))
        self.up = np.cross(self.toward, self.right)
        self.matrix = np.stack([self.right, self.up, self.toward])  # world -> (x right, y up, depth)

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points to (N, 3) camera coordinates: screen x, screen y (up), depth (larger is nearer)."""
        return np.asarray(points, dtype=float) @ self.matrix.T


CAMERA = Camera()
#: The light, fixed relative to the camera: from above, a little to the left and in front, so the top,
#: left and right faces of an upright box get three clearly different tones.  Rounded to the 6 decimals
#: that items record, so the drawing uses exactly the recorded light.
LIGHT = np.round(_unit(CAMERA.matrix.T @ _unit([-0.26, 0.52, 0.81])), 6)
#: Panel scales (pixels per world unit) are multiples of this, so that the scale an item records is the
#: one it was drawn at, exactly.
SCALE_STEP = 1 / 64


def quantised_scale(scale: float, down: bool = False) -> float:
    """``scale`` on the grid of ``SCALE_STEP`` (rounded down with ``down``, so a fitted object still fits)."""
    steps = scale / SCALE_STEP
    return (math.floor(steps) if down else round(steps)) * SCALE_STEP


def edge_width(side: int) -> float:
    """Outline width in output pixels of a ``side``-pixel panel: about 1% of the side, never under 2."""
    return max(2.0, side / 100)


def view_record(scale: float, side: int, camera: Camera = CAMERA) -> dict[str, float | list[float]]:
    """What a verifier needs to redraw a panel: camera angles, scale (pixels per unit), light, ambient
    share and outline width, as drawn."""
    return {"camera": [camera.elevation, camera.azimuth], "scale": scale, "light": LIGHT.tolist(),
            "ambient": AMBIENT, "edge": edge_width(side)}


def rotation(axis: str, degrees: float) -> np.ndarray:
    """The 3x3 proper rotation by ``degrees`` about world axis ``axis`` ('x', 'y' or 'z'), right-handed."""
    t = math.radians(degrees)
    c, s = round(math.cos(t), 12), round(math.sin(t), 12)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=float)
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], dtype=float)
    if axis == "z":
        return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=float)
    raise ValueError(f"unknown axis {axis!r}")


class Mesh:
    """Convex planar polygons in world space.

    ``faces`` lists vertex-index cycles, counter-clockwise seen from outside (so the polygon normal points
    out); ``colours`` is one RGB (0-255) per face; ``groups`` gives each face an outline group: outlines are
    drawn where the visible group changes, so the facets of a smooth surface share one group.
    ``owners`` tags each face with an arbitrary integer (e.g. its cube) for visibility counts.
    """

    def __init__(self, vertices: np.ndarray, faces: Sequence[Sequence[int]], colours: Sequence[Sequence[float]],
                 groups: Sequence[int] | None = None, owners: Sequence[int] | None = None,
                 centres: np.ndarray | None = None):
        self.vertices = np.asarray(vertices, dtype=float)
        #: the faces as one (faces x corners) array when they all have as many corners
        self._table = faces.astype(np.int64) if isinstance(faces, np.ndarray) and faces.ndim == 2 else None
        self.faces = [np.asarray(f, dtype=np.int64) for f in faces]
        self.colours = np.asarray(colours, dtype=float).reshape(len(self.faces), 3)
        self.groups = np.arange(len(self.faces)) if groups is None else np.asarray(groups, dtype=np.int64)
        self.owners = np.zeros(len(self.faces), dtype=np.int64) if owners is None else np.asarray(owners)
        #: per face, the centre of the convex part it bounds, when the mesh is the surface of one convex solid or
        #: of translates of one centrally symmetric convex solid that do not overlap (unit cubes on a lattice):
        #: then parts farther from the camera never cover nearer ones, and ``render`` paints the parts far to
        #: near instead of testing depths.  None: a z-buffer decides.
        self.centres = None if centres is None else np.asarray(centres, dtype=float).reshape(len(self.faces), 3)

    def transformed(self, matrix: np.ndarray) -> Mesh:
        """The mesh with every vertex mapped by the proper rotation ``matrix``."""
        turn = np.asarray(matrix).T
        return Mesh(self.vertices @ turn, self.faces if self._table is None else self._table, self.colours,
                    self.groups, self.owners, None if self.centres is None else self.centres @ turn)

    def normals(self) -> np.ndarray:
        """Outward unit normals, from the first three corners of each face (faces are convex, so these are
        never collinear)."""
        if self._table is not None:
            first = self._table[:, :3]
        else:
            first = np.array([f[:3] for f in self.faces], dtype=np.int64)
        p = self.vertices[first]
        n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        return n / np.linalg.norm(n, axis=1, keepdims=True)


#: The six unit directions of a cube's faces and, for each, its four corners counter-clockwise seen from
#: outside (offsets from the cube centre, in units of the edge).
_CUBE_SIDES = (
    ((1, 0, 0), ((1, -1, -1), (1, 1, -1), (1, 1, 1), (1, -1, 1))),
    ((-1, 0, 0), ((-1, -1, -1), (-1, -1, 1), (-1, 1, 1), (-1, 1, -1))),
    ((0, 1, 0), ((-1, 1, -1), (-1, 1, 1), (1, 1, 1), (1, 1, -1))),
    ((0, -1, 0), ((-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1))),
    ((0, 0, 1), ((-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1))),
    ((0, 0, -1), ((-1, -1, -1), (-1, 1, -1), (1, 1, -1), (1, -1, -1))),
)


#: The same, as arrays: the six directions and, per direction, its four corner offsets (half an edge).
_CUBE_DIRECTIONS = np.array([direction for direction, _ in _CUBE_SIDES], dtype=np.int64)
_CUBE_QUADS = 0.5 * np.array([quad for _, quad in _CUBE_SIDES], dtype=float)


def polycube_mesh(voxels: np.ndarray, colours: Sequence[Sequence[float]], matrix: np.ndarray | None = None) -> Mesh:
    """The surface of unit cubes at integer ``voxels`` (one RGB colour per cube): six quads per cube, minus
    the faces two cubes share, centred on the voxels' mean and turned by the rotation ``matrix``.
    Faces come direction by direction (``_CUBE_SIDES``' order), cube by cube within a direction; each face's
    owner is the index of its cube."""
    voxels = np.asarray(voxels, dtype=np.int64)
    colours = np.asarray(colours, dtype=float).reshape(len(voxels), 3)
    centre = voxels.mean(axis=0)
    beside = voxels[None, :, None, :] + _CUBE_DIRECTIONS[:, None, None, :]  # direction, cube, 1, axis
    touching = (beside == voxels[None, None, :, :]).all(axis=3).any(axis=2)  # a face shared with a neighbour
    direction, owners = np.nonzero(~touching)
    vertices = ((voxels[owners] - centre)[:, None, :] + _CUBE_QUADS[direction]).reshape(-1, 3)
    faces = np.arange(len(vertices)).reshape(-1, 4)
    mesh = Mesh(vertices, faces, colours[owners], owners=owners, centres=voxels[owners] - centre)
    return mesh if matrix is None else mesh.transformed(matrix)


def cube_visibility(voxels: np.ndarray, matrix: np.ndarray, side: int, camera: Camera = CAMERA
                    ) -> tuple[np.ndarray, float]:
    """Visible pixels per cube of the unit cubes at integer ``voxels`` turned by the rotation ``matrix`` and
    drawn without supersampling, fitted (``shared_scale``) into a ``side``-pixel panel, and that scale: what
    ``visible_pixels`` of their ``polycube_mesh`` counts per cube, worked out cube by cube instead of face by face.

    A unit cube seen by an orthographic camera covers a hexagon, the sum of its three edges' projections (a
    zonotope): a point lies in it when, across each projected edge, it is no further from the centre than half
    the three edges' extents there.  Cubes on a lattice are translates of one centrally symmetric box, so where
    two of them overlap on screen the one whose centre is nearer the camera is in front everywhere: every
    pixel centre shows the nearest cube whose hexagon holds it.  Every face of the three shown must face the
    camera (no edge-on face: two projected edges would be parallel); callers check the pose first."""
    voxels = np.asarray(voxels, dtype=float)
    matrix = np.asarray(matrix, dtype=float)
    cam = (voxels - voxels.mean(axis=0)) @ (camera.matrix @ matrix).T
    edges = (camera.matrix[:2] @ matrix).T  # each lattice edge on screen (x, y)
    half = 0.5 * np.abs(edges).sum(axis=0)
    low, high = cam[:, :2].min(axis=0) - half, cam[:, :2].max(axis=0) + half
    scale = 0.84 * side / float(max(high - low))
    middle = (low + high) / 2
    centres = np.arange(side) + 0.5
    xs = (centres - side / 2) / scale + middle[0]
    ys = (side / 2 - centres) / scale + middle[1]
    order = np.argsort(-cam[:, 2], kind="stable")  # nearest first
    x, y = cam[order, 0][None, :, None], cam[order, 1][None, :, None]
    # each row crosses a hexagon in one span: the overlap of the three bands across its projected edges
    ax, ay = -edges[:, 1], edges[:, 0]  # across each edge
    reach = 0.5 * np.abs(ax[:, None] * edges[:, 0] + ay[:, None] * edges[:, 1]).sum(axis=1)
    rest = ay[:, None, None] * (ys[None, None, :] - y)  # (edge, cube, row)
    flat = np.abs(ax) < 1e-12  # an edge level on screen bounds the rows, not the columns
    step = np.where(flat, 1.0, ax)[:, None, None]
    a, b = (-reach[:, None, None] - rest) / step, (reach[:, None, None] - rest) / step
    lo, hi = np.minimum(a, b) + x, np.maximum(a, b) + x
    if flat.any():
        outside = np.abs(rest) > reach[:, None, None]
        lo = np.where(flat[:, None, None], np.where(outside, np.inf, -np.inf), lo)
        hi = np.where(flat[:, None, None], np.where(outside, -np.inf, np.inf), hi)
    first, last = lo.max(axis=0), hi.min(axis=0)
    # the columns whose centre lies in [first, last] run from ``start`` to ``stop`` (the centres ``xs`` never
    # decrease), so the pixel tests are made on column numbers
    kind = np.int16 if side < 2**15 else np.int64
    start = np.searchsorted(xs, first.ravel(), side="left").astype(kind).reshape(first.shape)
    stop = np.searchsorted(xs, last.ravel(), side="right").astype(kind).reshape(last.shape)
    columns = np.arange(side, dtype=kind)
    covered = columns >= start[:, :, None]
    covered &= columns < stop[:, :, None]
    counts = np.zeros(len(voxels), dtype=np.int64)
    taken = covered[0].copy()
    counts[order[0]] = np.count_nonzero(taken)
    for k in range(1, len(voxels)):  # nearest first: a cube shows where no nearer one does
        mine = covered[k] & ~taken
        counts[order[k]] = np.count_nonzero(mine)
        taken |= mine
    return counts, scale


def screen_box(mesh: Mesh, camera: Camera = CAMERA) -> tuple[float, float, float, float]:
    """(xmin, ymin, xmax, ymax) of the mesh's projection in world units (y up)."""
    p = camera.project(mesh.vertices)
    return float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())


def shared_scale(meshes: Sequence[Mesh], side: int, fill: float = 0.84, camera: Camera = CAMERA) -> float:
    """Pixels per world unit that fit the LARGEST projected extent among ``meshes`` into ``fill`` of a
    ``side``-pixel panel; one value for every panel of an item, so apparent size carries no cue (spec §7.2)."""
    extent = 0.0
    for mesh in meshes:
        x0, y0, x1, y1 = screen_box(mesh, camera)
        extent = max(extent, x1 - x0, y1 - y0)
    return fill * side / extent


class Render:
    """A rendered panel: ``indexed``, the panel at output size as a palette image (mode "P"; its palette may
    repeat colours), ``image`` the same pixels in RGB (converted when first asked for), and ``visible``, the
    visible supersampled pixel count per face."""

    def __init__(self, indexed: Image.Image, index: np.ndarray, faces: int):
        self.indexed = indexed
        self._index, self._faces = index, faces
        self._rgb: Image.Image | None = None

    @property
    def visible(self) -> np.ndarray:
        counts = Image.fromarray(self._index).histogram()  # pixels per face (index 0 the background)
        return np.array(counts[1:self._faces + 1], dtype=np.int64)

    @property
    def image(self) -> Image.Image:
        if self._rgb is None:
            self._rgb = self.indexed.convert("RGB")
        return self._rgb


_NEXT: dict[int, np.ndarray] = {}


def _next_index(count: int) -> np.ndarray:
    """Indices 1, 2, ..., count-1, 0: each polygon corner's successor (memoised; np.roll is slow per face)."""
    if count not in _NEXT:
        _NEXT[count] = np.r_[1:count, 0]
    return _NEXT[count]


class Screen(NamedTuple):
    """A mesh seen by a camera in a ``size``-pixel square at ``pix`` pixels per world unit, centred by its
    projected box: the vertices' pixel coordinates (``px`` right, ``py`` down) and depth (larger is nearer),
    and the faces' camera-space normals."""

    px: np.ndarray
    py: np.ndarray
    depth: np.ndarray
    normals: np.ndarray


def _screen(mesh: Mesh, size: int, pix: float, camera: Camera, normals: np.ndarray | None = None) -> Screen:
    """``mesh`` seen by ``camera`` in a ``size``-pixel square at ``pix`` pixels per unit (``Screen``);
    ``normals``: the mesh's, if already worked out."""
    cam = camera.project(mesh.vertices)
    low, high = cam[:, :2].min(axis=0), cam[:, :2].max(axis=0)
    cx, cy = (low + high) / 2
    px = (cam[:, 0] - cx) * pix + size / 2
    py = size / 2 - (cam[:, 1] - cy) * pix
    return Screen(px, py, cam[:, 2], (mesh.normals() if normals is None else normals) @ camera.matrix.T)


def _zbuffer(mesh: Mesh, seen: Screen, pix: float, window: tuple[int, int, int, int], shifted: bool = False,
             painter: np.ndarray | None = None) -> np.ndarray:
    """Face index per pixel (-1 for background; with ``shifted``, one more as uint8, 0 for background) of
    ``mesh`` as ``seen`` at ``pix`` pixels per world unit, over the pixel rows ``window[0]:window[1]`` and
    columns ``window[2]:window[3]`` (which must hold every pixel a face may cover: the faces are clipped to it).

    Faces are filled one by one through a depth test (a face wins a pixel only if it is strictly nearer), each
    over its pixel box: a pixel is covered when its centre lies between the row's least and greatest crossing of
    the face's edges (float32), and its depth is the face's plane evaluated in float32 at the centre.  The rows'
    crossings and depths of all faces are worked out at once (``_face_rows``), leaving the face loop the few
    whole-window steps; ``_zbuffer_by_face`` is the same fill worked out face by face.

    ``painter`` (a depth per face, larger nearer) paints the faces far to near instead, each over what is
    there, without depths, all faces at once (``_painted``): for meshes whose ``centres`` allow it
    (``Mesh.centres``)."""
    r0, r1, c0, c1 = window
    px, py, depth, ncam = seen
    ids = np.full((r1 - r0, c1 - c0), 0 if shifted else -1, dtype=np.uint8 if shifted else np.int32)
    front = np.flatnonzero(ncam[:, 2] >= 1e-4)  # back faces and faces seen edge-on are skipped
    if not len(front):
        return ids
    if painter is not None:
        front = front[np.argsort(painter[front], kind="stable")]
    labels = (front + 1) if shifted else front
    if mesh._table is not None:
        corners = mesh._table[front]
    else:
        chosen = [mesh.faces[k] for k in front.tolist()]
        most = max(len(f) for f in chosen)
        corners = np.stack([f if len(f) == most else np.r_[f, np.repeat(f[-1:], most - len(f))] for f in chosen])
    fx, fy = px[corners], py[corners]
    bx0 = np.maximum(np.floor(fx.min(axis=1)), c0).astype(np.int64)
    bx1 = np.minimum(np.ceil(fx.max(axis=1)), c1).astype(np.int64)
    by0 = np.maximum(np.floor(fy.min(axis=1)), r0).astype(np.int64)
    by1 = np.minimum(np.ceil(fy.max(axis=1)), r1).astype(np.int64)
    height = np.where((bx0 < bx1) & (by0 < by1), by1 - by0, 0)
    owner = np.repeat(np.arange(len(front)), height)
    starts = np.cumsum(height) - height
    rows = by0[owner] + np.arange(len(owner)) - np.repeat(starts, height) + 0.5
    left, right = _face_spans(fx, fy, owner, rows)
    if painter is not None:
        return _painted(ids, labels, owner, (rows - 0.5).astype(np.int64) - r0, left, right, bx0[owner], bx1[owner],
                        c0)
    # the depth plane n.(p - p0) = 0 in camera space, written in pixel coordinates
    zbuf = np.full((r1 - r0, c1 - c0), -np.inf, dtype=np.float32)
    n = ncam[front]
    a = -n[:, 0] / (n[:, 2] * pix)
    b = n[:, 1] / (n[:, 2] * pix)
    d0 = depth[corners[:, 0]] - a * fx[:, 0] - b * fy[:, 0]
    row_depth = (b[owner] * rows + d0[owner]).astype(np.float32)[:, None]
    left, right = left[:, None], right[:, None]
    a32 = a.astype(np.float32)
    xs = np.arange(c0 + 0.5, c1, dtype=np.float32)
    for j in np.flatnonzero(height).tolist():
        s, e = int(starts[j]), int(starts[j] + height[j])
        x0, x1, y0, y1 = int(bx0[j]) - c0, int(bx1[j]) - c0, int(by0[j]) - r0, int(by1[j]) - r0
        cols = xs[x0:x1]
        z = a32[j] * cols + row_depth[s:e]
        window_z = zbuf[y0:y1, x0:x1]
        win = cols >= left[s:e]
        win &= cols <= right[s:e]
        win &= z > window_z
        np.copyto(window_z, z, where=win)
        np.copyto(ids[y0:y1, x0:x1], int(labels[j]), where=win)
    return ids


def _painted(ids: np.ndarray, labels: np.ndarray, owner: np.ndarray, row: np.ndarray, left: np.ndarray,
             right: np.ndarray, lo: np.ndarray, hi: np.ndarray, c0: int) -> np.ndarray:
    """``_zbuffer``'s painting far to near, all faces at once: the window's map (``ids``: its shape, type and
    background) with every face's covered pixels given its label, a face painted later over an earlier one.
    Each entry is one pixel row of a face (``owner``, the faces in painting order; ``row`` in the window) whose
    pixel centres from ``left`` to ``right`` (float32) within the face's box columns ``lo`` .. ``hi`` (panel
    columns, end excluded; the window starts at column ``c0``) it covers: one run of columns, since a pixel centre
    ``c + 0.5`` (exact in float32) lies in [left, right] iff ``c`` lies in [ceil(left - 0.5), floor(right - 0.5)]
    (exact in float64).  The window's pixels, read row after row, are cut where runs start and end into stretches
    that the same runs cover; each stretch goes to the last face painted among the runs over it (none: the
    background), and the stretches are laid out in one go."""
    height, width = ids.shape
    first = np.maximum(np.ceil(left.astype(float) - 0.5), lo)
    last = np.minimum(np.floor(right.astype(float) - 0.5), hi - 1)
    full = first <= last  # False for rows the face does not cross (inf bounds)
    if not full.any():
        return ids
    at = row[full] * width - c0  # columns are the panel's, the window's start at c0
    starts = at + first[full].astype(np.int64)
    ends = at + last[full].astype(np.int64) + 1
    owner = owner[full]
    places = np.sort(np.concatenate([[0, height * width], starts, ends]))
    places = places[np.concatenate([[True], places[1:] != places[:-1]])]
    a, b = np.searchsorted(places, starts), np.searchsorted(places, ends)  # runs cover stretches a .. b - 1
    spans = b - a
    stretch = np.repeat(a - np.cumsum(spans) + spans, spans) + np.arange(int(spans.sum()))
    last_face = np.full(len(places) - 1, -1, dtype=np.int64)
    np.maximum.at(last_face, stretch, np.repeat(owner, spans))
    values = np.concatenate([[ids.flat[0]], labels]).astype(ids.dtype)
    painted = np.repeat(values[last_face + 1], np.diff(places))
    return painted.reshape(height, width)


def _zbuffer_by_face(mesh: Mesh, seen: Screen, pix: float, window: tuple[int, int, int, int]) -> np.ndarray:
    """``_zbuffer`` worked out face by face (each face's row crossings and depths on their own): the reference
    the fast fill is held to."""
    r0, r1, c0, c1 = window
    px, py, depth, ncam = seen
    zbuf = np.full((r1 - r0, c1 - c0), -np.inf, dtype=np.float32)
    ids = np.full((r1 - r0, c1 - c0), -1, dtype=np.int32)
    for k in np.flatnonzero(ncam[:, 2] >= 1e-4).tolist():  # back faces and faces seen edge-on are skipped
        face = mesh.faces[k]
        fx, fy = px[face], py[face]
        bx0, bx1 = max(math.floor(fx.min()), c0), min(math.ceil(fx.max()), c1)
        by0, by1 = max(math.floor(fy.min()), r0), min(math.ceil(fy.max()), r1)
        if bx0 >= bx1 or by0 >= by1:
            continue
        xs = np.arange(bx0 + 0.5, bx1, dtype=np.float32)
        rows = np.arange(by0 + 0.5, by1)
        # a convex face covers one span per pixel row: intersect the row with every edge that spans it
        nxt = _next_index(len(face))
        gx, gy = fx[nxt], fy[nxt]
        dy = gy - fy
        slanted = np.abs(dy) > 1e-12
        slope = (gx - fx) / np.where(slanted, dy, 1.0)
        cross = fx[:, None] + (rows - fy[:, None]) * slope[:, None]
        spans = (rows >= np.minimum(fy, gy)[:, None]) & (rows <= np.maximum(fy, gy)[:, None])
        spans &= slanted[:, None]
        left = np.where(spans, cross, np.inf).min(axis=0).astype(np.float32)[:, None]
        right = np.where(spans, cross, -np.inf).max(axis=0).astype(np.float32)[:, None]
        # depth plane n.(p - p0) = 0 in camera space, written in pixel coordinates
        nt = ncam[k, 2]
        a = -ncam[k, 0] / (nt * pix)
        b = ncam[k, 1] / (nt * pix)
        d0 = depth[face[0]] - a * fx[0] - b * fy[0]
        z = np.float32(a) * xs + (b * rows + d0).astype(np.float32)[:, None]
        window_z = zbuf[by0 - r0:by1 - r0, bx0 - c0:bx1 - c0]
        win = (xs >= left) & (xs <= right) & (z > window_z)
        np.copyto(window_z, z, where=win)
        np.copyto(ids[by0 - r0:by1 - r0, bx0 - c0:bx1 - c0], k, where=win)
    return ids


def _face_spans(fx: np.ndarray, fy: np.ndarray, owner: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_face_rows`` of the rows (centres ``rows``) of faces ``owner`` (corners ``fx``, ``fy``: faces x corners),
    with each edge's slope and row range worked out once per face and the crossings edge by edge: the same
    arithmetic, element by element."""
    gx, gy = np.roll(fx, -1, axis=1), np.roll(fy, -1, axis=1)
    dy = gy - fy
    slanted = np.abs(dy) > 1e-12  # a padded corner's zero-length edge never spans a row
    slope = (gx - fx) / np.where(slanted, dy, 1.0)
    low, high = np.minimum(fy, gy), np.maximum(fy, gy)
    # edge by edge, each face's values of that edge looked up for its rows (a gather from one contiguous row)
    fx, fy, slope, low, high = (np.ascontiguousarray(a.T) for a in (fx, fy, slope, low, high))
    slanted = np.ascontiguousarray(slanted.T)
    left = np.full(len(rows), np.inf)
    right = np.full(len(rows), -np.inf)
    for k in range(fx.shape[0]):
        cross = fx[k].take(owner) + (rows - fy[k].take(owner)) * slope[k].take(owner)
        spans = (rows >= low[k].take(owner)) & (rows <= high[k].take(owner)) & slanted[k].take(owner)
        np.minimum(left, np.where(spans, cross, np.inf), out=left)
        np.maximum(right, np.where(spans, cross, -np.inf), out=right)
    return left.astype(np.float32), right.astype(np.float32)


def _face_rows(fx: np.ndarray, fy: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where pixel rows (centres ``rows``, one per row entry, each entry's face corners in ``fx``/``fy``: rows x
    corners, short faces padded by repeating their last corner) cross their convex face: the least and the
    greatest crossing of the row with every edge that spans it (+inf and -inf where none does), as float32."""
    gx, gy = np.roll(fx, -1, axis=1), np.roll(fy, -1, axis=1)
    dy = gy - fy
    slanted = np.abs(dy) > 1e-12  # a padded corner's zero-length edge never spans a row
    slope = (gx - fx) / np.where(slanted, dy, 1.0)
    cross = fx + (rows[:, None] - fy) * slope
    spans = (rows[:, None] >= np.minimum(fy, gy)) & (rows[:, None] <= np.maximum(fy, gy)) & slanted
    left = np.where(spans, cross, np.inf).min(axis=1).astype(np.float32)
    right = np.where(spans, cross, -np.inf).max(axis=1).astype(np.float32)
    return left, right


def _zbuffer_at_once(mesh: Mesh, size: int, pix: float, camera: Camera) -> np.ndarray:
    """Face index per pixel (-1 for background) of ``mesh`` drawn centred in a ``size``-pixel square at ``pix``
    pixels per world unit: what ``_zbuffer`` fills over the whole square, to the pixel, with all faces filled at
    once.  Faster on small panels, where ``_zbuffer``'s cost is its steps per face; slower on large ones, where
    it is the pixels (every overlap is paid for).

    Back faces and faces seen edge-on are skipped.  A face covers the pixels of its box whose centre lies
    between the row's first and last crossing of its edges (in float32); its depth plane is evaluated in
    float32 over pixel centres, and where faces overlap the nearest wins, the first in face order on a tie
    (a z-buffer filled face by face with a strict depth test).  Every (face, covered pixel) pair is one array
    element."""
    px, py, depth, ncam = _screen(mesh, size, pix, camera)
    ids = np.full((size, size), -1, dtype=np.int32)
    front = np.flatnonzero(ncam[:, 2] >= 1e-4)
    if not len(front):
        return ids
    chosen = [mesh.faces[k] for k in front.tolist()]
    most = max(len(f) for f in chosen)
    corners = np.stack([f if len(f) == most else np.r_[f, np.repeat(f[-1:], most - len(f))] for f in chosen])
    fx, fy = px[corners], py[corners]
    bx0 = np.maximum(np.floor(fx.min(axis=1)), 0).astype(np.int64)
    bx1 = np.minimum(np.ceil(fx.max(axis=1)), size).astype(np.int64)
    by0 = np.maximum(np.floor(fy.min(axis=1)), 0).astype(np.int64)
    by1 = np.minimum(np.ceil(fy.max(axis=1)), size).astype(np.int64)
    height = np.where((bx0 < bx1) & (by0 < by1), by1 - by0, 0)
    # one entry per pixel row of every face's box (face by face, top to bottom)
    owner = np.repeat(np.arange(len(front)), height)
    row = by0[owner] + np.arange(len(owner)) - np.repeat(np.cumsum(height) - height, height)
    left, right = _face_rows(fx[owner], fy[owner], row + 0.5)
    # pixel centre c + 0.5 (exact in float32) lies in [left, right] iff c lies in [ceil(left - 0.5), floor(right - 0.5)]
    first = np.maximum(np.ceil(left.astype(float) - 0.5), bx0[owner])
    last = np.minimum(np.floor(right.astype(float) - 0.5), bx1[owner] - 1)
    counts = np.where(np.isfinite(first) & np.isfinite(last), np.maximum(last - first + 1, 0), 0).astype(np.int64)
    first = np.where(counts > 0, first, 0).astype(np.int64)
    # the depth plane n.(p - p0) = 0 in camera space, written in pixel coordinates (float32, as a z-buffer keeps it)
    n = ncam[front]
    a = -n[:, 0] / (n[:, 2] * pix)
    b = n[:, 1] / (n[:, 2] * pix)
    d0 = depth[corners[:, 0]] - a * fx[:, 0] - b * fy[:, 0]
    row_depth = (b[owner] * (row + 0.5) + d0[owner]).astype(np.float32)
    entry = np.repeat(np.arange(len(owner)), counts)
    col = np.repeat(first, counts) + np.arange(len(entry)) - np.repeat(np.cumsum(counts) - counts, counts)
    face = owner[entry]
    z = a.astype(np.float32)[face] * (col + 0.5).astype(np.float32) + row_depth[entry]
    pixel = row[entry] * size + col
    nearest = np.full(size * size, -np.inf, dtype=np.float32)
    np.maximum.at(nearest, pixel, z)
    won = z == nearest[pixel]
    winner = np.full(size * size, len(front), dtype=np.int64)
    np.minimum.at(winner, pixel[won], face[won])
    covered = np.flatnonzero(winner < len(front))
    ids.reshape(-1)[covered] = front[winner[covered]]
    return ids


def visible_pixels(mesh: Mesh, side: int, scale: float, camera: Camera = CAMERA) -> np.ndarray:
    """Visible pixels per face with ``mesh`` drawn (without supersampling) at ``scale`` pixels per unit (a small
    panel: ``_zbuffer_at_once``)."""
    ids = _zbuffer_at_once(mesh, side, scale, camera)
    return np.bincount(ids.ravel() + 1, minlength=len(mesh.faces) + 1)[1:]


def render(mesh: Mesh, side: int, scale: float, supersample: int = SUPERSAMPLE, edge_px: float | None = None,
           camera: Camera = CAMERA, light: np.ndarray = LIGHT) -> Render:
    """Draw ``mesh`` centred (by its projected bounding box) in a ``side`` x ``side`` panel at ``scale``
    output pixels per world unit.

    Back faces are culled, the rest filled through a z-buffer at ``supersample`` times the resolution; each
    face is shaded by Lambert's law; outlines (``edge_px`` output pixels wide, default about 1% of the side but
    never under 2) are drawn where the visible outline group changes, i.e. around visible faces only.

    Each output pixel is the box filter of one block of supersampled pixels (``_box_steps``), drawn as a
    palette index: a panel shows its faces' colours, the outline colour and each face's few blends with the
    outline (one per share of the block the outline may cover), which leaves room for the whole item to be a
    palette image, several times faster to write than an RGB one.  Faces of one outline group that meet inside a
    block (the facets of a round surface) give it the colour of one of them, not their mean.
    """
    ss = supersample
    size = side * ss
    normals = mesh.normals()
    seen = _screen(mesh, size, scale * ss, camera, normals)
    px, py = seen.px, seen.py
    shade = AMBIENT + (1 - AMBIENT) * (1 + normals @ light) / 2
    colours = np.clip(mesh.colours * shade[:, None], 0, 255)

    # colour and outline only the region the object covers (plus room for the outline), on whole blocks of
    # ``ss`` x ``ss`` pixels, so that it shrinks to its own part of the panel; the rest is background
    width = edge_width(side) if edge_px is None else edge_px
    radius = max(1, round((width * ss - 1) / 2))
    r0 = max(int(py.min()) - radius - 2, 0) // ss * ss
    r1 = min(-(-(math.ceil(py.max()) + radius + 2) // ss) * ss, size)
    c0 = max(int(px.min()) - radius - 2, 0) // ss * ss
    c1 = min(-(-(math.ceil(px.max()) + radius + 2) // ss) * ss, size)
    faces = len(mesh.faces)
    if (faces + 1) * ss * ss + 1 > 256:
        raise ValueError(f"render draws at most {255 // (ss * ss) - 1} faces at {ss}x supersampling, got {faces}")
    painter = None if mesh.centres is None else mesh.centres @ camera.toward
    index = _zbuffer(mesh, seen, scale * ss, (r0, r1, c0, c1), shifted=True, painter=painter)  # 0 the background
    lookup = np.concatenate([[-1], mesh.groups]).astype(np.int32)
    # faces of distinct groups (background apart): neighbours differ in group where they differ in face
    distinct = len(set(lookup.tolist())) == len(lookup)
    groups = index if distinct else np.take(lookup, index)
    boundary = np.zeros(index.shape, dtype=bool)
    boundary[:, :-1] |= groups[:, :-1] != groups[:, 1:]
    boundary[:-1, :] |= groups[:-1, :] != groups[1:, :]
    boundary = _grown(boundary, radius)
    # the palette: for n = 0, 1, ... ss * ss - 1 pixels of a block on the outline, the background and the faces
    # blended with n parts of the outline colour (as Pillow's box filter rounds them), then the outline colour
    solid = np.vstack([np.asarray(BACKGROUND, dtype=float), colours]).round().astype(np.int64)
    edge = np.asarray(EDGE, dtype=np.int64)
    count = ss * ss
    palette = np.vstack([(solid * (count - n) + edge * n + count // 2) // count for n in range(count)]
                        + [edge[None]]).astype(np.uint8)
    part = _box_steps(index, boundary, ss, faces + 1)
    canvas = np.zeros((side, side), dtype=np.uint8)
    canvas[r0 // ss:r1 // ss, c0 // ss:c1 // ss] = part
    drawn = Image.frombuffer("P", (side, side), canvas.tobytes(), "raw", "P", 0, 1)
    drawn.putpalette(palette.tobytes())
    # the palette entries the panel shows, and the box (left, top, right, bottom) outside which it is all
    # background, for ``compose`` (which counts them itself where that box reaches the panel's frame)
    # (a histogram of the indices, all below len(palette): their bincount, faster)
    indices = Image.frombuffer("L", part.shape[::-1], part.tobytes(), "raw", "L", 0, 1)
    counts = np.array(indices.histogram()[:len(palette)], dtype=np.int64)
    shows = counts > 0
    shows[0] = True
    drawn.info[_SHOWN_KEY] = (np.flatnonzero(shows), (c0 // ss, r0 // ss, c1 // ss, r1 // ss),
                              counts, part)
    return Render(drawn, index, faces)


#: ``Image.info`` key under which ``render`` leaves, on the panels it draws, the palette entries they show.
_SHOWN_KEY = "bench_mindseye_shown"


def _box_steps(index: np.ndarray, outline: np.ndarray, ss: int, solid: int) -> np.ndarray:
    """Blocks of ``ss`` x ``ss`` pixels of the face map ``index`` (uint8: 0 the background, 1.. the faces, fewer
    than ``solid``) under the outline mask, reduced to one palette index each (``render``'s palette): with n of
    its pixels on the outline, ``n * solid`` plus the least index of its pixels off it, or ``solid * ss * ss``
    (the outline colour) when all are."""
    if ss == 1:
        return np.where(outline, np.uint8(solid), index)
    lines = outline.view(np.uint8)
    off = lines * np.uint8(255)  # outline pixels never the least
    off |= index
    # the rows of each block first (whole rows at a time), then its columns
    least, lined = np.minimum(off[0::ss], off[1::ss]), lines[0::ss] + lines[1::ss]
    for i in range(2, ss):
        np.minimum(least, off[i::ss], out=least)
        lined += lines[i::ss]
    first, inked = np.minimum(least[:, 0::ss], least[:, 1::ss]), lined[:, 0::ss] + lined[:, 1::ss]
    for j in range(2, ss):
        np.minimum(first, least[:, j::ss], out=first)
        inked += lined[:, j::ss]
    count = ss * ss
    out = inked * np.uint8(solid)  # below 256: the palette holds (solid * count + 1) entries at most
    out += first  # wraps only where every pixel is outline (first is then 255), set next
    out[inked == count] = solid * count
    return out


def _grown(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` grown by ``radius`` pixels with a square structuring element, as ``_dilate`` grows it in place,
    into new arrays (one per axis) instead of copying back."""
    across = mask.copy()
    for r in range(1, radius + 1):
        across[:, r:] |= mask[:, :-r]
        across[:, :-r] |= mask[:, r:]
    grown = across.copy()
    for r in range(1, radius + 1):
        grown[r:, :] |= across[:-r, :]
        grown[:-r, :] |= across[r:, :]
    return grown


def _dilate(mask: np.ndarray, radius: int) -> None:
    """Grow ``mask`` in place by ``radius`` pixels with a square structuring element (separable shifts)."""
    for axis in (1, 0):
        grown = mask.copy()
        for r in range(1, radius + 1):
            if axis == 1:
                grown[:, r:] |= mask[:, :-r]
                grown[:, :-r] |= mask[:, r:]
            else:
                grown[r:, :] |= mask[:-r, :]
                grown[:-r, :] |= mask[r:, :]
        mask[...] = grown


# -- the nuisance audit on palette panels ------------------------------------------------------------------
def panel_features(tile: Image.Image) -> dict[str, float]:
    """``nuisance.option_features`` of a panel, read through its palette when it has one: ink, ink extent and
    saturation are sums over pixels of functions of each pixel's colour, so they are worked out once per
    palette entry and counted, and the ink's box is the box of the entries that are ink (the same numbers as
    on the RGB pixels)."""
    if tile.mode != "P":
        return nuisance.option_features(tile)
    palette = np.frombuffer(bytes(tile.getpalette()), dtype=np.uint8).reshape(-1, 3).astype(np.int64)
    f = nuisance.FRAME
    pixels = (tile.width - 2 * f) * (tile.height - 2 * f)
    darkest, brightest = palette.min(axis=1), palette.max(axis=1)
    inked = darkest < 255 - nuisance.INK_THRESHOLD
    shown = tile.info.get(_SHOWN_KEY)
    if (shown is not None and f <= shown[1][0] and f <= shown[1][1] and shown[1][2] <= tile.width - f
            and shown[1][3] <= tile.height - f and not inked[0]):
        # ``render``'s own counts over the part of the panel it drew (background, index 0, all around it)
        counts, part = shown[2][:len(palette)].astype(np.int64), shown[3]  # the box only sizes the ink
        counts[0] += pixels - part.size
        ink = np.take(inked, part)
        rows = np.flatnonzero(ink.any(axis=1))
        if rows.size:
            cols = np.flatnonzero(ink.any(axis=0))
            box = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
        else:
            box = None
    else:
        inner = tile.crop((f, f, tile.width - f, tile.height - f))
        counts = np.array(inner.histogram()[:len(palette)], dtype=np.int64)
        table = [255 if k < len(inked) and inked[k] else 0 for k in range(256)]
        box = inner.point(table).getbbox()
    area = 0.0 if box is None else int((box[2] - box[0]) * (box[3] - box[1])) / pixels
    saturation = int((counts * (brightest - darkest)).sum()) / pixels / 255.0
    return {"ink": int(counts[inked].sum()) / pixels, "extent": float(area), "saturation": float(saturation)}


def panels_clean(tiles: Sequence[Image.Image], factor: float, floors: dict[str, float], min_difference: float,
                 features: Sequence[Mapping[str, float]] | None = None) -> bool:
    """``nuisance.nuisance_clean`` of exchangeable option panels (no answer singled out: any panel), with the
    features read through the panels' palettes (``panel_features``; ``features``, those of ``tiles`` if the
    caller has measured them already) and the look-alike test on whole grey levels
    (``nuisance.lookalike_pair``'s mean absolute difference, summed exactly)."""
    if features is None or len(features) != len(tiles):
        features = [panel_features(t) for t in tiles]
    for name, floor in floors.items():
        values = [f[name] for f in features]
        if any(nuisance.singled_out(values, k, factor, floor) for k in range(len(tiles))):
            return False
    drawn = [_drawn_grey(t) for t in tiles]
    if any(d is None for d in drawn) or len({t.size for t in tiles}) != 1:
        grey = [np.asarray(t.convert("L"), dtype=np.int16) for t in tiles]
        for i in range(len(grey)):
            for j in range(i + 1, len(grey)):
                if int(np.abs(grey[i] - grey[j]).sum(dtype=np.int64)) < min_difference * grey[i].size:
                    return False
        return True
    size = tiles[0].width * tiles[0].height
    for i in range(len(drawn)):
        for j in range(i + 1, len(drawn)):
            (bi, gi, pi), (bj, gj, pj) = drawn[i], drawn[j]
            # both panels are background outside their drawn boxes: compare over the box holding both
            x0, y0 = min(bi[0], bj[0]), min(bi[1], bj[1])
            x1, y1 = max(bi[2], bj[2]), max(bi[3], bj[3])
            a = np.full((y1 - y0, x1 - x0), gi, dtype=np.int16)
            a[bi[1] - y0:bi[3] - y0, bi[0] - x0:bi[2] - x0] = pi
            b = np.full((y1 - y0, x1 - x0), gj, dtype=np.int16)
            b[bj[1] - y0:bj[3] - y0, bj[0] - x0:bj[2] - x0] = pj
            if int(np.abs(a - b).sum(dtype=np.int64)) < min_difference * size:
                return False
    return True


def _drawn_grey(tile: Image.Image) -> tuple[tuple[int, int, int, int], int, np.ndarray] | None:
    """For a panel ``render`` drew: the box of its drawn part, the grey level (as Pillow converts to "L") of the
    background around it and the grey levels over the box (int16); None for other panels."""
    shown = tile.info.get(_SHOWN_KEY) if tile.mode == "P" else None
    if shown is None:
        return None
    entries = len(tile.getpalette()) // 3
    strip = Image.new("P", (entries, 1))
    strip.putpalette(tile.getpalette())
    strip.putdata(range(entries))
    levels = np.asarray(strip.convert("L"), dtype=np.int16).ravel()
    return shown[1], int(levels[0]), np.take(levels, shown[3])


# -- the item's picture as a palette image ----------------------------------------------------------------
#: Grey levels the captions are drawn in: evenly spaced from the ink to white (and the frame's grey kept).
#: Pillow anti-aliases text in every level between ink and paper, over 200 greys, which alone would leave a
#: palette PNG no room for the panels' colours; 16 levels read the same.
CAPTION_LEVELS = 16
LAYOUT_INK, LAYOUT_FRAME = LAYOUT_INK_RGB[0], LAYOUT_FRAME_RGB[0]


@functools.cache
def _caption_table() -> list[int]:
    """The grey level every level 0-255 of the captions' plane is drawn in (``CAPTION_LEVELS``)."""
    ink, paper = LAYOUT_INK, 255
    levels = sorted({round(ink + k * (paper - ink) / (CAPTION_LEVELS - 1)) for k in range(CAPTION_LEVELS)}
                    | {LAYOUT_FRAME})
    return [min(levels, key=lambda level: (abs(level - v), level)) for v in range(256)]


class _Plane(NamedTuple):
    """What a layout draws around its panels, the same for every item of a task and canvas: the canvas as grey
    levels with blank panels (``grey``, mode "L", captions in ``CAPTION_LEVELS``), the levels it shows, and per
    panel box (query boxes, then option boxes): which panel ``layout.compose`` puts there (its place among the
    query panels and then the options), the box of that panel's pixels left uncovered (left, top, right,
    bottom, in panel coordinates) and the box's top-left corner on the canvas."""

    grey: Image.Image
    levels: np.ndarray
    shown: list[int]
    inner: list[tuple[int, int, int, int]]
    corners: list[tuple[int, int]]
    #: the level of the canvas's margin, most of it, and where (flat) and in which level it shows another
    common: int
    marks: np.ndarray
    marked: np.ndarray


_PLANES: dict[tuple, _Plane] = {}
#: Marker panels (``_plane``): panel k is filled with (k + 1, 0, _MARK), a colour no layout draws.
_MARK = 201


def _plane(layout, captions: tuple[str, ...], labels: tuple[str, ...]) -> _Plane:
    """The layout's canvas around blank panels and where its ``compose`` puts each panel (``_Plane``), found by
    composing blank panels and then panels each filled with a colour of its own; worked out once per layout, its
    ``compose`` and the captions."""
    key = (layout, type(layout).compose, captions, labels)
    if key not in _PLANES:
        side, queries = layout.tile, layout.query_count
        marks = [Image.new("RGB", (side, side), (k + 1, 0, _MARK)) for k in range(queries + layout.option_count)]
        marked, boxes = layout.compose(marks[:queries], marks[queries:], list(captions), list(labels))
        red, green, blue = marked.split()
        shown, inner, corners = [], [], []
        for box in [*boxes["query"], *boxes["options"]]:
            left, top = int(box[0]), int(box[1])
            crop = (left, top, left + side, top + side)
            part = np.stack([np.asarray(band.crop(crop)) for band in (red, green, blue)], axis=2)
            mask = (part[..., 1] == 0) & (part[..., 2] == _MARK)
            panels = np.unique(part[..., 0][mask])
            rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
            if len(panels) != 1 or not len(rows):
                raise ValueError("a panel box does not show exactly one panel")
            r0, r1, q0, q1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
            if mask.sum() != (r1 - r0) * (q1 - q0):
                raise ValueError("a panel's uncovered pixels are not one rectangle")
            shown.append(int(panels[0]) - 1)
            inner.append((q0, r0, q1, r1))
            corners.append((left, top))
        # blank the panels (background), then everything the layout drew must be grey
        blank = Image.new("L", (side, side), BACKGROUND[0])
        for (q0, r0, q1, r1), (left, top) in zip(inner, corners, strict=True):
            for band in (red, green, blue):
                band.paste(blank.crop((0, 0, q1 - q0, r1 - r0)), (left + q0, top + r0))
        if len(set(BACKGROUND)) != 1 or ImageChops.difference(red, green).getbbox() is not None \
                or ImageChops.difference(green, blue).getbbox() is not None:
            raise ValueError("the layout draws colours: the caption plane must be grey")
        grey = green.point(list(_caption_table()))
        levels = np.flatnonzero(grey.histogram())
        flat = np.asarray(grey).ravel()
        common = int(flat[0])  # the margin's level: any level would do, this one leaves few marks
        marks = np.flatnonzero(flat != common)
        _PLANES[key] = _Plane(grey, levels, shown, inner, corners, common, marks, flat[marks])
    return _PLANES[key]


def _indexed(panel: Image.Image) -> tuple[np.ndarray, np.ndarray] | None:
    """A panel's pixels as (palette indices, uint8 h x w; palette, n x 3 uint8), or None for more than 256
    colours."""
    if panel.mode == "P":
        palette = np.frombuffer(bytes(panel.getpalette()), dtype=np.uint8).reshape(-1, 3)
        return np.asarray(panel), palette
    found = palette_indices(panel if panel.mode == "RGB" else panel.convert("RGB"))  # read only: no copy
    if found is None:
        return None
    colours, indices = found
    return indices, np.asarray(colours, dtype=np.uint8).reshape(-1, 3)


def render_item(task: Any, problem: Any) -> list[Image.Image]:
    """A solid task's ``render``: the panels ``task`` draws (``draw_query``, ``draw_option``) placed by its layout as
    the base class places them, composed as a palette image (``compose``)."""
    stimulus, shown = problem.structure
    layout = task.layout(problem.params["size"])
    side = layout.tile
    query = [task.draw_query(content, side) for content in stimulus.query]
    options = [task.draw_option(o.content, side) for o in shown]
    return [compose(layout, query, options, stimulus.query_captions, option_letters(task.option_count))]


def compose(layout, query: Sequence[Image.Image], options: Sequence[Image.Image], captions: Sequence[str],
            labels: Sequence[str]) -> Image.Image:
    """The item's picture: the panels (palette or RGB images) placed by ``layout`` as ``layout.compose`` places
    them, with its frames and captions, the captions in ``CAPTION_LEVELS`` grey levels.  It is the palette
    image the core writes for that RGB picture (``bench_core.images.palette_image``: its colours in ascending
    (r, g, b) order, each pixel the index of its exact colour), composed from the panels' palette indices
    without building the RGB picture; the RGB picture itself where it shows more than 256 colours."""
    plane = _plane(layout, tuple(captions), tuple(labels))
    given = [*query, *options]
    panels = [given[k] for k in plane.shown]  # box by box
    crops, found = [], []
    for panel, (q0, r0, q1, r1) in zip(panels, plane.inner, strict=True):
        if panel.mode == "P":  # its indices and palette as they are
            piece = panel.crop((q0, r0, q1, r1))
            palette = np.frombuffer(bytes(panel.getpalette()), dtype=np.uint8).reshape(-1, 3)
            shown = panel.info.get(_SHOWN_KEY)
            if shown is not None and q0 < shown[1][0] and r0 < shown[1][1] and shown[1][2] < q1 and shown[1][3] < r1:
                used = shown[0]  # the drawing lies inside the crop, with background around it
            else:
                used = np.flatnonzero(piece.histogram()[:len(palette)])
            crop = Image.frombuffer("L", piece.size, piece.tobytes(), "raw", "L", 0, 1)
        else:
            read = _indexed(panel)
            if read is None:
                return _compose_rgb(plane, panels)
            indices, palette = read
            part = np.ascontiguousarray(indices[r0:r1, q0:q1])
            crop = Image.frombuffer("L", part.shape[::-1], part.tobytes(), "raw", "L", 0, 1)
            used = np.flatnonzero(crop.histogram()[:len(palette)])
        crops.append((crop, colour_keys(palette)))
        found.append(colour_keys(palette[used]))
    grey_keys = plane.levels.astype(np.uint32) * np.uint32(0x010101)
    keys = np.unique(np.concatenate([grey_keys, *found]))
    if len(keys) > 256:
        return _compose_rgb(plane, panels)
    table = np.zeros(256, dtype=np.uint8)
    table[plane.levels] = np.searchsorted(keys, grey_keys)
    # the plane's levels turned into palette indices (``plane.grey.point(table)``, written where it is not the
    # common level only)
    mapped = np.full(plane.grey.width * plane.grey.height, table[plane.common], dtype=np.uint8)
    mapped[plane.marks] = table[plane.marked]
    canvas = Image.frombytes("L", plane.grey.size, mapped.tobytes())
    for (crop, local), (q0, r0, _, _), (left, top) in zip(crops, plane.inner, plane.corners, strict=True):
        mapped = np.minimum(np.searchsorted(keys, local), len(keys) - 1)  # entries the panel does not show: any
        table = np.zeros(256, dtype=np.int64)
        table[:len(mapped)] = mapped
        canvas.paste(crop.point(table.tolist()), (left + q0, top + r0))
    rgb = np.stack([keys >> 16, (keys >> 8) & 0xFF, keys & 0xFF], axis=1).astype(np.uint8)
    canvas.putpalette(rgb.tobytes())  # the grey plane of indices becomes the palette image, without a copy
    return canvas


def _compose_rgb(plane: _Plane, panels: Sequence[Image.Image]) -> Image.Image:
    """``compose`` as an RGB picture."""
    canvas = plane.grey.convert("RGB")
    for panel, (q0, r0, q1, r1), (left, top) in zip(panels, plane.inner, plane.corners, strict=True):
        canvas.paste(panel.convert("RGB").crop((q0, r0, q1, r1)), (left + q0, top + r0))
    return canvas
