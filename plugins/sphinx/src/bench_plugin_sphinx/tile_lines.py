"""What the two tile-line tasks share (spec T8, T9): the board (a tiling patch on a square white canvas, its
cell edges drawn 1 px black) and coloured lines along tile edges, 5 px wide, in distinct palette colours.

A scene records the tiling, its patch size, the canvas side, every pooled corner in pixels and the lines
(colour and the corners they pass, in order); ``compose`` draws exactly that.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from PIL import Image

from bench_plugin_sphinx.kit import boards, edgepaths, indexed, tilings
from bench_plugin_sphinx.kit.palette import PALETTE, rgb

LINE_WIDTH = 5
MARGIN = 18
#: Line colours: the palette without gray, which reads as a thick cell outline.
LINE_COLOURS = tuple(name for name in PALETTE if name != "gray")


@functools.lru_cache(maxsize=256)
def patch(name: str, width: int, height: int) -> tuple[tilings.Tiling, dict[int, set[int]], list[tuple[int, int]]]:
    """The tiling patch, its vertex graph and its edges (a pure function of its arguments, kept for reuse:
    callers must not change what it returns)."""
    tiling = tilings.build(name, width, height)
    edges = tiling.edges()
    return tiling, tiling.vertex_graph(edges), sorted(edges)


@functools.lru_cache(maxsize=256)
def trails(name: str, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """The patch's edges (``patch``'s, each from its lower vertex to its higher) chained into polylines that run
    up the vertex numbers, every edge in exactly one: a 1 px polyline draws each of its segments as a line of its
    own would, in the same direction, so drawing the chains draws exactly the edges (in far fewer calls)."""
    onward: dict[int, list[int]] = {}
    for a, b in patch(name, width, height)[2]:
        onward.setdefault(a, []).append(b)
    chains = []
    for start in sorted(onward):
        while onward.get(start):
            chain = [start]
            while onward.get(chain[-1]):
                chain.append(onward[chain[-1]].pop(0))
            chains.append(tuple(chain))
    return tuple(chains)


def board(name: str, width: int, height: int, edge_px: float, low: int, high: int) -> dict[str, Any]:
    """The scene's board part: the patch, the canvas side and the corners in pixels."""
    tiling = patch(name, width, height)[0]
    side = boards.canvas_side(tiling, edge_px, MARGIN, low, high)
    xy = boards.place(tiling, side, MARGIN)
    return {"tiling": name, "width": width, "height": height, "cells": len(tiling.cells), "side": side,
            "vertices": xy.tolist(), "line_width": LINE_WIDTH, "image_size": [side, side]}


def draw_lines(graph, count: int, lengths: list[int], rng: np.random.Generator,
               minimum: int = 2, used: set[edgepaths.Edge] | None = None) -> list[list[int]] | None:
    """``count`` vertex-simple, edge-disjoint paths toward ``lengths`` edges each, none with its two ends one
    tile edge apart and none on an edge of ``used``, or None if one fails."""
    used = set(used or ())
    paths = []
    for length in lengths[:count]:
        path = edgepaths.sample_path(graph, length, used, rng, minimum=minimum, ends_apart=True)
        if path is None:
            return None
        used.update(edgepaths.path_edges(path))
        paths.append(path)
    return paths


def compose(scene: dict[str, Any]) -> Image.Image:
    """The picture (a palette image): white canvas, every cell edge 1 px black, then the lines in their
    order."""
    side = scene["side"]
    xy = scene["vertices"]
    colours = [rgb(PALETTE[line["colour"]]) for line in scene["lines"]]
    board = indexed.canvas((side, side), [(255, 255, 255), (0, 0, 0), *colours])
    black = board.ink((0, 0, 0))
    for trail in trails(scene["tiling"], scene["width"], scene["height"]):
        board.draw.line([tuple(xy[v]) for v in trail], fill=black, width=1)
    for line, colour in zip(scene["lines"], colours, strict=True):
        points = [tuple(xy[v]) for v in line["path"]]
        board.draw.line(points, fill=board.ink(colour), width=scene["line_width"], joint="curve")
    return board.image
