"""The logical instances of ``polaris/collision-detection`` (spec card 52): cars moving on a wrapping grid.

A board of ``rows`` x ``cols`` cells wraps its columns (polar: the angular wrap; Cartesian: the left and right
edges are joined, drawn dashed and said in the question).  Each car sits at a cell centre and moves in a
straight line at a constant speed of 1-3 cells per tick: along its row (Right/Left, CW/CCW; across the seam
it comes back on the other side) or along its column (Up/Down, Out/In; it never reaches the top or bottom
border before the first crash).  Motion is continuous: two cars crash when they are at the same point at the
same time, so two cars that swap cells during a tick meet halfway.  Which pair crashes first?

Times are exact ``Fraction``s.  The generator solves each pair in closed form per reading: wrapping (the
task's), and bounded (columns not joined: a car leaving a side is gone), only to keep the pair that would
crash first without the wrap out of the wrong options.  The verifier steps the motion in time by its own
event search (``verifiers.collision_detection``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

ROWS = (3, 5)
COLS = (8, 12)
CARS = (4, 6)
SPEEDS = (1, 3)
#: The first crash happens by this tick; every other crash of the wrapping reading at least GAP later.
HORIZON = 6
GAP = Fraction(1, 2)
#: A row mover and a column mover that do not crash pass their crossing at least this far apart in time.
NEAR_MISS = Fraction(1)
OPTIONS = 5


def max_cars(rows: int, cols: int) -> int:
    """The most cars a board takes (each car and its arrow cover up to four cells): 4 below 32 cells, 5 below
    45, else 6."""
    cells = rows * cols
    return 4 if cells < 32 else 5 if cells < 45 else 6
#: Car colours, names and hex (distinct hues, readable on white).
COLOURS = (("red", "#d62728"), ("blue", "#1f5fbf"), ("green", "#2ca02c"), ("orange", "#ff8c00"),
           ("purple", "#8e44ad"), ("brown", "#8c564b"))
#: Directions as (drow, dcol) unit steps.
DIRECTIONS = ((0, 1), (0, -1), (-1, 0), (1, 0))


def position(car: Mapping, t: Fraction) -> tuple[Fraction, Fraction]:
    """Unwrapped (row, column) of ``car`` at time ``t``."""
    dr, dc = car["direction"]
    return car["row"] + dr * car["speed"] * t, car["col"] + dc * car["speed"] * t


def _exit_time(car: Mapping, rows: int) -> Fraction | None:
    """When a column mover reaches the first or last row's centre line edge (row -0.5 or rows - 0.5); None for
    a row mover."""
    dr, _dc = car["direction"]
    if dr == 0:
        return None
    edge = Fraction(-1, 2) if dr < 0 else Fraction(2 * rows - 1, 2)
    return (edge - car["row"]) / (dr * car["speed"])


def crash_time(a: Mapping, b: Mapping, rows: int, cols: int, wrap: bool) -> Fraction | None:
    """The first time t > 0 at which cars ``a`` and ``b`` are at the same point (columns mod ``cols`` when
    ``wrap``; without it a meeting must lie on the board, between column -0.5 and cols - 0.5), or None."""
    (ar, ac), (br, bc) = a["direction"], b["direction"]
    va = (ar * a["speed"], ac * a["speed"])
    vb = (br * b["speed"], bc * b["speed"])
    dr0, dc0 = b["row"] - a["row"], b["col"] - a["col"]  # a catches b when the differences vanish
    rel = (va[0] - vb[0], va[1] - vb[1])
    # rows: exact line motion; columns: mod cols when wrapping.
    if rel[0] != 0:
        t = Fraction(dr0, rel[0])
        if t <= 0:
            return None
        candidates = [t]
    elif dr0 != 0:
        return None
    else:
        candidates = None  # same row for ever: the columns decide
    if rel[1] == 0:
        if dc0 % cols if wrap else dc0:
            return None
        return _on_board(a, b, candidates[0], rows, cols, wrap) if candidates else None
    if candidates is not None:
        t = candidates[0]
        gap = dc0 - rel[1] * t
        ok = gap % cols == 0 if wrap else gap == 0
        return _on_board(a, b, t, rows, cols, wrap) if ok else None
    if not wrap:
        t = Fraction(dc0, rel[1])
        return _on_board(a, b, t, rows, cols, wrap) if t > 0 else None
    step = Fraction(dc0 % cols, 1) if rel[1] > 0 else Fraction((-dc0) % cols, 1)
    return _on_board(a, b, step / abs(rel[1]), rows, cols, wrap)


def _on_board(a: Mapping, b: Mapping, t: Fraction, rows: int, cols: int, wrap: bool) -> Fraction | None:
    """``t`` if both cars are still on the board then (column movers inside the rows; without wrap, row movers
    inside the columns too), else None."""
    for car in (a, b):
        r, c = position(car, t)
        if not -Fraction(1, 2) <= r <= rows - Fraction(1, 2):
            return None
        if not wrap and not -Fraction(1, 2) <= c <= cols - Fraction(1, 2):
            return None
    return t


def crashes(cars: Sequence[Mapping], rows: int, cols: int, wrap: bool) -> dict[tuple[int, int], Fraction]:
    """The crash time of every pair (i < j) of cars that ever crash in the reading."""
    found = {}
    for i, j in itertools.combinations(range(len(cars)), 2):
        t = crash_time(cars[i], cars[j], rows, cols, wrap)
        if t is not None:
            found[(i, j)] = t
    return found


def _crossing_gaps(a: Mapping, b: Mapping, rows: int, cols: int, horizon: Fraction) -> list[Fraction]:
    """For a row mover ``a`` and a column mover ``b``: |time a is at b's column - time b is at a's row| for
    each pass of ``a`` over b's column up to ``horizon`` (wrapping), empty when ``b`` never reaches a's row."""
    tb = Fraction(a["row"] - b["row"], b["direction"][0] * b["speed"])
    if tb <= 0:
        return []
    dc = a["direction"][1]
    first = Fraction((b["col"] - a["col"]) * dc % cols, a["speed"])
    lap = Fraction(cols, a["speed"])
    gaps, t = [], first
    while t <= horizon + NEAR_MISS:
        gaps.append(abs(t - tb))
        t += lap
    return gaps


def sample(rng, rows: int, cols: int, count: int, wraps: bool) -> dict | None:
    """``count`` cars on a ``rows`` x ``cols`` board, or None unless: the first crash of the wrapping reading
    is one pair's, by tick ``HORIZON``, every other crash at least ``GAP`` later; no column mover leaves the
    rows before it; a row mover and a column mover that do not crash pass their crossing at least
    ``NEAR_MISS`` apart before it; the arrows (each covering the ``speed`` cells ahead of its car) cover no
    car and no other arrow's cells; and the first crash crosses the seam exactly when ``wraps`` (the bounded
    reading's first crash is another pair's, or the same pair later).

    Returns ``{"rows", "cols", "cars": [{"row", "col", "direction": [dr, dc], "speed", "colour", "hex"}],
    "answer": [i, j], "time": "p/q", "bounded": [i, j] or None, "crashes": {"i-j": "p/q"}}``."""
    u = rng.random(1 + rows + 5 * count)  # one draw per attempt: the lanes, then five numbers per car
    lanes = [int(r) for r in np.argsort(u[1:1 + rows], kind="stable")[:min(rows, 2 + int(u[0] * 2))]]
    values = u.tolist()  # Python floats: the per-car reads below are scalar
    cars = []
    cells = set()
    low, high = SPEEDS
    for k in range(count):
        radial_u, direction_u, row_u, col_u, speed_u = values[1 + rows + 5 * k: 6 + rows + 5 * k]
        radial = radial_u < 0.3
        direction = DIRECTIONS[2 + int(direction_u * 2)] if radial else DIRECTIONS[int(direction_u * 2)]
        r = int(row_u * rows) if radial else lanes[int(row_u * len(lanes))]
        c = int(col_u * cols)
        if (r, c) in cells:
            return None
        cells.add((r, c))
        name, hex_colour = COLOURS[k]
        cars.append({"row": r, "col": c, "direction": list(direction), "speed": low + int(speed_u * (high - low + 1)),
                     "colour": name, "hex": hex_colour})
    return check(cars, rows, cols, wraps)


def arrow_cells(car: Mapping, cols: int) -> list[tuple[int, int]]:
    """The cells an arrow covers: the ``speed`` cells ahead of the car (columns mod ``cols``)."""
    dr, dc = car["direction"]
    return [(car["row"] + dr * k, (car["col"] + dc * k) % cols) for k in range(1, car["speed"] + 1)]


def check(cars: list[dict], rows: int, cols: int, wraps: bool | None = None) -> dict | None:
    """The instance record of ``cars`` if they pass ``sample``'s filters (``wraps`` None: either way)."""
    occupied = {(car["row"], car["col"]) for car in cars}
    covered: set[tuple[int, int]] = set()
    for car in cars:
        ahead = arrow_cells(car, cols)
        if any(not 0 <= r < rows for r, _c in ahead) or occupied & set(ahead) or covered & set(ahead):
            return None
        covered |= set(ahead)
    wrapping = crashes(cars, rows, cols, wrap=True)
    if not wrapping:
        return None
    order = sorted(wrapping.items(), key=lambda kv: kv[1])
    (pair, first) = order[0]
    if first > HORIZON or (len(order) > 1 and order[1][1] - first < GAP):
        return None
    for car in cars:
        leave = _exit_time(car, rows)
        if leave is not None and leave <= first:
            return None
    for i, j in itertools.permutations(range(len(cars)), 2):
        a, b = cars[i], cars[j]
        crossing = a["direction"][0] == 0 and b["direction"][0] != 0 and (min(i, j), max(i, j)) not in wrapping
        if crossing and any(g < NEAR_MISS for g in _crossing_gaps(a, b, rows, cols, first)):
            return None
    bounded = crashes(cars, rows, cols, wrap=False)
    bounded_first = min(bounded.items(), key=lambda kv: kv[1]) if bounded else None
    crosses = bounded_first is None or bounded_first[0] != pair or bounded_first[1] != first
    if wraps is not None and crosses != wraps:
        return None
    return {"rows": rows, "cols": cols, "cars": cars, "answer": list(pair), "time": str(first),
            "bounded": None if bounded_first is None else list(bounded_first[0]),
            "crashes": {f"{i}-{j}": str(t) for (i, j), t in sorted(wrapping.items())}}


def distractor_pairs(instance: Mapping, rng) -> list[list[int]]:
    """Four wrong pairs: pairs that crash later first (earliest first), then other pairs in a seeded order;
    never the answer, never the pair that crashes first in the bounded reading."""
    count = len(instance["cars"])
    banned = {tuple(instance["answer"])}
    if instance["bounded"] is not None:
        banned.add(tuple(instance["bounded"]))
    later = sorted(((Fraction(t), tuple(int(x) for x in key.split("-"))) for key, t in instance["crashes"].items()))
    chosen = [pair for _t, pair in later if pair not in banned]
    rest = [p for p in itertools.combinations(range(count), 2) if p not in banned and p not in chosen]
    rest = [rest[int(i)] for i in rng.permutation(len(rest))]
    return [list(p) for p in (chosen + rest)[:OPTIONS - 1]]
