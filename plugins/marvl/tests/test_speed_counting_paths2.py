"""More of the counting task's faster paths held to the code they replaced: the row test of the window and top
searches (and of the verifier's recount candidates) on the grid read as one long row, and the quick pass of
``has_equal_neighbours``."""

from __future__ import annotations

import numpy as np

from bench_plugin_marvl import extrema
from bench_plugin_marvl.verifiers import counting as verifier


# -- the references: the routines as they were ------------------------------------------------------------------
def _ref_row_mask(z: np.ndarray, beats) -> np.ndarray:
    mask = np.empty(z.shape, dtype=bool)
    mask[:, 0] = True
    beats(z[:, 1:], z[:, :-1], out=mask[:, 1:])
    mask[:, :-1] &= beats(z[:, :-1], z[:, 1:])
    return mask


def _ref_has_equal_neighbours(z: np.ndarray) -> bool:
    return any(bool((z[a] == z[b]).any()) for a, b in extrema._neighbour_views(z))


def _ref_tops_mask(z: np.ndarray, beats) -> np.ndarray:
    middle = z[1:-1, 1:-1]
    mask = beats(middle, z[1:-1, :-2])
    mask &= beats(middle, z[1:-1, 2:])
    return mask


def _ref_row_tops(g: np.ndarray) -> np.ndarray | None:
    rows, cols = g.shape
    if rows < 3 or cols < 3:
        return None
    middle = g[1:-1, 1:-1]
    mask = middle >= g[1:-1, :-2]
    mask &= middle >= g[1:-1, 2:]
    flat = np.flatnonzero(mask)
    if flat.size > mask.size // 8:
        return None
    r, c = flat // (cols - 2) + 1, flat % (cols - 2) + 1
    value = g[r, c]
    keep = value >= value
    for dr in (-1, 1):
        for dc in (-1, 0, 1):
            keep &= value >= g[r + dr, c + dc]
    return np.stack([r[keep], c[keep]], axis=1)


def _grids(seed: int, count: int):
    """Small grids of few levels (ties everywhere), smooth ones, some with NaN and infinities, some read
    backwards (not C-contiguous)."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        rows, cols = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        if k % 3 == 0:
            z = rng.integers(0, 3, (rows, cols)).astype(float) * rng.choice([1e-5, 1.0])
        else:
            y, x = np.mgrid[0:rows, 0:cols] / 3.0
            z = np.sin(x + rng.uniform(0, 3)) * np.cos(y * rng.uniform(0.5, 2))
            if k % 3 == 1:
                z = np.round(z, 1)
        if k % 5 == 2:
            z[rng.random(z.shape) < 0.2] = np.nan
        if k % 7 == 3:
            z[rng.random(z.shape) < 0.2] = rng.choice([np.inf, -np.inf])
        if k % 4 == 1:
            z = z[:, ::-1]
        yield z


def test_row_test_on_one_long_row_matches_the_column_slices():
    for z in _grids(1, 3000):
        for beats in (np.greater, np.greater_equal, np.less, np.less_equal):
            if z.shape[1] >= 2:
                assert np.array_equal(extrema.row_tops_mask(z, beats), _ref_row_mask(z, beats))
            if min(z.shape) >= 3:
                assert np.array_equal(extrema.row_tops_mask(z, beats)[1:-1, 1:-1], _ref_tops_mask(z, beats))


def test_tops_and_window_tops_match_their_whole_grid_forms(monkeypatch):
    cases = list(_grids(2, 600))
    fast = [(extrema.tops_and_strict(z, kind), extrema.window_extrema(z, kind)) for z in cases if min(z.shape) >= 3
            for kind in ("maxima", "minima")]
    monkeypatch.setattr(extrema, "FAST_WINDOWS", False)
    monkeypatch.setattr(extrema, "row_tops_mask", lambda z, beats: np.pad(_ref_tops_mask(z, beats), 1))
    whole = [(extrema.tops_and_strict(z, kind), extrema.window_extrema(z, kind)) for z in cases if min(z.shape) >= 3
             for kind in ("maxima", "minima")]
    for ((tops, strict), window), ((tops_ref, strict_ref), window_ref) in zip(fast, whole, strict=True):
        assert np.array_equal(tops, tops_ref) and np.array_equal(strict, strict_ref)
        assert np.array_equal(window, window_ref)


def test_has_equal_neighbours_quick_pass_is_exact():
    seen = set()
    for z in _grids(3, 3000):
        found = extrema.has_equal_neighbours(z)
        assert found == _ref_has_equal_neighbours(z)
        seen.add(found)
    # equal samples that lie 1, w - 1 or w + 1 apart in the long row without being neighbours (across a row's end)
    z = np.arange(12, dtype=float).reshape(3, 4)
    z[1, 0] = z[0, 3]
    z[2, 0] = z[0, 2]
    z[2, 3] = z[1, 0] + 0.5
    z[1, 3] = z[2, 3]  # a true pair: vertical neighbours
    assert extrema.has_equal_neighbours(z) == _ref_has_equal_neighbours(z)
    z[1, 3] = 100.0
    assert extrema.has_equal_neighbours(z) == _ref_has_equal_neighbours(z) is False
    assert seen == {True, False}


def test_recount_row_tops_match_the_column_slices():
    rng = np.random.default_rng(6)
    routes = set()
    for k in range(3000):
        rows, cols = int(rng.integers(1, 40)), int(rng.integers(1, 40))
        y, x = np.mgrid[0:rows, 0:cols] / 4.0
        g = np.sin(x + rng.uniform(0, 3)) * np.cos(y * rng.uniform(0.5, 2))
        if k % 3 == 0:
            g = np.round(g, 1)
        if k % 5 == 0:
            g[rng.random(g.shape) < 0.1] = np.nan
        if k % 4 == 0:
            g = g[:, ::-1]
        found, ref = verifier._row_tops(g), _ref_row_tops(g)
        assert (found is None and ref is None) or np.array_equal(found, ref)
        routes.add(found is None)
    assert routes == {True, False}
