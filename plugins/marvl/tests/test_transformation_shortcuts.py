"""The transformation generator's shortcuts, held equal bit for bit to the code they replaced."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench_plugin_marvl import plotting
from bench_plugin_marvl import transformation as tr
from bench_plugin_marvl.functions import FAMILIES


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=float).view(np.int64)


def test_run_in_finds_bitwise_runs_in_either_direction():
    axis = np.arange(10) - 4.5
    assert tr._run_in(axis, axis[2:6]) == slice(2, 6, 1)
    assert np.array_equal(axis[tr._run_in(axis, axis[5:1:-1])], axis[5:1:-1])
    assert np.array_equal(axis[tr._run_in(axis, axis[3::-1])], axis[3::-1])  # a backward run down to index 0
    assert tr._run_in(axis, axis[2:6] + 1e-12) is None
    assert tr._run_in(axis, axis[[1, 3]]) is None
    zero = np.array([-1.0, 0.0, 1.0])
    assert tr._run_in(zero, np.array([-1.0, -0.0])) is None  # -0.0 is not the sample at 0.0


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_transformed_grids_read_from_the_grown_grid_are_the_evaluated_ones(key, monkeypatch):
    family = FAMILIES[key]
    extent = tr.window(family.domain)
    side = extent[1] - extent[0]
    rng = np.random.default_rng(11)
    read = 0
    for _ in range(3):
        params = family.sample(rng)
        cases = [("r90", 0.0), ("r180", 0.0), ("none", 0.0)] + [
            (axis, px * side / plotting.PLOT_GRID) for axis in ("tx", "ty") for px in (-50, -35, 10, 40, 45)]
        for kind, shift in cases:
            an = tr._Analysis(family, params, extent)
            fast = an._read_transformed(kind, shift)
            slow = tr.transformed_grid(family, params, kind, extent, an.n, shift)
            if fast is None:
                continue
            read += 1
            assert np.array_equal(_bits(fast), _bits(slow))
            assert fast.flags.c_contiguous == slow.flags.c_contiguous  # the same memory order: the same sums
            monkeypatch.setattr(tr, "READ_TRANSFORMED", False)
            assert np.array_equal(_bits(tr._Analysis(family, params, extent).transformed(kind, shift)), _bits(slow))
            monkeypatch.setattr(tr, "READ_TRANSFORMED", True)
            assert np.array_equal(_bits(an.transformed(kind, shift)), _bits(slow))
    if side == 10:
        assert read >= 9  # both rotations and no change, every draw


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_the_cross_of_the_grown_grid_is_the_whole_grids(key):
    family = FAMILIES[key]
    extent = tr.window(family.domain)
    n = plotting.PLOT_GRID
    margin = math.ceil(tr.EQUIVALENCE_RANGE * n)
    step = (extent[1] - extent[0]) / n
    k = np.arange(n + 2 * margin) - margin + 0.5
    xs, ys = extent[0] + k * step, extent[2] + k * step
    inner = slice(margin, margin + n)
    params = family.sample(np.random.default_rng(5))
    whole = tr.evaluate_grid(family, params, xs, ys)
    cross = tr.cross_grid(family, params, xs, ys, inner)
    assert np.array_equal(_bits(cross[inner, :]), _bits(whole[inner, :]))
    assert np.array_equal(_bits(cross[:, inner]), _bits(whole[:, inner]))
    for rows in (slice(None, margin), slice(inner.stop, None)):
        for cols in (slice(None, margin), slice(inner.stop, None)):
            assert np.isnan(cross[rows, cols]).all()  # the corners, not evaluated


@pytest.mark.parametrize("transform, shift", [("r90", 0), ("r180", 0), ("tx", 37), ("ty", -52)])
def test_the_plotted_check_on_the_cross_is_the_one_on_the_whole_grid(transform, shift, monkeypatch):
    for key in ("gaussian-mixture", "monkey-saddle", "spiraling-surface", "logarithmic-singularity"):
        family = FAMILIES[key]
        params = family.sample(np.random.default_rng(3))
        errors, grids = tr.plotted_check(family, params, transform, shift)
        monkeypatch.setattr(tr, "CROSS_GRID", False)
        whole_errors, whole_grids = tr.plotted_check(family, params, transform, shift)
        monkeypatch.setattr(tr, "CROSS_GRID", True)
        assert errors == whole_errors
        for a, b in zip(grids, whole_grids, strict=True):
            assert np.array_equal(np.asarray(a), np.asarray(b))


def test_display_marks_undefined_samples_as_before():
    z = np.linspace(-2, 2, 40).reshape(5, 8)
    z[1, 2], z[3, 4], z[4, 7] = np.nan, np.inf, -np.inf
    d = tr.to_display(z, -1.0, 1.0)
    with np.errstate(invalid="ignore"):
        expected = np.clip((z + 1.0) / 2.0, 0.0, 1.0)
    expected[~np.isfinite(z)] = tr.UNDEFINED
    assert np.array_equal(_bits(d), _bits(expected))
