"""kit.layouts: the two layouts, their inverse maps, and (issue 16) a densified index-space diagonal drawn in
polar crosses, on the pixels, exactly the cells the logical model says."""

from __future__ import annotations

import math

import numpy as np
import pytest
from bench_plugin_polaris.kit import layouts, pixels
from PIL import Image, ImageDraw

BOX = (0.0, 0.0, 1024.0, 1024.0)
RED = (255, 0, 0)


def _polygon_area(points):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))) / 2


@pytest.mark.parametrize("make", [
    lambda: layouts.CartesianLayout(5, 7, BOX),
    lambda: layouts.PolarLayout(5, 7, BOX, r0=0.3),
    lambda: layouts.PolarLayout(4, 6, BOX, r0=0.2, orientation="in", rings="equal_area", extra_sectors=2),
])
def test_inverse_maps_undo_the_forward_map(make):
    layout = make()
    rng = np.random.default_rng(1)
    xs, ys = rng.uniform(0.01, layout.cols - 0.01, 300), rng.uniform(0.01, layout.rows - 0.01, 300)
    px, py = layout.map_points(xs, ys)
    bx, by, inside = layout.index_points(px, py)
    assert inside.all() and np.allclose(bx, xs, atol=1e-6) and np.allclose(by, ys, atol=1e-6)
    for r in range(layout.rows):
        for c in range(layout.cols):
            assert layout.cell_at(*layout.cell_center(r, c)) == (r, c)
            assert layout.index_at(*layout.lattice_point(r + 0.5, c + 0.5)) == pytest.approx((c + 0.5, r + 0.5))
    x0, y0, x1, y1 = layout.grid_box()
    assert layout.cell_at(x0 - 5, y0 - 5) is None and layout.cell_at(x1 + 5, y1 + 5) is None


def test_polar_numbering_sector_one_at_twelve_clockwise_ring_one_innermost():
    layout = layouts.PolarLayout(4, 8, BOX, r0=0.25)
    cx, cy = layout.center
    x, y = layout.cell_center(0, 0)
    assert x > cx and y < cy and abs(x - cx) < abs(y - cy)  # sector 1 just clockwise of 12 o'clock
    x, y = layout.cell_center(0, 2)
    assert x > cx and abs(y - cy) < abs(x - cx)  # sector 3: towards 3 o'clock (clockwise)
    assert layout.cell_center(0, 7)[0] < cx  # the last sector: just counter-clockwise of 12 o'clock
    radii = [math.dist(layout.cell_center(r, 0), layout.center) for r in range(4)]
    assert radii == sorted(radii, reverse=True)  # "out": row 1 (top) is the outermost ring
    inward = layouts.PolarLayout(4, 8, BOX, r0=0.25, orientation="in")
    radii = [math.dist(inward.cell_center(r, 0), inward.center) for r in range(4)]
    assert radii == sorted(radii)  # "in": row 1 is ring 1, the innermost
    assert layout.inner == pytest.approx(0.25 * layout.outer)
    assert layout.seam()[0] == pytest.approx((cx, cy - layout.inner))


def test_equal_area_rings_give_every_cell_the_same_area_and_extra_sectors_are_drawn():
    layout = layouts.PolarLayout(5, 6, BOX, r0=0.3, rings="equal_area", extra_sectors=1)
    areas = [_polygon_area(layout.cell_polygon(r, 0)) for r in range(5)]
    assert max(areas) / min(areas) < 1.01
    uniform = layouts.PolarLayout(5, 6, BOX, r0=0.3)
    areas = [_polygon_area(uniform.cell_polygon(r, 0)) for r in range(5)]
    assert max(areas) / min(areas) > 1.5
    assert layout.sectors == 7 and layout.cell_at(*layout.cell_center(2, 6)) == (2, 6)


def test_wrapped_polylines_are_cut_at_the_cartesian_edge():
    pieces = layouts.split_at_wrap([(4.5, 0.5), (6.5, 1.5)], 5)
    assert pieces == [[(4.5, 0.5), (5.0, 0.75)], [(0.0, 0.75), (1.5, 1.5)]]
    pieces = layouts.split_at_wrap([(0.5, 0.5), (-1.5, 0.5)], 5)
    assert pieces == [[(0.5, 0.5), (0.0, 0.5)], [(5.0, 0.5), (3.5, 0.5)]]
    assert layouts.split_at_wrap([(1, 1), (2, 2)], 5) == [[(1.0, 1.0), (2.0, 2.0)]]
    cart = layouts.CartesianLayout(3, 5, BOX, wrap=True)
    assert len(cart.map_path([(4.5, 0.5), (6.5, 1.5)], wrap=True)) == 2
    assert len(layouts.PolarLayout(3, 5, BOX).map_path([(4.5, 0.5), (6.5, 1.5)], wrap=True)) == 1


def _corner_clearance(points):
    """The smallest index-space distance from the polyline to any lattice point (where pixel reads of a
    1 px line may fall on either side)."""
    dense = layouts.densify(points, 0.002)
    return min(math.hypot(x - round(x), y - round(y)) for x, y in dense)


def _cells_on_pixels(layout, pixel_points):
    image = Image.new("RGB", (1024, 1024), (255, 255, 255))
    ImageDraw.Draw(image).line([(round(x), round(y)) for x, y in pixel_points], fill=RED, width=1)
    return set(pixels.cells_with_colour(pixels.as_array(image), layout, RED))


@pytest.mark.parametrize("line", [
    [(0.2, 0.15), (6.7, 4.85)],  # a long diagonal: nearly a turn of a spiral
    [(7.8, 0.3), (1.3, 4.6)],  # counter-clockwise and inward
    [(2.55, 4.9), (3.45, 0.1)],  # nearly radial
    [(0.4, 2.3), (7.6, 2.7)],  # nearly ring-wise: an arc
])
def test_a_densified_index_diagonal_crosses_exactly_the_logical_cells_on_the_pixels(line):
    layout = layouts.PolarLayout(5, 8, BOX, r0=0.25)
    assert _corner_clearance(line) > 0.03, "choose a line that keeps clear of the lattice points"
    logical = set(layouts.cells_crossed(line))
    drawn = _cells_on_pixels(layout, layout.map_polyline(line))
    assert drawn == logical


def test_without_densifying_the_chord_crosses_other_cells():
    layout = layouts.PolarLayout(5, 8, BOX, r0=0.25)
    line = [(0.2, 0.15), (6.7, 4.85)]
    chord = [layout.map_point(*line[0]), layout.map_point(*line[1])]
    assert _cells_on_pixels(layout, chord) != set(layouts.cells_crossed(line))


def test_pixel_reader_agrees_with_a_full_scan():
    layout = layouts.PolarLayout(4, 6, BOX, r0=0.3)
    image = Image.new("RGB", (1024, 1024), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for cell in ((0, 0), (3, 5), (2, 3)):
        draw.polygon([(round(x), round(y)) for x, y in layout.cell_polygon(*cell)], fill=RED)
    reader = pixels.PixelReader(image, layout)
    share = reader.share(RED)
    assert {(int(r), int(c)) for r, c in zip(*np.nonzero(share > 0.9), strict=True)} == {(0, 0), (3, 5), (2, 3)}
    counts = reader.cells_of(RED)  # edge pixels of a fill spill into the neighbours: a few samples
    assert set(counts) == {(int(r), int(c)) for r, c in zip(*np.nonzero(share > 0), strict=True)}
    assert counts[(0, 0)] == pytest.approx(reader.totals[0], rel=0.02)
    assert max(n for cell, n in counts.items() if cell not in {(0, 0), (3, 5), (2, 3)}) < 0.1 * counts[(0, 0)]
