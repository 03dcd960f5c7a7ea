"""Verifier of ``sphinx/positional-count``: the count is re-derived from the picture.

Every recorded token must be drawn where it is recorded, as its kind (``verifiers.tokens``), and no other
dark ink may lie off the tokens, the shapes' outline bands and the frame (an unrecorded token would show
there).  Each shape's pixels (its exact fill colour, and the dark pixels of its outline band) give its extreme
points; each token's dark pixels give its own.  A token is inside a shape when a ring of samples just around
it (4 px out, or halfway to a nearer neighbour) shows only the shape's fill colour, outside when none does
(anything else: it straddles the boundary); it is left of, right of, above or below a shape when its ink ends
before the shape's ink begins on that side, and a token within 2 px of that line fails the item as too close to
call.  The tokens of the asked kind in the asked relation to the asked shape are counted; the count must be the
answer.  The question must name the relation, the shape (its colour as ``name (#hex)``) and the kind the scene
records.
"""

from __future__ import annotations

import math
import re

import numpy as np

from bench_plugin_sphinx import position_words as words
from bench_plugin_sphinx.verifiers.pixels import image_keys
from bench_plugin_sphinx.verifiers.records import guarded
from bench_plugin_sphinx.verifiers.tokens import dark_mask, outline_band, read_tokens

PLURALS = {"circle": "circles", "triangle": "triangles", "square": "squares", "pentagon": "pentagons",
           "hexagon": "hexagons"}
#: Dark pixels off every token, outline and the frame that an item may have (blended grid crossings).
STRAY = 10
BORDERLINE = 2
RING_SAMPLES = 32
#: The ring a token is read inside or outside on lies this far (px) beyond its circumscribed disc, or halfway to
#: the nearest other token's disc where that is nearer (a neighbour's blended edge is no fill colour).
RING_OFFSET = 4.0


def _clearance(tokens: list[list], k: int) -> float:
    """The gap (px) between token ``k``'s recorded circumscribed disc and the nearest other token's (inf if none)."""
    _kind, cx, cy, radius, _turn = tokens[k]
    gaps = [math.hypot(x - cx, y - cy) - r - radius for j, (_, x, y, r, _) in enumerate(tokens) if j != k]
    return min(gaps, default=math.inf)


def _fill_key(hex_colour: str) -> int:
    text = hex_colour.lstrip("#")
    r, g, b = (int(text[k: k + 2], 16) for k in (0, 2, 4))
    return r | g << 8 | b << 16


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
    keys = image_keys(image)
    height, width = keys.shape
    dark = dark_mask(keys)
    shapes, tokens, query = scene["shapes"], scene["tokens"], scene["query"]
    relation, kind = query["relation"], query["kind"]
    target = shapes[query["target"]]
    phrase = words.PHRASES[relation].format(target=f"the {target['colour']} ({target['hex']}) {target['kind']}")
    if phrase not in item.question or not re.search(rf"\b{PLURALS[kind]}\b", item.question):
        failures.append(f"the question does not ask for {PLURALS[kind]} {phrase}")
    extents, problems, covered = read_tokens(keys, dark, tokens)
    failures += problems
    allowed = covered.copy()
    bands = [outline_band(shape, scene["outline"] + 6, (width, height)) for shape in shapes]
    for band in bands:
        allowed |= band
    allowed[:3], allowed[-3:], allowed[:, :3], allowed[:, -3:] = True, True, True, True
    stray = int(np.count_nonzero(dark & ~allowed))
    if stray > STRAY:
        ys, xs = np.nonzero(dark & ~allowed)
        failures.append(f"{stray} dark pixels belong to no recorded token or outline (e.g. at x={xs[0]}, y={ys[0]})")
    fill = keys == _fill_key(target["hex"])
    if not fill.any():
        return [*failures, f"the {target['colour']} {target['kind']} is not drawn"]
    rows, cols = np.nonzero(fill | (dark & bands[query["target"]]))
    left, top, right, bottom = int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1
    count = 0
    for k, (token, extent) in enumerate(zip(tokens, extents, strict=True)):
        if token[0] != kind or extent[0] < 0:
            continue
        if relation in ("inside", "outside"):
            _kind, cx, cy, radius, _turn = token
            ring = radius + min(RING_OFFSET, _clearance(tokens, k) / 2)
            angles = np.arange(RING_SAMPLES) * 2 * math.pi / RING_SAMPLES
            xs = np.clip(np.rint(cx + ring * np.cos(angles)).astype(int), 0, width - 1)
            ys = np.clip(np.rint(cy + ring * np.sin(angles)).astype(int), 0, height - 1)
            on_fill = int(np.count_nonzero(fill[ys, xs]))
            if 0 < on_fill < RING_SAMPLES:
                failures.append(f"token {k + 1} straddles the boundary of the {target['colour']} {target['kind']}")
                continue
            count += (on_fill == RING_SAMPLES) == (relation == "inside")
            continue
        t_left, t_top, t_right, t_bottom = (int(v) for v in extent)
        gap = {"left": left - t_right, "right": t_left - right, "above": top - t_bottom,
               "below": t_top - bottom}[relation]
        if abs(gap) <= BORDERLINE:
            failures.append(f"token {k + 1} ends {gap} px from the line it is measured against: too close to call")
            continue
        count += gap > 0
    if str(count) != item.answer.strip():
        failures.append(f"the picture shows {count} {PLURALS[kind]} {relation} the {target['colour']} "
                        f"{target['kind']}, but the answer is {item.answer}")
    return failures

