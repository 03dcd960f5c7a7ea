"""The shared part of every Mind's Eye verify (``base.MindsEyeTask.verify``: panel identity, look-alike options,
nuisance features) gives exactly the verdicts of its earlier, slower form, kept here as the reference: the same
failure strings and the same feature numbers, on the panels of real items of every task and on those panels
with planted faults (panels swapped, blanked, shifted, noised, cut to another size, drawn from another sketch)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from PIL import Image, ImageChops

from bench_core import build_item, default_host, implementation, plan
from bench_plugin_mindseye import base
from bench_plugin_mindseye.nuisance import FRAME, INK_THRESHOLD, option_features, plane_features


# -- the reference: the routines as they were before they were made faster ----------------------------------------
def _ref_tiles(image: Image.Image, boxes: Sequence[Sequence[int]]) -> list[np.ndarray]:
    canvas = np.asarray(image)
    height, width = canvas.shape[:2]
    out = []
    for box in boxes:
        x0, y0, x1, y1 = (int(v) for v in box)
        if 0 <= x0 <= x1 <= width and 0 <= y0 <= y1 <= height:
            out.append(canvas[y0:y1, x0:x1])
        else:
            out.append(np.asarray(image.crop((x0, y0, x1, y1))))
    return out


def _ref_channel_sum(pixels: np.ndarray) -> np.ndarray:
    total = pixels[..., 0].astype(np.int16)
    total += pixels[..., 1]
    total += pixels[..., 2]
    return total


def _ref_ink(pixels: np.ndarray) -> np.ndarray:
    return np.minimum(np.minimum(pixels[..., 0], pixels[..., 1]), pixels[..., 2]) < 255 - INK_THRESHOLD


def _ref_half(pixels: np.ndarray) -> np.ndarray:
    h, w = pixels.shape[0] // 2 * 2, pixels.shape[1] // 2 * 2
    rows = pixels[0:h:2, :w].astype(np.int16)
    rows += pixels[1:h:2, :w]
    pairs = rows.reshape(h // 2, w // 2, 2 * pixels.shape[2])
    out = pairs[:, :, : pixels.shape[2]] + pairs[:, :, pixels.shape[2] :]
    out >>= 2
    return out


def _ref_colour_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = np.abs(a - b)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def _ref_panel_identity_failures(tiles, sketches, names, agreement) -> list[str]:
    failures = []
    inner = [_ref_half(t[3:-3, 3:-3]) for t in tiles]
    drawn = [_ref_half(s[3:-3, 3:-3]) for s in sketches]
    usable = []
    for k, (tile, own) in enumerate(zip(inner, drawn, strict=True)):
        if tile.shape != own.shape:
            failures.append(f"panel {names[k]}: sketch is {own.shape}, panel is {tile.shape}")
            continue
        usable.append(k)
        support = _ref_ink(tile) | _ref_ink(own)
        if support.any():
            match = float((_ref_colour_distance(tile[support], own[support]) < 80).mean())
            if match < agreement:
                failures.append(f"panel {names[k]} does not show what the scene records ({match:.0%} agreement)")
    flat_tiles = {k: inner[k].reshape(-1, 3) for k in usable}
    flat_sketches = {k: drawn[k].reshape(-1, 3) for k in usable}
    drawn_at = {k: _ref_colour_distance(flat_sketches[k], np.int16(255)) >= 80 / 2 for k in usable}
    for a_pos, a in enumerate(usable):
        for b in usable[a_pos + 1 :]:
            if drawn[a].shape != drawn[b].shape:
                continue
            candidates = np.flatnonzero(drawn_at[a] | drawn_at[b])
            differ = _ref_colour_distance(flat_sketches[a][candidates], flat_sketches[b][candidates]) >= 80
            where = candidates[differ]
            if where.size < 12:
                continue
            sketch_a, sketch_b = flat_sketches[a][where], flat_sketches[b][where]
            for k, j, own, other in ((a, b, sketch_a, sketch_b), (b, a, sketch_b, sketch_a)):
                pixels = flat_tiles[k][where]
                if float((_ref_colour_distance(pixels, own) < _ref_colour_distance(pixels, other)).mean()) <= 0.5:
                    failures.append(f"panel {names[k]} looks more like the record of panel {names[j]}")
    return failures


_REF_INK_LUT = [255 if level < 255 - INK_THRESHOLD else 0 for level in range(256)]


def _ref_option_features(tile: Image.Image) -> dict[str, float]:
    rgb = tile if tile.mode == "RGB" else tile.convert("RGB")
    w, h = rgb.size
    inner = rgb.crop((FRAME, FRAME, w - FRAME, h - FRAME))
    r, g, b = inner.split()
    darkest = ImageChops.darker(ImageChops.darker(r, g), b)
    lightest = ImageChops.lighter(ImageChops.lighter(r, g), b)
    pixels = inner.size[0] * inner.size[1]
    inked = sum(darkest.histogram()[: 255 - INK_THRESHOLD])
    box = darkest.point(_REF_INK_LUT).getbbox()
    area = (box[2] - box[0]) * (box[3] - box[1]) / pixels if box else 0.0
    spread = ImageChops.subtract(lightest, darkest).histogram()
    saturation = sum(level * count for level, count in enumerate(spread)) / pixels / 255.0
    return {"ink": inked / pixels, "extent": float(area), "saturation": float(saturation)}


def _ref_shared_failures(impl, item, image: Image.Image) -> list[str]:
    """The shared checks of the earlier verify, for an item whose scene solver agrees with its answer."""
    scene = item.metadata["scene"]
    letters = list(item.options)
    side = scene["tile"]
    option_tiles = _ref_tiles(image, scene["option_boxes"])
    query_tiles = _ref_tiles(image, scene["query_boxes"])
    failures = _ref_panel_identity_failures(
        option_tiles, [impl.sketch(d, side) for d in scene["options"]], letters, impl.sketch_agreement
    )
    failures += _ref_panel_identity_failures(
        query_tiles,
        [impl.sketch(d, side) for d in scene["query"]],
        [f"query {k + 1}" for k in range(len(query_tiles))],
        impl.sketch_agreement,
    )
    tripled = [_ref_channel_sum(tile) for tile in option_tiles]
    for i in range(len(tripled)):
        for j in range(i + 1, len(tripled)):
            a, b = tripled[i], tripled[j]
            if a.shape == b.shape and float(np.abs(a - b).sum()) < 3 * impl.min_option_difference * a.size:
                failures.append(f"options {letters[i]} and {letters[j]} look the same")
    features = [_ref_option_features(Image.fromarray(t)) for t in option_tiles]
    answer = letters.index(item.answer)
    for name, floor in impl.nuisance_floor.items():
        if base.singled_out([f[name] for f in features], answer, impl.nuisance_factor, floor):
            failures.append(f"nuisance feature {name!r} singles out the answer")
    return failures


# -- real items of every task, and their panels with planted faults --------------------------------------------
@pytest.fixture(scope="module")
def items():
    """(implementation, item, image) of two items of every Mind's Eye task."""
    host = default_host()
    out = []
    for task in host.select(["mindseye"]):
        for job in plan(task, {}, 7, 2):
            built = build_item(host, task, job.seed, job.index, job.params, job.suffix, encode=False, verify=False)
            out.append((implementation(task), built.item, built.images[0].convert("RGB")))
    return out


def _faulty_panels(tiles: list[np.ndarray], sketches: list[np.ndarray], rng: np.random.Generator):
    """(name, tiles, sketches): the panels as drawn, then with faults planted in them."""
    n = len(tiles)
    yield "as drawn", tiles, sketches
    if n > 1:
        yield "drawn one slot off", tiles[1:] + tiles[:1], sketches
        yield "two panels swapped", [tiles[1], tiles[0], *tiles[2:]], sketches
        yield "a panel drawn from another's sketch", [sketches[1], *tiles[1:]], sketches
        yield "two sketches alike", tiles, [sketches[0], sketches[0], *sketches[2:]]
    blank = [np.full_like(t, 255) for t in tiles]
    yield "blank panels", blank, sketches
    yield "one panel blank", [blank[0], *tiles[1:]], sketches
    noisy = [np.clip(t.astype(np.int16) + rng.integers(-90, 91, t.shape), 0, 255).astype(np.uint8) for t in tiles]
    yield "noise", noisy, sketches
    yield "shifted", [np.roll(t, (5, -7), axis=(0, 1)) for t in tiles], sketches
    yield "transposed", [np.ascontiguousarray(t.transpose(1, 0, 2)) for t in tiles], sketches
    yield "one row short (same half size when even)", [t[:-1] for t in tiles], sketches
    yield "two rows short", [tiles[0][:-2], *tiles[1:]], sketches
    yield "odd cut", [t[1:, :-3] for t in tiles], [s[1:, :-3] for s in sketches]
    yield "recoloured", [t[..., ::-1] for t in tiles], sketches
    yield "darkened", [t // 2 for t in tiles], sketches


def _synthetic_panels(rng: np.random.Generator, count: int):
    """Random sketches of blobs (odd and even sides) and panels that show them, noised, or show another one."""
    side = int(rng.integers(12, 90))
    sketches = []
    for _ in range(count):
        pixels = np.full((side, side, 3), 255, np.uint8)
        for _ in range(int(rng.integers(0, 4))):
            y, x = rng.integers(0, side, 2)
            h, w = rng.integers(2, side // 2 + 3, 2)
            pixels[y : y + h, x : x + w] = rng.integers(0, 256, 3)
        sketches.append(pixels)
    tiles = [np.clip(s.astype(np.int16) + rng.integers(-60, 61, s.shape), 0, 255).astype(np.uint8) for s in sketches]
    if count > 1 and rng.random() < 0.5:
        tiles[0], tiles[1] = tiles[1], tiles[0]
    return tiles, sketches


def test_panel_identity_gives_the_reference_verdicts(items):
    rng = np.random.default_rng(12)
    verdicts = {}
    for impl, item, image in items:
        scene = item.metadata["scene"]
        side = scene["tile"]
        for boxes, descriptions in ((scene["option_boxes"], scene["options"]), (scene["query_boxes"], scene["query"])):
            if not boxes:
                continue
            tiles = _ref_tiles(image, boxes)
            sketches = [impl.sketch(d, side) for d in descriptions]
            names = [f"P{k}" for k in range(len(tiles))]
            for fault, panels, drawn in _faulty_panels(tiles, sketches, rng):
                want = _ref_panel_identity_failures(panels, drawn, names, impl.sketch_agreement)
                got = base.panel_identity_failures(panels, drawn, names, impl.sketch_agreement)
                assert got == want, (impl.code, fault)
                verdicts.setdefault(fault, []).append(want)
    for _ in range(150):
        tiles, sketches = _synthetic_panels(rng, int(rng.integers(1, 6)))
        names = [str(k) for k in range(len(tiles))]
        for agreement in (0.3, 0.5, 0.9):
            want = _ref_panel_identity_failures(tiles, sketches, names, agreement)
            assert base.panel_identity_failures(tiles, sketches, names, agreement) == want
            verdicts.setdefault("synthetic", []).append(want)
    # the comparison covered clean panels and every kind of failure, not only empty verdicts
    assert all(not v for v in verdicts["as drawn"])
    said = [f for lists in verdicts.values() for v in lists for f in v]
    for kind in ("sketch is", "does not show what the scene records", "looks more like the record"):
        assert sum(kind in f for f in said) >= 5, kind


def _feature_tiles(items, rng: np.random.Generator):
    """Option panels of real items, the same panels perturbed, and random panels (blank, odd sizes, grey, pale)."""
    for _, item, image in items:
        for tile in _ref_tiles(image, item.metadata["scene"]["option_boxes"]):
            yield Image.fromarray(tile)
            yield Image.fromarray(np.ascontiguousarray(tile[2:, 1:]))
            yield Image.fromarray(
                np.clip(tile.astype(np.int16) + rng.integers(-70, 71, tile.shape), 0, 255).astype(np.uint8)
            )
    yield Image.new("RGB", (40, 40), "white")
    for _ in range(60):
        h, w = rng.integers(8, 70, 2)
        pixels = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        pixels[rng.random((h, w)) < rng.random()] = 255
        yield Image.fromarray(pixels)
        yield Image.fromarray(pixels).convert("L")
        yield Image.fromarray(rng.integers(255 - INK_THRESHOLD, 256, (h, w, 3), dtype=np.uint8))  # pale, no ink


def test_nuisance_features_give_the_reference_numbers(items):
    rng = np.random.default_rng(5)
    seen = set()
    for tile in _feature_tiles(items, rng):
        want = _ref_option_features(tile)
        assert option_features(tile) == want
        rgb = np.asarray(tile.convert("RGB"))
        assert plane_features([rgb[FRAME:-FRAME, FRAME:-FRAME, c] for c in range(3)]) == want
        seen.add((want["ink"] > 0, want["saturation"] > 0))
    assert seen == {(False, False), (True, False), (True, True), (False, True)}


def _swap_options(image: Image.Image, boxes: Sequence[Sequence[int]]) -> Image.Image:
    """The canvas with the first two option panels exchanged."""
    out = image.copy()
    first, second = (tuple(int(v) for v in b) for b in boxes[:2])
    out.paste(image.crop(second), first[:2])
    out.paste(image.crop(first), second[:2])
    return out


def test_verify_gives_the_reference_verdicts_on_whole_items(items):
    """The base class's verify (which each task's own checks extend) on the written canvas, on a canvas with two
    options swapped and on one with an option cleared."""
    flagged = 0
    for impl, item, image in items:
        boxes = item.metadata["scene"]["option_boxes"]
        cleared = image.copy()
        cleared.paste((255, 255, 255), tuple(int(v) for v in boxes[-1]))
        for canvas in (image, _swap_options(image, boxes), cleared):
            want = _ref_shared_failures(impl, item, canvas)
            assert base.MindsEyeTask.verify(impl, item, [canvas]) == want, impl.code
            flagged += bool(want)
    assert flagged >= len(items)  # the planted faults were caught, so the equality covered failures too
