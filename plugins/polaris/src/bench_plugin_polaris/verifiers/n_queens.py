"""Verifier of ``polaris/n-queens``: the completion re-derived by enumeration, the queens read off the pixels.

From the record alone: the given queens must not attack each other; trying every assignment of the free
columns to the empty rows (permutations, not the generator's backtracking) must give exactly one completion
under the bounded rules; the option naming the target row's cell of that completion must be the only
correct one and carry the answer's letter; no wrong option may be the target's cell in any completion under
the toroidal reading (columns and diagonals mod n).  The question must be the one the words give for the
record.  On the pixels: the cells holding the queen colour (read through the layout's inverse map) must be
exactly the recorded queens, and the bounded border must be drawn: the polar seam at 12 o'clock as a thick
dark line.
"""

from __future__ import annotations

import itertools
import re

from bench_core import option_letters
from bench_plugin_polaris import n_queens_words as words
from bench_plugin_polaris.verifiers.cell_ink import cells_with, compare_cells, dark_along, guarded, pixels

QUEEN = (128, 0, 96)
#: Queen-coloured pixels a cell needs to count as holding a queen.
MIN_PIXELS = 40


def _attack(a, b, n: int, toroidal: bool) -> bool:
    dr, dc = b[0] - a[0], b[1] - a[1]
    if toroidal:
        dr, dc = dr % n, dc % n
        return dr == 0 or dc == 0 or dr == dc or (dr + dc) % n == 0
    return dr == 0 or dc == 0 or abs(dr) == abs(dc)


def completions(n: int, queens: list[tuple[int, int]], toroidal: bool = False) -> list[dict[int, int]]:
    """Every completion of the given queens, by trying each permutation of the free columns over the empty rows."""
    rows = sorted(set(range(n)) - {r for r, _ in queens})
    free = sorted(set(range(n)) - {c for _, c in queens})
    found = []
    for perm in itertools.permutations(free):
        board = queens + list(zip(rows, perm, strict=True))
        if all(not _attack(a, b, n, toroidal) for a, b in itertools.combinations(board, 2)):
            found.append(dict(zip(rows, perm, strict=True)))
    return found


def parse_cell(option: str) -> tuple[int, int] | None:
    """The 0-based cell of an option "(3, 5)", or None."""
    m = re.fullmatch(r"\((\d+), (\d+)\)", option.strip())
    return (int(m.group(1)) - 1, int(m.group(2)) - 1) if m else None


@guarded
def verify(item, images, layout_of) -> list[str]:
    scene, failures = item.metadata["scene"], []
    n, target, missing = int(scene["rows"]), int(scene["target"]), int(scene["missing"])
    queens = [(int(r), int(c)) for r, c in scene["queens"]]
    if scene["cols"] != n or len(queens) != n - missing or len({r for r, _ in queens}) != len(queens):
        failures.append(f"the record is not an {n} x {n} board with {n - missing} queens in distinct rows")
        return failures
    if any(r == target for r, _ in queens):
        failures.append(f"the target row {target + 1} already holds a queen")
    bounded = completions(n, queens)
    if len(bounded) != 1:
        return [*failures, f"the given queens have {len(bounded)} completions, not exactly one"]
    truth = (target, bounded[0][target])
    letters = option_letters(len(item.options or ()))
    cells = [parse_cell(o) for o in item.options or ()]
    if None in cells:
        return [*failures, f"an option is not a cell '(row, column)': {list(item.options)}"]
    correct = [letters[k] for k, cell in enumerate(cells) if cell == truth]
    if correct != [item.answer]:
        failures.append(f"the completion puts the queen of row {target + 1} in column {truth[1] + 1}; the options "
                        f"holding it are {correct}, the answer is {item.answer}")
    toroidal = {c[target] for c in completions(n, queens, toroidal=True)}
    for letter, (r, c) in zip(letters, cells, strict=True):
        if letter != item.answer and r == target and c in toroidal:
            failures.append(f"option {letter} ({r + 1}, {c + 1}) is right under the toroidal reading")
    expected = words.question(item.variant, n, target, missing, scene["stem"], letters, list(item.options))
    if item.question != expected:
        failures.append("the question is not the one the record gives (board, target row, options)")
    array = pixels(images[0])
    layout = layout_of(item)
    failures += compare_cells(cells_with(array, layout, QUEEN, MIN_PIXELS), set(queens), "queens")
    if layout.kind == "polar":
        inner, outer = layout.seam()
        points = [(inner[0] + dx, inner[1] + (outer[1] - inner[1]) * k / 200) for k in range(201) for dx in (-1, 1)]
        if dark_along(array, points) < 0.8:
            failures.append("the bounded seam wall at 12 o'clock is not drawn")
    return failures
