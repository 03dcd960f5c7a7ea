"""Fast paths of the motif self-symmetry probe (``kit.probe``) and of mirror-identification, each held to the code it
replaced: the probe's cheap count of surely changed pixels to ``change_fraction`` op by op, the scene composed
copy by copy in palette indices to the whole-picture RGB composition, the boxes drawn from the fundamental region's
corners to the region ``_inside`` admits, and the generator's and the verifier's sparse symmetry measures to the
whole-picture measures they replaced."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import mirror_identification as mi
from bench_plugin_sphinx import mirror_words as words
from bench_plugin_sphinx.kit import motifs, probe
from bench_plugin_sphinx.verifiers import mirror as verifier
from bench_plugin_sphinx.verifiers.pixels import image_keys
from PIL import Image
from sphinx_helpers import build_run, task_of

from bench_core import decode_png, encode_png

TASK = task_of("mirror_identification")


# -- the probe ----------------------------------------------------------------------------------------------------
def _by_change_fraction(tile, ops, fraction, changes=None):
    changes = changes or {op: probe.change_fraction(tile, op) for op in probe.D4[1:]}
    return [op for op in ops if op != "identity" and changes[op] < fraction]


@pytest.mark.parametrize("seed", range(2))
def test_invariant_ops_and_any_invariant_are_change_fractions_verdicts(seed):
    """Every family, both modes, sizes from tiny to large and limits from 0 to above 1: the ops ``invariant_ops``
    finds (in the order asked) and ``any_invariant``'s answer are exactly those of ``change_fraction``."""
    rng = np.random.default_rng(seed)
    orders = (probe.D4, probe.REFLECTIONS + probe.ROTATIONS, tuple(reversed(probe.D4[1:])), ("rot180", "mirror"))
    for family in motifs.FAMILIES:
        for mode in motifs.MODES:
            spec = motifs.sample(family, rng, mode)
            tile = motifs.render(spec, int(rng.choice([24, 41, 64, 96, 104, 131])))
            changes = {op: probe.change_fraction(tile, op) for op in probe.D4[1:]}
            for fraction in (0.0, 0.05, probe.INVARIANT_FRACTION, 0.3, 0.6, 1.0, 1.01):
                for ops in orders:
                    expected = _by_change_fraction(tile, ops, fraction, changes)
                    assert probe.invariant_ops(tile, ops, fraction) == expected, (family, mode, fraction, ops)
                    assert probe.any_invariant(tile, ops, fraction) == bool(expected), (family, mode, fraction)


def test_probe_verdicts_on_odd_pictures():
    """Blank, a single pixel, noise, a thin line and a non-square picture: the same verdicts as ``change_fraction``."""
    rng = np.random.default_rng(5)
    blank = np.full((30, 30, 3), 255, np.uint8)
    dot = blank.copy()
    dot[7, 11] = (200, 30, 30)
    noise = rng.integers(0, 256, (37, 37, 3)).astype(np.uint8)
    line = blank.copy()
    line[5:25, 10] = 0
    wide = np.full((20, 45, 3), 255, np.uint8)
    wide[3:9, 2:40] = (20, 90, 200)
    wide[9:17, 30:40] = (250, 200, 0)
    for picture in (blank, dot, noise, line, wide):
        for fraction in (0.0, probe.INVARIANT_FRACTION, 0.5, 1.0):
            expected = _by_change_fraction(picture, probe.D4, fraction)
            assert probe.invariant_ops(picture, probe.D4, fraction) == expected
            assert probe.any_invariant(picture, probe.D4, fraction) == bool(expected)


def test_surely_changed_pixels_are_changed():
    """A pixel outside [smallest - limit, largest + limit] of its nine neighbours (``_window_bounds``) differs
    from each of them by more than the limit, so the nine-neighbour comparison counts it changed too."""
    rng = np.random.default_rng(8)
    for _ in range(20):
        n = int(rng.integers(3, 40))
        planes = rng.choice([0, 30, 90, 128, 200, 255], (2, n, n)).astype(np.int16)
        moved = rng.choice([0, 30, 90, 128, 200, 255], (2, n, n)).astype(np.int16)
        below, above = probe._window_bounds(planes)
        sure = ((moved < below) | (moved > above)).any(axis=0)
        neighbours = probe._neighbourhoods(planes)
        nearest = np.abs(neighbours - moved[None]).min(axis=0)
        exact = (nearest[0] > probe._LIMITS[0]) | (nearest[1] > probe._LIMITS[1])
        assert not (sure & ~exact).any()
        assert sure.any()


# -- mirror-identification: placement -----------------------------------------------------------------------------
def test_region_is_the_set_of_corners_inside_admits():
    """``_region`` lists exactly the corners ``_inside`` admits (the old draw-and-reject placement drew uniformly
    from the same set), for every class, canvas and a range of box sizes."""
    for cls in mi.CLASS_OPS:
        for count in (2, 7):
            side = mi.canvas_side(count)
            for m in (61, 104, side // 2 - 13, side):
                xs, first, running = mi._region(cls, side, m)
                listed, before = set(), 0
                for x, top, upto in zip(xs.tolist(), first.tolist(), running.tolist(), strict=True):
                    listed |= {(x, y) for y in range(top, top + upto - before)}
                    before = upto
                admitted = {(x, y) for x in range(side - m + 1) for y in range(side - m + 1)
                            if mi._inside(cls, side, x, y, m)}
                assert listed == admitted, (cls, side, m)


def test_placed_boxes_lie_in_the_region_clear_of_each_other():
    rng = np.random.default_rng(2)
    for cls in mi.CLASS_OPS:
        for count in mi.allowed_counts(cls):
            side = mi.canvas_side(count)
            for m in (60, 90):
                boxes = mi._place(cls, side, count // mi.ORBIT[cls], m, rng)
                if boxes is None:
                    continue
                for k, (x, y) in enumerate(boxes):
                    assert mi._inside(cls, side, x, y, m)
                    for bx, by in boxes[:k]:
                        assert x + m + mi.GAP <= bx or bx + m + mi.GAP <= x or y + m + mi.GAP <= by \
                            or by + m + mi.GAP <= y


# -- mirror-identification: the picture ---------------------------------------------------------------------------
def _whole_picture_compose(scene):
    """The composition the palette one replaced: the seed layer drawn in RGB (each copy in its orientation), then
    darkened by its image under each of the class's mirrors in turn over the whole picture, then framed."""
    side = scene["side"]
    seed = np.full((side, side, 3), 255, np.uint8)
    for copy in scene["seeds"]:
        x, y, m = copy["box"]
        window = seed[y: y + m, x: x + m]
        np.minimum(window, probe.apply(copy["turn"], motifs.render(scene["motif"], m)), out=window)
    full = seed
    for op in scene["ops"]:
        full = np.minimum(full, probe.apply(op, full))
    full[: mi.BORDER], full[-mi.BORDER:], full[:, : mi.BORDER], full[:, -mi.BORDER:] = 0, 0, 0, 0
    return full


@pytest.fixture(scope="module")
def built_items():
    return [b for cls in words.CLASSES for b in build_run(TASK, 4, {"symmetry": cls}, seed=17)]


def test_scene_is_the_seed_layer_darkened_by_its_mirror_images(built_items):
    """The palette composition, copy by copy, gives the whole-picture RGB composition's pixels, and the item's
    PNG is the core's PNG of that RGB picture (the palette holds exactly the colours shown, ascending)."""
    for built in built_items:
        scene = built.item.metadata["scene"]
        rgb = _whole_picture_compose(scene)
        assert np.array_equal(mi.compose(scene), rgb)
        picture = mi.scene_picture(scene)
        assert picture.mode == "P"
        assert encode_png(picture) == encode_png(Image.fromarray(rgb)) == built.pngs[0]


def test_scene_with_every_orientation_of_a_copy(built_items):
    """Each copy turned by each D4 operation: the palette composition still equals the RGB one."""
    scene = next(b.item.metadata["scene"] for b in built_items if b.item.metadata["scene"]["class"] == "both-axes")
    for turn in probe.D4:
        turned = {**scene, "seeds": [{**copy, "turn": turn} for copy in scene["seeds"]]}
        assert np.array_equal(mi.compose(turned), _whole_picture_compose(turned)), turn


def _whole_picture_change(full, op):
    """The generator's old measure: the fraction of the inked pixels inside the frame (of the picture or its mirror
    image) whose colour the mirror changes, over the whole picture."""
    inner = image_keys(Image.fromarray(full))[mi.BORDER: -mi.BORDER, mi.BORDER: -mi.BORDER]
    white = inner == 0xFFFFFF
    ink = ~(white & probe.apply(op, white))
    total = np.count_nonzero(ink)
    if not total:
        return 0.0
    return float(np.count_nonzero((inner != probe.apply(op, inner)) & ink) / total)


def _whole_picture_agreement(full, line):
    """The verifier's old measure over the whole picture: the share of coloured pixels inside the frame whose
    mirror pixel has the same colour."""
    keys = image_keys(Image.fromarray(full))[mi.BORDER: -mi.BORDER, mi.BORDER: -mi.BORDER]
    mask = verifier.coloured(keys)
    total = np.count_nonzero(mask)
    if not total:
        return 1.0
    return float(np.count_nonzero((verifier._mirror(keys, line) == keys) & mask) / total)


_LINE_OF = {"mirror": "vertical", "flip": "horizontal", "transpose": "main-diagonal", "transverse": "anti-diagonal"}


def _pictures(built_items):
    """The items' pictures, and each with planted faults: noise on a few pixels, a copy shifted, a blank one."""
    rng = np.random.default_rng(4)
    for built in built_items:
        full = mi.compose(built.item.metadata["scene"])
        yield full
        noisy = full.copy()
        spots = rng.integers(0, full.shape[0], (40, 2))
        noisy[spots[:, 0], spots[:, 1]] = rng.integers(0, 256, (40, 3))
        yield noisy
        shifted = full.copy()
        shifted[:, : full.shape[1] // 2] = np.roll(full[:, : full.shape[1] // 2], 5, axis=1)
        yield shifted
    blank = np.full((60, 60, 3), 255, np.uint8)
    blank[: mi.BORDER], blank[-mi.BORDER:], blank[:, : mi.BORDER], blank[:, -mi.BORDER:] = 0, 0, 0, 0
    yield blank


def test_generator_measures_equal_the_whole_picture_measures(built_items):
    """``axis_changes`` (inked pixels only, from the palette or the RGB picture) gives the old whole-picture change
    and the verifier's old whole-picture agreement, on the items' pictures and on faulty ones."""
    for full in _pictures(built_items):
        rgb_picture = Image.fromarray(full)
        found = mi.palette_indices(rgb_picture)
        pictures = [rgb_picture]
        if found is not None:
            palette_picture = Image.frombuffer("P", rgb_picture.size, found[1].tobytes(), "raw", "P", 0, 1)
            palette_picture.putpalette(bytes(v for colour in found[0] for v in colour))
            pictures.append(palette_picture)
        for picture in pictures:
            measured = mi.axis_changes(picture)
            for op in mi.AXES:
                change, agreement = measured[op]
                assert change == _whole_picture_change(full, op), op
                assert agreement == _whole_picture_agreement(full, _LINE_OF[op]), op


def test_verifier_measures_equal_the_whole_picture_measures(built_items):
    """``line_agreements`` (coloured pixels only) gives the old whole-picture agreement on every line, for the
    items' decoded PNGs and faulty pictures."""
    for full in _pictures(built_items):
        decoded = decode_png(encode_png(Image.fromarray(full)))
        words_of = np.frombuffer(decoded.tobytes("raw", "RGBX"), "<u4").reshape(decoded.height, decoded.width)
        scores = verifier.line_agreements(words_of, mi.BORDER)
        for line in verifier.LINES:
            assert scores[line] == _whole_picture_agreement(full, line), line
