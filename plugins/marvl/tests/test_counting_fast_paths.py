"""The counting task's sparse window tests held to the whole-grid code they stand for: the certifier's window
extrema and rivals (``extrema.window_tops``), its render-grid floor, and the verifier's recount candidates,
ring regions and lattice ranges."""

from __future__ import annotations

import numpy as np
import pytest

from bench_plugin_marvl import certify, extrema
from bench_plugin_marvl.verifiers import counting as verifier
from bench_plugin_marvl.verifiers import pixels


def _fields(seed: int = 3, count: int = 60) -> list[np.ndarray]:
    """Smooth landscapes (few samples top their row neighbours: the sparse route), rounded ones with flat
    stretches and ties, some with NaN and infinities, and noise (many candidates: the whole-grid route)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        rows, cols = int(rng.integers(3, 70)), int(rng.integers(3, 70))
        y, x = np.mgrid[0:rows, 0:cols] / 9.0
        z = np.zeros((rows, cols))
        for _ in range(int(rng.integers(1, 6))):
            cx, cy, s = rng.uniform(0, cols / 9), rng.uniform(0, rows / 9), rng.uniform(0.3, 2)
            z += rng.uniform(-1, 1) * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * s * s))
        if k % 4 == 1:
            z = np.round(z, 2)  # plateaus and ties
        if k % 4 == 2:
            z = rng.normal(size=z.shape)  # noise: every other sample a candidate
        if k % 5 == 3:
            z[rng.integers(0, rows, 3), rng.integers(0, cols, 3)] = np.nan
        if k % 7 == 4:
            z[rng.integers(0, rows, 2), rng.integers(0, cols, 2)] = rng.choice([np.inf, -np.inf])
        out.append(z)
    return out


@pytest.fixture
def whole(monkeypatch: pytest.MonkeyPatch):
    """Run a block with the whole-grid routes."""

    def switch(on: bool) -> None:
        monkeypatch.setattr(extrema, "FAST_WINDOWS", not on)
        monkeypatch.setattr(verifier, "SPARSE_CANDIDATES", not on)
        monkeypatch.setattr(pixels, "SHARED_SLABS", not on)

    return switch


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


def test_the_sparse_window_extrema_are_the_whole_grids(whole) -> None:
    rng = np.random.default_rng(11)
    sparse_used = 0
    for z in _fields():
        for kind in ("maxima", "minima"):
            for radius in (1, 2, 3):
                ignore = None if radius == 3 else rng.random(z.shape) < 0.1
                whole(False)
                fast = extrema.window_extrema(z, kind, radius, ignore)
                sparse_used += extrema.window_tops(z, np.greater_equal, radius) is not None
                whole(True)
                slow = extrema.window_extrema(z, kind, radius, ignore)
                assert _same(fast, slow), (z.shape, kind, radius)
    assert sparse_used > 100  # most smooth fields take the sparse route


def test_the_sparse_rivals_are_the_whole_grids(whole) -> None:
    for z in _fields(5):
        finite = z[np.isfinite(z)]
        for floor in (-np.inf, float(np.median(finite)) if finite.size else 0.0, np.inf):
            whole(False)
            fast = certify._rivals(z, floor)
            whole(True)
            slow = certify._rivals(z, floor)
            assert _same(fast, slow), (z.shape, floor)


def _window_hits_before(z: np.ndarray, kind: str, unflat: bool) -> np.ndarray | None:
    """``certify._window_hits`` as it was: the floor read on g = sign * z."""
    if unflat:
        structure = (np.zeros(z.shape, dtype=bool), np.zeros(z.shape, dtype=bool))
    else:
        structure = extrema.flat_structure(z, kind)
    if structure is None:
        return None
    g = certify._sign(kind) * z
    ignore = structure[1] | (g <= g.min())
    if ignore.all():
        return None
    hits = extrema.window_extrema(z, kind, radius=certify.WINDOW_RADIUS, ignore=ignore)
    return None if len(hits) > certify.MAX_WINDOW_HITS else hits


def test_the_render_grid_hits_read_the_floor_on_the_grid_itself(whole) -> None:
    for z in _fields(7, 40):
        for kind in ("maxima", "minima"):
            for unflat in ((True, False) if not extrema.has_equal_neighbours(z) else (False,)):
                whole(True)
                before = _window_hits_before(z, kind, unflat)
                for fast in (False, True):
                    whole(not fast)
                    now = certify._window_hits(z, kind, unflat)
                    assert (now is None) == (before is None)
                    assert now is None or _same(now, before)


def test_the_recounts_candidates_are_the_whole_grids(whole) -> None:
    for z in _fields(9):
        for g in (z, -z):
            whole(False)
            fast = verifier._candidates(g)
            whole(True)
            slow = verifier._candidates(g)
            assert all(_same(a, b) for a, b in zip(fast, slow, strict=True))


def _ring_region_before(g: np.ndarray, row: int, col: int, level: float):
    """``verifiers.counting._ring_region`` as it was: both regions grown in every window."""
    n0, n1 = g.shape
    for half in (verifier.RING_WINDOW // 5, verifier.RING_WINDOW // 2, verifier.RING_WINDOW):
        r0, r1 = max(row - half, 0), min(row + half + 1, n0)
        c0, c1 = max(col - half, 0), min(col + half + 1, n1)
        allowed = g[r0:r1, c0:c1] > level
        seed = np.zeros(allowed.shape, dtype=bool)
        seed[row - r0, col - c0] = True
        regions = [verifier._grow(seed, allowed, diagonal) for diagonal in (False, True)]
        if not any(r[0].any() or r[-1].any() or r[:, 0].any() or r[:, -1].any() for r in regions):
            return regions[0], r0, c0
    return None


def test_the_ring_region_grows_the_narrow_region_only_where_the_wide_one_closes() -> None:
    rng = np.random.default_rng(13)
    closed = failed = 0
    y, x = np.mgrid[0:150, 0:150].astype(float)
    for _ in range(12):
        z = np.zeros(x.shape)
        for _ in range(int(rng.integers(2, 9))):
            cx, cy, s = rng.uniform(0, 150), rng.uniform(0, 150), rng.uniform(3, 25)
            z += rng.uniform(-1, 1) * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * s * s))
        span = float(z.max() - z.min())
        for g in (z, -z):
            for row, col in verifier._candidates(g)[0].tolist():
                for share in (0.02, 0.1, 0.3):
                    level = float(g[row, col]) - share * span
                    now, before = verifier._ring_region(g, row, col, level), _ring_region_before(g, row, col, level)
                    assert (now is None) == (before is None)
                    if now is None:
                        failed += 1
                        continue
                    closed += 1
                    assert _same(now[0], before[0]) and now[1:] == before[1:]
    assert closed > 20 and failed > 5


def test_the_shared_lattice_ranges_are_the_separate_ones() -> None:
    rng = np.random.default_rng(17)
    for z in _fields(19, 30):
        n0, n1 = z.shape
        rows = np.sort(rng.integers(0, n0, int(rng.integers(1, 12))))
        cols = np.sort(rng.integers(0, n1, int(rng.integers(1, 12))))
        for spans in (((-2, 2), (-1, 3), (-1, 2)), ((-1, 1),), ((0, 0), (3, 4)), ((-3, 1), (2, 5), (0, 0))):
            shared = pixels._lattice_ranges(z, rows, cols, spans)
            for (first, last), (low, high) in zip(spans, shared, strict=True):
                a = first  # any anchor: the rows and columns the separate call reads are the same
                low_alone, high_alone = pixels._lattice_range(z, rows + a, cols + a, 0, last - a)
                assert _same(low, low_alone) and _same(high, high_alone)


def test_colour_words_without_masks_where_every_value_is_in_range(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench_plugin_marvl import plotting

    rng = np.random.default_rng(23)
    cases = [rng.uniform(0, 1, (30, 40)), np.array([[0.0, -0.0, 1.0, 0.5]]), np.linspace(0, 1, 257)[None, :],
             np.array([[1.0, 1.0]]), rng.uniform(-0.2, 1.2, (20, 20)), np.array([[0.3, np.nan, 0.9]]),
             np.array([[0.2, np.inf, -np.inf]]), np.zeros((0, 3)), np.nextafter(1.0, 2.0) * np.ones((2, 2))]
    for name in plotting.COLORMAPS:
        for position in cases:
            monkeypatch.setattr(plotting, "FAST_RANGE", True)
            fast = plotting.colour_words(position.copy(), name)
            monkeypatch.setattr(plotting, "FAST_RANGE", False)
            slow = plotting.colour_words(position.copy(), name)
            assert _same(fast, slow)
            assert _same(slow, np.ascontiguousarray(plotting._cmap(name)(position, bytes=True)).view(np.uint32)[..., 0])


def test_heatmap_pixels_skip_the_undefined_mask_only_where_nothing_is_undefined(monkeypatch) -> None:
    from bench_plugin_marvl import plotting

    rng = np.random.default_rng(29)
    maps = plotting._PixelMaps(np.repeat(np.arange(20), 3)[:55], np.repeat(np.arange(30), 2)[:57], 0.0, 0.0)
    for k in range(12):
        z = rng.normal(size=(20, 30))
        if k % 3 == 1:
            z[rng.integers(0, 20, 4), rng.integers(0, 30, 4)] = rng.choice([np.nan, np.inf, -np.inf])
        vmin, vmax = (float(z[np.isfinite(z)].min()), float(z[np.isfinite(z)].max())) if k % 2 else (-1.0, 1.0)
        for cmap in plotting.COLORMAPS:
            monkeypatch.setattr(plotting, "FAST_RANGE", True)
            fast = plotting._heatmap_pixels(z, cmap, vmin, vmax, maps)
            monkeypatch.setattr(plotting, "FAST_RANGE", False)
            assert _same(fast, plotting._heatmap_pixels(z, cmap, vmin, vmax, maps))
