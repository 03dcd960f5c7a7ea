"""Verifier of ``polaris/sudoku``: the puzzle re-solved by exact cover, the digits and boxes read off the pixels.

From the record alone: the givens are solved as an exact-cover problem (every cell filled once, every digit once
per row, column and box; Knuth's Algorithm X over dict columns, not the generator's backtracking over cells)
and must have exactly one solution; the option holding the target's digit must be the only correct one and
carry the answer's letter; the question must be the words' for the record.  On the pixels: the highlighted
colour must fill exactly the target cell; each cell's ink must be its given digit (template match against the
kit's font), '?' in the target and nothing in the other empty cells; every edge between cells must be drawn
thick exactly where it separates two boxes.
"""

from __future__ import annotations

import functools

import numpy as np

from bench_core import option_letters
from bench_plugin_polaris import sudoku_words as words
from bench_plugin_polaris.kit.pixels import gather
from bench_plugin_polaris.verifiers.cell_ink import cells_with, compare_cells, guarded, pixels, read_labels

HIGHLIGHT = (255, 232, 120)
MIN_PIXELS = 60


def _cover_columns(size: int, box, r: int, c: int, d: int) -> tuple:
    bh, bw = box
    b = (r // bh) * (size // bw) + c // bw
    return ("cell", r, c), ("row", r, d), ("col", c, d), ("box", b, d)


@functools.lru_cache(maxsize=8)
def _cover_problem(size: int, box: tuple[int, int]) -> tuple[dict, dict]:
    """The empty board's exact-cover problem: each choice (r, c, d) -> its four columns, and each column -> the
    choices covering it (frozen; a search works on a copy)."""
    rows = {(r, c, d): _cover_columns(size, box, r, c, d)
            for r in range(size) for c in range(size) for d in range(1, size + 1)}
    columns: dict[tuple, set] = {}
    for key, cols in rows.items():
        for col in cols:
            columns.setdefault(col, set()).add(key)
    return rows, {col: frozenset(keys) for col, keys in columns.items()}


def solve_exact_cover(puzzle: list[list[int]], box, limit: int = 2) -> list[list[list[int]]]:
    """Up to ``limit`` solutions of ``puzzle`` (0 = empty) by Algorithm X: the givens are selected first (the
    columns they cover and every choice sharing a column with one are dropped from the start), then the search
    branches on the column with the fewest choices."""
    size = len(puzzle)
    rows, base = _cover_problem(size, tuple(box))
    chosen = [(r, c, puzzle[r][c]) for r in range(size) for c in range(size) if puzzle[r][c]]
    covered: set = set()
    for key in chosen:
        if covered & set(rows[key]):
            return []  # the givens clash
        covered.update(rows[key])
    columns: dict[tuple, set] = {col: set() for col in base if col not in covered}
    for key, cols in rows.items():  # the choices none of whose columns a given covers (empty cells only)
        if not puzzle[key[0]][key[1]] and covered.isdisjoint(cols):
            for col in cols:
                columns[col].add(key)

    def select(key):
        removed = []
        for col in rows[key]:
            for other in columns[col]:
                for col2 in rows[other]:
                    if col2 != col:
                        columns[col2].discard(other)
            removed.append(columns.pop(col))
        return removed

    def deselect(key, removed):
        for col in reversed(rows[key]):
            columns[col] = removed.pop()
            for other in columns[col]:
                for col2 in rows[other]:
                    if col2 != col:
                        columns[col2].add(other)

    found = []

    def search():
        if not columns:
            grid = [[0] * size for _ in range(size)]
            for r, c, d in chosen:
                grid[r][c] = d
            found.append(grid)
            return len(found) >= limit
        col, fewest = None, len(rows) + 1  # the column with the fewest choices (the first with none or one)
        for key, keys in columns.items():
            if len(keys) < fewest:
                col, fewest = key, len(keys)
                if fewest <= 1:
                    break
        for key in sorted(columns[col]):
            removed = select(key)
            chosen.append(key)
            if search():
                return True
            chosen.pop()
            deselect(key, removed)
        return False

    search()
    return found


@guarded
def verify(item, images, layout_of) -> list[str]:
    scene, failures = item.metadata["scene"], []
    puzzle, box = scene["puzzle"], tuple(scene["box"])
    size = len(puzzle)
    tr, tc = scene["target"]
    if size != scene["rows"] or size % box[0] or size % box[1] or box[0] * box[1] != size:
        return [f"a {size} x {size} puzzle cannot have boxes of {box[0]} x {box[1]}"]
    if puzzle[tr][tc]:
        failures.append("the target cell holds a given")
    solutions = solve_exact_cover(puzzle, box)
    if len(solutions) != 1:
        return [*failures, f"the givens have {len(solutions)} solutions (counted up to 2), not exactly one"]
    digit = str(solutions[0][tr][tc])
    letters = option_letters(len(item.options or ()))
    correct = [letter for letter, option in zip(letters, item.options or (), strict=True) if option == digit]
    if correct != [item.answer]:
        failures.append(f"the target's digit is {digit}; options holding it: {correct}; the answer is {item.answer}")
    if item.question != words.question(item.variant, size, (tr, tc), scene["stem"], letters, list(item.options)):
        failures.append("the question is not the one the record gives (target cell, options)")
    array = pixels(images[0])
    layout = layout_of(item)
    failures += compare_cells(cells_with(array, layout, HIGHLIGHT, MIN_PIXELS), {(tr, tc)}, "the highlight")
    px = int(scene["geometry"]["font_px"])
    labels = [str(d) for d in range(1, size + 1)] + ["?"]
    cells = [(r, c) for r in range(size) for c in range(size)]
    shown = read_labels(array, [layout.cell_center(r, c) for r, c in cells], px, labels)
    for (r, c), seen in zip(cells, shown, strict=True):
        want = "?" if (r, c) == (tr, tc) else (str(puzzle[r][c]) if puzzle[r][c] else "")
        if seen != want:
            failures.append(f"cell ({r + 1}, {c + 1}) shows {seen!r}, the record says {want!r}")
    bh, bw = box
    edges, xs, ys = [], [], []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr >= size or c + dc >= size:
                    continue
                edges.append((r, c, dr, dc, bool((dc and (c + 1) % bw == 0) or (dr and (r + 1) % bh == 0))))
                # the edge's middle, a third of a cell long, in index space
                for f in (0.35, 0.5, 0.65):
                    xs.append(c + 1 if dc else c + f)
                    ys.append(r + f if dc else r + 1)
    px, py = layout.map_points(np.array(xs), np.array(ys))
    dark = (gather(array, np.rint(py).astype(int), np.rint(px).astype(int)).max(axis=1) < 60).reshape(-1, 3)
    for (r, c, dr, dc, border), seen in zip(edges, dark, strict=True):
        if bool(seen.all()) != border and bool(seen.any()) != border:
            failures.append(f"the edge after cell ({r + 1}, {c + 1}) towards ({r + dr + 1}, {c + dc + 1}) is "
                            f"{'thin' if border else 'thick'}, but it {'is' if border else 'is not'} a box border")
    return failures
