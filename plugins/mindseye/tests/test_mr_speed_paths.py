"""Mental rotation's later shortcuts held to the code they replaced: polygon rows whose estimated ends are
confirmed by four tests instead of two bands, the sketch's colour indices kept as bytes, the options audited
before the query is drawn, and the answers of the pose search's visibility test and of the shape keys kept."""

from __future__ import annotations

import numpy as np
import pytest
from polycube_samples import random_chains, random_colours

from bench_plugin_mindseye import mental_rotation as mt
from bench_plugin_mindseye import raster3d
from bench_plugin_mindseye.verifiers import polygon_fill, projection


def _row_inputs(rng: np.random.Generator, count: int, side: int, snapped: bool):
    """Random convex quads (some with edges along axes and diagonals, corners on half pixels) as ``_runs`` sets
    them up for ``_row_spans``: edge coefficients, boxes, and one entry per pixel row of every box."""
    centres = rng.uniform(-3, side + 3, (count, 1, 2))
    angles = np.sort(rng.uniform(0, 2 * np.pi, (count, 4)), axis=1)
    if snapped:
        angles = np.round(angles / (np.pi / 4)) * (np.pi / 4)
    corners = centres + rng.uniform(0.5, side / 2, (count, 1, 1)) * np.stack([np.cos(angles), np.sin(angles)], 2)
    if snapped:
        corners = np.round(corners * 2) / 2
    xs, ys = corners[..., 0], corners[..., 1]
    x0 = np.clip(np.floor(xs.min(axis=1)), 0, side).astype(np.int64)
    x1 = np.clip(np.ceil(xs.max(axis=1)), 0, side).astype(np.int64)
    y0 = np.clip(np.floor(ys.min(axis=1)), 0, side).astype(np.int64)
    y1 = np.clip(np.ceil(ys.max(axis=1)), 0, side).astype(np.int64)
    nx, ny = np.roll(xs, -1, axis=1), np.roll(ys, -1, axis=1)
    sign = np.sign((xs * ny - nx * ys).sum(axis=1))
    rows_of = np.where((sign != 0) & (x1 > x0) & (y1 > y0), y1 - y0, 0)
    a, b = sign[:, None] * (nx - xs), sign[:, None] * (ny - ys)
    c = a * ys - b * xs
    owner = np.repeat(np.arange(count), rows_of)
    row = y0[owner] + np.arange(len(owner)) - np.repeat(np.cumsum(rows_of) - rows_of, rows_of)
    return a, b, c, x0, x1, owner, row + 0.5


@pytest.mark.parametrize("snapped", [False, True])
def test_confirmed_row_ends_are_the_banded_search(snapped):
    """``_row_spans`` (estimates confirmed by four tests, the rest banded) finds what the banded search finds on
    every row, and both what testing every pixel of the row finds."""
    rng = np.random.default_rng(11 + snapped)
    for _ in range(30):
        side = int(rng.integers(8, 120))
        a, b, c, x0, x1, owner, cy = _row_inputs(rng, int(rng.integers(1, 12)), side, snapped)
        if not len(owner):
            continue
        first, last = polygon_fill._row_spans(a, b, c, x0, x1, owner, cy)
        lo, hi = x0[owner], x1[owner] - 1
        ea, eb, ec = a.T[:, owner], b.T[:, owner], c.T[:, owner]
        rest = ea * cy - ec
        with np.errstate(divide="ignore", invalid="ignore"):
            at = (rest + 1e-9) / eb - 0.5
        start = np.maximum(lo.astype(float), np.where(eb < 0, np.ceil(at), -np.inf).max(axis=0))
        stop = np.minimum(hi.astype(float), np.where(eb > 0, np.floor(at), np.inf).min(axis=0))
        level = (((eb == 0) & (rest < -1e-9)) | ((eb != 0) & (np.abs(eb) < polygon_fill._STEEP))).any(axis=0)
        start = np.clip(start, lo - 1, hi + 1).astype(np.int64)
        stop = np.clip(stop, lo - 1, hi + 1).astype(np.int64)
        banded = polygon_fill._banded(ea, eb, ec, cy, lo, hi, start, stop, level)
        every = np.arange(side)[:, None]
        inside = polygon_fill._passing(ea, eb, ec, cy, np.broadcast_to(every, (side, len(cy)))) & (every >= lo) \
            & (every <= hi)
        covered = inside.any(axis=0)
        plain_first = np.where(covered, np.argmax(inside, axis=0), 0)
        plain_last = np.where(covered, side - 1 - np.argmax(inside[::-1], axis=0), -1)
        assert np.array_equal(first, banded[0]) and np.array_equal(last, banded[1])
        assert np.array_equal(first, plain_first) and np.array_equal(last, plain_last)


def test_sketch_indices_as_bytes_are_the_wide_indices():
    """``finish`` keeps a small palette's indices as bytes: the same numbers as the face map plus one with the
    outline on top, and the sketch the palette looked up at them."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        side = int(rng.integers(20, 90))
        ids = np.full((side, side), -1, dtype=np.int32)
        faces = int(rng.integers(1, 40))
        for k in range(faces):
            r, q = rng.integers(0, side - 4, 2)
            h, w = rng.integers(2, side // 2, 2)
            ids[r:r + h, q:q + w] = k
        colours = rng.uniform(0, 255, (faces, 3))
        drawing = projection.finish(ids, np.arange(faces), colours, float(rng.choice([2.0, 2.91, 6.0])))
        if drawing.box is None:
            continue
        assert drawing.index.dtype == np.uint8
        wide = drawing.ids + 1
        wide[drawing.outline] = len(drawing.palette) - 1
        assert np.array_equal(drawing.index.astype(np.int32), wide)
        r0, r1, c0, c1 = drawing.box
        assert np.array_equal(drawing.rgb[r0:r1, c0:c1], drawing.palette[wide])


def _views(seed: int, count: int) -> list[tuple[mt.PolycubeView, list[mt.PolycubeView]]]:
    rng = np.random.default_rng(seed)
    chains = random_chains(rng)
    out = []
    while len(out) < count:
        chain = next(chains)
        colours = random_colours(rng, len(chain))
        query = mt.PolycubeView(chain, colours, np.eye(3))
        options = [mt.PolycubeView(chain @ mt.ROTATIONS[int(rng.integers(24))].T, colours,
                                   mt.random_pose(rng, 3, "oblique")[0]) for _ in range(4)]
        out.append((query, options))
    return out


def _sound_rendering_all(task: mt.MentalRotation, query, views, side: int) -> tuple[bool, list]:
    """``_panels_sound`` as it was: every panel drawn, then the options audited."""
    meshes = [query.mesh(), *(v.mesh() for v in views)]
    scale = raster3d.quantised_scale(raster3d.shared_scale(meshes, side), down=True)
    tiles = [raster3d.render(mesh, side, scale).indexed for mesh in meshes]
    clean = raster3d.panels_clean(tiles[1:], task.nuisance_factor, task.nuisance_floor, task.min_option_difference)
    return clean, tiles


def test_options_audited_before_the_query_is_drawn_decide_as_before():
    task = mt.TASK
    verdicts = set()
    for query, views in _views(3, 24):
        side = 120
        expected, tiles = _sound_rendering_all(task, query, views, side)
        found = task._panels_sound(query, views, side)
        verdicts.add(found)
        assert found == expected
        for view, tile in zip(views, tiles[1:], strict=True):
            assert np.array_equal(np.asarray(view.cache[side]), np.asarray(tile))
        if found:
            assert np.array_equal(np.asarray(query.cache[side]), np.asarray(tiles[0]))
            assert query.relative_scale == views[0].relative_scale
    assert verdicts == {True, False}  # both ways were tried


def test_kept_visibility_and_shape_keys_are_worked_out_afresh():
    rng = np.random.default_rng(17)
    for _ in range(60):
        chain = mt.random_chain(rng, int(rng.integers(6, 11)), int(rng.integers(3, 5)))
        if chain is None:
            continue
        pose = mt.random_pose(rng, int(rng.integers(1, 4)), "oblique" if rng.random() < 0.5 else "right")[0]
        view = mt.PolycubeView(chain, [mt.WHITE] * len(chain), pose)
        counts, scale = raster3d.cube_visibility(view.voxels, view.matrix, 72)
        fresh = bool(counts.min() >= mt.MIN_VISIBLE * scale**2)
        assert mt.every_cube_visible(view) == fresh
        assert mt.every_cube_visible(view) == fresh  # kept
        names = [str(n) for n in rng.choice(list(mt.PALETTE), size=len(chain))]
        for colours in (None, names):
            mt._CANONICAL.clear()
            key = mt.canonical(chain, colours)
            assert mt.canonical(chain, colours) == key
            turned = chain @ mt.ROTATIONS[int(rng.integers(24))].T + 5
            assert mt.canonical(turned, colours) == key
