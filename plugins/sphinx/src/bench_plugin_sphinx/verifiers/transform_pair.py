"""Verifier of ``sphinx/transform-pair-infer``: the answer is found from the option texts and the picture alone.

Both tiles' motif layers are cut from the PNG.  Every D4 map, written as a coordinate formula, is applied to
the left layer and compared with the right one; a translation is tried by moving the left layer so that its
ink box lands on the right one's (any vector, not only the generator's king moves).  Exactly one operation
must look the same (at most 1 % of the motif window's pixels differ) and every other D4 map must clearly
differ (``kit.compare.distinct``).  The options are read back as operations; the answer must be the letter of
the operation found, or of "none of the above" (the last option) when it is not listed.

The layers are read as the pixels' keys (``pixels.image_keys``) and their luminance (``pixels.
luminance_of_keys``, once per layer); each comparison counts the changed pixels of its window from that
luminance, and makes it on the RGB layers themselves (``transforms.relation``) only when the count leaves the
verdict open (``layer_operations_found``): the verdicts are those of the RGB layers.
"""

from __future__ import annotations

import functools

import numpy as np

from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import compare
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.pixels import luminance_of_keys
from bench_plugin_sphinx.verifiers.records import guarded

#: White's key (``pixels.image_keys``).
WHITE = px.WHITE_KEY
#: How far (in luminance) ``pixels.luminance_of_keys``'s channel sums may lie from ``kit.compare.luminance``'s
#: matrix products: far above their rounding (float32 values below 256 are exact to about 3e-5).
BAND = 1e-3


class Layer:
    """A tile's motif layer (``transforms.motif_layer``) read from the pixels' keys: ``ink`` (the pixels that are
    neither the blank paper nor white), its ``box`` (``transforms.ink_box``), and ``luma``, each pixel's
    luminance with the paper made white (``pixels.luminance_of_keys``; found on the ink box only, white
    elsewhere).  ``rgb()`` is the layer itself, drawn when a comparison needs it."""

    def __init__(self, content: np.ndarray, blank: np.ndarray):
        self.content, self.blank = content, blank
        paper = content == blank
        self.ink = ~paper & (content != WHITE)
        rows, cols = np.nonzero(self.ink.any(axis=1))[0], np.nonzero(self.ink.any(axis=0))[0]
        self.box = None if not len(rows) else (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
        self.luma = np.full(content.shape, _white_luma(), np.float32)
        if self.box is not None:
            left, top, right, bottom = self.box
            keys = np.where(paper[top:bottom, left:right], WHITE, content[top:bottom, left:right])
            self.luma[top:bottom, left:right] = luminance_of_keys(keys)
        self._rgb = None

    def rgb(self) -> np.ndarray:
        """``transforms.motif_layer`` of the tile: its RGB pixels, white where the blank paper shows."""
        if self._rgb is None:
            keys = np.where(self.content == self.blank, WHITE, self.content).astype("<u4")
            self._rgb = np.ascontiguousarray(keys.view(np.uint8).reshape(*keys.shape, 4)[..., :3])
        return self._rgb


def layer_operations_found(left: Layer, right: Layer) -> tuple[list[str], list[str]]:
    """(operations mapping the left layer onto the right one, D4 maps neither matching nor clearly apart), as
    ``transforms.relation_mapped`` of each map and ``transforms.looks_same`` of the shift would find them on the
    RGB layers (``left.rgb()``, ``right.rgb()``), found on the layers' luminance.  Each comparison counts the
    window's pixels whose luminance changes by more than 8 (``kit.compare``) from the luminance found once per
    layer, as a count at least ``BAND`` above 8 and one at least ``BAND`` below: when the fraction ``kit.compare``
    would find lies on one side of a threshold whichever way the last bits round, that side decides; otherwise
    (or when ``kit.compare``'s hash would have to decide) the comparison is made on the layers themselves, as
    on the RGB layers.  The verdicts are the RGB layers' (the tests hold them to that route written out)."""
    found, unclear = [], []
    a, b = left.box, right.box
    side = left.luma.shape[0]
    for op in px.FORMULAS:
        live = [box for box in (_moved_box(a, side, op), b) if box is not None]
        if live:
            window = (slice(min(box[1] for box in live), max(box[3] for box in live)),
                      slice(min(box[0] for box in live), max(box[2] for box in live)))
        else:
            window = (slice(None), slice(None))
        kind = _verdict(np.take(left.luma.ravel(), _window_source(side, op, window)), right.luma[window], distinct=True)
        if kind is None:
            kind = px.relation_mapped(left.rgb(), op, right.rgb(), (a, b))
        if kind == "same":
            found.append(op)
        elif kind == "unclear":
            unclear.append(op)
    movable = a is not None and b is not None and (a[0], a[1]) != (b[0], b[1]) and (
        a[2] - a[0], a[3] - a[1]) == (b[2] - b[0], b[3] - b[1])
    if movable:
        dx, dy = b[0] - a[0], b[1] - a[1]
        ink = _shifted(left.ink, dx, dy, False) | right.ink
        rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
        window = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
        kind = _verdict(_shifted(left.luma, dx, dy, _white_luma())[window], right.luma[window], distinct=False)
        if kind is None:
            kind = "same" if px.looks_same(px.shifted(left.rgb(), dx, dy), right.rgb()) else "other"
        if kind == "same":
            found.append("translate")
    return found, unclear


def _verdict(a: np.ndarray, b: np.ndarray, distinct: bool) -> str | None:
    """``transforms.relation`` of two windows from their luminance ``a`` and ``b`` (``Layer.luma``): ``same``
    when at most 1 % of the pixels surely change, ``distinct`` when at least 5 % surely do (``other`` when more
    than 1 % do and ``distinct`` is not asked), None when undecided by the counts."""
    change = np.abs(a - b)
    size = change.size
    if distinct and np.count_nonzero(change > compare.LUMA_STEP + BAND) / size >= compare.DISTINCT_FRACTION:
        return "distinct"
    if np.count_nonzero(change > compare.LUMA_STEP - BAND) / size <= compare.SAME_FRACTION:
        return "same"
    if not distinct and np.count_nonzero(change > compare.LUMA_STEP + BAND) / size > compare.SAME_FRACTION:
        return "other"
    return None


def _shifted(plane: np.ndarray, dx: int, dy: int, fill) -> np.ndarray:
    """``transforms.shifted`` of a plane (h, w): ``plane`` moved by (dx, dy) pixels, ``fill`` where nothing moved in."""
    h, w = plane.shape
    out = np.full_like(plane, fill)
    out[max(dy, 0): h + min(dy, 0), max(dx, 0): w + min(dx, 0)] = plane[max(-dy, 0): h - max(dy, 0),
                                                                         max(-dx, 0): w - max(dx, 0)]
    return out


def _window_source(side: int, op: str, window: tuple[slice, slice]) -> np.ndarray:
    """For every pixel of ``window`` (rows, columns) of a ``side`` square layer under the map ``op``
    (``transforms.mapped``), the flat index of the pixel it shows: the inverse map's coordinate formula at the
    window's pixels (each of its coordinates reads one of the pixel's, so the window's rows and columns are
    mapped once and broadcast)."""
    rows, cols = (np.arange(*part.indices(side)) for part in window)
    centre = (side - 1) / 2
    u, v = _inverse_formula(op)((cols - centre)[None, :], (rows - centre)[:, None])
    return np.rint(v + centre).astype(np.intp) * side + np.rint(u + centre).astype(np.intp)


@functools.lru_cache(maxsize=8)
def _inverse_formula(op: str):
    """The coordinate formula (``transforms.FORMULAS``) that undoes ``op``'s, found on two points."""
    points = ((1.0, 2.0), (3.0, -5.0))
    return next(back for back in px.FORMULAS.values()
                if all(back(*px.FORMULAS[op](u, v)) == (u, v) for u, v in points))


def _moved_box(box, side: int, op: str):
    """``transforms._moved_box``: the ``ink_box`` (left, top, right, bottom) of a ``side`` square layer's box after
    the map ``op``, its corner pixels moved by the coordinate formula."""
    if box is None:
        return None
    left, top, right, bottom = box
    centre = (side - 1) / 2
    moved = [px.FORMULAS[op](x - centre, y - centre) for y in (top, bottom - 1) for x in (left, right - 1)]
    xs = [round(u + centre) for u, _ in moved]
    ys = [round(v + centre) for _, v in moved]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


@functools.cache
def _white_luma() -> np.float32:
    """White's ``pixels.luminance_of_keys``."""
    return luminance_of_keys(np.array([WHITE], np.uint32))[0]


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
    border, paper = scene["border"], scene["paper"]
    blank = px.blank_keys(paper)
    framed = px.box_keys(images[0], [scene["left_box"], scene["right_box"]])
    if not all(px.ring_is_black(t, border) for t in framed):
        failures.append("a tile's frame is not black")
    contents = [px.tile_content(t, [0, 0, t.shape[1], t.shape[0]], border) for t in framed]
    if any(content.shape != blank.shape for content in contents):
        return [*failures, "a tile is not the size of the recorded graph paper"]
    left, right = (Layer(content, blank) for content in contents)
    if left.box is None:
        return [*failures, "the left tile shows no motif"]
    found, unclear = layer_operations_found(left, right)
    if unclear:
        failures.append(f"the map(s) {unclear} neither give the right tile nor clearly differ from it")
    if len(found) != 1:
        return [*failures, f"{len(found)} operations ({found}) turn the left tile into the right one, not exactly one"]
    expected = keys.index(found[0]) if found[0] in keys else len(keys) - 1
    letter = "ABCDEF"[expected]
    if item.answer != letter:
        failures.append(f"the left tile becomes the right one by {found[0]}: the answer is {letter}, not {item.answer}")
    return failures
