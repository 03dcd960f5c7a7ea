"""The exact solvers of the combinatorics tasks against hand-checked small cases (Delannoy numbers, binomials,
hand-traced diagonal, checkpoint and random-walk boards) and against the seam: a bounded reading never
crosses it, a wrapping one does when the instance needs it."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from bench_plugin_polaris import combinatorics as cb


@pytest.mark.parametrize(("m", "n", "value"), [(1, 1, 3), (2, 2, 13), (2, 3, 25), (3, 3, 63), (3, 4, 129), (4, 4, 321)])
def test_delannoy_numbers(m, n, value):
    assert cb.delannoy(m, n) == value
    # the lattice solver on a full box gives the same number, bounded and (with two spare sectors) wrapping
    assert cb.lattice_paths(m, n + 1, n + 1, (), (0, 0), (m, n), wrap=False) == value
    assert cb.lattice_paths(m, n + 2, n + 1, (), (0, 0), (m, n), wrap=True) == value


def test_lattice_seam_merge_needs_two_spare_sectors():
    """With S = n + 1 radial lines the last dot column is next to the first across the seam: a wrapping
    reading then admits paths round the circle, so the lattice task draws S >= n + 2."""
    assert cb.lattice_paths(2, 3, 3, (), (0, 0), (2, 2), wrap=True) > cb.delannoy(2, 2)
    assert cb.lattice_paths(2, 4, 3, (), (0, 0), (2, 2), wrap=True) == cb.delannoy(2, 2)


def test_lattice_removed_dots():
    # 1 x 1 box: right-down, down-right, diagonal; removing the top-right dot leaves two
    assert cb.lattice_paths(1, 2, 2, [(0, 1)], (0, 0), (1, 1), wrap=False) == 2
    # 2 x 2 box without its centre dot: 13 - D(1,1) * D(1,1) = 4
    assert cb.lattice_paths(2, 3, 3, [(1, 1)], (0, 0), (2, 2), wrap=False) == 4


def test_monotone_paths_are_binomials_and_checkpoints_multiply():
    assert cb.monotone_paths(4, 5, (), (0, 0), (3, 4), wrap=False) == comb(7, 3)
    assert cb.monotone_paths(4, 5, (), (0, 0), (3, 4), wrap=False, via=(1, 2)) == comb(3, 1) * comb(4, 2)
    # a hole at the checkpoint's only approach from the left: (1, 1) blocked leaves paths via (0, 2) only
    assert cb.monotone_paths(3, 3, [(1, 1)], (0, 0), (1, 2), wrap=False, via=(1, 2)) == 1
    assert cb.monotone_paths(3, 3, [(0, 0)], (0, 0), (2, 2), wrap=False) == 0


def test_monotone_wrap_reading_goes_round_the_ring():
    """Bounded: X right of Y in a lower row has no right/down path; wrapping: clockwise across the seam."""
    assert cb.monotone_paths(2, 4, (), (0, 3), (1, 1), wrap=False) == 0
    # wrap: leave row 0 from column 3, 0, 1 or 2 (0..3 clockwise slides), then slide along row 1 to column 1
    # (2 -> 3 -> 0 -> 1 included): one path per drop column
    assert cb.monotone_paths(2, 4, (), (0, 3), (1, 1), wrap=True) == 4


def test_diagonal_paths_hand_traced():
    # 3 rows x 4 columns from (0, 1) to (2, 1): via (1, 0) or (1, 2)
    assert cb.diagonal_paths(3, 4, (), (0, 1), (2, 1), wrap=False) == 2
    assert cb.diagonal_paths(3, 4, [(1, 2)], (0, 1), (2, 1), wrap=False) == 1
    # from the left edge: bounded has one route, wrapping also goes (0,0) -> (1,3) -> (2,0)... to (2, 0)
    assert cb.diagonal_paths(3, 4, (), (0, 0), (2, 0), wrap=False) == 1
    assert cb.diagonal_paths(3, 4, (), (0, 0), (2, 0), wrap=True) == 2
    # rows 0..4 on a 4-column wrap: every column pair of equal parity, 2^4 / 2 = 8 paths each
    assert cb.diagonal_paths(5, 4, (), (0, 0), (4, 0), wrap=True) == 8
    with pytest.raises(ValueError, match="coincide"):
        cb.diagonal_paths(3, 2, (), (0, 0), (2, 0), wrap=True)


def test_bounded_reading_never_crosses_the_seam():
    """Cutting the board along the seam (a blocked column on each side would be needed otherwise): the
    bounded count equals the count on a wider wrapping board with blocked padding columns."""
    for start, end in (((0, 0), (4, 2)), ((0, 1), (4, 3)), ((0, 3), (4, 1))):
        bounded = cb.diagonal_paths(5, 4, (), start, end, wrap=False)
        padded = cb.diagonal_paths(5, 6, [(r, c) for r in range(5) for c in (4, 5)], start, end, wrap=True)
        assert bounded == padded


def test_walk_probability_hand_checked():
    assert cb.walk_probability((0, 0), (1, 1), (0, 1)) == Fraction(1, 2)
    assert cb.walk_probability((0, 0), (2, 2), (1, 1)) == Fraction(1, 2)
    assert cb.uniform_path_probability((0, 0), (2, 2), (1, 1)) == Fraction(2, 3)
    # on the edge: forced moves; (0, 2) in a 2 x 2 box is reached by right, right: 1/4
    assert cb.walk_probability((0, 0), (2, 2), (0, 2)) == Fraction(1, 4)
    assert cb.uniform_path_probability((0, 0), (2, 2), (0, 2)) == Fraction(1, 6)
    # probabilities over one anti-diagonal sum to 1
    total = sum(cb.walk_probability((0, 0), (3, 4), (i, 4 - i)) for i in range(4))
    assert total == 1
