"""Verifier of ``sphinx/shape-sorting``: the ranking is measured on the picture.

Each shape is found by its exact colour near where it is recorded, and its metric is measured on those
pixels alone: a polygon's or ellipse's area and perimeter as the convex hull's of its stroke pixels (the
hull of a similar shape grows with it, so the order is kept), an angle's measure as the angle between the
mean directions of its two arms' pixels seen from the vertex, a segment's length as its pixels' extent along
their main axis.  Each letter is read by matching the crop at its recorded place with the 26 capitals drawn
afresh (black ink only: coloured strokes never count as a letter's ink).  The letters ranked by the measured
metric, in the direction the question names, must be the option at the answer letter and no other;
neighbouring measurements must be at least 3 % apart; and every measurement must agree with the recorded
geometry (computed here by this module's own formulas, the stroke's width allowed for).  The letters'
boxes are left out of the shapes' pixels (a letter's smooth edge can take the palette's grey).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import shapely

from bench_plugin_sphinx import sorting_words as words
from bench_plugin_sphinx.verifiers.letters import read_letter
from bench_plugin_sphinx.verifiers.pixels import channels, image_keys
from bench_plugin_sphinx.verifiers.records import guarded

SEPARATION = 0.03
#: The brightest channel of black text's ink (the same split the picture's 16-level text keeps).
TEXT_INK = 94


def _key(hex_colour: str) -> int:
    text = hex_colour.lstrip("#")
    r, g, b = (int(text[k: k + 2], 16) for k in (0, 2, 4))
    return r | g << 8 | b << 16


def _unit(degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return math.sin(a), -math.cos(a)


def recorded(shape: dict, metric: str, stroke: float) -> tuple[float, float]:
    """(the recorded shape's metric, what the measurement of its drawn stroke should read) by this module's
    formulas: the hull of a convex outline's exact-colour pixels (a stroke of width w without its blended
    edge) is the outline moved out by d = w / 2 - 1/2 (area A + P d + pi d^2, perimeter P + 2 pi d; measured:
    within 1.2 % over 400 shapes); an angle measures as itself, a segment as its length."""
    kind, half = shape["kind"], stroke / 2 - 0.5
    if kind == "polygon":
        r, n = shape["radius"], shape["sides"]
        area, perimeter = n / 2 * r * r * math.sin(2 * math.pi / n), 2 * n * r * math.sin(math.pi / n)
    elif kind == "ellipse":
        a, b = shape["a"], shape["b"]
        area, perimeter = math.pi * a * b, math.pi * (3 * (a + b) - math.sqrt((3 * a + b) * (a + 3 * b)))
    elif kind == "angle":
        return shape["measure"], shape["measure"]
    else:
        (x0, y0), (x1, y1) = shape["ends"]
        length = math.hypot(x1 - x0, y1 - y0)
        return length, length
    if metric.endswith("area"):
        return area, area + perimeter * half + math.pi * half * half
    return perimeter, perimeter + 2 * math.pi * half


def _points(shape: dict, stroke: float) -> list[tuple[float, float]]:
    kind = shape["kind"]
    if kind == "polygon":
        (x, y), r = shape["centre"], shape["radius"]
    elif kind == "ellipse":
        (x, y), r = shape["centre"], shape["a"]
    elif kind == "angle":
        (x, y), r = shape["vertex"], shape["arm"]
    else:
        (x0, y0), (x1, y1) = shape["ends"]
        return [(x0, y0), (x1, y1)]
    return [(x - r, y - r), (x + r, y + r)]


def measure(image, shape: dict, metric: str, stroke: float,
            labels: list[tuple[int, int, int, int]] = ()) -> tuple[float | None, str | None]:
    """(the metric measured on the shape's pixels, or None; a failure, or None).  Pixels inside the ``labels``
    boxes (x0, y0, x1, y1) are left out: a letter's smooth edge can take a palette grey (#666666 is one of
    its 16 levels)."""
    points = _points(shape, stroke)
    pad = 3 * stroke + 3
    w, h = image.size
    x0 = max(0, int(min(p[0] for p in points) - pad))
    y0 = max(0, int(min(p[1] for p in points) - pad))
    x1 = min(w, int(max(p[0] for p in points) + pad) + 1)
    y1 = min(h, int(max(p[1] for p in points) + pad) + 1)
    mask = image_keys(image.crop((x0, y0, x1, y1))) == _key(shape["hex"])
    for lx0, ly0, lx1, ly1 in labels:  # (a box off the crop clears nothing)
        mask[max(0, ly0 - y0): max(0, ly1 - y0), max(0, lx0 - x0): max(0, lx1 - x0)] = False
    rows, cols = np.divmod(np.flatnonzero(mask), mask.shape[1])  # row by row, each row left to right
    if len(rows) < 20:
        return None, f"the {shape['colour']} {shape['kind']} is not drawn where it is recorded"
    xs, ys = cols + x0 + 0.5, rows + y0 + 0.5
    kind = shape["kind"]
    if kind in ("polygon", "ellipse"):  # the hull rests on each row's outermost pixels: only those are kept
        starts = np.concatenate([[0], np.nonzero(np.diff(rows))[0] + 1])
        ends = np.concatenate([starts[1:] - 1, [len(rows) - 1]])
        picks = np.column_stack([starts, ends]).ravel()
        picks = picks[np.concatenate([[True], picks[1:] != picks[:-1]])]  # a one-pixel row once
        # the hull of the points, read from one line through them (the same coordinates, in the same order, as a
        # multipoint's, without a geometry per point)
        hull = shapely.convex_hull(shapely.linestrings(np.column_stack([xs[picks], ys[picks]])))
        return (float(hull.area) if metric.endswith("area") else float(hull.length)), None
    if kind == "segment":
        centred = np.column_stack([xs - xs.mean(), ys - ys.mean()])
        axis = np.linalg.svd(centred, full_matrices=False)[2][0]
        along = centred @ axis
        return float(along.max() - along.min()) + 1.0, None
    vx, vy = shape["vertex"]
    dx, dy = xs - vx, ys - vy
    distance = np.hypot(dx, dy)
    far = (distance > 0.3 * shape["arm"]) & (distance < 1.2 * shape["arm"])
    if np.count_nonzero(far) < 20:
        return None, f"the {shape['colour']} angle has no arms drawn from its recorded vertex"
    angles = np.sort(np.degrees(np.arctan2(dx[far], -dy[far])) % 360)  # clockwise from straight up
    gaps = np.diff(np.concatenate([angles, [angles[0] + 360]]))
    cut = int(np.argmax(gaps))
    turned = np.roll(angles, -(cut + 1))
    turned = np.where(turned < turned[0], turned + 360, turned)  # one unbroken run, from after the widest gap
    inner = np.diff(turned)
    split = int(np.argmax(inner)) + 1
    first, second = turned[:split], turned[split:]
    if not len(first) or not len(second):
        return None, f"the {shape['colour']} angle shows only one arm"
    return float(np.mean(second) - np.mean(first)), None


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    metric, stroke = scene["metric"], scene["stroke"]
    asked = words.asked(item.question)
    if asked != (metric, scene["direction"]):
        failures.append(f"the question's stem asks {asked}, the scene records {(metric, scene['direction'])}")
    options = list(item.options or ())
    listed = "\n".join(f"({'abcd'[k]}) {o}" for k, o in enumerate(options))
    if len(options) != 4 or listed not in item.question:
        return [*failures, "the question does not list the four options in order"]
    image = images[0] if images[0].mode == "RGB" else images[0].convert("RGB")
    measured: dict[str, float] = {}
    size = int(scene["label_size"])
    boxes = [(x - size * 3 // 4, y - size * 2 // 3, x + size * 3 // 4, y + size * 2 // 3) for x, y in
             (shape["label"] for shape in scene["shapes"])]
    for shape in scene["shapes"]:
        x, y = shape["label"]
        half_w, half_h = size, size
        crop = image_keys(image.crop((max(0, x - half_w), max(0, y - half_h), x + half_w, y + half_h)))
        r, g, b = channels(crop)
        grey = np.maximum(np.maximum(r, g), b).astype(np.float32)
        letter, best, second = read_letter(grey, (min(x, half_w), min(y, half_h)), size, "mm", TEXT_INK)
        if letter != shape["letter"] or best < 0.9 or second > best - 0.03:
            failures.append(f"the label at {shape['label']} reads {letter!r} (match {best:.2f}, next {second:.2f}), "
                            f"the scene records {shape['letter']!r}")
        value, problem = measure(image, shape, metric, stroke, boxes)
        if problem:
            failures.append(problem)
            continue
        _true, expected = recorded(shape, metric, stroke)
        tolerance = 2.5 if shape["kind"] == "angle" else max(3.0, 0.03 * expected)
        if abs(value - expected) > tolerance:
            failures.append(f"the {shape['colour']} {shape['kind']} measures {value:.1f} on the picture, its record "
                            f"{expected:.1f}")
        measured[shape["letter"]] = value
    if len(measured) != len(scene["shapes"]) or failures:
        return failures
    ranked = sorted(measured, key=measured.get, reverse=scene["direction"] == "descending")
    values = sorted(measured.values())
    close = [(round(a, 2), round(b, 2)) for a, b in itertools.pairwise(values) if (b - a) / b < SEPARATION]
    if close:
        failures.append(f"shapes too close in {metric} to rank by eye: {close}")
    letters = sorted(measured)
    for k, text in enumerate(options):
        if sorted(text.split(",")) != letters:
            failures.append(f"option ({'abcd'[k]}) {text!r} does not order the shapes' letters")
    expected_text = words.option_text(ranked)
    fits = [k for k, text in enumerate(options) if text == expected_text]
    if len(fits) != 1:
        failures.append(f"the pixels rank the shapes {expected_text}; {len(fits)} options say so")
    elif "ABCD"[fits[0]] != item.answer:
        failures.append(f"the pixels rank the shapes {expected_text}: option {'ABCD'[fits[0]]}, but the answer is "
                        f"{item.answer}")
    return failures
