"""The palette pictures of transform-pair-infer and wallpaper-groups, composed from their pieces' indices with
the shown colours known without counting pixels, held to the PNG the core writes for the RGB picture."""

from __future__ import annotations

import numpy as np
from bench_plugin_sphinx import transform_pair as tp
from bench_plugin_sphinx import wallpaper_groups as wg
from bench_plugin_sphinx.kit import transforms as tf
from PIL import Image
from sphinx_helpers import build_run, task_of

from bench_core import encode_png

PAIR = task_of("transform_pair_infer")
WALLPAPER = task_of("wallpaper_groups")


def test_transform_pair_palette_picture_is_the_png_of_the_rgb_picture():
    """Every transformation (the translations by every king move among them): the palette picture generate
    composes is the PNG of ``compose``'s RGB picture, the item's own PNG."""
    for transform in tf.TRANSFORMS:
        for built in build_run(PAIR, 3 if transform == "translate" else 2, {"transform": transform}, seed=21):
            scene = built.item.metadata["scene"]
            motif = tf.motifs.render(scene["motif"], scene["motif_side"])
            picture = tp.palette_compose(scene, motif)
            assert picture is not None and picture.mode == "P"
            assert encode_png(picture) == encode_png(Image.fromarray(tp.compose(scene))) == built.pngs[0]


def test_transform_pair_palette_of_the_largest_motif_moved_up():
    """The largest motif moved up by a king move (the nearest it comes to a tile's first row, which must keep
    showing both grid colours) still gives the PNG of the RGB picture."""
    built = build_run(PAIR, 1, {"transform": "translate"}, seed=3)[0]
    side = 2 * (int(tf.MOTIF_FRACTION[1] * tf.SIDE) // 2)
    motif = tf.motifs.render(built.item.metadata["scene"]["motif"], side)
    for vector in ([0, -1], [-1, -1], [1, -1]):
        scene = {**built.item.metadata["scene"], "motif_side": side, "vector": vector}
        assert encode_png(tp.palette_compose(scene, motif)) == encode_png(Image.fromarray(tp.compose(scene)))


def test_wallpaper_palette_picture_counts_colours_when_a_sprite_has_no_whole_copy():
    """A patch whose part-0 copies are all clipped by its edge (the ones lying whole inside dropped) takes the
    counting route, and still gives the PNG of the RGB picture."""
    built = build_run(WALLPAPER, 1, {"majority": "p2", "odd": "pg"}, seed=14)[0]
    scene = built.item.metadata["scene"]
    sprites = [wg.patch_sprites(patch) for patch in scene["patches"]]
    patches = [dict(p) for p in scene["patches"]]
    side = sprites[0][0].shape[0]
    half = side // 2

    def whole(copy):
        x, y, _k = copy
        return 0 <= y - half <= wg.INNER - side and 0 <= x - half <= wg.INNER - side

    patches[0]["copies"] = [c for c in patches[0]["copies"] if c[2] != 0 or not whole(c)]
    assert any(c[2] == 0 for c in patches[0]["copies"])
    changed = {**scene, "patches": patches}
    picture = wg.palette_compose(changed, sprites)
    assert picture is not None
    assert encode_png(picture) == encode_png(Image.fromarray(wg.compose(changed)))
    assert np.array_equal(np.asarray(picture.convert("RGB")), wg.compose(changed))
