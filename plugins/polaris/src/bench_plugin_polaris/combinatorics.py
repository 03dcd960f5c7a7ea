"""Exact path counts and walk probabilities in index space, per boundary reading, for the combinatorics tasks.

Every solver takes a logical instance in index space and a ``wrap`` flag: ``False`` is the bounded reading
(the Cartesian rectangle; the polar seam at 12 o'clock is a wall), ``True`` the wrapping one (column ``cols - 1``
is next to column 0).  Counts are exact Python integers, probabilities ``fractions.Fraction``.

Paths run down the rows (row + 1 per drop; in polar orientation "out" a drop is one ring inward) and may also
slide along a row (column + 1: right / clockwise).  Under the wrapping reading a slide can go round the ring,
so paths are counted as *simple* paths (no cell twice): a row is entered at one column and left after at most
``cols - 1`` slides.  Under the bounded reading every path is simple anyway.

The verifiers re-derive these numbers by enumerating paths one by one (``verifiers``), never through this
module.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from fractions import Fraction
from functools import cache

Cell = tuple[int, int]


def _column(c: int, cols: int, wrap: bool) -> int | None:
    """Column ``c`` on a board of ``cols`` columns: taken mod ``cols`` when wrapping, None outside otherwise."""
    if wrap:
        return c % cols
    return c if 0 <= c < cols else None


def count_paths(rows: int, cols: int, free: Callable[[int, int], bool], start: Cell, end: Cell, *,
                drops: Iterable[int], slide: bool = False, wrap: bool = False, via: Cell | None = None) -> int:
    """The number of simple paths from ``start`` to ``end`` (through ``via`` if given) on a ``rows`` x ``cols``
    board whose enterable cells are those where ``free(r, c)`` holds.

    A move is a drop, from ``(r, c)`` to ``(r + 1, c + d)`` for ``d`` in ``drops``, or (when ``slide``) a slide
    from ``(r, c)`` to ``(r, c + 1)``.  Columns wrap mod ``cols`` when ``wrap``; otherwise a move leaving the
    columns is not allowed.  A path ends the first time it reaches ``end`` (a simple path cannot come back).
    ``start`` and ``end`` must be free; 0 when they are not or when no path exists."""
    drops = tuple(sorted(set(drops)))
    if not (free(*start) and free(*end)):
        return 0

    @cache
    def from_entry(r: int, c: int, seen: bool) -> int:
        # paths that enter row r at column c (already free), seen = the checkpoint lies behind
        total = 0
        cells = [c]
        for _ in range(cols - 1 if slide else 0):
            nxt = _column(cells[-1] + 1, cols, wrap)
            if nxt is None or nxt == c or not free(r, nxt):
                break
            cells.append(nxt)
        mark = seen
        for cc in cells:
            if (r, cc) == via:
                mark = True
            if (r, cc) == end:
                total += 1 if (via is None or mark) else 0
                break  # the path would have to end here; sliding on passes the end, which ends no path
            if r + 1 < rows:
                for d in drops:
                    nc = _column(cc + d, cols, wrap)
                    if nc is not None and free(r + 1, nc):
                        total += from_entry(r + 1, nc, mark)
        return total

    return from_entry(start[0], start[1], start == via)


def diagonal_paths(rows: int, cols: int, blocked: Collection[Cell], start: Cell, end: Cell, wrap: bool) -> int:
    """Paths of forward diagonal moves ``(r, c) -> (r + 1, c - 1 | c + 1)`` from ``start`` to ``end`` avoiding
    ``blocked``; columns mod ``cols`` when ``wrap`` (needs ``cols >= 3`` so that the two moves differ)."""
    if wrap and cols < 3:
        raise ValueError(f"a wrapping board of {cols} columns makes the two diagonal moves coincide")
    blocked = frozenset(map(tuple, blocked))
    return count_paths(rows, cols, lambda r, c: (r, c) not in blocked, start, end, drops=(-1, 1), wrap=wrap)


def monotone_paths(rows: int, cols: int, holes: Collection[Cell], start: Cell, end: Cell, wrap: bool,
                   via: Cell | None = None) -> int:
    """Right/down paths (right = column + 1, clockwise in polar; down = row + 1, one ring inward) from
    ``start`` to ``end`` through ``via`` avoiding ``holes``; simple paths round the ring when ``wrap``."""
    holes = frozenset(map(tuple, holes))
    return count_paths(rows, cols, lambda r, c: (r, c) not in holes, start, end, drops=(0,), slide=True, wrap=wrap,
                       via=via)


def lattice_paths(rows: int, cols: int, dots: int, removed: Collection[Cell], start: Cell, end: Cell,
                  wrap: bool) -> int:
    """Paths on a dot grid of lattice points ``(i, j)``, ``i`` in ``[0, rows]`` and ``j`` in ``[0, dots)``, that
    step right ``(i, j + 1)``, down ``(i + 1, j)`` or diagonally down-right ``(i + 1, j + 1)``, avoiding the
    ``removed`` dots.  ``cols`` is the number of radial lines the lattice columns live on (the polar sector
    count; ``dots`` of them carry dots): with ``wrap``, ``j`` is taken mod ``cols``.  ``rows`` counts the
    cell rows, so there are ``rows + 1`` rows of dots."""
    removed = frozenset(map(tuple, removed))
    return count_paths(rows + 1, cols, lambda i, j: j < dots and (i, j) not in removed, start, end, drops=(0, 1),
                       slide=True, wrap=wrap)


def delannoy(m: int, n: int) -> int:
    """The Delannoy number D(m, n): right/down/diagonal lattice paths across an m x n box (D(3, 3) = 63)."""
    table = [[1] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            table[i][j] = table[i - 1][j] + table[i][j - 1] + table[i - 1][j - 1]
    return table[m][n]


# --- random walk ------------------------------------------------------------------------------------------

def _toward(point: Cell, target: Cell) -> list[Cell]:
    """The lattice points one step right or down from ``point`` that do not pass ``target``'s row or column."""
    i, j = point
    options = []
    if j < target[1]:
        options.append((i, j + 1))
    if i < target[0]:
        options.append((i + 1, j))
    return options


def walk_probability(start: Cell, end: Cell, via: Cell) -> Fraction:
    """The probability that a walker from lattice point ``start`` to ``end`` passes ``via``, when at each
    point it takes one of the steps towards ``end`` (right or down, never past ``end``'s row or column)
    uniformly at random (a forced step when only one is left)."""
    reach: dict[Cell, Fraction] = {start: Fraction(1)}
    for i in range(start[0], end[0] + 1):
        for j in range(start[1], end[1] + 1):
            p = reach.get((i, j), Fraction(0))
            nexts = _toward((i, j), end)
            for nxt in nexts:
                reach[nxt] = reach.get(nxt, Fraction(0)) + p / len(nexts)
    return reach.get(via, Fraction(0))


def _box_paths(a: Cell, b: Cell) -> int:
    """Right/down lattice paths from ``a`` to ``b`` (0 when ``b`` is not below-right of ``a``)."""
    dy, dx = b[0] - a[0], b[1] - a[1]
    if dy < 0 or dx < 0:
        return 0
    from math import comb

    return comb(dy + dx, dx)


def uniform_path_probability(start: Cell, end: Cell, via: Cell) -> Fraction:
    """The share of the shortest (right/down) lattice paths from ``start`` to ``end`` that pass ``via``: the
    answer of the wrong rule "every shortest path equally likely"."""
    return Fraction(_box_paths(start, via) * _box_paths(via, end), _box_paths(start, end))
