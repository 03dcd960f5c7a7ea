"""The logical instances of ``polaris/sudoku`` (spec card 49, the paper's Figure 21): a 6 x 6 Sudoku in index
space with outlined boxes of 2 x 3 or 3 x 2 cells (2 rings x 3 sectors, or 3 x 2, in polar).

Each row, column and box holds 1..6 once.  The puzzle has exactly one solution (backtracking count), and one
empty cell is asked.  The task is topology-invariant: rings are cyclic in polar, but "each ring holds every
digit once" does not depend on where a ring starts, and no box crosses the seam (the seam is an ordinary box
border), so both boundary readings give the same puzzle.

The generator fills a grid by randomised backtracking and empties cells while the solution stays unique;
the verifier re-solves the givens by its own constraint propagation and search (``verifiers.sudoku``).
"""

from __future__ import annotations

from collections.abc import Sequence

SIZE = 6
DIGITS = tuple(range(1, SIZE + 1))
#: Box shapes (rows, columns): 2 x 3 as the paper's example, and 3 x 2.
BOXES = ((2, 3), (3, 2))
#: Givens left in the puzzle: the easiest level keeps 22, the hardest as few as the filter allows.
GIVENS = (10, 22)
OPTIONS = 5

Grid = list[list[int]]  # 0 = empty


def box_of(r: int, c: int, box: Sequence[int]) -> int:
    """The index of the box holding cell (r, c), boxes numbered row-major."""
    bh, bw = box
    return (r // bh) * (SIZE // bw) + c // bw


def candidates(grid: Grid, r: int, c: int, box: Sequence[int]) -> set[int]:
    """The digits that no given of cell (r, c)'s row, column or box excludes."""
    bh, bw = box
    used = set(grid[r]) | {grid[k][c] for k in range(SIZE)}
    r0, c0 = r - r % bh, c - c % bw
    used |= {grid[r0 + i][c0 + j] for i in range(bh) for j in range(bw)}
    return set(DIGITS) - used


def count_solutions(grid: Grid, box: Sequence[int], limit: int = 2) -> int:
    """The number of completions of ``grid`` (0 = empty), counted up to ``limit`` (0 when two givens clash);
    backtracking on the empty cell with the fewest candidates, each unit's used digits a bit mask."""
    units = [0] * (3 * SIZE)  # rows, then columns, then boxes: bit d set when digit d is used
    empty = []
    for r in range(SIZE):
        for c in range(SIZE):
            slots = (r, SIZE + c, 2 * SIZE + box_of(r, c, box))
            digit = grid[r][c]
            if not digit:
                empty.append(slots)
                continue
            bit = 1 << digit
            if any(units[k] & bit for k in slots):
                return 0
            for k in slots:
                units[k] |= bit
    full = sum(1 << d for d in DIGITS)
    count = 0

    def search(todo: list[tuple[int, int, int]]) -> bool:
        nonlocal count
        if not todo:
            count += 1
            return count >= limit
        best, best_free = 0, -1
        for k, (a, b, c) in enumerate(todo):
            free = full & ~(units[a] | units[b] | units[c])
            if best_free < 0 or free.bit_count() < best_free.bit_count():
                best, best_free = k, free
                if not free:
                    return False
        a, b, c = todo[best]
        rest = todo[:best] + todo[best + 1:]
        while best_free:
            bit = best_free & -best_free
            best_free ^= bit
            units[a] |= bit
            units[b] |= bit
            units[c] |= bit
            done = search(rest)
            units[a] ^= bit
            units[b] ^= bit
            units[c] ^= bit
            if done:
                return True
        return False

    search(empty)
    return count


def full_grid(rng, box: Sequence[int]) -> Grid:
    """A random complete grid: backtracking cell by cell, trying digits in a seeded order."""
    grid = [[0] * SIZE for _ in range(SIZE)]

    def fill(k: int) -> bool:
        if k == SIZE * SIZE:
            return True
        r, c = divmod(k, SIZE)
        options = sorted(candidates(grid, r, c, box))
        for i in rng.permutation(len(options)):
            grid[r][c] = options[int(i)]
            if fill(k + 1):
                return True
        grid[r][c] = 0
        return False

    fill(0)
    return grid


def unit_forced(grid: Grid, r: int, c: int, box: Sequence[int]) -> bool:
    """Whether one unit of (r, c) alone settles it: its row, column or box has every other cell given."""
    bh, bw = box
    r0, c0 = r - r % bh, c - c % bw
    units = ([(r, k) for k in range(SIZE)], [(k, c) for k in range(SIZE)],
             [(r0 + i, c0 + j) for i in range(bh) for j in range(bw)])
    return any(all(grid[a][b] for a, b in unit if (a, b) != (r, c)) for unit in units)


def sample(rng, box: Sequence[int], givens: int, deep: bool) -> dict | None:
    """One puzzle with box shape ``box`` and about ``givens`` givens (never fewer; more when no further cell
    can be emptied without a second solution), and a target cell that no single unit settles; with ``deep``,
    one whose row, column and box together still leave two or more candidates.  None when no cell qualifies.

    Returns ``{"box", "solution", "puzzle" (0 = empty), "target": [r, c], "answer"}``."""
    solution = full_grid(rng, box)
    puzzle = [row[:] for row in solution]
    filled = SIZE * SIZE
    for k in rng.permutation(SIZE * SIZE):
        if filled <= givens:
            break
        r, c = divmod(int(k), SIZE)
        keep = puzzle[r][c]
        puzzle[r][c] = 0
        if count_solutions(puzzle, box) == 1:
            filled -= 1
        else:
            puzzle[r][c] = keep
    empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if puzzle[r][c] == 0]
    eligible = [(r, c) for r, c in empty if not unit_forced(puzzle, r, c, box)
                and (not deep or len(candidates(puzzle, r, c, box)) >= 2)]
    if not eligible:
        return None
    r, c = eligible[int(rng.integers(len(eligible)))]
    return {"box": list(box), "solution": solution, "puzzle": puzzle, "target": [r, c], "answer": solution[r][c]}


def wrong_digits(instance: dict) -> tuple[list[int], list[int]]:
    """The five wrong digits of the target cell, split into those its row, column and box leave possible
    (plausible) and those they exclude."""
    r, c = instance["target"]
    possible = candidates(instance["puzzle"], r, c, instance["box"])
    wrong = [d for d in DIGITS if d != instance["answer"]]
    return [d for d in wrong if d in possible], [d for d in wrong if d not in possible]
