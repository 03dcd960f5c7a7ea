"""SPHINX tilings (paper A.3, spec 2.3): cells as shapely polygons over a pooled vertex array.

``build(name, width, height)`` returns a ``Tiling`` of one of ``NAMES`` in unit coordinates (x right, y down):

- ``circles``: equal disks on a triangular lattice, each a 24-gon whose vertices include the six tangency
  directions, so neighbouring disks share exactly one pooled vertex (they touch at a point, never along an
  edge);
- ``square``: unit squares, cell (i, j) = column i, row j;
- ``triangular``: equilateral triangles in rows, cell (i, j) pointing up when i + j is even;
- ``hexagonal``: flat-top hexagons, odd-q columns (odd columns half a cell lower);
- ``rhombille``: every flat-top hexagon cut into three 60/120-degree rhombi meeting at its centre.

Vertices are pooled by quantising their coordinates (``QUANTUM``), so that neighbouring cells share vertex
indices exactly; an edge is a sorted pair of vertex indices.  From that come shared-edge adjacency,
point-touch adjacency (any shared vertex), the dual graph, the vertex (primal) graph and the periodic colour
classes of each tiling (``colour_class``).
"""

from __future__ import annotations

import math
from collections import defaultdict

import attrs
import numpy as np
from shapely.geometry import Polygon

NAMES = ("circles", "square", "triangular", "hexagonal", "rhombille")
#: Coordinates are pooled on a grid of this step (unit cells are about 1 wide).
QUANTUM = 1e-6
CIRCLE_SIDES = 24
_SQ3 = math.sqrt(3.0)


@attrs.frozen
class Cell:
    """One tile: its index, lattice coordinate, the indices of its polygon's vertices (in order) and kind."""

    id: int
    coord: tuple[int, ...]
    verts: tuple[int, ...]
    kind: str


@attrs.frozen
class Tiling:
    """A patch of a tiling: pooled vertices (unit coordinates) and cells referring to them."""

    name: str
    width: int
    height: int
    vertices: tuple[tuple[float, float], ...]
    cells: tuple[Cell, ...]

    def polygon(self, cell: Cell) -> Polygon:
        """The exact polygon of ``cell``."""
        return Polygon([self.vertices[v] for v in cell.verts])

    def polygons(self) -> list[Polygon]:
        return [self.polygon(c) for c in self.cells]

    def cell_edges(self, cell: Cell) -> list[tuple[int, int]]:
        """The boundary edges of ``cell`` as sorted vertex-index pairs."""
        v = cell.verts
        return [(a, b) if a <= b else (b, a) for a, b in zip(v, v[1:] + v[:1], strict=True)]

    def edges(self) -> dict[tuple[int, int], list[int]]:
        """Every edge of the patch with the cells it bounds (one cell on the border, two inside)."""
        out: dict[tuple[int, int], list[int]] = {}
        for cell in self.cells:
            v = cell.verts
            for a, b in zip(v, v[1:] + v[:1], strict=True):  # ``cell_edges``, inlined
                out.setdefault((a, b) if a <= b else (b, a), []).append(cell.id)
        return out

    def border_edges(self) -> list[tuple[int, int]]:
        return sorted(e for e, cells in self.edges().items() if len(cells) == 1)

    def adjacency(self, touch: bool = False, edges: dict[tuple[int, int], list[int]] | None = None
                  ) -> dict[int, set[int]]:
        """The dual graph: cell id -> neighbours sharing a boundary edge, or with ``touch`` any vertex (the
        circle packing's notion, where disks meet at single points).  ``edges``: ``edges()``, when the caller
        has it already."""
        graph: dict[int, set[int]] = {c.id: set() for c in self.cells}
        if touch:
            by_vertex: dict[int, list[int]] = defaultdict(list)
            for cell in self.cells:
                for v in set(cell.verts):
                    by_vertex[v].append(cell.id)
            groups = by_vertex.values()
        else:
            groups = (self.edges() if edges is None else edges).values()
        for group in groups:
            if len(group) > 1:  # a corner or edge of one cell alone joins nothing
                for a in group:
                    graph[a].update(b for b in group if b != a)
        return graph

    def vertex_graph(self, edges: dict[tuple[int, int], list[int]] | None = None) -> dict[int, set[int]]:
        """The primal graph: vertex index -> vertices joined to it by a cell edge.  ``edges``: ``edges()``, when
        the caller has it already."""
        graph: dict[int, set[int]] = defaultdict(set)
        for a, b in self.edges() if edges is None else edges:
            graph[a].add(b)
            graph[b].add(a)
        return dict(graph)

    def colour_class(self, cell: Cell) -> int:
        """The periodic (Wythoffian) colour class of ``cell``: square ((i & 1) << 1) | (j & 1), triangular
        (i + 2j) mod 3, hexagonal (q - R) mod 3 with R = r - (q - (q & 1)) / 2 the axial row of the odd-q offset
        cell (so neighbours never share a class and every lattice translation maps a class onto one class),
        rhombille the rhombus's orientation (sector); circles have none (0)."""
        if self.name == "square":
            i, j = cell.coord
            return ((i & 1) << 1) | (j & 1)
        if self.name == "triangular":
            i, j = cell.coord
            return (i + 2 * j) % 3
        if self.name == "hexagonal":
            q, r = cell.coord
            return (q - (r - (q - (q & 1)) // 2)) % 3
        if self.name == "rhombille":
            return cell.coord[2]
        return 0

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [v[0] for v in self.vertices]
        ys = [v[1] for v in self.vertices]
        return min(xs), min(ys), max(xs), max(ys)


def _hex_centre(q: int, r: int) -> tuple[float, float]:
    return 1.5 * q, _SQ3 / 2 * (2 * r + (q & 1))


#: The unit hexagon's corners about its centre (cos, sin of 60 k degrees).
_HEX_UNIT = tuple((math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))) for k in range(6))


#: A disk's polygon corners about its centre (radius 0.5 times the cosine and sine of k turns / CIRCLE_SIDES).
_DISK_UNIT = tuple((0.5 * math.cos(2 * math.pi * k / CIRCLE_SIDES), 0.5 * math.sin(2 * math.pi * k / CIRCLE_SIDES))
                   for k in range(CIRCLE_SIDES))


def _hex_corners(cx: float, cy: float) -> list[tuple[float, float]]:
    return [(cx + dx, cy + dy) for dx, dy in _HEX_UNIT]


def _raw_cells(name: str, width: int, height: int) -> list[tuple[tuple[int, ...], list[tuple[float, float]], str]]:
    cells = []
    if name == "square":
        for j in range(height):
            for i in range(width):
                cells.append(((i, j), [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)], "square"))
    elif name == "triangular":
        h = _SQ3 / 2
        for j in range(height):
            for i in range(width):
                x = i / 2
                if (i + j) % 2 == 0:
                    cells.append(((i, j), [(x + 0.5, j * h), (x + 1, (j + 1) * h), (x, (j + 1) * h)], "up"))
                else:
                    cells.append(((i, j), [(x, j * h), (x + 1, j * h), (x + 0.5, (j + 1) * h)], "down"))
    elif name == "hexagonal":
        for r in range(height):
            for q in range(width):
                cells.append(((q, r), _hex_corners(*_hex_centre(q, r)), "hexagon"))
    elif name == "rhombille":
        for r in range(height):
            for q in range(width):
                cx, cy = _hex_centre(q, r)
                corners = _hex_corners(cx, cy)
                for sector in range(3):
                    a, b, c = corners[2 * sector], corners[2 * sector + 1], corners[(2 * sector + 2) % 6]
                    cells.append(((q, r, sector), [(cx, cy), a, b, c], "rhombus"))
    elif name == "circles":  # every disk's corners: its centre plus the same offsets (one array sum)
        coords = [(i, j) for j in range(height) for i in range(width)]
        centres = np.array([(i + (0.5 if j % 2 else 0.0), j * _SQ3 / 2) for i, j in coords])
        corners = centres[:, None, :] + np.array(_DISK_UNIT)[None, :, :]
        cells.extend((coord, pts, "disk") for coord, pts in zip(coords, corners, strict=True))
    else:
        raise ValueError(f"unknown tiling {name!r}; known: {', '.join(NAMES)}")
    return cells


def build(name: str, width: int, height: int) -> Tiling:
    """A ``width`` x ``height`` patch of the tiling ``name`` with pooled vertices."""
    if width < 1 or height < 1:
        raise ValueError(f"a tiling needs at least one column and row, got {width} x {height}")
    raw = _raw_cells(name, width, height)
    points, verts = pool(np.concatenate([np.asarray(pts, dtype=float) for _coord, pts, _kind in raw]))
    cells, at = [], 0
    for k, (coord, pts, kind) in enumerate(raw):
        cells.append(Cell(k, tuple(coord), tuple(verts[at: at + len(pts)]), kind))
        at += len(pts)
    return Tiling(name, width, height, points, tuple(cells))


def pool(points: np.ndarray) -> tuple[tuple[tuple[float, float], ...], list[int]]:
    """(the pooled vertices, each point's vertex index) of ``points`` (n x 2): points equal after quantisation
    (``QUANTUM``, rounding half to even as ``round`` does) share one vertex, numbered in order of first
    appearance, at the quantised coordinates."""
    keys = np.rint(points / QUANTUM).astype(np.int64)
    low = keys.min(axis=0)
    span = int(keys[:, 1].max() - low[1]) + 1
    _values, first, inverse = np.unique((keys[:, 0] - low[0]) * span + (keys[:, 1] - low[1]), return_index=True,
                                        return_inverse=True)
    order = np.argsort(first)  # the distinct keys in order of first appearance
    number = np.empty_like(order)
    number[order] = np.arange(len(order))
    pooled = keys[first[order]] * QUANTUM
    return tuple(map(tuple, pooled.tolist())), number[inverse.ravel()].tolist()


def fit(tiling: Tiling, size: tuple[int, int], margin: float) -> tuple[float, float, float]:
    """(scale, dx, dy) mapping the tiling's unit coordinates into a ``size`` canvas with ``margin`` pixels on
    every side, centred: pixel = unit * scale + offset."""
    x0, y0, x1, y1 = tiling.bounds()
    scale = min((size[0] - 2 * margin) / (x1 - x0), (size[1] - 2 * margin) / (y1 - y0))
    dx = (size[0] - (x1 - x0) * scale) / 2 - x0 * scale
    dy = (size[1] - (y1 - y0) * scale) / 2 - y0 * scale
    return scale, dx, dy
