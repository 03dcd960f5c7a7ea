"""Verifier of ``sphinx/transform-similarity-identify``: the answer is found from the question's words and the
picture alone, by another route than the generator's checker (which aligns principal axes).

Every tile's motif layer is cut from the PNG (the pixels that differ from the blank graph paper the scene
describes).  Each motif is normalised for the moves and scales a similarity allows: centred on its ink's
centroid and measured in its radius of gyration.  The source is then tried at every turn in steps of
``COARSE_DEGREES`` (refined in 1° steps around the best three), mirrored or not, against each option, and the
best soft intersection over union of the coverages is the option's similarity.  The odd option the question's
variant asks for is the one score set apart from the other three in its direction (the highest for
``one_similar``, the lowest for ``one_dissimilar``) by at least ``GAP``; similar options must score at least
``SIMILAR`` and dissimilar ones at most ``DISSIMILAR``; the odd option must be at the answer letter.  (The score
of two similar drawings is not 1: each is drawn at its own size and turn, and thin strokes alias on the grid; a
gap within the item is a steadier test than a single cut.)
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import similarity_words as words
from bench_plugin_sphinx.kit import channels
from bench_plugin_sphinx.verifiers import transforms as px
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded

COARSE_DEGREES = 6
GRID, FINE, REACH = 24, 3, 3.0
SIMILAR, DISSIMILAR, GAP = 0.72, 0.80, 0.08


def _frame(mask: np.ndarray) -> tuple[np.ndarray, float]:
    rows, cols = np.nonzero(mask)
    centre = np.array([cols.mean(), rows.mean()])
    radius = float(np.sqrt(((cols - centre[0]) ** 2 + (rows - centre[1]) ** 2).mean()))
    return centre, radius


def coverage(mask: np.ndarray, degrees, mirrored) -> np.ndarray:
    """``mask`` sampled on a GRID x GRID square of REACH radii of gyration about its centroid (FINE x finer,
    block-averaged), the sampling frame turned by each of ``degrees`` and mirrored left-right where
    ``mirrored``: shape (len(degrees), GRID, GRID).  Samples off the mask count as empty."""
    centre, radius = _frame(mask)
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), np.float32)
    padded[1:-1, 1:-1] = mask
    q = (radius * np.linspace(-REACH, REACH, GRID * FINE)).astype(np.float32)
    t = np.radians(np.asarray(degrees, dtype=np.float64))
    cos, sin = (v.astype(np.float32)[:, None, None] for v in (np.cos(t), np.sin(t)))
    mx = np.where(np.asarray(mirrored), -1.0, 1.0).astype(np.float32)[:, None, None] * q[None, None, :]
    qy = q[None, :, None]
    x = np.clip(np.rint(centre[0] + cos * mx - sin * qy), -1, w).astype(np.intp) + 1
    y = np.clip(np.rint(centre[1] + sin * mx + cos * qy), -1, h).astype(np.intp) + 1
    blocks = padded.ravel()[y * (w + 2) + x].reshape(len(x), GRID, FINE, GRID, FINE)
    # the FINE x FINE block means as sums of strided views (0/1 samples: exact in float32 in any order), many
    # times faster than a mean over the two inner axes
    total = np.zeros((len(x), GRID, GRID), np.float32)
    for i in range(FINE):
        for j in range(FINE):
            total += blocks[:, :, i, :, j]
    return total / (FINE * FINE)


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
    pixels = rgb_pixels(images[0])
    border, blank = scene["border"], px.blank_paper(scene["paper"])
    boxes = [scene["source_box"], *scene["option_boxes"]]
    if not all(px.frame_is_black(pixels, box, border) for box in boxes):
        failures.append("a tile's frame is not black")
    masks = []
    for box in boxes:
        content = px.tile_content(pixels, box, border)
        if content.shape != blank.shape:
            return [*failures, "a tile is not the size of the recorded graph paper"]
        # the motif: pixels that are neither the blank paper nor white
        mask = channels.differs(content, blank) & channels.differs(content, 255)
        if mask.sum() < 50:
            return [*failures, "a tile shows no motif"]
        masks.append(mask)
    similarity = scorer(masks[0])
    scores = [similarity(mask) for mask in masks[1:]]
    letters = "ABCD"[: len(scores)]
    shown = [round(s, 3) for s in scores]
    order = sorted(range(len(scores)), key=lambda k: scores[k], reverse=variant == "one_similar")
    odd, nearest = order[0], order[1]
    similar = {odd} if variant == "one_similar" else set(order[1:])
    if abs(scores[odd] - scores[nearest]) < GAP:
        failures.append(f"no option is set apart from the others by {GAP} ({variant}; scores {shown})")
    unclear = [letters[k] for k in range(len(scores))
               if (scores[k] < SIMILAR if k in similar else scores[k] > DISSIMILAR)]
    if unclear:
        failures.append(f"option(s) {unclear} are not clearly similar or clearly not (scores {shown}; similar at "
                        f"least {SIMILAR}, not similar at most {DISSIMILAR})")
    if not failures and letters[odd] != item.answer:
        failures.append(f"option {letters[odd]} is the odd one ({variant}), but the answer is {item.answer}")
    return failures
