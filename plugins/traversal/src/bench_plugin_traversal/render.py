"""Drawing a traversal scene: the target polyline, optional grey spurs, and a glyph marker on every vertex.

Drawn at ``SUPERSAMPLE`` times the view size with Pillow and reduced with a box filter, which gives
anti-aliased lines and glyph edges at a fraction of the cost of an antialiasing library.  The image is a
function of the ``Scene`` alone, and ``Scene.record()`` is the JSON scene record stored with the item
(``metadata["scene"]``), holding exactly the numbers that were drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_traversal.glyphs import COLOURS, OUTLINE, shape_polygon, split_token

SUPERSAMPLE = 2
BACKGROUND = (255, 255, 255)
#: Target line: dark and 3 px wide so it contrasts with the lighter, similar-width spurs (spec §2.1 [I]).
LINE_COLOUR = (32, 32, 32)
LINE_WIDTH_PX = 3.0
#: Grey spur style read from the published confound data (#7a7a7a, 3.2 px).
SPUR_COLOUR = (122, 122, 122)
SPUR_WIDTH_PX = 3.2
GLYPH_RADIUS_PX = 12.0
OUTLINE_WIDTH_PX = 1.25

Point = tuple[float, float]


@attrs.frozen
class Marker:
    """One glyph marker: its centre in view pixels and its token's colour and shape."""

    x: float
    y: float
    colour: str
    shape: str

    @property
    def token(self) -> str:
        return f"{self.colour} {self.shape}"


@attrs.frozen
class Scene:
    """Everything drawn in one image: the line through ``line`` (vertices in drawing order), the grey
    ``spurs`` ((anchor, free end) pairs) and the ``markers``.  Coordinates are plain floats, already
    quantised by the generator, so what is drawn is exactly what ``record`` stores."""

    view: int
    line: tuple[Point, ...]
    markers: tuple[Marker, ...]
    spurs: tuple[tuple[Point, Point], ...] = ()
    start: str = ""
    glyph_radius: float = GLYPH_RADIUS_PX

    @classmethod
    def on_vertices(cls, view: int, points: Sequence[Sequence[float]], tokens: Sequence[str],
                    spurs: Sequence[tuple[Point, Point]] = ()) -> Scene:
        """The scene with ``tokens[k]`` drawn on vertex ``k`` of the line through ``points``; the START token
        is ``tokens[0]``."""
        line = tuple((float(x), float(y)) for x, y in points)
        markers = tuple(Marker(x, y, *split_token(t)) for (x, y), t in zip(line, tokens, strict=True))
        spur_pairs = tuple(((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))) for a, b in spurs)
        return cls(view, line, markers, spur_pairs, tokens[0] if tokens else "")

    def record(self) -> dict[str, Any]:
        """The JSON scene record: image size, background, the line (colour, width, vertices in drawing
        order), the spurs (colour, width, [anchor, free end] segments), the markers (radius, outline colour
        and, sorted by position so the record does not list them in walking order, each centre, colour
        name, RGB and shape) and the START token."""
        markers = sorted(self.markers, key=lambda m: (m.x, m.y))
        return {
            "image_size": [self.view, self.view],
            "background": list(BACKGROUND),
            "line": {"rgb": list(LINE_COLOUR), "width": LINE_WIDTH_PX, "vertices": [[x, y] for x, y in self.line]},
            "spurs": {"rgb": list(SPUR_COLOUR), "width": SPUR_WIDTH_PX,
                      "segments": [[[a[0], a[1]], [b[0], b[1]]] for a, b in self.spurs]},
            "markers": {
                "radius": self.glyph_radius,
                "outline_rgb": list(OUTLINE),
                "items": [{"at": [m.x, m.y], "colour": m.colour, "rgb": list(COLOURS[m.colour]), "shape": m.shape}
                          for m in markers],
            },
            "start": self.start,
        }


def render_scene(scene: Scene) -> Image.Image:
    """Draw ``scene`` as an image of ``view`` x ``view`` pixels: spurs, then the line, then the markers.  The
    image is the palette image (mode "P") the core would write for the RGB picture (``_palette_compose``), so
    the core encodes it as it is; an RGB image where the picture has more colours than a palette holds.

    The spurs and the line are grey, so they are drawn at ``SUPERSAMPLE`` times the size in one 8-bit grey
    plane and reduced there (a quarter of the bytes of an RGB canvas); the markers are then drawn over small
    patches of that plane (``_marker_patches``: one per group of markers whose glyphs may touch), turned RGB
    and reduced into place.  The pixels are exactly those of drawing everything on one RGB canvas and
    reducing it (``_render_rgb``): a patch's corners are on whole output pixels, so the box filter sees the
    same blocks, and glyph coordinates are shifted by whole pixels after they are worked out, which Pillow
    rasterises alike.  Pillow's wide polygon outline masks with an image of the canvas's size, which a patch
    also keeps small.  ``_render_rgb`` returns the RGB picture itself."""
    s = SUPERSAMPLE
    if s == 1 or not all(len(set(c)) == 1 for c in (BACKGROUND, LINE_COLOUR, SPUR_COLOUR)):
        return _render_rgb(scene)
    size = scene.view * s
    grey = Image.new("L", (size, size), BACKGROUND[0])
    draw = ImageDraw.Draw(grey)
    for p0, p1 in scene.spurs:
        _thick_line(draw, [p0, p1], SPUR_WIDTH_PX * s, SPUR_COLOUR[0], s)
    _thick_line(draw, scene.line, LINE_WIDTH_PX * s, LINE_COLOUR[0], s)
    patches = []
    for box, group in _marker_patches(scene, size):
        left, top = box[0], box[1]
        patch = grey.crop(box).convert("RGB")
        patch_draw = ImageDraw.Draw(patch)
        for marker in group:
            _draw_marker(patch_draw, marker, scene.glyph_radius * s, s, left, top)
        patches.append(((left // s, top // s), patch.reduce(s)))
    grey = grey.reduce(s)
    image = _palette_compose(grey, patches)
    if image is None:  # more colours than a palette holds: the RGB picture itself
        image = grey.convert("RGB")
        for corner, patch in patches:
            image.paste(patch, corner)
    return image


def _palette_compose(grey: Image.Image, patches: Sequence[tuple[tuple[int, int], Image.Image]]) -> Image.Image | None:
    """The grey plane ``grey`` with the RGB ``patches`` pasted over it in order, as the palette image the
    core writes for that RGB picture (``bench_core.images.palette_image``: its colours in ascending (r, g, b) order,
    each pixel the index of its exact colour), composed from the grey levels and the small patches without
    building the RGB picture; None if it shows more than 256 colours.

    The colours are the grey levels left showing outside the patches (the plane's level counts less those of
    the pixels each patch covers) and the colours of each patch where no later patch covers it; grey pixels
    take their index through a table of 256 levels, patch pixels by a search of the sorted palette."""
    width, height = grey.size
    plane_bytes = grey.tobytes()
    plane = np.frombuffer(plane_bytes, dtype=np.uint8).reshape(height, width)
    counts = _level_counts(plane_bytes)
    # (r << 16) | (g << 8) | b of every patch pixel: ascending keys are colours in ascending (r, g, b) order
    keys = [np.frombuffer(patch.tobytes("raw", "XBGR"), dtype="<u4") >> 8 for _, patch in patches]
    shown, covered = [], []
    for k, ((x, y), patch) in enumerate(patches):
        w, h = patch.size
        visible = None
        for (x2, y2), later in patches[k + 1:]:
            x0, y0 = max(x, x2), max(y, y2)
            x1, y1 = min(x + w, x2 + later.size[0]), min(y + h, y2 + later.size[1])
            if x0 < x1 and y0 < y1:
                if visible is None:
                    visible = np.ones((h, w), dtype=bool)
                visible[y0 - y:y1 - y, x0 - x:x1 - x] = False
        under = plane[y:y + h, x:x + w].reshape(-1)
        shown.append(keys[k] if visible is None else keys[k][visible.reshape(-1)])
        covered.append(under if visible is None else under[visible.reshape(-1)])
    if covered:
        counts -= np.bincount(np.concatenate(covered), minlength=256)
    levels = np.flatnonzero(counts).astype(np.uint32)
    palette = np.unique(np.concatenate([levels * np.uint32(0x010101), *shown]))
    if len(palette) > 256:
        return None
    table = np.zeros(256, dtype=np.uint8)
    table[levels] = np.searchsorted(palette, levels * np.uint32(0x010101))
    index = grey.point(table.tolist())
    if patches:
        # a pixel a later patch covers may have no index (it is pasted over): any byte does
        indices = np.searchsorted(palette, np.concatenate(keys)).astype(np.uint8).tobytes()
        offset = 0
        for (corner, patch), patch_keys in zip(patches, keys, strict=True):
            part = indices[offset:offset + len(patch_keys)]
            offset += len(patch_keys)
            index.paste(Image.frombuffer("L", patch.size, part, "raw", "L", 0, 1), corner)
    image = index.convert("P")
    rgb = np.stack([palette >> 16, (palette >> 8) & 0xFF, palette & 0xFF], axis=1).astype(np.uint8)
    image.putpalette(rgb.tobytes())
    return image


_WHITE_WORD = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


def _level_counts(plane: bytes) -> np.ndarray:
    """How many bytes of ``plane`` hold each level 0-255 (int64): counted in the 8-byte words that are not
    all 255 (the background, most of a line drawing), every other word adding 8 to level 255."""
    tail = len(plane) % 8
    words = np.frombuffer(plane, dtype=np.uint64, count=len(plane) // 8)
    inked = np.flatnonzero(words != _WHITE_WORD)
    counts = np.bincount(words[inked].view(np.uint8), minlength=256)
    counts[255] += 8 * (len(words) - len(inked))
    if tail:
        counts += np.bincount(np.frombuffer(plane, dtype=np.uint8)[len(plane) - tail:], minlength=256)
    return counts


def _marker_patches(scene: Scene, size: int) -> list[tuple[tuple[int, int, int, int], list[Marker]]]:
    """The markers in groups whose reach boxes overlap (directly or through others), each group with the box
    on the supersampled canvas holding all its glyphs, its corners on multiples of ``SUPERSAMPLE`` (clipped
    to the canvas), and its markers in drawing order."""
    s = SUPERSAMPLE
    reach = MARKER_REACH * scene.glyph_radius * s + 4.0
    groups = [([m], [m.x * s - reach, m.y * s - reach, m.x * s + reach, m.y * s + reach]) for m in scene.markers]
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                a, b = groups[i][1], groups[j][1]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    members = groups[i][0] + groups[j][0]
                    box = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    groups[i] = (members, box)
                    del groups[j]
                    merged = True
                    break
            if merged:
                break
    order = {id(m): k for k, m in enumerate(scene.markers)}
    out = []
    for members, (x0, y0, x1, y1) in groups:
        box = (max(0, math.floor(x0 / s) * s), max(0, math.floor(y0 / s) * s),
               min(size, math.ceil(x1 / s) * s), min(size, math.ceil(y1 / s) * s))
        out.append((box, sorted(members, key=lambda m: order[id(m)])))
    return out


#: How far a glyph may reach from its centre, in glyph radii (the star's points reach 1.25; ``_marker_patches``
#: adds 4 supersampled pixels more for anti-aliasing and outlines).
MARKER_REACH = 1.4


def _render_rgb(scene: Scene) -> Image.Image:
    """``render_scene`` on one RGB canvas (any colours)."""
    s = SUPERSAMPLE
    size = scene.view * s
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for p0, p1 in scene.spurs:
        _thick_line(draw, [p0, p1], SPUR_WIDTH_PX * s, SPUR_COLOUR, s)
    _thick_line(draw, scene.line, LINE_WIDTH_PX * s, LINE_COLOUR, s)
    for marker in scene.markers:
        _draw_marker(draw, marker, scene.glyph_radius * s, s, 0, 0)
    return image.reduce(s) if s > 1 else image


def _draw_marker(draw: ImageDraw.ImageDraw, marker: Marker, r: float, scale: float, left: int, top: int) -> None:
    """One glyph of radius ``r`` (drawing pixels) at the marker's centre times ``scale``, drawn on a canvas
    whose pixel (0, 0) is drawing pixel (``left``, ``top``)."""
    x, y = marker.x * scale, marker.y * scale
    fill = COLOURS[marker.colour]
    outline = max(1, round(OUTLINE_WIDTH_PX * scale))
    # coordinates are worked out on the whole canvas and then shifted by whole pixels, which is exact (the
    # shift is an integer no larger than the coordinate), so a glyph rounds to the same pixels on any patch
    if marker.shape == "circle":
        rr = r * 0.98
        draw.ellipse((x - rr - left, y - rr - top, x + rr - left, y + rr - top), fill=fill, outline=OUTLINE,
                     width=outline)
    else:
        polygon = [(px - left, py - top) for px, py in shape_polygon(marker.shape, x, y, r)]
        draw.polygon(polygon, fill=fill, outline=OUTLINE, width=outline)


def _thick_line(draw: ImageDraw.ImageDraw, points: Sequence[Point], width: float,
                colour: tuple[int, int, int] | int, scale: float) -> None:
    """A polyline with round joints and caps (Pillow's own joints leave notches at sharp turns)."""
    pts = [(x * scale, y * scale) for x, y in points]
    w = max(1, round(width))
    draw.line(pts, fill=colour, width=w)
    half = width / 2.0
    for x, y in pts:
        draw.ellipse((x - half, y - half, x + half, y + half), fill=colour)
