"""Verifier of ``sphinx/transform-similarity-identify``: the answer is found from the question's words and the
picture alone, by another route than the generator's checker (which aligns principal axes).

Every tile's motif layer is cut from the PNG (the pixels that differ from the blank graph paper the scene
describes).  Each motif is normalised for the moves and scales a similarity allows: centred on its ink's
centroid and measured in its radius of gyration.  The source is then tried at every turn in steps of
``COARSE_DEGREES`` (refined in 1° steps around the best three), mirrored or not, against each option, and the
best soft intersection over union of the coverages is the option's similarity.  Similar options must score at
least ``SIMILAR``, dissimilar ones at most ``DISSIMILAR``; exactly one option must be the odd one the question's
variant asks for, at the answer letter.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import similarity_words as words
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.records import guarded

COARSE_DEGREES = 6
GRID, FINE, REACH = 32, 2, 3.0
SIMILAR, DISSIMILAR = 0.78, 0.76


def _frame(mask: np.ndarray) -> tuple[np.ndarray, float]:
    rows, cols = np.nonzero(mask)
    centre = np.array([cols.mean(), rows.mean()])
    radius = float(np.sqrt(((cols - centre[0]) ** 2 + (rows - centre[1]) ** 2).mean()))
    return centre, radius


def coverage(mask: np.ndarray, degrees, mirrored) -> np.ndarray:
    """``mask`` sampled on a GRID x GRID square of REACH radii of gyration about its centroid (FINE x finer,
    block-averaged), the sampling frame turned by each of ``degrees`` and mirrored left-right where
    ``mirrored``: shape (len(degrees), GRID, GRID)."""
    centre, radius = _frame(mask)
    q = np.linspace(-REACH, REACH, GRID * FINE)
    qx, qy = np.meshgrid(q, q)
    t = np.radians(np.asarray(degrees, dtype=np.float64))[:, None, None]
    sign = np.where(np.asarray(mirrored), -1.0, 1.0)[:, None, None]
    mx = sign * qx[None]
    x = centre[0] + radius * (np.cos(t) * mx - np.sin(t) * qy[None])
    y = centre[1] + radius * (np.sin(t) * mx + np.cos(t) * qy[None])
    xi, yi = np.rint(x).astype(np.intp), np.rint(y).astype(np.intp)
    inside = (xi >= 0) & (yi >= 0) & (xi < mask.shape[1]) & (yi < mask.shape[0])
    padded = np.zeros(mask.size + 1, np.float32)
    padded[:-1] = mask.ravel()
    sample = padded[np.where(inside, yi * mask.shape[1] + xi, mask.size)]
    return sample.reshape(len(sample), GRID, FINE, GRID, FINE).mean(axis=(2, 4))


def scorer(source: np.ndarray):
    """A function giving an option mask's similarity to ``source``: the best soft intersection over union of the
    option's coverage with the source's, over the source turned in COARSE_DEGREES steps, plain and mirrored,
    then refined in 1° steps around the three best turns (the coarse views are drawn once per source)."""
    angles = [float(a) for _ in (False, True) for a in range(0, 360, COARSE_DEGREES)]
    mirrored = [m for m in (False, True) for _ in range(0, 360, COARSE_DEGREES)]
    coarse_views = coverage(source, angles, mirrored)

    def iou(views, target):
        union = np.maximum(views, target).sum(axis=(1, 2))
        return np.minimum(views, target).sum(axis=(1, 2)) / np.maximum(union, 1e-9)

    def similarity(option: np.ndarray) -> float:
        target = coverage(option, [0.0], [False])
        coarse = iou(coarse_views, target)
        fine_angles, fine_mirrored = [], []
        for k in np.argsort(coarse)[-3:]:
            for step in range(-(COARSE_DEGREES // 2), COARSE_DEGREES // 2 + 1):
                fine_angles.append(angles[k] + step)
                fine_mirrored.append(mirrored[k])
        return float(max(coarse.max(), iou(coverage(source, fine_angles, fine_mirrored), target).max()))

    return similarity


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    variants = words.variant_of(item.question)
    if len(variants) != 1:
        return [f"the question states {len(variants)} variants ({variants}), not exactly one"]
    variant = variants[0]
    if words.DEFINITION not in item.question:
        failures.append("the question does not define similarity")
    pixels = np.asarray(images[0].convert("RGB"))
    border, blank = scene["border"], px.blank_paper(scene["paper"])
    boxes = [scene["source_box"], *scene["option_boxes"]]
    if not all(px.frame_is_black(pixels, box, border) for box in boxes):
        failures.append("a tile's frame is not black")
    masks = []
    for box in boxes:
        layer = px.motif_layer(px.tile_content(pixels, box, border), blank)
        if layer.shape != blank.shape:
            return [*failures, "a tile is not the size of the recorded graph paper"]
        mask = (layer != 255).any(axis=2)
        if mask.sum() < 50:
            return [*failures, "a tile shows no motif"]
        masks.append(mask)
    similarity = scorer(masks[0])
    scores = [similarity(mask) for mask in masks[1:]]
    letters = "ABCD"[: len(scores)]
    unclear = [letters[k] for k, s in enumerate(scores) if DISSIMILAR < s < SIMILAR]
    if unclear:
        failures.append(f"option(s) {unclear} are neither clearly similar nor clearly not (scores "
                        f"{[round(s, 3) for s in scores]})")
    odd = [k for k, s in enumerate(scores) if (s >= SIMILAR) == (variant == "one_similar")]
    if len(odd) != 1:
        failures.append(f"{len(odd)} options are {'similar' if variant == 'one_similar' else 'not similar'} "
                        f"(scores {[round(s, 3) for s in scores]}), not exactly one")
    elif letters[odd[0]] != item.answer:
        failures.append(f"option {letters[odd[0]]} is the odd one ({variant}), but the answer is {item.answer}")
    return failures
