"""Verifier of ``sphinx/stack-count``: the stack is checked against the picture and the count re-derived.

The sheets must be congruent (one kind, one size) and the asked one not the top sheet.  The picture must show
the recorded stack: on a grid of samples every 4 px, away from every sheet boundary and every token, each
sample inside some sheet must have the exact fill colour of the last (topmost) sheet containing it, by this
module's own geometry.  Every recorded token must be drawn where it is recorded, as its kind
(``verifiers.tokens``), and no dark ink may lie off the tokens, the sheets' outline bands and the frame.  The
tokens of the asked kind whose centre lies inside the asked sheet's whole boundary, hidden part included, are
counted; each must be at least 6 px inside or outside that boundary (else too close to call), and the count
must be the answer.  The question must name the asked sheet (``name (#hex)``) and the token kind.
"""

from __future__ import annotations

import re

import numpy as np

from bench_plugin_sphinx.verifiers.pixels import image_keys
from bench_plugin_sphinx.verifiers.records import guarded
from bench_plugin_sphinx.verifiers.tokens import (
    dark_mask,
    distance_many,
    inside_many,
    outline_band,
    read_tokens,
    shape_corners,
)

PLURALS = {"circle": "circles", "triangle": "triangles", "square": "squares"}
STRAY, BORDERLINE, STEP = 10, 6.0, 4
#: Share of the stack's samples that may show another colour than the recorded stack (none, in practice).
MISMATCH = 0.002


def _key(hex_colour: str) -> int:
    text = hex_colour.lstrip("#")
    r, g, b = (int(text[k: k + 2], 16) for k in (0, 2, 4))
    return r | g << 8 | b << 16


def _size(sheet: dict) -> tuple[float, ...]:
    if sheet["kind"] == "rectangle":
        x0, y0, x1, y1 = sheet["box"]
        return x1 - x0, y1 - y0
    return (sheet["radius"],)


def _reach(sheet: dict, xs: np.ndarray, ys: np.ndarray, margin: float) -> tuple[slice, slice]:
    """The rows and columns of the sample grid (ascending centres ``ys`` of its rows, ``xs`` of its columns)
    within ``margin`` px of the sheet's bounding box: every sample outside them lies more than ``margin`` px
    from the sheet's boundary, and outside the sheet."""
    if sheet["kind"] == "circle":
        (cx, cy), r = sheet["centre"], sheet["radius"]
        x0, y0, x1, y1 = cx - r, cy - r, cx + r, cy + r
    else:
        corner_xs, corner_ys = zip(*shape_corners(sheet), strict=True)
        x0, y0, x1, y1 = min(corner_xs), min(corner_ys), max(corner_xs), max(corner_ys)
    rows = slice(int(np.searchsorted(ys, y0 - margin)), int(np.searchsorted(ys, y1 + margin, side="right")))
    cols = slice(int(np.searchsorted(xs, x0 - margin)), int(np.searchsorted(xs, x1 + margin, side="right")))
    return rows, cols


def congruent(sheets: list[dict]) -> bool:
    """One kind, and every size within 0.05 px of the first's."""
    sizes = [_size(s) for s in sheets]
    return len({s["kind"] for s in sheets}) == 1 and all(
        abs(a - b) <= 0.05 for size in sizes for a, b in zip(size, sizes[0], strict=True))


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    sheets, tokens, query = scene["sheets"], scene["tokens"], scene["query"]
    target = sheets[query["target"]]
    kind = query["kind"]
    phrase = f"the {target['colour']} ({target['hex']}) {target['kind']}"
    if phrase not in item.question or not re.search(rf"\b{PLURALS.get(kind, kind)}\b", item.question):
        failures.append(f"the question does not ask for {PLURALS.get(kind, kind)} inside {phrase}")
    if not congruent(sheets):
        failures.append(f"the sheets are not congruent: {[(s['kind'], _size(s)) for s in sheets]}")
    if query["target"] >= len(sheets) - 1:
        failures.append("the asked sheet is the top one (nothing of it is hidden)")
    image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
    keys = image_keys(image)
    height, width = keys.shape
    dark = dark_mask(keys)
    extents, problems, covered = read_tokens(keys, dark, tokens)
    failures += problems
    allowed = covered | outline_band(list(sheets), scene["outline"] + 6, (width, height))
    allowed[:3], allowed[-3:], allowed[:, :3], allowed[:, -3:] = True, True, True, True
    stray = int(np.count_nonzero(dark & ~allowed))
    if stray > STRAY:
        ys, xs = np.nonzero(dark & ~allowed)
        failures.append(f"{stray} dark pixels belong to no recorded token or outline (e.g. at x={xs[0]}, y={ys[0]})")
    gy, gx = np.meshgrid(np.arange(STEP // 2, height, STEP), np.arange(STEP // 2, width, STEP), indexing="ij")
    xs, ys = gx + 0.5, gy + 0.5
    clear = ~covered[gy, gx]
    top = np.full(xs.shape, -1)
    clearance = scene["outline"] / 2 + 3
    for index, sheet in enumerate(sheets):  # samples beyond a sheet's box + clearance are clear of it and outside
        near = _reach(sheet, xs[0], ys[:, 0], clearance)
        clear[near] &= distance_many(sheet, xs[near], ys[near]) > clearance
        top[near][inside_many(sheet, xs[near], ys[near])] = index
    checked = clear & (top >= 0)
    expected = np.array([_key(s["hex"]) for s in sheets], dtype=np.uint32)[top[checked]]
    wrong = int(np.count_nonzero(keys[gy[checked], gx[checked]] != expected))
    if wrong > MISMATCH * max(1, int(np.count_nonzero(checked))):
        failures.append(f"{wrong} of {int(np.count_nonzero(checked))} samples of the stack show another colour than "
                        "the recorded sheets, drawn in order, would")
    asked = [k for k, (token, extent) in enumerate(zip(tokens, extents, strict=True))
             if token[0] == kind and extent[0] >= 0]
    x, y, radius = (np.array([tokens[k][field] for k in asked], dtype=float) for field in (1, 2, 3))
    margins, inside = distance_many(target, x, y) - radius, inside_many(target, x, y)
    count = 0
    for k, margin, within in zip(asked, margins, inside, strict=True):
        if margin < BORDERLINE:
            failures.append(f"token {k + 1} comes within {margin:.1f} px of the asked sheet's boundary: too close "
                            "to call")
            continue
        count += bool(within)
    if str(count) != item.answer.strip():
        failures.append(f"{count} {PLURALS.get(kind, kind)} lie inside the {target['colour']} {target['kind']}, but "
                        f"the answer is {item.answer}")
    return failures

