"""The fast drawing routes give exactly the pixels of the plain ones: the renderer's grey plane and marker
patches against one RGB canvas, and the verifier's word-wise ink test against the per-channel one."""

from __future__ import annotations

import numpy as np
import pytest

from bench_core import ItemRandom, implementation
from bench_plugin_traversal import artefact
from bench_plugin_traversal.common import TraversalTask
from bench_plugin_traversal.glyphs import VOCABULARY
from bench_plugin_traversal.render import Scene, _render_rgb, render_scene


def _same(scene: Scene) -> bool:
    return np.array_equal(np.asarray(render_scene(scene)), np.asarray(_render_rgb(scene)))


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
