"""The logical instance of ``polaris/checkpoint-paths`` in index space (no drawing).

A robot goes from X to Y moving only right (column + 1; polar: one sector clockwise) or down (row + 1; polar:
one ring inward), must pass the checkpoint V and never enters a gap cell.  The answer is paths(X -> V) x
paths(V -> Y) with the gaps (``combinatorics.monotone_paths``); the wrapping reading (the robot sliding on
clockwise past the 12 o'clock seam) is solved too, so that no distractor takes its count.
"""

from __future__ import annotations

from typing import Any

from bench_plugin_polaris import combinatorics as cb

ROWS = (4, 7)
COLS = (4, 8)
GAPS = (1, 4)
#: Counts an item may ask for, and the most moves a path makes (box height + width).
COUNT = (2, 120)
MOST_MOVES = 9


def level_value(level: float, low: int, high: int) -> int:
    """The knob value of ``level`` in [0, 1] on ``low..high``: equal steps of the level, ``high`` at 1."""
    return low + min(high - low, int(level * (high - low + 1)))


def counts(rows: int, cols: int, holes, start, via, end) -> dict[str, int]:
    """The answer and the misreadings: ``bounded`` (the answer), ``wrapping`` (the seam ignored), ``no_via``
    (the checkpoint ignored), ``no_holes`` (the gaps ignored), ``first`` (X -> V) and ``second`` (V -> Y)."""
    start, via, end = tuple(start), tuple(via), tuple(end)
    return {
        "bounded": cb.monotone_paths(rows, cols, holes, start, end, wrap=False, via=via),
        "wrapping": cb.monotone_paths(rows, cols, holes, start, end, wrap=True, via=via),
        "no_via": cb.monotone_paths(rows, cols, holes, start, end, wrap=False),
        "no_holes": cb.monotone_paths(rows, cols, (), start, end, wrap=False, via=via),
        "first": cb.monotone_paths(rows, cols, holes, start, via, wrap=False),
        "second": cb.monotone_paths(rows, cols, holes, via, end, wrap=False),
    }


def sample(rng, rows: int, cols: int, gaps: int) -> dict[str, Any] | None:
    """One instance, or None when this draw fails the filters.

    The box from X (top-left) to Y (bottom-right) is at least 2 x 2 and at most ``MOST_MOVES`` moves across,
    as tall as the rows allow (height ``rows - 3 .. rows - 1``); V is a cell of the box other than X and Y
    that not every path passes; the ``gaps`` are cells on some X -> V -> Y path (so each one matters).  The
    answer lies in ``COUNT``."""
    h = int(rng.integers(max(2, rows - 3), rows))
    w_high = min(cols - 1, MOST_MOVES - h)
    if w_high < 2:
        return None
    w = int(rng.integers(2, w_high + 1))
    xr, xc = int(rng.integers(rows - h)), int(rng.integers(cols - w))
    start, end = (xr, xc), (xr + h, xc + w)
    inner = [(r, c) for r in range(xr, xr + h + 1) for c in range(xc, xc + w + 1) if (r, c) not in (start, end)]
    via = inner[int(rng.integers(len(inner)))]
    on_path = [cell for cell in inner if cell != via and (
        (cell[0] <= via[0] and cell[1] <= via[1]) or (cell[0] >= via[0] and cell[1] >= via[1]))]
    if len(on_path) < gaps:
        return None
    holes = sorted(on_path[int(k)] for k in rng.choice(len(on_path), size=gaps, replace=False))
    found = counts(rows, cols, holes, start, via, end)
    low, high = COUNT
    if not low <= found["bounded"] <= high or found["no_via"] == found["bounded"]:
        return None
    return {"start": list(start), "via": list(via), "end": list(end), "holes": [list(c) for c in holes],
            "counts": found}


def wrong_counts(found: dict[str, int]) -> list[str]:
    """Wrong answers, plausible first: the misreadings (checkpoint or gaps ignored, one leg only, the legs
    added), then near misses; never the answer or the wrapping reading's count, never below 1."""
    value = found["bounded"]
    exclude = {value, found["wrapping"]}
    candidates = [found["no_via"], found["no_holes"], found["first"] + found["second"], found["first"],
                  found["second"], value + 1, value - 1, value + 2, value - 2, value * 2,
                  *(value + sign * k for k in range(3, 13) for sign in (1, -1))]
    out: list[str] = []
    for candidate in candidates:
        if candidate >= 1 and candidate not in exclude and str(candidate) not in out:
            out.append(str(candidate))
    return out


def most_gaps(rows: int, high: int = GAPS[1]) -> int:
    """The most gaps a board of ``rows`` rows takes: ``rows - 2`` (a short board with many gaps leaves too
    few paths), at most ``high``."""
    return max(GAPS[0], min(high, rows - 2))
