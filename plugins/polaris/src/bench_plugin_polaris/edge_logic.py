"""The logical instance of ``polaris/edge-counting`` in index space (no drawing): an ant's trail along the grid
lines, a self-avoiding walk on lattice points, from P to Q.

Lattice point ``(i, j)`` is the corner where row line ``i`` meets column line ``j`` (``i`` in ``[0, rows]``;
polar: circle ``i`` counted from the outside under orientation "out").  The trail never uses the column lines
``j = 0`` and ``j = cols`` (spec 2.6: they merge into the 12 o'clock radial in polar), so nothing touches the
seam and the task is boundary-invariant.  The answer is the number of unit edges of the trail.
"""

from __future__ import annotations

import itertools
from typing import Any

#: Trail lengths (unit edges) and the option window: five consecutive counts, the answer at a drawn offset.
LENGTH = (8, 25)
OPTIONS = 5
ROWS = (4, 7)
COLS = (5, 9)
#: Lattice points the grid offers per trail point, at least.
ROOM = 1.5
#: Chance a step keeps the previous direction (longer straight runs to count along).
KEEP = 0.55
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))

Point = tuple[int, int]


def level_value(level: float, low: int, high: int) -> int:
    """The knob value of ``level`` in [0, 1] on ``low..high``: equal steps of the level, ``high`` at 1."""
    return low + min(high - low, int(level * (high - low + 1)))


def grid_for(length: int, rng) -> tuple[int, int]:
    """Rows and columns (drawn) whose usable lattice points ((rows + 1) x (cols - 1)) are at least ``ROOM``
    times the trail's ``length + 1`` points."""
    fits = [(r, c) for r in range(ROWS[0], ROWS[1] + 1) for c in range(COLS[0], COLS[1] + 1)
            if (r + 1) * (c - 1) >= ROOM * (length + 1)]
    return fits[int(rng.integers(len(fits)))]


def usable(point: Point, rows: int, cols: int) -> bool:
    """Whether a lattice point may be on the trail: on the grid, off the column lines 0 and ``cols``."""
    i, j = point
    return 0 <= i <= rows and 1 <= j <= cols - 1


def walk(rng, rows: int, cols: int, length: int) -> list[Point] | None:
    """A self-avoiding walk of exactly ``length`` unit edges on the usable points (biased to go straight), or
    None when it runs into a dead end."""
    points = [(i, j) for i in range(rows + 1) for j in range(1, cols)]
    path = [points[int(rng.integers(len(points)))]]
    seen = {path[0]}
    heading = int(rng.integers(4))
    for _ in range(length):
        i, j = path[-1]
        free = [h for h in range(4) if usable((i + STEPS[h][0], j + STEPS[h][1]), rows, cols)
                and (i + STEPS[h][0], j + STEPS[h][1]) not in seen]
        if not free:
            return None
        if heading in free and rng.random() < KEEP:
            chosen = heading
        else:
            chosen = free[int(rng.integers(len(free)))]
        heading = chosen
        nxt = (i + STEPS[chosen][0], j + STEPS[chosen][1])
        path.append(nxt)
        seen.add(nxt)
    return path


def turns(path: list[Point]) -> int:
    """How many times the trail changes direction."""
    dirs = [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(path)]
    return sum(d != e for d, e in itertools.pairwise(dirs))


def sample(rng, rows: int, cols: int, length: int) -> dict[str, Any] | None:
    """One trail of ``length`` edges with at least ``length // 4`` turns (so it is not a few long runs) whose
    ends are at least two edges apart (the P and Q markers never touch), or None."""
    path = walk(rng, rows, cols, length)
    if path is None or turns(path) < length // 4:
        return None
    if abs(path[0][0] - path[-1][0]) + abs(path[0][1] - path[-1][1]) < 2:
        return None
    return {"trail": [list(p) for p in path]}


def window(rng, level: float | None) -> tuple[int, int]:
    """(start of the five-count window, offset of the answer in it): the start from the level (or drawn
    uniformly), the offset drawn uniformly, so every count is the answer about as often as it is offered."""
    low, high = LENGTH[0], LENGTH[1] - OPTIONS + 1
    start = level_value(level, low, high) if level is not None else int(rng.integers(low, high + 1))
    return start, int(rng.integers(OPTIONS))
