"""The chart kit (percentages, pies, bars), the ordering options and the canvas helpers, and the chart readers
of the verifiers."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from bench_plugin_sphinx.kit import canvas, charts, orderings
from bench_plugin_sphinx.kit.palette import PALETTE
from bench_plugin_sphinx.verifiers.charts import bar_heights, pie_shares
from bench_plugin_sphinx.verifiers.letters import CAPITALS, read_letter
from bench_plugin_sphinx.verifiers.pixels import image_keys
from PIL import Image, ImageDraw, ImageFont

COLOURS = list(PALETTE.values())


@pytest.mark.parametrize("k", range(3, 11))
def test_percentages_sum_to_100_and_keep_their_gap(k):
    rng = np.random.default_rng(k)
    for _ in range(200):
        values = charts.percentages(k, rng)
        assert len(values) == k and sum(values) == 100 and min(values) >= 1
        assert all(charts.relative_gap(a, b) >= charts.MIN_GAP for a, b in itertools.combinations(values, 2)), values


def test_largest_remainder_rounds_to_the_total():
    assert charts.largest_remainder([1, 1, 1]) == [34, 33, 33]
    assert charts.largest_remainder([0.5, 0.25, 0.25], 10) == [5, 3, 2]
    assert charts.well_separated([10, 11, 50]) and charts.well_separated([50, 11, 10])  # 10 and 11: 9.1 % apart
    assert not charts.well_separated([20, 21, 59])  # 4.8 % apart


def test_pie_runs_clockwise_from_twelve_and_reads_back():
    values = [40, 25, 20, 10, 5]
    side = 400
    pie = charts.pie(values, COLOURS[:5], side)
    centre = side // 2
    assert tuple(pie[centre - 100, centre + 20]) == (0xE6, 0x19, 0x4B)  # just right of 12 o'clock: the first slice
    shares, order, failures = pie_shares(Image.fromarray(pie), (0, 0, side, side))
    assert not failures and order == ["red", "green", "blue", "orange", "purple"]
    for name, value in zip(order, values, strict=True):
        assert abs(100 * shares[name] - value) < 0.5, (name, shares)


def test_last_slice_ends_at_twelve_oclock():
    pie = charts.pie([70, 30], COLOURS[:2], 300)
    assert tuple(pie[60, 140]) == (0x3C, 0xB4, 0x4B)  # just left of 12 o'clock: the last (green) slice


def test_bars_scale_to_the_tallest_and_read_back():
    values = [30, 10, 45, 15]
    image = charts.bars(values, COLOURS[:4], 480, 300)
    heights, failures = bar_heights(image_keys(Image.fromarray(image)))
    assert not failures and [name for name, _ in heights] == ["red", "green", "blue", "orange"]
    tallest = max(h for _, h in heights)
    geometry = charts.bar_geometry(4, 480, 300)
    assert tallest == geometry["baseline"] - geometry["top"]
    total = sum(h for _, h in heights)
    for (_, h), v in zip(heights, values, strict=True):
        assert abs(100 * h / total - v) < 0.6


def test_swap_options_put_the_truth_in_place_and_hide_it_among_roles():
    rng = np.random.default_rng(3)
    truth = list("ABCDEFG")
    centre_truth = 0
    for trial in range(400):
        position = trial % 4
        options, record = orderings.swap_options(truth, position, rng)
        assert options[position] == truth
        assert len({tuple(o) for o in options}) == 4
        assert all(sorted(o) == truth for o in options)
        centre_truth += record["centre_is_truth"]
        centre = record["roles"].index("centre")
        assert all(sum(a != b for a, b in zip(options[centre], o, strict=True)) == 2
                   for k, o in enumerate(options) if k != centre)
    assert 60 <= centre_truth <= 140  # a quarter of 400, give or take


def test_swap_options_work_for_three_labels():
    rng = np.random.default_rng(0)
    for position in range(4):
        options, _ = orderings.swap_options(["X", "Y", "Z"], position, rng)
        assert options[position] == ["X", "Y", "Z"] and len({tuple(o) for o in options}) == 4


def test_quantised_greys_keep_the_ink_split_and_fit_a_palette():
    image = Image.new("RGB", (300, 120), (255, 255, 255))
    ImageDraw.Draw(image).text((10, 60), "QUARTZ", fill=(0, 0, 0), font=ImageFont.load_default(size=46), anchor="lm")
    before = np.array(image)
    after = before.copy()
    canvas.quantise_greys(after)
    assert len(np.unique(after[..., 0])) <= 16
    assert np.array_equal(before[..., 0] < 128, after[..., 0] < 128)
    assert read_letter(after, (10, 60), 46)[0] is not None


def test_letters_read_back_by_template():
    image = Image.new("RGB", (600, 120), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=40)
    for k, letter in enumerate("OQWI"):
        draw.text((20 + 140 * k, 60), letter, fill=(0, 0, 0), font=font, anchor="lm")
    rgb = np.asarray(image)
    for k, letter in enumerate("OQWI"):
        read, best, second = read_letter(rgb, (20 + 140 * k, 60), 40)
        assert read == letter and best > 0.99 and second < 0.95
    assert set(CAPITALS) == set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def test_graph_paper_has_its_grid_and_border():
    paper = np.asarray(canvas.graph_paper(256, 160))
    assert tuple(paper[10, 32]) == canvas.MINOR_RGB and tuple(paper[10, 128]) == canvas.MAJOR_RGB
    assert tuple(paper[0, 50]) == (0, 0, 0) and tuple(paper[20, 20]) == (255, 255, 255)


@pytest.mark.parametrize("size", [(256, 160), (3, 5), (129, 257), (733, 1020)])
def test_graph_paper_is_the_grid_pillow_draws_and_every_copy_is_fresh(size):
    """The paper is made with numpy; it must be exactly the grid Pillow draws line by line (spec 2.6), in both
    forms, and a picture drawn on one copy must leave the next copy blank."""
    from bench_plugin_sphinx.kit import spatial

    width, height = size
    drawn = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(drawn)
    for x in range(canvas.MINOR, width, canvas.MINOR):
        draw.line((x, 0, x, height - 1), fill=canvas.MAJOR_RGB if x % canvas.MAJOR == 0 else canvas.MINOR_RGB)
    for y in range(canvas.MINOR, height, canvas.MINOR):
        draw.line((0, y, width - 1, y), fill=canvas.MAJOR_RGB if y % canvas.MAJOR == 0 else canvas.MINOR_RGB)
    draw.rectangle((0, 0, width - 1, height - 1), outline=canvas.BORDER_RGB, width=canvas.BORDER)
    paper = canvas.graph_paper(width, height)
    assert paper.mode == "RGB" and paper.tobytes() == drawn.tobytes()
    pixels = canvas.graph_paper_array(width, height)
    assert np.array_equal(pixels, np.asarray(drawn))
    pixels[:] = 7
    ImageDraw.Draw(paper).rectangle((0, 0, width - 1, height - 1), fill=(1, 2, 3))
    assert canvas.graph_paper(width, height).tobytes() == drawn.tobytes()
    assert np.array_equal(canvas.graph_paper_array(width, height), np.asarray(drawn))
    if width >= 8 and height >= 8:  # the spatial tasks' paper, drawn twice the size, reduces to this one
        assert spatial.paper(width, height).reduce(spatial.SUPERSAMPLE).tobytes() == drawn.tobytes()
