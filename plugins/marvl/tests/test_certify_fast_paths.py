"""The certifier's direct filled-contour generator (``certify._filled_generator``) held to the public route it
stands for: ``contourpy.contour_generator(xs, ys, g, name="serial", fill_type="OuterCode")``."""

from __future__ import annotations

import contourpy
import numpy as np

from bench_plugin_marvl import certify


def test_the_direct_filled_generator_traces_the_public_routes_polygons():
    rng = np.random.default_rng(5)
    for rows, cols in ((33, 33), (30, 47), (2, 2), (65, 17)):
        xs = np.sort(rng.uniform(-5, 5, cols))
        ys = np.sort(rng.uniform(-3, 3, rows))
        g = np.sin(xs[None, :] * 1.7) * np.cos(ys[:, None] * 2.3) + 0.1 * rng.normal(size=(rows, cols))
        direct = certify._filled_generator(xs, ys, g)
        public = contourpy.contour_generator(xs, ys, g, name="serial", fill_type="OuterCode")
        assert type(direct) is type(public)
        for level in (-0.5, 0.0, 0.3, 0.9):
            a_points, a_codes = direct.filled(level, np.inf)
            b_points, b_codes = public.filled(level, np.inf)
            assert len(a_points) == len(b_points)
            for p, q in zip(a_points, b_points, strict=True):
                assert np.array_equal(p, q)
            for p, q in zip(a_codes, b_codes, strict=True):
                assert np.array_equal(p, q)


def test_one_generator_per_window_traces_each_level_as_a_fresh_one():
    """``_Components`` keeps one filled-contour generator per window for every level traced over it: the
    polygons of each level are those of a generator made for that level alone, in any order of levels."""
    rng = np.random.default_rng(8)
    xs, ys = np.linspace(-5, 5, 60), np.linspace(-4, 4, 50)
    g = np.sin(xs[None, :] * 1.3) * np.cos(ys[:, None] * 1.9) + 0.05 * rng.normal(size=(50, 60))
    shared = certify._Components(xs, ys, g)
    window = (5, 40, 10, 55)
    for level in (0.4, -0.2, 0.4, 0.75, 0.0):
        points, codes, boxes = shared._filled(level, window)
        fresh = certify._Components(xs, ys, g)._filled(level, window)
        assert len(points) == len(fresh[0])
        assert all(np.array_equal(p, q) for p, q in zip(points, fresh[0], strict=True))
        assert all(np.array_equal(p, q) for p, q in zip(codes, fresh[1], strict=True))
        assert np.array_equal(boxes, fresh[2])
    assert len(shared.generators) == 1
