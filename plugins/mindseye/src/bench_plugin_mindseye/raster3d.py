"""A small numpy 3D renderer for the two Mind's Eye tasks that show solids: mental rotation (MT, polycubes)
and mental composition (MC, folded nets).

Spec §3.3 / §7.2 ask for: an orthographic view from one fixed camera that shows three faces of a box
(elevation 30°, azimuth -60°, the view of the paper's release), hidden surfaces removed with a z-buffer
(sorting faces by depth fails at oblique 60°/120° poses), Lambert shading with a fixed light plus ambient
so that even white cubes show three distinct tones, outlines on visible faces only, and one scale for every
panel of an item.  Everything is vectorised per face: each convex face is filled over its pixel bounding
box from its per-row spans (where each pixel row crosses the face's edges) and a depth plane, at 2x
supersampling, then box-filtered down.

Also here: the nuisance audit the 3D tasks run on their own panels before committing to a stimulus
(the base class's verify rejects items whose answer panel stands out by ink, extent or saturation).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from PIL import Image

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
                 groups: Sequence[int] | None = None, owners: Sequence[int] | None = None):
        self.vertices = np.asarray(vertices, dtype=float)
        self.faces = [np.asarray(f, dtype=np.int64) for f in faces]
        self.colours = np.asarray(colours, dtype=float).reshape(len(self.faces), 3)
        self.groups = np.arange(len(self.faces)) if groups is None else np.asarray(groups, dtype=np.int64)
        self.owners = np.zeros(len(self.faces), dtype=np.int64) if owners is None else np.asarray(owners)

    def transformed(self, matrix: np.ndarray) -> Mesh:
        """The mesh with every vertex mapped by the proper rotation ``matrix``."""
        return Mesh(self.vertices @ np.asarray(matrix).T, self.faces, self.colours, self.groups, self.owners)

    def normals(self) -> np.ndarray:
        """Outward unit normals, from the first three corners of each face (faces are convex, so these are
        never collinear)."""
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
    mesh = Mesh(vertices, faces, colours[owners], owners=owners)
    return mesh if matrix is None else mesh.transformed(matrix)


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
    """A rendered panel: the image at output size, and the visible supersampled pixel count per face."""

    def __init__(self, image: Image.Image, visible: np.ndarray):
        self.image = image
        self.visible = visible


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


def _zbuffer(mesh: Mesh, seen: Screen, pix: float, window: tuple[int, int, int, int]) -> np.ndarray:
    """Face index per pixel (-1 for background) of ``mesh`` as ``seen`` at ``pix`` pixels per world unit, over the
    pixel rows ``window[0]:window[1]`` and columns ``window[2]:window[3]`` (which must hold every pixel a face
    may cover: the faces are clipped to it)."""
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

    Back faces are culled, the rest filled through a z-buffer; each face is shaded by Lambert's law;
    outlines (``edge_px`` output pixels wide, default about 1% of the side but never under 2) are drawn where
    the visible outline group changes, i.e. around visible faces only.
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
    sub = _zbuffer(mesh, seen, scale * ss, (r0, r1, c0, c1))
    index = sub + 1  # 0 for the background, 1.. the faces
    lookup = np.concatenate([[-1], mesh.groups]).astype(np.int32)
    # faces of distinct groups (background apart): neighbours differ in group where they differ in face
    groups = index if len(np.unique(lookup)) == len(lookup) else np.take(lookup, index)
    boundary = np.zeros(sub.shape, dtype=bool)
    boundary[:, :-1] |= groups[:, :-1] != groups[:, 1:]
    boundary[:-1, :] |= groups[:-1, :] != groups[1:, :]
    _dilate(boundary, radius)
    # a palette image: index 0 is the background, 1.. the faces, the last the outline colour
    palette = np.vstack([np.asarray(BACKGROUND, dtype=float), colours, np.asarray(EDGE, dtype=float)])
    if len(palette) > 256:
        raise ValueError(f"render draws at most 254 faces, got {len(mesh.faces)}")
    part = index.astype(np.uint8)
    counts = Image.fromarray(part).histogram()  # pixels per face (index 0 the background)
    part[boundary] = len(palette) - 1
    drawn = Image.fromarray(part, "P")
    drawn.putpalette(palette.round().astype(np.uint8).tobytes())
    drawn = drawn.convert("RGB")
    if ss > 1:
        drawn = drawn.reduce(ss)
    image = Image.new("RGB", (side, side), BACKGROUND)
    image.paste(drawn, (c0 // ss, r0 // ss))
    visible = np.array(counts[1:len(mesh.faces) + 1], dtype=np.int64)
    return Render(image, visible)


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
