"""``polaris/bounded-diagonal-paths`` (spec card 40; paper Table 6, Bounded Combinatorics): count the diagonal
paths from P to Q with a wall blocking the polar wrap-around.

Fully aligned and bounded: the polar seam at 12 o'clock is a thick wall, so both renderings count the same
paths.  Half of the pairs (balanced over pairs) are drawn so that ignoring the wall would change the count:
the wall is then part of the problem, not decoration.  See ``diagonal_paths`` for the instance.
"""

from __future__ import annotations

from bench_plugin_polaris.diagonal_paths import DiagonalPaths


class BoundedDiagonalPaths(DiagonalPaths):
    NAME = "bounded-diagonal-paths"
    SUB_CATEGORY = "bounded-combinatorics"
    BOUNDARY = "bounded"
    ALIGNMENT = "full"

    def wants_seam(self, rng) -> bool:
        """Every other pair on average: a fair coin from the pair's generator."""
        return bool(rng.integers(2))


TASK = BoundedDiagonalPaths()
