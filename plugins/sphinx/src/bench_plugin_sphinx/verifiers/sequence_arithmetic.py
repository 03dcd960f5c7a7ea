"""Verifier of ``sphinx/sequence-arithmetic``: every count is read on the picture.

Each visible panel's copies are found as pieces of ink (``verifiers.sequences.copies``: runs joined row to
row, not the generator's flood fill) and must be copies of one motif at one size (``uniform``), the same motif
in every panel (median ink within 15 %).  The three visible counts must lie on one arithmetic progression over
their places (the blank may be any of the four), whose step is one of 0..3 and whose direction is not
contradicted by the record; the blank must hold no ink.  The blank's count follows; each option's copies are
counted the same way, and exactly one option may show that count of the row's motif, at the answer letter.
Options must show pairwise different counts.  The recorded counts are not read.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx.verifiers import sequences as read
from bench_plugin_sphinx.verifiers.pixels import rgb_pixels
from bench_plugin_sphinx.verifiers.records import guarded

#: The median copy ink of two panels of one motif differs by at most this share.
SAME_MOTIF = 0.15


def reading(rgb: np.ndarray) -> tuple[int, float, bool]:
    """(copies, median copy ink, whether the copies are uniform) of one panel."""
    found = read.copies(rgb)
    inks = [p["ink"] for p in found]
    return len(found), float(np.median(inks)) if inks else 0.0, read.uniform(found)


def progression(known: dict[int, int]) -> int | None:
    """The per-panel step of three counts at their places, or None when they are not on one progression."""
    places = sorted(known)
    (a, ca), (b, cb), (c, cc) = [(k, known[k]) for k in places]
    if (cb - ca) * (c - b) != (cc - cb) * (b - a):
        return None
    if (cc - ca) % (c - a):
        return None
    return (cc - ca) // (c - a)


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    pixels = rgb_pixels(images[0])
    border, mask = scene["border"], scene["mask"]
    panels = [read.content(pixels, box, border) for box in scene["panel_boxes"]]
    options = [read.content(pixels, box, border) for box in scene["option_boxes"]]
    if read.ink(panels[mask]).mean() > 0.001:
        failures.append(f"the blank panel {mask + 1} holds ink")
    if not item.question.startswith(words.ARITHMETIC_STEMS):
        failures.append("the question is none of the task's stems")
    known, inks = {}, []
    for k in range(4):
        if k == mask:
            continue
        count, ink, even = reading(panels[k])
        if count == 0 or not even:
            failures.append(f"panel {k + 1} does not show copies of one motif at one size ({count} pieces)")
        known[k] = count
        inks.append(ink)
    if failures:
        return failures
    motif_ink = float(np.median(inks))
    if max(abs(i - motif_ink) for i in inks) > SAME_MOTIF * motif_ink:
        failures.append(f"the visible panels show copies of different sizes or motifs (median inks {inks})")
    step = progression(known)
    if step is None:
        return [*failures, f"the visible counts {known} (panel: count) do not change by a constant step"]
    if abs(step) > 3:
        failures.append(f"the counts change by {step} per panel; the task's steps are 0 to 3")
    direction = scene["direction"]
    if step and (step > 0) != (direction == "increasing"):
        failures.append(f"the counts change by {step} per panel but the record says {direction}")
    some = next(iter(known))
    expected = known[some] + (mask - some) * step
    counted = []
    for rgb in options:
        count, ink, even = reading(rgb)
        same = even and count > 0 and abs(ink - motif_ink) <= SAME_MOTIF * motif_ink
        counted.append(count if same else None)
    letters = "ABCD"
    if any(c is None for c in counted):
        failures.append(f"option(s) {[letters[k] for k, c in enumerate(counted) if c is None]} do not show copies "
                        "of the row's motif")
    fits = [k for k, c in enumerate(counted) if c == expected]
    if len(fits) != 1:
        failures.append(f"{len(fits)} options show {expected} copies (the blank's count; options show {counted}), "
                        "not exactly one")
    elif letters[fits[0]] != item.answer:
        failures.append(f"option {letters[fits[0]]} fills the blank with {expected} copies, but the answer is "
                        f"{item.answer}")
    shown = [c for c in counted if c is not None]
    if len(set(shown)) != len(shown):
        failures.append(f"two options show the same count ({counted})")
    return failures
