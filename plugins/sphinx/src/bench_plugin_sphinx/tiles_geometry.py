"""``sphinx/tiles-geometry`` (paper B.5.1, spec T21): area, perimeter, holes, area difference or union perimeter
of coloured regions on a square, triangular or hexagonal board.

Queries (the paper's five):

- ``area``, ``perimeter``, ``area_difference``, ``union_perimeter``: two to four disjoint regions, each one
  connected group of cells (shared edges) in its own palette colour (colours at least 120 apart in RGB), each
  of 3..max(4, n/5) cells, together at most 65 % of the board (six cells on the smallest boards); for
  ``union_perimeter`` the two asked regions share at least one edge, so their union is one shape.  Perimeter
  counts the edges between a region cell and a cell outside it plus the region's edges on the board's border.
- ``holes``: one large region with 1..4 holes carved strictly inside it, drawn near-black: a hole is an
  edge-connected group of cells outside the region that does not touch the board's border; hole cells have no
  corner on the border, two holes may meet at a corner (they stay two holes), and every enclosed pocket of
  the complement is a drawn hole (a pocket left white is filled into the region).

The board has 9..64 cells (holes: 25..64), complexity c = (cells - 9) / 55, the paper's.
"""

from __future__ import annotations

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import tile_topology as topo
from bench_plugin_sphinx import topology_words as words
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.kit.palette import PALETTE, phrase
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.tile_topology import REGION_COLOURS, pick_colours
from bench_plugin_sphinx.verifiers import geometry as verifier

TILINGS = ("square", "triangular", "hexagonal")
QUERIES = ("area", "perimeter", "holes", "area_difference", "union_perimeter")
HOLE_FILL = "#1e1e1e"
HOLES_MIN_CELLS = 25
MAX_HOLES = 4
COVERAGE = 0.65
EDGE_PX, SIDE_RANGE = 44, (300, 450)
ATTEMPTS = 200


def perimeter(cells: set[int], graph: dict[int, set[int]], degree: int) -> int:
    """Edges of ``cells`` not shared with another cell of ``cells`` (border edges included)."""
    return sum(degree - len(graph[c] & cells) for c in cells)


def paint_regions(graph, cells: int, count: int, adjacent_pair: bool, rng) -> list[set[int]] | None:
    """``count`` disjoint connected regions of 3..max(4, cells/5) cells covering at most COVERAGE of the
    board (at least six cells: two regions fit on the smallest boards); with ``adjacent_pair`` the first two
    share an edge.  None when the board has no room."""
    low, high = 3, max(4, round(cells / 5))
    budget = max(2 * low, int(COVERAGE * cells))
    count = min(count, budget // low)
    free, regions = set(range(cells)), []
    for k in range(count):
        size = int(rng.integers(low, high + 1))
        if sum(map(len, regions)) + size > budget:
            return None
        if k == 1 and adjacent_pair:
            seeds = sorted({n for c in regions[0] for n in graph[c]} & free)
        else:
            seeds = sorted(free)
        if not seeds:
            return None
        region = topo.grow(graph, free, seeds[int(rng.integers(len(seeds)))], size, rng)
        if len(region) != size:
            return None
        regions.append(region)
        free -= region
    return regions


def carve_holes(graph, cells: int, inner: frozenset[int], border: frozenset[int], target: int,
                rng) -> tuple[set[int], list[set[int]]] | None:
    """(region, holes): one connected region with exactly ``target`` enclosed holes of 1..3 cells, every hole
    cell away from the border, or None."""
    start = sorted(inner)[int(rng.integers(len(inner)))]
    region = topo.grow(graph, set(range(cells)), start, int(rng.integers(int(0.55 * cells), int(0.85 * cells) + 1)),
                       rng)
    holes: list[set[int]] = []
    for _ in range(target):
        taken = set().union(*holes) if holes else set()
        near_taken = {n for c in taken for n in graph[c]} | taken
        options = sorted(c for c in region & inner if graph[c] <= region and c not in near_taken)
        if not options:
            return None
        hole = {options[int(rng.integers(len(options)))]}
        for _ in range(int(rng.integers(0, 3))):
            more = sorted(n for c in hole for n in graph[c] if n in region and n in inner and n not in near_taken
                          and n not in hole and graph[n] <= region | hole)
            if more:
                hole.add(more[int(rng.integers(len(more)))])
        region -= hole
        holes.append(hole)
    if len(topo.components(region, graph)) != 1:
        return None
    dark = set().union(*holes)
    outside = set(range(cells)) - region - dark
    for pocket in topo.components(outside, graph):
        if not pocket & border:
            region |= pocket  # a white pocket the region encloses: fill it, so every hole is drawn dark
    found = [c for c in topo.components(set(range(cells)) - region, graph) if not c & border]
    if len(found) != target or any(not c <= dark for c in found):
        return None
    return region, found


class TilesGeometry(PaperSets, task="tiles-geometry"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILINGS, "tiling-order")
        query = params.get("query") or cyclic(random, QUERIES, "query-order")
        level = params.get("difficulty")
        low = HOLES_MIN_CELLS if query == "holes" else topo.CELL_RANGE[0]
        for _attempt in range(ATTEMPTS):
            width, height, cells = topo.pick_board(name, level, rng, low=low)
            built = self._paint(name, width, height, cells, query, rng)
            if built is not None:
                break
        else:
            raise GenerationError(f"tiles-geometry: no {query} board of the {name} tiling found")
        fills, asked, answer = built
        scene = topo.scene(name, width, height, fills, EDGE_PX, SIDE_RANGE)
        names = {"c": phrase(asked[0])} if len(asked) == 1 else {"c1": phrase(asked[0]), "c2": phrase(asked[1])}
        stems = words.GEOMETRY_STEMS[query]
        question = words.geometry_question(stems[int(rng.integers(len(stems)))], query, **names)
        record = complexity.record("cells", cells, *topo.CELL_RANGE)
        metadata = {"scene": scene, "tiling": name, "query": query, "asked": asked, "complexity": record,
                    **({} if level is None else {"difficulty_knobs": {"cells": cells}})}
        return Problem(question=question, answer=str(answer), image_size=tuple(scene["image_size"]),
                       params={**params, "tiling": name, "query": query}, answer_type="integer", metadata=metadata,
                       structure=scene)

    def _paint(self, name, width, height, cells, query, rng):
        """(fills, asked colour names, answer) or None."""
        _tiling, graph, border = topo.patch(name, width, height)
        degree = {"square": 4, "triangular": 3, "hexagonal": 6}[name]
        if query == "holes":
            inner = topo.inner_cells(name, width, height)
            if not inner:
                return None
            most = min(MAX_HOLES, max(1, len(inner) // 4))
            target = int(rng.integers(1, most + 1))
            carved = carve_holes(graph, cells, inner, border, target, rng)
            if carved is None:
                return None
            region, holes = carved
            colour = pick_colours(rng, 1, tuple(n for n in REGION_COLOURS if n != "purple"))[0]
            dark = set().union(*holes)
            fills = [PALETTE[colour] if c in region else HOLE_FILL if c in dark else topo.WHITE for c in range(cells)]
            return fills, [colour], len(holes)
        count = int(rng.integers(2, 5))
        regions = paint_regions(graph, cells, count, query == "union_perimeter", rng)
        if regions is None:
            return None
        count = len(regions)
        colours = pick_colours(rng, count)
        fills = [topo.WHITE] * cells
        for region, colour in zip(regions, colours, strict=True):
            for c in region:
                fills[c] = PALETTE[colour]
        if query in ("area", "perimeter"):
            k = int(rng.integers(count))
            answer = len(regions[k]) if query == "area" else perimeter(regions[k], graph, degree)
            return fills, [colours[k]], answer
        if query == "union_perimeter":
            pair = [0, 1] if rng.random() < 0.5 else [1, 0]
            return fills, [colours[k] for k in pair], perimeter(regions[0] | regions[1], graph, degree)
        a, b = (int(k) for k in rng.permutation(count)[:2])
        return fills, [colours[a], colours[b]], abs(len(regions[a]) - len(regions[b]))

    def render(self, problem):
        return [topo.compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        """Near misses: one or two more or fewer."""
        answer = int(problem.answer)
        return [str(v) for v in (answer + 1, answer - 1, answer + 2, answer - 2) if v >= 0][:count]

    def hardness(self, item):
        """The number of cells on the board (the paper's complexity knob)."""
        return float(item.metadata["scene"]["cells"])


TASK = TilesGeometry()
