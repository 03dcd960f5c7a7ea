"""The logical instance of ``polaris/lattice-paths`` in index space (no drawing).

A dot grid of (m + 1) x (n + 1) lattice points (the corners of an m x n grid of cells); a path goes from A,
the top-left dot (0, 0), to B, the bottom-right dot (m, n), by steps right (0, +1), down (+1, 0) or diagonally
down-right (+1, +1), never visiting a removed dot.  Without removed dots the count is the Delannoy number
D(m, n).  In polar the dots sit where the m + 1 circles meet n + 1 radial lines; the picture has S = n + 2
sectors (the lattice lines x = 0 and x = S merge at 12 o'clock, spec 2.6), so the dots use radial lines 1..n+1
and the seam line carries only the wall.  Both boundary readings are solved (``combinatorics.lattice_paths``).
"""

from __future__ import annotations

from typing import Any

from bench_plugin_polaris import combinatorics as cb

#: Cell rows m and columns n of the dot grid (dots: (m + 1) x (n + 1)); removed dots.
SIZES = (2, 4)
REMOVED = (1, 3)
#: Spare sectors in polar (S = n + SPARE) and the column shift of the dots there (the seam line stays empty).
SPARE = 2
SHIFT = 1
COUNT = (3, 160)


def level_value(level: float, low: int, high: int) -> int:
    """The knob value of ``level`` in [0, 1] on ``low..high``: equal steps of the level, ``high`` at 1."""
    return low + min(high - low, int(level * (high - low + 1)))


def fewest_removed(m: int, n: int) -> int:
    """The fewest removed dots a grid takes: 2 on the 4 x 4 grid (D(4, 4) = 321 is past ``COUNT``), else 1."""
    return 2 if m + n >= 8 else REMOVED[0]


def readings(m: int, n: int, removed) -> dict[str, int]:
    """Path counts under both boundary readings: {"bounded": ..., "wrapping": ...} (the wrapping one on the
    polar picture's S = n + SPARE radial lines, dots on n + 1 of them)."""
    removed = [tuple(d) for d in removed]
    return {"bounded": cb.lattice_paths(m, n + 1, n + 1, removed, (0, 0), (m, n), wrap=False),
            "wrapping": cb.lattice_paths(m, n + SPARE, n + 1, removed, (0, 0), (m, n), wrap=True)}


def sample(rng, m: int, n: int, removed: int) -> dict[str, Any] | None:
    """One instance (``removed`` dots other than A and B, the count in ``COUNT``), or None."""
    dots = [(i, j) for i in range(m + 1) for j in range(n + 1) if (i, j) not in ((0, 0), (m, n))]
    chosen = sorted(dots[int(k)] for k in rng.choice(len(dots), size=removed, replace=False))
    counts = readings(m, n, chosen)
    if not COUNT[0] <= counts["bounded"] <= COUNT[1]:
        return None
    return {"removed": [list(d) for d in chosen], "counts": counts}


def wrong_counts(m: int, n: int, removed, value: int, exclude: set[int]) -> list[str]:
    """Wrong answers, plausible first: the Delannoy number (removed dots ignored), the count without diagonal
    steps, the count with each removed dot put back, then near misses; never a value in ``exclude``."""
    removed = [tuple(d) for d in removed]
    free = cb.delannoy(m, n)
    straight = cb.count_paths(m + 1, n + 1, lambda i, j: (i, j) not in removed, (0, 0), (m, n), drops=(0,),
                              slide=True)
    back = [cb.lattice_paths(m, n + 1, n + 1, [d for d in removed if d != put], (0, 0), (m, n), wrap=False)
            for put in removed]
    candidates = [free, straight, *back, value + 1, value - 1, value + 2, value - 2,
                  *(value + sign * k for k in range(3, 13) for sign in (1, -1))]
    out: list[str] = []
    for candidate in candidates:
        if candidate >= 1 and candidate not in exclude and str(candidate) not in out:
            out.append(str(candidate))
    return out
