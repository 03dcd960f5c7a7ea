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

from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import complexity, layout
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


def compose(scene: dict[str, Any], motif: np.ndarray | None = None,
            tiles: list[np.ndarray] | None = None) -> np.ndarray:
    """The item's picture: the source tile at the top, the four labelled options below (``tiles``: the options'
    tiles in the scene's order, when already drawn).  The framed tiles are written into a white canvas (the
    pixels PIL's paste gives) and the labels are ``kit.layout.caption_patch`` bands under the options (the pixels
    ``kit.layout.caption`` draws there: the bands are white but for the label, centred on whole pixels)."""
    motif = tf.motifs.render(scene["motif"], scene["motif_side"]) if motif is None else motif
    if tiles is None:
        tiles = [option_tile(motif, option) for option in scene["options"]]
    canvas = np.full((SIZE[1], SIZE[0], 3), 255, np.uint8)
    place_framed(canvas, SOURCE_BOX, tf.place(motif))
    for k, tile in enumerate(tiles):
        left, _top, right, bottom = box = option_box(k)
        place_framed(canvas, box, tile)
        canvas[bottom: bottom + 2 * CAPTION_DROP, left:right] = layout.caption_patch(
            layout.label(k), LABEL_SIZE, right - left, 2 * CAPTION_DROP)
    return canvas


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
        picture = compose(scene, motif, [tiles[k] for k in order])
        stem = words.RESULT_STEMS[int(rng.integers(len(words.RESULT_STEMS)))]
        question = stem.format(action=action_of(chosen[0])) + " Answer with one letter (a–d)."
        record = complexity.record("transform_tier", TIERS[answer], 0, 2, source="ours")
        metadata = {"scene": scene, "transform": answer, "motif": family, "complexity": record,
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"transform_tier": TIERS[answer]}})}
        return Problem(question=question, answer="ABCD"[position], image_size=SIZE,
                       params={**params, "transform": answer, "motif": family}, options=("A", "B", "C", "D"),
                       answer_type="option", metadata=metadata, structure=picture)

    def render(self, problem):
        picture = problem.structure if problem.structure is not None else compose(problem.metadata["scene"])
        return [Image.fromarray(picture)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The transformation's tier: 0 straight mirror, half turn or move; 1 quarter turn; 2 diagonal mirror."""
        return float(TIERS[item.metadata["scene"]["transform"]])


TASK = TransformResultIdentify()
