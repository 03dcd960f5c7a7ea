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

from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import complexity, layout
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


def compose(scene: dict[str, Any], motif: np.ndarray | None = None) -> np.ndarray:
    """The item's picture: the source tile, an arrow, the target tile."""
    motif = tf.motifs.render(scene["motif"], scene["motif_side"]) if motif is None else motif
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    layout.paste(canvas, tf.framed(tf.place(motif), BORDER), *LEFT_BOX[:2])
    layout.paste(canvas, tf.framed(target_tile(motif, scene["transform"], scene["vector"]), BORDER),
                 *RIGHT_BOX[:2])
    _arrow(ImageDraw.Draw(canvas))
    return np.asarray(canvas)


def unique_under_d4(motif: np.ndarray, op: str, vector) -> bool:
    """The target drawn differs strongly from the source under every D4 map but the truth (a translation
    differs from every centred image by its place alone; its D4 images are checked all the same)."""
    target = target_tile(motif, op, vector)
    return all(tf.distinct_tiles(tf.transformed(motif, other), target) for other in tf.D4_MAPS if other != op)


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
            if drawn is not None and unique_under_d4(drawn[1], truth, vector):
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
        return Problem(question=question, answer="ABCDEF"[position], image_size=SIZE,
                       params={**params, "transform": truth, "motif": family}, options=texts, answer_type="option",
                       metadata=metadata, structure=compose(scene, motif))

    def render(self, problem):
        picture = problem.structure if problem.structure is not None else compose(problem.metadata["scene"])
        return [Image.fromarray(picture)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCDEF" if x != problem.answer][:count]

    def hardness(self, item):
        """The true transformation's tier: 0 straight mirror, half turn or move; 1 quarter turn; 2 diagonal."""
        return float(TIERS[item.metadata["scene"]["transform"]])


TASK = TransformPairInfer()
