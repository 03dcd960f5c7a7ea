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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import shapely
from PIL import Image, ImageDraw

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
    """A sketch: ``rgb`` (side x side x 3, uint8), ``ids`` (face index per pixel, -1 for background),
    ``colours`` (the colour each face must show, float RGB), ``inner`` (pixels at least two pixels from
    any outline, where a face's colour can be read exactly) and ``agreement`` (the least share of a face's
    inner pixels that must show its colour)."""

    rgb: np.ndarray
    ids: np.ndarray
    colours: np.ndarray
    inner: np.ndarray
    agreement: float = FACE_AGREEMENT


def camera_basis(elevation: float, azimuth: float) -> np.ndarray:
    """Rows: screen right, screen up and the direction towards the viewer, for an orthographic camera at
    ``elevation``/``azimuth`` degrees with world z up."""
    el, az = math.radians(elevation), math.radians(azimuth)
    toward = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    right = np.array([-toward[1], toward[0], 0.0])  # z x toward
    right /= math.hypot(right[0], right[1])
    up = np.cross(toward, right)
    return np.stack([right, up, toward])


def rasterise(xs: np.ndarray, ys: np.ndarray, side: int, depth: np.ndarray | None = None,
              ids: np.ndarray | None = None, labels: Sequence[int] | None = None) -> np.ndarray:
    """Fill convex polygons into a ``side`` x ``side`` map of polygon labels (-1 where none): polygon k has
    corners ``xs[k]``, ``ys[k]`` (pixel units, either winding; pad short ones by repeating a corner) and
    covers the pixels whose centres lie inside it.  Where polygons overlap, the one with the larger
    ``depth`` (k x 3: z = a x + b y + c over pixel centres) wins; without depths the polygons must not
    overlap (they may share edges, whose pixels go to either).  All polygons are filled at once: every
    (polygon, pixel of its box) pair is one array element.  ``ids``, if given, is filled in place (it must be
    C-contiguous)."""
    ids = np.full((side, side), -1, dtype=np.int32) if ids is None else ids
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    labels = np.arange(len(xs)) if labels is None else np.asarray(labels)
    if not len(xs):
        return ids
    x0 = np.clip(np.floor(xs.min(axis=1)), 0, side).astype(np.int64)
    x1 = np.clip(np.ceil(xs.max(axis=1)), 0, side).astype(np.int64)
    y0 = np.clip(np.floor(ys.min(axis=1)), 0, side).astype(np.int64)
    y1 = np.clip(np.ceil(ys.max(axis=1)), 0, side).astype(np.int64)
    nx, ny = np.roll(xs, -1, axis=1), np.roll(ys, -1, axis=1)
    sign = np.sign((xs * ny - nx * ys).sum(axis=1))
    width, height = x1 - x0, y1 - y0
    rows_of = np.where((sign != 0) & (width > 0) & (height > 0), height, 0)
    # corner k to k+1: inside where sign * (e x (p - corner)) >= 0, i.e. a * y - b * x - c >= 0
    a, b = sign[:, None] * (nx - xs), sign[:, None] * (ny - ys)
    c = a * ys - b * xs
    # one entry per pixel row of every polygon's box (polygon by polygon, top to bottom)
    owner_row = np.repeat(np.arange(len(xs)), rows_of)
    if not len(owner_row):
        return ids
    row = y0[owner_row] + np.arange(len(owner_row)) - np.repeat(np.cumsum(rows_of) - rows_of, rows_of)
    first, last = _row_spans(a, b, c, x0, x1, owner_row, row + 0.5)
    counts = np.maximum(last - first + 1, 0)
    owner = np.repeat(owner_row, counts)
    row = np.repeat(row, counts)
    col = np.repeat(first, counts) + np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
    pixel = row * side + col
    if depth is not None:  # keep, per pixel, the nearest polygon
        z = depth[owner, 0] * (col + 0.5) + depth[owner, 1] * (row + 0.5) + depth[owner, 2]
        nearest = np.full(side * side, -np.inf)
        np.maximum.at(nearest, pixel, z)
        front = z >= nearest[pixel]
        pixel, owner = pixel[front], owner[front]
    ids.reshape(-1)[pixel] = labels[owner]
    return ids


#: Edges whose row step (``b`` in ``rasterise``) is smaller than this, but not 0, have their crossing of a pixel
#: row worked out pixel by pixel (a division by it would not place the crossing to a pixel).
_STEEP = 1e-3
#: Pixels tested either side of a row's estimated first and last covered pixel.
_BAND = 2


def _inside(a: np.ndarray, b: np.ndarray, c: np.ndarray, owner: np.ndarray, cy: np.ndarray, col: np.ndarray
            ) -> np.ndarray:
    """Whether pixel (``col``, row centre ``cy``) lies in polygon ``owner``: the edge test of ``rasterise``."""
    cx = col + 0.5
    inside = np.ones(len(owner), dtype=bool)
    for k in range(a.shape[1]):
        inside &= a[owner, k] * cy - b[owner, k] * cx - c[owner, k] >= -1e-9
    return inside


def _row_spans(a: np.ndarray, b: np.ndarray, c: np.ndarray, x0: np.ndarray, x1: np.ndarray, owner: np.ndarray,
               cy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each pixel row (polygon ``owner``, centre ``cy``) the first and last column whose pixel centre
    passes ``_inside`` (first > last where none does), exactly as testing every pixel of the box would.

    Each edge's test, as computed in floating point, holds on a run of columns that starts or ends the row
    (its value moves one way as the column grows), so the covered pixels of a row are one run.  Its ends are
    estimated by solving each edge's test for the column and confirmed by testing the ``_BAND`` pixels either
    side of them; rows with an edge too close to horizontal to solve for, and short rows, are tested pixel by
    pixel."""
    lo, hi = x0[owner], x1[owner] - 1
    start, stop = lo.astype(float), hi.astype(float)
    level = np.zeros(len(owner), dtype=bool)  # an edge too flat to solve for
    for k in range(a.shape[1]):
        bk = b[owner, k]
        rest = a[owner, k] * cy - c[owner, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            at = (rest + 1e-9) / bk - 0.5  # the column where the edge's test turns
        start = np.where(bk < 0, np.maximum(start, np.ceil(at)), start)
        stop = np.where(bk > 0, np.minimum(stop, np.floor(at)), stop)
        level |= (bk == 0) & (rest < -1e-9)  # a flat edge the whole row lies outside of: tested below
        level |= (bk != 0) & (np.abs(bk) < _STEEP)
    start = np.clip(start, lo - 1, hi + 1).astype(np.int64)
    stop = np.clip(stop, lo - 1, hi + 1).astype(np.int64)
    near_from = np.maximum(lo, start - _BAND)  # the covered run lies within [near_from, near_to]
    near_to = np.minimum(hi, stop + _BAND)
    whole = level | (near_to - near_from < 4 * _BAND + 2)
    near_from = np.where(level, lo, near_from)
    near_to = np.where(level, hi, near_to)
    # the pixels to test: every one of a whole row, the two bands of any other
    left_to = np.where(whole, near_to, near_from + 2 * _BAND)
    right_from = np.where(whole, near_to + 1, near_to - 2 * _BAND)
    spans = [(near_from, np.maximum(left_to - near_from + 1, 0)), (right_from, np.maximum(near_to - right_from + 1, 0))]
    first = np.full(len(owner), np.iinfo(np.int64).max)
    last = np.full(len(owner), np.iinfo(np.int64).min)
    for begin, count in spans:
        which = np.repeat(np.arange(len(owner)), count)
        col = np.repeat(begin, count) + np.arange(len(which)) - np.repeat(np.cumsum(count) - count, count)
        hit = _inside(a, b, c, owner[which], cy[which], col)
        rows, cols = which[hit], col[hit]  # by row, columns rising within a row
        if len(rows):
            change = np.flatnonzero(rows[1:] != rows[:-1])
            starts, ends = np.concatenate([[0], change + 1]), np.concatenate([change, [len(rows) - 1]])
            first[rows[starts]] = np.minimum(first[rows[starts]], cols[starts])
            last[rows[ends]] = np.maximum(last[rows[ends]], cols[ends])
    # a row tested in two bands covers everything between them
    banded = ~whole & (first <= last)
    first = np.where(banded | whole, first, 0)
    last = np.where(banded | whole, last, -1)
    empty = first > last
    return np.where(empty, 0, first), np.where(empty, -1, last)


def _padded(points: Sequence[Sequence[Sequence[float]]]) -> tuple[np.ndarray, np.ndarray]:
    """Polygons of different corner counts as two (polygons x most corners) arrays, short ones padded by
    repeating their last corner (a zero-length edge changes nothing)."""
    most = max(len(p) for p in points)
    padded = np.array([[*p, *[p[-1]] * (most - len(p))] for p in points], dtype=float)
    return padded[..., 0], padded[..., 1]


def _dilate(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` grown by ``radius`` pixels (square neighbourhood)."""
    out = mask
    for _ in range(radius):
        grown = out.copy()
        grown[1:] |= out[:-1]
        grown[:-1] |= out[1:]
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def finish(ids: np.ndarray, groups: np.ndarray, colours: np.ndarray, edge_width: float) -> Drawing:
    """Colour a face-index map: faces in ``colours``, outlines ``edge_width`` pixels wide in the edge colour
    where the outline group (``groups[face]``; background is its own group) changes."""
    side = ids.shape[0]
    rgb = np.full((side, side, 3), 255, dtype=np.uint8)
    inner = np.zeros(ids.shape, dtype=bool)
    shown = ids >= 0
    rows, cols = np.flatnonzero(shown.any(axis=1)), np.flatnonzero(shown.any(axis=0))
    if not len(rows):
        return Drawing(rgb, ids, np.asarray(colours, dtype=float), inner)
    radius = max(0, round((edge_width - 2) / 2))
    margin = radius + 4
    r0, r1 = max(rows[0] - margin, 0), min(rows[-1] + margin + 1, side)
    c0, c1 = max(cols[0] - margin, 0), min(cols[-1] + margin + 1, side)
    window = ids[r0:r1, c0:c1]
    group = np.concatenate([[-1], np.asarray(groups, dtype=np.int64)])[window + 1]
    boundary = np.zeros(window.shape, dtype=bool)
    across = group[:, 1:] != group[:, :-1]
    boundary[:, 1:] |= across
    boundary[:, :-1] |= across
    down = group[1:] != group[:-1]
    boundary[1:] |= down
    boundary[:-1] |= down
    line = _dilate(boundary, radius)
    palette = np.vstack([[255.0, 255.0, 255.0], np.clip(np.rint(colours), 0, 255), EDGE]).astype(np.uint8)
    index = window + 1
    index[line] = len(palette) - 1
    rgb[r0:r1, c0:c1] = palette[index]
    inner[r0:r1, c0:c1] = (window >= 0) & ~_dilate(line, 2)
    return Drawing(rgb, ids, np.asarray(colours, dtype=float), inner)


def draw_faces(vertices: np.ndarray, faces: Sequence[Sequence[int]], colours: np.ndarray, groups: Sequence[int],
               view: Mapping[str, Any], side: int, normals: np.ndarray | None = None) -> Drawing:
    """Draw the planar convex faces of a closed surface (``vertices`` in world units, each face a vertex cycle)
    seen by the recorded camera (``view``: camera [elevation, azimuth], scale in pixels per unit, light,
    ambient, edge width), centred by its projected box like the panels, hidden faces removed per pixel.
    Outward ``normals`` (world space, one per face) are needed unless the solid is convex, when each face's
    normal is taken pointing away from the vertices' mean."""
    basis = camera_basis(*view["camera"])
    vertices = np.asarray(vertices, dtype=float)
    cam = vertices @ basis.T
    scale = float(view["scale"])
    middle = (cam[:, :2].min(axis=0) + cam[:, :2].max(axis=0)) / 2
    px = ((cam[:, 0] - middle[0]) * scale + side / 2).tolist()
    py = (side / 2 - (cam[:, 1] - middle[1]) * scale).tolist()
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
    ids = np.full((side, side), -1, dtype=np.int32)
    if len(shown):
        xs, ys = _padded([[(px[v], py[v]) for v in faces[k]] for k in shown.tolist()])
        plane = None
        if not convex:  # the faces of a convex solid that face the camera never cover one another
            # depth on each face's plane n . (q - q0) = 0 in camera coordinates, written over pixel centres
            n = facing[shown]
            q0 = cam[[faces[k][0] for k in shown.tolist()]]
            gx, gy = -n[:, 0] / (n[:, 2] * scale), n[:, 1] / (n[:, 2] * scale)
            offset = q0[:, 2] - gx * ((q0[:, 0] - middle[0]) * scale + side / 2)
            offset -= gy * (side / 2 - (q0[:, 1] - middle[1]) * scale)
            plane = np.stack([gx, gy, offset], axis=1)
        rasterise(xs, ys, side, plane, ids, shown)
    return finish(ids, np.asarray(groups), shaded, float(view["edge"]))


def draw_flat(polygons: Sequence[Sequence[Sequence[float]]], colours: np.ndarray, side: int, edge_width: float,
              masks: Sequence[tuple[tuple[int, int], np.ndarray]] = ()) -> Drawing:
    """Draw flat 2D shapes: convex ``polygons`` in pixel units that do not overlap, then any ready ``masks``
    (each a top-left (x, y) and a boolean array) over them; each shape its own outline group and colour, and
    ``FLAT_AGREEMENT`` of every shape's inner pixels must show it."""
    ids = np.full((side, side), -1, dtype=np.int32)
    if len(polygons):
        rasterise(*_padded(polygons), side, ids=ids)
    for k, ((x0, y0), mask) in enumerate(masks, start=len(polygons)):
        np.copyto(ids[y0:y0 + mask.shape[0], x0:x0 + mask.shape[1]], k, where=mask)
    count = len(polygons) + len(masks)
    drawing = finish(ids, np.arange(count), np.asarray(colours, dtype=float).reshape(count, 3), edge_width)
    return drawing._replace(agreement=FLAT_AGREEMENT)


def _darkest(pixels: np.ndarray) -> np.ndarray:
    """The darkest channel of every pixel (faster than a reduction over the colour axis)."""
    return np.minimum(np.minimum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])


def panel_failures(tile: np.ndarray, drawing: Drawing, name: str, describe_face: Any = None) -> list[str]:
    """What the panel's pixels (``tile``, side x side x 3) contradict in its sketch: a silhouette that
    overlaps too little, or faces whose inner pixels do not have the face's recorded colour.
    ``describe_face(k)`` names face k in messages (default "face k")."""
    failures: list[str] = []
    if tile.shape != drawing.rgb.shape:
        return [f"{name}: panel is {tile.shape}, sketch is {drawing.rgb.shape}"]
    drawn = _darkest(tile[3:-3, 3:-3]) < OBJECT_LEVEL  # the frame is the layout's, not the panel's
    sketched = _darkest(drawing.rgb[3:-3, 3:-3]) < OBJECT_LEVEL
    union = int(np.count_nonzero(drawn | sketched))
    iou = int(np.count_nonzero(drawn & sketched)) / union if union else 1.0
    if iou < MIN_SILHOUETTE_IOU:
        failures.append(f"{name}: the drawn silhouette overlaps the recorded object's by {iou:.0%} only")
    inner = drawing.inner[3:-3, 3:-3]
    ids = drawing.ids[3:-3, 3:-3][inner]
    if not len(ids):
        return failures
    expected = np.rint(drawing.colours).astype(np.int16)[ids]
    difference = np.abs(tile[3:-3, 3:-3][inner].astype(np.int16) - expected)
    wrong = np.maximum(np.maximum(difference[:, 0], difference[:, 1]), difference[:, 2]) > FACE_TOLERANCE
    count = np.bincount(ids, minlength=len(drawing.colours))
    bad = np.bincount(ids, weights=wrong, minlength=len(drawing.colours))
    for k in np.flatnonzero(count >= MIN_FACE_PIXELS).tolist():
        if bad[k] > (1 - drawing.agreement) * count[k]:
            what = describe_face(k) if describe_face else f"face {k}"
            failures.append(f"{name}: {what} does not show its recorded colour "
                            f"({bad[k] / count[k]:.0%} of its pixels differ)")
    return failures


#: A panel's sketch and a namer of its faces for messages (None: "face k").
Sketcher = Callable[[Mapping[str, Any], int], tuple[Drawing, Callable[[int], str] | None]]


class Panel(NamedTuple):
    """One panel of a scene record: its name in messages, its description and its pixels (RGB array)."""

    name: str
    description: Mapping[str, Any]
    pixels: np.ndarray


def scene_panels(scene: Mapping[str, Any], image: Any, query_name: str) -> list[Panel]:
    """The panels of a scene record (query panels, then options A, B, ...), each cut from ``image`` at its
    recorded box (a box off the canvas padded as Pillow pads) and converted once, for ``scene_failures`` and
    ``scene_mark_failures`` both."""
    queries = list(zip(scene["query"], scene["query_boxes"], strict=True))
    names = [query_name if len(queries) == 1 else f"{query_name} {k + 1}" for k in range(len(queries))]
    names += [f"option {chr(65 + k)}" for k in range(len(scene["options"]))]
    boxes = [*queries, *zip(scene["options"], scene["option_boxes"], strict=True)]
    rgb = image if getattr(image, "mode", "RGB") == "RGB" else image.convert("RGB")
    return [Panel(name, description, np.asarray(rgb.crop(tuple(box))))
            for name, (description, box) in zip(names, boxes, strict=True)]


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
#: as few as one such pixel: none is allowed.
EDGE_MATCH = 30
INNER_REACH = 2
PEN = 3.0
#: How far beyond the pen's reach (pixels, in squares) the paper zone begins: a pixel centre there has its whole
#: pixel a quarter pixel clear of the outline.
BEYOND_PEN = 0.75
PAPER_SLACK = 60
MARK_SLACK = {"outline": 0, "face": 3, "paper": 2}


def projected(vertices: np.ndarray, view: Mapping[str, Any], side: int) -> np.ndarray:
    """Pixel positions (x right, y down) of world ``vertices`` seen by the recorded camera and centred by their
    projected box, as ``draw_faces`` places them."""
    cam = np.asarray(vertices, dtype=float) @ camera_basis(*view["camera"]).T
    middle = (cam[:, :2].min(axis=0) + cam[:, :2].max(axis=0)) / 2
    scale = float(view["scale"])
    return np.stack([(cam[:, 0] - middle[0]) * scale + side / 2, side / 2 - (cam[:, 1] - middle[1]) * scale], axis=1)


def paper_zone(parts: Sequence[np.ndarray], side: int, reach: float = PEN / 2 + BEYOND_PEN) -> np.ndarray:
    """Pixels (side x side booleans) whose centres lie farther than ``reach`` (in squares: Chebyshev distance)
    outside a silhouette made of convex ``parts`` (each a k x 2 array of corners, pixel units): the silhouette
    swept by a square of half side ``reach`` is the union of each part's corners moved to the square's four
    corners and hulled, filled by its rings (holes cut back out).  The default is ``BEYOND_PEN`` beyond a 3D
    panel's outline."""
    corners = np.array([[-reach, -reach], [reach, -reach], [reach, reach], [-reach, reach]])
    points = np.concatenate([(np.asarray(p, dtype=float)[:, None, :] + corners[None]).reshape(-1, 2) for p in parts])
    owner = np.repeat(np.arange(len(parts)), [4 * len(p) for p in parts])
    grown = shapely.union_all(shapely.convex_hull(shapely.multipoints(points, indices=owner)))
    mask = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(mask)
    for part in getattr(grown, "geoms", [grown]):
        if part.is_empty:
            continue
        draw.polygon([(x - 0.5, y - 0.5) for x, y in part.exterior.coords], fill=255)
        for hole in part.interiors:
            draw.polygon([(x - 0.5, y - 0.5) for x, y in hole.coords], fill=0)
    return np.asarray(mask) == 0


def _off_by(pixels: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """The largest channel difference between every pixel and its colour (int16 arrays, ... x 3), channel by
    channel (faster than a reduction over the colour axis)."""
    d = np.abs(pixels - colours)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def mark_failures(tile: np.ndarray, drawing: Drawing, paper: np.ndarray, name: str, outline: bool = True) -> list[str]:
    """Small marks the silhouette and face-share checks let through: a gap or bite in an outline (outline
    pixels with no edge-coloured pixel within one pixel), a dot or line on a face (a face pixel two pixels clear
    of every outline off its colour), a dot, a line or an outline moved beside the object (a pixel of the
    ``paper`` zone, see ``paper_zone``, not paper).  ``outline`` False skips the first two, for drawings whose
    outlines the sketch does not place to a pixel.  The first two look only inside the box of the sketched
    object grown by a few pixels."""
    if tile.shape != drawing.rgb.shape:
        return []  # panel_failures reports the size
    counts = {}
    dark = (_darkest(tile[3:-3, 3:-3]) < 255 - PAPER_SLACK) & paper[3:-3, 3:-3]
    counts["paper"] = ("pixels beyond the silhouette's outline not paper (a mark beside it, or a moved edge)",
                       int(np.count_nonzero(dark)))
    rgb = drawing.rgb
    line = (rgb[..., 0] == EDGE[0]) & (rgb[..., 1] == EDGE[1]) & (rgb[..., 2] == EDGE[2])
    rows, cols = np.flatnonzero(line.any(axis=1)), np.flatnonzero(line.any(axis=0))
    if outline and len(rows):
        side = tile.shape[0]
        r0, r1 = max(rows[0] - 4, 3), min(rows[-1] + 5, side - 3)
        c0, c1 = max(cols[0] - 4, 3), min(cols[-1] + 5, side - 3)
        pixels = tile[r0:r1, c0:c1].astype(np.int16)
        ids = drawing.ids[r0:r1, c0:c1]
        line = line[r0:r1, c0:c1]
        changes = np.zeros(ids.shape, dtype=bool)
        changes[:, 1:] |= ids[:, 1:] != ids[:, :-1]
        changes[:, :-1] |= ids[:, 1:] != ids[:, :-1]
        changes[1:] |= ids[1:] != ids[:-1]
        changes[:-1] |= ids[1:] != ids[:-1]
        inked = _off_by(pixels, np.asarray(EDGE, dtype=np.int16)) <= EDGE_MATCH
        counts["outline"] = ("outline pixels with no edge colour beside them (a gap or a bite)",
                             int(np.count_nonzero(line & changes & ~_dilate(inked, 1))))
        inner = (ids >= 0) & ~_dilate(line, INNER_REACH)
        expected = np.rint(drawing.colours).astype(np.int16)[ids[inner]]
        counts["face"] = ("face pixels clear of the outlines off their face's colour (a mark on a face)",
                          int(np.count_nonzero(_off_by(pixels[inner], expected) > FACE_TOLERANCE)))
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
