"""The MaRVL renderer: the nine styles, fixed axes and ticks, shared colour range, deterministic pixels."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import numpy as np
import pytest

from bench_plugin_marvl import plotting
from bench_plugin_marvl.descriptions.transformation import STYLES as DESCRIBED_STYLES

EXTENT = (-5.0, 5.0, -5.0, 5.0)


def _field(extent=EXTENT, n=plotting.PLOT_GRID):
    x, y = plotting.sample_grid(extent, n)
    return np.sin(1.3 * x) * np.cos(0.8 * y) + 0.4 * np.exp(-((x - 1) ** 2 + y**2))


def _plot_area(image, layout, k=0):
    left, top, right, bottom = plotting.axes_boxes(layout, image.size)[k]
    # stay 3 px inside the frame: the spine is drawn on the boundary
    return np.asarray(image.convert("RGB"))[top + 3:bottom - 3, left + 3:right - 3]


def test_the_nine_styles_of_the_paper():
    assert len(plotting.STYLES) == 9
    assert plotting.STYLES == DESCRIBED_STYLES
    assert [plotting.style_parts(s) for s in plotting.STYLES].count(("contour", None)) == 1
    for kind in ("heatmap", "heatmap-contour"):
        colormaps = [c for k, c in map(plotting.style_parts, plotting.STYLES) if k == kind]
        assert sorted(colormaps) == sorted(plotting.COLORMAPS)
    with pytest.raises(ValueError, match="unknown style"):
        plotting.style_parts("heatmap-jet")


def test_sample_grid_is_pixel_centred_rows_y_ascending():
    x, y = plotting.sample_grid((0, 4, 10, 12), 4)
    assert np.allclose(x[0], [0.5, 1.5, 2.5, 3.5])
    assert np.allclose(y[:, 0], [10.25, 10.75, 11.25, 11.75])


@pytest.mark.parametrize("style", plotting.STYLES)
def test_same_input_same_pixels(style):
    z = _field()
    first = plotting.render_plot(z, EXTENT, style)
    plotting.render_pair(z[::-1], z, (-3, 3, -3, 3), "contour", style)  # another state in between
    plotting.render_plot(z.T, (0, 1, 0, 1), "heatmap-magma", title="other")
    again = plotting.render_plot(z, EXTENT, style)
    assert first.tobytes() == again.tobytes()
    assert first.size == plotting.PLOT_SIZE


def test_a_fresh_process_draws_the_same_pair():
    z = _field()
    image = plotting.render_pair(z, np.rot90(z), EXTENT, "heatmap-contour-plasma", "contour")
    digest = hashlib.sha256(image.tobytes()).hexdigest()
    script = (
        "import hashlib, numpy as np, matplotlib\n"
        "matplotlib.rcParams.update({'font.size': 20, 'image.cmap': 'gray', 'axes.facecolor': 'red',"
        " 'lines.linewidth': 5, 'xtick.direction': 'in'})\n"  # a user's settings must not leak in
        "from bench_plugin_marvl import plotting\n"
        "x, y = plotting.sample_grid((-5, 5, -5, 5))\n"
        "z = np.sin(1.3 * x) * np.cos(0.8 * y) + 0.4 * np.exp(-((x - 1) ** 2 + y ** 2))\n"
        "im = plotting.render_pair(z, np.rot90(z), (-5, 5, -5, 5), 'heatmap-contour-plasma', 'contour')\n"
        "print(hashlib.sha256(im.tobytes()).hexdigest())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == digest


def test_settings_changed_between_draws_neither_leak_in_nor_are_lost():
    """After the first draw the pinned settings are stored without matplotlib's validation: a user's settings
    changed between draws still do not reach the pixels, and every draw gives them back afterwards."""
    import matplotlib

    z = _field()
    first = plotting.render_pair(z, z.T, EXTENT, "heatmap-contour-viridis", "contour")
    with matplotlib.rc_context({"lines.linewidth": 5.0, "font.size": 20.0, "axes.facecolor": "red",
                                "lines.antialiased": False, "path.simplify_threshold": 1.0}):
        again = plotting.render_pair(z, z.T, EXTENT, "heatmap-contour-viridis", "contour")
        assert matplotlib.rcParams["lines.linewidth"] == 5.0 and matplotlib.rcParams["font.size"] == 20.0
        assert matplotlib.rcParams["axes.facecolor"] == "red"
    assert first.tobytes() == again.tobytes()


def test_pair_panels_share_axes_ticks_and_colours():
    z = _field()
    image = plotting.render_pair(z, z, EXTENT, "heatmap-viridis", "heatmap-viridis")
    assert image.size == plotting.PAIR_SIZE
    assert np.array_equal(_plot_area(image, "pair", 0), _plot_area(image, "pair", 1))
    pixels = np.asarray(image)
    (la, ta, ra, ba), (lb, tb, rb, bb) = plotting.axes_boxes("pair", image.size)
    assert np.array_equal(pixels[ba + 3:, la:ra], pixels[bb + 3:, lb:rb])  # x ticks and label
    width = min(la, lb - ra)
    assert np.array_equal(pixels[ta:ba, la - width:la - 2], pixels[tb:bb, lb - width:lb - 2])  # y ticks
    # halving B's values darkens B: the colour range is shared, not per panel
    dim = plotting.render_pair(z, z * 0.5 - 0.5, EXTENT, "heatmap-magma", "heatmap-magma")  # magma: monotone lightness
    assert int(_plot_area(dim, "pair", 1).astype(int).sum()) < 0.8 * int(_plot_area(dim, "pair", 0).astype(int).sum())


def test_ticks_depend_only_on_the_extent():
    a = plotting.render_plot(_field(), EXTENT, "heatmap-inferno")
    b = plotting.render_plot(-_field() ** 3, EXTENT, "contour")
    left, _, _, bottom = plotting.axes_boxes("plot", a.size)[0]
    pa, pb = np.asarray(a), np.asarray(b)
    assert np.array_equal(pa[bottom + 3:], pb[bottom + 3:])
    assert np.array_equal(pa[:, :left - 2], pb[:, :left - 2])


def test_no_colour_bar_and_no_title_by_default():
    image = plotting.render_plot(_field(), EXTENT, "heatmap-plasma")
    pixels = np.asarray(image)
    _, top, right, _ = plotting.axes_boxes("plot", image.size)[0]
    assert (pixels[:, right + 3:] == 255).all(), "something is drawn right of the plot (a colour bar?)"
    assert (pixels[: top - 3] == 255).all(), "something is drawn above the plot"


def test_contour_only_is_black_and_white_and_heatmaps_are_coloured():
    z = _field()
    lines = _plot_area(plotting.render_plot(z, EXTENT, "contour"), "plot").astype(int)
    assert (lines.max(axis=2) - lines.min(axis=2)).max() == 0, "contour-only must have no colour"
    assert (lines < 100).any(axis=2).mean() > 0.02
    for cmap in plotting.COLORMAPS:
        heat = _plot_area(plotting.render_plot(z, EXTENT, f"heatmap-{cmap}"), "plot").astype(int)
        assert (heat.max(axis=2) - heat.min(axis=2)).mean() > 40


def test_hollow_rings_are_the_closed_lines_around_lower_ground():
    """``dashes="hollows"``: a closed ring is dashed when the values just inside it are lower, whatever
    their sign; rings around rises and lines that run off the plot are not."""
    import contourpy

    xs = plotting.sample_axis(-5, 5)
    x, y = np.meshgrid(xs, xs)
    # a positive pit inside a positive plateau, a peak, and a pit cut by the right edge
    z = (1.0 - 0.6 * np.exp(-((x + 2) ** 2 + y**2)) + np.exp(-((x - 1) ** 2 + (y - 3) ** 2))
         - 0.6 * np.exp(-((x - 5) ** 2 + (y + 3) ** 2)))
    generator = contourpy.contour_generator(xs, xs, z, line_type="Separate")
    for level, centre, hollow in ((0.7, (-2, 0), True), (1.5, (1, 3), False), (0.7, (4.8, -3), False)):
        lines = generator.lines(level)
        flags = plotting.hollow_rings(lines, level, z, xs, xs)
        near = [k for k, line in enumerate(lines) if np.hypot(*(line.mean(axis=0) - centre)) < 1.0]
        assert len(near) == 1 and flags[near[0]] is hollow
    dashed = _plot_area(plotting.render_plot(z, EXTENT, "contour", dashes="hollows"), "plot")
    plain = _plot_area(plotting.render_plot(z, EXTENT, "contour"), "plot")
    assert not np.array_equal(dashed, plain)  # matplotlib's convention dashes nothing here: all values > 0
    with pytest.raises(ValueError, match="dashes"):
        plotting.render_plot(z, EXTENT, "contour", dashes="odd")


def test_high_values_are_bright():
    x, _ = plotting.sample_grid(EXTENT)
    area = _plot_area(plotting.render_plot(x, EXTENT, "heatmap-magma"), "plot").astype(int).sum(axis=2)
    assert area[:, -5:].mean() > area[:, :5].mean() + 300


def test_undefined_samples_and_flat_grids_render():
    z = _field()
    z[150:250, 150:250] = np.nan
    for style in plotting.STYLES:
        plotting.render_plot(z, EXTENT, style)
    plotting.render_pair(np.zeros((50, 50)), np.zeros((50, 50)), EXTENT, "heatmap-viridis", "contour")


def test_invalid_arguments():
    with pytest.raises(ValueError, match="2-D grid"):
        plotting.render_plot(np.zeros(10), EXTENT, "contour")
    with pytest.raises(ValueError, match="extent"):
        plotting.render_plot(np.zeros((4, 4)), (1, 0, 0, 1), "contour")
    with pytest.raises(ValueError, match="vmax must exceed vmin"):
        plotting.render_plot(np.zeros((4, 4)), EXTENT, "contour", vmin=1, vmax=1)


def test_tick_values_and_labels():
    assert list(plotting.tick_values(-5, 5)) == [-4, -2, 0, 2, 4]
    assert plotting.tick_labels(np.array([-4.0, -2.0, 0.0, 2.0, 4.0])) == ["\u22124", "\u22122", "0", "2", "4"]
    ticks = plotting.tick_values(0.0, 1.0)
    assert 4 <= len(ticks) <= 7 and ticks[0] >= 0 and ticks[-1] <= 1
    assert plotting.tick_labels(np.array([0.0, 0.25, 0.5])) == ["0.00", "0.25", "0.50"]


def test_contour_levels_are_inside_the_range():
    levels = plotting.contour_levels(-1.0, 1.0)
    assert len(levels) == plotting.CONTOUR_LEVELS
    assert levels.min() > -1 and levels.max() < 1
    assert np.allclose(np.diff(levels), np.diff(levels)[0])


def test_flat_samples_are_those_whose_neighbourhood_barely_changes():
    z = np.tile(np.arange(12, dtype=float) * 1e-3, (6, 1))  # a slope of 1e-3 per sample along x
    z[:, :5] = 0.0
    z[2, 1] = 4e-6  # rounding noise
    flat = plotting.flat_samples(z, 1e-5)
    assert flat[:, :4].all() and not flat[:, 4:].any()
    z[3, 3] = np.nan
    assert not plotting.flat_samples(z, 1e-5)[2:5, 2:5].any()


def test_no_contour_line_follows_the_rounding_of_a_flat_stretch_at_a_level():
    """A stretch lying at a level's value (0, the middle level of a symmetric range), split by the values'
    rounding into patches of 0 and 1e-6, gets no line along the patches' edges; the slopes keep theirs."""
    x, y = plotting.sample_grid(EXTENT)
    z = np.where(np.abs(x) > 2, x, 0.0) + np.where((np.abs(x) <= 2) & (np.floor(2 * y) % 2 == 0), 1e-6, 0.0)
    assert 0.0 in plotting.contour_levels(-5.0, 5.0)
    for style in ("contour", "heatmap-contour-viridis"):
        image = plotting.render_plot(z, EXTENT, style, vmin=-5.0, vmax=5.0)
        area = _plot_area(image, "plot").astype(int)
        width = area.shape[1]
        if style == "contour":
            ink = area.max(axis=2) <= 160
        else:
            plain = _plot_area(plotting.render_plot(z, EXTENT, "heatmap-viridis", vmin=-5.0, vmax=5.0), "plot")
            ink = np.abs(area - plain.astype(int)).max(axis=2) > 8
        middle = ink[:, int(width * 0.35):int(width * 0.65)]  # |x| < 1.5
        assert not middle.any(), f"{style}: {int(middle.sum())} line pixels in the flat stretch"
        assert ink[:, :int(width * 0.25)].sum() > 1000  # the slope's lines (x < -2.5)


@pytest.mark.parametrize("layout", ["plot", "pair"])
def test_heatmaps_drawn_from_their_pixels_are_matplotlibs_image(layout, monkeypatch):
    """The fast heatmap (each pixel's sample read once from matplotlib's resampling, then one table lookup per
    plot) draws exactly the pixels of matplotlib's image artist: every colour map, values outside the colour
    range, undefined samples, another grid shape and extent."""
    z = _field()
    z[10:30, 40:90] = np.nan
    z[200, 200:205] = np.inf
    small = _field((-2.0, 7.0, -2.0, 7.0), 173)
    cases = [(z, EXTENT), (small, (-2.0, 7.0, -2.0, 7.0))]
    lo, hi = float(np.nanmin(z[np.isfinite(z)])), float(np.nanmax(z[np.isfinite(z)]))
    limits = dict(vmin=lo + 0.2 * (hi - lo), vmax=hi - 0.1 * (hi - lo))  # some samples under and over
    for grid, extent in cases:
        for style in [s for s in plotting.STYLES if plotting.style_parts(s)[1]]:
            images = []
            for fast in (True, False):
                monkeypatch.setattr(plotting, "FAST_HEATMAPS", fast)
                if layout == "plot":
                    images.append(plotting.render_plot(grid, extent, style, **limits).tobytes())
                else:
                    images.append(plotting.render_pair(grid, grid[::-1], extent, style, "heatmap-magma",
                                                       **limits).tobytes())
            assert images[0] == images[1], (style, grid.shape)
    maps = plotting._surfaces[(layout, plotting.PLOT_SIZE if layout == "plot" else plotting.PAIR_SIZE)].pixel_maps
    assert maps and all(m is not None for m in maps.values())  # the fast path was taken, not the fallback
