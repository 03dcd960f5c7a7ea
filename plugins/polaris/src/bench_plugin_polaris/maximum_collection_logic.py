"""The logical instances of ``polaris/maximum-collection`` (spec card 51): a maze with cheese and a mouse.

A board of ``rows`` x ``cols`` cells (4..6 each) has walls on some edges between neighbouring cells; cells
carry 0..9 pieces of cheese (0 = none, drawn empty).  The mouse walks a *simple* path (no cell twice) from its
cell through open edges, stopping anywhere, and eats the cheese of every cell it visits: what is the most it
can eat?  Partially aligned (paper A.1): the Cartesian maze is bounded (its left and right borders are walls);
the polar maze wraps, sector ``cols`` meeting sector 1 across the seam except where a wall is drawn there, so
the polar optimum is higher.

The maze is a random spanning tree of the wrapping board with a few extra openings.  Both optima come from an
exhaustive depth-first search with a node budget (an instance whose search overflows it is rejected); the
verifier runs its own branch-and-bound search over the walls as recorded (``verifiers.maximum_collection``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

SIZES = (4, 6)
#: Extra openings beyond the spanning tree (loops), by difficulty.
LOOPS = (1, 4)
#: Share of cells (besides the mouse's) that carry cheese, and the cheese per cell.
CHEESE_SHARE = 0.6
CHEESE = (1, 9)
#: Depth-first search nodes allowed per reading; beyond it the instance is rejected (spec 9.2).
NODE_BUDGET = 60_000
OPTIONS = 5

Cell = tuple[int, int]
Edge = frozenset  # of two cells


def all_edges(rows: int, cols: int, wrap: bool) -> list[tuple[Cell, Cell]]:
    """Every edge between orthogonal neighbours, each once, in a fixed order; ``wrap`` adds the seam edges
    (column ``cols - 1`` to column 0 of each row)."""
    edges = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols or wrap:
                edges.append(((r, c), (r, (c + 1) % cols)))
            if r + 1 < rows:
                edges.append(((r, c), (r + 1, c)))
    return edges


def adjacency(rows: int, cols: int, walls: Iterable[Edge], wrap: bool) -> dict[Cell, list[Cell]]:
    """Open neighbours of each cell: the edges of the board (seam edges when ``wrap``) minus ``walls``."""
    closed = {frozenset(w) for w in walls}
    adj: dict[Cell, list[Cell]] = {(r, c): [] for r in range(rows) for c in range(cols)}
    for a, b in all_edges(rows, cols, wrap):
        if frozenset((a, b)) not in closed:
            adj[a].append(b)
            adj[b].append(a)
    return adj


def best_collection(adj: Mapping[Cell, list[Cell]], cheese: Mapping[Cell, int], start: Cell,
                    budget: int = NODE_BUDGET) -> tuple[int, list[Cell]] | None:
    """The most cheese a simple path from ``start`` collects and one such path, by exhaustive depth-first
    search; None when the search visits more than ``budget`` nodes."""
    best = [cheese.get(start, 0), [start]]
    nodes = 0
    path = [start]
    on_path = {start}

    def walk(cell: Cell, total: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if total > best[0]:
            best[0], best[1] = total, list(path)
        for nxt in adj[cell]:
            if nxt not in on_path:
                on_path.add(nxt)
                path.append(nxt)
                ok = walk(nxt, total + cheese.get(nxt, 0))
                path.pop()
                on_path.discard(nxt)
                if not ok:
                    return False
        return True

    if not walk(start, cheese.get(start, 0)):
        return None
    return best[0], best[1]


def spanning_walls(rows: int, cols: int, loops: int, rng) -> list[tuple[Cell, Cell]]:
    """Walls of a random maze on the wrapping board: every edge is a wall except those of a random spanning
    tree (randomised Kruskal) and ``loops`` further random edges."""
    edges = all_edges(rows, cols, wrap=True)
    order = [edges[int(i)] for i in rng.permutation(len(edges))]
    parent = {cell: cell for cell in ((r, c) for r in range(rows) for c in range(cols))}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    opened, rest = [], []
    for a, b in order:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
            opened.append((a, b))
        else:
            rest.append((a, b))
    return rest[loops:]


def sample(rng, rows: int, cols: int, loops: int) -> dict | None:
    """One maze, or None when a search overflows the node budget, the two optima are equal, or either optimum
    eats every piece of cheese it can reach (then summing the numbers would answer it).

    Returns ``{"rows", "cols", "walls": [[cell, cell]], "cheese": [[r, c, amount]], "mouse": [r, c],
    "bounded": optimum without the wrap, "wrapping": optimum with it, "paths": {"bounded", "wrapping"}}``."""
    walls = spanning_walls(rows, cols, loops, rng)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mouse = cells[int(rng.integers(len(cells)))]
    cheese = {}
    for cell in cells:
        if cell != mouse and rng.random() < CHEESE_SHARE:
            cheese[cell] = int(rng.integers(CHEESE[0], CHEESE[1] + 1))
    found = {}
    for name, wrap in (("bounded", False), ("wrapping", True)):
        adj = adjacency(rows, cols, map(frozenset, walls), wrap)
        result = best_collection(adj, cheese, mouse)
        if result is None:
            return None
        reachable = _reachable(adj, mouse)
        if result[0] == sum(cheese.get(cell, 0) for cell in reachable):
            return None
        found[name] = result
    if found["bounded"][0] == found["wrapping"][0]:
        return None
    return {"rows": rows, "cols": cols, "walls": [[list(a), list(b)] for a, b in walls],
            "cheese": [[r, c, v] for (r, c), v in sorted(cheese.items())], "mouse": list(mouse),
            "bounded": found["bounded"][0], "wrapping": found["wrapping"][0],
            "paths": {name: [list(cell) for cell in found[name][1]] for name in found}}


def _reachable(adj: Mapping[Cell, list[Cell]], start: Cell) -> set[Cell]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in adj[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
