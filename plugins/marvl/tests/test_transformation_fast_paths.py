"""``_Analysis.displayed`` and ``_Analysis.ext_displayed`` (memos of the generator's colour range and display
grids) held to the computations they stand for."""

from __future__ import annotations

import numpy as np

from bench_plugin_marvl import transformation as tr
from bench_plugin_marvl.functions import FAMILIES


def test_displayed_is_colour_range_and_to_display_of_the_transformed_grid():
    for name in ("gaussian-mixture", "monkey-saddle", "checkerboard"):
        family = FAMILIES[name]
        params = family.sample(np.random.default_rng(3))
        an = tr._Analysis(family, params, tr.window(family.domain))
        for kind, shift in (("r90", 0.0), ("r180", 0.0), ("tx", 1.25), ("ty", -0.75), ("none", 0.0)):
            lo, hi, target = an.displayed(kind, shift)
            b = an.transformed(kind, shift)
            assert (lo, hi) == tr.colour_range(an.a, b)[:2]
            assert np.array_equal(target, tr.to_display(b, lo, hi))
            assert an.displayed(kind, shift)[2] is target  # worked out once
            ext = an.ext_displayed(lo, hi)
            assert np.array_equal(ext, tr.to_display(an.ext, lo, hi))
            assert an.ext_displayed(lo, hi) is ext
