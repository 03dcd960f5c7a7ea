"""Verifier of ``sphinx/pie-chart``: the ranking is read from the picture.

The legend is read row by row (the swatch's single exact colour, the letter by template matching); each
colour's share of the pie is measured on the slice angles (``verifiers.charts.pie_shares``).  The letters
ranked by measured share, in the direction the question's stem names, must be the option at the answer
letter and no other option; neighbouring shares must be at least 4 % apart relatively (else the picture is
too close to call by eye).  The measured shares must also agree with the recorded percentages (within one
point), the slices must run clockwise from 12 o'clock in the legend's order, and every option must order
exactly the legend's letters.
"""

from __future__ import annotations

import itertools

import numpy as np

from bench_plugin_sphinx import pie_words as words
from bench_plugin_sphinx.verifiers.charts import pie_shares
from bench_plugin_sphinx.verifiers.letters import read_letter
from bench_plugin_sphinx.verifiers.pixels import NAMED, image_keys, luminance_of_keys, snap_keys
from bench_plugin_sphinx.verifiers.records import guarded

#: Smallest relative gap between neighbouring measured shares.
SEPARATION = 0.04
#: Largest difference, in percentage points, between a measured share and the recorded percentage.
AGREEMENT = 1.0
_NAMES = tuple(NAMED)


def read_legend(image, legend: dict, count: int) -> tuple[list[tuple[str | None, str | None]], list[str]]:
    """[(letter, colour name)] of the ``count`` legend rows laid out as ``legend`` records, and failures."""
    left, pitch, side, top = legend["left"], legend["pitch"], legend["swatch"], legend["top"]
    size = int(legend["letter_size"])
    text_x = left + side + legend["text_dx"]
    keys = image_keys(image.crop((left, 0, text_x + 2 * size, image.height)))
    strip = luminance_of_keys(keys[:, text_x - left - 8:])
    out, failures = [], []
    for k in range(count):
        y = top + k * pitch
        values = np.unique(snap_keys(keys[y + 4: y + side - 4, 4: side - 4]))
        colour = _NAMES[int(values[0])] if len(values) == 1 and values[0] >= 0 else None
        if colour is None or colour in ("white", "black"):
            failures.append(f"legend row {k + 1}: the swatch is not one named colour")
            colour = None
        letter, best, second = read_letter(strip, (8, y + side // 2), size)
        if letter is None or best < 0.97 or second > best - 0.03:
            failures.append(f"legend row {k + 1}: no clear letter (best match {letter} at {best:.2f}, next "
                            f"{second:.2f})")
            letter = None
        out.append((letter, colour))
    return out, failures


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    direction = words.direction_of(item.question)
    if direction is None or direction != scene["direction"]:
        failures.append(f"the question's stem asks for {direction!r} order, the scene records {scene['direction']!r}")
    options = list(item.options or ())
    if len(options) != 4 or words.listing(options) not in item.question:
        return [*failures, "the question does not list the four options in order"]
    image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
    legend, problems = read_legend(image, scene["legend"], len(scene["categories"]))
    failures += problems
    recorded = [(c["letter"], c["colour"]) for c in scene["categories"]]
    if legend != recorded:
        failures.append(f"the legend reads {legend}, the scene records {recorded}")
    letters, colours = [a for a, _ in legend], [c for _, c in legend]
    if None in letters or len(set(letters)) != len(letters):
        return [*failures, "the legend's letters are not distinct and readable"]
    if None in colours or len(set(colours)) != len(colours):
        return [*failures, "the legend's colours are not distinct named colours"]
    shares, order, problems = pie_shares(image, scene["pie_box"])
    failures += problems
    if order != colours:
        failures.append(f"the slices run {order} clockwise from 12 o'clock, not in the legend's order {colours}")
    colour_of = {a: c for a, c in legend}
    if sorted(shares) != sorted(colour_of.values()):
        return [*failures, f"the pie's colours {sorted(shares)} are not the legend's {sorted(colour_of.values())}"]
    measured = {a: 100 * shares[colour_of[a]] for a in letters}
    ranked = sorted(letters, key=lambda a: measured[a], reverse=direction == "descending")
    values = sorted(measured.values())
    close = [(round(a, 2), round(b, 2)) for a, b in itertools.pairwise(values) if (b - a) / b < SEPARATION]
    if close:
        failures.append(f"slices too close in size to rank by eye: {close} (% of the pie)")
    for category in scene["categories"]:
        got = measured.get(category["letter"])
        if got is None or abs(got - category["percent"]) > AGREEMENT:
            failures.append(f"slice {category['letter']} covers {got}% of the pie, the scene records "
                            f"{category['percent']}%")
    for k, text in enumerate(options):
        if sorted(text.split(",")) != sorted(letters):
            failures.append(f"option ({'abcd'[k]}) {text!r} does not order the legend's letters")
    if len(set(options)) != len(options):
        failures.append("two options are the same ordering")
    expected = words.option_text(ranked)
    fits = [k for k, text in enumerate(options) if text == expected]
    if len(fits) != 1:
        failures.append(f"the pixels rank the slices {expected} ({direction}); {len(fits)} options say so")
    elif "ABCD"[fits[0]] != item.answer:
        failures.append(f"the pixels rank the slices {expected}: option {'ABCD'[fits[0]]}, but the answer is "
                        f"{item.answer}")
    return failures
