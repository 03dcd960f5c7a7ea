"""sphinx/transform-similarity-identify's fast paths held to the code they replaced: tiles drawn as 4-byte pixels
(``drawn_tile``) are the kit's ``mapped_window`` tiles, the glance, distinctness and palette picture read off them
are the ones of the RGB tiles, the quick checker's worst pair and centring are its plain numpy forms, and the
verifier's keyed pixel reading and padded sampling read what the RGB route read."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import transform_similarity as ts
from bench_plugin_sphinx.kit import channels, indexed
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.verifiers import transform_similarity as verifier
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from PIL import Image
from sphinx_helpers import build_run, coverage_by_definition, kept_backdrop_by_definition, task_of

from bench_core import PNG_LEVEL, encode_png

TASK = task_of("transform_similarity_identify")


def _arts(seed: int, count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [ts.art_of(ts.motifs.sample(ts.FAMILIES[k % len(ts.FAMILIES)], rng, "asym")) for k in range(count)]


def _maps(rng: np.random.Generator, count: int) -> list[tuple[np.ndarray, tuple[float, float]]]:
    out = []
    for _ in range(count):
        matrix = float(rng.uniform(0.5, 1.4)) * tf.turn(float(rng.uniform(0, 360)), bool(rng.integers(2))) @ \
            tf.moment_breaker(np.diag([float(rng.uniform(1, 4)), 1.0]), float(rng.uniform(0, 90)))
        out.append((matrix, (float(rng.uniform(-40, 40)), float(rng.uniform(-40, 40)))))
    # far off the tile (an empty window) and hanging over its edges
    out.append((np.eye(2), (400.0, 0.0)))
    out.append((1.3 * np.eye(2), (-90.0, 95.0)))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_drawn_tiles_are_the_kits_mapped_windows(seed):
    rng = np.random.default_rng(seed)
    blank = tf.paper()
    for art in _arts(seed, 4):
        picture = Image.fromarray(art)
        for matrix, offset in _maps(rng, 6):
            tile, drawn = tf.mapped_window(art, matrix, offset, resample=ts.RESAMPLE)
            piece = ts.drawn_tile(picture, matrix, offset)
            assert np.array_equal(piece.tile, tile) and piece.drawn == drawn
            assert np.array_equal(piece.ink(), channels.differs(tile[drawn], blank[drawn]))
            assert np.array_equal(piece.ink_keys(), indexed.colour_keys(piece.window[piece.written]))
            if piece.ink().any():
                assert np.array_equal(ts.glance_drawn(piece), ts.glance(tile, drawn))
                assert np.array_equal(ts.glance_drawn(piece), ts.glance(tile))


def test_drawn_distinctness_is_the_kits():
    """``pairwise_distinct`` of Drawn tiles gives the kit's verdict, on distinct tiles and on near copies."""
    rng = np.random.default_rng(3)
    verdicts = set()
    for art in _arts(3, 4):
        picture = Image.fromarray(art)
        base = tf.turn(float(rng.uniform(0, 360)))
        for spread in (0.0, 0.02, 1.0):
            pieces = [ts.drawn_tile(picture, base @ tf.turn(spread * float(rng.uniform(0, 90))), (0.0, 0.0))
                      for _ in range(4)]
            verdict = ts.pairwise_distinct(pieces)
            assert verdict == tf.pairwise_distinct([piece.tile for piece in pieces])
            verdicts.add(verdict)
    assert verdicts == {True, False}


def test_drawn_palette_pictures_write_the_png_of_the_rgb_picture():
    """Items' pictures composed from Drawn tiles are exactly the core's PNG of ``compose``'s RGB picture; a tile set
    hiding a paper colour everywhere, or of over 256 colours, is left to RGB."""
    modes = set()
    for built in build_run(TASK, 12, seed=21):
        modes.add(built.images[0].mode)
        rgb = Image.fromarray(ts.compose(built.item.metadata["scene"]))
        rgb.info[PNG_LEVEL] = ts.ZLIB_LEVEL  # as render asks
        assert encode_png(built.images[0]) == encode_png(rgb)
    assert "P" in modes
    rng = np.random.default_rng(4)
    art = _arts(4, 1)[0]
    picture = Image.fromarray(art)
    pieces = [ts.drawn_tile(picture, matrix, offset) for matrix, offset in _maps(rng, 5)[:5]]
    image = ts.drawn_palette_compose(pieces)
    assert image is not None
    assert encode_png(image) == encode_png(Image.fromarray(ts.compose({"options": [None] * 4},
                                                                       [piece.tile for piece in pieces])))
    # a black square over the paper's first pixels of every colour, in every tile
    square = Image.fromarray(np.zeros((240, 240, 3), np.uint8))
    covered = [ts.drawn_tile(square, 2.0 * np.eye(2), (-100.0, -100.0))] * 5
    assert not ts._paper_shows(covered) and ts.drawn_palette_compose(covered) is None
    noisy = Image.fromarray(np.random.default_rng(5).integers(0, 200, (240, 240, 3), dtype=np.uint8))
    assert ts.drawn_palette_compose([ts.drawn_tile(noisy, np.eye(2))] * 5) is None


def test_the_paper_spots_hold_the_papers_colours():
    blank = tf.paper()
    colours = {tuple(c) for c in np.unique(blank.reshape(-1, 3), axis=0).tolist()} - {(255, 255, 255)}
    assert {tuple(blank[row, col].tolist()) for row, col in ts._paper_spots()} == colours


def test_the_quick_checkers_worst_pair_and_coverage_are_the_plain_ones():
    rng = np.random.default_rng(6)
    for art in _arts(6, 7):
        mask = channels.differs(art, 255)
        rows, cols = np.nonzero(mask)
        points = (np.stack([cols, rows], axis=1) - np.array([art.shape[1], art.shape[0]]) / 2) / tf.SUPER
        for count in (2, 4, 2, 4):
            covariance = ts.stretch_covariance(float(rng.uniform(1.2, 4.0)), float(rng.uniform(0, 180)))
            maps = ts.versions(covariance, rng.uniform(0, 180, count))
            step = len(points) // ts.QUICK_POINTS
            assert np.array_equal(ts.canonical_coverage(points[::step], maps, float(step)),
                                  coverage_by_definition(points[::step], maps, float(step), ts.flipped_counts))
            scores = ts.quick_similarity(points, maps)
            assert ts.quick_worst(points, maps) == scores[~np.eye(count, dtype=bool)].max()


def test_centring_equals_numpys_mean():
    rng = np.random.default_rng(7)
    for _ in range(300):
        count, n = int(rng.choice([1, 2, 4, 12])), int(rng.integers(1, 2000))
        moved = rng.normal(size=(n, 2))[None] * rng.uniform(0.1, 80) @ rng.normal(size=(count, 2, 2))
        assert np.array_equal(ts.centred(moved), moved - moved.mean(axis=1, keepdims=True))


def _rgb_masks(image, scene):
    """The verifier's first reading: the whole picture as RGB, frames and motif masks channel by channel."""
    pixels = rgb_pixels(image)
    border, blank = scene["border"], px.blank_paper(scene["paper"])
    boxes = [scene["source_box"], *scene["option_boxes"]]
    frames = [px.frame_is_black(pixels, box, border) for box in boxes]
    contents = [px.tile_content(pixels, box, border) for box in boxes]
    return frames, [channels.differs(c, blank) & channels.differs(c, 255) for c in contents]


def test_the_verifiers_keyed_reading_is_the_rgb_reading():
    rng = np.random.default_rng(8)
    for built in build_run(TASK, 6, seed=22):
        scene = built.item.metadata["scene"]
        image = built.images[0].convert("RGB")
        array = np.array(image)
        # a planted grey frame pixel and a recoloured motif pixel must read the same both ways
        left, top = scene["option_boxes"][1][:2]
        array[top + 1, left + 100] = 90
        array[top + 130, left + 130] = [int(v) for v in rng.integers(0, 256, 3)]
        for picture in (image, Image.fromarray(array)):
            frames, masks = _rgb_masks(picture, scene)
            boxes = [scene["source_box"], *scene["option_boxes"]]
            tiles = px.box_keys(picture, boxes)
            blank = px.blank_keys(scene["paper"])
            assert [px.ring_is_black(tile, scene["border"]) for tile in tiles] == frames
            for tile, mask in zip(tiles, masks, strict=True):
                content = tile[scene["border"]: -scene["border"], scene["border"]: -scene["border"]]
                assert np.array_equal((content != blank) & (content != px.WHITE_KEY), mask)
        # a box over the picture's edge is cut as numpy slices the pixel array
        odd = [[-5, 10, 40, 60], [1280, 700, 1300, 800]]
        pixels = rgb_pixels(image)
        for keys, (left, top, right, bottom) in zip(px.box_keys(image, odd), odd, strict=True):
            assert keys.shape == pixels[top:bottom, left:right].shape[:2]


def test_the_verifiers_padding_holds_every_sample():
    """Every sample of every view lands inside the padded mask (so no clipping is needed), even for a motif whose
    radius of gyration is large against the tile."""
    mask = np.zeros((tf.SIDE, tf.SIDE), bool)
    mask[0, 0] = mask[-1, -1] = mask[0, -1] = mask[-1, 0] = True
    sampling = verifier.Sampling(mask)
    q = sampling.offsets.astype(np.float64)
    for degrees in np.arange(0, 360, 0.5):
        cos, sin = (float(v[0]) for v in verifier._turns([degrees]))
        for sign in (1.0, -1.0):
            x = sampling.centre[0] + cos * sign * q[None, :] - sin * q[:, None]
            y = sampling.centre[1] + sin * sign * q[None, :] + cos * q[:, None]
            assert np.rint(x).min() >= -sampling.pad and np.rint(x).max() < tf.SIDE + sampling.pad
            assert np.rint(y).min() >= -sampling.pad and np.rint(y).max() < tf.SIDE + sampling.pad


def test_nonzero_from_flat_positions_is_numpys():
    rng = np.random.default_rng(9)
    for _ in range(200):
        mask = rng.random((int(rng.integers(0, 80)), int(rng.integers(1, 80)))) < rng.random()
        for view in (mask, mask[1::2, 3:]):
            if view.shape[1] == 0:
                continue
            for ours, numpys in zip(ts.nonzero(view), np.nonzero(view), strict=True):
                assert np.array_equal(ours, numpys) and ours.dtype == numpys.dtype
    mask = rng.random((tf.SIDE, tf.SIDE)) < 0.1
    centre, radius = verifier._frame(mask)
    rows, cols = np.nonzero(mask)
    assert np.array_equal(centre, [cols.mean(), rows.mean()])
    assert radius == float(np.sqrt(((cols - centre[0]) ** 2 + (rows - centre[1]) ** 2).mean()))


def test_the_covariance_from_nonzero_is_the_kits_moments():
    for art in _arts(10, 7):
        mask = channels.differs(art, 255)
        assert np.array_equal(ts.covariance_of(*ts.nonzero(mask)), tf.moments(mask)[1])


def test_the_kept_paper_backdrop_is_the_kits():
    picture = ts.compose({"options": [None] * 4}, [tf.paper()] * 5)
    ours, kits = ts._paper_backdrop(), kept_backdrop_by_definition(picture)
    for a, b in zip(ours[:3], kits[:3], strict=True):
        assert np.array_equal(a, b) and a.dtype == b.dtype and not a.flags.writeable
    assert tuple(ours[3]) == tuple(kits[3])


@pytest.mark.parametrize("symmetric", [True, False])
def test_the_verifiers_view_keys_are_the_per_view_keys(symmetric):
    mask = np.zeros((tf.SIDE, tf.SIDE), bool)
    mask[100:140, 90:170] = True
    views = verifier.SourceViews(mask)
    views.symmetric = symmetric
    degrees = [float(a) for a in range(-7, 367)] + [90.0, 270.0, 180.0, -90.0]
    mirrored = [bool(k % 3 == 0) for k in range(len(degrees))]
    cos, sin = verifier._turns(degrees)
    expected = [views._key(float(c), float(s), m) for c, s, m in zip(cos, sin, mirrored, strict=True)]
    got = views._keys(cos, sin, np.array(mirrored))
    assert got == expected
    assert [tuple(map(type, key)) for key, _, _ in got] == [tuple(map(type, key)) for key, _, _ in expected]
