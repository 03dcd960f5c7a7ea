"""Fast paths of the wallpaper-groups verifier added for speed, each held to the code it replaced (kept here as the
reference): bit for bit where the route takes the very same steps, and where it does not (the moved folds'
transforms read off the fold's own), within a thousandth of a bin, with every patch of a run of items read as the
replaced route reads it."""

from __future__ import annotations

import io

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx.verifiers import wallpaper as verifier
from PIL import Image
from sphinx_helpers import build_run, task_of
from test_wallpaper_frieze_fast_paths import _same

from bench_core import decode_png

TASK = task_of("wallpaper_groups")


def _whole_bins_reference(across, down, whole, bins):
    values = np.add.outer(down, across)
    np.rint(values, out=values)
    out = values.astype(whole)
    return np.remainder(out, whole(bins), out=out)


def test_whole_bins_floor_division_is_the_remainder():
    rng = np.random.default_rng(61)
    for _ in range(200):
        bins = int(rng.integers(1, 200))
        scale = float(rng.choice([0.3, 5.0, 300.0, 1e6]))
        across, down = rng.uniform(-scale, scale, int(rng.integers(1, 300))), rng.uniform(-scale, scale,
                                                                                         int(rng.integers(1, 300)))
        if _ % 7 == 0:  # whole and half values: every rounding tie
            across, down = np.rint(2 * across) / 2, np.rint(2 * down) / 2
        for whole in (np.int32, np.int64):
            assert _same(verifier._whole_bins(across, down, whole, bins),
                         _whole_bins_reference(across, down, whole, bins))


def test_rows_and_columns_are_divmod():
    rng = np.random.default_rng(62)
    for _ in range(200):
        width = int(rng.integers(1, 2000))
        flat = np.sort(rng.integers(0, width * int(rng.integers(1, 2000)), int(rng.integers(0, 5000))))
        for got, want in zip(verifier._rows_and_columns(flat, width), np.divmod(flat, width), strict=True):
            assert _same(got, want)
    dark = rng.random((37, 53)).astype(np.float32)
    for got, want in zip(verifier._inked(dark), np.nonzero(dark > verifier.INK), strict=True):
        assert np.array_equal(got, want)


def _one_of_each_reference(maps):
    seen = []
    for m in maps:
        if np.array_equal(m, np.eye(2, dtype=int)) or any(np.array_equal(m @ k, np.eye(2, dtype=int)) for k in seen):
            continue
        seen.append(m)
    return seen


def test_one_of_each_is_the_matrix_products():
    rng = np.random.default_rng(63)
    every = list(verifier._UNIMODULAR)
    bases = [np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0, 0.5], [0.0, np.sqrt(3) / 2]]),
             np.array([[2.0, 0.0], [0.0, 3.0]]), np.array([[1.0, 0.5], [0.0, 1.7]]), np.array([[1.0, 0.3], [0.0, 1.1]])]
    cases = [verifier.lattice_maps(b * s) for b in bases for s in (20.0, 97.0)]
    for _ in range(300):
        cases.append([every[k] for k in rng.permutation(len(every))[: int(rng.integers(0, len(every) + 1))]])
    for maps in cases:
        got, want = verifier._one_of_each(maps), _one_of_each_reference(maps)
        assert len(got) == len(want) and all(g is w for g, w in zip(got, want, strict=True))


def _random_tables(rng, count=30):
    for k in range(count):
        bins = int([24, 25, 27, 45, 48, 54, 64, 75, 90, 96, 100, 108, 120, 125, 128][k % 15])
        if k % 3 == 0:  # smooth: broad peaks, as a fold's
            table = rng.random((bins // 4 + 1, bins // 4 + 1)).repeat(4, axis=0).repeat(4, axis=1)[:bins, :bins]
        else:
            table = rng.random((bins, bins))
        yield np.ascontiguousarray(table, dtype=np.float32)


def test_best_translation_is_best_shifts_of_the_table_itself():
    rng = np.random.default_rng(64)
    for table in _random_tables(rng):
        bins = table.shape[0]
        spectrum = np.fft.rfft2(table)
        for exclude in (1, 2, 3, 7):
            assert _same(verifier._best_translation(spectrum, bins, exclude),
                         verifier._best_shifts(table, table[None], exclude, spectrum)[0])


def test_mapped_spectrum_is_the_transform_of_the_mapped_table():
    """T composed with M has the transform of T at M^-T k: the gathered half-spectrum is the rfft2 of ``_mapped``
    but for float32 rounding, for every unimodular M and odd and even sides."""
    rng = np.random.default_rng(65)
    for table in _random_tables(rng, 15):
        bins = table.shape[0]
        spectrum = np.fft.rfft2(table)
        for m in verifier._UNIMODULAR:
            index, direct = verifier._mapped_spectrum(bins, *(int(v) for v in m.ravel()))
            got = spectrum.ravel().take(index)
            got = np.where(direct, got, np.conj(got))
            want = np.fft.rfft2(verifier._mapped(table, m))
            assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max()


def _wrapped(d, bins):
    return np.abs((d + bins / 2) % bins - bins / 2)


def test_best_map_shifts_are_best_shifts_of_the_mapped_tables():
    """The shifts the moved folds' transforms read off the fold's own give agree with those of the transforms taken
    again within a thousandth of a bin (modulo the torus)."""
    rng = np.random.default_rng(66)
    for table in _random_tables(rng):
        bins = table.shape[0]
        spectrum = np.fft.rfft2(table)
        maps = [verifier._UNIMODULAR[k] for k in rng.choice(len(verifier._UNIMODULAR), int(rng.integers(1, 10)),
                                                            replace=False)]
        got = verifier._best_map_shifts(spectrum, maps, bins)
        want = verifier._best_shifts(table, np.array([verifier._mapped(table, m) for m in maps]), spectrum=spectrum)
        assert got.shape == want.shape and _wrapped(got - want, bins).max() <= 1e-3


def test_pixels_points_and_values_when_asked_are_the_eager_ones():
    rng = np.random.default_rng(67)
    for k in range(20):
        h, w = int(rng.integers(5, 120)), int(rng.integers(5, 120))
        low = np.where(rng.random((h, w)) < 0.3, rng.integers(0, 256, (h, w)), 255).astype(np.uint8)
        dark = verifier.darkness(low)
        ys, xs = np.nonzero(dark > verifier.INK)
        for samples in (None, 1, 7, 150, verifier.SAMPLES):
            pixels = verifier.Pixels(dark, reach=k % 2, samples=samples, low=low if k % 3 else None)
            every = max(1, -(-len(xs) // samples)) if samples else 1
            assert _same(pixels.points, np.stack([xs[::every], ys[::every]], axis=1).astype(float))
            assert _same(pixels.values, dark[ys[::every], xs[::every]])


def _read_with_transforms_taken_again(monkeypatch, patch, basis):
    """``read_group`` as before the transforms were read off the fold's own: ``_best_shifts`` of the fold and of
    its mapped tables, each transform taken again."""
    folds = []

    def fold(*args):
        folds.append(fold_first(*args))
        return folds[-1]

    def best_map_shifts(spectrum, maps, bins):
        table = folds[-1][0]
        return verifier._best_shifts(table, np.array([verifier._mapped(table, m) for m in maps]), spectrum=spectrum)

    fold_first = verifier.fold
    with monkeypatch.context() as m:
        m.setattr(verifier, "fold", fold)
        m.setattr(verifier, "_best_map_shifts", best_map_shifts)
        return verifier.read_group(patch, basis)


@pytest.mark.parametrize("seed", [71, 72])
def test_patches_read_as_with_the_transforms_taken_again(monkeypatch, seed):
    """Every patch of a run of items: the same group and the same failures (none) by either route, and every map's
    verdict (holds, fails, neither) the same."""
    for built in build_run(TASK, 6, seed=seed):
        rgb = np.asarray(built.images[0].convert("RGB"))
        for patch in built.item.metadata["scene"]["patches"]:
            left, top, right, bottom = patch["box"]
            low = verifier.darkest_in(built.images[0].convert("RGB"), patch["box"])
            assert _same(low, np.minimum(np.minimum(rgb[top:bottom, left:right, 0], rgb[top:bottom, left:right, 1]),
                                         rgb[top:bottom, left:right, 2]))
            group, scores, failures = verifier.read_group(low, patch["basis"])
            again, scores_again, failures_again = _read_with_transforms_taken_again(monkeypatch, low, patch["basis"])
            assert (group, failures) == (again, failures_again) == (patch["group"], [])
            assert scores.keys() == scores_again.keys()
            for name, value in scores.items():
                side = [value <= verifier.HOLD, value >= verifier.FAIL]
                assert side == [scores_again[name] <= verifier.HOLD, scores_again[name] >= verifier.FAIL], name


def _palette_pictures(rng, count=30):
    """Palette pictures: random palettes, some shorter than the indices drawn (those read black), some with the
    task's few colours."""
    for k in range(count):
        h, w = int(rng.integers(3, 90)), int(rng.integers(3, 90))
        colours = int(rng.integers(1, 257))
        palette = rng.integers(0, 256, 3 * colours).astype(np.uint8)
        if k % 3 == 0:
            palette[:3] = 255
        picture = Image.fromarray(rng.integers(0, min(256, colours + (k % 2) * 5), (h, w)).astype(np.uint8), "P")
        picture.putpalette(palette.tobytes())
        yield picture


def _boxes(rng, w, h, count=12):
    for _ in range(count):
        left, top = int(rng.integers(-3, w + 1)), int(rng.integers(-3, h + 1))
        yield left, top, left + int(rng.integers(0, w + 4)), top + int(rng.integers(0, h + 4))
    yield 0, 0, w, h


def _outcome(function, *args):
    """(what ``function`` returns, or the type of what it raises)."""
    try:
        return function(*args), None
    except Exception as error:  # a degenerate box fails alike either way
        return None, type(error)


def test_a_palette_picture_is_read_as_its_rgb_conversion():
    """``darkest_in`` and ``framed`` of a palette picture: what they read of ``convert("RGB")`` (the darkest
    channels the formula takes), for boxes inside the picture and reaching past it."""
    rng = np.random.default_rng(68)
    for picture in _palette_pictures(rng):
        rgb = picture.convert("RGB")
        pixels = np.asarray(rgb)
        for box in _boxes(rng, *picture.size):
            low = verifier.darkest_in(picture, box)
            assert _same(low, verifier.darkest_in(rgb, box))
            left, top, right, bottom = box
            if 0 <= left <= right <= picture.width and 0 <= top <= bottom <= picture.height:
                assert _same(low, pixels[top:bottom, left:right].min(axis=2))
            assert _outcome(verifier.framed, picture, box) == _outcome(verifier.framed, rgb, box)
    framed = Image.new("P", (20, 20), 1)
    framed.putpalette(bytes([255, 255, 255, 0, 0, 0]))
    framed.paste(0, (2, 2, 18, 18))
    assert verifier.framed(framed, (0, 0, 20, 20)) and not verifier.framed(framed, (1, 1, 19, 19))


@pytest.mark.parametrize("seed", [73])
def test_a_palette_png_verifies_as_its_rgb_decoding(seed):
    """``verify`` of the PNG decoded as a palette picture finds what it finds of the RGB decoding: nothing for
    the items as written, the same failures for an item whose record was altered."""
    for built in build_run(TASK, 4, seed=seed):
        palette = Image.open(io.BytesIO(built.pngs[0]))
        palette.load()
        assert palette.mode == "P"
        rgb = decode_png(built.pngs[0])
        assert verifier.verify(built.item, [palette]) == verifier.verify(built.item, [rgb]) == []
        scene = built.item.metadata["scene"]
        patches = [dict(p) for p in scene["patches"]]
        patches[0]["basis"] = [[v * 0.5 for v in row] for row in patches[0]["basis"]]
        boxes = [list(b) for b in scene["option_boxes"]]
        boxes[1] = [b + 3 for b in boxes[1]]
        metadata = {**built.item.metadata, "scene": {**scene, "patches": patches, "option_boxes": boxes}}
        altered = attrs.evolve(built.item, metadata=metadata)
        found = verifier.verify(altered, [palette])
        assert found and found == verifier.verify(altered, [rgb])


def test_batched_solves_are_one_solve_each():
    """``_solved`` and ``_central``: the very values of one ``np.linalg.solve`` per system."""
    rng = np.random.default_rng(69)
    for _ in range(200):
        count = int(rng.integers(0, 12))
        basis = rng.uniform(-150, 150, (2, 2))
        if abs(np.linalg.det(basis)) < 1:
            continue
        matrices = [basis @ verifier._UNIMODULAR[int(rng.integers(len(verifier._UNIMODULAR)))] for _ in range(count)]
        rights = [rng.uniform(-600, 600, 2) for _ in range(count)]
        got = verifier._solved(matrices, rights)
        assert len(got) == count
        assert all(_same(g, np.linalg.solve(m, r)) for g, m, r in zip(got, matrices, rights, strict=True))
        centre = np.full(2, float(rng.choice([243.5, rng.uniform(0, 500)])))
        pairs = [(rng.uniform(-1, 1, (2, 2)), rng.uniform(-300, 300, 2)) for _ in range(count)]
        pairs = [(a, np.rint(t) if k % 2 else t) for k, (a, t) in enumerate(pairs)]
        want = [t + basis @ np.rint(np.linalg.solve(basis, centre - a @ centre - t)) for a, t in pairs]
        got = verifier._central(basis, centre, pairs)
        assert len(got) == count and all(_same(g, w) for g, w in zip(got, want, strict=True))


def test_pixels_of_the_bytes_alone_measure_what_pixels_of_the_darkness_measure():
    """``Pixels`` given only the darkest channels (the darkness taken when asked for; in place, compared on the
    bytes, the padded darkness never made) against ``Pixels`` of the darkness alone (the float route), for every
    map, limit and shift, whole and not, reaching past the picture."""
    rng = np.random.default_rng(70)
    for k in range(40):
        h, w = int(rng.integers(8, 100)), int(rng.integers(8, 100))
        colours = (rng.integers(0, 16, (int(rng.integers(1, 6)), 3)) * 17).astype(np.uint8)
        if k % 4 == 3:
            colours = rng.integers(0, 256, (200, 3), dtype=np.uint8)
        rgb = np.full((h, w, 3), 255, np.uint8)
        where = rng.random((h, w)) < 0.35
        rgb[where] = colours[rng.integers(0, len(colours), int(where.sum()))]
        low = rgb.min(axis=2)
        dark = verifier.darkness(low)
        shifts = rng.uniform(-1.5 * w, 1.5 * h, (int(rng.integers(1, 30)), 2))
        shifts[::2] = np.rint(shifts[::2])
        for reach in (0, 1):
            for samples in (None, 50, 1500):
                pixels = verifier.Pixels(None, reach=reach, samples=samples, low=low)
                every = verifier.Pixels(None, reach=reach, samples=None, shared=pixels.share())
                plain = verifier.Pixels(dark, reach=reach, samples=samples)
                assert pixels.h == plain.h and pixels.w == plain.w and every.w == w
                pairs = [(np.eye(2), shifts), (verifier._UNIMODULAR[int(rng.integers(8))].astype(float), shifts[:3])]
                for limit in (None, verifier.REFINE, verifier.CLIMB):
                    got, want = pixels.mismatch_of(pairs, limit), plain.mismatch_of(pairs, limit)
                    assert all(_same(g, v) for g, v in zip(got, want, strict=True))
                whole = verifier.Pixels(dark, reach=reach, samples=None)
                for t in [*rng.integers(-w - 3, w + 3, (6, 2)).astype(float), rng.uniform(-w, w, 2)]:
                    assert every.translation(t) == whole.translation(t) == whole.mismatch(np.eye(2), t)[0]
                assert _same(pixels.dark, dark) and _same(pixels.values, plain.values)


def test_translations_by_levels_count_what_mismatch_counts():
    """``translation`` within a pixel (the inked pixels moved by whole pixels, rows found by bisection) against
    ``mismatch`` of the identity, for shifts whole, fractional, on a half (left to ``mismatch``) and reaching past
    the picture."""
    rng = np.random.default_rng(75)
    taken = 0
    for _ in range(60):
        h, w = int(rng.integers(6, 120)), int(rng.integers(6, 120))
        colours = (rng.integers(0, 16, (int(rng.integers(1, 6)), 3)) * 17).astype(np.uint8)
        rgb = np.full((h, w, 3), 255, np.uint8)
        where = rng.random((h, w)) < float(rng.choice([0.0, 0.02, 0.35]))
        rgb[where] = colours[rng.integers(0, len(colours), int(where.sum()))]
        low = rgb.min(axis=2)
        for reach in (1, 2):
            for samples in (None, 40, verifier.PERIOD_SAMPLES):
                pixels = verifier.Pixels(None, reach=reach, samples=samples, low=low)
                shifts = [rng.uniform(-1.3 * w, 1.3 * h, 2), np.rint(rng.uniform(-w, w, 2)),
                          np.rint(rng.uniform(-h, h, 2)) + 0.5, rng.uniform(-3, 3, 2), np.zeros(2)]
                for t in shifts:
                    want = float(pixels.mismatch(np.eye(2), t)[0])
                    got = pixels._translation_by_levels(t)
                    assert got is None or got == want
                    assert pixels.translation(t) == want
                    taken += got is not None
    assert taken > 1000
