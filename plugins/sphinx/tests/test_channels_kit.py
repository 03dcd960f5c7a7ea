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
    assert np.array_equal(channels.differs(signed, 255), (signed != 255).any(axis=-1))  # not uint8: no shortcut


def test_white_and_the_channel_mean_equal_numpys():
    """``differs(a, 255)`` reads the darkest channel (nothing lies above white) and ``mean`` adds the three
    bytes in float32: both must give numpy's answers exactly, near white and at every sum of three bytes."""
    rng = np.random.default_rng(1)
    near_white = rng.integers(250, 256, (30, 20, 3), dtype=np.uint8)
    for white in (255, np.uint8(255), np.int64(255)):
        assert np.array_equal(channels.differs(near_white, white), (near_white != 255).any(axis=-1))
    every = np.array([[(r, g, b)] for r in (0, 1, 127, 254, 255) for g in range(0, 256, 5) for b in range(256)],
                     dtype=np.uint8)
    mean = channels.mean(every)
    assert mean.dtype == np.float32 and np.array_equal(mean, every.astype(np.float32).mean(axis=-1))
