"""Verifier of ``sphinx/sequence-rotation``: every turn is measured on the picture.

Each panel's polar signature (``verifiers.sequences``) is read about its centre.  The turn between every two
neighbouring visible panels must be one and the same step t (within 3°; a pair across the blank must turn 2t),
each found clearly (the best match at least 0.05 better than any turn 20° away); a question that states the
step ("45° clockwise") must state t (counterclockwise positive, as the signature's angles run).  The blank
panel must hold no ink.  Each option is compared with every visible panel turned on by the steps between them:
exactly one option may match (mismatch at most 0.12; every other at least 0.18), at the answer letter, and the
options must differ pairwise on at least 10 % of their ink.  The recorded angles are not read.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx.verifiers import sequences as read
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded

MATCH, MISS, CLEAR, SLACK = 0.12, 0.18, 0.05, 3
_STATED = re.compile(r"(\d+)° (counterclockwise|clockwise)")


def _gap(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    pixels = rgb_pixels(images[0])
    border, mask = scene["border"], scene["mask"]
    panels = [read.content(pixels, box, border) for box in scene["panel_boxes"]]
    options = [read.content(pixels, box, border) for box in scene["option_boxes"]]
    if read.ink(panels[mask]).mean() > 0.001:
        failures.append(f"the blank panel {mask + 1} holds ink")
    visible = [k for k in range(4) if k != mask]
    if any(read.ink(panels[k]).sum() < 50 for k in visible):
        return [*failures, "a visible panel holds no motif"]
    sigs = {k: read.signature(panels[k]) for k in visible}
    steps = []
    for a, b in itertools.pairwise(visible):
        turn, miss, far = read.turn_between(sigs[a], sigs[b])
        if miss > MATCH or far < miss + CLEAR:
            failures.append(f"panels {a + 1} and {b + 1} are not one clear turn of each other (mismatch {miss:.3f}, "
                            f"next best {far:.3f})")
        steps.append((b - a, turn))
    singles = [t for gap, t in steps if gap == 1]
    step = singles[0]
    for gap, t in steps:
        if _gap(t, gap * step) > SLACK * gap:
            failures.append(f"the panels do not turn by one constant step (measured {steps})")
    stated = _STATED.search(item.question)
    if stated:
        expected = int(stated.group(1)) * (1 if stated.group(2) == "counterclockwise" else -1)
        if _gap(step, expected) > SLACK:
            failures.append(f"the question states {stated.group(0)} but the panels turn {step}° (counterclockwise "
                            "positive)")
        if words.turn_phrase(int(stated.group(1)), stated.group(2)) != stated.group(0):
            failures.append(f"the question states the turn as {stated.group(0)!r}")
    elif not item.question.startswith(words.ROTATION_STEMS):
        failures.append("the question is none of the task's stems")
    option_sigs = [read.signature(o) for o in options]
    scores = [float(np.mean([read.mismatch(read.turned(sigs[p], round((mask - p) * step)), sig) for p in visible]))
              for sig in option_sigs]
    letters = "ABCD"
    fits = [k for k, s in enumerate(scores) if s <= MATCH]
    unclear = [k for k, s in enumerate(scores) if MATCH < s < MISS]
    if unclear:
        failures.append(f"option(s) {[letters[k] for k in unclear]} neither match the blank panel nor clearly miss "
                        f"it (mismatch {[round(s, 3) for s in scores]})")
    if len(fits) != 1:
        failures.append(f"{len(fits)} options match the blank panel (mismatch {[round(s, 3) for s in scores]}), not "
                        "exactly one")
    elif letters[fits[0]] != item.answer:
        failures.append(f"option {letters[fits[0]]} fills the blank, but the answer is {item.answer}")
    inks = [read.ink(o) for o in options]
    for a in range(4):
        for b in range(a + 1, 4):
            union = inks[a] | inks[b]
            if not union.any() or (inks[a] != inks[b])[union].mean() < 0.1:
                failures.append(f"options {letters[a]} and {letters[b]} look the same")
    return failures
