"""``polaris/wrapping-diagonal-paths`` (spec card 44; paper Table 6, Topological Combinatorics): count the
diagonal paths from P to Q on an alternating-colour board; the polar board wraps.

Partially aligned: the Cartesian board is a plain rectangle (its border a wall), the polar one wraps at 12
o'clock, so diagonal paths may cross the seam there and the polar item counts more paths.  Both counts are
solved; a pair whose counts coincide is rejected.  The board is a checkerboard with an even number of columns
(sectors), so the colouring is consistent across the seam.  See ``diagonal_paths`` for the instance.
"""

from __future__ import annotations

from bench_plugin_polaris.diagonal_paths import DiagonalPaths

#: Even column counts (a checkerboard wraps consistently only on an even ring).
EVEN_COLUMNS = (4, 6, 8)


class WrappingDiagonalPaths(DiagonalPaths):
    NAME = "wrapping-diagonal-paths"
    SUB_CATEGORY = "topological-combinatorics"
    BOUNDARY = "wrapping"
    ALIGNMENT = "partial"
    COLUMNS = EVEN_COLUMNS
    BLOCKED_RANGE = (0, 2)
    CHECKERED = True


TASK = WrappingDiagonalPaths()
