"""Verifier of ``sphinx/transform-pair-infer``: the answer is found from the option texts and the picture alone.

Both tiles' motif layers are cut from the PNG.  Every D4 map, written as a coordinate formula, is applied to
the left layer and compared with the right one; a translation is tried by moving the left layer so that its
ink box lands on the right one's (any vector, not only the generator's king moves).  Exactly one operation
must look the same (at most 1 % of the motif window's pixels differ) and every other D4 map must clearly
differ (``kit.compare.distinct``).  The options are read back as operations; the answer must be the letter of
the operation found, or of "none of the above" (the last option) when it is not listed.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded


def operations_found(left: np.ndarray, right: np.ndarray) -> tuple[list[str], list[str]]:
    """(operations mapping the left layer onto the right one, D4 maps neither matching nor clearly apart)."""
    found, unclear = [], []
    a, b = px.ink_box(left), px.ink_box(right)
    for op in px.FORMULAS:
        kind = px.relation_mapped(left, op, right, (a, b))
        if kind == "same":
            found.append(op)
        elif kind == "unclear":
            unclear.append(op)
    movable = a is not None and b is not None and (a[0], a[1]) != (b[0], b[1]) and (
        a[2] - a[0], a[3] - a[1]) == (b[2] - b[0], b[3] - b[1])
    if movable and px.looks_same(px.shifted(left, b[0] - a[0], b[1] - a[1]), right):
        found.append("translate")
    return found, unclear


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    keys = [words.class_of(text) for text in item.options]
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
