"""The logical instances of ``polaris/n-queens`` (spec card 48): a partial N-Queens board in index space.

A board of ``n`` rows and ``n`` columns holds ``n`` queens, one per row, none attacking another.  Queens attack
along their row, their column and the two index diagonals (|row step| = |column step|).  The task is bounded
only (paper B.2: toroidal N-Queens has no solution for most n): in polar the seam is a wall and diagonals do
not wrap.  The *toroidal* reading (columns and diagonals taken mod n) is solved too, only to check that no
wrong option becomes right under it.

An instance keeps the queens of all rows but a few; exactly one completion exists, and the question asks
for the column of the missing queen of one target row.  The generator's route is backtracking over rows;
the verifier counts completions by trying every permutation of the free columns (``verifiers.n_queens``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

#: Board sizes and the number of missing queens (spec: N 5..8, 2..4 removed).  Six is left out: each row of its
#: four solutions uses only four columns, so five options would always show a cell that is never the answer.
SIZES = (5, 7, 8)
MISSING = (2, 4)


def missing_range(n: int) -> tuple[int, int]:
    """The missing-queen counts allowed on an ``n`` x ``n`` board: on 5 x 5 only 3 (with 2 missing, half the
    cells can never be asked: the filters reject every board that asks them, so the answer would lean to the
    others), else 2..4."""
    return (3, 3) if n == 5 else MISSING


#: Options per item (the paper's random baseline 20 %).
OPTIONS = 5


def attacks(a: tuple[int, int], b: tuple[int, int], n: int, toroidal: bool = False) -> bool:
    """Whether queens on cells ``a`` and ``b`` (distinct) attack each other; ``toroidal`` takes columns and
    diagonals mod ``n``."""
    (r1, c1), (r2, c2) = a, b
    dr, dc = r2 - r1, c2 - c1
    if toroidal:
        return dr % n == 0 or dc % n == 0 or (dc - dr) % n == 0 or (dc + dr) % n == 0
    return dr == 0 or dc == 0 or abs(dr) == abs(dc)


def completions(n: int, given: Mapping[int, int], toroidal: bool = False, limit: int | None = None) -> list[dict]:
    """Every placement of queens on the rows that ``given`` (row -> column) leaves empty, such that no two of
    all the queens attack each other, as row -> column dicts of the new queens; at most ``limit`` of them.
    Empty when the given queens already attack each other."""
    placed = sorted(given.items())
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            if attacks(a, b, n, toroidal):
                return []
    empty = [r for r in range(n) if r not in given]
    found: list[dict] = []

    def extend(k: int, chosen: dict[int, int]) -> bool:
        if k == len(empty):
            found.append(dict(chosen))
            return limit is not None and len(found) >= limit
        row = empty[k]
        others = placed + list(chosen.items())
        for col in range(n):
            if all(not attacks((row, col), q, n, toroidal) for q in others):
                chosen[row] = col
                if extend(k + 1, chosen):
                    return True
                del chosen[row]
        return False

    extend(0, {})
    return found


@cache
def solutions(n: int) -> tuple[tuple[int, ...], ...]:
    """All bounded solutions of the n-queens problem, as column tuples indexed by row, in lexicographic order."""
    return tuple(tuple(s[r] for r in range(n)) for s in completions(n, {}))


def unattacked(n: int, given: Mapping[int, int], row: int) -> list[int]:
    """The columns of ``row`` that no given queen attacks (bounded reading)."""
    return [c for c in range(n) if all(not attacks((row, c), q, n) for q in given.items())]


def draw_target(rng, n: int) -> tuple[int, int]:
    """The asked cell (row, column): the row uniform, the column uniform among those some solution uses in that
    row (so no cell is the answer more often than another of its row: the options carry no prior)."""
    row = int(rng.integers(n))
    columns = sorted({s[row] for s in solutions(n)})
    return row, columns[int(rng.integers(len(columns)))]


def sample(rng, n: int, missing: int, target: int, column: int) -> dict | None:
    """One instance on an ``n`` x ``n`` board whose solution puts a queen on (``target``, ``column``), with that
    row's queen and ``missing - 1`` others removed, or None when this draw fails the filters: a unique bounded
    completion; at least two columns of the target row free of attack from the given queens (one look at the
    attacks does not settle it); five options in the target row, none of the wrong ones the target's column in
    any toroidal completion.

    Returns ``{"n", "queens": {row: col} given, "target": row, "answer": col, "solution": [cols],
    "free": [columns of the target row free of attack], "toroidal": [target columns of toroidal completions]}``."""
    fitting = [s for s in solutions(n) if s[target] == column]
    solution = fitting[int(rng.integers(len(fitting)))]
    others = [r for r in range(n) if r != target]
    removed = {target, *(others[int(i)] for i in rng.choice(len(others), size=missing - 1, replace=False))}
    given = {r: solution[r] for r in range(n) if r not in removed}
    if len(completions(n, given, limit=2)) != 1 or len(unattacked(n, given, target)) < 2:
        return None
    toroidal = sorted({c[target] for c in completions(n, given, toroidal=True)} - {solution[target]})
    if n - len(toroidal) < OPTIONS:
        return None
    return {"n": n, "queens": given, "target": target, "answer": solution[target], "solution": list(solution),
            "free": unattacked(n, given, target), "toroidal": toroidal}


def distractor_columns(instance: Mapping, rng) -> list[int]:
    """Four wrong columns of the target row: first those free of attack from the given queens (they fail only
    deeper in the search), then attacked ones, in a seeded order; never the answer, never a column that a
    toroidal completion puts there."""
    n, answer = instance["n"], instance["answer"]
    banned = {answer, *instance["toroidal"]}
    free = [c for c in instance["free"] if c not in banned]
    attacked = [c for c in range(n) if c not in banned and c not in instance["free"]]
    free = [free[int(i)] for i in rng.permutation(len(free))]
    attacked = [attacked[int(i)] for i in rng.permutation(len(attacked))]
    return (free + attacked)[:OPTIONS - 1]
