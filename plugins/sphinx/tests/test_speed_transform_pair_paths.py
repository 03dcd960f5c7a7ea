"""transform-pair-infer's fast paths held to the code they replaced: the uniqueness check on the motif's luminance
(no tiles drawn) against ``kit.compare.distinct`` on the drawn tiles, the mapped boxes read off a 2 x 2 square
against the full index maps, and the verifier's layers and verdicts from the pixels' keys and luminance against
the RGB motif layers of ``verifiers.transforms``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from bench_plugin_sphinx import transform_pair as tp
from bench_plugin_sphinx.kit import channels, compare, indexed, motifs, probe
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.verifiers import transform_pair as verifier
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded
from PIL import Image
from sphinx_helpers import build_run, operations_found, task_of

from bench_core import Item, decode_png

TASK = task_of("transform_pair_infer")


# -- the generator ---------------------------------------------------------------------------------------------


def _ink_box(ink):
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    if not len(rows):
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _index(side, op):
    return probe.apply(op, np.arange(side * side).reshape(side, side))


def _box_by_definition(box, side, op):
    """The box around the mapped corners, each found in the full index map of the mapped tile."""
    if box is None:
        return None
    top, bottom, left, right = box
    where = np.empty(side * side, np.intp)
    where[_index(side, op).ravel()] = np.arange(side * side)
    rows, cols = zip(*(divmod(int(where[r * side + c]), side) for r in (top, bottom - 1) for c in (left, right - 1)),
                     strict=True)
    return min(rows), max(rows) + 1, min(cols), max(cols) + 1


def unique_by_definition(motif, op, vector) -> bool:
    """The check ``unique_under_d4`` replaced: both tiles drawn, every other D4 map of the source tile gathered
    and held to the target tile by ``kit.compare.distinct`` on the box around both tiles' ink."""
    source, target = tf.place(motif), tp.target_tile(motif, op, vector)
    side, blank = source.shape[0], tf.paper()
    source_box = _ink_box(channels.differs(source, blank))
    target_box = _ink_box(channels.differs(target, blank))
    for other in tf.D4_MAPS:
        if other == op:
            continue
        boxes = [b for b in (_box_by_definition(source_box, side, other), target_box) if b is not None]
        mapped = np.take(source.reshape(-1, 3), _index(side, other), axis=0)
        if boxes:
            window = (slice(min(b[0] for b in boxes), max(b[1] for b in boxes)),
                      slice(min(b[2] for b in boxes), max(b[3] for b in boxes)))
            if not compare.distinct(mapped[window], target[window]):
                return False
        elif not compare.distinct(mapped, target):
            return False
    return True


def _motifs(count, seed):
    """Motifs as drawn for the task (asymmetric, no self-symmetry) and plain symmetric ones (which fail)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        family = tp.FAMILIES[k % len(tp.FAMILIES)]
        if k % 3 == 2:
            out.append(motifs.render(motifs.sample(family, rng, "sym"), tf.motif_side(rng)))
        else:
            drawn = tf.draw_motif(family, rng, probe_side=None)
            if drawn is not None:
                out.append(drawn[1])
    return out


@pytest.mark.parametrize("band", [tp._BAND, 0.0, 1000.0])
def test_unique_under_d4_is_distinct_on_the_drawn_tiles(monkeypatch, band):
    """The verdict on the motif's luminance is the verdict of ``distinct`` on the drawn tiles, for every
    transformation, motifs that pass and motifs that fail; a band of 0 decides every map by the luminance
    counts, a huge band sends every map to ``distinct`` itself."""
    monkeypatch.setattr(tp, "_BAND", band)
    rng = np.random.default_rng(11)
    verdicts = set()
    for motif in _motifs(24, seed=5):
        for op in tf.TRANSFORMS:
            vector = tf.KING_MOVES[int(rng.integers(len(tf.KING_MOVES)))] if op == "translate" else None
            expected = unique_by_definition(motif, op, vector)
            assert tp.unique_under_d4(motif, op, vector) == expected, (op, vector)
            verdicts.add(expected)
    assert verdicts == {True, False}


def test_the_target_tile_is_the_mapped_source_tile():
    """What ``unique_under_d4`` rests on: the paper is unchanged by every D4 map, and the tile of the mapped
    motif is the mapped tile of the motif."""
    blank = tf.paper()
    for motif in _motifs(6, seed=2):
        source = tf.place(motif)
        for op in tf.D4_MAPS:
            assert np.array_equal(probe.apply(op, blank), blank)
            assert np.array_equal(tp.target_tile(motif, op, None), probe.apply(op, source))


def test_mapped_boxes_are_the_boxes_of_the_index_maps():
    rng = np.random.default_rng(3)
    for side in (2, 3, 7, 264):
        for op in tf.D4_MAPS:
            for _ in range(20):
                top, bottom = sorted(int(v) for v in rng.integers(0, side + 1, 2))
                left, right = sorted(int(v) for v in rng.integers(0, side + 1, 2))
                box = (top, max(bottom, top + 1), left, max(right, left + 1))
                if box[1] > side or box[3] > side:
                    continue
                assert tp._mapped_box(box, side, op) == _box_by_definition(box, side, op), (side, op, box)
            assert tp._mapped_box(None, side, op) is None


def test_palette_keys_are_numpys_unique():
    """The palette found by sorting is ``np.unique`` of the chrome's and the motif's inked colours."""
    chrome = tp._chrome_backdrop()[0]
    for motif in _motifs(9, seed=8):
        keys = indexed.colour_keys(motif)
        expected = np.unique(np.concatenate([chrome, keys[channels.differs(motif, 255)]]))
        picture = tp.palette_compose({"transform": "mirror", "vector": None}, motif)
        assert (picture is None) == (len(expected) > 256)
        if picture is not None:
            palette = np.frombuffer(bytes(picture.getpalette()), np.uint8).reshape(-1, 3)[: len(expected)]
            assert np.array_equal(indexed.colour_keys(palette), expected)


# -- the verifier ----------------------------------------------------------------------------------------------


def _reference_verify(item, images) -> list[str]:
    """The verifier before its keys and luminance: the RGB motif layers, ``operations_found`` on them."""
    scene, failures = item.metadata["scene"], []
    keys = [verifier.words.class_of(text) for text in item.options]
    if None in keys or len(set(keys)) != len(keys):
        return [f"the options {list(item.options)} are not distinct operations"]
    if keys[-1] != "none":
        failures.append("'none of the above' is not the last option")
    for k, text in enumerate(item.options):
        if f"({'abcdef'[k]}) {text}" not in item.question:
            failures.append(f"option ({'abcdef'[k]}) is not listed in the question")
    pixels = rgb_pixels(images[0])
    border, blank = scene["border"], px.blank_paper(scene["paper"])
    if not all(px.frame_is_black(pixels, box, border) for box in (scene["left_box"], scene["right_box"])):
        failures.append("a tile's frame is not black")
    left = px.motif_layer(px.tile_content(pixels, scene["left_box"], border), blank)
    right = px.motif_layer(px.tile_content(pixels, scene["right_box"], border), blank)
    if left.shape != blank.shape or right.shape != blank.shape:
        return [*failures, "a tile is not the size of the recorded graph paper"]
    if px.ink_box(left) is None:
        return [*failures, "the left tile shows no motif"]
    found, unclear = operations_found(left, right)
    if unclear:
        failures.append(f"the map(s) {unclear} neither give the right tile nor clearly differ from it")
    if len(found) != 1:
        return [*failures, f"{len(found)} operations ({found}) turn the left tile into the right one, not exactly one"]
    expected = keys.index(found[0]) if found[0] in keys else len(keys) - 1
    letter = "ABCDEF"[expected]
    if item.answer != letter:
        failures.append(f"the left tile becomes the right one by {found[0]}: the answer is {letter}, not {item.answer}")
    return failures


def _pictures(built, rng):
    """The item's picture (decoded, and as generated) and planted faults: the target drawn by another
    operation, turned, moved by a few pixels, a lit frame, a blank left tile."""
    scene = built.item.metadata["scene"]
    decoded = decode_png(built.pngs[0])
    yield decoded
    yield built.images[0]
    for other in tf.TRANSFORMS:
        if other != scene["transform"] and rng.random() < 0.25:
            yield Image.fromarray(tp.compose({**scene, "transform": other, "vector": scene["vector"] or [1, 0]}))
    left, top, right, bottom = scene["right_box"]
    for fault in ("turn", "roll", "frame", "blank"):
        picture = np.asarray(decoded).copy()
        inside = (slice(top + 4, bottom - 4), slice(left + 4, right - 4))
        if fault == "turn":
            picture[inside] = np.rot90(picture[inside], int(rng.integers(1, 4)))
        elif fault == "roll":
            picture[inside] = np.roll(picture[inside], int(rng.integers(-3, 4)), axis=int(rng.integers(2)))
        elif fault == "frame":
            picture[top: top + 2, left:right] = 255
        else:
            l2, t2, r2, b2 = scene["left_box"]
            picture[t2 + 4: b2 - 4, l2 + 4: r2 - 4] = tf.paper()
        yield Image.fromarray(picture)


@pytest.mark.parametrize("band", [verifier.BAND, 0.0, 1000.0])
def test_verify_reads_what_the_rgb_layers_read(monkeypatch, band):
    """Items of every transformation and planted faults: the verifier's findings are those of the RGB layers
    (a band of 0 lets the luminance counts decide every comparison, a huge band none)."""
    monkeypatch.setattr(verifier, "BAND", band)
    rng = np.random.default_rng(4)
    outcomes = set()
    for transform in tf.TRANSFORMS:
        for built in build_run(TASK, 2, {"transform": transform}, seed=31):
            for picture in _pictures(built, rng):
                expected = _reference_verify(built.item, [picture])
                assert verifier.verify(built.item, [picture]) == expected
                outcomes.add(bool(expected))
    assert outcomes == {True, False}


def test_a_scene_with_boxes_off_the_picture_fails():
    """A box reaching off the picture is cut as numpy slices it: a tile too small (which the RGB layers met with
    an error, a malformed record), or a wrong picture."""
    built = build_run(TASK, 1, seed=6)[0]
    picture = decode_png(built.pngs[0])
    for box in ([600, 40, 872, 312], [-10, 40, 262, 312], [24, 200, 296, 472], [24, -300, 296, -28]):
        record = json.loads(built.item.to_json())
        record["metadata"]["scene"]["right_box"] = box
        item = Item.from_record(record)
        found = verifier.verify(item, [picture])
        expected = guarded(_reference_verify)(item, [picture])
        assert found and expected
        if "malformed" not in expected[-1]:
            assert found == expected


def test_layers_are_the_motif_layers():
    """A tile's ``Layer``: its ``rgb`` is ``motif_layer``, its ``box`` that layer's ``ink_box``, its luminance
    ``kit.compare.luminance``'s within the band."""
    built = build_run(TASK, 3, seed=9)
    blank_rgb = tf.paper()
    blank = px._blank_keys(tf.SIDE, tf.MINOR, tf.MINOR_RGB, tf.AXIS_RGB)
    for one in built:
        picture = decode_png(one.pngs[0])
        pixels = rgb_pixels(picture)
        scene = one.item.metadata["scene"]
        framed = px.box_keys(picture, [scene["left_box"], scene["right_box"]])
        for box, keys in zip((scene["left_box"], scene["right_box"]), framed, strict=True):
            layer = verifier.Layer(keys[4:-4, 4:-4], blank)
            expected = px.motif_layer(px.tile_content(pixels, box, 4), blank_rgb)
            assert np.array_equal(layer.rgb(), expected)
            assert layer.box == px.ink_box(expected)
            assert np.abs(layer.luma - compare.luminance(expected)).max() < verifier.BAND / 10
            assert px.frame_is_black(pixels, box, 4) == px.ring_is_black(keys, 4)


def test_window_sources_and_moved_boxes_follow_the_formulas():
    rng = np.random.default_rng(2)
    for side in (4, 264):
        layer = np.arange(side * side).reshape(side, side)
        for op in px.FORMULAS:
            mapped = px.mapped(layer, op)
            for _ in range(10):
                r0, r1 = sorted(int(v) for v in rng.integers(0, side + 1, 2))
                c0, c1 = sorted(int(v) for v in rng.integers(0, side + 1, 2))
                window = (slice(r0, r1), slice(c0, c1))
                assert np.array_equal(verifier._window_source(side, op, window), mapped[window])
                if r1 > r0 and c1 > c0:
                    ink = np.zeros((side, side), bool)
                    ink[window] = True
                    box = (c0, r0, c1, r1)
                    moved = px.mapped(ink[..., None].astype(np.uint8) * 255, op)[..., 0] > 0
                    rows, cols = np.nonzero(moved.any(axis=1))[0], np.nonzero(moved.any(axis=0))[0]
                    assert verifier._moved_box(box, side, op) == (cols[0], rows[0], cols[-1] + 1, rows[-1] + 1)
            assert np.array_equal(verifier._window_source(side, op, (slice(None), slice(None))), mapped)


def test_the_ring_check_is_frame_is_black():
    rng = np.random.default_rng(7)
    for border in (0, 1, 4):
        for _ in range(30):
            tile = np.zeros((12, 10, 3), np.uint8)
            tile[2:-2, 2:-2] = 200
            if rng.random() < 0.6:
                tile[int(rng.integers(12)), int(rng.integers(10))] = 9
            keys = tile[..., 0].astype(np.uint32) | tile[..., 1].astype(np.uint32) << 8
            assert px.ring_is_black(keys, border) == px.frame_is_black(tile, [0, 0, 10, 12], border)
