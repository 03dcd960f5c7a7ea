"""The shared layout of the transformation tasks (paper tasks 15-17): a source tile on top, four option tiles
below, the motif families drawn and the complexity tiers of the transformations.  Not a task module: the three
tasks import it, never each other."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from bench_core import ItemRandom, ParameterError
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.kit.sampling import cyclic

SIZE = (1290, 774)
BORDER = 4
TILE = tf.SIDE + 2 * BORDER
GAP, TOP, OPTIONS_TOP, LABEL_SIZE = 48, 22, 372, 44
OPTIONS_LEFT = (SIZE[0] - (4 * TILE + 3 * GAP)) // 2
SOURCE_BOX = [(SIZE[0] - TILE) // 2, TOP, (SIZE[0] + TILE) // 2, TOP + TILE]
#: Families drawn (ladder is left out: a third of its asymmetric draws still have a self-symmetry).
FAMILIES = tuple(f for f in tf.motifs.FAMILIES if f != "ladder")
#: Complexity (ours; the paper measures none): 0 for a straight mirror, a half turn or a move, 1 for a quarter
#: turn, 2 for a diagonal mirror.
TIERS = {"mirror": 0, "flip": 0, "rot180": 0, "translate": 0, "rot90": 1, "rot270": 1, "transpose": 2,
         "transverse": 2}


def place_framed(canvas: np.ndarray, box: list[int], tile: np.ndarray) -> None:
    """``tile`` inside a black frame BORDER pixels wide (as ``kit.transforms.framed`` makes it) written into the
    (h, w, 3) ``canvas`` at ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    canvas[top:bottom, left:right] = 0
    canvas[top + BORDER : bottom - BORDER, left + BORDER : right - BORDER] = tile


def option_box(k: int) -> list[int]:
    left = OPTIONS_LEFT + k * (TILE + GAP)
    return [left, OPTIONS_TOP, left + TILE, OPTIONS_TOP + TILE]


def check_transform_params(params: Mapping[str, Any]) -> None:
    """ParameterError if both ``transform`` and ``difficulty`` are set: the level chooses the transformation."""
    if params.get("transform") is not None and params.get("difficulty") is not None:
        raise ParameterError("parameter 'difficulty': the difficulty level chooses the transformation (straight "
                             "mirrors, half turns and moves are easy, quarter turns middling, diagonal mirrors "
                             "hard); set either transform or difficulty, not both")


def choose_transform(params: Mapping[str, Any], random: ItemRandom) -> str:
    """The item's transformation: ``transform`` if set, else one of the level's tier (drawn from ``random.rng``),
    else the next of the seed's cyclic order of all eight."""
    level = params.get("difficulty")
    if params["transform"] is not None:
        return params["transform"]
    if level is not None:
        tier = complexity.knob_for_level(level, sorted(set(TIERS.values())), 0, 2, random.rng)
        choices = [t for t in words.TRANSFORMS if TIERS[t] == tier]
        return choices[int(random.rng.integers(len(choices)))]
    return cyclic(random, words.TRANSFORMS, "transform-order")
