"""Layouts (issue 10, "Legibility"): each task takes, per canvas, the legible arrangement of its panels with the
largest tile, keeping the reading order (query panels first, then options A, B, C ... row by row), equal
square tiles, gutters, label bands and frames."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PIL import Image

from bench_core import build_item, default_host, implementation, plan
from bench_plugin_mindseye import tasks
from bench_plugin_mindseye.layout import SIZES, Layout, arrangements, best_layout

TASKS = tasks()
BY_ID = {t.name: t for t in TASKS}

#: Tile side per task and canvas (1024x1024, 600x800): before issue 10 (the paper's rows, 2x2 grids on the
#: portrait canvas) and now.
BEFORE = {
    "relation-abstraction": (300, 176), "hierarchical-patterns": (407, 271), "dynamic-correspondence": (218, 145),
    "conceptual-slippage": (300, 176), "symmetric-structures": (218, 271), "mental-rotation": (218, 209),
    "paper-folding": (218, 145), "mental-composition": (218, 209),
}
NOW = {
    "relation-abstraction": (300, 209), "hierarchical-patterns": (407, 271), "dynamic-correspondence": (218, 145),
    "conceptual-slippage": (300, 209), "symmetric-structures": (407, 271), "mental-rotation": (291, 209),
    "paper-folding": (218, 145), "mental-composition": (291, 209),
}


def _all_layouts():
    for task in TASKS:
        impl = implementation(task)
        for size in SIZES.values():
            for layout in arrangements(size, impl.query_count, impl.option_count, impl.option_columns):
                yield pytest.param(layout, id=f"{task.name}-{size[0]}x{size[1]}-{layout.name.replace(' ', '_')}")


@pytest.mark.parametrize("task", TASKS, ids=[t.name for t in TASKS])
def test_each_task_takes_the_largest_legible_tile(task):
    impl = implementation(task)
    tiles = tuple(impl.layout(size).tile for size in SIZES)
    assert tiles == NOW[task.name]
    assert all(now >= before for now, before in zip(tiles, BEFORE[task.name], strict=True))
    for size in SIZES:
        others = arrangements(SIZES[size], impl.query_count, impl.option_count, impl.option_columns)
        assert impl.layout(size).tile == max(layout.tile for layout in others)


def test_the_paper_arrangement_wins_ties_and_a_single_query_can_stand_beside():
    # four frames over four options: every arrangement is at most as large, so the paper's rows stay
    assert best_layout((1024, 1024), 4, 4, 4) == Layout((1024, 1024), 4, 4, 4, 4)
    beside = best_layout((1024, 1024), 1, 4, 4)
    assert beside.beside and beside.name == "query 1x1 beside options 2x2"
    assert best_layout((600, 800), 1, 4, 4).name == "query 1x1 over options 2x2"
    assert best_layout((600, 800), 0, 6, 3).name == "options 2x3"
    assert best_layout((1024, 1024), 0, 6, 3).name == "options 3x2"


def _separate(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("layout", list(_all_layouts()))
def test_boxes_are_equal_tiles_in_reading_order_inside_the_canvas(layout):
    query, options = layout.boxes()
    assert len(query) == layout.query_count and len(options) == layout.option_count
    label = layout._metrics["label"]
    # every panel with its label band, apart from every other and inside the canvas
    cells = [(b[0], b[1], b[2], b[3] + label) for b in [*query, *options]]
    for box in [*query, *options]:
        assert box[2] - box[0] == box[3] - box[1] == layout.tile
    for cell in cells:
        assert min(cell[0], cell[1]) >= 0 and cell[2] <= layout.size[0] and cell[3] <= layout.size[1]
    assert all(_separate(a, b) for a, b in itertools.combinations(cells, 2))
    # options row by row, left to right; so are the query panels
    for boxes in (query, options):
        assert boxes == sorted(boxes, key=lambda b: (b[1], b[0]))
    if query and layout.beside:
        assert max(b[2] for b in query) < min(b[0] for b in options)  # query on the left
        query_mid = (min(b[1] for b in query) + max(b[3] for b in query) + label) / 2
        option_mid = (min(b[1] for b in options) + max(b[3] for b in options) + label) / 2
        assert abs(query_mid - option_mid) <= 1  # vertically centred on the options
    elif query:
        assert max(b[3] for b in query) + label <= min(b[1] for b in options)  # query rows over option rows
    # the block is centred on the canvas
    left, top = min(c[0] for c in cells), min(c[1] for c in cells)
    right, bottom = max(c[2] for c in cells), max(c[3] for c in cells)
    assert abs(left - (layout.size[0] - right)) <= 1 and abs(top - (layout.size[1] - bottom)) <= 1


def test_a_query_beside_the_options_keeps_its_caption_under_it():
    layout = best_layout((1024, 1024), 1, 4, 4)
    side = layout.tile
    grey = Image.new("RGB", (side, side), (200, 200, 200))
    image, boxes = layout.compose([grey], [grey] * 4, ["Original Shape"], "ABCD")
    (query,), options = boxes["query"], boxes["options"]
    assert image.size == (1024, 1024) and ([query], options) == layout.boxes()
    pixels = np.asarray(image).min(axis=2)
    band = pixels[query[3] + 2:query[3] + round(layout._metrics["label"]), query[0]:query[2]]
    assert (band < 100).any()  # the caption is drawn in the band under the query panel
    for box in options:  # and every option has its letter under it
        assert (pixels[box[3] + 2:box[3] + round(layout._metrics["label"]), box[0]:box[2]] < 100).any()


@pytest.mark.parametrize("name", ["mental-rotation", "symmetric-structures"])
def test_items_record_the_arrangement_and_its_boxes(name):
    task = BY_ID[name]
    job = plan(task, {}, 3, 1)[0]
    built = build_item(default_host(), task, job.seed, job.index, job.params, job.suffix)
    scene = built.item.metadata["scene"]
    layout = implementation(task).layout("1024x1024")
    assert scene["arrangement"] == layout.name and scene["tile"] == layout.tile
    query, options = layout.boxes()
    assert scene["query_boxes"] == [list(b) for b in query] and scene["option_boxes"] == [list(b) for b in options]
    assert [o["bbox"] for o in built.item.metadata["options"]] == scene["option_boxes"]


@pytest.mark.parametrize("supersample", [1, 2, 3])
def test_a_grey_tile_draws_the_same_panel_as_an_rgb_one(supersample):
    """``Tile(grey=True)`` (one channel for black-on-white panels) finishes to exactly the RGB panel the three
    channels give, antialiased reduction included; a colour that is not a grey is refused."""
    from bench_plugin_mindseye.layout import INK, Tile, grey_level

    rgb, grey = Tile(101, supersample), Tile(101, supersample, grey=True)
    for tile, ink in ((rgb, INK), (grey, grey_level(INK))):
        tile.draw.line([tile.px(0.1, 0.2), tile.px(0.83, 0.61), tile.px(0.3, 0.9)], fill=ink, width=5, joint="curve")
        tile.draw.ellipse((*tile.px(0.5, 0.1), *tile.px(0.71, 0.33)), fill=ink)
    a, b = rgb.finish(), grey.finish()
    assert b.mode == "RGB" and a.size == b.size
    assert np.array_equal(np.asarray(a), np.asarray(b))
    with pytest.raises(ValueError, match="not a grey"):
        grey_level((20, 30, 20))


@pytest.mark.parametrize("layout", [Layout((1024, 1024), 3, 4, 2), Layout((600, 800), 1, 6, 2, beside=True),
                                    Layout((600, 800), 0, 4, 2)], ids=lambda layout: layout.name)
def test_a_grey_composite_is_the_rgb_composite_in_one_channel(layout):
    """Panels given as mode "L" compose to the grey levels of the RGB composite of the same panels (frame,
    captions and labels included), and ``grey_palette_image`` of it is the palette image the core writes."""
    from bench_core import encode_png, palette_indices
    from bench_plugin_mindseye.layout import grey_palette_image, grey_panel

    rng = np.random.default_rng(3)
    side = layout.tile
    panels = []
    for _ in range(layout.query_count + layout.option_count):
        levels = rng.choice([0, 40, 128, 201, 255], size=(side, side)).astype(np.uint8)
        panels.append(Image.fromarray(levels).convert("RGB"))
    captions = [f"step {k + 1}" for k in range(layout.query_count)]
    rgb, boxes = layout.compose(panels[:layout.query_count], panels[layout.query_count:], captions)
    greys = [grey_panel(p) for p in panels]
    grey, grey_boxes = layout.compose(greys[:layout.query_count], greys[layout.query_count:], captions)
    assert grey.mode == "L" and grey_boxes == boxes
    assert grey.convert("RGB").tobytes() == rgb.tobytes()
    indexed = grey_palette_image(grey)
    colours, indices = palette_indices(rgb)
    assert indexed.mode == "P" and indexed.getpalette() == [v for colour in colours for v in colour]
    assert np.array_equal(np.asarray(indexed), indices) and encode_png(indexed) == encode_png(rgb)


def test_grey_panel_takes_only_neutral_pictures():
    from bench_plugin_mindseye.layout import grey_panel

    grey = Image.new("RGB", (8, 8), (90, 90, 90))
    assert np.array_equal(np.asarray(grey_panel(grey)), np.full((8, 8), 90))
    tinted = grey.copy()
    tinted.putpixel((3, 5), (90, 91, 90))
    assert grey_panel(tinted) is None
    assert grey_panel(Image.new("RGBA", (8, 8))) is None
    with pytest.raises(ValueError, match="mode L"):
        from bench_plugin_mindseye.layout import grey_palette_image

        grey_palette_image(grey)
