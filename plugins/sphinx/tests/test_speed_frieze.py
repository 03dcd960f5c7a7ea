"""The frieze fast paths held to the code they replaced: the palette picture composed from the chrome's inked
pixels and the sprites' ink (its shown colours known without counting) against the core's palette image of the
RGB picture, and the verifier's whole-number period check and option reads against the float formulas."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import frieze_groups as fg
from bench_plugin_sphinx.verifiers import frieze as verifier
from bench_plugin_sphinx.verifiers.periodic import darkness, mismatch
from PIL import Image
from sphinx_helpers import build_run, kept_backdrop_by_definition, task_of

from bench_core import decode_png, encode_png

TASK = task_of("frieze_groups")


@pytest.fixture(scope="module")
def items():
    return [(built.item, [decode_png(png) for png in built.pngs]) for built in build_run(TASK, 12, seed=7)]


def _sprites(scene):
    return [fg.base_sprite(strip, scene["motif_radius"]) for strip in scene["strips"]]


def test_palette_compose_is_the_core_palette_of_compose(items):
    composed = 0
    for item, _images in items:
        scene = item.metadata["scene"]
        sprites = _sprites(scene)
        picture = fg.palette_compose(scene, sprites)
        if picture is None:  # > 256 colours, or copies touching: the caller composes in RGB
            continue
        composed += 1
        assert picture.mode == "P"
        assert encode_png(picture) == encode_png(Image.fromarray(fg.compose(scene, sprites)))
    assert composed >= len(items) // 2


def test_palette_compose_counts_colours_when_copies_are_clipped(items):
    """A strip whose copies are all clipped by the canvas (moved off its left edge) takes the counting route, and
    still gives the core's palette image of the RGB picture (a colour only the clipped part shows is left out)."""
    item, _images = items[0]
    scene = {**item.metadata["scene"]}
    strips = [dict(strip) for strip in scene["strips"]]
    strips[0]["copies"] = [{**copy, "x": -fg.motif_radius(scene["copies"], scene["layout"]) // 2, "y": copy["y"]}
                           for copy in strips[0]["copies"][:1]]
    scene["strips"] = strips
    sprites = _sprites(scene)
    picture = fg.palette_compose(scene, sprites)
    if picture is not None:
        assert encode_png(picture) == encode_png(Image.fromarray(fg.compose(scene, sprites)))


def test_period_mismatch_is_the_float_mismatch(items):
    rng = np.random.default_rng(3)
    lows = [rng.integers(0, 256, (30, 80), dtype=np.uint8) for _ in range(20)]
    lows += [np.where(rng.random((40, 90)) < 0.3, rng.integers(150, 230, (40, 90)), 255).astype(np.uint8)
             for _ in range(20)]
    for item, images in items:
        rgb = np.asarray(images[0])
        for strip in item.metadata["scene"]["strips"]:
            left, top, right, bottom = strip["box"]
            lows.append(verifier.darkest(rgb[top:bottom, left:right]))
    for low in lows:
        dark = darkness(np.repeat(low[:, :, None], 3, axis=2))
        assert np.array_equal(dark, darkness(low))
        for period in (1, 7, 13, low.shape[1] // 2):
            w = low.shape[1]
            expected = mismatch(dark[:, : w - period], dark[:, period:], reach=verifier.REACH, step=verifier.STEP)
            assert verifier.period_mismatch(low, period) == expected


def test_option_pixels_read_what_the_whole_picture_shows(items):
    for item, images in items:
        rgb = np.asarray(images[0])
        scene = item.metadata["scene"]
        for outer, strip in zip(scene["option_boxes"], scene["strips"], strict=True):
            part, frame, (left, top, right, bottom) = verifier._option_pixels(images[0], outer, strip["box"])
            assert np.array_equal(part[frame[1]:frame[3], frame[0]:frame[2]],
                                  rgb[outer[1]:outer[3], outer[0]:outer[2]])
            l0, t0, r0, b0 = strip["box"]
            assert np.array_equal(part[top:bottom, left:right], rgb[t0:b0, l0:r0])
        # a box off the picture is read off the whole picture, as before
        whole, frame, inner = verifier._option_pixels(images[0], [-5, 0, 20, 20], [0, 0, 10, 10])
        assert whole.shape == rgb.shape and frame == [-5, 0, 20, 20] and inner == [0, 0, 10, 10]


def test_chrome_is_the_float_rounding_and_its_backdrop_the_kits():
    """The chrome's greys rounded by the lookup table are the float rounding of the drawn picture, and its backdrop
    is ``kit.indexed.kept_backdrop``'s definition (the palette conversion of the whole chrome), for every layout."""
    from bench_plugin_sphinx.kit import layout
    from PIL import ImageDraw

    for count in range(fg.COPIES[0], fg.COPIES[1] + 1):
        for lay in ("row", "columns"):
            boxes = tuple(tuple(fg.strip_geometry(count, lay, k)[0]) for k in range(4))
            size = (fg.WIDTH, fg.canvas_height(count, lay))
            image = Image.new("RGB", size, layout.WHITE)
            draw = ImageDraw.Draw(image)
            for k, box in enumerate(boxes):
                layout.frame(draw, box, fg.FRAME)
                layout.caption(draw, ((box[0] + box[2]) / 2, box[3] + fg.LABEL_BAND / 2), layout.label(k),
                               fg.LABEL_SIZE)
            expected = (np.rint(np.asarray(image) / fg.GREY_STEP) * fg.GREY_STEP).astype(np.uint8)
            chrome = fg._chrome(size, boxes)
            assert np.array_equal(chrome, expected)
            mine, kits = fg._chrome_backdrop(size, boxes), kept_backdrop_by_definition(chrome)
            assert mine[3] == kits[3]
            for a, b in zip(mine[:3], kits[:3], strict=True):
                assert a.dtype == b.dtype and np.array_equal(a, b)


def test_whole_number_thresholds_are_the_float_ones_for_every_level():
    """Every darkest-channel level is inked exactly when its float darkness is, and every two levels differ by at
    least STEP_LOW exactly when their float darknesses are more than STEP apart."""
    from bench_plugin_sphinx.verifiers.periodic import INK

    levels = np.arange(256, dtype=np.uint8)
    dark = darkness(levels[None, :])[0]
    assert np.array_equal(dark > INK, levels <= verifier.INK_LOW)
    apart_float = np.abs(dark[:, None] - dark[None, :]) > verifier.STEP
    apart_whole = np.abs(levels[:, None].astype(np.int16) - levels[None, :]) >= verifier.STEP_LOW
    assert np.array_equal(apart_float, apart_whole)
