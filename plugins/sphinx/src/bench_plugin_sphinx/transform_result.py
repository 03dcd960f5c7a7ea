"""``sphinx/transform-result-identify`` (paper B.4.1, spec T15): a motif tile on graph paper at the top, four
option tiles below; which option is the top tile after the named transformation?

The named transformation is one of the eight families of ``kit.transforms`` (four mirror lines, three turns,
a king-move translation), its axis or turning direction defined in the question.  The four options are four
different transformations of the same motif, every one drawn from the motif itself, and are chosen so that
the options alone say nothing about the answer: the answer is a uniform member of the option set.  Sets
hold either four D4 maps, or two D4 maps and two translations by different vectors (the answer is a
translation one time in eight, as each family is; a set of the second kind then holds it and another
vector, the spec's "different translation vectors").  The motif must change under every D4 map
(``kit.probe``) and the four tiles must be strongly distinct (``kit.compare`` on the motif window).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import channels, complexity, indexed, layout, probe
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.transform_layout import (
    BORDER,
    FAMILIES,
    LABEL_SIZE,
    SIZE,
    SOURCE_BOX,
    TIERS,
    check_transform_params,
    choose_transform,
    option_box,
    place_framed,
)
from bench_plugin_sphinx.verifiers import transform_result as verifier

ATTEMPTS = 30
#: How far below an option tile its label's centre lies (pixels).
CAPTION_DROP = 38


def option_set(answer: str, rng: np.random.Generator) -> list[dict[str, Any]]:
    """The four transformations shown, the answer first: the answer's family with three others such that every
    member of a set is equally likely to be the answer (see the module docstring)."""
    d4 = [op for op in tf.D4_MAPS if op != answer]
    d4 = [d4[int(k)] for k in rng.permutation(len(d4))]
    moves = [tf.KING_MOVES[int(k)] for k in rng.permutation(len(tf.KING_MOVES))[:2]]
    if answer == "translate":
        return [{"op": "translate", "vector": list(moves[0])}, {"op": "translate", "vector": list(moves[1])},
                {"op": d4[0], "vector": None}, {"op": d4[1], "vector": None}]
    chosen = [{"op": answer, "vector": None}]
    if rng.random() < 1 / 7:  # a set of two maps and two moves, seen from one of its maps
        return [*chosen, {"op": d4[0], "vector": None}, *({"op": "translate", "vector": list(v)} for v in moves)]
    return [*chosen, *({"op": op, "vector": None} for op in d4[:3])]


def option_tile(motif: np.ndarray, option: dict[str, Any]) -> np.ndarray:
    vector = tuple(option["vector"]) if option["vector"] is not None else (0, 0)
    return tf.transformed(motif, option["op"], vector)


def compose(scene: dict[str, Any]) -> np.ndarray:
    """The item's picture in RGB: the source tile at the top, the four labelled options below (``framed_canvas``);
    generate and render make the same picture as palette indices (``picture``)."""
    motif = tf.motifs.render(scene["motif"], scene["motif_side"])
    return framed_canvas([tf.place(motif), *(option_tile(motif, option) for option in scene["options"])])


def framed_canvas(tiles: list[np.ndarray]) -> np.ndarray:
    """The picture of the source's and the four options' ``tiles``: the framed tiles written into a white canvas
    (the pixels PIL's paste gives) and the labels as ``kit.layout.caption_patch`` bands under the options (the
    pixels ``kit.layout.caption`` draws there: the bands are white but for the label, centred on whole pixels)."""
    canvas = np.full((SIZE[1], SIZE[0], 3), 255, np.uint8)
    for k, (box, tile) in enumerate(zip(_boxes(), tiles, strict=True)):
        place_framed(canvas, box, tile)
        if k:
            left, _top, right, bottom = box
            canvas[bottom: bottom + 2 * CAPTION_DROP, left:right] = layout.caption_patch(
                layout.label(k - 1), LABEL_SIZE, right - left, 2 * CAPTION_DROP)
    return canvas


def _boxes() -> list[list[int]]:
    """The framed tiles' boxes (left, top, right, bottom): the source's, then the options'."""
    return [SOURCE_BOX, *(option_box(k) for k in range(4))]


@functools.cache
def _backdrop() -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """``framed_canvas`` of white tiles (``kit.indexed.kept_backdrop``): every pixel outside the tiles is the same
    in every item, and each of its colours shows there."""
    return indexed.kept_backdrop(framed_canvas([np.full((tf.SIDE, tf.SIDE, 3), 255, np.uint8)] * 5))


@functools.cache
def _paper() -> tuple[np.ndarray, np.ndarray]:
    """``kit.transforms.paper()`` as (its colours' keys ascending, each pixel's index among them), neither to be
    changed."""
    return indexed.kept(tf.paper())


def picture(motif: np.ndarray, options: list[dict[str, Any]]) -> Image.Image:
    """``compose``'s picture of ``motif`` and the scene's ``options`` as the image the core writes: a palette image
    of its colours ascending and nothing else (so the same PNG bytes), put together as palette indices.  The
    backdrop's and the graph paper's are kept and the motif's found once; every tile is made of them as
    ``kit.transforms.transformed`` makes it in RGB (the motif's inked pixels, mapped or moved, over the paper).
    Every colour shows: the backdrop's outside the tiles, the paper's in its lines, which cross every tile beyond
    the motif's window, the motif's in every tile.  The RGB picture when it shows more than 256 colours (the fully
    anti-aliased labels bring ~220 greys)."""
    backdrop, (paper_keys, paper) = _backdrop(), _paper()
    found = indexed.indexed(motif)
    palette = None if found is None else np.unique(np.concatenate([backdrop[0], paper_keys, found[0]]))
    if palette is None or len(palette) > 256:
        return Image.fromarray(framed_canvas([tf.place(motif), *(option_tile(motif, o) for o in options)]))
    canvas = indexed.backdrop_in_palette(backdrop, palette)
    sheet, ink, inked = indexed.in_palette(paper_keys, paper, palette), indexed.in_palette(*found, palette), \
        channels.differs(motif, 255)
    source = {"op": "translate", "vector": [0, 0]}  # ``tf.place(motif)``
    for (left, top, right, bottom), option in zip(_boxes(), [source, *options], strict=True):
        op, vector = option["op"], tuple(option["vector"] or (0, 0))
        piece, shape = (ink, inked) if op == "translate" else (probe.apply(op, ink), probe.apply(op, inked))
        tile = canvas[top + BORDER : bottom - BORDER, left + BORDER : right - BORDER]
        tile[...] = sheet
        window = tile[tf.motif_window(len(piece), vector)]
        window[shape] = piece[shape]
    return indexed.palette_picture(canvas, palette)


def action_of(option: dict[str, Any]) -> str:
    """The question's phrase for the transformation ``option``."""
    if option["op"] == "translate":
        return words.move_action(tuple(option["vector"]))
    return words.ACTIONS[option["op"]]


class TransformResultIdentify(PaperSets, task="transform-result-identify"):
    def check_params(self, params):
        check_transform_params(params)

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        answer = choose_transform(params, random)
        family = params["motif"] or cyclic(random, FAMILIES, "motif-order")
        position = random.balanced(4, "answer")
        for _attempt in range(ATTEMPTS):
            drawn = tf.draw_motif(family, rng)
            if drawn is None:
                continue
            spec, motif = drawn
            chosen = option_set(answer, rng)
            tiles = [option_tile(motif, o) for o in chosen]
            if tf.pairwise_distinct(tiles):
                break
        else:
            raise GenerationError(f"transform-result-identify: no {family} motif with four distinct options in "
                                  f"{ATTEMPTS} draws")
        others = [1 + int(k) for k in rng.permutation(3)]
        order = [*others[:position], 0, *others[position:]]
        options = [chosen[k] for k in order]
        scene = {"image_size": list(SIZE), "motif": spec, "motif_side": int(motif.shape[0]), "options": options,
                 "transform": answer, "vector": chosen[0]["vector"], "source_box": SOURCE_BOX,
                 "option_boxes": [option_box(k) for k in range(4)], "border": BORDER,
                 "paper": {"side": tf.SIDE, "minor": tf.MINOR, "step": tf.STEP, "minor_rgb": list(tf.MINOR_RGB),
                           "axis_rgb": list(tf.AXIS_RGB)}}
        shown = picture(motif, options)
        stem = words.RESULT_STEMS[int(rng.integers(len(words.RESULT_STEMS)))]
        question = stem.format(action=action_of(chosen[0])) + " Answer with one letter (a–d)."
        record = complexity.record("transform_tier", TIERS[answer], 0, 2, source="ours")
        metadata = {"scene": scene, "transform": answer, "motif": family, "complexity": record,
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"transform_tier": TIERS[answer]}})}
        return Problem(question=question, answer="ABCD"[position], image_size=SIZE,
                       params={**params, "transform": answer, "motif": family}, options=("A", "B", "C", "D"),
                       answer_type="option", metadata=metadata, structure=shown)

    def render(self, problem):
        if problem.structure is not None:
            return [problem.structure]
        scene = problem.metadata["scene"]
        return [picture(tf.motifs.render(scene["motif"], scene["motif_side"]), scene["options"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The transformation's tier: 0 straight mirror, half turn or move; 1 quarter turn; 2 diagonal mirror."""
        return float(TIERS[item.metadata["scene"]["transform"]])


TASK = TransformResultIdentify()
