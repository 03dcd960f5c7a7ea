"""The logical instances of ``polaris/bouncing-point`` (spec card 53): a point bouncing through grid cells.

A point starts at a cell of a ``rows`` x ``cols`` board and moves one cell per step by its velocity
(drow, dcol), each part -1, 0 or +1, drawn as an arrow to the cell it reaches after one step.  When a step
would leave the board across a border, that part of the velocity reverses first and the step is then taken
(so the point never rests on a border: 0, 1, ..., L-1, L-2, ...).  Partially aligned (spec 2.3, 10.2): the
Cartesian point bounces off all four borders; the polar point bounces off the inner and outer circles but
loops round the angle (sector ``cols`` is followed by sector 1), so after N steps the two are elsewhere.

The generator simulates step by step; the verifier unfolds each axis in closed form
(``verifiers.bouncing_point``).
"""

from __future__ import annotations

ROWS = (5, 8)
COLS = (6, 9)
STEPS = (10, 60)
#: Velocities with a column part (a purely radial one would give both readings the same answer).
VELOCITIES = ((-1, -1), (-1, 1), (1, -1), (1, 1), (0, -1), (0, 1))


def bounce_axis(p: int, v: int, length: int) -> tuple[int, int]:
    """One step on a bounded axis of ``length`` cells: (new position, new velocity)."""
    if not 0 <= p + v < length:
        v = -v
    return p + v, v


def simulate(rows: int, cols: int, start: tuple[int, int], velocity: tuple[int, int], steps: int,
             wrap: bool) -> tuple[int, int]:
    """The cell after ``steps`` steps: rows always bounce; columns bounce, or loop mod ``cols`` when ``wrap``."""
    (r, c), (dr, dc) = start, velocity
    for _ in range(steps):
        r, dr = bounce_axis(r, dr, rows)
        if wrap:
            c = (c + dc) % cols
        else:
            c, dc = bounce_axis(c, dc, cols)
    return r, c


def sample(rng, rows: int, cols: int, steps: int) -> dict | None:
    """One start cell and velocity on a ``rows`` x ``cols`` board, or None unless the first step stays inside
    (the arrow never points off the board) and the two readings end on different cells after ``steps``.

    Returns ``{"rows", "cols", "start": [r, c], "velocity": [dr, dc], "steps", "bounded": [r, c],
    "wrapping": [r, c]}`` (0-based cells)."""
    start = (int(rng.integers(rows)), int(rng.integers(cols)))
    velocity = VELOCITIES[int(rng.integers(len(VELOCITIES)))]
    if not (0 <= start[0] + velocity[0] < rows and 0 <= start[1] + velocity[1] < cols):
        return None
    bounded = simulate(rows, cols, start, velocity, steps, wrap=False)
    wrapping = simulate(rows, cols, start, velocity, steps, wrap=True)
    if bounded == wrapping:
        return None
    return {"rows": rows, "cols": cols, "start": list(start), "velocity": list(velocity), "steps": steps,
            "bounded": list(bounded), "wrapping": list(wrapping)}
