"""Verifier of ``sphinx/chart-comparison``: the matching option is found on the picture.

The top chart and the four option charts are read from the pixels (``verifiers.charts``: a pie's slice
angles, a bar chart's bar heights, normalised to shares of 100), each as {colour: share}.  Exactly one option
may hold every colour of the top chart at the same share (within 1.5 points), at the answer letter; every
other option must miss by at least 4 points in some colour.  Every chart must show exactly the recorded
colours in the recorded category order (clockwise from 12 o'clock, or left to right), the top chart and the
answer's the recorded percentages (within one point), and the stem must name the top chart drawn.
"""

from __future__ import annotations

from bench_plugin_sphinx import comparison_words as words
from bench_plugin_sphinx.verifiers.charts import bar_heights, pie_shares
from bench_plugin_sphinx.verifiers.pixels import image_keys
from bench_plugin_sphinx.verifiers.records import guarded

MATCH, MISS, AGREEMENT = 1.5, 4.0, 1.0


def read_chart(image, kind: str, box) -> tuple[dict[str, float], list[str], list[str]]:
    """({colour: share in points}, colours in category order, failures) of the chart of ``kind`` in ``box``."""
    if kind == "pie":
        shares, order, failures = pie_shares(image, box)
        return {c: 100 * v for c, v in shares.items()}, order, failures
    left, top, right, bottom = box
    bars, failures = bar_heights(image_keys(image.crop((left, top, right, bottom))))
    total = sum(h for _, h in bars)
    if not bars or not total:
        return {}, [], [*failures, "no bars are drawn"]
    shares: dict[str, float] = {}
    for colour, height in bars:
        shares[colour] = shares.get(colour, 0.0) + 100 * height / total
    return shares, [c for c, _ in bars], failures


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    top = scene["top"]
    if words.top_of(item.question) != top:
        failures.append(f"the question's stem does not describe a {top} chart on top")
    image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
    colours = list(scene["colours"])
    target, order, problems = read_chart(image, top, scene["top_box"])
    failures += [f"top chart: {p}" for p in problems]
    if order != colours:
        return [*failures, f"the top chart shows the colours {order}, the scene records {colours} in order"]
    for colour, value in zip(colours, scene["percentages"], strict=True):
        if abs(target[colour] - value) > AGREEMENT:
            failures.append(f"the top chart gives {colour} {target[colour]:.1f} points, the scene records {value}")
    other = "bar" if top == "pie" else "pie"
    misses = []
    for k, box in enumerate(scene["option_boxes"]):
        shares, order, problems = read_chart(image, other, box)
        failures += [f"option ({'abcd'[k]}): {p}" for p in problems]
        if order != colours:
            failures.append(f"option ({'abcd'[k]}) shows the colours {order}, not {colours} in order")
            misses.append(100.0)
            continue
        misses.append(max(abs(shares[c] - target[c]) for c in colours))
    fits = [k for k, m in enumerate(misses) if m <= MATCH]
    unclear = [k for k, m in enumerate(misses) if MATCH < m < MISS]
    if unclear:
        failures.append(f"option(s) {['ABCD'[k] for k in unclear]} neither match the top chart nor clearly differ "
                        f"(largest differences {[round(m, 2) for m in misses]} points)")
    if len(fits) != 1:
        failures.append(f"{len(fits)} options match the top chart's proportions (largest differences "
                        f"{[round(m, 2) for m in misses]} points), not exactly one")
    elif "ABCD"[fits[0]] != item.answer:
        failures.append(f"option {'ABCD'[fits[0]]} matches the top chart's proportions, but the answer is "
                        f"{item.answer}")
    return failures
