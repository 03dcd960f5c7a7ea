"""The fast drawing routes give exactly the pixels of the plain ones: the renderer's grey plane and marker
patches, composed as a palette image, against one RGB canvas (and the PNG bytes the core writes for it), and
the verifier's word-wise ink test against the per-channel one."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from bench_core import ItemRandom, encode_png, implementation, palette_indices
from bench_plugin_traversal import artefact
from bench_plugin_traversal.common import TraversalTask
from bench_plugin_traversal.glyphs import VOCABULARY
from bench_plugin_traversal.render import Scene, _level_counts, _palette_compose, _render_rgb, render_scene


def _same(scene: Scene) -> bool:
    """The palette picture shows the pixels of one RGB canvas, and the core writes the same PNG for both."""
    image, plain = render_scene(scene), _render_rgb(scene)
    return (image.mode == "P" and np.array_equal(np.asarray(image.convert("RGB")), np.asarray(plain))
            and encode_png(image) == encode_png(plain))


def test_glyph_corners_on_whole_pixels_draw_as_on_one_canvas():
    # corners that land on whole supersampled pixels (281.76 x 2 - 23.52 = 540 on one canvas, but 539.99...
    # when the patch's offset is taken off before the radius): glyph coordinates must be worked out first
    points = [(176.27, 281.76), (631.68, 270.17), (400.0, 100.0), (631.68, 385.42)]
    tokens = ["orange circle", "blue square", "red tri", "brown square"]
    assert _same(Scene.on_vertices(672, points, tokens))


def test_crowded_markers_and_image_edges_draw_as_on_one_canvas():
    # markers overlapping in chains, cut by every edge of the image, at coordinates with many decimals
    rng = np.random.default_rng(3)
    for trial in range(12):
        count = 17
        centre = rng.uniform(0, 672, 2)
        points = centre + np.cumsum(rng.normal(0, 9, (count, 2)), axis=0)
        points[: 4] = [(0.37, 300.123457), (671.999, 12.5), (334.5, 0.0), (5.25, 671.75)]
        tokens = list(rng.permutation(VOCABULARY)[:count])
        spurs = [((float(points[1][0]), float(points[1][1])), (float(points[1][0]) + 40.0, 666.0))]
        scene = Scene.on_vertices(672, np.round(points, 6), tokens, spurs if trial % 2 else [])
        assert _same(scene), trial


@pytest.mark.parametrize("task_id, params", [("traversal/path", {"profile": "paper", "confounders": "high"}),
                                             ("traversal/path", {"profile": "strict", "confounders": "none"}),
                                             ("traversal/reading-order", {})])
def test_generated_scenes_draw_as_on_one_canvas(host, task_id, params):
    task = host.task(task_id)
    impl = implementation(task)
    assert isinstance(impl, TraversalTask)
    resolved = task.resolve_params(params)
    for index in range(8):
        problem = impl.generate(resolved, ItemRandom(task.id, task.version, 11, index))
        assert _same(problem.structure[0].scene()), index


def test_word_wise_ink_test_matches_the_per_channel_one():
    rng = np.random.default_rng(0)
    values = np.array([0, 1, 127, 128, 174, 175, 176, 214, 215, 216, 254, 255], dtype=np.uint8)
    quad = rng.choice(values, size=(61, 67, 4))
    quad[..., 3] = rng.integers(0, 256, quad.shape[:2])  # the pad byte must not matter
    white = np.array([255, 255, 255], dtype=np.int16)
    fast = artefact._ink_mask(quad, white)
    slow = np.zeros(quad.shape[:2], dtype=bool)
    for channel in range(3):
        slow |= quad[:, :, channel] < 255 - artefact.INK_THRESHOLD
    assert fast.any() and not fast.all()
    assert np.array_equal(fast, slow)
    grey = np.array([128, 128, 128], dtype=np.int16)  # another background takes the per-channel route
    expected = (np.abs(quad[:, :, :3].astype(int) - 128) > artefact.INK_THRESHOLD).any(axis=2)
    assert np.array_equal(artefact._ink_mask(quad, grey), expected)


def _rgb_compose(grey: Image.Image, patches) -> Image.Image:
    image = grey.convert("RGB")
    for corner, patch in patches:
        image.paste(patch, corner)
    return image


def test_palette_compose_is_the_core_palette_of_the_pasted_picture():
    # overlapping patches (a later one covers colours and grey levels of an earlier one, which must then not
    # be in the palette), patches on the edges, grey levels only under a patch, an odd plane size
    rng = np.random.default_rng(5)
    for trial in range(20):
        width, height = int(rng.integers(30, 90)), int(rng.integers(30, 90))
        plane = rng.choice(np.array([255, 255, 255, 200, 122, 32], dtype=np.uint8), size=(height, width))
        plane[:6, :6] = 7  # a level that only the first patch covers
        grey = Image.fromarray(plane, "L")
        patches = [((0, 0), 12, 9)] + [((int(rng.integers(0, width - 8)), int(rng.integers(0, height - 8))),
                                        int(rng.integers(4, 9)), 5) for _ in range(int(rng.integers(1, 7)))]
        made = []
        for (x, y), size, colours in patches:
            w, h = min(size, width - x), min(size, height - y)
            pixels = rng.integers(0, colours, size=(h, w))
            palette = rng.integers(0, 256, size=(colours, 3)).astype(np.uint8)
            made.append(((x, y), Image.fromarray(palette[pixels], "RGB")))
        composed, (colours, indices) = _palette_compose(grey, made), palette_indices(_rgb_compose(grey, made))
        assert composed.mode == "P"
        assert composed.getpalette() == [value for colour in colours for value in colour], trial
        assert np.array_equal(np.asarray(composed), indices), trial
        assert encode_png(composed) == encode_png(_rgb_compose(grey, made)), trial


def test_palette_compose_refuses_more_than_256_colours():
    grey = Image.new("L", (40, 40), 255)
    colours = np.arange(300 * 3, dtype=np.uint32).reshape(20, 15, 3) % 256
    colours[..., 0] = np.arange(300).reshape(20, 15) // 256  # 300 distinct colours
    patch = Image.fromarray(colours.astype(np.uint8), "RGB")
    assert len(patch.getcolors(1000)) == 300
    assert _palette_compose(grey, [((3, 4), patch)]) is None


def test_level_counts_count_every_byte():
    rng = np.random.default_rng(2)
    for size in (0, 1, 7, 8, 9, 64, 1001):
        plane = rng.choice(np.array([0, 32, 200, 255], dtype=np.uint8), size, p=[0.05, 0.05, 0.1, 0.8])
        assert np.array_equal(_level_counts(plane.tobytes()), np.bincount(plane, minlength=256)), size


def _bands_by_whole_discs(height, width, stamps):
    """The band canvas as its definition reads: every sample pixel's whole disc, bounds-tested."""
    canvas = np.zeros((height, width), dtype=np.uint8)
    for starts, ends, radius, bit in stamps:
        pixels = np.floor(artefact._samples(starts, ends)[0]).astype(np.int64)
        for dy, dx in artefact._disc(radius):
            rows, cols = pixels[:, 1] + dy, pixels[:, 0] + dx
            keep = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
            canvas[rows[keep], cols[keep]] |= bit
    return canvas


def test_band_canvas_crescents_give_the_whole_discs():
    # lines in every direction and of every length (under a pixel too), runs off every edge and back,
    # points (start == end), the radii verify uses and others
    rng = np.random.default_rng(4)
    for trial in range(40):
        height, width = int(rng.integers(40, 120)), int(rng.integers(40, 120))
        stamps = []
        for bit in (1, 2, 4):
            count = int(rng.integers(0, 6))
            starts = rng.uniform(-30, max(height, width) + 30, (count, 2))
            ends = starts + rng.normal(0, 1 if trial % 5 == 0 else 40, (count, 2))
            if trial % 3 == 0:
                ends[: count // 2] = starts[: count // 2]
            radius = float(rng.choice([0.0, 1.2, 3.5, 3.6, 17.1, rng.uniform(0, 9)]))
            stamps.append((starts, ends, radius, bit))
        assert np.array_equal(artefact._band_canvas(height, width, stamps),
                              _bands_by_whole_discs(height, width, stamps)), trial


@pytest.mark.parametrize("task_id", ["traversal/path", "traversal/reading-order"])
def test_band_canvas_of_generated_scenes(host, task_id):
    task = host.task(task_id)
    impl = implementation(task)
    resolved = task.resolve_params({"confounders": "high"} if task_id == "traversal/path" else {})
    for index in range(4):
        scene = artefact.read_scene(impl.generate(resolved, ItemRandom(task.id, task.version, 5, index))
                                    .structure[0].scene().record())
        v, c = scene.vertices, scene.centres
        stamps = [(c, c, scene.marker_zone, 1), (v[:-1], v[1:], scene.line_width / 2 + artefact.BAND_SLACK, 2),
                  (scene.spurs[:, 0], scene.spurs[:, 1], scene.spur_width / 2 + artefact.BAND_SLACK, 4)]
        expected = _bands_by_whole_discs(*scene.size[::-1], stamps)
        assert np.array_equal(artefact._band_canvas(*scene.size[::-1], stamps), expected), index
