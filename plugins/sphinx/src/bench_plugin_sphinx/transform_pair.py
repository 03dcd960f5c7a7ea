"""``sphinx/transform-pair-infer`` (paper B.4.2, spec T16): a left and a right motif tile on graph paper with an
arrow between them; which single operation turns the left tile into the right one?  Six text options.

The true operation is one of the eight families of ``kit.transforms`` (a D4 map of the whole tile, or a
king-move translation of the untransformed motif).  The motif must change under every D4 map (``kit.probe``)
and the right tile must differ strongly from the left tile under every other D4 map (``kit.compare``), so
exactly one family maps left to right.  The options are five operations and "none of the above", always
last: one item in six leaves the truth out (answer: none), as the paper's generator does; otherwise the
truth is among the five.  Showing "none" in every item keeps it from being a cue: it is the answer exactly as
often as any operation shown (1/6), and the answer letters are balanced over the six.
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
    palette = np.unique(np.concatenate([chrome_keys, keys[inked]]))
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


def unique_under_d4(source: np.ndarray, target: np.ndarray, op: str) -> bool:
    """The target tile differs strongly from the source tile under every D4 map but the truth ``op``
    (``kit.transforms.distinct_tiles``; a translation differs from every centred image by its place alone, and
    its D4 images are checked all the same).  The source tile shows the motif centred: the graph paper and the
    motif's square are symmetric under every D4 map, so the tile of the mapped motif is the mapped tile, and the
    box around its ink (pixels off the blank paper) the mapped box of the source's; only the comparison window
    (the box around either tile's ink) of the mapped tile is gathered."""
    side = source.shape[0]
    blank = tf.paper()
    source_box = _ink_box(channels.differs(source, blank))
    target_box = _ink_box(channels.differs(target, blank))
    pixels = source.reshape(-1, 3)
    for other in tf.D4_MAPS:
        if other == op:
            continue
        boxes = [b for b in (_mapped_box(source_box, side, other), target_box) if b is not None]
        index = _d4_index(side, other)
        if boxes:
            window = (slice(min(b[0] for b in boxes), max(b[1] for b in boxes)),
                      slice(min(b[2] for b in boxes), max(b[3] for b in boxes)))
            if not compare.distinct(np.take(pixels, index[window], axis=0), target[window]):
                return False
        elif not compare.distinct(np.take(pixels, index, axis=0), target):
            return False
    return True


def _ink_box(ink: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) of the True pixels, bottom and right exclusive; None when there are none."""
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    if not len(rows):
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _mapped_box(box: tuple[int, int, int, int] | None, side: int, op: str) -> tuple[int, int, int, int] | None:
    """The box ``box`` covers once its tile is mapped by ``op``: the box around its mapped corners (a D4 map of
    the pixel grid keeps boxes boxes)."""
    if box is None:
        return None
    top, bottom, left, right = box
    where = _d4_target(side, op)
    rows, cols = zip(*(divmod(int(where[r * side + c]), side) for r in (top, bottom - 1) for c in (left, right - 1)),
                     strict=True)
    return min(rows), max(rows) + 1, min(cols), max(cols) + 1


@functools.lru_cache(maxsize=16)
def _d4_index(side: int, op: str) -> np.ndarray:
    """For every pixel of a ``side`` square tile under the D4 map ``op`` (``kit.probe.apply``), the flat index of
    the source pixel it shows (side x side; read-only)."""
    index = probe.apply(op, np.arange(side * side).reshape(side, side))
    index.setflags(write=False)
    return index


@functools.lru_cache(maxsize=16)
def _d4_target(side: int, op: str) -> np.ndarray:
    """For every source pixel (flat index), the flat index of the pixel showing it under ``op`` (read-only)."""
    where = np.empty(side * side, np.intp)
    where[_d4_index(side, op).ravel()] = np.arange(side * side)
    where.setflags(write=False)
    return where


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
            drawn = tf.draw_motif(family, rng)
            if drawn is None:
                continue
            tiles = tf.place(drawn[1]), target_tile(drawn[1], truth, vector)
            if unique_under_d4(*tiles, truth):
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
            picture = Image.fromarray(compose(scene, tiles=tiles))
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
