"""``mental_composition.estimated_features`` (the nuisance features of a solid's panel worked out from its projected
faces, without drawing it) held to the features of the panel ``raster3d.render`` draws, and items made with it as
``balanced_scales``' first guess (``ESTIMATED_FIRST_ROUND``) still verified and balanced on their drawn panels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench_core import build_item, default_host, plan
from bench_plugin_mindseye import mental_composition as mc
from bench_plugin_mindseye import raster3d

_HOST = default_host()

KINDS = ([("cube", ())] + [("cuboid", tuple(float(d) for d in dims)) for dims in mc.CUBOIDS]
         + [("triangular_prism", (x,)) for x in mc.PRISM_LENGTHS]
         + [("square_pyramid", (h,)) for h in mc.PYRAMID_HEIGHTS] + [("cone", (r,)) for r in mc.CONE_RATIOS]
         + [("tetrahedron", ()), ("triangular_pyramid", (mc.TALL_TETRA_HEIGHT,)), ("octahedron", ()),
            ("bipyramid", (mc.STRETCHED_OCTA,)), ("dodecahedron", ()), ("icosahedron", ()),
            ("dodecahedron", (mc.STRETCHED_ROUND,)), ("icosahedron", (mc.STRETCHED_ROUND,))])


@pytest.mark.parametrize("side", [209, 291])
def test_estimated_features_are_the_drawn_panels_within_a_few_percent(side):
    rng = np.random.default_rng(side)
    errors = {name: [] for name in ("ink", "extent", "saturation")}
    for _ in range(3):
        for kind, proportion in KINDS:
            solid = mc.Solid(kind, proportion, mc.PALETTE[int(rng.integers(len(mc.PALETTE)))],
                             mc.presentation(rng, kind))
            solid.size = round(float(rng.uniform(0.6, 1.0)), 6)
            mesh = solid.mesh()
            scale = raster3d.quantised_scale(raster3d.shared_scale([mesh], side) * rng.uniform(0.7, 1.0), down=True)
            drawn = raster3d.panel_features(raster3d.render(mesh, side, scale).indexed)
            estimated = mc.estimated_features(mesh, solid.topology(), side, scale)
            for name, values in errors.items():
                values.append(math.log(estimated[name] / drawn[name]))
    for name, values in errors.items():
        values = np.array(values)
        assert np.abs(values).max() < 0.03, name  # within 3% of the drawn panel's
        assert values.std() < 0.006, name  # and alike across solids: their ratios are what the sizing reads


def test_items_sized_from_the_estimate_verify_and_keep_their_drawn_panels(monkeypatch):
    monkeypatch.setattr(mc, "ESTIMATED_FIRST_ROUND", True)
    task = _HOST.task("mindseye/mental-composition")
    for job in plan(task, {}, 31, 6):
        built = build_item(_HOST, task, job.seed, job.index, job.params, job.suffix)  # verified
        _, shown = built.problem.structure
        side = mc.TASK.layout(built.item.params["size"]).tile
        for option in shown:
            solid = option.content
            redrawn = raster3d.render(solid.mesh(), side, solid.pixel_scale(side)).indexed
            assert np.array_equal(np.asarray(solid.cache[side]), np.asarray(redrawn))
