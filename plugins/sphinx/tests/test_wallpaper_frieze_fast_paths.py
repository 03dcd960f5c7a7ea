"""Fast paths of the wallpaper and frieze generators and verifiers, each held equal (the very values, bit for bit)
to the code it replaced on many random inputs: the replaced code is kept here as the reference."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import wallpaper_groups as wg
from bench_plugin_sphinx.kit import groups
from bench_plugin_sphinx.verifiers import periodic
from bench_plugin_sphinx.verifiers import wallpaper as verifier
from sphinx_helpers import build, task_of
from test_groups import _changed_reference  # groups._changed as first written: the one reference it must equal

TASK = task_of("wallpaper_groups")


def _same(a, b) -> bool:
    """Equal arrays of one dtype and shape, bit for bit (NaNs and signed zeros included)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _pictures(rng, count=40):
    """Random RGB pictures: noise, and mostly white ones with a few colours (as the patterns are)."""
    for k in range(count):
        h, w = int(rng.integers(1, 90)), int(rng.integers(1, 90))
        if k % 2:
            yield rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        else:
            picture = np.full((h, w, 3), 255, np.uint8)
            colours = rng.integers(0, 256, (4, 3), dtype=np.uint8)
            where = rng.random((h, w)) < 0.3
            picture[where] = colours[rng.integers(0, 4, int(where.sum()))]
            yield picture


def test_darkness_is_the_formula():
    rng = np.random.default_rng(1)
    every = np.arange(256, dtype=np.uint8).reshape(16, 16, 1).repeat(3, axis=2)
    for rgb in [every, *_pictures(rng)]:
        low = np.minimum(np.minimum(rgb[:, :, 0], rgb[:, :, 1]), rgb[:, :, 2])
        assert _same(periodic.darkness(rgb), 1.0 - low.astype(np.float32) / 255.0)
    wide = rng.integers(0, 256, (9, 7, 3)).astype(np.int64)  # not bytes: the formula itself
    assert _same(periodic.darkness(wide), 1.0 - wide.min(axis=2).astype(np.float32) / 255.0)


def _mapped_reference(table, m):
    bins = table.shape[0]
    i, j = np.arange(bins)[:, None], np.arange(bins)[None, :]
    mi = (m[0, 0] * i + m[0, 1] * j) % bins
    mj = (m[1, 0] * i + m[1, 1] * j) % bins
    return table[mi, mj]


def test_mapped_is_the_fancy_index():
    rng = np.random.default_rng(2)
    for _ in range(60):
        bins = int(rng.integers(2, 130))
        table = rng.random((bins, bins)).astype(np.float32)
        m = verifier._UNIMODULAR[int(rng.integers(len(verifier._UNIMODULAR)))]
        assert _same(verifier._mapped(table, m), _mapped_reference(table, m))


def _fold_reference(dark, basis, bins):
    stride = verifier.STRIDE
    h, w = dark.shape[0] // stride * stride, dark.shape[1] // stride * stride
    read = np.zeros((h // stride, w // stride))
    for dy in range(stride):  # each block's mean, one of its pixels at a time
        for dx in range(stride):
            read += dark[dy:h:stride, dx:w:stride]
    read /= stride * stride
    middle = (stride - 1) / 2
    xs, ys = np.arange(0, w, stride, dtype=np.float64) + middle, np.arange(0, h, stride, dtype=np.float64) + middle
    inverse = np.linalg.inv(basis) * bins
    i = np.rint(inverse[0, 0] * xs[None, :] + inverse[0, 1] * ys[:, None]).astype(np.int64) % bins
    j = np.rint(inverse[1, 0] * xs[None, :] + inverse[1, 1] * ys[:, None]).astype(np.int64) % bins
    flat = (i * bins + j).ravel()
    counts = np.bincount(flat, minlength=bins * bins).astype(np.float64)
    sums = np.bincount(flat, weights=read.ravel(), minlength=bins * bins)
    table = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0).reshape(bins, bins)
    return table.astype(np.float32), counts.reshape(bins, bins), flat


def test_fold_is_the_int64_fold():
    rng = np.random.default_rng(3)
    for _ in range(40):
        h, w = int(rng.integers(20, 500)), int(rng.integers(20, 500))
        dark = rng.random((h, w)).astype(np.float32)
        basis = rng.uniform(-120, 120, (2, 2))
        if _ % 5 == 0:  # a claimed lattice far too fine for int32 coordinates
            basis = np.array([[1e7, 0.0], [0.0, 1e-5]]) * rng.choice([1.0, -1.0])
        if abs(np.linalg.det(basis)) < 50:
            continue
        bins = int(rng.integers(24, 129))
        for got, want in zip(verifier.fold(dark, basis, bins), _fold_reference(dark, basis, bins), strict=True):
            assert np.array_equal(got, want) and (got.dtype == want.dtype or got.dtype.kind == want.dtype.kind == "i")
            assert got.dtype.kind != "f" or _same(got, want)


def test_pattern_ink_reads_the_formula():
    rng = np.random.default_rng(4)
    for rgb in _pictures(rng):
        for reach in (0, 1):
            ink = groups.PatternInk(rgb, reach)
            dark = (255 - groups.channels.darkest(rgb)).astype(np.float32) / np.float32(255)
            ys, xs = np.divmod(np.flatnonzero(dark > groups.PATTERN_INK), dark.shape[1])
            assert _same(ink.dark, dark)
            assert _same(ink.points, np.stack([xs, ys], axis=1).astype(np.float64))
            assert _same(ink.values, dark[ys, xs])
            for points in (1, 7, 150, 2000):
                want = (np.arange(points) * groups.GOLDEN % 1.0 * len(ink.points)).astype(np.int64)
                got = ink._spread(points)
                assert (isinstance(got, slice) and points >= len(ink.points)) or _same(got, want)


def _random_lattice(rng):
    kind = groups.LATTICES[int(rng.integers(len(groups.LATTICES)))]
    return groups.make_lattice(kind, float(rng.uniform(800, 12000)), rng)


def test_central_is_one_solve_per_pair():
    rng = np.random.default_rng(5)
    for _ in range(200):
        basis = _random_lattice(rng).matrix
        centre = np.full(2, float(rng.choice([243.5, 250.0, rng.uniform(0, 500)])))
        pairs = []
        for _pair in range(int(rng.integers(1, 30))):
            a = groups.rotation(float(rng.choice([0, 60, 90, 120, 180, 270, rng.uniform(0, 360)])))[:2, :2]
            if rng.random() < 0.5:
                a = a @ groups.reflection(0)[:2, :2]
            t = rng.choice([np.rint, lambda v: np.rint(2 * v) / 2, lambda v: v])(rng.uniform(-300, 300, 2))
            pairs.append((a, t))
        want = [t + basis @ np.rint(np.linalg.solve(basis, centre - a @ centre - t)) for a, t in pairs]
        got = wg._central(basis, centre, pairs)
        assert len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want, strict=True))
    assert wg._central(np.eye(2), np.zeros(2), []) == []


def _crop_reference(reps, lattice, seed, radius, rng):
    basis = lattice.matrix
    reach = float(np.abs(basis).sum(axis=1).max()) + radius + 2
    inner = wg.INNER
    points = groups.pattern_centres(reps, lattice, seed, (-reach, -reach, inner + reach, inner + reach), 0)[0]
    centre = (inner - 1) / 2
    best, best_score = None, np.inf
    for _ in range(wg.CROPS):
        origin = basis @ rng.random(2)
        if lattice.kind != "hexagonal":
            origin = np.rint(origin)
        moved = points + origin
        lo, hi = np.clip(moved - radius, 0, inner), np.clip(moved + radius, 0, inner)
        weight = np.prod(hi - lo, axis=1)
        if weight.sum() <= 0:
            continue
        mean = (moved * weight[:, None]).sum(axis=0) / weight.sum()
        dx, dy = (moved - mean).T
        cxx, cyy, cxy = (np.array([dx * dx, dy * dy, dx * dy]) * weight).sum(axis=1) / weight.sum()
        elongation = float(np.hypot(cxx - cyy, 2 * cxy) / (cxx + cyy)) if cxx + cyy > 0 else 1.0
        score = float(np.hypot(*(mean - centre))) / (0.05 * inner) + elongation / 0.05
        if score < best_score:
            best, best_score = origin, score
    return best


def _random_plan(rng):
    name = list(groups.WALLPAPER_GROUPS)[int(rng.integers(len(groups.WALLPAPER_GROUPS)))]
    kind = groups.WALLPAPER_GROUPS[name].lattice
    lattice = groups.make_lattice(kind, float(rng.uniform(1500, 20000)), rng)
    reps = groups.coset_representatives(name, lattice)
    return name, lattice, reps


def test_crop_and_seed_clearance_are_the_one_place_at_a_time_code():
    rng = np.random.default_rng(6)
    for _ in range(300):
        _name, lattice, reps = _random_plan(rng)
        points = rng.random((int(rng.integers(1, 100)), 2)) @ lattice.matrix.T
        if rng.random() < 0.3:
            points = np.rint(points)
        want = _seed_clearance_reference(reps, lattice, points)  # to the last bits: a square root of summed squares
        assert np.allclose(groups.seed_clearance(reps, lattice, points), want, rtol=1e-12, atol=1e-9)  # not hypot
        seed = points[0]
        radius = float(rng.uniform(3, 60))
        state = int(rng.integers(2**63))
        mine, theirs = np.random.default_rng(state), np.random.default_rng(state)
        got = wg._crop(reps, lattice, seed, radius, mine)
        expected = _crop_reference(reps, lattice, seed, radius, theirs)
        assert _same(got, expected) and mine.random() == theirs.random()


def _seed_clearance_reference(reps, lattice, points):
    basis = lattice.matrix
    shifts = np.array([(i, j) for i in range(-2, 3) for j in range(-2, 3)], float) @ basis.T
    best = np.full(len(points), np.inf)
    for op in reps:
        images = points @ op[:2, :2].T + op[:2, 2]
        gaps = images[:, None, :] + shifts[None, :, :] - points[:, None, :]
        dist = np.hypot(gaps[..., 0], gaps[..., 1])
        if np.allclose(op[:2, :2], np.eye(2)):
            dist[dist < 1e-6] = np.inf
        best = np.minimum(best, dist.min(axis=1))
    return best


def test_near_identity_is_allclose():
    rng = np.random.default_rng(7)
    for _ in range(2000):
        part = np.eye(2) + rng.choice([0.0, 1e-9, 1e-8, 2e-8, 1e-5, 1e-3, 1.0]) * rng.standard_normal((2, 2))
        assert groups._near_identity(part) == bool(np.allclose(part, np.eye(2)))


def _patch_sprites_reference(patch):
    parts = [np.array(p, float) for p in patch["parts"]]
    big = None
    if not all(groups.d4_name(part) for part in parts):
        linear = groups.rotation(patch["turn"])[:2, :2] @ groups.D4_LINEAR[patch["orientation"]]
        big = wg.motifs.render_mapped(patch["motif"], patch["sprite"], patch["fill"], linear, supersampled=True)
        big = wg.draw_motif(patch, wg.SUPERSAMPLE) if big is None else big
        base = groups.reduce(big, wg.SUPERSAMPLE)
    else:
        base = wg.draw_motif(patch, 1)
    turns = {0: base}
    out = []
    for part in parts:
        for degrees in (0, 60, 120):
            name = groups.d4_name(part @ groups.rotation(-degrees)[:2, :2])
            if name is not None:
                break
        if degrees not in turns:
            turns[degrees] = groups.transformed_sprite(big, groups.rotation(degrees)[:2, :2], wg.SUPERSAMPLE)
        out.append(wg.snapped(wg.probe.apply(name, turns[degrees])))
    return out


@pytest.mark.parametrize("majority", ["p6m", "p4g", "cmm", "p31m", "pg"])
def test_patch_sprites_snap_once_per_turn(majority):
    """Every patch's sprites (snapped once per turn, then moved) against snapping each moved sprite."""
    built = build(TASK, {"majority": majority}, seed=11)
    for patch in built.item.metadata["scene"]["patches"]:
        got, want = wg.patch_sprites(patch), _patch_sprites_reference(patch)
        assert len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want, strict=True))


def _motif_changes_reference(rgb, parts, shifts=None, points=None):
    m = groups._sampled(rgb, points)
    if m is None:
        return [0.0 for _ in parts]
    maps, offsets, owner = [], [], []
    for k, part in enumerate(parts):
        a = np.asarray(part, float)[:2, :2]
        inverse = np.linalg.inv(a)
        for shift in (shifts[k] if shifts is not None else [(0, 0)]):
            t = np.asarray(shift, float)
            maps += [a, inverse]
            offsets += [t, -inverse @ t]
            owner.append(k)
    if not maps:
        return []
    stack, moved = np.array(maps), np.array(offsets)
    rows = np.concatenate([stack.reshape(len(stack), 4), moved], axis=1)
    distinct, where = np.unique(rows, axis=0, return_inverse=True)
    measured = _changed_reference(m, distinct[:, :4].reshape(-1, 2, 2), distinct[:, 4:])
    changed = measured[where.ravel()].reshape(-1, 2).max(axis=1)
    out = [1.0] * len(parts)
    for k, value in zip(owner, changed, strict=True):
        out[k] = min(out[k], float(value))
    return out


def _sprites(rng, count):
    """Random motifs of every family (one or several colours), drawn at random sizes and turns."""
    families = list(groups.motifs.FAMILIES)
    for k in range(count):
        spec = groups.motifs.sample(families[k % len(families)], rng, "asym")
        side = int(rng.integers(21, 90))
        sprite = wg.turned(groups.motifs.render(spec, side, fill=float(rng.uniform(0.5, 0.95))),
                           float(rng.uniform(0, 90)))
        if k % 3 == 0:  # a second, darker colour on part of it
            sprite = sprite.copy()
            sprite[: side // 2][groups.probe.ink_mask(sprite[: side // 2])] = (20, 20, 20)
        yield sprite


def test_motif_changes_equal_the_sorted_unique_route():
    """``_changed`` (its sums in place) and ``motif_changes`` (distinct maps found without a sort) give the very
    figures of the code they replaced, for random motifs, lattice and self-symmetry maps, shifts and samples."""
    rng = np.random.default_rng(8)
    candidates = [part for _name, part in groups._fixed_candidates()]
    for sprite in _sprites(rng, 60):
        parts = [candidates[int(i)] for i in rng.integers(0, len(candidates), int(rng.integers(1, 8)))]
        parts += [groups.rotation(float(rng.uniform(0, 360)))[:2, :2] for _ in range(2)]
        shifts = [[tuple(rng.integers(-3, 4, 2).tolist()) for _ in range(int(rng.integers(1, 4)))] for _ in parts]
        points = int(rng.choice([50, 600, 5000]))
        for args in ((sprite, parts), (sprite, parts, shifts, points)):
            assert groups.motif_changes(*args) == _motif_changes_reference(*args)
        m = groups._sampled(sprite, points)
        if m is not None:
            stack = np.array(parts * 2)
            offsets = rng.uniform(-2, 2, (len(stack), 2))
            assert _same(groups._changed(m, stack, offsets), _changed_reference(m, stack, offsets))


def test_distinct_rows_are_uniques_rows():
    rng = np.random.default_rng(9)
    for _ in range(300):
        rows = rng.integers(-2, 3, (int(rng.integers(1, 50)), 6)).astype(float) * rng.choice([1.0, 0.5])
        distinct, where = groups._distinct_rows(rows)
        assert _same(distinct[where], rows)
        assert len(distinct) == len(np.unique(rows, axis=0))
        assert sorted(set(where.tolist())) == list(range(len(distinct)))
        firsts = [int(np.flatnonzero(where == k)[0]) for k in range(len(distinct))]
        assert firsts == sorted(firsts)


def _pattern_changes_reference(ink, maps, shifts, points=None):
    shifts = np.atleast_2d(np.asarray(shifts, np.float64))
    maps = np.broadcast_to(np.asarray(maps, np.float64).reshape(-1, 2, 2), (len(shifts), 2, 2))
    inverse = np.linalg.inv(maps)
    chosen = ink._spread(points)

    def images(a, t):
        image = ink.points[chosen] @ np.swapaxes(a, 1, 2)
        return np.rint(image[..., 0] + t[:, 0, None]), np.rint(image[..., 1] + t[:, 1, None])

    x1, y1 = images(maps, shifts)
    x2, y2 = images(inverse, -(inverse @ shifts[:, :, None])[:, :, 0])
    x, y = np.concatenate([x1, x2]), np.concatenate([y1, y2])
    values, r = ink.values[chosen], ink.reach
    inside = (x >= r) & (x < ink.w - r) & (y >= r) & (y < ink.h - r)
    step = groups.LIKE_NEAR if r else groups.LIKE_IN_PLACE
    alike = np.zeros(inside.shape, bool)
    width, flat = ink.padded.shape[1], ink.padded.ravel()
    at = ((y + r + 1) * width + (x + r + 1)).astype(np.int64)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            alike |= np.abs(flat.take(at + dy * width + dx, mode="clip") - values) <= step
    compared, changed = np.count_nonzero(inside, axis=1), np.count_nonzero(inside & ~alike, axis=1)
    n = len(shifts)
    total = compared[:n] + compared[n:]
    return np.where(total > 0, (changed[:n] + changed[n:]) / np.maximum(total, 1), 1.0)


def _both_ways_reference(pixels, a, shifts, limit):
    every = max(1, -(-len(pixels.points) // limit)) if limit else 1
    values = pixels.values[::every]
    inverse = np.linalg.inv(a)

    def images(m, t):
        image = pixels.points[::every] @ m.T
        return np.rint(image[:, 0] + t[:, 0, None]), np.rint(image[:, 1] + t[:, 1, None])

    x1, y1 = images(a, shifts)
    x2, y2 = images(inverse, -shifts @ inverse.T)
    qx, qy = np.concatenate([x1, x2]), np.concatenate([y1, y2])
    r = pixels.reach
    inside = (qx >= r) & (qx < pixels.w - r) & (qy >= r) & (qy < pixels.h - r)
    step = 0.3 if r else 0.1
    width = pixels.padded.shape[1]
    flat, at = pixels.padded.ravel(), ((qy + 2) * width + (qx + 2)).astype(np.intp)
    same = np.zeros(inside.shape, bool)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            same |= np.abs(flat.take(at + (dy * width + dx), mode="clip") - values) <= step
    compared, changed = np.count_nonzero(inside, axis=1), np.count_nonzero(inside & ~same, axis=1)
    n = len(shifts)
    return changed[:n], compared[:n], changed[n:], compared[n:]


def _lattice_map(rng):
    a = groups.rotation(float(rng.choice([0, 60, 90, 120, 180, 270, rng.uniform(0, 360)])))[:2, :2]
    if rng.random() < 0.4:
        a = a @ np.diag((-1.0, 1.0))
    return a + rng.normal(0, 1e-12, (2, 2)) * (rng.random() < 0.5)


def test_in_place_comparisons_count_what_the_formulas_count():
    """``PatternInk.changes`` and ``Pixels._both_ways`` (images, bounds and gathers written in place) against the
    code they replaced, for random pictures, maps, whole, half and arbitrary shifts reaching past the picture."""
    rng = np.random.default_rng(10)
    for rgb in _pictures(rng, 60):
        h, w = rgb.shape[:2]
        shifts = rng.uniform(-1.5 * w, 1.5 * h, (int(rng.integers(1, 40)), 2))
        shifts[::2] = np.rint(shifts[::2]) + rng.choice([0.0, 0.5], shifts[::2].shape)
        for reach in (0, 1):
            ink = groups.PatternInk(rgb, reach)
            maps = np.array([_lattice_map(rng) for _ in shifts])
            for points in (None, 7, 150):
                assert _same(ink.changes(maps, shifts, points), _pattern_changes_reference(ink, maps, shifts, points))
                assert _same(ink.changes(maps[0], shifts, points),
                             _pattern_changes_reference(ink, maps[0], shifts, points))
            pixels = verifier.Pixels(verifier.darkness(rgb), reach=reach, samples=int(rng.choice([50, 1500])))
            for limit in (None, verifier.REFINE, verifier.CLIMB):
                got = pixels._both_ways(maps[0], shifts, limit)
                want = _both_ways_reference(pixels, maps[0], shifts, limit)
                assert all(_same(g, v) for g, v in zip(got, want, strict=True))


def _overlays_reference(ink, maps, centre, radius, count, excludes):
    target, spectrum, grid, own, middle = ink._window(tuple(centre), radius)
    maps = np.asarray(maps, np.float64).reshape(-1, 2, 2)
    side, half = target.shape[0], target.shape[0] // 2
    source = np.clip(np.rint(np.linalg.inv(maps) @ grid).astype(np.int64) + half, 0, 2 * half)
    templates = np.where(own, target[source[:, 1], source[:, 0]], 0.0).reshape(-1, side, side)
    size = (groups._fft_length(side),) * 2
    corr = np.fft.irfft2(spectrum * np.conj(np.fft.rfft2(templates, s=size)), s=size)
    around = np.arange(-half, half + 1) % size[0]
    corr = corr[:, around][:, :, around]
    inner = corr[:, 1:-1, 1:-1]
    peak = np.ones(inner.shape, bool)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            if dy != 1 or dx != 1:
                peak &= inner >= corr[:, dy: dy + side - 2, dx: dx + side - 2]
    lengths = ink._lengths(half)
    out = []
    for k, exclude in enumerate(excludes):
        moved = (np.eye(2) - maps[k]) @ (middle - np.asarray(centre))
        places = [np.nonzero(peak[k])] + ([np.nonzero(np.abs(lengths - exclude) <= 1)] if exclude else [])
        found = []
        for ys, xs in places:
            shifts = 2 * np.stack([xs + 1 - half, ys + 1 - half], axis=1) + moved
            length = np.hypot(*shifts.T)
            keep = (length <= 2 * radius) & (length >= exclude)
            order = np.argsort(inner[k][ys, xs][keep], kind="stable")[::-1][:count]
            found += list(np.rint(shifts[keep][order]))
        out.append(found)
    return out


def test_overlays_find_the_peaks_the_fancy_indexed_code_found():
    """``PatternInk.overlays`` (flat gathers, the neighbours' maximum, the rim kept) against the code it replaced,
    on real patterns' pixels (every lattice kind) and random ones, for every lattice map about random copies."""
    rng = np.random.default_rng(12)
    cases = []
    for _ in range(12):
        _name, lattice, reps = _random_plan(rng)
        seed_point, clearance = groups.best_seeds(reps, lattice, rng)
        radius = float(wg.RADIUS_SHARE * clearance)
        canvas = np.full((wg.INNER, wg.INNER, 3), 255, np.uint8)
        centres, _owners = groups.pattern_centres(reps, lattice, seed_point, (0, 0, wg.INNER, wg.INNER), radius)
        for x, y in np.rint(centres).astype(int).tolist():  # a lopsided blob per copy
            canvas[max(0, y - 3): y + 2, max(0, x - 2): x + 4] = (40, 90, 200)
            canvas[max(0, y - 6): y - 2, max(0, x): x + 2] = (40, 90, 200)
        cases.append((canvas, lattice, radius, centres))
    for rgb in _pictures(rng, 6):
        cases.append((np.pad(rgb, ((40, 40), (40, 40), (0, 0)), constant_values=255), _random_lattice(rng), 12.0,
                      np.array([[60.0, 60.0]])))
    for canvas, lattice, radius, centres in cases:
        ink = groups.PatternInk(canvas, 0 if lattice.kind != "hexagonal" else 1)
        maps = groups.lattice_symmetries(lattice)
        excludes = [float(wg.SHORTEST) if wg._linear_identity(a) else 0.0 for a in maps]
        for centre in centres[rng.integers(0, len(centres), 3)]:
            got = ink.overlays(maps, centre, radius, wg.PEAKS, excludes)
            want = _overlays_reference(ink, maps, centre, radius, wg.PEAKS, excludes)
            assert len(got) == len(want)
            for g, w in zip(got, want, strict=True):
                assert len(g) == len(w) and all(_same(a, b) for a, b in zip(g, w, strict=True))


def _lattice_symmetries_reference(lattice, tolerance=0.06):
    """``groups.lattice_symmetries`` as first written (computed at every call)."""
    basis = lattice.matrix
    parts = basis @ groups._UNIMODULAR @ np.linalg.inv(basis)
    error = np.abs(parts @ np.swapaxes(parts, 1, 2) - np.eye(2)).max(axis=(1, 2))
    return list(parts[error <= tolerance])


def _reading_maps_reference(lattice):
    """``symmetry_readings``' maps as first written (a loop at every call)."""
    maps = []
    for a in groups.lattice_symmetries(lattice):
        if not any(wg._linear_identity(a @ b) for b in maps) or wg._linear_identity(a @ a):
            maps.append(a)
    return maps


def test_kept_lattice_symmetries_and_reading_maps_are_the_computed_ones():
    """The lattice symmetries and ``symmetry_readings``' maps kept per lattice are the very arrays computed anew,
    read-only, for every lattice kind (asked for twice: kept and fresh alike)."""
    rng = np.random.default_rng(12)
    for _ in range(60):
        lattice = _random_lattice(rng)
        for _twice in range(2):
            got, want = groups.lattice_symmetries(lattice), _lattice_symmetries_reference(lattice)
            assert len(got) == len(want) and all(_same(a, b) for a, b in zip(got, want, strict=True))
            assert not any(a.flags.writeable for a in got)
            maps, expected = wg._reading_maps(lattice), _reading_maps_reference(lattice)
            assert len(maps) == len(expected) and all(_same(a, b) for a, b in zip(maps, expected, strict=True))
