"""``sphinx/transform-pair-infer`` (paper B.4.2, spec T16): a left and a right motif tile on graph paper with an
arrow between them; which single operation turns the left tile into the right one?  Six text options.

The true operation is one of the eight families of ``kit.transforms`` (a D4 map of the whole tile, or a
king-move translation of the untransformed motif).  The motif must change under every D4 map (``kit.probe``,
on the motif as drawn, at its own size) and the right tile must differ strongly from the left tile under every
other D4 map (``kit.compare``), so exactly one family maps left to right.  The options are five operations and
"none of the above", always last: one item in six leaves the truth out (answer: none), as the paper's generator
does; otherwise the truth is among the five.  Showing "none" in every item keeps it from being a cue: it is the
answer exactly as often as any operation shown (1/6), and the answer letters are balanced over the six.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import channels, compare, complexity, indexed, layout, probe
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.kit.layout import LETTERS
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.transform_layout import FAMILIES, TIERS, check_transform_params, choose_transform
from bench_plugin_sphinx.verifiers import transform_pair as verifier

SIZE = (690, 360)
BORDER = 4
TILE = tf.SIDE + 2 * BORDER
MARGIN = 24
TOP = (SIZE[1] - TILE) // 2
LEFT_BOX = [MARGIN, TOP, MARGIN + TILE, TOP + TILE]
RIGHT_BOX = [SIZE[0] - MARGIN - TILE, TOP, SIZE[0] - MARGIN, TOP + TILE]
ATTEMPTS = 30


def _arrow(draw: ImageDraw.ImageDraw) -> None:
    """A black arrow (→) between the tiles."""
    y = SIZE[1] // 2
    x0, x1 = LEFT_BOX[2] + 22, RIGHT_BOX[0] - 22
    draw.line((x0, y, x1 - 20, y), fill=layout.INK, width=8)
    draw.polygon([(x1, y), (x1 - 30, y - 20), (x1 - 30, y + 20)], fill=layout.INK)


def target_tile(motif: np.ndarray, op: str, vector) -> np.ndarray:
    return tf.transformed(motif, op, tuple(vector) if vector is not None else (0, 0))


def compose(scene: dict[str, Any], tiles: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The item's picture: the source tile, an arrow, the target tile (``tiles``: those two, when drawn already)."""
    if tiles is None:
        motif = tf.motifs.render(scene["motif"], scene["motif_side"])
        tiles = tf.place(motif), target_tile(motif, scene["transform"], scene["vector"])
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    layout.paste(canvas, tf.framed(tiles[0], BORDER), *LEFT_BOX[:2])
    layout.paste(canvas, tf.framed(tiles[1], BORDER), *RIGHT_BOX[:2])
    _arrow(ImageDraw.Draw(canvas))
    return np.asarray(canvas)


def palette_compose(scene: dict[str, Any], motif: np.ndarray) -> Image.Image | None:
    """``compose``'s picture of the drawn ``motif`` as the palette image the core would write for it (its colours
    ascending, nothing else: the same PNG bytes), put together as palette indices; None when it shows more than
    256 colours (the caller then composes in RGB).

    The chrome (the white canvas, both tiles' frames and blank graph paper, the arrow) is laid in from its
    pixels that are not white (``kit.indexed.backdrop_in_palette``), then each tile's motif pixels (those
    ``kit.transforms.place`` draws: not pure white) at their places.  Every colour listed shows: the left tile
    shows the whole motif; the frames and the arrow are black and the margins white; a motif never reaches a
    tile's first row, whose pixels show both grid colours (a motif of the largest side moved up by a king move
    still starts 7 px below it)."""
    chrome_keys = _chrome_backdrop()[0]
    inked = channels.differs(motif, 255)
    keys = indexed.colour_keys(motif)
    # np.unique of the colours, as a sort (np.unique's first call imports numpy.ma, some 5 ms)
    palette = np.sort(np.concatenate([chrome_keys, keys[inked]]))
    palette = palette[np.concatenate(([True], palette[1:] != palette[:-1]))]
    if len(palette) > 256:
        return None
    canvas = indexed.backdrop_in_palette(_chrome_backdrop(), palette)
    where = np.full(motif.shape[:2], 255, np.uint8)  # the motif's pixels as palette indices (255 off its ink)
    where[inked] = np.searchsorted(palette, keys[inked]).astype(np.uint8)
    op, vector = scene["transform"], scene["vector"]
    moved = (0, 0) if op != "translate" else tuple(vector)
    for box, picture, ink, shift in ((LEFT_BOX, where, inked, (0, 0)),
                                     (RIGHT_BOX, *((where, inked) if op == "translate" else
                                                   (probe.view(op, where), probe.view(op, inked))), moved)):
        rows, cols = tf.motif_window(motif.shape[0], shift)
        top, left = box[1] + BORDER + rows.start, box[0] + BORDER + cols.start
        region = canvas[top: top + motif.shape[0], left: left + motif.shape[1]]
        region[ink] = picture[ink]
    return indexed.palette_picture(canvas, palette)


@functools.lru_cache(maxsize=1)
def _chrome_backdrop():
    """``compose``'s picture with both tiles blank graph paper, kept as a backdrop (``kit.indexed.kept_backdrop``)."""
    blank = tf.paper()
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    layout.paste(canvas, tf.framed(blank, BORDER), *LEFT_BOX[:2])
    layout.paste(canvas, tf.framed(blank, BORDER), *RIGHT_BOX[:2])
    _arrow(ImageDraw.Draw(canvas))
    return indexed.kept_backdrop(np.asarray(canvas))


def unique_under_d4(motif: np.ndarray, op: str, vector) -> bool:
    """The tile of ``motif`` under ``op`` (``target_tile``) differs strongly from the source tile (``kit.
    transforms.place(motif)``) under every D4 map but the truth ``op``: ``kit.compare.distinct`` on the window
    where the motifs lie, the box around both tiles' ink (pixels off the blank paper; a translation differs from
    every centred image by its place alone, and its D4 images are checked all the same).

    Neither tile is drawn.  The graph paper and the motif's centred square are symmetric under every D4 map, so
    the tile of the mapped motif is the mapped tile, and the box around its ink the mapped box of the source's.
    ``distinct`` first asks whether at least 5 % of the window's pixels change luminance by more than 8; that is
    counted here on the tiles' luminance, found once (the paper's, kept, with the motif's laid over it) and read
    through each map as a view.  That luminance is summed channel by channel, not by ``kit.compare.luminance``'s
    matrix product, so a value may differ from it in the last bits: pixels whose change lies within ``_BAND`` of
    8 count as undecided, and an op whose verdict they could turn (or that ``distinct`` settles by its hash) is
    compared by ``distinct`` itself on the drawn tiles' window.  The verdict is ``distinct``'s on every map."""
    side, size = motif.shape[0], tf.SIDE
    rows, cols = tf.motif_window(side)
    blank, paper_luma = _paper_and_luma()
    inked = channels.differs(motif, 255)
    motif_luma = _luma(motif)[inked]
    source_ink = inked & channels.differs(motif, blank[rows, cols])  # the source tile's ink, within the motif's square
    source_luma = paper_luma.copy()
    source_luma[rows, cols][inked] = motif_luma
    source_box = _box_in(source_ink, rows.start, cols.start)
    if op == "translate":
        moved = tf.motif_window(side, tuple(vector))
        target_luma = paper_luma.copy()
        target_luma[moved][inked] = motif_luma
        target_box = _box_in(inked & channels.differs(motif, blank[moved]), moved[0].start, moved[1].start)
    else:
        target_luma = probe.view(op, source_luma)
        target_box = _mapped_box(source_box, size, op)
    tiles: list[np.ndarray] = []
    for other in tf.D4_MAPS:
        if other == op:
            continue
        boxes = [b for b in (_mapped_box(source_box, size, other), target_box) if b is not None]
        window = (slice(min(b[0] for b in boxes), max(b[1] for b in boxes)),
                  slice(min(b[2] for b in boxes), max(b[3] for b in boxes))) if boxes else (slice(None), slice(None))
        change = np.abs(probe.view(other, source_luma)[window] - target_luma[window])
        if np.count_nonzero(change > compare.LUMA_STEP + _BAND) / change.size >= compare.DISTINCT_FRACTION:
            continue
        if not tiles:  # undecided by the luminance: draw the tiles and ask ``distinct`` itself
            tiles = [tf.place(motif), target_tile(motif, op, vector)]
        index = _d4_index(size, other)
        if not compare.distinct(np.take(tiles[0].reshape(-1, 3), index[window], axis=0), tiles[1][window]):
            return False
    return True


#: How far (in luminance) ``unique_under_d4``'s channel sums may lie from ``kit.compare.luminance``'s products:
#: far above their rounding (float32 values below 256 are exact to about 3e-5).
_BAND = 1e-3


def _luma(rgb: np.ndarray) -> np.ndarray:
    """Rec. 601 luminance (float32) of an (h, w, 3) uint8 array, channel by channel: each pixel's value depends on
    its colour alone (``kit.compare.luminance``'s matrix product rounds a pixel by where it lies in the array)."""
    out = rgb[..., 0].astype(np.float32)
    out *= np.float32(0.299)
    out += rgb[..., 1] * np.float32(0.587)
    out += rgb[..., 2] * np.float32(0.114)
    return out


@functools.lru_cache(maxsize=1)
def _paper_and_luma() -> tuple[np.ndarray, np.ndarray]:
    """The blank paper (``kit.transforms.paper``) and its ``_luma`` (both read-only)."""
    blank = tf.paper()
    luma = _luma(blank)
    blank.setflags(write=False)
    luma.setflags(write=False)
    return blank, luma


def _box_in(ink: np.ndarray, top: int, left: int) -> tuple[int, int, int, int] | None:
    """``_ink_box`` of ``ink`` moved to the tile's place (``top``, ``left``)."""
    box = _ink_box(ink)
    return None if box is None else (box[0] + top, box[1] + top, box[2] + left, box[3] + left)


def _ink_box(ink: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) of the True pixels, bottom and right exclusive; None when there are none."""
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    if not len(rows):
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _mapped_box(box: tuple[int, int, int, int] | None, side: int, op: str) -> tuple[int, int, int, int] | None:
    """The box ``box`` covers once its ``side`` square tile is mapped by ``op`` (``kit.probe.apply``): the box
    around its mapped corners (a D4 map of the pixel grid keeps boxes boxes)."""
    if box is None:
        return None
    top, bottom, left, right = box
    (row0, col0), (row_r, col_r), (row_c, col_c) = _d4_affine(op)
    rows, cols = [], []
    for r in (top, bottom - 1):
        for c in (left, right - 1):
            rows.append(row0 * (side - 1) + row_r * r + row_c * c)
            cols.append(col0 * (side - 1) + col_r * r + col_c * c)
    return min(rows), max(rows) + 1, min(cols), max(cols) + 1


@functools.lru_cache(maxsize=8)
def _d4_affine(op: str) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Where the D4 map ``op`` (``kit.probe.apply``) shows the pixel (r, c) of an n x n square, as (row, column) =
    ``corner`` * (n - 1) + r * ``down`` + c * ``across``: (``corner``, ``down``, ``across``), read off the map of a
    2 x 2 square (the map is affine on the pixel grid, its corner pixel going to a corner)."""
    shown = probe.apply(op, np.arange(4).reshape(2, 2))
    at = {int(shown[i, j]): (i, j) for i in range(2) for j in range(2)}
    corner, below, beside = at[0], at[2], at[1]
    return (corner, (below[0] - corner[0], below[1] - corner[1]), (beside[0] - corner[0], beside[1] - corner[1]))


@functools.lru_cache(maxsize=16)
def _d4_index(side: int, op: str) -> np.ndarray:
    """For every pixel of a ``side`` square tile under the D4 map ``op`` (``kit.probe.apply``), the flat index of
    the source pixel it shows (side x side; read-only)."""
    index = probe.apply(op, np.arange(side * side).reshape(side, side))
    index.setflags(write=False)
    return index


class TransformPairInfer(PaperSets, task="transform-pair-infer"):
    def check_params(self, params):
        check_transform_params(params)

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        truth = choose_transform(params, random)
        family = params["motif"] or cyclic(random, FAMILIES, "motif-order")
        vector = list(tf.KING_MOVES[int(rng.integers(len(tf.KING_MOVES)))]) if truth == "translate" else None
        for _attempt in range(ATTEMPTS):
            drawn = tf.draw_motif(family, rng, probe_side=None)
            if drawn is None:
                continue
            if unique_under_d4(drawn[1], truth, vector):
                spec, motif = drawn
                break
        else:
            raise GenerationError(f"transform-pair-infer: no {family} motif whose {truth} is unique in {ATTEMPTS} "
                                  "draws")
        position = random.balanced(6, "answer")
        others = [t for t in words.TRANSFORMS if t != truth]
        others = [others[int(k)] for k in rng.permutation(len(others))]
        if position == 5:  # the truth is left out: "none" is the answer
            keys = [*others[:5], "none"]
        else:
            keys = [*others[:position], truth, *others[position:4], "none"]
        texts = [words.LABELS[k][int(rng.integers(len(words.LABELS[k])))] for k in keys]
        stem = words.PAIR_STEMS[int(rng.integers(len(words.PAIR_STEMS)))]
        listed = ", ".join(f"({LETTERS[i]}) {t}" for i, t in enumerate(texts))
        question = f"{words.PAIR_PREAMBLE} {stem} {listed}. Answer with one letter (a–f)."
        scene = {"image_size": list(SIZE), "motif": spec, "motif_side": int(motif.shape[0]), "transform": truth,
                 "vector": vector, "option_keys": keys, "left_box": LEFT_BOX, "right_box": RIGHT_BOX,
                 "border": BORDER,
                 "paper": {"side": tf.SIDE, "minor": tf.MINOR, "step": tf.STEP, "minor_rgb": list(tf.MINOR_RGB),
                           "axis_rgb": list(tf.AXIS_RGB)}}
        record = complexity.record("transform_tier", TIERS[truth], 0, 2, source="ours")
        metadata = {"scene": scene, "transform": truth, "answer_class": keys[position], "motif": family,
                    "complexity": record, "paper_answer": f"({LETTERS[position]})",
                    **({} if level is None else {"difficulty_knobs": {"transform_tier": TIERS[truth]}})}
        picture = palette_compose(scene, motif)
        if picture is None:
            picture = Image.fromarray(compose(scene, tiles=(tf.place(motif), target_tile(motif, truth, vector))))
        return Problem(question=question, answer="ABCDEF"[position], image_size=SIZE,
                       params={**params, "transform": truth, "motif": family}, options=texts, answer_type="option",
                       metadata=metadata, structure=picture)

    def render(self, problem):
        if problem.structure is not None:  # the picture generate composed (a palette image, when it could)
            return [problem.structure]
        return [Image.fromarray(compose(problem.metadata["scene"]))]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCDEF" if x != problem.answer][:count]

    def hardness(self, item):
        """The true transformation's tier: 0 straight mirror, half turn or move; 1 quarter turn; 2 diagonal."""
        return float(TIERS[item.metadata["scene"]["transform"]])


TASK = TransformPairInfer()
