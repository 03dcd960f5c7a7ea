"""``sphinx/transform-similarity-identify`` (paper B.4.3, spec T17): a motif tile at the top and four option tiles;
either exactly one option is similar to the top motif (``one_similar``) or exactly one is not
(``one_dissimilar``), similar meaning the same shape up to uniform scaling, rotation, reflection and moving.

Every tile, the source included, is the motif under a 2 x 2 linear map drawn through one pipeline
(``kit.transforms.mapped_tile``).  A similar option's map is a turn by any angle, a mirror or not, and a
uniform scale in 0.55-1.35, moved a little off the centre.  A dissimilar option's map is the same times a
*breaker* S R S⁻¹ (``kit.transforms.moment_breaker``, S the square root of the motif's covariance, R a turn of
35-90°): it stretches and shears the shape (a singular-value ratio of at least 1.4) but keeps its area and its
second moments, so ink, spread and elongation are the same as a similar option's and no option-only statistic
singles the odd one out.  (The paper's breakers, a plain anisotropic
scale, a shear or a keystone, change the elongation; and its similar options turn by multiples of 90° only,
which keeps the edge directions: with three similar options, either would point at the odd one without
looking at the top motif.  Both are changed here for that reason.)

Motifs need some elongation so that the breaker can distort them (a round motif's breaker is a plain turn);
every option is checked with the generator's canonical checker (principal-axis frames, ``kit.transforms.
similarity_score``): similar ones must score high, dissimilar ones low, or the motif is drawn again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import GenerationError, ParameterError, Problem
from bench_plugin_sphinx import similarity_words as words
from bench_plugin_sphinx.kit import complexity, layout, motifs
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.transform_layout import BORDER, LABEL_SIZE, SIZE, SOURCE_BOX, option_box
from bench_plugin_sphinx.verifiers import transform_similarity as verifier

#: Families drawn: those a moment-keeping breaker clearly distorts (round motifs, convex polygons and pictograms
#: mostly stay near-similar), with strokes that survive resampling for the checker.
FAMILIES = ("arc", "arrow", "bars", "crescent", "glyph", "pinwheel", "polyhex", "segment")
#: The source motif's box at 1x, and the options' scale range (the spec's).
MOTIF_SIDE, SCALES = 120, (0.55, 1.35)
#: Largest move of an option off the tile centre (pixels per axis), and the margin kept to the tile edge.
OFFSET, MARGIN = 12, 10
#: The least distortion (singular-value ratio) a breaker must bring (the paper's |sx - sy| >= 0.12 is ~1.13).
MIN_DISTORTION = 1.4
#: Breaker strength tiers: the turn inside the breaker S R S⁻¹ (degrees, either sign); tier 2 is the subtlest.
TIERS = {0: (70.0, 90.0), 1: (50.0, 70.0), 2: (35.0, 50.0)}
#: The generator's canonical checker: similar options score at least SIMILAR, dissimilar ones at most DISSIMILAR.
SIMILAR, DISSIMILAR = 0.88, 0.58
ATTEMPTS = 80


def distortion(matrix: np.ndarray) -> float:
    """The ratio of the singular values of a 2 x 2 map (1 for a similarity)."""
    values = np.linalg.svd(matrix, compute_uv=False)
    return float(values[0] / values[1])


def _fits(points: np.ndarray, matrix: np.ndarray, offset) -> bool:
    """The motif's ink points (about its centre) under ``matrix`` and ``offset`` stay MARGIN inside the tile."""
    moved = points @ np.asarray(matrix).T + np.asarray(offset)
    return bool(np.abs(moved).max() <= tf.SIDE / 2 - MARGIN)


def option_map(rng: np.random.Generator, breaker: np.ndarray | None, points: np.ndarray) -> dict[str, Any]:
    """A random turn, mirror, scale and move (times ``breaker`` when given), scaled down until it fits."""
    matrix = tf.turn(float(rng.uniform(0, 360)), bool(rng.integers(2)))
    if breaker is not None:
        matrix = matrix @ breaker
    scale = float(rng.uniform(*SCALES))
    offset = [float(v) for v in rng.uniform(-OFFSET, OFFSET, 2)]
    while not _fits(points, scale * matrix, offset) and scale > 0.3:
        scale *= 0.95
    return {"matrix": [[round(float(v), 6) for v in row] for row in scale * matrix],
            "offset": [round(v, 3) for v in offset], "similar": breaker is None}


def art_of(spec: dict[str, Any]) -> np.ndarray:
    return motifs.render(spec, MOTIF_SIDE * tf.SUPER)


def tile_of(art: np.ndarray, option: dict[str, Any]) -> np.ndarray:
    return tf.mapped_tile(art, np.array(option["matrix"]), tuple(option["offset"]))


def compose(scene: dict[str, Any], tiles: list[np.ndarray] | None = None) -> np.ndarray:
    """The item's picture: the source tile at the top, the four labelled options below (``tiles``: the source's
    and the options' tiles in that order, when already drawn)."""
    if tiles is None:
        art = art_of(scene["motif"])
        tiles = [tf.mapped_tile(art, np.eye(2)), *(tile_of(art, option) for option in scene["options"])]
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    layout.paste(canvas, tf.framed(tiles[0], BORDER), *SOURCE_BOX[:2])
    draw = ImageDraw.Draw(canvas)
    for k in range(len(scene["options"])):
        left, top, right, bottom = option_box(k)
        layout.paste(canvas, tf.framed(tiles[1 + k], BORDER), left, top)
        layout.caption(draw, ((left + right) / 2, bottom + 38), layout.label(k), LABEL_SIZE)
    return np.asarray(canvas)


class TransformSimilarityIdentify(PaperSets, task="transform-similarity-identify"):
    def check_params(self, params):
        if params.get("variant") is not None and params.get("difficulty") is not None:
            raise ParameterError("parameter 'difficulty': the difficulty level sets the breaker's strength, not the "
                                 "variant; set variant or difficulty, not both")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        variant = params["variant"] or cyclic(random, words.VARIANTS, "variant-order")
        if level is not None:
            tier = complexity.knob_for_level(level, sorted(TIERS), 0, 2, rng)
        else:
            tier = int(cyclic(random, tuple(TIERS), "tier-order"))
        family = params["motif"] or cyclic(random, FAMILIES, "motif-order")
        position = random.balanced(4, "answer")
        for _attempt in range(ATTEMPTS):
            found = self._draw(variant, family, tier, rng)
            if found is not None:
                break
        else:
            raise GenerationError(f"transform-similarity-identify: no {family} motif with clear options in {ATTEMPTS} "
                                  "draws")
        spec, source, odd, others = found
        others = [others[int(k)] for k in rng.permutation(3)]
        options = [*others[:position], odd, *others[position:]]
        tiles = [source, *(option.pop("tile") for option in options)]
        scene = {"image_size": list(SIZE), "motif": spec, "variant": variant, "options": options,
                 "source_box": SOURCE_BOX, "option_boxes": [option_box(k) for k in range(4)], "border": BORDER,
                 "paper": {"side": tf.SIDE, "minor": tf.MINOR, "step": tf.STEP, "minor_rgb": list(tf.MINOR_RGB),
                           "axis_rgb": list(tf.AXIS_RGB)}}
        stem = words.STEMS[variant][int(rng.integers(len(words.STEMS[variant])))]
        question = f"{stem} {words.DEFINITION} Answer with one letter (a–d)."
        record = complexity.record("breaker_tier", tier, 0, 2, source="ours")
        metadata = {"scene": scene, "variant": variant, "motif": family, "complexity": record,
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"breaker_tier": tier}})}
        return Problem(question=question, answer="ABCD"[position], image_size=SIZE,
                       params={**params, "variant": variant, "motif": family}, options=("A", "B", "C", "D"),
                       answer_type="option", metadata=metadata, structure=compose(scene, tiles))

    def _draw(self, variant, family, tier, rng):
        """(spec, the source tile, the odd option, the three others; each option with its drawn "tile"), or None
        when a breaker distorts too little or an option does not pass the canonical checker."""
        spec = motifs.sample(family, rng, "asym")
        art = art_of(spec)
        source = tf.mapped_tile(art, np.eye(2))
        mask = tf.motif_mask(source)
        _centre, covariance = tf.moments(mask)
        rows, cols = np.nonzero(mask)
        points = np.stack([cols - tf.SIDE / 2, rows - tf.SIDE / 2], axis=1).astype(np.float64)
        low, high = TIERS[tier]
        count = 1 if variant == "one_dissimilar" else 3
        breakers = [tf.moment_breaker(covariance, float(rng.choice([-1, 1]) * rng.uniform(low, high)))
                    for _ in range(count)]
        if min(distortion(b) for b in breakers) < MIN_DISTORTION:
            return None
        similar = [option_map(rng, None, points) for _ in range(4 - count)]
        dissimilar = [option_map(rng, b, points) for b in breakers]
        reference = tf.principal_canonical(source)[0]
        for option in similar + dissimilar:
            option["tile"] = tile_of(art, option)
            score = tf.similarity_score(source, option["tile"], reference)
            if (score < SIMILAR) if option["similar"] else (score > DISSIMILAR):
                return None
        if not tf.pairwise_distinct([option["tile"] for option in similar + dissimilar]):
            return None
        if variant == "one_similar":
            return spec, source, similar[0], dissimilar
        return spec, source, dissimilar[0], similar

    def render(self, problem):
        picture = problem.structure if problem.structure is not None else compose(problem.metadata["scene"])
        return [Image.fromarray(picture)]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The breaker's tier: 0 a turn of 70-90° inside it (strong), 1 50-70°, 2 35-50° (subtle)."""
        return float(item.metadata["complexity"]["raw"])


TASK = TransformSimilarityIdentify()
