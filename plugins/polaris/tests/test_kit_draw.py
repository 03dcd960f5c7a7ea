"""kit.draw: the composite frame, the boundary drawing (seam wall, dashed wrap edges), calibration (the
legibility guard, icon area parity, one font px) and anti-collision."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_polaris.kit import draw, pixels


def _canvas(variant, rows=4, cols=6, legend_lines=2, options=0, **geometry):
    fr = draw.frame(variant, legend_lines=legend_lines, options=options)
    layout = draw.make_layout(variant, rows, cols, fr, {"r0": 0.25, **geometry})
    return draw.Canvas(fr, layout)


def test_both_renderings_share_the_canvas_size_and_the_legend_moves_and_changes_colour():
    c, p = draw.frame("cartesian", legend_lines=2, options=4), draw.frame("polar", legend_lines=2, options=4)
    assert c.size == p.size and c.options[0][2] - c.options[0][0] == p.options[0][2] - p.options[0][0]
    assert c.legend[1] < c.panel[1] and p.legend[1] > p.panel[3]  # yellow box on top in C, cyan at the bottom in P
    for variant, colour in (("cartesian", draw.LEGEND_CARTESIAN), ("polar", draw.LEGEND_POLAR)):
        canvas = _canvas(variant)
        canvas.legend(["P = start", ("knight", draw.MARKER_COLOURS["blue"], "the knight")])
        _, _, x1, y1 = canvas.frame.legend
        assert canvas.image.getpixel((x1 - 5, y1 - 5)) == colour
    assert draw.frame("polar").legend is None


def _seam_black(canvas):
    inner, outer = canvas.layout.seam()
    points = [(inner[0], inner[1] + (outer[1] - inner[1]) * t) for t in np.linspace(0.05, 0.95, 40)]
    return pixels.run_share(pixels.as_array(canvas.image), points, draw.BLACK, radius=0)


def test_bounded_polar_draws_the_seam_wall_and_wrapping_polar_does_not():
    bounded, wrapping = _canvas("polar"), _canvas("polar")
    for canvas, boundary in ((bounded, "bounded"), (wrapping, "wrapping")):
        canvas.grid_lines()
        canvas.boundary(boundary)
    assert _seam_black(bounded) == 1.0 and _seam_black(wrapping) == 0.0
    # the thick seam is wider than a grid line: black 2 px to each side of the radial
    inner, outer = bounded.layout.seam()
    mid = (inner[0] + 2, (inner[1] + outer[1]) / 2)
    assert bounded.image.getpixel((round(mid[0]), round(mid[1]))) == draw.BLACK


def test_a_wrapping_cartesian_picture_has_dashed_side_edges_and_a_bounded_one_solid_borders():
    def side(boundary):
        canvas = _canvas("cartesian")
        canvas.boundary(boundary)
        x0, y0, x1, y1 = canvas.layout.grid_box()
        column = pixels.as_array(canvas.image)[round(y0) + 8:round(y1) - 8, round(x0)]
        top = pixels.as_array(canvas.image)[round(y0), round(x0) + 8:round(x1) - 8]
        return np.all(column == 0, axis=1).mean(), np.all(top == 0, axis=1).mean()
    dashed_side, wrap_top = side("wrapping")
    solid_side, bounded_top = side("bounded")
    assert solid_side == 1.0 and bounded_top == 1.0 and wrap_top == 1.0  # top and bottom stay thick walls
    assert 0.45 < dashed_side < 0.7  # 10 px on, 7 px off


def test_icons_have_the_same_area_in_both_renderings_and_the_same_font_px():
    counts = []
    for variant in ("cartesian", "polar"):
        canvas = _canvas(variant)
        canvas.icon("knight", 2, 3, draw.MARKER_COLOURS["green"], 20.0)
        counts.append(int(pixels.colour_mask(pixels.as_array(canvas.image), draw.MARKER_COLOURS["green"]).sum()))
    assert counts[0] == counts[1] > 500
    assert draw.icon_area("square", 10) == pytest.approx(256)
    boxes = [draw.text_box("Ring 12", (100, 100), draw.frame(v).font_px) for v in ("cartesian", "polar")]
    assert boxes[0] == boxes[1]


@pytest.mark.parametrize("rows, cols, r0, orientation", [(5, 5, 0.22, "in"), (8, 8, 0.22, "in"), (6, 6, 0.25, "out"),
                                                         (4, 8, 0.25, "out"), (6, 4, 0.25, "out")])
def test_every_icon_fits_inside_its_cell_clear_of_the_thick_hub_and_outer_wall(rows, cols, r0, orientation):
    import math

    reach = max(math.hypot(x, y) for parts in draw.ICONS.values() for points, _ in parts for x, y in points)
    assert reach <= draw.ICON_REACH
    calibration = draw.calibrate(rows, cols, r0=r0, orientation=orientation)
    geometry = {"r0": calibration.r0, "orientation": orientation}
    colour = draw.MARKER_COLOURS["purple"]
    for variant in ("cartesian", "polar"):
        fr = draw.frame(variant)
        for name in ("disc", "square", "star", "cross", "triangle"):
            canvas = draw.Canvas(fr, draw.make_layout(variant, rows, cols, fr, geometry))
            canvas.boundary("bounded")
            for r in range(rows):  # the innermost and outermost rings, next to the seam and away from it
                for c in {0, cols // 2, cols - 1}:
                    canvas.icon_at(name, canvas.layout.cell_center(r, c), colour, calibration.icon_radii[r],
                                   outline=None)
            array = pixels.as_array(canvas.image)
            icon = pixels.colour_mask(array, colour)
            ys, xs = np.nonzero(icon)
            near_wall = pixels.colours_near(array, np.column_stack([xs, ys]), draw.BLACK, radius=2)
            assert icon.any() and not near_wall.any(), (variant, name, int(near_wall.sum()))


def test_the_legibility_guard_raises_r0_or_rejects():
    loose = draw.calibrate(4, 6, r0=0.25)
    assert loose.r0 == 0.25
    tight = draw.calibrate(6, 16, r0=0.1)
    assert tight.r0 > 0.1
    layout = draw.make_layout("polar", 6, 16, draw.frame("polar"), {"r0": tight.r0})
    assert layout.clearance() >= draw.CLEARANCE_FACTOR * draw.FONT_PX
    with pytest.raises(draw.Illegible, match="innermost"):
        draw.calibrate(12, 40, r0=0.1)
    assert draw.calibrate(4, 6).icon_radius <= 40.0


def test_labels_keep_clear_of_icons_and_each_other():
    canvas = _canvas("polar")
    icon = canvas.icon("star", 1, 1, draw.MARKER_COLOURS["orange"], 22.0)
    at = canvas.layout.cell_center(1, 1)
    box = canvas.place_label("Q", [at, (at[0] + 60, at[1])])
    assert box is not None and not draw.boxes_overlap(box, icon)
    assert canvas.place_label("Q", [at]) is None  # every candidate collides: nothing drawn
    placer = draw.Placer()
    assert placer.place([(0, 0, 10, 10)]) and placer.place([(5, 5, 15, 15), (20, 0, 30, 10)]) == (20, 0, 30, 10)


def test_drawing_uses_few_colours_so_the_png_is_a_palette_image():
    canvas = _canvas("polar", options=3)
    canvas.grid_lines()
    canvas.boundary("bounded")
    canvas.fill_cell(1, 1, draw.SHADE)
    canvas.arrow([(0.5, 0.5), (4.5, 3.5)], draw.MARKER_COLOURS["vermilion"])
    canvas.marker("P", 0, 0, draw.MARKER_COLOURS["orange"], 22)
    canvas.index_labels()
    canvas.legend(["a line"])
    canvas.option_labels("ABC")
    assert len(canvas.image.getcolors(256)) <= 16


def test_cached_text_masks_draw_exactly_what_pillow_draws():
    from PIL import Image, ImageDraw

    words = "Knight's move: 2 rows and 1 column, or 1 row and 2 columns"
    for anchor in ("lm", "mm"):
        canvas = _canvas("cartesian")
        canvas.text(words, (300, 30), anchor=anchor)
        direct = Image.new("RGB", canvas.frame.size, draw.WHITE)
        pen = ImageDraw.Draw(direct)
        pen.fontmode = "1"
        pen.text((300, 30), words, fill=draw.BLACK, font=draw.font(draw.FONT_PX), anchor=anchor)
        assert np.array_equal(np.asarray(direct), np.asarray(canvas.image))  # no glyph clipped at the ends


def test_polar_ring_numbers_sit_beside_the_seam_so_the_bounded_wall_stays_unbroken():
    canvas = _canvas("polar", rows=5)
    canvas.grid_lines()
    canvas.boundary("bounded")
    canvas.index_labels()
    assert _seam_black(canvas) == 1.0  # numbers on the radial would cut the wall into dashes
    cx, cy = canvas.layout.center
    ring1 = (canvas.layout.ring_radius(0) + canvas.layout.ring_radius(1)) / 2
    digit = pixels.as_array(canvas.image)[round(cy - ring1) - 6:round(cy - ring1) + 6, round(cx) - 30:round(cx) - 4]
    assert np.all(digit == 0, axis=2).sum() > 10  # ring 1's number is drawn, just counter-clockwise of the seam


def test_an_invariant_polar_picture_has_no_seam_wall():
    canvas = _canvas("polar")
    canvas.grid_lines()
    canvas.boundary("invariant")
    assert _seam_black(canvas) < 0.5
    cartesian = _canvas("cartesian")
    cartesian.boundary("invariant")
    x0, y0, _, y1 = cartesian.layout.grid_box()
    assert np.all(pixels.as_array(cartesian.image)[round(y0) + 8:round(y1) - 8, round(x0)] == 0)  # solid sides
