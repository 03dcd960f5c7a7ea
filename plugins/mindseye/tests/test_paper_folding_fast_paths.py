"""Paper Folding (PF): the fast paths of the generator and the verifier give exactly what the plain computations
they replace give (the items must not change): the separable erosion that finds the discs, the simplex projection
of the foil balance, the plain-arithmetic hole-set comparisons, the cached freedom of hole points, the coarse
pictures' distances, the grey drawing surfaces, and the composite handed to the core as the palette image it
would make of the base class's composite."""

from __future__ import annotations

import numpy as np
import pytest

from bench_plugin_mindseye import folding
from bench_plugin_mindseye import paper_folding as pf
from bench_plugin_mindseye.layout import Tile
from bench_plugin_mindseye.verifiers import paper_folding as verifier


def _windows_all_set(mask: np.ndarray, k: int, axis: int) -> np.ndarray:
    n = mask.shape[axis] - k + 1
    out = np.ones([n if ax == axis else mask.shape[ax] for ax in (0, 1)], dtype=bool)
    for j in range(k):
        out &= mask.take(range(j, j + n), axis)
    return out


def test_eroded_is_every_window_wholly_set():
    rng = np.random.default_rng(3)
    for _ in range(200):
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        mask = rng.random((h, w)) < rng.uniform(0.5, 0.99)
        k = int(rng.integers(1, 20))
        for axis in (0, 1):
            if mask.shape[axis] >= k:
                assert np.array_equal(verifier._eroded(mask, k, axis), _windows_all_set(mask, k, axis))


def _discs_by_summed_area(tile: np.ndarray, radius_px: float) -> list[tuple[float, float]]:
    """``find_discs`` as it was first written: a summed-area table of the dark pixels."""
    dark = np.maximum(np.maximum(tile[..., 0], tile[..., 1]), tile[..., 2]) < verifier.DISC_DARK
    a = max(1, int(radius_px / np.sqrt(2.0) - 0.8))
    k = 2 * a + 1
    table = np.zeros((dark.shape[0] + 1, dark.shape[1] + 1), dtype=np.int32)
    table[1:, 1:] = dark.cumsum(axis=0, dtype=np.int32).cumsum(axis=1, dtype=np.int32)
    box = table[k:, k:] - table[:-k, k:] - table[k:, :-k] + table[:-k, :-k]
    ys, xs = np.nonzero(box == k * k)
    points = np.column_stack([xs + a + 0.5, ys + a + 0.5]).astype(float)
    centres = []
    while len(points):
        near = np.hypot(points[:, 0] - points[0, 0], points[:, 1] - points[0, 1]) <= 1.2 * radius_px
        centres.append((float(points[near, 0].mean()), float(points[near, 1].mean())))
        points = points[~near]
    return centres


def test_find_discs_matches_the_summed_area_table():
    rng = np.random.default_rng(5)
    side = 120
    for _ in range(30):
        tile = np.full((side, side, 3), 255, dtype=np.uint8)
        ys, xs = np.mgrid[0:side, 0:side] + 0.5
        for _ in range(int(rng.integers(0, 5))):
            cx, cy, r = rng.uniform(10, side - 10), rng.uniform(10, side - 10), rng.uniform(3, 9)
            tile[(xs - cx) ** 2 + (ys - cy) ** 2 <= r * r] = 20
        noise = rng.random((side, side)) < 0.02
        tile[noise] = rng.integers(0, 256, (int(noise.sum()), 3))
        radius = float(rng.uniform(3, 9))
        assert verifier.find_discs(tile, radius) == _discs_by_summed_area(tile, radius)


def _simplex_reference(v: np.ndarray) -> np.ndarray:
    u = np.sort(v)[::-1]
    cumulative = np.cumsum(u) - 1.0
    rho = np.nonzero(u * np.arange(1, len(v) + 1) > cumulative)[0][-1]
    return np.maximum(v - cumulative[rho] / (rho + 1.0), 0.0)


def test_simplex_projection_is_unchanged():
    rng = np.random.default_rng(7)
    for n in (1, 2, 5, 40, 170):
        for _ in range(50):
            v = rng.normal(size=n) * rng.uniform(0.01, 3)
            ranks = np.arange(1, n + 1, dtype=float)
            assert np.array_equal(pf._simplex(v, ranks), _simplex_reference(v))
            assert np.array_equal(pf._simplex(v), _simplex_reference(v))


def test_hole_set_comparisons_match_numpy():
    rng = np.random.default_rng(11)
    for _ in range(400):
        a = rng.uniform(0, 1, (int(rng.integers(0, 7)), 2))
        b = a[rng.permutation(len(a))] + rng.normal(scale=0.05, size=a.shape)
        if rng.random() < 0.2:
            b = b[:-1]
        d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2) if len(a) and len(b) else None
        want = len(a) == len(b) and (not len(a) or bool(d.min(axis=1).max() < 0.05 and d.min(axis=0).max() < 0.05))
        assert folding.same_set(a.tolist(), b.tolist(), 0.05) == want
        own = np.linalg.norm(a[:, None, :] - a[None, :, :], axis=2)
        own[np.diag_indices(len(a))] = np.inf
        assert folding.min_separation(a) == (float(own.min()) if len(a) > 1 else np.inf)


def _foils(seed: int) -> pf._Foils:
    rng = np.random.default_rng(seed)
    sheet = folding.sheet_polygon("square")
    while True:
        folds = pf.sample_folds(rng, sheet, "square", "vh")
        if folds is None:
            continue
        states = folding.fold_sequence(sheet, folds)
        points = pf.sample_punches(rng, states[-1], 1)
        if points is not None:
            break
    holes = [pf.Hole(p, moved, at) for p in points for at, moved in folding.punch(states[-1], p)]
    return pf._Foils(rng, "square", sheet, folding.creases(states, folds), folds, holes, 1, states[-1])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_valid_with_cached_points_matches_a_fresh_check(seed):
    foils = _foils(seed)
    rng = np.random.default_rng(seed)
    for _ in range(60):
        points = [tuple(p) for p in rng.uniform(0.1, 0.9, (int(rng.integers(1, 6)), 2)).tolist()]
        if rng.random() < 0.5:
            points += foils.truth[: int(rng.integers(0, len(foils.truth) + 1))]
        fresh = bool(foils.free(points).all()) and folding.min_separation(points) >= pf.FOIL_SEPARATION
        assert foils.valid(points) == fresh
        assert foils.valid([list(p) for p in points]) == fresh  # lists of lists as well


def test_similarity_from_shared_distances():
    rng = np.random.default_rng(13)
    for _ in range(50):
        options = [rng.uniform(0.15, 0.85, (int(rng.integers(1, 9)), 2)).tolist() for _ in range(4)]
        pictures = [pf.coarse_picture(o) for o in options]
        full = [[float(np.abs(a - b).sum()) for b in pictures] for a in pictures]
        assert np.array_equal(pf.similarity(options), pf.similarity_of(full))
        assert pf.similarity_of(full)[:, 0].min() >= 0


def test_grey_tile_draws_the_rgb_panel():
    """The panels are drawn on one grey channel (every colour of theirs is a grey): the same pixels as RGB."""
    stimulus = pf.TASK.build(np.random.default_rng(4), "hard", {})
    real = Tile.__init__

    def draw_all():
        return [pf.TASK.draw_query(step, 160) for step in stimulus.query] + [
            pf.TASK.draw_option(option.content, 160) for option in stimulus.options]

    def rgb_only(self, side, supersample=3, background=(255, 255, 255), grey=False):
        real(self, side, supersample, background, False)

    grey = draw_all()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Tile, "__init__", rgb_only)
        patch.setattr(pf, "grey_level", lambda colour: colour)
        rgb = draw_all()
    for a, b in zip(grey, rgb, strict=True):
        assert a.mode == b.mode == "RGB"
        assert np.array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("size", ["1024x1024", "600x800"])
def test_the_grey_composite_is_the_palette_image_of_the_plain_composite(size):
    """``render`` gives the palette image the core makes of the base class's composite (the same PNG and pixels),
    and the base class's composite when a panel comes without its grey drawing."""
    from bench_core import ItemRandom, decode_png, encode_png, palette_indices
    from bench_plugin_mindseye.base import MindsEyeTask
    from bench_plugin_mindseye.descriptions.paper_folding import TASK as DESCRIPTION

    for index in range(6):
        params = DESCRIPTION.resolve_params({"size": size})
        random = ItemRandom(DESCRIPTION.id, DESCRIPTION.version, 7, index)
        problem = pf.TASK.generate({**params, "source": None}, random)
        plain = MindsEyeTask.render(pf.TASK, problem)[0].convert("RGB")
        fast = pf.TASK.render(problem)[0]
        assert fast.mode == "P" and encode_png(fast) == encode_png(plain)
        colours, indices = palette_indices(plain)
        assert fast.getpalette() == [v for colour in colours for v in colour]
        assert np.array_equal(np.asarray(fast), indices)
        assert np.array_equal(np.asarray(decode_png(encode_png(fast))), np.asarray(plain))
    # a panel drawn by other code (no grey drawing): the plain composite
    with pytest.MonkeyPatch.context() as patch:
        real = pf.PaperFolding.draw_option
        patch.setattr(pf.PaperFolding, "draw_option", lambda self, content, side: real(self, content, side).copy())
        assert pf.TASK.render(problem)[0].convert("RGB").tobytes() == plain.tobytes()


def test_similarity_rows_equal_similarity_of():
    """The square choice works out ``similarity_of`` of each square in plain arithmetic: the same values."""
    rng = np.random.default_rng(17)
    for _ in range(3000):
        distance = rng.random((4, 4)) * float(rng.choice([0.1, 1.0, 7.0]))
        distance = np.round(distance + distance.T, int(rng.integers(2, 17)))
        distance[np.arange(4), np.arange(4)] = 0.0
        rows = distance.tolist()
        assert np.array_equal(np.array(pf._similarity_rows(rows)), pf.similarity_of(rows))


def test_panels_cut_from_the_picture_give_the_verdicts_of_the_whole_array():
    """``pixel_failures`` of a picture (its panels cut one at a time) equals that of its whole RGB array, on real
    items, with marks planted in panels and with a box moved partly off the canvas."""
    import copy

    from PIL import Image

    from bench_core import ItemRandom
    from bench_plugin_mindseye.descriptions.paper_folding import TASK as DESCRIPTION

    rng = np.random.default_rng(19)
    failing = 0
    for index in range(4):
        params = DESCRIPTION.resolve_params({})
        random = ItemRandom(DESCRIPTION.id, DESCRIPTION.version, 3, index)
        problem = pf.TASK.generate({**params, "source": None}, random)
        scene = copy.deepcopy(problem.metadata["scene"])
        pixels = np.asarray(pf.TASK.render(problem)[0].convert("RGB")).copy()
        for _ in range(3):
            box = scene["option_boxes" if rng.random() < 0.6 else "query_boxes"][int(rng.integers(4))]
            y, x = int(rng.integers(box[1] + 4, box[3] - 4)), int(rng.integers(box[0] + 4, box[2] - 4))
            pixels[y - 2:y + 2, x - 2:x + 2] = int(rng.choice([0, 120]))
        plain = verifier.pixel_failures(scene, pixels)
        assert verifier.pixel_failures(scene, Image.fromarray(pixels)) == plain
        failing += bool(plain)
        # a box reaching off the canvas: the same slice of the whole array (the verdict, or the same error)
        box = scene["option_boxes"][0]
        scene["option_boxes"][0] = [box[0], box[1] + 700, box[2], box[3] + 700]
        outcomes = []
        for picture in (pixels, Image.fromarray(pixels)):
            try:
                outcomes.append(verifier.pixel_failures(scene, picture))
            except ValueError as exc:
                outcomes.append(type(exc))
        assert outcomes[0] == outcomes[1]
    assert failing
