"""Fast paths of the wallpaper-groups generator and verifier added for speed, each held equal (the very values, bit
for bit) to the route it replaced, which is kept here as the reference (``test_wallpaper_frieze_fast_paths`` holds
the older ones)."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import wallpaper_groups as wg
from bench_plugin_sphinx.kit import channels, groups
from bench_plugin_sphinx.verifiers import odd_group
from bench_plugin_sphinx.verifiers import wallpaper as verifier
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from PIL import Image
from sphinx_helpers import build, task_of
from test_wallpaper_frieze_fast_paths import (
    _both_ways_reference,
    _lattice_map,
    _pattern_changes_reference,
    _pictures,
    _same,
)

TASK = task_of("wallpaper_groups")


def _snapped_pictures(rng, count=30):
    """Mostly white pictures of a few colours snapped as the task snaps them (16 levels a channel), some with more
    colours than 64 darkness levels, some with anti-aliased edges: the level route and its fallback."""
    for k in range(count):
        h, w = int(rng.integers(12, 110)), int(rng.integers(12, 110))
        picture = np.full((h, w, 3), 255, np.uint8)
        where = rng.random((h, w)) < 0.35
        if k % 3 == 2:  # every byte: more levels than the route keeps
            colours = rng.integers(0, 256, (300, 3), dtype=np.uint8)
        else:
            colours = (rng.integers(0, 16, (int(rng.integers(1, 6)), 3)) * 17).astype(np.uint8)
        picture[where] = colours[rng.integers(0, len(colours), int(where.sum()))]
        yield picture


def test_pattern_ink_of_the_darkest_channels_is_that_of_the_picture():
    """``PatternInk`` of an (h, w) array of darkest channels is ``PatternInk`` of the RGB picture."""
    rng = np.random.default_rng(31)
    for rgb in [*_pictures(rng, 20), *_snapped_pictures(rng, 10)]:
        for reach in (0, 1):
            a, b = groups.PatternInk(rgb, reach), groups.PatternInk(channels.darkest(rgb), reach)
            for name in ("dark", "points", "values", "padded"):
                assert _same(getattr(a, name), getattr(b, name))


def test_pattern_changes_by_levels_and_by_owner_count_what_the_formulas_count():
    """``PatternInk.changes`` (within a pixel: one gather of the darkness levels within reach; maps given once with
    the owner of every shift) against the nine-gather formula on the maps repeated, for snapped and noisy pictures,
    whole, half and arbitrary shifts reaching past the picture."""
    rng = np.random.default_rng(32)
    for rgb in _snapped_pictures(rng, 40):
        h, w = rgb.shape[:2]
        shifts = rng.uniform(-1.5 * w, 1.5 * h, (int(rng.integers(1, 40)), 2))
        shifts[::2] = np.rint(shifts[::2]) + rng.choice([0.0, 0.5], shifts[::2].shape)
        maps = np.array([_lattice_map(rng) for _ in range(int(rng.integers(1, 6)))])
        owners = rng.integers(0, len(maps), len(shifts))
        for reach in (0, 1):
            for low in (False, True):
                ink = groups.PatternInk(channels.darkest(rgb) if low else rgb, reach)
                for points in (None, 7, 150):
                    want = _pattern_changes_reference(ink, maps[owners], shifts, points)
                    assert _same(ink.changes(maps[owners], shifts, points), want)
                    assert _same(ink.changes(maps, shifts, points, owners), want)
                    assert _same(ink.changes(maps[0], shifts, points),
                                 _pattern_changes_reference(ink, maps[0], shifts, points))


def test_verifier_both_ways_by_levels_counts_what_the_formula_counts():
    """``Pixels._both_ways`` given the darkest channels (within a pixel: one gather of the levels within reach)
    against the nine-gather formula, and ``translation`` on the bytes against ``mismatch`` of the identity."""
    rng = np.random.default_rng(33)
    for rgb in _snapped_pictures(rng, 40):
        h, w = rgb.shape[:2]
        low = channels.darkest(rgb)
        dark = verifier.darkness(low)
        shifts = rng.uniform(-1.5 * w, 1.5 * h, (int(rng.integers(1, 30)), 2))
        shifts[::2] = np.rint(shifts[::2]) + rng.choice([0.0, 0.5], shifts[::2].shape)
        for reach in (0, 1):
            for samples in (None, 50, 1500):
                pixels = verifier.Pixels(dark, reach=reach, samples=samples, low=low)
                plain = verifier.Pixels(dark, reach=reach, samples=samples)
                assert _same(pixels.points, plain.points) and _same(pixels.values, plain.values)
                a = _lattice_map(rng)
                for limit in (None, verifier.REFINE, verifier.CLIMB):
                    got = pixels._both_ways(a, shifts, limit)
                    want = _both_ways_reference(plain, a, shifts, limit)
                    assert all(_same(g, v) for g, v in zip(got, want, strict=True))
                for t in rng.integers(-w - 3, w + 3, (8, 2)).astype(float):
                    assert pixels.translation(t) == plain.translation(t) == plain.mismatch(np.eye(2), t)[0]


def test_byte_steps_stand_for_the_darkness_formula():
    dark = verifier.darkness(np.arange(256, dtype=np.uint8).reshape(1, 256))[0]
    gap = np.abs(np.arange(256)[None, :] - np.arange(256)[:, None])
    assert np.array_equal(np.abs(dark[None, :] - dark[:, None]) > 0.1, gap >= verifier._CHANGED_BYTES)
    assert np.array_equal(dark > verifier.INK, np.arange(256) <= verifier._INK_BYTES)


def test_whole_bins_are_the_broadcast_formula():
    rng = np.random.default_rng(34)
    for _ in range(30):
        xs = np.arange(0, int(rng.integers(2, 600)), 2, dtype=np.float64)
        ys = np.arange(0, int(rng.integers(2, 600)), 2, dtype=np.float64)
        a, b = rng.uniform(-3, 3, 2)
        bins = int(rng.integers(24, 129))
        for whole in (np.int32, np.int64):
            want = np.rint(a * xs[None, :] + b * ys[:, None]).astype(whole) % whole(bins)
            assert _same(verifier._whole_bins(a * xs, b * ys, whole, bins), want)


@pytest.mark.parametrize("majority", ["p6m", "p4g", "pgg", "p2"])
def test_the_verifier_reads_the_decoded_picture_as_it_read_its_rgb_array(majority):
    """``darkest_in`` and ``framed`` (Pillow on the patch's box, the frame's strips) read what the RGB array read,
    and ``read_group`` of the darkest channels reads what it reads of the RGB patch (every score)."""
    built = build(TASK, {"majority": majority}, seed=21)
    image = built.images[0].convert("RGB")
    rgb = rgb_pixels(image)
    scene = built.item.metadata["scene"]
    for k, patch in enumerate(scene["patches"]):
        left, top, right, bottom = patch["box"]
        low = verifier.darkest_in(image, patch["box"])
        assert _same(low, channels.darkest(rgb[top:bottom, left:right]))
        box = scene["option_boxes"][k]
        assert verifier.framed(image, box) == odd_group.has_black_frame(rgb, box)
        assert verifier.read_group(low, patch["basis"]) == verifier.read_group(rgb[top:bottom, left:right],
                                                                               patch["basis"])
    blank = np.full((60, 80, 3), 255, np.uint8)
    blank[10:12, 5:70] = 0
    for box in ([5, 10, 70, 50], [0, 0, 80, 60], [5, 10, 6, 50], [5, 10, 70, 11]):
        assert verifier.framed(Image.fromarray(blank), box) == odd_group.has_black_frame(blank, box)


@pytest.mark.parametrize("majority", ["p6m", "p4g", "cmm", "p31m", "pg", "p1"])
def test_pattern_darkest_is_the_darkest_channel_of_the_pattern(majority):
    built = build(TASK, {"majority": majority}, seed=22)
    for patch in built.item.metadata["scene"]["patches"]:
        sprites = wg.patch_sprites(patch)
        assert _same(wg.pattern_darkest(patch, sprites), channels.darkest(wg.pattern_canvas(patch, sprites)))


def _best_reference(pixels, a, t, radius, windows=1):
    """``Pixels.best`` as first written: one map's search, one measure at a time (and, compared in place, a shift
    reading between HOLD and RECHECK then has its neighbours measured on every sampled pixel)."""
    if pixels.reach == 0:
        window = verifier._square_window(radius)
        shift = np.rint(t)
        for _window in range(windows):
            trials = shift + window
            k = int(np.argmin(pixels.mismatch(a, trials, limit=verifier.REFINE)))
            shift = trials[k]
            if np.abs(window[k]).max() < radius:
                break
        score = float(pixels.mismatch(a, shift)[0])
        if verifier.HOLD < score < verifier.RECHECK:
            values = pixels.mismatch(a, shift + verifier.NEIGHBOURS)
            k = int(np.argmin(values))
            if values[k] < score:
                score, shift = float(values[k]), shift + verifier.NEIGHBOURS[k]
        return score, shift
    else:
        t, step, known = np.asarray(t, float), np.zeros(2), {}
        for _step in range(radius):
            steps = step + verifier.NEIGHBOURS
            keys = [(float(x), float(y)) for x, y in steps]
            new = [k for k, key in enumerate(keys) if key not in known]
            if new:
                measured = pixels.mismatch(a, t + steps[new], limit=verifier.CLIMB).tolist()
                known.update(zip([keys[k] for k in new], measured, strict=True))
            scores = np.array([known[key] for key in keys])
            k = int(np.argmin(scores))
            step = steps[k]
            if k == 4:
                break
        shift = t + step
    return float(pixels.mismatch(a, shift)[0]), shift


@pytest.mark.parametrize("majority", ["p6m", "p3", "p4g", "pmg", "cm", "p2"])
def test_searches_taken_together_are_each_maps_own_search(majority):
    """``Pixels.best_of`` (every map's window or climb stepped together, each step's trials measured in one pass)
    finds for each map the very score and shift its own search finds (``best`` as first written), on real patches
    and on maps and starting shifts off the patch's own."""
    rng = np.random.default_rng(35)
    built = build(TASK, {"majority": majority}, seed=23)
    image = built.images[0].convert("RGB")
    for patch in built.item.metadata["scene"]["patches"]:
        low = verifier.darkest_in(image, patch["box"])
        for reach in (0, 1):
            pixels = verifier.Pixels(verifier.darkness(low), reach=reach, low=low)
            pairs = [(_lattice_map(rng), rng.uniform(-60, 60, 2)) for _ in range(int(rng.integers(1, 8)))]
            basis = np.array(patch["basis"], float).T
            pairs += [(basis @ m @ np.linalg.inv(basis), rng.uniform(-30, 30, 2)) for m in verifier.lattice_maps(basis)]
            for radius, windows in ((1, 1), (3, 4), (5, 2)):
                got = pixels.best_of(pairs, radius, windows)
                for (a, t), (score, shift) in zip(pairs, got, strict=True):
                    want_score, want_shift = _best_reference(pixels, a, t, radius, windows)
                    assert score == want_score and _same(shift, want_shift)
                    assert pixels.best(a, t, radius, windows)[0] == want_score
