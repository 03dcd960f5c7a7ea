"""Path enumeration for the combinatorics verifiers: every path listed one by one by depth-first search (the
generators count with dynamic programming in ``combinatorics``; this module shares no code with it).

A board is read from the item's record as a successor function: ``successors(cell)`` gives the cells one move
away under the item's rules and boundary reading.  Paths are simple (no cell twice) and end the first time
they reach the goal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

#: The most paths an enumeration lists before it gives up (counts in these tasks stay far below).
LIMIT = 200_000


class TooMany(ValueError):
    """The enumeration passed ``LIMIT`` paths."""


def simple_paths(start: Hashable, goal: Hashable, successors: Callable[[Hashable], Iterable[Hashable]],
                 limit: int = LIMIT) -> list[tuple]:
    """Every simple path from ``start`` to ``goal`` as a tuple of nodes (start and goal included); a path
    stops at ``goal``.  ``TooMany`` past ``limit`` paths."""
    found: list[tuple] = []
    stack: list[tuple[Hashable, tuple]] = [(start, (start,))]
    while stack:
        node, path = stack.pop()
        if node == goal:
            found.append(path)
            if len(found) > limit:
                raise TooMany(f"more than {limit} paths")
            continue
        for nxt in successors(node):
            if nxt not in path:
                stack.append((nxt, (*path, nxt)))
    return found


def column_step(c: int, dc: int, cols: int, wrap: bool) -> int | None:
    """Column ``c + dc``: mod ``cols`` when the reading wraps, None when it leaves a bounded board."""
    n = c + dc
    if wrap:
        return n % cols
    return n if 0 <= n < cols else None


def grid_successors(rows: int, cols: int, moves: Iterable[tuple[int, int]], closed: Callable[[int, int], bool],
                    wrap: bool) -> Callable[[tuple[int, int]], list[tuple[int, int]]]:
    """The successor function of a ``rows`` x ``cols`` board: each move ``(dr, dc)`` from ``(r, c)``, the column
    wrapped or bounded per ``wrap``, the row never wrapping, ``closed`` cells never entered."""
    moves = tuple(moves)

    def successors(cell: tuple[int, int]) -> list[tuple[int, int]]:
        r, c = cell
        out = []
        for dr, dc in moves:
            nr = r + dr
            nc = column_step(c, dc, cols, wrap)
            if nc is None or not 0 <= nr < rows or closed(nr, nc) or (nr, nc) in out:
                continue
            out.append((nr, nc))
        return out

    return successors
