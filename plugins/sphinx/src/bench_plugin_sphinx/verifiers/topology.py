"""Reading a topology board (spec T21-T23) off its PNG: each cell's colour and the cell graph, by probing the
picture, never through the generator's adjacency (pooled edge keys).

The scene records the cells' corners in pixels (compact strings: ``vertices`` "x,y x,y …", ``polygons`` one
"a,b,c" group of corner indices per cell).  The verifier fills its own map of cells (each recorded polygon
with its number; pixels at or next to a black outline pixel are left out of the colour check),
reads each cell's colour at its centre pixel and requires the whole interior to show that one colour.
Every recorded cell edge must be drawn (a black pixel at or next to its midpoint).  Neighbours come from the
picture's geometry: from the midpoint of each edge of a cell the verifier steps ``PROBE`` px outward (away
from the cell's centre) and looks where it lands: inside another cell's interior (that cell shares the edge),
on a pixel no cell covers (the edge lies on the board's border), or elsewhere (the picture is not a board: a
failure).  Disks (circle packings) touch at single points, so two disks are neighbours when their centres lie
one diameter apart (within ``TOUCH_TOLERANCE`` px).  What comes from the recorded geometry alone (the map of
cells, centres, edges and the probed neighbours: ``_layout``) is kept per board; every picture's pixels are read
anew.
"""

from __future__ import annotations

import functools
import re
from collections import deque

import attrs
import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx.verifiers.pixels import image_keys

#: How far beyond an edge's midpoint the neighbour is looked up (px).
PROBE = 4.0
TOUCH_TOLERANCE = 1.5
HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


@attrs.frozen
class Board:
    """What the picture shows: each cell's colour (``#rrggbb``), its neighbours, and per cell how many of its
    edges lie on the board's border (disks: none)."""

    colours: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    border_edges: tuple[int, ...]
    #: Per cell, the neighbour across each of its edges (-1: the border), in edge order (empty for disks).
    sides: tuple[tuple[int, ...], ...]

    def cells_of(self, colour: str) -> set[int]:
        return {k for k, c in enumerate(self.colours) if c == colour.lower()}


def _hex_of(key: int) -> str:
    return f"#{key & 0xFF:02x}{(key >> 8) & 0xFF:02x}{(key >> 16) & 0xFF:02x}"


def question_colours(question: str) -> list[str]:
    """The ``#rrggbb`` colours a question names, in order, lower case."""
    return [h.lower() for h in HEX.findall(question)]


def read_board(scene: dict, image) -> tuple[Board | None, list[str]]:
    """(the board the picture shows, failures); the board is None when the picture cannot be read."""
    side = int(scene["side"])
    if image.size != (side, side):
        return None, [f"the picture is {image.size[0]}x{image.size[1]}, the scene records a {side} px board"]
    layout = _layout(side, scene["tiling"], scene["vertices"], scene["polygons"])
    if isinstance(layout, str):
        return None, [layout]
    keys = _keys(image)
    colours, mixed = _flat_colours(keys, layout)
    if mixed:
        return None, [f"{len(mixed)} cells do not show one flat colour (e.g. cell {mixed[0]})"]
    undrawn = _undrawn_edges(keys, layout)
    if undrawn:
        return None, [f"{len(undrawn)} recorded cell edges are not drawn in black (e.g. {undrawn[0]})"]
    if layout.failure:
        return None, [layout.failure]
    cell_keys = colours.tolist()
    names = {k: _hex_of(k) for k in set(cell_keys)}  # each colour written once
    return Board(tuple(names[k] for k in cell_keys), layout.neighbours, layout.border_edges, layout.sides), []


@attrs.frozen
class _Layout:
    """What the recorded geometry alone gives the reader (the same for every colouring of one board): the
    corners, the map of cell interiors as runs along its rows (each run's map value and length), each cell's
    centre pixel, the edge table, the pixels around each edge's midpoint, and the cell graph probed on the map
    (or ``failure``, why the map is not a board)."""

    xy: np.ndarray
    runs: tuple[np.ndarray, np.ndarray]
    centres: np.ndarray
    table: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    midpoints: np.ndarray
    neighbours: tuple[tuple[int, ...], ...]
    border_edges: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    failure: str


@functools.lru_cache(maxsize=128)
def _layout(side: int, tiling: str, vertices: str, polygons: str) -> _Layout | str:
    """The recorded geometry read into a ``_Layout`` (arrays read-only), or a failure message when the record's
    polygons cannot be a board: a pure function of the scene's geometry strings, kept for reuse."""
    xy = np.array(vertices.replace(",", " ").split(), dtype=float).reshape(-1, 2)
    cells = [[int(v) for v in cell.split(",")] for cell in polygons.split()]
    if not cells or max(max(p) for p in cells) >= len(xy):
        return "the scene's polygons refer to corners it does not record"
    ids = _interior(side, xy.tolist(), cells)
    table = _edge_table(xy, cells)
    centres = np.clip(np.rint(_centres(xy, cells)).astype(int), 0, side - 1)
    off = np.flatnonzero(ids[centres[:, 1], centres[:, 0]] != np.arange(1, len(cells) + 1)).tolist()
    if off:
        return f"{len(off)} recorded cells have no interior around their centre (e.g. cell {off[0]})"
    failure = ""
    if tiling == "circles":
        neighbours, sides, border = _touching(xy, cells), [() for _ in cells], [0] * len(cells)
    else:
        probed = _probe_edges(ids, ids == 0, xy, table, len(cells))
        if isinstance(probed, str):
            neighbours, sides, border, failure = [], [], [], probed
        else:
            sides = probed
            neighbours = [sorted({n for n in s if n >= 0}) for s in sides]
            border = [sum(n < 0 for n in s) for s in sides]
    asymmetric = [k for k, ns in enumerate(neighbours) if any(k not in neighbours[n] for n in ns)]
    if asymmetric and not failure:
        failure = f"cell {asymmetric[0]} sees a neighbour that does not see it back"
    runs, midpoints = _runs(ids), _midpoint_squares(xy, table, side)
    for array in (xy, *runs, centres, *table, midpoints):
        array.flags.writeable = False
    return _Layout(xy, runs, centres, table, midpoints, tuple(tuple(n) for n in neighbours), tuple(border),
                   tuple(tuple(s) for s in sides), failure)


def _keys(image) -> np.ndarray:
    """Each pixel's colour as one integer 0xBBGGRR (h x w); a palette image is read through its palette."""
    if image.mode == "P" and "transparency" not in image.info:
        palette = np.frombuffer(bytes(image.getpalette("RGB")), dtype=np.uint8).reshape(-1, 3).astype(np.uint32)
        table = palette[:, 0] | palette[:, 1] << 8 | palette[:, 2] << 16
        return table[np.asarray(image)]
    return image_keys(image if image.mode == "RGB" else image.convert("RGB"))


def _interior(side: int, points: list, polygons) -> np.ndarray:
    """(side x side) cell number + 1 at each pixel a recorded cell covers (every polygon filled with its
    number), 0 where none does."""
    canvas = Image.new("L" if len(polygons) < 255 else "I", (side, side), 0)  # a byte per pixel when it can
    draw = ImageDraw.Draw(canvas)
    for k, verts in enumerate(polygons):
        draw.polygon([tuple(points[v]) for v in verts], fill=k + 1, outline=k + 1)
    return np.asarray(canvas)


def _centres(xy: np.ndarray, polygons) -> np.ndarray:
    """Each cell's corner mean (n x 2)."""
    if len({len(v) for v in polygons}) == 1:
        return xy[np.asarray(polygons, dtype=np.int64)].mean(axis=1)
    return np.array([xy[v].mean(axis=0) for v in polygons])


def _edge_table(xy: np.ndarray, polygons) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every edge of every cell in order: (owning cell, first corner, second corner, the owner's centre)."""
    if len({len(v) for v in polygons}) == 1:  # one cell shape: whole-array operations
        corners = np.asarray(polygons, dtype=np.int64)
        owners = np.repeat(np.arange(len(corners)), corners.shape[1])
        centres = xy[corners].mean(axis=1)
        return owners, corners.ravel(), np.roll(corners, -1, axis=1).ravel(), centres[owners]
    owners = np.concatenate([np.full(len(v), k) for k, v in enumerate(polygons)])
    firsts = np.concatenate([np.asarray(v) for v in polygons])
    seconds = np.concatenate([np.roll(np.asarray(v), -1) for v in polygons])
    centres = np.array([xy[v].mean(axis=0) for v in polygons])
    return owners, firsts, seconds, centres[owners]


def _runs(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The map read row after row as runs of one value: (each run's value, its length in pixels)."""
    flat = ids.ravel()
    starts = np.flatnonzero(np.concatenate([[True], flat[1:] != flat[:-1]]))
    return flat[starts].astype(np.int32), np.diff(np.append(starts, flat.size)).astype(np.int32)


def _flat_colours(keys: np.ndarray, layout: _Layout) -> tuple[np.ndarray, list[int]]:
    """(each cell's colour key at its centre pixel; the cells whose interior shows another colour anywhere)."""
    centres, (values, lengths) = layout.centres, layout.runs
    ref = np.concatenate([np.zeros(1, keys.dtype), keys[centres[:, 1], centres[:, 0]]])
    off = keys != np.repeat(ref.take(values), lengths).reshape(keys.shape)  # each pixel's cell colour
    off &= keys != 0  # black outline pixels are not fills
    off &= np.repeat(values > 0, lengths).reshape(keys.shape)  # pixels a cell covers
    if not off.any():  # every covered pixel shows its cell's colour or black
        return ref[1:], []
    ids = np.repeat(values, lengths).reshape(keys.shape)
    ys, xs = np.nonzero(off)
    h, w = keys.shape
    clear = np.ones(len(ys), dtype=bool)  # no black pixel at or next to it (off the outlines)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            clear &= keys[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)] != 0
    return ref[1:], sorted({int(k) - 1 for k in np.unique(ids[ys[clear], xs[clear]])})


def _midpoint_squares(xy: np.ndarray, table, side: int) -> np.ndarray:
    """(edges x 9) the flat pixel indices of the 3 x 3 square around each recorded edge's midpoint
    (``_edge_table``; the square moved inside a ``side`` px picture)."""
    _owners, firsts, seconds, _centres = table
    mid = np.clip(np.rint((xy[firsts] + xy[seconds]) / 2).astype(np.int64), 1, side - 2)
    square = np.array([dy * side + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)], dtype=np.int64)
    return (mid[:, 1] * side + mid[:, 0])[:, None] + square[None, :]


def _undrawn_edges(keys: np.ndarray, layout: _Layout) -> list[tuple[int, int]]:
    """Recorded edges (``_edge_table``) with no black pixel at or next to their midpoint."""
    _owners, firsts, seconds, _centres = layout.table
    drawn = (keys.ravel().take(layout.midpoints) == 0).any(axis=1)
    return [(int(a), int(b)) for a, b in zip(firsts[~drawn], seconds[~drawn], strict=True)]


def _probe_edges(ids: np.ndarray, uncovered: np.ndarray, xy: np.ndarray, table, count: int) -> list[list[int]] | str:
    """Per cell (of ``count``), the cell beyond each of its edges (``_edge_table``; -1 for the border), or a
    failure message."""
    h, w = ids.shape
    owners, firsts, seconds, centres = table
    p, q = xy[firsts], xy[seconds]
    mid = (p + q) / 2
    normal = np.stack([q[:, 1] - p[:, 1], p[:, 0] - q[:, 0]], axis=1)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None]
    flip = np.einsum("ij,ij->i", normal, mid - centres) < 0
    normal[flip] *= -1
    probe = np.rint(mid + PROBE * normal).astype(int)
    inside = (probe[:, 0] >= 0) & (probe[:, 0] < w) & (probe[:, 1] >= 0) & (probe[:, 1] < h)
    x, y = np.clip(probe[:, 0], 0, w - 1), np.clip(probe[:, 1], 0, h - 1)
    border = ~inside | uncovered[y, x]
    found = np.where(border, 0, ids[y, x]).astype(np.int64)
    bad = ~border & ((found == 0) | (found == owners + 1))
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        return (f"the edge of cell {owners[k]} at ({mid[k][0]:.1f}, {mid[k][1]:.1f}) has neither a cell nor the "
                "border beyond it")
    beyond = np.where(border, -1, found - 1)
    out: list[list[int]] = [[] for _ in range(count)]
    for owner, cell in zip(owners.tolist(), beyond.tolist(), strict=True):
        out[owner].append(cell)
    return out


def _touching(xy: np.ndarray, polygons) -> list[list[int]]:
    """Disks whose centres lie one diameter apart (their outlines touch at a point)."""
    centres = _centres(xy, polygons)
    if len({len(v) for v in polygons}) == 1:  # one corner count: whole-array operations
        offsets = xy[np.asarray(polygons, dtype=np.int64)] - centres[:, None, :]
        radii = np.hypot(offsets[..., 0], offsets[..., 1]).mean(axis=1)
    else:
        radii = np.array([np.hypot(*(xy[v] - c).T).mean() for v, c in zip(polygons, centres, strict=True)])
    gaps = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) - radii[:, None] - radii[None, :]
    np.fill_diagonal(gaps, np.inf)
    out: list[list[int]] = [[] for _ in polygons]
    for disk, other in zip(*(k.tolist() for k in np.nonzero(np.abs(gaps) <= TOUCH_TOLERANCE)), strict=True):
        out[disk].append(other)  # row-major order: each disk's neighbours ascending
    return out


def flood(cells: set[int], board: Board) -> list[set[int]]:
    """The groups of ``cells`` joined through neighbours within ``cells`` (breadth-first flood fill)."""
    left, groups = set(cells), []
    while left:
        start = min(left)
        left.discard(start)
        group, queue = {start}, deque([start])
        while queue:
            for n in board.neighbours[queue.popleft()]:
                if n in left:
                    left.discard(n)
                    group.add(n)
                    queue.append(n)
        groups.append(group)
    return groups


def moves(board: Board, passable: set[int], start: int, end: int) -> int:
    """The fewest moves from ``start`` to ``end`` through ``passable`` cells, or -1."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        cell = queue.popleft()
        if cell == end:
            return seen[cell]
        for n in board.neighbours[cell]:
            if n in passable and n not in seen:
                seen[n] = seen[cell] + 1
                queue.append(n)
    return -1


def claimed_integer(item) -> tuple[int | None, list[str]]:
    try:
        return int(str(item.answer).strip()), []
    except ValueError:
        return None, [f"answer {item.answer!r} is not an integer"]
