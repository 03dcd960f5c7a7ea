"""``kit.motifs.render`` reduces only the block-aligned window around the ink its primitives can reach: the same
bytes as the whole-canvas box reduction it replaced, on many random motifs of every family, size and fill."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx.kit import motifs
from PIL import Image, ImageDraw
from shapely.geometry import MultiPolygon


def _whole_canvas_render(spec, size, fill=0.86):
    """The render this shortcut replaced: the whole supersampled canvas reduced by a box filter."""
    big = size * motifs.SUPERSAMPLE
    canvas = Image.new("RGB", (big, big), (255, 255, 255))
    draw = ImageDraw.Draw(canvas)
    half = big * fill / 2

    def px(points):
        return motifs._pixel_points(points, big / 2, half)

    for prim in motifs.kept_primitives(spec):
        if prim[0] == "poly":
            geometries = prim[1].geoms if isinstance(prim[1], MultiPolygon) else [prim[1]]
            for geometry in geometries:
                if geometry.is_empty or not hasattr(geometry, "exterior"):
                    continue
                draw.polygon(px(geometry.exterior.coords), fill=prim[2])
                for hole in geometry.interiors:
                    draw.polygon(px(hole.coords), fill=(255, 255, 255))
        elif prim[0] == "line":
            width = max(1, round(prim[2] * half))
            pts = px(prim[1])
            draw.line(pts, fill=prim[3], width=width, joint="curve")
            for x, y in (pts[0], pts[-1]):
                r = width / 2
                draw.ellipse((x - r, y - r, x + r, y + r), fill=prim[3])
        elif prim[0] == "text":
            layer = Image.new("RGB", (big, big), (255, 255, 255))
            face = motifs._font(round(half * 1.9))
            ImageDraw.Draw(layer).text((big / 2, big / 2), prim[1], fill=prim[3], font=face, anchor="mm")
            layer = layer.rotate(90 * prim[2])
            canvas = Image.fromarray(np.minimum(np.asarray(canvas), np.asarray(layer)))
            draw = ImageDraw.Draw(canvas)
    return np.asarray(canvas.resize((size, size), Image.Resampling.BOX))


def test_a_white_block_reduces_to_white():
    assert motifs._white_block() == 255


@pytest.mark.parametrize("seed", range(3))
def test_the_windowed_render_equals_the_whole_canvas_render(seed):
    rng = np.random.default_rng(seed)
    for family in motifs.FAMILIES:
        for mode in motifs.MODES:
            for _ in range(2):
                spec = motifs.sample(family, rng, mode)
                size = int(rng.choice([24, 40, 64, 81, 96, 119, 130, 200, 260, 284]))
                fill = float(rng.choice([0.5, 0.8, 0.86, 0.95, 1.0]))
                assert np.array_equal(motifs.render(spec, size, fill), _whole_canvas_render(spec, size, fill)), \
                    (family, mode, size, fill, spec)
