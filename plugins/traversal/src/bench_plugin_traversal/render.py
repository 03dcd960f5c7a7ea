"""Drawing a traversal scene: the target polyline, optional grey spurs, and a glyph marker on every vertex.

Drawn at ``SUPERSAMPLE`` times the view size with Pillow and reduced with a box filter, which gives
anti-aliased lines and glyph edges at a fraction of the cost of an antialiasing library.  The image is a
function of the ``Scene`` alone, and ``Scene.record()`` is the JSON scene record stored with the item
(``metadata["scene"]``), holding exactly the numbers that were drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
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
    """Draw ``scene`` as an RGB image of ``view`` x ``view`` pixels: spurs, then the line, then the markers."""
    s = SUPERSAMPLE
    size = scene.view * s
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for p0, p1 in scene.spurs:
        _thick_line(draw, [p0, p1], SPUR_WIDTH_PX * s, SPUR_COLOUR, s)
    _thick_line(draw, scene.line, LINE_WIDTH_PX * s, LINE_COLOUR, s)
    r = scene.glyph_radius * s
    outline = max(1, round(OUTLINE_WIDTH_PX * s))
    for marker in scene.markers:
        x, y = marker.x * s, marker.y * s
        fill = COLOURS[marker.colour]
        if marker.shape == "circle":
            rr = r * 0.98
            draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill, outline=OUTLINE, width=outline)
        else:
            draw.polygon(shape_polygon(marker.shape, x, y, r), fill=fill, outline=OUTLINE, width=outline)
    return image.reduce(s) if s > 1 else image


def _thick_line(draw: ImageDraw.ImageDraw, points: Sequence[Point], width: float,
                colour: tuple[int, int, int], scale: float) -> None:
    """A polyline with round joints and caps (Pillow's own joints leave notches at sharp turns)."""
    pts = [(x * scale, y * scale) for x, y in points]
    w = max(1, round(width))
    draw.line(pts, fill=colour, width=w)
    half = width / 2.0
    for x, y in pts:
        draw.ellipse((x - half, y - half, x + half, y + half), fill=colour)
