"""The renderer's contour-line generator built directly (``plotting.DIRECT_LINES``), held to contourpy's public
route it replaced: the same lines point for point, and the same pixels drawn."""

from __future__ import annotations

import numpy as np

from bench_plugin_marvl import plotting


def _lines_of(generator, levels):
    return [[line.tolist() for line in lines] for lines in generator.multi_lines(levels)]


def test_the_direct_line_generator_traces_the_public_routes_lines():
    """``_line_generator`` against ``contourpy.contour_generator`` on the masked field: the same lines, point for
    point, with no sample hidden, with flat stretches hidden, with undefined samples, on a non-square grid."""
    import contourpy

    x, y = plotting.sample_grid((-5.0, 5.0, -5.0, 5.0))
    z = np.sin(1.3 * x) * np.cos(0.8 * y) + 0.4 * np.exp(-((x - 1) ** 2 + y**2))
    flat = z.copy()
    flat[:60] = 0.0
    holes = flat.copy()
    holes[100:120, 50:90] = np.nan
    holes[300, 300] = np.inf
    wide = z[:150, :310]
    for field in (z, flat, holes, wide):
        rows, cols = field.shape
        xs, ys = plotting.sample_axis(-5.0, 5.0, cols), plotting.sample_axis(-3.0, 2.0, rows)
        lo, hi = plotting.value_range(field)
        hidden = ~np.isfinite(field) | plotting.flat_samples(field, min(plotting.FLAT_SPAN, 1e-3 * (hi - lo)))
        levels = plotting.contour_levels(lo, hi)
        public = contourpy.contour_generator(xs, ys, np.ma.masked_where(hidden, field) if hidden.any() else field,
                                             line_type="Separate")
        direct = plotting._line_generator(xs, ys, field, hidden)
        assert type(direct) is type(public)
        assert _lines_of(direct, levels) == _lines_of(public, levels)


def test_contour_styles_draw_the_same_pixels_with_either_line_generator(monkeypatch):
    x, y = plotting.sample_grid((-5.0, 5.0, -5.0, 5.0))
    z = np.sin(1.3 * x) * np.cos(0.8 * y) + 0.4 * np.exp(-((x - 1) ** 2 + y**2))
    z[:60] = 0.0
    z[100:120, 50:90] = np.nan
    for style in ("contour", "heatmap-contour-inferno"):
        images = []
        for direct in (True, False):
            monkeypatch.setattr(plotting, "DIRECT_LINES", direct)
            images.append(plotting.render_plot(z, (-5, 5, -5, 5), style, dashes="hollows").tobytes())
            images.append(plotting.render_pair(z, z[::-1], (-5, 5, -5, 5), style, "contour").tobytes())
        assert images[:2] == images[2:], style

