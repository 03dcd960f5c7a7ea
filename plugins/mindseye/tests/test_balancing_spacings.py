"""``balancing._ranked_rows`` (the per-feature test ``_spacings`` runs on its candidate spacings) must say what
``_ranked`` says of the same features made at once."""

from __future__ import annotations

import numpy as np
import pytest

from bench_plugin_mindseye.balancing import _ranked, _ranked_rows


@pytest.mark.parametrize("small_odd", [False, True])
def test_ranked_rows_agrees_with_ranked(small_odd):
    rng = np.random.default_rng(3)
    rows, count, features = 4000, 6, 3
    base = rng.normal(-3.0, 0.05, size=(rows, count, features))
    power = np.array([1.0, 2.0, 1.0])
    # log scales that rise with the order, so that a fair share of the rows pass every condition
    steps = rng.uniform(0.02, 0.3, size=(rows, count))
    steps[:, 1 if small_odd else -1] *= 4  # the atypical end's step
    steps[:, 0] = 0.0
    trial = np.cumsum(steps, axis=1)
    floors = np.array([0.001, 0.002, 0.0])
    values = np.exp(base + power * trial[..., None])
    expected = _ranked(values, 0.02, 3.0, floors, small_odd)
    got = _ranked_rows(base, power, list(trial.T), 0.02, 3.0, floors, small_odd)
    assert 0 < expected.sum() < rows  # both outcomes occur
    assert np.array_equal(got, expected)
