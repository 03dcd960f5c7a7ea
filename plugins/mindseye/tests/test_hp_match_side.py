"""HPE's ink-layout matching measures drawings at ``MATCH_SIDE`` at most: on a larger panel it takes the very
construction it takes on a panel of that side (the same draws, the same choice) and hands back that
construction's drawing at the larger side."""

from __future__ import annotations

import numpy as np

from bench_plugin_mindseye import hierarchical_patterns as hpe
from bench_plugin_mindseye import recursion
from bench_plugin_mindseye.hierarchical_patterns import Panel


def _run(side, generator, rule, seed):
    rng = np.random.default_rng(seed)
    first = recursion.construct(generator, rng, 4, rule)
    hidden = recursion.construct(generator, rng, 4, rule)
    return hpe._matched(side, first, hidden, lambda: recursion.construct(generator, rng, 4, rule))


def test_a_larger_panel_takes_the_figure_matched_at_the_match_side():
    large = hpe.TASK.layout("1024x1024").tile
    assert large > hpe.MATCH_SIDE
    for k in range(12):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        rule = ("plain", "irregular")[k // 6]
        small, _ = _run(hpe.MATCH_SIDE, generator, rule, 300 + k)
        got, image = _run(large, generator, rule, 300 + k)
        assert got.latent == small.latent
        assert all(np.array_equal(a.data, b.data) for a, b in zip(got.groups, small.groups, strict=True))
        assert image.size == (large, large)
        assert np.array_equal(np.asarray(image), np.asarray(Panel(got.groups).image(large)))


def test_panels_no_larger_than_the_match_side_keep_the_drawing_their_match_measured():
    side = min(hpe.MATCH_SIDE, hpe.TASK.layout("600x800").tile)
    for k in range(6):
        generator = recursion.GENERATORS[k]
        got, image = _run(side, generator, "plain", 400 + k)
        assert image.size == (side, side)
        assert np.array_equal(np.asarray(image), np.asarray(Panel(got.groups).image(side)))
