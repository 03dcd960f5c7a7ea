"""``sphinx/tiles-recoloring`` (paper B.2.5, spec T10): how many cells differ between two boards?

Two framed copies of one tiling patch (square, circles, hexagonal, triangular or rhombille; 20..100 cells)
stand side by side, their cells in exactly the same places.  The left board holds a connected region of one
colour on a blank board (white cells) or on a board of a background colour.  A difference budget D (1..15,
or the one a difficulty level asks for) is spent on the right board: in the ``same_color`` variant cell by
cell on growing and shrinking the region (a cell joins next to the region, or leaves it without cutting it
in two; never the same cell twice); in the ``color_change`` variant part of it (at least one cell) on
recolouring cells the region keeps to a second colour.  The answer is D, the number of cells whose colour
differs.  Colours are palette colours at least ``COLOUR_GAP`` apart (no orange next to yellow).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import recolour_words as words
from bench_plugin_sphinx.kit import boards, complexity, indexed, tilings
from bench_plugin_sphinx.kit.distractors import near_misses
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import recoloring as verifier

TILINGS = ("square", "circles", "hexagonal", "triangular", "rhombille")
#: The tilings in one seeded order, repeated: any five consecutive items show all five (the released
#: generator's weights 1 : 1 : 0.75 : 0.25 : 0.25 would let a short run miss one).
TILING_CYCLE = TILINGS
VARIANTS = ("same_color", "color_change")
#: The paper's complexity range: the number of differing cells.
DIFF_RANGE = (1, 15)
BOARD_CELLS = (20, 100)
EDGE_PX, SIDE_RANGE, MARGIN = 34, (240, 500), 12
FRAME, GAP, OUTER = 4, 40, 10
#: Smallest RGB distance between two colours of one item (orange and yellow are closer: never together).
COLOUR_GAP = 120.0
ATTEMPTS = 60


@functools.lru_cache(maxsize=8)
def _boards(name: str) -> tuple[tuple[int, int, int], ...]:
    return tuple(boards.candidates(name, *BOARD_CELLS))


@functools.lru_cache(maxsize=256)
def patch(name: str, width: int, height: int) -> tuple[tilings.Tiling, dict[int, set[int]]]:
    """The patch and its cell adjacency (disks touch at points, so circles use point-touch adjacency); a pure
    function of its arguments, kept for reuse: callers must not change what it returns."""
    tiling = tilings.build(name, width, height)
    return tiling, tiling.adjacency(touch=name == "circles")


def distinct_colours(rng: np.random.Generator, count: int) -> list[str]:
    """``count`` palette colours, each pair at least COLOUR_GAP apart in RGB."""
    names = list(PALETTE)
    for _ in range(200):
        picked = [names[int(k)] for k in rng.permutation(len(names))[:count]]
        if all(np.linalg.norm(np.subtract(rgb(PALETTE[a]), rgb(PALETTE[b]))) >= COLOUR_GAP
               for a, b in itertools.combinations(picked, 2)):
            return picked
    raise GenerationError("tiles-recoloring: no set of distinct colours found")


def grow_region(graph: dict[int, set[int]], size: int, rng: np.random.Generator) -> set[int]:
    """A connected set of ``size`` cells grown by randomised breadth-first search from a random cell."""
    cells = sorted(graph)
    region = {cells[int(rng.integers(len(cells)))]}
    frontier = sorted(graph[next(iter(region))])
    while len(region) < size and frontier:
        pick = frontier.pop(int(rng.integers(len(frontier))))
        if pick in region:
            continue
        region.add(pick)
        frontier.extend(sorted(n for n in graph[pick] if n not in region))
    return region


def connected(cells: set[int], graph: dict[int, set[int]]) -> bool:
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


def edit_region(region: set[int], edits: int, graph, rng: np.random.Generator, keep: int) -> set[int] | None:
    """The region after ``edits`` single-cell changes (a cell joins next to it, or one of the original cells
    leaves without disconnecting it), each cell changed at most once, at least ``keep`` original cells kept;
    None when stuck."""
    current = set(region)
    for _ in range(edits):
        grow = sorted({n for c in current for n in graph[c]} - current - region)
        shrink = [c for c in sorted(current & region)
                  if len(current & region) > keep and connected(current - {c}, graph)]
        moves = [("add", c) for c in grow] + [("remove", c) for c in shrink]
        if not moves:
            return None
        kind, cell = moves[int(rng.integers(len(moves)))]
        if kind == "add":
            current.add(cell)
        else:
            current.discard(cell)
    return current


class TilesRecoloring(PaperSets, task="tiles-recoloring"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILING_CYCLE, "tiling-order")
        variant = params.get("variant") or cyclic(random, VARIANTS, "variant-order")
        level = params.get("difficulty")
        diff_values = list(range(DIFF_RANGE[0], DIFF_RANGE[1] + 1))
        if level is None:
            target = diff_values[int(rng.integers(len(diff_values)))]
        else:
            target = complexity.knob_for_level(level, diff_values, *DIFF_RANGE, rng)
        for _attempt in range(ATTEMPTS):
            built = self._boards(name, variant, target, rng)
            if built is not None:
                break
        else:
            raise GenerationError(f"tiles-recoloring: no {variant} pair of {name} boards with {target} changes")
        (width, height, _cells), left, right, colours, background = built
        scene = self._scene(name, width, height, left, right)
        scene.update(variant=variant, background=background, region_colours=colours)
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        record = complexity.record("differing_cells", target, *DIFF_RANGE)
        metadata = {"scene": scene, "tiling": name, "variant": variant, "differing": target, "complexity": record,
                    **({} if level is None else {"difficulty_knobs": {"differing_cells": target}})}
        return Problem(question=words.question(stem, name == "circles"), answer=str(target),
                       image_size=tuple(scene["image_size"]), params={**params, "tiling": name, "variant": variant},
                       answer_type="integer", metadata=metadata, structure=scene)

    def _boards(self, name, variant, target, rng):
        """(board, left colours, right colours, region colours, background) per cell, or None."""
        options = [o for o in _boards(name) if o[2] >= 2 * target + 10]
        width, height, cells = options[int(rng.integers(len(options)))]
        graph = patch(name, width, height)[1]
        recolour = 0 if variant == "same_color" else int(rng.integers(1, target + 1))
        low = max(3, recolour + 1)
        size = int(rng.integers(low, max(low, int(0.45 * cells)) + 1))
        region = grow_region(graph, size, rng)
        if len(region) < low:
            return None
        changed = edit_region(region, target - recolour, graph, rng, keep=recolour + 1)
        if changed is None:
            return None
        kept = sorted(region & changed)
        if len(kept) < recolour:
            return None
        recoloured = {kept[int(k)] for k in rng.permutation(len(kept))[:recolour]}
        blank = rng.random() < 0.5
        palette = distinct_colours(rng, 2 + (variant == "color_change"))
        colour_a = palette[0]
        colour_b = palette[-1] if variant == "color_change" else None
        background = None if blank else palette[1]
        left = [colour_a if c in region else background for c in range(cells)]
        right = [(colour_b if c in recoloured else colour_a) if c in changed else background for c in range(cells)]
        differing = sum(a != b for a, b in zip(left, right, strict=True))
        if differing != target:
            return None
        return (width, height, cells), left, right, [colour_a, *([colour_b] if colour_b else [])], background

    def _scene(self, name, width, height, left, right) -> dict[str, Any]:
        tiling = patch(name, width, height)[0]
        side = boards.canvas_side(tiling, EDGE_PX, MARGIN, *SIDE_RANGE)
        xy = boards.place(tiling, side, MARGIN)
        board = side + 2 * FRAME
        boxes = [[OUTER, OUTER, OUTER + board, OUTER + board],
                 [OUTER + board + GAP, OUTER, OUTER + 2 * board + GAP, OUTER + board]]
        return {"tiling": name, "width": width, "height": height, "cells": len(tiling.cells), "side": side,
                "frame": FRAME, "board_boxes": boxes, "vertices": xy.tolist(),
                "polygons": [list(c.verts) for c in tiling.cells], "left": left, "right": right,
                "image_size": [2 * board + GAP + 2 * OUTER, board + 2 * OUTER]}

    def render(self, problem):
        return [compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        """Near misses: one or two cells more or fewer."""
        return near_misses(problem.answer, count)

    def hardness(self, item):
        """The number of differing cells (the answer, the paper's complexity knob)."""
        return float(item.metadata["differing"])


def compose(scene: dict[str, Any]) -> Any:
    """The picture (a palette image): two framed boards, each cell filled with its colour (white when blank)
    and outlined 1 px black."""
    named = sorted({c for c in [*scene["left"], *scene["right"]] if c})
    white, black = (255, 255, 255), (0, 0, 0)
    board = indexed.canvas(tuple(scene["image_size"]), [white, black, *(rgb(PALETTE[n]) for n in named)])
    ink = {None: board.ink(white), **{n: board.ink(rgb(PALETTE[n])) for n in named}}
    xy = scene["vertices"]
    edges = sorted({tuple(sorted((p[k], p[(k + 1) % len(p)]))) for p in scene["polygons"] for k in range(len(p))})
    frame = scene["frame"]
    for (left, top, right, bottom), colours in zip(scene["board_boxes"], (scene["left"], scene["right"]), strict=True):
        board.draw.rectangle((left, top, right - 1, bottom - 1), outline=board.ink(black), width=frame)
        offset = (left + frame, top + frame)
        boards.draw_cells(board.draw, xy, scene["polygons"], [ink[c] for c in colours], offset=offset)
        boards.draw_outlines(board.draw, xy, edges, offset=offset, colour=board.ink(black))
    return board.image


TASK = TilesRecoloring()
