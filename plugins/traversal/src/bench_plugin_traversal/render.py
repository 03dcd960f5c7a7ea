"""Drawing a traversal scene: the target polyline, optional grey spurs, and a glyph on every vertex.

Drawn at ``SUPERSAMPLE`` times the view size with Pillow and reduced with a box filter, which gives
anti-aliased lines and glyph edges at a fraction of the cost of an antialiasing library.
"""

from __future__ import annotations

from collections.abc import Sequence

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


@attrs.frozen
class Scene:
    """Everything drawn in one image: view size, path vertices, spur segments and one token per vertex."""

    view: int
    points: np.ndarray = attrs.field(eq=False, repr=False)
    tokens: tuple[str, ...]
    spurs: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()
    glyph_radius: float = GLYPH_RADIUS_PX


def render_scene(scene: Scene) -> Image.Image:
    """Draw ``scene`` as an RGB image of ``view`` x ``view`` pixels."""
    s = SUPERSAMPLE
    size = scene.view * s
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for p0, p1 in scene.spurs:
        _thick_line(draw, [p0, p1], SPUR_WIDTH_PX * s, SPUR_COLOUR, s)
    points = [(float(x) * s, float(y) * s) for x, y in scene.points]
    _thick_line(draw, points, LINE_WIDTH_PX * s, LINE_COLOUR, 1)
    r = scene.glyph_radius * s
    outline = max(1, round(OUTLINE_WIDTH_PX * s))
    for (x, y), token in zip(points, scene.tokens, strict=True):
        colour, shape = split_token(token)
        fill = COLOURS[colour]
        if shape == "circle":
            rr = r * 0.98
            draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill, outline=OUTLINE, width=outline)
        else:
            draw.polygon(shape_polygon(shape, x, y, r), fill=fill, outline=OUTLINE, width=outline)
    return image.reduce(s) if s > 1 else image


def _thick_line(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], width: float,
                colour: tuple[int, int, int], scale: float) -> None:
    """A polyline with round joints and caps (Pillow's own joints leave notches at sharp turns)."""
    pts = [(x * scale, y * scale) for x, y in points]
    w = max(1, round(width))
    draw.line(pts, fill=colour, width=w)
    half = width / 2.0
    for x, y in pts:
        draw.ellipse((x - half, y - half, x + half, y + half), fill=colour)
