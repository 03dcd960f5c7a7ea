"""The verifiers of mental rotation and composition read panels in ways that must not change what they find:
several canvases filled at once (``fill_canvases``) come out as each filled alone, a palette image reads as its
RGB conversion, and sketches worked out together ahead (``prepare``) are the ones worked out panel by panel."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from bench_core import build_item, create_host, decode_png, hookimpl, plan
from bench_plugin_mindseye.descriptions.mental_composition import TASK as MENTAL_COMPOSITION
from bench_plugin_mindseye.descriptions.mental_rotation import TASK as MENTAL_ROTATION
from bench_plugin_mindseye.verifiers import mental_composition, mental_rotation
from bench_plugin_mindseye.verifiers.polygon_fill import fill_canvases, fill_polygons


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [MENTAL_ROTATION, MENTAL_COMPOSITION]


HOST = create_host(entry_points=False, plugins=[("test-mr-projection-shortcuts", _Plugin())])


@pytest.mark.parametrize("with_depth", [False, True])
def test_canvases_filled_together_come_out_as_filled_alone(with_depth):
    rng = np.random.default_rng(3 + with_depth)
    for _ in range(40):
        side, canvases = int(rng.integers(6, 60)), int(rng.integers(1, 5))
        count = int(rng.integers(1, 12))
        centres = rng.uniform(-3, side + 3, (count, 1, 2))
        angles = np.sort(rng.uniform(0, 2 * np.pi, (count, 4)), axis=1)
        if rng.random() < 0.5:  # edges along the axes and diagonals, corners on half pixels
            angles = np.round(angles / (np.pi / 4)) * (np.pi / 4)
        corners = centres + rng.uniform(0.5, side / 2, (count, 1, 1)) * np.stack([np.cos(angles), np.sin(angles)], 2)
        xs, ys = corners[..., 0], corners[..., 1]
        canvas = rng.integers(0, canvases, count)
        depth = np.round(rng.normal(size=(count, 3)), 1) if with_depth else None  # rounded: ties happen
        labels = rng.permutation(count) + 5
        together = fill_canvases(xs, ys, side, depth, labels, canvas, canvases)
        for k in range(canvases):
            on = canvas == k
            alone = fill_polygons(xs[on], ys[on], side, None if depth is None else depth[on], labels[on])
            if alone is None:
                assert together[k] is None
            else:
                assert together[k][0] == alone[0] and np.array_equal(together[k][1], alone[1])


def _marked(item_image: Image.Image, scene) -> Image.Image:
    """The image with a small dark dot on the first option's face and a short line beside it."""
    pixels = np.asarray(item_image.convert("RGB")).copy()
    x0, y0, x1, y1 = scene["option_boxes"][0]
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    pixels[cy - 1:cy + 2, cx - 1:cx + 2] = (20, 20, 20)
    pixels[y0 + 8, x0 + 8:x0 + 14] = (20, 20, 20)
    return Image.fromarray(pixels, "RGB")


@pytest.mark.parametrize(("task", "verifier"), [(MENTAL_ROTATION, mental_rotation),
                                                (MENTAL_COMPOSITION, mental_composition)])
def test_palette_and_prepared_readings_find_what_rgb_and_lazy_ones_find(task, verifier):
    for job in plan(task, {"size": "600x800"}, 21, 1):
        built = build_item(HOST, task, job.seed, job.index, job.params, job.suffix)
        scene = built.item.metadata["scene"]
        decoded = decode_png(built.pngs[0])
        marked = _marked(decoded, scene)
        images = [decoded, decoded.convert("RGB"), marked, marked.quantize(256, dither=Image.Dither.NONE)]
        if decoded.mode == "P":
            images.append(decoded)
        found = []
        for image in images:
            verifier._drawing.cache_clear()
            verifier._paper.cache_clear()
            prepared = verifier.pixel_failures(scene, image)  # sketches worked out together
            verifier._drawing.cache_clear()
            verifier._paper.cache_clear()
            original = verifier.prepare
            verifier.prepare = lambda scene: None
            try:
                lazy = verifier.pixel_failures(scene, image)  # panel by panel
            finally:
                verifier.prepare = original
            assert prepared == lazy
            found.append(prepared)
        assert found[0] == found[1] == [], found[0]  # a fresh item passes, read from its palette or from RGB
        assert found[2], "the marks are seen"
        quantised_rgb = verifier.pixel_failures(scene, images[3].convert("RGB"))
        assert found[3] == quantised_rgb  # a palette image reads as its RGB conversion
