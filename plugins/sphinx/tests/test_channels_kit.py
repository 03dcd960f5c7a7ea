"""kit.channels: the per-pixel channel reductions return exactly what numpy's reductions over the last axis do."""

from __future__ import annotations

import numpy as np
from bench_plugin_sphinx.kit import channels


def test_channel_reductions_equal_numpys():
    rng = np.random.default_rng(0)
    for shape in ((7, 9, 3), (1, 1, 3), (40, 3, 3)):
        a = rng.integers(0, 4, shape, dtype=np.uint8)
        b = rng.integers(0, 4, shape, dtype=np.uint8)
        assert np.array_equal(channels.darkest(a), a.min(axis=-1))
        assert np.array_equal(channels.any_channel(a > 2), (a > 2).any(axis=-1))
        assert np.array_equal(channels.all_channels(a > 1), (a > 1).all(axis=-1))
        assert np.array_equal(channels.differs(a, b), (a != b).any(axis=-1))
        assert np.array_equal(channels.differs(a, 3), (a != 3).any(axis=-1))
        colour = np.array([1, 2, 3], np.uint8)
        assert np.array_equal(channels.differs(a, colour), (a != colour).any(axis=-1))
        assert np.array_equal(channels.equals(a, b), (a == b).all(axis=-1))
    signed = rng.integers(-300, 300, (5, 6, 3)).astype(np.int16)
    assert np.array_equal(channels.darkest(signed), signed.min(axis=-1))
