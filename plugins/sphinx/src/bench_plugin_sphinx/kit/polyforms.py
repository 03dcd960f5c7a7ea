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

import bisect
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
    cells, corners = points.shape[:2]
    tx, ty = _group_images(points, name)
    i = np.rint(2 * (tx + -tx.min(axis=(1, 2), keepdims=True))).astype(np.int64)
    j = np.rint((ty + -ty.min(axis=(1, 2), keepdims=True)) / YSTEP[name]).astype(np.int64)
    keys = np.sort(i << KEY_BITS | j, axis=2).reshape(-1, corners)
    elements = len(GROUPS[name])
    view = np.repeat(np.arange(elements), cells)
    rows = keys[np.lexsort((*keys.T[::-1], view))].reshape(elements, cells * corners)
    least = rows[np.lexsort(rows.T[::-1])[0]].reshape(cells, corners)
    mask = (1 << KEY_BITS) - 1
    return tuple(tuple((k >> KEY_BITS, k & mask) for k in row) for row in least.tolist())


def _group_images(points: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of the cells ``points`` (cells, vertices, 2) under every element of ``GROUPS[name]``, each
    (elements, cells, vertices): the same float operations as ``transform`` (x negated when mirrored, then
    c x - s y and s x + c y), so the same values."""
    turns, flips = _group_arrays(name)
    x = points[None, :, :, 0] * flips[:, None, None]
    y = points[None, :, :, 1]
    c, s = turns[:, 0, None, None], turns[:, 1, None, None]
    return c * x - s * y, s * x + c * y


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
    of the tiling it is drawn in.  Cells are matched by their vertex means first (for every group element and
    every target cell its first cell's mean is moved onto, at once: ``_landings``), then by their whole
    vertex sets (``_fits``)."""
    x0, y0, _, _ = bounds(target)
    target = shift(target, -x0, -y0)
    centres = [_centroid(p) for p in target]
    views, means = _views(piece, name)
    landing = _landings(means, centres, name)
    found: set[int] = set()
    for hit, fits in zip(landing[3].tolist(), _fits(views, target, landing, name), strict=True):
        if fits and len(set(hit)) == len(hit):
            mask = 0
            for k in hit:
                mask |= 1 << k
            found.add(mask)
    return sorted(found)


def _views(piece: Sequence[Sequence[Point]], name: str) -> tuple[list | np.ndarray, np.ndarray]:
    """(the piece under every element of ``GROUPS[name]``, as ``transform_all`` gives it: an array (elements,
    cells, vertices, 2) when its cells have equal vertex counts, else lists; its cells' vertex means, (elements,
    cells, 2), as ``_centroid`` gives them: the vertices summed one after another from 0, then divided by their
    number)."""
    if len({len(p) for p in piece}) != 1:
        views = [transform_all(piece, turn, flip) for turn, flip in GROUPS[name]]
        return views, np.array([[_centroid(p) for p in moved] for moved in views], dtype=np.float64)
    xy = np.stack(_group_images(np.array(piece, dtype=np.float64), name), axis=-1)
    total = np.zeros((*xy.shape[:2], 2))
    for k in range(xy.shape[2]):
        total = total + xy[:, :, k]
    return xy, total / xy.shape[2]


def _landings(means: np.ndarray, centres: list[tuple[float, float]], name: str) -> tuple[np.ndarray, ...]:
    """(view, dx, dy, target cells hit) of every landing: a view v (its cells' vertex means ``means[v]``) moved
    by (dx, dy) so its first mean falls on a target cell's centre and every mean lands on a target cell's centre
    (``_centre_key`` equal); in the order view, then target cell.  The float operations are those of the
    cell-by-cell test: dx = cx - ax, then mx + dx, then ``_centre_key``."""
    index = {_centre_key(x, y, name): k for k, (x, y) in enumerate(centres)}
    table = np.array(list(index), dtype=np.int64).reshape(-1, 2)
    packed = table[:, 0] << 32 | (table[:, 1] & 0xFFFFFFFF)
    order = np.argsort(packed)
    packed, cells = packed[order], np.array(list(index.values()), dtype=np.int64)[order]
    c = np.array(centres, dtype=np.float64)  # (anchors, 2)
    dx = c[None, :, 0] - means[:, 0, None, 0]  # (views, anchors)
    dy = c[None, :, 1] - means[:, 0, None, 1]
    i = np.rint(6 * (means[:, None, :, 0] + dx[:, :, None])).astype(np.int64)  # (views, anchors, piece cells)
    j = np.rint(3 * (means[:, None, :, 1] + dy[:, :, None]) / YSTEP[name]).astype(np.int64)
    wanted = i << 32 | (j & 0xFFFFFFFF)
    at = np.minimum(np.searchsorted(packed, wanted), len(packed) - 1)
    v, a = np.nonzero((packed[at] == wanted).all(axis=2))
    return v, dx[v, a], dy[v, a], cells[at[v, a]].reshape(len(v), means.shape[1])


def _fits(views: list | np.ndarray, target: Sequence[Sequence[Point]], landing: tuple[np.ndarray, ...],
          name: str) -> list[bool]:
    """For each landing (``_landings``), whether every moved cell's ``cell_key`` equals its target cell's: the
    same operations (x + dx, then 2 x rounded; y + dy, then y / YSTEP rounded), for all landings at once when
    every cell of both has the same vertex count, the sorted packed keys compared (as the sorted pairs are)."""
    v, dx, dy, hit = landing
    if isinstance(views, np.ndarray) and {len(p) for p in target} == {views.shape[2]}:
        moved = views[v]  # (landings, cells, vertices, 2)
        i = np.rint(2 * (moved[..., 0] + dx[:, None, None])).astype(np.int64)
        j = np.rint((moved[..., 1] + dy[:, None, None]) / YSTEP[name]).astype(np.int64)
        keys = np.sort(i << 32 | (j & 0xFFFFFFFF), axis=2)
        ti = np.array([[round(2 * x) for x, _ in p] for p in target], dtype=np.int64)
        tj = np.array([[round(y / YSTEP[name]) for _, y in p] for p in target], dtype=np.int64)
        wanted = np.sort(ti << 32 | (tj & 0xFFFFFFFF), axis=1)
        return (keys == wanted[hit]).all(axis=(1, 2)).tolist()
    keys = [cell_key(p, name) for p in target]
    return [all(cell_key(p, name) == keys[k] for p, k in zip(shift(views[int(w)], float(x), float(y)), cells,
                                                             strict=True))
            for w, x, y, cells in zip(v, dx, dy, hit.tolist(), strict=True)]


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
    inner = {c: sorted(n for n in graph[c] if n in region) for c in cells}  # each cell's neighbours in the region
    rings: dict[tuple[int, ...], list[int]] = {}  # by the seeds so far: the cells farthest from them, or one less
    for _ in range(tries):
        seeds = [cells[int(rng.integers(len(cells)))]]
        while len(seeds) < len(sizes):
            if tuple(seeds) not in rings:
                far = _distances(seeds, inner)
                best = max(far[c] for c in cells if c not in seeds)
                rings[tuple(seeds)] = [c for c in cells if c not in seeds and far[c] >= best - 1]
            ring = rings[tuple(seeds)]
            seeds.append(ring[int(rng.integers(len(ring)))])
        order = rng.permutation(len(sizes))
        pieces = [[seeds[k]] for k in range(len(sizes))]  # each piece's cells, kept sorted
        want = [int(sizes[int(order[k])]) for k in range(len(sizes))]
        owner = {seeds[k]: k for k in range(len(sizes))}
        while len(owner) < len(cells):
            moves = [(k, n) for k, piece in enumerate(pieces) if len(piece) < want[k]
                     for c in piece for n in inner[c] if n not in owner]
            if not moves:
                break
            k, n = moves[int(rng.integers(len(moves)))]
            bisect.insort(pieces[k], n)
            owner[n] = k
        if len(owner) == len(cells) and all(len(p) == w for p, w in zip(pieces, want, strict=True)):
            return [set(piece) for piece in pieces]
    return None


def _distances(seeds: Sequence[int], inner: dict[int, list[int]]) -> dict[int, int]:
    """Each cell's number of steps from the nearest seed within the region whose cells' neighbours in it are
    ``inner`` (breadth-first; 0 for a cell no seed reaches)."""
    dist = {s: 0 for s in seeds}
    queue = list(seeds)
    for c in queue:
        for n in inner[c]:
            if n not in dist:
                dist[n] = dist[c] + 1
                queue.append(n)
    return {c: dist.get(c, 0) for c in inner}


def move(region: set[int], graph: dict[int, set[int]], rng: np.random.Generator,
         allowed: set[int] | None = None) -> set[int] | None:
    """``region`` with one cell moved: a cell whose removal keeps it connected leaves, and a cell next to what
    remains (in ``allowed``, default any; never the one that left) joins; None when no move exists."""
    leavers = _leavers(region, graph)
    order = rng.permutation(len(leavers))
    for k in order:
        rest = region - {leavers[int(k)]}
        joiners = sorted({n for c in rest for n in graph[c]} - region)
        if allowed is not None:
            joiners = [n for n in joiners if n in allowed]
        if joiners:
            return rest | {joiners[int(rng.integers(len(joiners)))]}
    return None


def _leavers(region: set[int], graph: dict[int, set[int]]) -> list[int]:
    """The cells of ``region`` whose removal leaves it connected (and non-empty), ascending: for a connected
    region of two or more cells, every cell but its cut vertices, found in one depth-first search (Hopcroft and
    Tarjan's low points); otherwise each cell tested on its own."""
    cells = sorted(region)
    if len(cells) < 2 or not connected(region, graph):
        return [c for c in cells if connected(region - {c}, graph)]
    root = cells[0]
    depth, low, cut, children = {root: 0}, {root: 0}, set(), 0
    stack = [(root, None, iter(graph[root]))]
    while stack:
        c, parent, todo = stack[-1]
        n = next((n for n in todo if n in region), None)
        if n is None:
            stack.pop()
            if parent is not None:
                low[parent] = min(low[parent], low[c])
                if parent != root and low[c] >= depth[parent]:
                    cut.add(parent)
        elif n not in depth:
            depth[n] = low[n] = depth[c] + 1
            children += c == root
            stack.append((n, c, iter(graph[n])))
        elif n != parent:
            low[c] = min(low[c], depth[n])
    if children > 1:
        cut.add(root)
    return [c for c in cells if c not in cut]


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
