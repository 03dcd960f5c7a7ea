"""The TraversalBench difficulty grid: tortuosity bins, crossing bins, vertex counts and populated cells.

A *cell* is a pair ``(tort_bin, cross_bin)``; together with a vertex count it names one generation target.
"""

from __future__ import annotations

import math

# TraversalBench §2.1 / §2.2: tortuosity thresholds {1.0, 1.3, 2.0, 3.0, 4.5, 6.5}. The paper lists a
# further 9.0 edge, but the released data holds bin-5 paths with tortuosity up to ~86, so the last bin is
# open-ended upward.
TORTUOSITY_EDGES: tuple[float, ...] = (1.0, 1.3, 2.0, 3.0, 4.5, 6.5)

# TraversalBench §2.1 / §2.2: crossing-count bins (inclusive ranges); the 13+ level (index 6) exists in the
# released data for high-tortuosity cells.
CROSSING_BINS: tuple[tuple[int, int | None], ...] = (
    (0, 0), (1, 1), (2, 3), (4, 5), (6, 8), (9, 12), (13, None),
)

# TraversalBench §2.1: vertex counts ("mp") of the released data.
VERTEX_COUNTS: tuple[int, ...] = (9, 11, 13, 15, 17)

N_TORT_BINS = len(TORTUOSITY_EDGES)
N_CROSS_BINS = len(CROSSING_BINS)

_TOL = 1e-9


def tortuosity_bin(tau: float) -> int:
    """Return the tortuosity bin index (0..5) of ``tau``; bin i is [edge_i, edge_{i+1}), bin 5 is open.

    Raises ValueError for values below 1 (beyond a 1e-9 tolerance) or NaN.
    """
    if not tau >= TORTUOSITY_EDGES[0] - _TOL:  # also catches NaN
        raise ValueError(f"tortuosity must be >= 1.0, got {tau!r}")
    for i in range(N_TORT_BINS - 1, 0, -1):
        if tau >= TORTUOSITY_EDGES[i]:
            return i
    return 0


def crossing_bin(count: int) -> int:
    """Return the crossing bin index (0..6) of a crossing count (raises ValueError if negative)."""
    if count < 0:
        raise ValueError(f"crossing count must be >= 0, got {count!r}")
    for i, (lo, hi) in enumerate(CROSSING_BINS):
        if count >= lo and (hi is None or count <= hi):
            return i
    raise AssertionError("unreachable: the last crossing bin is open-ended")


def crossing_range(cross_bin: int) -> tuple[int, int | None]:
    """Return the inclusive crossing-count range ``(lo, hi)`` of a bin; ``hi`` is None for the open bin."""
    if not 0 <= cross_bin < N_CROSS_BINS:
        raise ValueError(f"crossing bin must be in 0..{N_CROSS_BINS - 1}, got {cross_bin!r}")
    return CROSSING_BINS[cross_bin]


def tortuosity_range(tort_bin: int) -> tuple[float, float]:
    """Return the half-open tortuosity range ``[lo, hi)`` of a bin; ``hi`` is ``inf`` for the last bin."""
    if not 0 <= tort_bin < N_TORT_BINS:
        raise ValueError(f"tortuosity bin must be in 0..{N_TORT_BINS - 1}, got {tort_bin!r}")
    hi = TORTUOSITY_EDGES[tort_bin + 1] if tort_bin + 1 < N_TORT_BINS else math.inf
    return TORTUOSITY_EDGES[tort_bin], hi


def _cells(extra: tuple[tuple[int, int], ...] = (), drop: tuple[tuple[int, int], ...] = ()):
    # Common pattern of the released data: t0: s0-s1; t1: s0-s4; t2, t3: s0-s5; t4, t5: s0-s6.
    top = {0: 1, 1: 4, 2: 5, 3: 5, 4: 6, 5: 6}
    cells = {(t, s) for t, s_max in top.items() for s in range(s_max + 1)}
    return frozenset((cells | set(extra)) - set(drop))


# TraversalBench §2.2 "Cell coverage": cells populated in the released data, per vertex count. At 15 and
# 17 vertices t1 s5 appears (sparsely) and t5 s6 does not; 33 cells for every vertex count.
POPULATED_CELLS: dict[int, frozenset[tuple[int, int]]] = {
    9: _cells(),
    11: _cells(),
    13: _cells(),
    15: _cells(extra=((1, 5),), drop=((5, 6),)),
    17: _cells(extra=((1, 5),), drop=((5, 6),)),
}
