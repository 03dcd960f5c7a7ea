"""The logical instance of ``polaris/random-walk`` in index space (no drawing).

A street map: the lattice points (i, j), i in [0, m], j in [0, n], joined by streets along the rows and columns.
A walker goes from A to B (B below and right of A); at every intersection it picks, uniformly at random, one of
the streets leading one block right or down without passing B's column or row (forced when only one is left).
The question: the probability that it passes C, exact (``combinatorics.walk_probability``).  The polar picture
has S = n + delta sectors (delta 2 or 3: spec 2.6, the paper's "slightly larger number of sectors") and the
whole street map turned by a drawn number of sectors, so the box from A to B may straddle 12 o'clock; the walk
only goes clockwise and inward inside that box, so the answer is the same in both renderings.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bench_plugin_polaris import combinatorics as cb

#: Block rows m and columns n of the street map; the A-B box is h x w blocks.
ROWS = (3, 5)
COLS = (3, 6)
BOX = (2, 4)
#: Steps across the box (h + w) the levels run through (a 2 x 2 box has only two distinct values).
SPAN = (5, 8)
SPARE = (2, 3)
OPTIONS = 5

Point = tuple[int, int]


def level_value(level: float, low: int, high: int) -> int:
    """The knob value of ``level`` in [0, 1] on ``low..high``: equal steps of the level, ``high`` at 1."""
    return low + min(high - low, int(level * (high - low + 1)))


def text(value: Fraction) -> str:
    """A probability as an option's text: "3/8" (reduced), "1/2"."""
    return f"{value.numerator}/{value.denominator}"


def eligible_values(start: Point, end: Point) -> dict[Fraction, list[Point]]:
    """The walk's probabilities strictly between 0 and 1 at the intersections of the box (A and B excluded),
    each with the intersections that have it and where the rule matters (the "every shortest path equally
    likely" value differs); values without such an intersection are left out."""
    found: dict[Fraction, list[Point]] = {}
    for i in range(start[0], end[0] + 1):
        for j in range(start[1], end[1] + 1):
            if (i, j) in (start, end):
                continue
            value = cb.walk_probability(start, end, (i, j))
            if 0 < value < 1 and value != cb.uniform_path_probability(start, end, (i, j)):
                found.setdefault(value, []).append((i, j))
    return found


def sample(rng, rows: int, cols: int, span: int) -> dict[str, Any] | None:
    """One instance, or None when the draw fails.

    A box of h x w blocks (h + w = ``span``, each 2..4, not 2 x 2: it has only two values) is placed on the
    map.  The five option values are the eligible values (``eligible_values``) of the intersections nearest a
    drawn point of the box; the answer is drawn uniformly among the five *after* they are chosen and C is its
    intersection nearest that point.  So every option is the right answer for an intersection close to C (a
    misplaced C gives it), and every value is correct about as often as it is offered (no option text is
    right more often than another: ``bench audit``)."""
    splits = [(h, span - h) for h in range(BOX[0], BOX[1] + 1)
              if BOX[0] <= span - h <= BOX[1] and h <= rows and span - h <= cols and (h, span - h) != (2, 2)]
    if not splits:
        return None
    h, w = splits[int(rng.integers(len(splits)))]
    ai, aj = int(rng.integers(rows - h + 1)), int(rng.integers(cols - w + 1))
    start, end = (ai, aj), (ai + h, aj + w)
    found = eligible_values(start, end)
    if len(found) < OPTIONS:
        return None
    centre = (ai + int(rng.integers(h + 1)), aj + int(rng.integers(w + 1)))

    def distance(point: Point) -> int:
        return abs(point[0] - centre[0]) + abs(point[1] - centre[1])

    values = list(found)
    tie = rng.permutation(len(values))
    ranked = sorted(range(len(values)), key=lambda k: (min(distance(p) for p in found[values[k]]), int(tie[k])))
    chosen = [values[k] for k in ranked[:OPTIONS]]
    value = chosen[int(rng.integers(OPTIONS))]
    places = sorted(found[value], key=distance)
    nearest = [p for p in places if distance(p) == distance(places[0])]
    via = nearest[int(rng.integers(len(nearest)))]
    return {"start": list(start), "end": list(end), "via": list(via), "value": value,
            "wrong": [v for v in chosen if v != value]}
