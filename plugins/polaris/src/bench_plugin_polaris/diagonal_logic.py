"""The logical instances of the two diagonal-path tasks, in index space (no drawing).

A checker starts on P in row 0 (the outermost ring) and moves one row down (one ring inward) and one column
left or right per move until it reaches Q in the last row; some cells are blocked.  The count of paths is
solved under both boundary readings (``combinatorics.diagonal_paths``): bounded (the polar seam a wall) and
wrapping (column ``cols - 1`` next to column 0).
"""

from __future__ import annotations

from typing import Any

from bench_plugin_polaris import combinatorics as cb

#: Rows (so a path has rows - 1 moves), columns and blocked cells the tasks draw from.
ROWS = (5, 8)
COLS = (4, 8)
BLOCKED = (0, 3)
#: Counts an item may ask for (readable range, spec 9.2).
COUNT = (2, 80)


def level_value(level: float, low: int, high: int) -> int:
    """The knob value of ``level`` in [0, 1] on ``low..high``: equal steps of the level, ``high`` at 1."""
    return low + min(high - low, int(level * (high - low + 1)))


def most_blocked(rows: int, high: int) -> int:
    """The most blocked cells a board of ``rows`` rows takes: ``rows - 4`` (a short board with many blocked
    cells leaves too few paths), at most ``high``."""
    return max(0, min(high, rows - 4))


def readings(rows: int, cols: int, start, end, blocked) -> dict[str, int]:
    """The path counts under both boundary readings: {"bounded": n, "wrapping": m}."""
    start, end = tuple(start), tuple(end)
    return {"bounded": cb.diagonal_paths(rows, cols, blocked, start, end, wrap=False),
            "wrapping": cb.diagonal_paths(rows, cols, blocked, start, end, wrap=True)}


def _on_some_path(rows: int, cols: int, start, end, wrap: bool) -> list[tuple[int, int]]:
    """The cells strictly between the first and last row that lie on some path from ``start`` to ``end``."""
    cells = []
    for r in range(1, rows - 1):
        for c in range(cols):
            first = cb.diagonal_paths(r + 1, cols, (), start, (r, c), wrap)
            if first and cb.diagonal_paths(rows - r, cols, (), (0, c), (end[0] - r, end[1]), wrap):
                cells.append((r, c))
    return cells


def sample(rng, rows: int, cols: int, blocked: int, *, wrap_matters: bool, partial: bool) -> dict[str, Any] | None:
    """One instance, or None when this draw fails the filters.

    P is drawn in row 0 (within two columns of an edge when ``wrap_matters``) and Q in the last row at a column
    the bounded checker can reach (parity and distance); ``blocked`` cells are drawn among the cells on some
    path (under the reading that counts most), so each one matters (the tasks keep them to
    ``most_blocked(rows)``).  ``partial`` (the wrapping task): both counts in ``COUNT`` and different.
    Otherwise the bounded count lies in ``COUNT``, and with ``wrap_matters`` the wrapping reading gives another
    count (the seam wall changes the answer)."""
    steps = rows - 1
    edges = sorted({0, 1, cols - 2, cols - 1})
    p = edges[int(rng.integers(len(edges)))] if wrap_matters else int(rng.integers(cols))
    reach = [q for q in range(cols) if abs(q - p) <= steps and (q - p - steps) % 2 == 0]
    if not reach:
        return None
    q = reach[int(rng.integers(len(reach)))]
    start, end = (0, p), (rows - 1, q)
    pool = _on_some_path(rows, cols, start, end, wrap=partial or wrap_matters)
    if len(pool) < blocked:
        return None
    chosen = sorted(pool[int(k)] for k in rng.choice(len(pool), size=blocked, replace=False)) if blocked else []
    counts = readings(rows, cols, start, end, chosen)
    low, high = COUNT
    if not low <= counts["bounded"] <= high:
        return None
    if partial:
        if not low <= counts["wrapping"] <= high or counts["wrapping"] == counts["bounded"]:
            return None
    elif wrap_matters and counts["wrapping"] == counts["bounded"]:
        return None
    return {"start": list(start), "end": list(end), "blocked": [list(c) for c in chosen], "counts": counts}


def near_misses(value: int, exclude: set[int], extra: list[int]) -> list[str]:
    """Wrong counts, plausible first: ``extra`` (counts under misreadings), then value +- 1, 2, twice the
    value, then value +- 3..12; never a value in ``exclude`` (the answer under either boundary reading) or
    below 1."""
    out: list[str] = []
    wider = [value + sign * k for k in range(3, 13) for sign in (1, -1)]
    for candidate in [*extra, value + 1, value - 1, value + 2, value - 2, value * 2, *wider]:
        if candidate >= 1 and candidate not in exclude and str(candidate) not in out:
            out.append(str(candidate))
    return out
