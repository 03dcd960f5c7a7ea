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



def test_the_kept_colour_table_colours_as_the_colour_map_does(monkeypatch):
    """``colour_words`` against ``_cmap(name)(x, bytes=True)`` on values inside, at the ends of and outside the
    colour range and undefined; and the heatmap styles draw the same pixels either way."""
    rng = np.random.default_rng(3)
    x = rng.normal(0.5, 0.5, (120, 90))
    x.ravel()[::37] = np.nan
    x.ravel()[1::41] = 1.0
    x.ravel()[2::43] = 0.0
    x.ravel()[3::47] = -1e-300
    x.ravel()[4::53] = 1 - 1e-16
    x.ravel()[5::59] = np.inf
    x.ravel()[6::61] = -np.inf
    x.ravel()[7::67] = 255.5 / 256
    for name in plotting.COLORMAPS:
        expected = np.ascontiguousarray(plotting._cmap(name)(x, bytes=True)).view(np.uint32)[..., 0]
        assert np.array_equal(plotting.colour_words(x.copy(), name), expected), name
    z = np.sin(np.linspace(0, 9, 400))[:, None] * np.cos(np.linspace(0, 7, 400))[None, :]
    z[10:20, 30:60] = np.nan
    for style in ("heatmap-magma", "heatmap-contour-viridis"):
        images = []
        for fast in (True, False):
            monkeypatch.setattr(plotting, "FAST_COLOURS", fast)
            images.append(plotting.render_plot(z, (-5, 5, -5, 5), style, vmin=-0.9, vmax=0.8).tobytes())
            images.append(plotting.render_pair(z, z.T, (-5, 5, -5, 5), style, "heatmap-inferno").tobytes())
        assert images[:2] == images[2:], style


def test_the_kept_sample_mesh_is_numpys_meshgrid():
    xs, ys = plotting.sample_axis(-5.0, 5.0, 7), plotting.sample_axis(-2.0, 3.0, 5)
    for _ in range(2):
        kept = plotting._mesh(xs, ys)
        for a, b in zip(kept, np.meshgrid(xs, ys), strict=True):
            assert np.array_equal(a, b) and not a.flags.writeable


def test_value_range_is_the_range_of_the_finite_values():
    def definition(*grids):
        finite = np.concatenate([np.asarray(g, dtype=float).ravel() for g in grids])
        finite = finite[np.isfinite(finite)]
        if not finite.size:
            return 0.0, 1.0
        lo, hi = float(finite.min()), float(finite.max())
        if hi - lo <= 1e-12 * max(1.0, abs(lo), abs(hi)):
            return lo - 0.5, hi + 0.5
        return lo, hi

    cases = [([1.0, 2.0],), ([np.nan, 3.0, -1.0],), ([np.inf, 2.0, 5.0],), ([-np.inf],), ([],), ([np.nan],),
             ([0.0, -0.0, 4.0], [np.nan, 7.0]), ([2.0, 2.0],), ([1.0], [np.inf, -np.inf, 0.5])]
    for grids in cases:
        assert plotting.value_range(*[np.array(g, dtype=float) for g in grids]) == definition(*grids), grids


def test_the_image_is_the_canvas_rgba_converted_to_rgb():
    """``_draw`` reads the canvas's RGBA bytes as RGB with the fourth byte skipped: the RGBA image converted."""
    from PIL import Image

    z = np.sin(np.linspace(0, 9, 400))[:, None] * np.cos(np.linspace(0, 7, 400))[None, :]
    for render, layout, size in ((lambda: plotting.render_plot(z, (-5, 5, -5, 5), "heatmap-contour-viridis"), "plot",
                                  plotting.PLOT_SIZE),
                                 (lambda: plotting.render_pair(z, z.T, (-5, 5, -5, 5), "contour", "heatmap-magma"),
                                  "pair", plotting.PAIR_SIZE)):
        image = render()
        canvas = plotting._surfaces[(layout, tuple(size))].canvas
        expected = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba()).convert("RGB")
        assert image.mode == "RGB" and image.tobytes() == expected.tobytes()
