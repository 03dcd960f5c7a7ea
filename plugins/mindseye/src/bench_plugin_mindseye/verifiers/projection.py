"""A crude, independent drawing of flat convex faces for the verifiers of the two tasks that show solids
(mental rotation and mental composition), and the pixel checks built on it.

Nothing here comes from the generator's renderer: the camera basis is rebuilt from the recorded elevation
and azimuth, all faces are filled at once by edge functions at pixel centres (no supersampling), hidden
parts removed by a per-pixel depth test (back-face culling alone for convex solids), shaded by the recorded
light, and outlined where the visible outline group changes.  The result is close enough to the real panel
that

* the silhouette of the panel's pixels must overlap the sketch's (intersection over union), and
* inside every face that shows clearly (away from outlines and antialiasing), the panel's pixels must have
  the face's recorded colour, shaded as recorded,

which ties each panel to its own description: a cube coloured otherwise, a mirrored or rebuilt object, a
net face missing or moved all fail.

The work is kept to what decides: the faces of all panels of a scene are filled together, a sketch keeps
only the box around its object (white beyond), a panel with a palette is read through its palette (each
reading worked out once per colour), and each panel's pixels are read once for all checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import shapely
from PIL import Image, ImageDraw

from bench_plugin_mindseye.verifiers.polygon_fill import fill_canvases, fill_polygons, padded, padded_cycles, rasterise

EDGE = (35, 35, 35)
#: A pixel whose darkest channel is below this is part of a drawn object (white cubes are 250 at most).
OBJECT_LEVEL = 252
#: Least intersection over union of the panel's and the sketch's silhouettes.
MIN_SILHOUETTE_IOU = 0.88
#: Largest channel difference between a face's recorded (shaded) colour and a pixel inside it.
FACE_TOLERANCE = 14
#: Least share of a face's inner pixels that must have its colour, and the inner pixels a face needs to be
#: checked at all (small slivers are left to the silhouette).
FACE_AGREEMENT = 0.85
MIN_FACE_PIXELS = 8
#: The same share for flat shapes (nets): they are filled with no shading, so every inner pixel of a sound
#: panel has its face's colour (none wrong in 46 nets at both canvas sizes), and a face moved off its hinge by
#: a sixth of its side (11 % of its inner pixels wrong on a 291 px tile) must fail.
FLAT_AGREEMENT = 0.97


class Drawing(NamedTuple):
    """A sketch: ``rgb`` (side x side x 3, uint8), ``colours`` (the colour each face must show, float RGB) and
    ``agreement`` (the least share of a face's inner pixels that must show its colour).  Everything but white
    paper lies in the ``box`` (first row, end row, first column, end column; None when nothing is drawn), over
    which ``ids`` gives the face of every pixel (-1 for background), ``inner`` the pixels at least two pixels
    from any outline (where a face's colour can be read exactly) and ``index`` which colour of ``palette``
    each pixel has; the faces themselves lie in the box ``shown``.  Over the box too, ``outline`` marks the
    outline pixels and ``edges`` (when every face is its own outline group, else None) the pixels beside a
    pixel of another face or of the background."""

    rgb: np.ndarray
    ids: np.ndarray
    colours: np.ndarray
    inner: np.ndarray
    agreement: float = FACE_AGREEMENT
    box: tuple[int, int, int, int] | None = None
    index: np.ndarray | None = None
    palette: np.ndarray | None = None
    shown: tuple[int, int, int, int] | None = None
    outline: np.ndarray | None = None
    edges: np.ndarray | None = None
    core: tuple[np.ndarray, np.ndarray] | None = None


def camera_basis(elevation: float, azimuth: float) -> np.ndarray:
    """Rows: screen right, screen up and the direction towards the viewer, for an orthographic camera at
    ``elevation``/``azimuth`` degrees with world z up."""
    el, az = math.radians(elevation), math.radians(azimuth)
    t0, t1, t2 = math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)
    length = math.hypot(-t1, t0)
    r0, r1, r2 = -t1 / length, t0 / length, 0.0 / length  # z x toward
    up = (t1 * r2 - t2 * r1, t2 * r0 - t0 * r2, t0 * r1 - t1 * r0)  # toward x right
    return np.array([[r0, r1, r2], up, [t0, t1, t2]])


def _dilate(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` grown by ``radius`` pixels, one 4-neighbour step at a time."""
    out = mask
    for _ in range(radius):
        grown = out.copy()
        grown[1:] |= out[:-1]
        grown[:-1] |= out[1:]
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def _shown_box(ids: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (first row, end row, first column, end column) of the faces (``ids >= 0``); None if none.  When the
    first and last row and column each hold a face's pixel (as a fill's own box does), that is the whole array."""
    height, width = ids.shape
    if height and width and (ids[0] >= 0).any() and (ids[-1] >= 0).any() and (ids[:, 0] >= 0).any() \
            and (ids[:, -1] >= 0).any():
        return 0, height, 0, width
    shown = ids >= 0
    rows, cols = np.flatnonzero(shown.any(axis=1)), np.flatnonzero(shown.any(axis=0))
    if not len(rows):
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _is_arange(groups: np.ndarray) -> bool:
    """Whether ``groups`` is 0, 1, 2, ... (every face its own outline group)."""
    return groups.ndim == 1 and bool(np.array_equal(groups, np.arange(len(groups))))


def _read(values: np.ndarray, box: tuple[int, int, int, int], region: tuple[int, int, int, int], fill: Any
          ) -> np.ndarray:
    """``values`` given over ``box`` (first row, end row, first column, end column), read over ``region``:
    ``fill`` outside the box (a view where the region lies within it)."""
    r0, r1, c0, c1 = region
    if box[0] <= r0 and r1 <= box[1] and box[2] <= c0 and c1 <= box[3]:
        return values[r0 - box[0]:r1 - box[0], c0 - box[2]:c1 - box[2]]
    out = np.full((max(r1 - r0, 0), max(c1 - c0, 0)), fill, dtype=values.dtype)
    part = _within(box, r0, r1, c0, c1)
    if part is not None:
        out[part[0] - r0:part[1] - r0, part[2] - c0:part[3] - c0] = \
            values[part[0] - box[0]:part[1] - box[0], part[2] - box[2]:part[3] - box[2]]
    return out


def _within(box: tuple[int, int, int, int] | None, r0: int, r1: int, c0: int, c1: int
            ) -> tuple[int, int, int, int] | None:
    """``box`` cut to rows ``r0``..``r1`` and columns ``c0``..``c1`` (ends excluded); None if nothing is left."""
    if box is None:
        return None
    r0, r1, c0, c1 = max(box[0], r0), min(box[1], r1), max(box[2], c0), min(box[3], c1)
    return (r0, r1, c0, c1) if r0 < r1 and c0 < c1 else None


def finish(ids: np.ndarray, groups: np.ndarray, colours: np.ndarray, edge_width: float,
           origin: tuple[int, int] = (0, 0), side: int | None = None) -> Drawing:
    """Colour a face-index map: faces in ``colours``, outlines ``edge_width`` pixels wide in the edge colour
    where the outline group (``groups[face]``; background is its own group) changes.  ``ids`` covers the
    canvas (``side`` x ``side``, by default its own size) from the pixel ``origin`` (row, column) on, and
    background beyond."""
    side = ids.shape[0] if side is None else side
    colours = np.asarray(colours, dtype=float)
    rgb = np.full((side, side, 3), 255, dtype=np.uint8)
    shown = _shown_box(ids)
    if shown is None:
        return Drawing(rgb, np.full((0, 0), -1, dtype=np.int32), colours, np.zeros((0, 0), dtype=bool))
    shown = (shown[0] + origin[0], shown[1] + origin[0], shown[2] + origin[1], shown[3] + origin[1])
    radius = max(0, round((edge_width - 2) / 2))
    margin = radius + 5  # the outline, and four pixels around it
    r0, r1 = max(shown[0] - margin, 0), min(shown[1] + margin, side)
    c0, c1 = max(shown[2] - margin, 0), min(shown[3] + margin, side)
    given = (origin[0], origin[0] + ids.shape[0], origin[1], origin[1] + ids.shape[1])
    window = _read(ids, given, (r0, r1, c0, c1), -1)
    groups = np.asarray(groups, dtype=np.int64)
    own = _is_arange(groups)
    group = window if own else np.concatenate([[-1], groups])[window + 1]
    boundary = np.zeros(window.shape, dtype=bool)
    across = group[:, 1:] != group[:, :-1]
    boundary[:, 1:] |= across
    boundary[:, :-1] |= across
    down = group[1:] != group[:-1]
    boundary[1:] |= down
    boundary[:-1] |= down
    line = _dilate(boundary, radius)
    palette = np.empty((len(colours) + 2, 3), dtype=np.uint8)  # white, the faces' colours, the edge colour
    palette[0], palette[-1] = 255, EDGE
    palette[1:-1] = np.clip(np.rint(colours), 0, 255)  # whole numbers in range: exact as bytes
    if len(palette) <= 256:  # the colours looked up by Pillow, as a palette image turned RGB
        index = window.astype(np.uint8)
        index += np.uint8(1)  # the background's -1 wraps round to 0
        np.copyto(index, np.uint8(len(palette) - 1), where=line)
        lookup = Image.fromarray(index, "L")
        lookup.putpalette(palette.tobytes())
        rgb[r0:r1, c0:c1] = np.asarray(lookup.convert("RGB"))
    else:
        index = window + 1
        index[line] = len(palette) - 1
        rgb[r0:r1, c0:c1] = np.take(palette, index, axis=0)
    inner = (window >= 0) & ~_dilate(line, 2)
    return Drawing(rgb, window, colours, inner, box=(r0, r1, c0, c1), index=index, palette=palette, shown=shown,
                   outline=line, edges=boundary if own else None)


class FaceSet(NamedTuple):
    """One panel's faces turned to the camera, ready to fill and colour (``draw_faces``): their corners in
    pixels (``xs``, ``ys``: faces x corners, short faces padded by repeating a corner), their depth planes
    (None for a convex solid, whose faces never cover one another) and indices among all faces (``labels``),
    and every face's shaded colour, the outline groups, the edge width and the panel's side; ``corners``, the
    vertex of each corner (padded alike), tells which faces share an edge."""

    xs: np.ndarray
    ys: np.ndarray
    plane: np.ndarray | None
    labels: np.ndarray
    shaded: np.ndarray
    groups: np.ndarray
    edge: float
    side: int
    corners: np.ndarray | None = None


def face_set(vertices: np.ndarray, faces: Sequence[Sequence[int]], colours: np.ndarray, groups: Sequence[int],
             view: Mapping[str, Any], side: int, normals: np.ndarray | None = None) -> FaceSet:
    """The faces ``draw_faces`` fills, placed, and what it colours them with."""
    basis = camera_basis(*view["camera"])
    vertices = np.asarray(vertices, dtype=float)
    cam = vertices @ basis.T
    scale = float(view["scale"])
    middle = (cam[:, :2].min(axis=0) + cam[:, :2].max(axis=0)) / 2
    px = (cam[:, 0] - middle[0]) * scale + side / 2
    py = side / 2 - (cam[:, 1] - middle[1]) * scale
    convex = normals is None
    if convex:  # every face's plane has the whole solid on its inner side
        first = vertices[np.array([list(f[:3]) for f in faces])]
        normals = np.cross(first[:, 1] - first[:, 0], first[:, 2] - first[:, 0])
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        normals *= np.where(((first[:, 0] - vertices.mean(axis=0)) * normals).sum(axis=1) < 0, -1.0, 1.0)[:, None]
    normals = np.asarray(normals, dtype=float)
    ambient = float(view["ambient"])
    shade = ambient + (1 - ambient) * (1 + normals @ np.asarray(view["light"], dtype=float)) / 2
    shaded = np.clip(np.asarray(colours, dtype=float) * shade[:, None], 0, 255)
    facing = normals @ basis.T  # camera-space normals
    shown = np.flatnonzero(facing[:, 2] > 1e-4)  # faces turned away or seen edge-on are skipped
    edge, groups = float(view["edge"]), np.asarray(groups)
    if not len(shown):
        return FaceSet(np.zeros((0, 1)), np.zeros((0, 1)), None, shown, shaded, groups, edge, side)
    corners = padded_cycles([faces[k] for k in shown.tolist()])
    plane = None
    if not convex:  # the faces of a convex solid that face the camera never cover one another
        # depth on each face's plane n . (q - q0) = 0 in camera coordinates, written over pixel centres
        n = facing[shown]
        q0 = cam[corners[:, 0]]
        gx, gy = -n[:, 0] / (n[:, 2] * scale), n[:, 1] / (n[:, 2] * scale)
        offset = q0[:, 2] - gx * ((q0[:, 0] - middle[0]) * scale + side / 2)
        offset -= gy * (side / 2 - (q0[:, 1] - middle[1]) * scale)
        plane = np.stack([gx, gy, offset], axis=1)
    return FaceSet(px[corners], py[corners], plane, shown, shaded, groups, edge, side, corners)


def draw_faces(vertices: np.ndarray, faces: Sequence[Sequence[int]], colours: np.ndarray, groups: Sequence[int],
               view: Mapping[str, Any], side: int, normals: np.ndarray | None = None) -> Drawing:
    """Draw the planar convex faces of a closed surface (``vertices`` in world units, each face a vertex cycle)
    seen by the recorded camera (``view``: camera [elevation, azimuth], scale in pixels per unit, light,
    ambient, edge width), centred by its projected box like the panels, hidden faces removed per pixel.
    Outward ``normals`` (world space, one per face) are needed unless the solid is convex, when each face's
    normal is taken pointing away from the vertices' mean."""
    return draw_face_sets([face_set(vertices, faces, colours, groups, view, side, normals)])[0]


def draw_face_sets(sets: Sequence[FaceSet]) -> list[Drawing]:
    """The drawings of several panels' faces (``face_set``), each as ``draw_faces`` draws it alone: the faces of
    all panels of one side, kind (convex or not) and corner count are filled in one go (``fill_canvases``)."""
    fills: list[tuple[tuple[int, int], np.ndarray] | None] = [None] * len(sets)
    kinds: dict[tuple[int, bool, int], list[int]] = {}
    for k, faces in enumerate(sets):
        if len(faces.xs):
            kinds.setdefault((faces.side, faces.plane is None, faces.xs.shape[1]), []).append(k)
    for (side, convex, _), members in kinds.items():
        plane = None if convex else np.concatenate([sets[k].plane for k in members])
        canvas = np.repeat(np.arange(len(members)), [len(sets[k].xs) for k in members])
        filled = fill_canvases(np.concatenate([sets[k].xs for k in members]),
                               np.concatenate([sets[k].ys for k in members]), side, plane,
                               np.concatenate([sets[k].labels for k in members]), canvas, len(members))
        for k, fill in zip(members, filled, strict=True):
            fills[k] = fill
    drawings = []
    for faces, fill in zip(sets, fills, strict=True):
        origin, ids = ((0, 0), np.full((0, 0), -1, dtype=np.int32)) if fill is None else fill
        drawings.append(finish(ids, faces.groups, faces.shaded, faces.edge, origin, faces.side))
    convex = [k for k, faces in enumerate(sets) if faces.plane is None and faces.corners is not None]
    for k, core in zip(convex, outline_cores([sets[k] for k in convex]), strict=True):
        drawings[k] = drawings[k]._replace(core=core)
    return drawings


#: The renderer's supersampling (``raster3d.SUPERSAMPLE``), at which the outline core is worked out.
CORE_SUPERSAMPLE = 2


def outline_core(faces: FaceSet) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (rows, columns; panel pixels) that the outline of a convex solid's panel covers whole.

    The rule: the faces filled at twice the resolution (as ``fill_canvases`` fills them with corners and side
    doubled), the sub-pixel left of and the one above each change of outline group marked, the marks widened
    by a square pen one sub-pixel narrower than the renderer's (radius ``max(1, round((2 edge - 1) / 2)) - 1``;
    the renderer marks the same sub-pixels and widens them by one more, so the narrowing leaves room for a
    mark placed a sub-pixel off where the two fills' arithmetic differ at a tie), and a pixel is core when its
    whole 2 x 2 block lies under that pen: the renderer draws it in the edge colour and nothing else.

    The marks are placed without filling.  The faces of a convex solid turned to the camera tile its
    silhouette without covering one another, so along a row of sub-pixel centres the outline group changes
    only where the row crosses an edge between faces of two groups or an edge of the silhouette (an edge no
    other face turned to the camera shares; ``_group_edges``), and between two neighbouring centres it changes
    when the group before the first such crossing between them differs from the group after the last
    (``_changes``): the change is marked at the centre before.  Likewise down the columns, as rows of the
    solid's mirror image in the diagonal.  Held to the filled rule by the tests."""
    return outline_cores([faces])[0]


def outline_cores(sets: Sequence[FaceSet]) -> list[tuple[np.ndarray, np.ndarray]]:
    """``outline_core`` of several convex solids' face sets, worked out together."""
    ss = CORE_SUPERSAMPLE
    empty = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    cores = [empty] * len(sets)
    edges = _group_edges(sets)
    if edges is None:
        return cores
    ends, inner, outer, turn, panel = edges
    ends = ends * ss
    x0, y0, x1, y1 = ends.T
    count = len(x0)
    # rows of the panel, then rows of its mirror image (x and y swapped: the columns); the face lies before the
    # crossing (left, or above) when its side of the edge is the one the coordinate across falls to
    first = np.concatenate([np.sign(y1 - y0) == turn, -np.sign(x1 - x0) == turn])
    line, col, place, owner = _crossings(np.concatenate([x0, y0]), np.concatenate([y0, x0]),
                                         np.concatenate([x1, y1]), np.concatenate([y1, x1]))
    inner, outer = np.concatenate([inner, inner]), np.concatenate([outer, outer])
    before, after = np.where(first, inner, outer)[owner], np.where(first, outer, inner)[owner]
    mirrored = owner >= count
    panel = np.concatenate([panel, panel])[owner]
    line, col, mirrored, panel = _changes(line, col, mirrored, panel, place, before, after)
    rows, cols = np.where(mirrored, col, line), np.where(mirrored, line, col)
    sides = np.array([faces.side for faces in sets]) * ss
    keep = (rows >= 0) & (rows < sides[panel]) & (cols >= 0) & (cols < sides[panel])
    rows, cols, panel = rows[keep], cols[keep], panel[keep]
    pens = [max(1, round((ss * faces.edge - 1) / 2)) - 1 for faces in sets]
    if len(set(pens)) == 1:  # one pen (as at the tasks' sizes): all panels together
        _cores_of(sets, rows, cols, panel, pens[0], cores)
        return cores
    for pen in sorted(set(pens)):
        of = np.asarray(pens)[panel] == pen
        _cores_of(sets, rows[of], cols[of], panel[of], pen, cores)
    return cores


def _cores_of(sets: Sequence[FaceSet], rows: np.ndarray, cols: np.ndarray, panel: np.ndarray, pen: int,
              cores: list) -> None:
    """The core of every panel of ``sets`` with marks (sub-pixels ``rows``, ``cols`` of ``panel``), all drawn with a
    pen of radius ``pen``, into ``cores``: each panel's marks over their box of 2 x 2 blocks grown by the pen's
    reach, the boxes stacked with that much room between them and their whole blocks read at once."""
    ss = CORE_SUPERSAMPLE
    reach = -(-pen // ss) + 1
    brow, bcol = rows // ss, cols // ss
    # the marks come panel by panel (``_changes`` orders them so): each panel's box of blocks from its run
    shown = np.flatnonzero(np.bincount(panel, minlength=len(sets)))
    starts = np.searchsorted(panel, shown)
    top = np.minimum.reduceat(brow, starts) - reach
    left = np.minimum.reduceat(bcol, starts) - reach
    height = np.maximum.reduceat(brow, starts) + reach + 1 - top
    width = int((np.maximum.reduceat(bcol, starts) + reach + 1 - left).max())
    start = np.concatenate([[0], np.cumsum(height)])  # each panel's first row in the stack
    shift = start[:-1] - top  # block row in the stack less block row in the panel
    at = np.repeat(np.arange(len(shown)), np.diff(np.append(starts, len(panel))))
    whole = _whole_blocks(rows + ss * shift[at], cols - ss * left[at], (int(start[-1]), width), pen)
    r, c = np.divmod(np.flatnonzero(whole), width)
    owner = np.searchsorted(start, r, side="right") - 1
    bounds = np.searchsorted(owner, np.arange(len(shown) + 1))
    for k, panel_k in enumerate(shown.tolist()):
        mine = slice(bounds[k], bounds[k + 1])
        pr, pc = r[mine] - shift[k], c[mine] + left[k]
        on = (pr >= 0) & (pr < sets[panel_k].side) & (pc >= 0) & (pc < sets[panel_k].side)  # the box may reach out
        cores[panel_k] = (pr[on], pc[on])


#: A 2 x 2 block's sub-pixels (0, 0), (0, 1), (1, 0), (1, 1) as the bits 8, 4, 2, 1 of a byte (``_whole_blocks``),
#: and the masks of its left column, right column, top row and bottom row, repeated over the eight bytes of a
#: uint64 (the blocks are worked eight at a time: a bit moved within its byte never crosses into the next).
_HALVES = tuple(np.uint64(int.from_bytes(bytes([mask]) * 8, "little")) for mask in (10, 5, 12, 3))


def _whole_blocks(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int], pen: int) -> np.ndarray:
    """The 2 x 2 blocks (``shape`` blocks) whose every sub-pixel lies within ``pen`` sub-pixels (in squares) of a
    marked sub-pixel (``rows``, ``cols``).  A pen of one (the outline of panels up to 324 px) is worked by block,
    each block's four sub-pixels as four bits of a byte (``_HALVES``): a sub-pixel reaches its neighbours in its
    own block and the nearest sub-pixels of the next blocks."""
    if pen != 1:
        marks = np.zeros((2 * shape[0], 2 * shape[1]), dtype=bool)
        marks[rows, cols] = True
        grown = _square_grown(marks, pen)
        return grown[0::2, 0::2] & grown[0::2, 1::2] & grown[1::2, 0::2] & grown[1::2, 1::2]
    size = shape[0] * shape[1]
    bits = np.zeros(-(-size // 8) * 8, dtype=np.uint8)  # whole uint64s (the padding stays clear of every mark)
    corner = (rows & 1) << 1 | (cols & 1)
    np.bitwise_or.at(bits, (rows >> 1) * shape[1] + (cols >> 1), np.uint8(8) >> corner.astype(np.uint8))

    def blocks(wide: np.ndarray) -> np.ndarray:
        return wide.view(np.uint8)[:size].reshape(shape)

    left, right, top, bottom = _HALVES
    one, two = np.uint64(1), np.uint64(2)
    # across: each sub-pixel to its neighbour in the block, the right column to the next block's left one
    wide = bits.view(np.uint64)
    leftward = wide & left
    leftward >>= one
    rightward = wide & right
    rightward <<= one
    grown = wide | leftward
    grown |= rightward
    blocks(grown)[:, 1:] |= blocks(rightward)[:, :-1]
    blocks(grown)[:, :-1] |= blocks(leftward)[:, 1:]
    # down: likewise between the block's rows and the next block's
    upward = grown & top
    upward >>= two
    downward = grown & bottom
    downward <<= two
    whole = grown | upward
    whole |= downward
    blocks(whole)[1:] |= blocks(downward)[:-1]
    blocks(whole)[:-1] |= blocks(upward)[1:]
    return blocks(whole) == 15


def _group_edges(sets: Sequence[FaceSet]) -> tuple[np.ndarray, ...] | None:
    """The edges of convex solids' faces turned to the camera (``sets``, each with its vertices) where the outline
    group changes, each once (those no other such face of the solid shares: the silhouette; and those shared by
    faces of two groups): its ends (edges x (x0, y0, x1, y1), pixels), the group of the face it was taken from
    and of the one across it (-1: none), the side of the edge that face lies on (the sign of (end - start) x
    (point - start) inside it) and the face set it belongs to.  None if none."""
    parts = []
    offset = 0
    for k, faces in enumerate(sets):
        corners = faces.corners
        step = np.concatenate([corners[:, 1:], corners[:, :1]], axis=1)
        kept = step != corners  # edges between two vertices (padding repeats one)
        row, col = np.nonzero(kept)
        start, end = corners[row, col] + offset, step[row, col] + offset
        offset = int(start.max(initial=offset)) + 1
        nxt = (col + 1) % corners.shape[1]
        group = np.asarray(faces.groups, dtype=np.int64)[faces.labels][row]
        centre_x, centre_y = faces.xs.mean(axis=1)[row], faces.ys.mean(axis=1)[row]
        parts.append(np.stack([start, end, faces.xs[row, col], faces.ys[row, col], faces.xs[row, nxt],
                               faces.ys[row, nxt], group, centre_x, centre_y, np.full(len(row), k)], axis=1))
    table = np.concatenate(parts) if parts else np.zeros((0, 10))
    if not len(table):
        return None
    start, end = table[:, 0].astype(np.int64), table[:, 1].astype(np.int64)
    key = np.minimum(start, end) * (offset + 1) + np.maximum(start, end)  # one key for an edge from both faces
    order = np.argsort(key)
    key, table = key[order], table[order]
    same = key[1:] == key[:-1]  # an edge and the next are one (a closed surface: never more than two faces)
    group = table[:, 6].astype(np.int64)
    across = np.full(len(key), -1, dtype=np.int64)
    across[:-1][same] = group[1:][same]
    across[1:][same] = group[:-1][same]
    chosen = across != group
    chosen[1:] &= ~same  # an edge two faces share, once
    ends = table[:, 2:6]
    x0, y0, x1, y1 = ends.T
    turn = np.sign((x1 - x0) * (table[:, 8] - y0) - (y1 - y0) * (table[:, 7] - x0))
    return ends[chosen], group[chosen], across[chosen], turn[chosen], table[chosen, 9].astype(np.int64)


def _crossings(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where segments (sub-pixel units) cross the rows of sub-pixel centres (y = i + 0.5, within the segment's
    span): per crossing its row, the last column whose centre lies before it (x + 0.5 < crossing), the crossing's
    x and its segment.  Level segments cross none."""
    low, high = np.minimum(y0, y1), np.maximum(y0, y1)
    first = np.ceil(low - 0.5).astype(np.int64)
    last = np.floor(high - 0.5).astype(np.int64)
    level = y0 == y1
    count = np.where(level, 0, np.maximum(last - first + 1, 0))
    owner = np.repeat(np.arange(len(x0)), count)
    row = np.arange(len(owner)) + np.repeat(first - (np.cumsum(count) - count), count)
    slope = (x1 - x0) / np.where(level, 1.0, y1 - y0)
    at = x0[owner] + (row + 0.5 - y0[owner]) * slope[owner]
    return row, np.ceil(at - 0.5).astype(np.int64) - 1, at, owner


def _changes(row: np.ndarray, col: np.ndarray, mirrored: np.ndarray, panel: np.ndarray, place: np.ndarray,
             before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, ...]:
    """The crossings (``row``, ``col``: the centre before it; ``mirrored``: of the mirror image's rows; ``panel``)
    where the group changes from that centre to the next: of the crossings between the two (``place`` along the
    row; the groups ``before`` and ``after`` each), the group before the first differs from the group after the
    last."""
    if not len(row):
        return row, col, mirrored, panel
    low, high = int(min(row.min(), col.min())), int(max(row.max(), col.max()))
    span = high - low + 1
    key = (((panel * 2 + mirrored) * span) + (row - low)) * span + (col - low)
    # sorted with each crossing's index below the key (sorting values is quicker than sorting indices)
    order = np.sort(key * len(key) + np.arange(len(key))) % len(key)
    key = key[order]
    repeated = np.flatnonzero(key[1:] == key[:-1])
    if len(repeated):  # several crossings between two centres (near a corner): taken in order along the row
        shared = np.unique(np.concatenate([repeated, repeated + 1]))
        order[shared] = order[shared][np.lexsort((place[order[shared]], key[shared]))]
    start = np.ones(len(key), dtype=bool)
    start[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(start)
    ends = np.append(starts[1:], len(key)) - 1
    first = order[starts]
    first = first[before[first] != after[order[ends]]]
    return row[first], col[first], mirrored[first], panel[first]


def _square_grown(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` grown by ``radius`` pixels with a square (Chebyshev) pen, one axis after the other."""
    out = mask
    for axis in (0, 1):
        grown = out.copy()
        for k in range(1, radius + 1):
            if axis == 0:
                grown[k:] |= out[:-k]
                grown[:-k] |= out[k:]
            else:
                grown[:, k:] |= out[:, :-k]
                grown[:, :-k] |= out[:, k:]
        out = grown
    return out


def draw_flat(polygons: Sequence[Sequence[Sequence[float]]], colours: np.ndarray, side: int, edge_width: float,
              masks: Sequence[tuple[tuple[int, int], np.ndarray]] = ()) -> Drawing:
    """Draw flat 2D shapes: convex ``polygons`` in pixel units that do not overlap, then any ready ``masks``
    (each a top-left (x, y) and a boolean array) over them; each shape its own outline group and colour, and
    ``FLAT_AGREEMENT`` of every shape's inner pixels must show it."""
    if len(polygons) and not len(masks):  # the polygons' own box, as ``draw_face_sets`` hands its fills on
        filled = fill_polygons(*padded(polygons), side)
        origin, ids = ((0, 0), np.full((0, 0), -1, dtype=np.int32)) if filled is None else filled
        drawing = finish(ids, np.arange(len(polygons)), np.asarray(colours, dtype=float).reshape(len(polygons), 3),
                         edge_width, origin, side)
        return drawing._replace(agreement=FLAT_AGREEMENT)
    ids = np.full((side, side), -1, dtype=np.int32)
    if len(polygons):
        rasterise(*padded(polygons), side, ids=ids)
    for k, ((x0, y0), mask) in enumerate(masks, start=len(polygons)):
        np.copyto(ids[y0:y0 + mask.shape[0], x0:x0 + mask.shape[1]], k, where=mask)
    count = len(polygons) + len(masks)
    drawing = finish(ids, np.arange(count), np.asarray(colours, dtype=float).reshape(count, 3), edge_width)
    return drawing._replace(agreement=FLAT_AGREEMENT)


def _darkest(pixels: np.ndarray) -> np.ndarray:
    """The darkest channel of every pixel (faster than a reduction over the colour axis; a C-contiguous array read
    as one row of pixels, quicker still)."""
    if pixels.ndim > 2 and pixels.flags.c_contiguous:
        flat = pixels.reshape(-1, pixels.shape[-1])
        return np.minimum(np.minimum(flat[:, 0], flat[:, 1]), flat[:, 2]).reshape(pixels.shape[:-1])
    return np.minimum(np.minimum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])


def _off_by(pixels: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """The largest channel difference between every pixel and its colour (int16 arrays, ... x 3), channel by
    channel (faster than a reduction over the colour axis)."""
    d = np.abs(pixels - colours)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def _within_tolerance(values: np.ndarray, colour: np.ndarray, tolerance: int) -> np.ndarray:
    """Whether every channel of each uint8 colour (... x 3) is within ``tolerance`` of ``colour`` (int16)."""
    low = colour.astype(np.int64) - tolerance
    if low.min() < 0 or low.max() + 2 * tolerance > 255:
        return _off_by(values.astype(np.int16), colour) <= tolerance
    near = (values[..., 0] - np.uint8(low[0])) <= 2 * tolerance  # uint8 arithmetic wraps below the range
    for channel in (1, 2):
        near &= (values[..., channel] - np.uint8(low[channel])) <= 2 * tolerance
    return near


class Tile:
    """The pixels of one panel: a palette-mode crop of the image (``image``) and the colour of every palette
    index (``colours``, 256 x 3 uint8), or RGB values (``rgb``).  Every reading is the same function of each
    pixel's colour either way; on a palette it is worked out once per colour and looked up, or counted from
    the crop's histogram."""

    def __init__(self, rgb: np.ndarray | None = None, image: Any = None, colours: np.ndarray | None = None):
        self.image, self.colours, self._rgb = image, colours, rgb
        self.indices = None if image is None else np.asarray(image)
        self.shape = tuple(rgb.shape) if rgb is not None else (*self.indices.shape, 3)
        self._interior: tuple[int, int] | None = None
        self._darkest: np.ndarray | None = None

    @property
    def rgb(self) -> np.ndarray:
        """The panel's RGB values (h x w x 3, uint8)."""
        if self._rgb is None:
            self._rgb = np.take(self.colours, self.indices, axis=0)
        return self._rgb

    def colours_at(self, rows: slice, cols: slice) -> np.ndarray:
        """The RGB values of the pixels of ``rows`` x ``cols``."""
        if self.image is None:
            return self._rgb[rows, cols]
        return np.take(self.colours, self.indices[rows, cols], axis=0)

    def darkest(self) -> np.ndarray:
        """The darkest channel of every pixel (worked out once)."""
        if self._darkest is None:
            self._darkest = _darkest(self._rgb) if self.image is None else np.take(_darkest(self.colours), self.indices)
        return self._darkest

    def interior_darkness(self) -> tuple[int, int]:
        """How many pixels 3 px or more in from the panel's edge have their darkest channel below
        ``OBJECT_LEVEL`` (drawn), and below ``255 - PAPER_SLACK`` (not paper) (worked out once)."""
        if self._interior is None:
            height, width = self.shape[:2]
            if self.image is None:
                darkest = self.darkest()[3:-3, 3:-3]
                self._interior = (int(np.count_nonzero(darkest < OBJECT_LEVEL)),
                                  int(np.count_nonzero(darkest < 255 - PAPER_SLACK)))
            elif height <= 6 or width <= 6:
                self._interior = (0, 0)
            else:  # each index looked up as two bits (drawn, not paper) and the bits counted
                darkest = _darkest(self.colours)
                bits = (darkest < OBJECT_LEVEL).astype(np.uint8) + 2 * (darkest < 255 - PAPER_SLACK).astype(np.uint8)
                read = np.asarray(self.image.crop((3, 3, width - 3, height - 3)).point(bits.tolist()))
                self._interior = (int(np.count_nonzero(read & 1)), int(np.count_nonzero(read & 2)))
        return self._interior

    def below(self, level: int, rows: slice, cols: slice) -> np.ndarray:
        """Whether the darkest channel of each pixel of ``rows`` x ``cols`` is below ``level``."""
        if self.image is None:
            return self.darkest()[rows, cols] < level
        return np.take(_darkest(self.colours) < level, self.indices[rows, cols])

    def near(self, colour: Sequence[int], tolerance: int, rows: slice, cols: slice) -> np.ndarray:
        """Whether every channel of each pixel of ``rows`` x ``cols`` is within ``tolerance`` of ``colour``."""
        colour = np.asarray(colour, dtype=np.int16)
        if self.image is None:
            return _within_tolerance(self._rgb[rows, cols], colour, tolerance)
        return np.take(_within_tolerance(self.colours, colour, tolerance), self.indices[rows, cols])

    def count_off(self, colour: Sequence[int], tolerance: int, rows: np.ndarray, cols: np.ndarray) -> int:
        """How many of the pixels at (``rows``, ``cols``) have a channel more than ``tolerance`` off ``colour``."""
        if not len(rows):
            return 0
        colour = np.asarray(colour, dtype=np.int16)
        if self.image is None:
            return int(np.count_nonzero(~_within_tolerance(self._rgb[rows, cols], colour, tolerance)))
        near = _within_tolerance(self.colours, colour, tolerance)
        return int(np.count_nonzero(~np.take(near, self.indices[rows, cols])))

    def face_tally(self, rows: slice, cols: slice, inner: np.ndarray, ids: np.ndarray, expected: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Over the pixels of ``rows`` x ``cols`` where ``inner``, per face (``ids``: the face of every pixel of
        the region; ``expected``: each face's colour, int16) how many there are and how many have a channel more
        than ``FACE_TOLERANCE`` off the face's colour (as floats).  Each pixel is coded as twice its face plus
        one if it is off (twice the number of faces where not inner) and the codes counted."""
        faces = len(expected)
        face = np.where(inner, ids, faces)
        levels = np.arange(256, dtype=np.int16)
        if self.image is None:  # channel by channel: a table of (face, level) pairs off the face's colour
            pixels = self._rgb[rows, cols]
            at = face * 256
            off = None
            for channel in range(3):
                table = np.abs(levels - expected[:, channel, None]) > FACE_TOLERANCE
                wrong = np.take(np.vstack([table, np.zeros((1, 256), dtype=bool)]), at + pixels[..., channel])
                off = wrong if off is None else off | wrong
            code = 2 * face + off
        else:  # a table of (face, palette index) pairs
            palette = self.colours.astype(np.int16)
            table = np.zeros((faces, len(palette)), dtype=bool)
            for channel in range(3):
                table |= np.abs(palette[:, channel] - expected[:, channel, None]) > FACE_TOLERANCE
            table = np.vstack([2 * np.arange(faces)[:, None] + table, np.full((1, len(palette)), 2 * faces)])
            code = np.take(table, face * len(palette) + self.indices[rows, cols])
        tally = np.bincount(code.ravel(), minlength=2 * faces + 2)[:2 * faces].reshape(faces, 2)
        return tally.sum(axis=1), tally[:, 1].astype(float)


def _as_tile(tile: Tile | np.ndarray) -> Tile:
    return tile if isinstance(tile, Tile) else Tile(rgb=np.asarray(tile))


def panel_failures(tile: Tile | np.ndarray, drawing: Drawing, name: str, describe_face: Any = None) -> list[str]:
    """What the panel's pixels (``tile``: a ``Tile`` or side x side x 3 RGB) contradict in its sketch: a
    silhouette that overlaps too little, or faces whose inner pixels do not have the face's recorded colour.
    ``describe_face(k)`` names face k in messages (default "face k")."""
    return _panel_check(_as_tile(tile), drawing, name, describe_face)[0]


def _panel_check(tile: Tile, drawing: Drawing, name: str, describe_face: Any) -> tuple[list[str], int | None]:
    """``panel_failures``, and how many of the sketch's inner pixels are off their face's colour (None when the
    sizes differ).  The sketch is white outside its box, so the silhouette and the faces are read there only."""
    failures: list[str] = []
    if tile.shape != drawing.rgb.shape:
        return [f"{name}: panel is {tile.shape}, sketch is {drawing.rgb.shape}"], None
    height, width = tile.shape[:2]
    drawn = tile.interior_darkness()[0]  # the frame is the layout's, not the panel's
    region = _within(drawing.box, 3, height - 3, 3, width - 3)
    sketched = both = 0
    if region is not None:
        rows, cols = slice(region[0], region[1]), slice(region[2], region[3])
        inside = (slice(region[0] - drawing.box[0], region[1] - drawing.box[0]),
                  slice(region[2] - drawing.box[2], region[3] - drawing.box[2]))
        dark = np.take(_darkest(drawing.palette) < OBJECT_LEVEL, drawing.index[inside])
        sketched = int(np.count_nonzero(dark))
        both = int(np.count_nonzero(dark & tile.below(OBJECT_LEVEL, rows, cols)))
    union = drawn + sketched - both
    iou = both / union if union else 1.0
    if iou < MIN_SILHOUETTE_IOU:
        failures.append(f"{name}: the drawn silhouette overlaps the recorded object's by {iou:.0%} only")
    if region is None:
        return failures, 0
    count, bad = _face_tally(tile, drawing, rows, cols, inside)
    for k in np.flatnonzero(count >= MIN_FACE_PIXELS).tolist():
        if bad[k] > (1 - drawing.agreement) * count[k]:
            what = describe_face(k) if describe_face else f"face {k}"
            failures.append(f"{name}: {what} does not show its recorded colour "
                            f"({bad[k] / count[k]:.0%} of its pixels differ)")
    return failures, int(bad.sum())


def _off_colour(pixels: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Whether some channel of each pixel (uint8, rows x columns x 3) differs from its expected colour (the same)
    by more than ``FACE_TOLERANCE``: the channels' differences in place, their largest read as every third value
    of each row (quicker than a reduction over the colour axis or the three comparisons joined)."""
    difference = np.maximum(pixels, expected)
    difference -= np.minimum(pixels, expected)
    if difference.ndim != 3 or difference.shape[2] != 3:
        off = difference > FACE_TOLERANCE
        return off[..., 0] | off[..., 1] | off[..., 2]
    flat = difference.reshape(difference.shape[0], difference.shape[1] * 3)
    return np.maximum(np.maximum(flat[:, 0::3], flat[:, 1::3]), flat[:, 2::3]) > FACE_TOLERANCE


def _face_tally(tile: Tile, drawing: Drawing, rows: slice, cols: slice, inside: tuple[slice, slice]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Per face, how many inner pixels of the region (``rows`` x ``cols`` of the panel, ``inside`` the box)
    there are and how many of them are off the face's colour (``Tile.face_tally``).  Where every face's colour
    is a whole RGB colour as recorded, the sketch shows each inner pixel in exactly its face's colour, and the
    panel is compared with the sketch channel by channel."""
    inner, ids = drawing.inner[inside], drawing.ids[inside]
    expected = np.rint(drawing.colours).astype(np.int16)
    faces = len(expected)
    if not np.array_equal(expected, drawing.palette[1:-1]):
        return tile.face_tally(rows, cols, inner, ids, expected)
    off = _off_colour(tile.colours_at(rows, cols), drawing.rgb[rows, cols]) & inner
    count = np.bincount(ids[inner], minlength=faces)[:faces]  # inner pixels are a face's (ids >= 0)
    return count, np.bincount(ids[off], minlength=faces).astype(float)


#: A panel's sketch and a namer of its faces for messages (None: "face k").
Sketcher = Callable[[Mapping[str, Any], int], tuple[Drawing, Callable[[int], str] | None]]


class Panel(NamedTuple):
    """One panel of a scene record: its name in messages, its description and its pixels."""

    name: str
    description: Mapping[str, Any]
    pixels: Tile


def _on_canvas(box: Sequence[float], size: tuple[int, int]) -> bool:
    """Whether a crop ``box`` (left, top, right, bottom, rounded as Pillow rounds them) lies on a canvas of
    ``size``."""
    left, top, right, bottom = (round(v) for v in box)
    return 0 <= left <= right <= size[0] and 0 <= top <= bottom <= size[1]


def _tile_reader(image: Any) -> Callable[[tuple], Tile]:
    """Cut panels out of ``image``: as palette indices when it has a palette and the box lies on the canvas
    (the colour of every index read by converting a strip of all 256 to RGB, as the whole image converts),
    else from its RGB conversion (a box off the canvas padded as Pillow pads)."""
    mode = getattr(image, "mode", "RGB")
    colours = None
    if mode == "P":
        strip = image.crop((0, 0, 256, 1))
        strip.putdata(range(256))
        colours = np.asarray(strip.convert("RGB")).reshape(256, 3)
    rgb = image if mode == "RGB" else None

    def read(box: tuple) -> Tile:
        nonlocal rgb
        if colours is not None and _on_canvas(box, image.size):
            return Tile(image=image.crop(box), colours=colours)
        if rgb is None:
            rgb = image.convert("RGB")
        return Tile(rgb=np.asarray(rgb.crop(box)))

    return read


def scene_panels(scene: Mapping[str, Any], image: Any, query_name: str,
                 tiles: tuple[Sequence[np.ndarray], Sequence[np.ndarray]] | None = None) -> list[Panel]:
    """The panels of a scene record (query panels, then options A, B, ...), each cut from ``image`` at its
    recorded box and read once (``_tile_reader``), for ``scene_failures`` and ``scene_mark_failures`` both.
    ``tiles``: the query and the option panels already cut from ``image``, an RGB image, at those boxes (RGB
    arrays, as ``_tile_reader`` cuts them from it), if the caller has them."""
    queries = list(zip(scene["query"], scene["query_boxes"], strict=True))
    names = [query_name if len(queries) == 1 else f"{query_name} {k + 1}" for k in range(len(queries))]
    names += [f"option {chr(65 + k)}" for k in range(len(scene["options"]))]
    boxes = [*queries, *zip(scene["options"], scene["option_boxes"], strict=True)]
    if tiles is not None:
        cut = [*tiles[0], *tiles[1]]
        if len(cut) == len(boxes):
            return [Panel(name, description, Tile(rgb=pixels))
                    for name, (description, _), pixels in zip(names, boxes, cut, strict=True)]
    read = _tile_reader(image)
    return [Panel(name, description, read(tuple(box))) for name, (description, box) in zip(names, boxes, strict=True)]


def scene_failures(panels: Sequence[Panel], side: int, sketcher: Sketcher) -> list[str]:
    """``panel_failures`` of every panel (``scene_panels``), each compared with ``sketcher(description,
    side)``, ``side`` the scene's tile."""
    failures = []
    for name, description, pixels in panels:
        drawing, describe_face = sketcher(description, side)
        failures += panel_failures(pixels, drawing, name, describe_face)
    return failures


#: Small marks (``mark_failures``).  The panel draws every outline about three pixels wide over the recorded edge,
#: and the sketch's outline pixels (where the face index changes) straddle it: each must have a pixel of the edge
#: colour (every channel within ``EDGE_MATCH``) at most one pixel away.  Pixels at least ``INNER_REACH`` pixels
#: from every sketched outline must show their face's colour within ``FACE_TOLERANCE``, and pixel centres
#: ``BEYOND_PEN`` beyond the outline's reach outside the recorded silhouette must be paper, their darkest channel
#: within ``PAPER_SLACK`` of white.  The 3D panels draw outlines with a square pen ``PEN`` pixels across (half
#: of it each side of the edge), so "beyond its reach" is measured in squares: the silhouette swept by a square
#: of half side ``PEN / 2 + BEYOND_PEN`` (flat nets, drawn with a round pen, give their own reach).
#: ``MARK_SLACK`` pixels of a panel may break each rule.  On ~1,100 real items per task (both canvases) the largest
#: counts were 0 (outline), 1 (face) and 0 (paper; its darkest pixel 55, one antialiased pixel in ~285 items), so
#: a few pixels of slack on faces and paper keep a fresh item from failing on antialiasing, while every planted
#: mark (a dot of radius 1.4 px covers 9 pixel centres) still breaks a rule by more.  An outline pixel far from
#: any edge-coloured one is not antialiasing (the pen is 3 px wide), and a gap in a thin edge at 600x800 leaves
#: as few as one such pixel: none is allowed.  Nor is a pixel of the outline core off the edge colour
#: (``outline_core``: the renderer draws it in the edge colour alone; none was off it in 720 fresh
#: mental-composition items, both canvases, sized with and without ``ESTIMATED_FIRST_ROUND``), so none is allowed.
EDGE_MATCH = 30
INNER_REACH = 2
PEN = 3.0
#: How far beyond the pen's reach (pixels, in squares) the paper zone begins: a pixel centre there has its whole
#: pixel a quarter pixel clear of the outline.
BEYOND_PEN = 0.75
PAPER_SLACK = 60
MARK_SLACK = {"outline": 0, "core": 0, "face": 3, "paper": 2}


def projected(vertices: np.ndarray, view: Mapping[str, Any], side: int) -> np.ndarray:
    """Pixel positions (x right, y down) of world ``vertices`` seen by the recorded camera and centred by their
    projected box, as ``draw_faces`` places them."""
    cam = np.asarray(vertices, dtype=float) @ camera_basis(*view["camera"]).T
    middle = (cam[:, :2].min(axis=0) + cam[:, :2].max(axis=0)) / 2
    scale = float(view["scale"])
    return np.stack([(cam[:, 0] - middle[0]) * scale + side / 2, side / 2 - (cam[:, 1] - middle[1]) * scale], axis=1)


class Paper(NamedTuple):
    """Where a panel must be paper: ``mask`` (side x side booleans) and the box (first row, end row, first
    column, end column) of the pixels that need not be (None if none)."""

    mask: np.ndarray
    box: tuple[int, int, int, int] | None


def paper_zone(parts: Sequence[np.ndarray], side: int, reach: float = PEN / 2 + BEYOND_PEN) -> np.ndarray:
    """Pixels (side x side booleans) whose centres lie farther than ``reach`` (in squares: Chebyshev distance)
    outside a silhouette made of convex ``parts`` (each a k x 2 array of corners, pixel units): the silhouette
    swept by a square of half side ``reach`` is the union of each part's corners moved to the square's four
    corners and hulled, filled by its rings (holes cut back out).  The default is ``BEYOND_PEN`` beyond a 3D
    panel's outline."""
    return paper_region(parts, side, reach).mask


def paper_region(parts: Sequence[np.ndarray], side: int, reach: float = PEN / 2 + BEYOND_PEN) -> Paper:
    """``paper_zone`` with the box of the pixels outside it."""
    return paper_regions([parts], side, [reach])[0]


def paper_regions(panels: Sequence[Sequence[np.ndarray]], side: int, reaches: Sequence[float]) -> list[Paper]:
    """``paper_region`` of several panels (each its convex parts and reach), the parts of all of them hulled
    in one go.  Each swept part is filled on its own and the fills joined (``_paper_masks``): the union of the
    hulls, with any hole it encloses, without building it."""
    parts_of, reach_of, sizes = [], [], []
    for parts, reach in zip(panels, reaches, strict=True):
        parts_of += [np.asarray(p, dtype=float) for p in parts]
        reach_of += [float(reach)] * len(parts)
        sizes.append(len(parts))
    swept: list[np.ndarray | None] = [None] * len(parts_of)
    by_count: dict[int, list[int]] = {}
    for k, part in enumerate(parts_of):
        by_count.setdefault(len(part), []).append(k)
    for members in by_count.values():  # the parts of one corner count swept together
        group = np.stack([parts_of[k] for k in members])
        ordered = _convex_in_order(group)
        if not ordered.any():
            continue  # all hulled below (a solid's projected vertices)
        # only the parts in convex order swept (``_swept_all`` works part by part: the same rings)
        fitting = np.flatnonzero(ordered)
        rings = _swept_all(group[fitting], np.array([reach_of[members[k]] for k in fitting.tolist()]))
        for k, ring in zip(fitting.tolist(), rings, strict=True):
            swept[members[k]] = ring
    loose = [k for k, ring in enumerate(swept) if ring is None]  # corners not in convex order: hulled
    if loose:
        points = []
        for k in loose:
            r = reach_of[k]
            square = np.array([[-r, -r], [r, -r], [r, r], [-r, r]])
            points.append((parts_of[k][:, None, :] + square[None]).reshape(-1, 2))
        owner = np.repeat(np.arange(len(points)), [len(p) for p in points])
        hulls = shapely.convex_hull(shapely.multipoints(np.concatenate(points), indices=owner))
        coordinates, which = shapely.get_coordinates(hulls, return_index=True)
        rings = np.split(coordinates, np.flatnonzero(np.diff(which)) + 1)
        for k, ring in zip(loose, rings, strict=True):
            swept[k] = ring
    ends = np.cumsum(sizes)
    return [_paper_masks(swept[end - size:end], side) for size, end in zip(sizes, ends, strict=True)]


def _convex_in_order(parts: np.ndarray) -> np.ndarray:
    """Per part (parts x corners x 2), whether its corners go round a convex polygon in order, either way (every
    turn between consecutive edges of some length the same way, and the edges' directions wound once)."""
    edges = np.roll(parts, -1, axis=1) - parts
    kept = np.abs(edges).max(axis=2) > 0
    turns = edges[..., 0] * np.roll(edges[..., 1], -1, axis=1) - edges[..., 1] * np.roll(edges[..., 0], -1, axis=1)
    # turns between an edge and the next edge of some length: zero-length edges are passed over
    nxt = np.roll(kept, -1, axis=1)
    plain = kept & nxt
    left = ((turns > 1e-9) | ~plain).all(axis=1)
    right = ((turns < -1e-9) | ~plain).all(axis=1)
    angles = np.arctan2(edges[..., 1], edges[..., 0])
    step = np.mod(np.roll(angles, -1, axis=1) - angles + np.pi, 2 * np.pi) - np.pi  # the turn at each corner
    wound = np.abs(np.where(plain, step, 0.0).sum(axis=1))
    gaps = (kept & ~nxt).any(axis=1) | (~kept).any(axis=1)
    return (left | right) & ~gaps & (np.abs(wound - 2 * np.pi) < 1e-6) & (kept.sum(axis=1) >= 3)


def _swept_all(parts: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """``_swept`` of many convex polygons of one corner count at once (parts x corners x 2; reach per part):
    parts x (corners + 4) x 2 corners of the swept polygons (an edge of no length leaves a corner twice)."""
    x, y = parts[..., 0], parts[..., 1]
    area = (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)
    rings = np.where((area >= 0)[:, None, None], parts, parts[:, ::-1])
    edges = np.roll(rings, -1, axis=1) - rings
    kept = np.abs(edges).max(axis=2) > 0
    angles = np.where(kept, np.mod(np.arctan2(edges[..., 1], edges[..., 0]), 2 * np.pi), np.inf)
    start = np.argmin(angles, axis=1)  # the corner before the first edge by direction (none: corner 0)
    angles = np.where(kept, angles, 0.0)
    side = (2 * reach)[:, None]
    zero = np.zeros_like(side)
    square = np.stack([np.hstack([side, zero, -side, zero]), np.hstack([zero, side, zero, -side])], axis=2)
    steps = np.concatenate([np.where(kept[..., None], edges, 0.0), square], axis=1)
    turns = np.concatenate([angles, np.broadcast_to([0.0, np.pi / 2, np.pi, 3 * np.pi / 2], (len(parts), 4))], axis=1)
    order = np.argsort(turns, axis=1, kind="stable")
    walked = np.cumsum(np.take_along_axis(steps, order[..., None], axis=1), axis=1)
    origin = rings[np.arange(len(parts)), start] - reach[:, None]
    return origin[:, None, :] + np.concatenate([np.zeros((len(parts), 1, 2)), walked[:, :-1]], axis=1)


def _swept(part: np.ndarray, reach: float) -> np.ndarray:
    """The convex polygon ``part`` (k x 2 corners, either winding) swept by a square of half side ``reach``: its
    Minkowski sum with the square, as corners in order (the hull of the part's corners moved to the square's
    four corners).  Walking the part's edges and the square's, merged by direction, from the corner the two
    share lowest in y (the walk of a Minkowski sum of convex polygons); edges of no length are dropped."""
    area = float((part[:, 0] * np.roll(part[:, 1], -1) - np.roll(part[:, 0], -1) * part[:, 1]).sum())
    ring = part if area >= 0 else part[::-1]
    edges = np.roll(ring, -1, axis=0) - ring
    angles = np.mod(np.arctan2(edges[:, 1], edges[:, 0]), 2 * np.pi)
    kept = np.abs(edges).max(axis=1) > 0
    if not kept.any():  # a point: the square itself
        corners = np.array([[-reach, -reach], [reach, -reach], [reach, reach], [-reach, reach]])
        return ring[0] + corners
    start = int(np.flatnonzero(kept)[np.argmin(angles[kept])])  # the corner before the first edge by direction
    side = 2 * reach
    square = np.array([[side, 0.0], [0.0, side], [-side, 0.0], [0.0, -side]])
    steps = np.vstack([edges[kept], square])
    turns = np.concatenate([angles[kept], [0.0, np.pi / 2, np.pi, 3 * np.pi / 2]])
    order = np.argsort(turns, kind="stable")
    return ring[start] + np.array([-reach, -reach]) + np.vstack([[0.0, 0.0], np.cumsum(steps[order], axis=0)[:-1]])


def _paper_masks(hulls: Sequence[np.ndarray], side: int) -> Paper:
    """The pixels outside every one of the convex ``hulls`` (corner arrays): each filled on the pixel-centre grid
    as ``_paper_mask`` fills a ring, and the box of the filled pixels."""
    mask = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(mask)
    for ring in hulls:
        draw.polygon((ring - 0.5).ravel().tolist(), fill=255)
    box = mask.getbbox()
    return Paper(np.asarray(mask) == 0, None if box is None else (box[1], box[3], box[0], box[2]))


def _paper_mask(grown: Any, side: int) -> Paper:
    """The pixels outside the swept silhouette ``grown``: its rings filled on the pixel-centre grid (holes cut
    back out), and the box of the filled pixels (the reference ``_paper_masks`` is held to)."""
    mask = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(mask)
    for part in getattr(grown, "geoms", [grown]):
        if part.is_empty:
            continue
        draw.polygon((shapely.get_coordinates(part.exterior) - 0.5).ravel().tolist(), fill=255)
        for hole in part.interiors:
            draw.polygon((shapely.get_coordinates(hole) - 0.5).ravel().tolist(), fill=0)
    box = mask.getbbox()
    return Paper(np.asarray(mask) == 0, None if box is None else (box[1], box[3], box[0], box[2]))


def _not_paper_box(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box of the False pixels of ``mask``."""
    rows, cols = np.flatnonzero(~mask.all(axis=1)), np.flatnonzero(~mask.all(axis=0))
    return (int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1) if len(rows) else None


def mark_failures(tile: Tile | np.ndarray, drawing: Drawing, paper: Paper | np.ndarray, name: str,
                  outline: bool = True) -> list[str]:
    """Small marks the silhouette and face-share checks let through: a gap or bite in an outline (outline
    pixels with no edge-coloured pixel within one pixel), a dot or line on a face (a face pixel two pixels clear
    of every outline off its colour), a dot, a line or an outline moved beside the object (a pixel of the
    ``paper`` zone, see ``paper_zone``, not paper), and on a drawing with an outline core (a convex solid's,
    ``outline_core``) a pixel the outline covers whole off the edge colour (a notch through part of an outline's
    width, which leaves an edge-coloured pixel within a pixel of every outline pixel).  ``outline`` False skips
    all but the paper rule, for drawings whose outlines the sketch does not place to a pixel.  The outline and
    face rules look only inside the box of the sketched object grown by a few pixels."""
    return _mark_check(_as_tile(tile), drawing, paper, name, outline, None)


def _mark_check(tile: Tile, drawing: Drawing, paper: Paper | np.ndarray, name: str, outline: bool,
                off_inner: int | None) -> list[str]:
    """``mark_failures``; ``off_inner``, if given, is how many of the sketch's inner pixels are off their face's
    colour (``_panel_check``), which is the count of the face rule whenever the rule's box holds the outline
    and the faces with room to spare and no face has the edge colour.  Paper is read as the pixels of the
    panel's interior that are not paper, less those outside the zone."""
    if tile.shape != drawing.rgb.shape:
        return []  # panel_failures reports the size
    side = tile.shape[0]
    mask, box = (paper.mask, paper.box) if isinstance(paper, Paper) else (paper, _not_paper_box(paper))
    dark = tile.interior_darkness()[1]
    spared = _within(box, 3, side - 3, 3, tile.shape[1] - 3)
    if spared is not None:
        rows, cols = slice(spared[0], spared[1]), slice(spared[2], spared[3])
        dark -= int(np.count_nonzero(tile.below(255 - PAPER_SLACK, rows, cols) & ~mask[rows, cols]))
    counts = {"paper": ("pixels beyond the silhouette's outline not paper (a mark beside it, or a moved edge)", dark)}
    if not outline or drawing.box is None:
        return _marks(name, counts)
    box = drawing.box
    plain = not (drawing.palette[1:-1] == EDGE).all(axis=1).any()  # the edge colour is the outline's only
    line = drawing.outline if plain else np.take((drawing.palette == EDGE).all(axis=1), drawing.index)
    rows = np.flatnonzero(line.any(axis=1))
    if not len(rows):
        return _marks(name, counts)
    cols = np.flatnonzero(line.any(axis=0))
    first_row, last_row = int(rows[0]) + box[0], int(rows[-1]) + box[0]
    first_col, last_col = int(cols[0]) + box[2], int(cols[-1]) + box[2]
    r0, r1 = max(first_row - 4, 3), min(last_row + 5, side - 3)
    c0, c1 = max(first_col - 4, 3), min(last_col + 5, side - 3)
    region = (r0, r1, c0, c1)
    shown = drawing.shown
    # the rule's box holds the outline with four pixels to spare, and the faces: the face rule reads the
    # same pixels as the face check, and (every face its own group) the outline is where the faces change
    roomy = (plain and r0 == first_row - 4 and r1 == last_row + 5 and c0 == first_col - 4 and c1 == last_col + 5
             and shown is not None and r0 <= shown[0] and shown[1] <= r1 and c0 <= shown[2] and shown[3] <= c1)
    if roomy and drawing.edges is not None:
        changed = _read(drawing.edges, box, region, False)
    else:
        ids = _read(drawing.ids, box, region, -1)
        changes = np.zeros(ids.shape, dtype=bool)
        changes[:, 1:] |= ids[:, 1:] != ids[:, :-1]
        changes[:, :-1] |= ids[:, 1:] != ids[:, :-1]
        changes[1:] |= ids[1:] != ids[:-1]
        changes[:-1] |= ids[1:] != ids[:-1]
        changed = _read(line, box, region, False) & changes
    inked = tile.near(EDGE, EDGE_MATCH, slice(r0, r1), slice(c0, c1))
    counts["outline"] = ("outline pixels with no edge colour beside them (a gap or a bite)",
                         int(np.count_nonzero(changed & ~_dilate(inked, 1))))
    if drawing.core is not None:
        counts["core"] = ("pixels the outline covers whole not in the edge colour (a notch through an outline)",
                          tile.count_off(EDGE, EDGE_MATCH, *drawing.core))
    if off_inner is None or not roomy:
        ids = _read(drawing.ids, box, region, -1)
        inner = (ids >= 0) & ~_dilate(_read(line, box, region, False), INNER_REACH)
        _, bad = tile.face_tally(slice(r0, r1), slice(c0, c1), inner, ids, np.rint(drawing.colours).astype(np.int16))
        off_inner = int(bad.sum())
    counts["face"] = ("face pixels clear of the outlines off their face's colour (a mark on a face)", off_inner)
    return _marks(name, counts)


def _marks(name: str, counts: Mapping[str, tuple[str, int]]) -> list[str]:
    """The messages of the mark rules whose counts exceed their slack."""
    return [f"{name}: {count} {what}" for rule, (what, count) in counts.items() if count > MARK_SLACK[rule]]


#: A panel's sketch, the pixels around it that must be paper, and whether the sketch places its outlines to a
#: pixel.
Marker = Callable[[Mapping[str, Any], int], tuple[Drawing, np.ndarray, bool]]


def scene_mark_failures(panels: Sequence[Panel], side: int, marker: Marker) -> list[str]:
    """``mark_failures`` of every panel (``scene_panels``), each compared with ``marker(description, side)``,
    ``side`` the scene's tile."""
    failures = []
    for name, description, pixels in panels:
        drawing, paper, placed = marker(description, side)
        failures += mark_failures(pixels, drawing, paper, name, outline=placed)
    return failures


def scene_pixel_failures(panels: Sequence[Panel], side: int, sketcher: Sketcher, marker: Marker) -> list[str]:
    """``scene_failures`` followed by ``scene_mark_failures`` of the same panels, each panel's pixels read
    once for both (the face rule of the marks reuses the face check's count where they look at the same
    pixels)."""
    failures, marks = [], []
    for name, description, pixels in panels:
        drawing, describe_face = sketcher(description, side)
        found, off_inner = _panel_check(pixels, drawing, name, describe_face)
        failures += found
        marked, paper, placed = marker(description, side)
        marks += _mark_check(pixels, marked, paper, name, placed, off_inner if marked is drawing else None)
    return failures + marks


class Memo:
    """The last ``size`` results of a function of hashable keys, which can also be handed results worked out
    ahead (``put``)."""

    def __init__(self, make: Callable[..., Any], size: int = 32):
        self.make, self.size, self.kept = make, size, {}

    def __call__(self, *key: Any) -> Any:
        if key not in self.kept:
            self.put(key, self.make(*key))
        return self.kept[key]

    def __contains__(self, key: tuple) -> bool:
        return key in self.kept

    def cache_clear(self) -> None:
        """Forget every result."""
        self.kept.clear()

    def put(self, key: tuple, value: Any) -> None:
        """Keep ``value`` as the result for ``key``, forgetting the oldest beyond ``size``."""
        self.kept[key] = value
        while len(self.kept) > self.size:
            del self.kept[next(iter(self.kept))]
