"""What the three topology tasks share (spec T21-T23): one board of flat-coloured cells and the cell graph the
generator works on.

A scene records the tiling, its patch size, the canvas side, every pooled corner in pixels (``vertices``, one
string ``"x,y x,y …"``), each cell's corners (``polygons``, one string ``"a,b,c,d e,f,g,h …"`` of corner
indices per cell; strings keep a circle packing's thousand corners cheap to write and read back) and each
cell's fill as ``#rrggbb`` (``fills``); ``compose`` draws exactly that: a white
canvas, every cell filled, every cell edge 1 px black, no anti-aliasing (each pixel has an exact colour).
A board's geometry (``drawn_patch``: its strings) and which cell or outline each pixel shows (``cell_map``, as
runs along the rows) are kept per board, so a picture is the runs coloured by the fills.
The generator's graph is the kit's (``tilings.Tiling.adjacency``: shared pooled edges, point touch for
disks); the verifiers never use it, they probe the picture.
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import GenerationError
from bench_plugin_sphinx.kit import boards, complexity, indexed, tilings
from bench_plugin_sphinx.kit.palette import PALETTE, rgb

MARGIN = 14
WHITE, BLACK = "#ffffff", "#000000"
#: The paper's complexity range of the board tasks: cells on the board.
CELL_RANGE = (9, 64)


@functools.lru_cache(maxsize=256)
def patch(name: str, width: int, height: int) -> tuple[tilings.Tiling, dict[int, set[int]], frozenset[int]]:
    """The patch, its dual graph (edge adjacency; point touch for circles) and its border cells (cells with an
    edge on the patch's outline).  A pure function of its arguments, kept for reuse: do not change the result."""
    tiling = tilings.build(name, width, height)
    edges = tiling.edges()
    border_cells = {c for cs in edges.values() if len(cs) == 1 for c in cs}
    return tiling, tiling.adjacency(touch=name == "circles", edges=edges), frozenset(border_cells)


@functools.lru_cache(maxsize=256)
def inner_cells(name: str, width: int, height: int) -> frozenset[int]:
    """Cells with no corner on the patch's outline (they touch the border nowhere, not even at a point)."""
    tiling = patch(name, width, height)[0]
    rim = {v for edge in tiling.border_edges() for v in edge}
    return frozenset(c.id for c in tiling.cells if not rim & set(c.verts))


@functools.lru_cache(maxsize=32)
def board_options(name: str, low: int, high: int) -> tuple[tuple[int, int, int], ...]:
    return tuple(boards.candidates(name, low, high))


def pick_board(name: str, level: float | None, rng: np.random.Generator, low: int = CELL_RANGE[0],
               high: int = CELL_RANGE[1]) -> tuple[int, int, int]:
    """A roughly square (width, height, cells) patch with low <= cells <= high: at a difficulty level the cell
    count nearest it within the paper's bin (c over ``CELL_RANGE``), otherwise any count, uniformly."""
    options = board_options(name, low, high)
    counts = sorted({cells for _, _, cells in options})
    if level is None:
        cells = counts[int(rng.integers(len(counts)))]
    else:
        cells = complexity.knob_for_level(level, counts, *CELL_RANGE, rng)
    fitting = [o for o in options if o[2] == cells]
    return fitting[int(rng.integers(len(fitting)))]


@functools.lru_cache(maxsize=256)
def neighbour_lists(name: str, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """The dual graph of ``patch`` as sorted tuples, indexed by cell (for fast walks)."""
    graph = patch(name, width, height)[1]
    return tuple(tuple(sorted(graph[c])) for c in range(len(graph)))


def colour_components(neighbours: tuple[tuple[int, ...], ...], colours: list[int]) -> dict[int, list[int]]:
    """Colour -> the sizes of its connected components (cells joined through neighbours of the same colour),
    in order of each component's smallest cell."""
    seen = [False] * len(colours)
    out: dict[int, list[int]] = {}
    for start, colour in enumerate(colours):
        if seen[start]:
            continue
        seen[start] = True
        stack, size = [start], 0
        while stack:
            cell = stack.pop()
            size += 1
            for n in neighbours[cell]:
                if not seen[n] and colours[n] == colour:
                    seen[n] = True
                    stack.append(n)
        out.setdefault(colour, []).append(size)
    return out


def components(cells: set[int] | frozenset[int], graph: dict[int, set[int]]) -> list[set[int]]:
    """The connected components of ``cells`` in ``graph``, in order of their smallest cell."""
    left, out = set(cells), []
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        comp, queue = {start}, deque([start])
        while queue:
            for n in graph[queue.popleft()]:
                if n in left:
                    left.discard(n)
                    comp.add(n)
                    queue.append(n)
        out.append(comp)
    return out


def distances(graph: dict[int, set[int]], allowed: set[int], start: int) -> dict[int, int]:
    """Breadth-first moves from ``start`` to every cell of ``allowed`` it reaches through ``allowed``."""
    dist, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        for n in graph[cell]:
            if n in allowed and n not in dist:
                dist[n] = dist[cell] + 1
                queue.append(n)
    return dist


def grow(graph: dict[int, set[int]], allowed: set[int], seed: int, size: int, rng: np.random.Generator) -> set[int]:
    """A connected set of up to ``size`` cells of ``allowed`` grown from ``seed`` by randomised breadth-first
    search."""
    region, frontier = {seed}, sorted(n for n in graph[seed] if n in allowed)
    while len(region) < size and frontier:
        pick = frontier.pop(int(rng.integers(len(frontier))))
        if pick in region:
            continue
        region.add(pick)
        frontier.extend(sorted(n for n in graph[pick] if n in allowed and n not in region))
    return region


def scene(name: str, width: int, height: int, fills: list[str], edge_px: float,
          side_range: tuple[int, int]) -> dict[str, Any]:
    """The scene record of a board whose cell k is filled with ``fills[k]`` (``#rrggbb``)."""
    side, vertices, polygons, cells = drawn_patch(name, width, height, edge_px, tuple(side_range))
    return {"tiling": name, "width": width, "height": height, "cells": cells, "side": side,
            "vertices": vertices, "polygons": polygons, "fills": list(fills), "image_size": [side, side]}


@functools.lru_cache(maxsize=256)
def drawn_patch(name: str, width: int, height: int, edge_px: float,
                side_range: tuple[int, int]) -> tuple[int, str, str, int]:
    """(canvas side, the ``vertices`` string, the ``polygons`` string, cells) of the patch drawn with edges about
    ``edge_px`` long: the scene's geometry, a pure function of its arguments (kept for reuse)."""
    tiling = patch(name, width, height)[0]
    side = boards.canvas_side(tiling, edge_px, MARGIN, *side_range)
    xy = boards.place(tiling, side, MARGIN)
    return (side, " ".join(map("%g,%g".__mod__, map(tuple, xy.tolist()))),  # %g: format(x, "g"), faster
            " ".join(",".join(map(str, c.verts)) for c in tiling.cells), len(tiling.cells))


def unpack(scene_record: dict[str, Any]) -> tuple[list[tuple[float, float]], list[list[int]]]:
    """(corners in pixels, each cell's corner indices) from the record's compact strings."""
    corners = np.array(scene_record["vertices"].replace(",", " ").split(), dtype=float).reshape(-1, 2)
    return list(map(tuple, corners.tolist())), [[int(v) for v in cell.split(",")] for cell in
                                                scene_record["polygons"].split()]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    text = hex_colour.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def compose(scene_record: dict[str, Any]) -> Image.Image:
    """The picture (a palette image): white canvas, every cell filled with its colour, every edge 1 px black.
    Each pixel is its ``cell_map`` entry coloured: the background white, a cell its fill, an outline black."""
    fills = scene_record["fills"]
    named = sorted(set(fills) - {WHITE, BLACK})
    size = tuple(scene_record["image_size"])
    board = indexed.canvas(size, [_rgb(WHITE), _rgb(BLACK), *(_rgb(c) for c in named)])
    ink = {c: board.ink(_rgb(c)) for c in {WHITE, BLACK, *named}}
    if len(scene_record["polygons"].split()) != len(fills):
        raise ValueError(f"the scene has {len(fills)} fills for {len(scene_record['polygons'].split())} cells")
    values, lengths = cell_map(scene_record["vertices"], scene_record["polygons"], size)
    table = np.array([ink[WHITE], *(ink[c] for c in fills), ink[BLACK]], dtype=np.uint8)
    board.image.frombytes(np.repeat(table.take(values), lengths).tobytes())
    return board.image


@functools.lru_cache(maxsize=128)
def cell_map(vertices: str, polygons: str, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """What ``compose`` draws at each pixel of a board with these geometry strings, row after row as runs of
    one entry (each run's entry, its length; read-only): 0 the background, k + 1 cell k (the last cell whose
    fill covers the pixel), cells + 1 an outline (every cell filled in order, then every edge as a 1 px line, as
    the picture is drawn).  A pure function of its arguments, kept for reuse: a board's colourings differ only in
    the colour each entry gets."""
    xy, cells = unpack({"vertices": vertices, "polygons": polygons})
    outline = len(cells) + 1
    canvas = Image.new("L" if outline < 256 else "I", size, 0)
    draw = ImageDraw.Draw(canvas)
    boards.draw_cells(draw, xy, cells, range(1, outline))
    for run in _outline_runs(cells):
        draw.line([xy[v] for v in run], fill=outline, width=1)
    drawn = np.asarray(canvas).ravel()
    starts = np.flatnonzero(np.concatenate([[True], drawn[1:] != drawn[:-1]]))
    runs = drawn[starts].astype(np.int32), np.diff(np.append(starts, drawn.size)).astype(np.int32)
    for array in runs:
        array.flags.writeable = False
    return runs


def _outline_runs(cells: list[list[int]]) -> list[list[int]]:
    """Every cell's outline cut into runs of consecutive edges that each go from their lower corner to their
    higher one, each run as the corners it passes in that direction.  A 1 px polyline draws each of its segments
    as a line of its own would, so drawing the runs draws every edge from its lower corner to its higher (an edge
    two cells share is drawn twice, the same pixels in the same colour)."""
    runs = []
    for corners in cells:
        ring = [*corners, corners[0]]
        run = ring[:2]
        for v in ring[2:]:
            if (v > run[-1]) == (run[-1] > run[-2]):
                run.append(v)
            else:
                runs.append(run if run[-1] > run[0] else run[::-1])
                run = [run[-1], v]
        runs.append(run if run[-1] > run[0] else run[::-1])
    return runs


#: Region colours: the palette without gray (too near the near-black holes of tiles geometry at a glance).
REGION_COLOURS = tuple(n for n in PALETTE if n != "gray")
COLOUR_GAP = 120.0


@functools.cache
def _close_pairs() -> frozenset[tuple[str, str]]:
    """Ordered pairs of palette colours nearer than COLOUR_GAP in RGB."""
    return frozenset((a, b) for a in PALETTE for b in PALETTE
                     if a != b and np.linalg.norm(np.subtract(rgb(PALETTE[a]), rgb(PALETTE[b]))) < COLOUR_GAP)


def pick_colours(rng: np.random.Generator, count: int, pool: tuple[str, ...] = REGION_COLOURS) -> list[str]:
    """``count`` colour names of ``pool``, each pair at least COLOUR_GAP apart in RGB."""
    close = _close_pairs()
    for _ in range(400):
        picked = [pool[int(k)] for k in rng.permutation(len(pool))[:count]]
        if not any((a, b) in close for a, b in itertools.combinations(picked, 2)):
            return picked
    raise GenerationError(f"no {count} palette colours at least {COLOUR_GAP} apart")
