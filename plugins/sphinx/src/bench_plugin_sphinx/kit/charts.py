"""Pie and bar charts of SPHINX (spec 2.4), drawn from a percentage vector.

- ``percentages(k, rng)``: k distinct integer percentages, each >= 1, summing to 100, every pair at least
  ``MIN_GAP`` apart relatively (|a - b| / max(a, b)), so any ranking of them is unambiguous.
- ``pie(values, colours, side)``: a pie on white with no labels; slices in the vector's order, clockwise
  from 12 o'clock, each ``360 * value / 100`` degrees, with thin black edges.
- ``bars(values, colours, width, height)``: one bar per category in the vector's order on a black baseline,
  no axes, ticks or numbers; the tallest bar fills the chart's height, so only proportions are comparable
  between charts.

Charts are flat colours with black edges, drawn at their own size (a pie may be drawn at ``supersample``
times its size and reduced with a box filter for smooth edges, at about four times the cost): the inside of
every slice and bar keeps its exact colour, so a verifier reads it back exactly, and a picture stays within
a few dozen colours (a palette PNG).  ``bar_geometry`` is a plain function of the sizes, so tasks record it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx.kit.palette import rgb

#: Smallest relative gap between any two percentages of a chart (the released generator's 0.09).
MIN_GAP = 0.09
#: Black edge width of slices and bars, in output pixels.
EDGE = 2
#: Where the first slice starts, in PIL's angle convention (degrees clockwise from 3 o'clock): 12 o'clock.
PIE_START = -90.0
_WHITE, _BLACK = (255, 255, 255), (0, 0, 0)


def relative_gap(a: float, b: float) -> float:
    """|a - b| / max(a, b) (0 for two zeros)."""
    top = max(abs(a), abs(b))
    return abs(a - b) / top if top else 0.0


def well_separated(values: Sequence[int], min_gap: float = MIN_GAP) -> bool:
    """Whether every pair of ``values`` is at least ``min_gap`` apart relatively (so they are distinct)."""
    ordered = sorted(values)
    return all(relative_gap(a, b) >= min_gap for a, b in itertools.pairwise(ordered))


def largest_remainder(weights: Sequence[float], total: int = 100) -> list[int]:
    """Integers proportional to ``weights`` that sum to ``total`` (Hamilton's largest-remainder rounding; ties
    go to the earlier weight)."""
    scale = total / float(sum(weights))
    exact = [w * scale for w in weights]
    floors = [math.floor(x) for x in exact]
    short = total - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:short]:
        floors[i] += 1
    return floors


def percentages(k: int, rng: np.random.Generator, min_gap: float = MIN_GAP, attempts: int = 200) -> list[int]:
    """``k`` integer percentages in random category order: each >= 1, summing to 100, pairwise at least
    ``min_gap`` apart relatively.  Sorted, the values grow by a random ratio of at least 1 + min_gap + 0.02 per
    step (wider steps for few categories), are scaled to 100 and rounded by largest remainder; a draw that
    rounding spoils is drawn again."""
    if not 2 <= k <= 20:
        raise ValueError(f"a chart has 2..20 categories, not {k}")
    widest = max(0.25, 1.6 - 0.15 * k)
    for _ in range(attempts):
        steps = 1.0 + min_gap + 0.02 + rng.uniform(0.0, widest, k - 1)
        weights = np.concatenate([[1.0], np.cumprod(steps)])
        values = largest_remainder(list(weights))
        if min(values) >= 1 and well_separated(values, min_gap):
            order = rng.permutation(k)
            return [int(values[int(i)]) for i in order]
    raise ValueError(f"no {k} percentages {min_gap:.0%} apart in {attempts} draws")


def pie_slices(values: Sequence[float]) -> list[tuple[float, float]]:
    """Each slice's (start, end) in degrees clockwise from 12 o'clock: the slices in order, each
    ``360 * value / sum(values)`` wide."""
    total = float(sum(values))
    out, at = [], 0.0
    for v in values:
        width = 360.0 * v / total
        out.append((at, at + width))
        at += width
    return out


def draw_pie(draw: ImageDraw.ImageDraw, box: Sequence[float], values: Sequence[float], colours: Sequence[str],
             edge: float = EDGE) -> None:
    """Draw the pie of ``values`` (slice colours ``colours``, ``#rrggbb``) filling ``box`` = (left, top, right,
    bottom), right/bottom exclusive: slices clockwise from 12 o'clock, black edges ``edge`` px wide."""
    left, top, right, bottom = box
    bbox = (left, top, right - 1, bottom - 1)
    slices = pie_slices(values)
    for (start, end), colour in zip(slices, colours, strict=True):
        draw.pieslice(bbox, PIE_START + start, PIE_START + end, fill=rgb(colour))
    cx, cy = (left + right - 1) / 2, (top + bottom - 1) / 2
    radius = (right - left) / 2
    if len(slices) > 1:
        for start, _end in slices:
            a = math.radians(PIE_START + start)
            draw.line((cx, cy, cx + radius * math.cos(a), cy + radius * math.sin(a)), fill=_BLACK,
                      width=round(edge))
    draw.ellipse(bbox, outline=_BLACK, width=round(edge))


def pie(values: Sequence[float], colours: Sequence[str], side: int, margin: int = 6,
        supersample: int = 1) -> np.ndarray:
    """A ``side`` x ``side`` RGB array on white: ``draw_pie`` in the square less ``margin`` pixels, drawn at
    ``supersample`` times the size and box-filtered down."""
    s = supersample
    big = Image.new("RGB", (side * s, side * s), _WHITE)
    draw_pie(ImageDraw.Draw(big), (margin * s, margin * s, (side - margin) * s, (side - margin) * s), values,
             colours, EDGE * s)
    return np.asarray(big.reduce(s) if s > 1 else big)


def bar_geometry(count: int, width: int, height: int, margin: int = 6) -> dict:
    """Where ``count`` bars go in a ``width`` x ``height`` chart: ``columns`` [(left, right)] of each bar,
    ``baseline`` (the row of the baseline's top edge) and ``top`` (the row the tallest bar reaches)."""
    usable = width - 2 * margin
    pitch = usable / count
    gap = max(4.0, pitch * 0.18)
    columns = [(round(margin + i * pitch + gap / 2), round(margin + (i + 1) * pitch - gap / 2))
               for i in range(count)]
    return {"columns": columns, "baseline": height - margin - 2 * EDGE, "top": margin}


def draw_bars(draw: ImageDraw.ImageDraw, origin: Sequence[int], values: Sequence[float], colours: Sequence[str],
              width: int, height: int, margin: int = 6) -> None:
    """Draw the bar chart of ``values`` in the ``width`` x ``height`` box whose top-left corner is ``origin``:
    one bar per value in order (colours ``colours``), heights proportional to the values with the tallest
    reaching the top margin, black outlines, on a black baseline."""
    x0, y0 = origin
    geometry = bar_geometry(len(values), width, height, margin)
    base, top = geometry["baseline"], geometry["top"]
    tallest = float(max(values))
    for (left, right), value, colour in zip(geometry["columns"], values, colours, strict=True):
        rise = (base - top) * float(value) / tallest
        draw.rectangle((x0 + left, y0 + round(base - rise), x0 + right - 1, y0 + base - 1), fill=rgb(colour),
                       outline=_BLACK, width=EDGE)
    draw.rectangle((x0 + margin, y0 + base, x0 + width - margin - 1, y0 + base + 2 * EDGE - 1), fill=_BLACK)


def bars(values: Sequence[float], colours: Sequence[str], width: int, height: int, margin: int = 6) -> np.ndarray:
    """A ``width`` x ``height`` RGB array on white holding ``draw_bars``."""
    image = Image.new("RGB", (width, height), _WHITE)
    draw_bars(ImageDraw.Draw(image), (0, 0), values, colours, width, height, margin)
    return np.asarray(image)
