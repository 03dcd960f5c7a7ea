"""The logical instances of ``polaris/minimum-flips`` (spec card 50): strips of two-coloured cells.

Each of 2-3 strips (rows in the Cartesian picture, rings in the polar one) holds ``n`` cells (n even, 6..12)
coloured 0 or 1.  A move picks three consecutive cells of one strip and inverts all three.  The goal is that
every strip alternates (its two phases, 0101... and 1010..., both count; each strip may take its own).
Partially aligned: the Cartesian strip is a line with two ends (moves at positions 0..n-3), the polar ring is
cyclic (moves at every position, the last ones wrapping over the seam), so the minima differ (paper A.1:
"angular wrapping ... introduces additional parity constraints").

The generator's route is breadth-first search over the 2^n states of a strip; the verifier enumerates subsets
of moves instead (``verifiers.minimum_flips``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import cache

#: Cells per strip (even: an odd ring cannot alternate; with 6 cells the two minima never differ) and strips
#: per item (one strip's minima are 2-8, too few values for five options around each answer: see kit.options).
LENGTHS = (8, 10, 12)
STRIPS = (2, 3)
OPTIONS = 5


def move_masks(n: int, cyclic: bool) -> tuple[int, ...]:
    """The bit masks of the moves on a strip of ``n`` cells (bit i = cell i): three consecutive cells, the
    positions wrapping mod n on a cyclic strip."""
    starts = range(n) if cyclic else range(n - 2)
    return tuple(sum(1 << ((s + k) % n) for k in range(3)) for s in starts)


def alternating(n: int) -> tuple[int, int]:
    """The two alternating patterns of ``n`` cells as masks: 0101... (cell 0 colour 0) and 1010...."""
    odd = sum(1 << i for i in range(1, n, 2))
    return odd, ((1 << n) - 1) ^ odd


@cache
def distances(n: int, cyclic: bool) -> dict[int, int]:
    """Breadth-first distances from the all-zero state to every state reachable by moves (a move is its own
    inverse and moves commute, so the distance from a state to a target is the distance of their xor)."""
    masks = move_masks(n, cyclic)
    dist = {0: 0}
    queue = deque([0])
    while queue:
        state = queue.popleft()
        for m in masks:
            nxt = state ^ m
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    return dist


def strip_minimum(cells: Sequence[int], cyclic: bool) -> int | None:
    """The fewest moves that make one strip alternate (either phase), or None if neither phase is reachable."""
    n = len(cells)
    state = sum(1 << i for i, v in enumerate(cells) if v)
    dist = distances(n, cyclic)
    found = [dist[state ^ t] for t in alternating(n) if state ^ t in dist]
    return min(found) if found else None


def minimum(strips: Sequence[Sequence[int]], cyclic: bool) -> int | None:
    """The fewest moves for every strip (the sum of the strips' minima), or None if a strip cannot alternate."""
    total = 0
    for cells in strips:
        best = strip_minimum(cells, cyclic)
        if best is None:
            return None
        total += best
    return total


def sample(rng, n: int, strips: int) -> dict | None:
    """``strips`` strips of ``n`` cells, each an alternating pattern (seeded phase) with a seeded set of line
    moves applied (so the line can always be solved), or None unless the rings can be solved too and the two
    minima differ (the partial alignment is real).

    Returns ``{"n", "strips": [[0/1 ...]], "line": minimum on lines, "ring": minimum on rings}``."""
    masks = move_masks(n, cyclic=False)
    cells = []
    for _ in range(strips):
        state = alternating(n)[int(rng.integers(2))]
        for k in rng.choice(len(masks), size=int(rng.integers(1, len(masks) + 1)), replace=False):
            state ^= masks[int(k)]
        cells.append([(state >> i) & 1 for i in range(n)])
    line, ring = minimum(cells, cyclic=False), minimum(cells, cyclic=True)
    if line is None or ring is None or line == ring or ring == 0:
        return None
    return {"n": n, "strips": cells, "line": line, "ring": ring}

