"""Verifier of ``polaris/maximum-collection``: both optima re-derived by a bitmask search, the maze read off the
pixels.

From the record alone: the open edges are rebuilt from the walls (the polar reading adds the seam edges between
the last column and column 0 of each row, minus walls recorded there); an iterative depth-first search over
(cell, visited bitmask) with a branch-and-bound cut (the cheese not yet visited cannot lift the walk above the
best found) finds the most cheese a walk from the mouse eats that never enters a cell twice (not the
generator's plain recursive search); a record whose search would pass ``NODE_CAP`` nodes is refused.  The
answer's option must hold this rendering's optimum, exactly one option may, no option may hold the other
reading's optimum, and ``other_answer_content`` must be it.  The question must be the words' for the record.
On the pixels: each cell's number (template match against the kit's font) must be its recorded cheese, "M"
in the mouse's cell, nothing in the others; the mouse colour must be in the mouse's cell only; every edge
between neighbouring cells (the polar seam edges too) must be drawn thick exactly where a wall is recorded;
the Cartesian left and right borders must be thick.
"""

from __future__ import annotations

import numpy as np

from bench_core import option_letters
from bench_plugin_polaris import maximum_collection_words as words
from bench_plugin_polaris.verifiers.cell_ink import (
    cells_with,
    compare_cells,
    guarded,
    pixels,
    read_labels,
    thick_at,
    thick_at_points,
)
from bench_plugin_polaris.verifiers.common import own_option_failures

MOUSE = (86, 180, 233)
MIN_PIXELS = 60
NODE_CAP = 400_000


def best_walk(rows: int, cols: int, walls, cheese: dict, mouse: tuple[int, int], wrap: bool) -> int | None:
    """The most cheese a walk from ``mouse`` eats, never entering a cell twice; None past ``NODE_CAP`` nodes."""
    closed = {frozenset((tuple(a), tuple(b))) for a, b in walls}
    index = {(r, c): r * cols + c for r in range(rows) for c in range(cols)}
    neighbours: dict[int, list[int]] = {i: [] for i in index.values()}
    for (r, c), i in index.items():
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nr, nc = r + dr, c + dc
            if wrap:
                nc %= cols
            if 0 <= nr < rows and 0 <= nc < cols and frozenset(((r, c), (nr, nc))) not in closed:
                neighbours[i].append(index[(nr, nc)])
    value = [0] * (rows * cols)
    for (r, c), amount in cheese.items():
        value[index[(r, c)]] = amount
    start = index[tuple(mouse)]
    total = sum(value)
    best = value[start]
    stack = [(start, 1 << start, value[start], total - value[start])]
    nodes = 0
    while stack:
        cell, seen, eaten, left = stack.pop()
        nodes += 1
        if nodes > NODE_CAP:
            return None
        best = max(best, eaten)
        if eaten + left <= best:
            continue
        for nxt in neighbours[cell]:
            if not seen >> nxt & 1:
                stack.append((nxt, seen | 1 << nxt, eaten + value[nxt], left - value[nxt]))
    return best


@guarded
def verify(item, images, layout_of) -> list[str]:
    scene, failures = item.metadata["scene"], []
    rows, cols = int(scene["rows"]), int(scene["cols"])
    walls = [(tuple(a), tuple(b)) for a, b in scene["walls"]]
    cheese = {(int(r), int(c)): int(v) for r, c, v in scene["cheese"]}
    mouse = (int(scene["mouse"][0]), int(scene["mouse"][1]))
    if any(not 1 <= v <= 9 for v in cheese.values()) or mouse in cheese:
        failures.append("cheese amounts must be 1-9 and the mouse's cell must hold none")
    found = {variant: best_walk(rows, cols, walls, cheese, mouse, wrap=variant == "polar")
             for variant in ("cartesian", "polar")}
    if None in found.values():
        return [*failures, f"the maze has too many walks to search ({NODE_CAP} nodes)"]
    failures += own_option_failures(item, found, "optimum")
    mine, theirs = str(found[item.variant]), str(found["polar" if item.variant == "cartesian" else "cartesian"])
    letters = option_letters(len(item.options or ()))
    if mine == theirs:
        failures.append("the two readings give the same optimum (a partial pair must differ)")
    if item.question != words.question(item.variant, rows, cols, scene["stem"], letters, list(item.options)):
        failures.append("the question is not the one the record gives (maze size, options)")
    array = pixels(images[0])
    layout = layout_of(item)
    failures += compare_cells(cells_with(array, layout, MOUSE, MIN_PIXELS), {mouse}, "the mouse")
    px = int(scene["geometry"]["font_px"])
    labels = [str(d) for d in range(1, 10)] + ["M"]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    shown = read_labels(array, [layout.cell_center(r, c) for r, c in cells], px, labels)
    for (r, c), seen in zip(cells, shown, strict=True):
        want = "M" if (r, c) == mouse else str(cheese.get((r, c), ""))
        if seen != want:
            failures.append(f"cell ({r + 1}, {c + 1}) shows {seen!r}, the record says {want!r}")
    closed = {frozenset(w) for w in walls}
    polar = layout.kind == "polar"
    edges, xs, ys = [], [], []
    for r in range(rows):
        for c in range(cols):
            for nr, nc in ((r, c + 1), (r + 1, c)):
                if nr >= rows or (nc >= cols and not polar):
                    continue
                edges.append((r, c, nr, nc % cols))
                for f in (0.3, 0.5, 0.7):  # a radial / vertical edge at column line c + 1 (the seam drawn at 0)
                    xs.append(c + 1 if nr == r else c + f)
                    ys.append(r + f if nr == r else r + 1)
    px_, py_ = layout.map_points(np.array(xs, float), np.array(ys, float))
    thick = thick_at_points(array, px_, py_).reshape(-1, 3).sum(axis=1) if edges else []
    for (r, c, nr, nc), count in zip(edges, thick, strict=True):
        wall = frozenset(((r, c), (nr, nc))) in closed
        if (count >= 2) != wall:
            failures.append(f"the edge between ({r + 1}, {c + 1}) and ({nr + 1}, {nc + 1}) is drawn "
                            f"{'thick' if count >= 2 else 'thin'}, but the record "
                            f"{'has' if wall else 'has no'} wall there")
    if not polar:
        x0, _y0, x1, _y1 = layout.grid_box()
        for r in range(rows):
            y = layout.cell_center(r, 0)[1]
            if not (thick_at(array, x0, y) and thick_at(array, x1, y)):
                failures.append(f"row {r + 1} is not closed by thick borders on both sides (the maze is bounded)")
    return failures
