"""Polyforms on a tiling (spec 2.3, 7.2 #10): connected sets of cells grown, split and moved on a patch's dual
graph, their congruence under the tiling's point group, and an exact-cover search that decides whether a
bag of pieces can be assembled into a target region.

A shape is handled as its cells' polygons (tuples of (x, y) unit-coordinate points).  The point group of a
tiling (``GROUPS``) is a list of (turn, flip): a reflection in the y axis when ``flip``, then a rotation by
``turn`` x 30 degrees about the origin (D4 for squares, D6 for the triangular, hexagonal and rhombille
tilings).  ``signature`` is the lexicographically least sorted tuple of cell keys (vertex sets in lattice
steps) over the group, the shape moved so its lowest x and y are 0: two shapes have one signature exactly
when an element of the group and a translation map every cell of one onto a cell of the other.
``assemble`` searches exact covers of a target by placed pieces (every piece used once, any group element,
any translation that lands each cell on a target cell), so "no distractor can be assembled" is proved, not
guessed from signatures.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

import numpy as np

Point = tuple[float, float]
Poly = tuple[Point, ...]
#: Every vertex of a tiling (and of its images under the tiling's group) has x a multiple of 0.5 and y a
#: multiple of the tiling's ``YSTEP``: keys are those integer multiples, so rounding never meets a half.
YSTEP = {"square": 0.5, "triangular": math.sqrt(3) / 2, "hexagonal": math.sqrt(3) / 2, "rhombille": math.sqrt(3) / 2}
GROUPS: dict[str, tuple[tuple[int, bool], ...]] = {
    "square": tuple((t, f) for f in (False, True) for t in (0, 3, 6, 9)),
    **{name: tuple((t, f) for f in (False, True) for t in (0, 2, 4, 6, 8, 10))
       for name in ("triangular", "hexagonal", "rhombille")},
}


def transform(poly: Sequence[Point], turn: int, flip: bool) -> Poly:
    """``poly`` mirrored in the y axis (x -> -x) when ``flip``, then turned by ``turn`` x 30 degrees."""
    c, s = math.cos(math.radians(30 * turn)), math.sin(math.radians(30 * turn))
    out = []
    for x, y in poly:
        x = -x if flip else x
        out.append((c * x - s * y, s * x + c * y))
    return tuple(out)


def transform_all(polys: Iterable[Sequence[Point]], turn: int, flip: bool) -> list[Poly]:
    return [transform(p, turn, flip) for p in polys]


def bounds(polys: Iterable[Sequence[Point]]) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) over every vertex."""
    pts = [p for poly in polys for p in poly]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def shift(polys: Iterable[Sequence[Point]], dx: float, dy: float) -> list[Poly]:
    return [tuple((x + dx, y + dy) for x, y in poly) for poly in polys]


def cell_key(poly: Sequence[Point], name: str) -> tuple[tuple[int, int], ...]:
    """A cell of tiling ``name`` as its sorted vertex set in lattice steps (x / 0.5, y / YSTEP): equal for the
    same cell whatever its vertex order."""
    step = YSTEP[name]
    return tuple(sorted((round(2 * x), round(y / step)) for x, y in poly))


def _normalised_keys(polys: Sequence[Sequence[Point]], name: str) -> tuple:
    x0, y0, _, _ = bounds(polys)
    return tuple(sorted(cell_key(p, name) for p in shift(polys, -x0, -y0)))


def signature(polys: Sequence[Sequence[Point]], name: str) -> tuple:
    """The shape's congruence signature under tiling ``name``'s point group (and any translation)."""
    if len({len(p) for p in polys}) != 1:
        return min(_normalised_keys(transform_all(polys, t, f), name) for t, f in GROUPS[name])
    return _signature_of_array(np.array(polys, dtype=np.float64), name)


#: A vertex key (i, j) of ``cell_key`` packed as one integer i << KEY_BITS | j (both are >= 0 once the shape is
#: moved to its lowest x and y), so packed keys sort as the pairs do.
KEY_BITS = 24


def _signature_of_array(points: np.ndarray, name: str) -> tuple:
    """``signature`` of cells that all have the same number of vertices, ``points`` (cells, vertices, 2): the
    same float operations as ``transform``, ``shift`` and ``cell_key`` (so the same keys), done for every group
    element at once; each cell's vertex keys sorted, the cells sorted, and the least view kept."""
    turns, flips = _group_arrays(name)
    cells, corners = points.shape[:2]
    x = points[None, :, :, 0] * flips[:, None, None]
    y = points[None, :, :, 1]
    c, s = turns[:, 0, None, None], turns[:, 1, None, None]
    tx, ty = c * x - s * y, s * x + c * y
    i = np.rint(2 * (tx + -tx.min(axis=(1, 2), keepdims=True))).astype(np.int64)
    j = np.rint((ty + -ty.min(axis=(1, 2), keepdims=True)) / YSTEP[name]).astype(np.int64)
    keys = np.sort(i << KEY_BITS | j, axis=2).reshape(-1, corners)
    view = np.repeat(np.arange(len(turns)), cells)
    rows = keys[np.lexsort((*keys.T[::-1], view))].reshape(len(turns), cells * corners)
    least = rows[np.lexsort(rows.T[::-1])[0]].reshape(cells, corners)
    mask = (1 << KEY_BITS) - 1
    return tuple(tuple((k >> KEY_BITS, k & mask) for k in row) for row in least.tolist())


@functools.lru_cache(maxsize=8)
def _group_arrays(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(cos, sin) of each turn of ``GROUPS[name]`` as ``transform`` computes them (elements x 2), and -1.0 for the
    mirrored elements, 1.0 for the others (negating x is exact either way)."""
    turns = np.array([(math.cos(math.radians(30 * t)), math.sin(math.radians(30 * t))) for t, _ in GROUPS[name]])
    flips = np.array([-1.0 if f else 1.0 for _, f in GROUPS[name]])
    return turns, flips


def congruent(a: Sequence[Sequence[Point]], b: Sequence[Sequence[Point]], name: str) -> bool:
    return len(a) == len(b) and signature(a, name) == signature(b, name)


def bag_signature(pieces: Sequence[Sequence[Sequence[Point]]], name: str) -> tuple:
    """The multiset of the pieces' signatures, sorted."""
    return tuple(sorted(signature(p, name) for p in pieces))


def _centroid(poly: Sequence[Point]) -> tuple[float, float]:
    return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)


def _centre_key(x: float, y: float, name: str) -> tuple[int, int]:
    """A cell's vertex mean in lattice steps (sixths of 0.5 across, thirds of YSTEP down): integers for every
    cell of the four tilings."""
    return round(6 * x), round(3 * y / YSTEP[name])


def placements(piece: Sequence[Sequence[Point]], target: Sequence[Sequence[Point]], name: str) -> list[int]:
    """Every distinct placement of ``piece`` on ``target`` (group element, then a translation landing each of
    its cells exactly on a target cell) as a bitmask over target cell indices.  The target is first moved
    so its lowest x and y are 0, which puts its vertices on the lattice steps of ``cell_key`` whatever view
    of the tiling it is drawn in.  Cells are matched by their vertex means first (stopping at the first miss),
    then by their whole vertex sets."""
    x0, y0, _, _ = bounds(target)
    target = shift(target, -x0, -y0)
    keys = [cell_key(p, name) for p in target]
    centres = [_centroid(p) for p in target]
    index = {_centre_key(x, y, name): k for k, (x, y) in enumerate(centres)}
    found: set[int] = set()
    for turn, flip in GROUPS[name]:
        moved = transform_all(piece, turn, flip)
        means = [_centroid(p) for p in moved]
        ax, ay = means[0]
        for cx, cy in centres:
            dx, dy = cx - ax, cy - ay
            mask, hit = 0, []
            for mx, my in means:
                k = index.get(_centre_key(mx + dx, my + dy, name))
                if k is None:
                    break
                hit.append(k)
                mask |= 1 << k
            else:
                if mask not in found and len(set(hit)) == len(hit) and all(
                        cell_key(p, name) == keys[k] for p, k in zip(shift(moved, dx, dy), hit, strict=True)):
                    found.add(mask)
    return sorted(found)


def assemble(pieces: Sequence[Sequence[Sequence[Point]]], target: Sequence[Sequence[Point]], name: str,
             limit: int = 200_000) -> list[int] | None:
    """One exact cover of ``target`` by ``pieces`` (each used once): the chosen placement bitmask per piece, or
    None when there is none.  Areas must add up; the search branches on the uncovered cell with the fewest
    placements.  Raises RuntimeError past ``limit`` search steps rather than answer unproved."""
    if sum(len(p) for p in pieces) != len(target):
        return None
    options = [placements(p, target, name) for p in pieces]
    if any(not o for o in options):
        return None
    full = (1 << len(target)) - 1
    steps = 0

    def search(covered: int, left: tuple[int, ...], chosen: dict[int, int]) -> dict[int, int] | None:
        nonlocal steps
        steps += 1
        if steps > limit:
            raise RuntimeError(f"exact cover search passed {limit} steps")
        if covered == full:
            return dict(chosen)
        best_cell, best = -1, None
        free = full & ~covered
        cell = free & -free
        while cell:
            fits = [(i, m) for i in left for m in options[i] if m & cell and not m & covered]
            if best is None or len(fits) < len(best):
                best_cell, best = cell, fits
                if not fits:
                    return None
            free &= ~cell
            cell = free & -free
        assert best_cell > 0
        for i, mask in best:
            chosen[i] = mask
            result = search(covered | mask, tuple(j for j in left if j != i), chosen)
            if result is not None:
                return result
            del chosen[i]
        return None

    result = search(0, tuple(range(len(pieces))), {})
    return None if result is None else [result[i] for i in range(len(pieces))]


def connected(cells: Iterable[int], graph: dict[int, set[int]]) -> bool:
    """Whether ``cells`` (non-empty) form one component of ``graph``."""
    cells = set(cells)
    if not cells:
        return False
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        for n in graph[stack.pop()]:
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


def grow(graph: dict[int, set[int]], size: int, rng: np.random.Generator, allowed: set[int] | None = None,
         start: int | None = None) -> set[int]:
    """A connected set of up to ``size`` cells of ``allowed`` (default: all) grown by randomised breadth-first
    search from ``start`` (default: a random allowed cell)."""
    pool = sorted(graph if allowed is None else allowed)
    seed = pool[int(rng.integers(len(pool)))] if start is None else start
    region, frontier = {seed}, sorted(n for n in graph[seed] if n in pool)
    pool_set = set(pool)
    while len(region) < size and frontier:
        pick = frontier.pop(int(rng.integers(len(frontier))))
        if pick in region:
            continue
        region.add(pick)
        frontier.extend(sorted(n for n in graph[pick] if n in pool_set and n not in region))
    return region


def split(region: set[int], graph: dict[int, set[int]], sizes: Sequence[int], rng: np.random.Generator,
          tries: int = 30) -> list[set[int]] | None:
    """``region`` cut into connected pieces of exactly ``sizes`` (summing to its size) by growing the pieces
    from far-apart seeds, each step adding a random frontier cell to a piece still short of its size; None
    when ``tries`` growths all get stuck."""
    cells = sorted(region)
    if sum(sizes) != len(cells):
        raise ValueError(f"piece sizes {list(sizes)} do not add up to the region's {len(cells)} cells")
    for _ in range(tries):
        seeds = [cells[int(rng.integers(len(cells)))]]
        while len(seeds) < len(sizes):
            far = _distances(seeds, region, graph)
            best = max(far[c] for c in cells if c not in seeds)
            ring = [c for c in cells if c not in seeds and far[c] >= best - 1]
            seeds.append(ring[int(rng.integers(len(ring)))])
        order = rng.permutation(len(sizes))
        pieces = [{seeds[k]} for k in range(len(sizes))]
        want = [int(sizes[int(order[k])]) for k in range(len(sizes))]
        owner = {seeds[k]: k for k in range(len(sizes))}
        while len(owner) < len(cells):
            moves = [(k, n) for k, piece in enumerate(pieces) if len(piece) < want[k]
                     for c in sorted(piece) for n in sorted(graph[c]) if n in region and n not in owner]
            if not moves:
                break
            k, n = moves[int(rng.integers(len(moves)))]
            pieces[k].add(n)
            owner[n] = k
        if len(owner) == len(cells) and all(len(p) == w for p, w in zip(pieces, want, strict=True)):
            return pieces
    return None


def _distances(seeds: Sequence[int], region: set[int], graph: dict[int, set[int]]) -> dict[int, int]:
    dist = {s: 0 for s in seeds}
    queue = list(seeds)
    for c in queue:
        for n in graph[c]:
            if n in region and n not in dist:
                dist[n] = dist[c] + 1
                queue.append(n)
    return {c: dist.get(c, 0) for c in region}


def move(region: set[int], graph: dict[int, set[int]], rng: np.random.Generator,
         allowed: set[int] | None = None) -> set[int] | None:
    """``region`` with one cell moved: a cell whose removal keeps it connected leaves, and a cell next to what
    remains (in ``allowed``, default any; never the one that left) joins; None when no move exists."""
    leavers = [c for c in sorted(region) if connected(region - {c}, graph)]
    order = rng.permutation(len(leavers))
    for k in order:
        rest = region - {leavers[int(k)]}
        joiners = sorted({n for c in rest for n in graph[c]} - region)
        if allowed is not None:
            joiners = [n for n in joiners if n in allowed]
        if joiners:
            return rest | {joiners[int(rng.integers(len(joiners)))]}
    return None


def balanced_sizes(total: int, parts: int, rng: np.random.Generator, smallest: int) -> list[int] | None:
    """``parts`` piece sizes, each at least ``smallest``, adding up to ``total``, shares drawn from a
    Dirichlet(1.2) (the released generator's); None when ``total`` is too small."""
    spare = total - parts * smallest
    if spare < 0:
        return None
    shares = rng.dirichlet([1.2] * parts) * spare
    sizes = [smallest + int(v) for v in np.floor(shares)]
    for k in np.argsort(-(shares - np.floor(shares)))[: total - sum(sizes)]:
        sizes[int(k)] += 1
    return sizes
