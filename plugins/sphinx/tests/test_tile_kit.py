"""The tile-task kit: board sizes and placement, edge paths, palette canvases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from bench_plugin_sphinx.kit import boards, edgepaths, indexed, tilings
from PIL import Image

from bench_core import decode_png, encode_png


@pytest.mark.parametrize("name", ["square", "triangular", "hexagonal", "rhombille", "circles"])
def test_extent_and_candidates_match_the_built_patches(name):
    options = boards.candidates(name, 9, 100)
    assert options
    for width, height, cells in options[:: max(1, len(options) // 6)]:
        tiling = tilings.build(name, width, height)
        assert len(tiling.cells) == cells == boards.cell_count(name, width, height)
        x0, y0, x1, y1 = tiling.bounds()
        assert boards.extent(name, width, height) == pytest.approx((x1 - x0, y1 - y0), abs=1e-6)
        w, h = x1 - x0, y1 - y0
        assert max(w / h, h / w) <= boards.ASPECT


def test_place_centres_the_patch_inside_the_margin():
    tiling = tilings.build("hexagonal", 5, 4)
    xy = boards.place(tiling, 400, 20)
    assert xy.min() >= 20 - 1e-6 and xy.max() <= 380 + 1e-6
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    assert (lo + hi) / 2 == pytest.approx((200, 200), abs=0.02)


@pytest.mark.parametrize("name", ["square", "triangular", "hexagonal", "rhombille"])
def test_edge_paths_are_vertex_simple_and_edge_disjoint(name):
    tiling = tilings.build(name, 6, 5)
    graph = tiling.vertex_graph()
    rng = np.random.default_rng(7)
    for _ in range(30):
        used: set = set()
        for length in (12, 9, 7, 5):
            path = edgepaths.sample_path(graph, length, used, rng)
            if path is None:
                continue
            edges = edgepaths.path_edges(path)
            assert edgepaths.is_simple(path) and len(path) - 1 <= length
            assert all(b in graph[a] for a, b in edges), "every step is a tile edge"
            assert not used & set(edges), "no edge of another line"
            used.update(edges)


def test_a_walk_stops_where_it_is_stuck():
    graph = {0: {1}, 1: {0, 2}, 2: {1}}
    assert edgepaths.walk(graph, 0, 10, set(), np.random.default_rng(0)) == [0, 1, 2]
    assert edgepaths.walk(graph, 0, 10, {(0, 1)}, np.random.default_rng(0)) == [0]
    assert edgepaths.sample_path(graph, 5, {(0, 1), (1, 2)}, np.random.default_rng(0)) is None


def test_palette_canvas_round_trips_its_exact_colours():
    board = indexed.canvas((40, 30), [(255, 255, 255), (0, 0, 0), (230, 25, 75)])
    board.draw.rectangle((5, 5, 20, 20), fill=board.ink((230, 25, 75)))
    board.draw.line((0, 29, 39, 29), fill=board.ink((0, 0, 0)))
    rgb = np.asarray(decode_png(encode_png(board.image)).convert("RGB"))
    assert tuple(rgb[10, 10]) == (230, 25, 75) and tuple(rgb[29, 3]) == (0, 0, 0) and tuple(rgb[0, 0]) == (255,) * 3
    assert np.array_equal(rgb, np.asarray(board.image.convert("RGB")))
    with pytest.raises(KeyError):
        board.ink((1, 2, 3))
    assert isinstance(board.image, Image.Image) and board.image.mode == "P"


def _disk_corners(i, j):
    """Disk (i, j)'s corners computed one at a time, each from its own cosine and sine."""
    cx, cy = i + (0.5 if j % 2 else 0.0), j * math.sqrt(3.0) / 2
    sides = tilings.CIRCLE_SIDES
    return [
        (cx + 0.5 * math.cos(2 * math.pi * k / sides), cy + 0.5 * math.sin(2 * math.pi * k / sides))
        for k in range(sides)
    ]


def _pooled_point_by_point(name, width, height):
    """The patch's vertices pooled one point at a time (a dict of quantised keys, first appearance first)."""
    index, points, cells = {}, [], []
    for coord, corners, _kind in tilings._raw_cells(name, width, height):
        verts = []
        for x, y in _disk_corners(*coord) if name == "circles" else corners:
            key = (round(x / tilings.QUANTUM), round(y / tilings.QUANTUM))
            if key not in index:
                index[key] = len(points)
                points.append((key[0] * tilings.QUANTUM, key[1] * tilings.QUANTUM))
            verts.append(index[key])
        cells.append(tuple(verts))
    return tuple(points), cells


@pytest.mark.parametrize("name", tilings.NAMES)
def test_array_pooling_is_point_by_point_pooling(name):
    """``build`` pools every corner at once (numpy); the vertices, their numbering and every cell's corners are
    those of pooling the corners one at a time, for every patch size a board can take and a few beyond."""
    high = boards.DIMENSIONS[name][1]
    for width in range(1, high + 2):
        for height in range(1, high + 2, 3):
            tiling = tilings.build(name, width, height)
            points, cells = _pooled_point_by_point(name, width, height)
            assert tiling.vertices == points, (width, height)
            assert [c.verts for c in tiling.cells] == cells, (width, height)
