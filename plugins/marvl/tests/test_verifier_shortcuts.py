"""The verifiers' shortcuts, held equal to the code they replaced."""

from __future__ import annotations

import numpy as np

from bench_plugin_marvl.verifiers import transformation as vt


def _range_failures_before(a, b, lo, hi, clipped, decimals):
    """``_range_failures`` as it was: the two grids joined first."""
    values = np.concatenate([a.ravel(), b.ravel()])
    low, high = float(values.min()), float(values.max())
    slack = 10.0 ** -decimals + 1e-9 * max(abs(low), abs(high))
    if not hi > lo:
        return [f"empty colour range {[lo, hi]}"]
    if clipped:
        inside = float(np.mean((values >= lo - slack) & (values <= hi + slack)))
        if lo < low - slack or hi > high + slack or inside < 0.98:
            return [f"the clipped colour range {[lo, hi]} does not hold the body of the values {[low, high]}"]
        return []
    if abs(lo - low) > slack or abs(hi - high) > slack:
        return [f"colour range {[lo, hi]} is not the range {[low, high]} of the drawn values"]
    return []


def test_range_failures_are_the_ones_on_the_joined_grids():
    rng = np.random.default_rng(8)
    checked = set()
    for trial in range(300):
        ext = np.round(rng.normal(size=(30, 30)), 6)
        if trial % 4 == 0:
            ext[rng.integers(0, 30), rng.integers(0, 30)] = 40.0  # a far tail
        a, b = ext[5:25, 5:25], ext[5:25, 5:25][::-1, ::-1] if trial % 2 else ext[3:23, 7:27]
        low, high = min(a.min(), b.min()), max(a.max(), b.max())
        lo, hi = (float(low), float(high)) if trial % 3 else tuple(np.quantile(np.r_[a.ravel(), b.ravel()],
                                                                            rng.choice([0.0, 0.005, 0.02], 2) * [1, -1]
                                                                            + [0, 1]))
        if trial % 7 == 0:
            hi = lo
        for clipped in (False, True):
            got = vt._range_failures(a, b, lo, hi, clipped, 6)
            assert got == _range_failures_before(a, b, lo, hi, clipped, 6)
            checked.add((clipped, bool(got)))
    assert checked == {(False, False), (False, True), (True, False), (True, True)}
