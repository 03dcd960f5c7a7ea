"""``sphinx/missing-tiles`` (paper B.5.4, spec T24): a tiling with a connected blank region and four option
cards; which option fills it?

A square, triangular, hexagonal or rhombille board (16..64 cells, roughly square) loses a connected region of
k cells (k in [max(3, 8 % of n), max(3, min(24, 14 % of n))], grown by randomised breadth-first search among
the cells off the board's border, so every blank cell is enclosed by drawn cells and the rest of the board
stays in one piece).  Two variants:

- ``color``: the board is coloured by a periodic (lattice) colouring of the tiling: squares by the parity of
  their column and row (4 classes), triangles by (i + 2j) mod 3, hexagons by (q - r) mod 3 in axial
  coordinates, rhombi by their orientation (3 classes each), one palette colour per class.  The region spans
  at least two classes.  The options show the region in place, coloured by four different one-to-one
  assignments of the board's colours to the region's classes: the true one and three drawn uniformly from
  the rest, so no option is central to the others.
- ``shape``: the board has one colour; the options are the region and three other regions grown the same
  way on the same board (so they are alike in kind), none congruent to it or to each other under the
  tiling's point group, each shown turned or mirrored by a random element of that group.

All options share one cell size (the board's, or smaller when a shape would not fit its card).  Every two
colour options differ in at least one cell, in colours at least ``COLOUR_GAP`` apart in RGB (a whole-card
pixel measure would call a one-cell change "the same": the region fills a small part of its card); every two
shape options differ visibly (``kit.compare.distinct`` on the box around their ink).
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import missing_words as words
from bench_plugin_sphinx.kit import boards, channels, compare, complexity, indexed, layout, polyforms, tilings
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.kit.staggered import short_window, staggered
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import missing_tiles as verifier

TILINGS = ("square", "triangular", "hexagonal", "rhombille")
#: Every tiling once per seeded cycle of four (the released weights 1 : 0.75 : 0.75 : 0.25 would let a short
#: run miss the rhombille tiling).
TILING_CYCLE = TILINGS
VARIANTS = words.VARIANTS
BOARD_CELLS = (16, 64)
EDGE_PX, SIDE_RANGE, MARGIN = 44, (300, 470), 8
CARD, GAP, TOP, FRAME, PAD, LABEL = 300, 30, 14, 4, 22, 48
COLOUR_GAP = 120.0
#: The shape variant's smallest region per tiling: there are only 2 free trominoes and 4 pentiamonds, so
#: four pairwise non-congruent pieces need 4 squares, 6 triangles, 4 hexagons or 4 rhombi.
SHAPE_MIN = {"square": 4, "triangular": 6, "hexagonal": 4, "rhombille": 4}
#: Draws of the regions before giving up.  The shape variant on the 3x3 rhombille board succeeds in ~10 % of
#: draws (every other board >= 30 %), so 80 failed ~2.5e-4 of such items; 1,000 fail ~1e-46.  The draws are the
#: same up to the first success, so every item 80 draws found is unchanged.
ATTEMPTS = 1000


@functools.lru_cache(maxsize=8)
def _boards(name: str) -> tuple[tuple[int, int, int], ...]:
    return tuple(boards.candidates(name, *BOARD_CELLS))


@functools.lru_cache(maxsize=128)
def patch(name: str, width: int, height: int):
    """(tiling, edge adjacency, unit polygons, cells off the border, periodic class per cell); a pure function
    of its arguments, kept for reuse: callers must not change what it returns."""
    tiling = tilings.build(name, width, height)
    edges = tiling.edges()
    polys = tuple(tuple(tiling.vertices[v] for v in c.verts) for c in tiling.cells)
    border = {cells[0] for cells in edges.values() if len(cells) == 1}
    interior = frozenset(c.id for c in tiling.cells if c.id not in border)
    classes = tuple(periodic_class(tiling, c) for c in tiling.cells)
    return tiling, tiling.adjacency(edges=edges), polys, interior, classes


@functools.lru_cache(maxsize=128)
def _rounded_unit(name: str, width: int, height: int) -> tuple:
    """A board's unit polygons (``patch``'s) with every coordinate rounded to 6 places, kept per board (the scene
    records a fresh list of them)."""
    return tuple(tuple((round(x, 6), round(y, 6)) for x, y in poly) for poly in patch(name, width, height)[2])


def periodic_class(tiling: tilings.Tiling, cell: tilings.Cell) -> int:
    """The cell's class in the tiling's lattice colouring (a translation of the tiling moves every class to one
    class): ``Tiling.colour_class``."""
    return tiling.colour_class(cell)


def class_count(name: str) -> int:
    return 4 if name == "square" else 3


def hole_range(cells: int, name: str, variant: str) -> tuple[int, int]:
    """The blank region's size range on a board of ``cells``: [max(3, 8 % of n), max(low, min(24, 14 % of n))],
    raised in the shape variant to ``SHAPE_MIN`` (the fewest cells with four pieces no two congruent)."""
    low = max(3, math.ceil(0.08 * cells), SHAPE_MIN[name] if variant == "shape" else 3)
    return low, max(low, min(24, int(0.14 * cells)))


@functools.lru_cache(maxsize=128)
def room_of(name: str, width: int, height: int) -> int:
    """The largest edge-connected group of cells off the border."""
    _, graph, _, interior, _ = patch(name, width, height)
    left, best = set(interior), 0
    while left:
        start = left.pop()
        seen, stack = {start}, [start]
        while stack:
            for n in graph[stack.pop()]:
                if n in left and n not in seen:
                    seen.add(n)
                    left.discard(n)
                    stack.append(n)
        best = max(best, len(seen))
    return best


@functools.lru_cache(maxsize=256)
def fits(name: str, variant: str, board: tuple[int, int, int]) -> bool:
    """Whether the board has room off its border for the variant's region (twice over for the shape
    variant, whose wrong options are grown there too), and a trial of 30 cuts of the smallest size (a fixed
    generator: a property of the board, not of an item) succeeds at least 10 times."""
    room = room_of(name, board[0], board[1])
    low = hole_range(board[2], name, variant)[0]
    if room < (2 * low + 2 if variant == "shape" else low + 2):
        return False
    _, graph, polys, interior, _ = patch(name, board[0], board[1])
    trial = np.random.default_rng(0)
    return sum(cut(graph, interior, len(polys), low, trial) is not None for _ in range(30)) >= 10


def far_colours(rng: np.random.Generator, count: int) -> list[str]:
    """``count`` palette colours, each pair at least COLOUR_GAP apart in RGB."""
    names = list(PALETTE)
    for _ in range(300):
        picked = [names[int(k)] for k in rng.permutation(len(names))[:count]]
        if all(math.dist(rgb(PALETTE[a]), rgb(PALETTE[b])) >= COLOUR_GAP for a, b in itertools.combinations(picked, 2)):
            return picked
    raise GenerationError("missing-tiles: no set of far-apart colours found")


def cut(graph, interior, cells: int, k: int, rng) -> set[int] | None:
    """A connected region of ``k`` cells off the border whose removal leaves the board in one piece."""
    region = polyforms.grow(graph, k, rng, allowed=set(interior))
    if len(region) != k or not polyforms.connected(set(range(cells)) - region, graph):
        return None
    return region


class MissingTiles(PaperSets, task="missing-tiles"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILING_CYCLE, "tiling-order")
        variant = params.get("variant") or staggered(random, VARIANTS, "variant-order", len(TILINGS))
        level = params.get("difficulty")
        options = [b for b in _boards(name) if fits(name, variant, b)]
        if level is not None:
            n = complexity.knob_for_level(level, [b[2] for b in options], *BOARD_CELLS, rng)
            options = [b for b in options if b[2] == n]
        width, height, cells = options[int(rng.integers(len(options)))]
        position = random.balanced(4, "answer")
        for _attempt in range(ATTEMPTS):
            scene = self._scene(name, variant, width, height, position, rng)
            if scene is not None:
                break
        else:
            raise GenerationError(f"missing-tiles: no {variant} item on a {width} x {height} {name} board")
        stem = words.STEMS[variant][int(rng.integers(len(words.STEMS[variant])))]
        record = complexity.record("board_cells", cells, *BOARD_CELLS)
        metadata = {"scene": scene, "tiling": name, "variant": variant, "board_cells": cells,
                    "hole_cells": len(scene["hole"]), "complexity": record, "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"board_cells": cells}})}
        return Problem(question=words.question(variant, stem), answer="ABCD"[position],
                       image_size=tuple(scene["image_size"]), params={**params, "tiling": name, "variant": variant},
                       options=("A", "B", "C", "D"), answer_type="option", metadata=metadata, structure=scene)

    def categorical_coverage(self, name, params, start, count):
        """The variant alternates item by item but for one repeat at every fourth item (so that each tiling
        meets both variants within eight items): a run of two across that point shows one variant."""
        if name == "variant" and short_window(start, count, len(VARIANTS), len(TILINGS)):
            return 1, ("the variant repeats once every four items, where the tiling cycle restarts, so that every "
                       "tiling meets both variants")
        return None

    def _scene(self, name, variant, width, height, position, rng) -> dict[str, Any] | None:
        tiling, graph, polys, interior, classes = patch(name, width, height)
        n = len(polys)
        low, high = hole_range(n, name, variant)
        high = max(low, min(high, room_of(name, width, height) - 2))
        hole = cut(graph, interior, n, int(rng.integers(low, high + 1)), rng)
        if hole is None:
            return None
        order = sorted(hole)
        if variant == "color":
            if len({classes[c] for c in order}) < 2:
                return None
            palette = far_colours(rng, class_count(name))
            colours = [palette[classes[c]] for c in range(n)]
            present = sorted({classes[c] for c in order})
            truth = tuple(palette[k] for k in present)
            others = [a for a in itertools.permutations(palette, len(present)) if a != truth]
            picks = [others[int(k)] for k in rng.permutation(len(others))[:3]]
            assignments = [*picks[:position], truth, *picks[position:]]
            shapes = [[polys[c] for c in order]] * 4
            fills = [[a[present.index(classes[c])] for c in order] for a in assignments]
            provenance = [{"classes": dict(zip(map(str, present), a, strict=True))} for a in assignments]
        else:
            colour = far_colours(rng, 1)[0]
            colours = [colour] * n
            seen = {polyforms.signature([polys[c] for c in order], name)}
            others = []
            for _ in range(40):
                other = cut(graph, interior, n, len(order), rng)
                if other is None:
                    continue
                sig = polyforms.signature([polys[c] for c in sorted(other)], name)
                if sig not in seen:
                    seen.add(sig)
                    others.append(sorted(other))
                    if len(others) == 3:
                        break
            else:
                return None
            regions = [*others[:position], order, *others[position:]]
            group = polyforms.GROUPS[name]
            views = [group[int(rng.integers(len(group)))] for _ in range(4)]
            shapes = [polyforms.transform_all([polys[c] for c in r], *v) for r, v in zip(regions, views, strict=True)]
            fills = [[colour] * len(order)] * 4
            provenance = [{"cells": r, "turn_degrees": 30 * v[0], "mirrored": v[1]}
                          for r, v in zip(regions, views, strict=True)]
        for c in order:
            colours[c] = None
        scene = self._layout(name, tiling, (width, height), colours, order, shapes, fills)
        scene.update(variant=variant, width=width, height=height, option_provenance=provenance)
        if variant == "shape":
            crops = [option_picture(scene, k) for k in range(4)]
            inks = [channels.darkest(c) < 250 for c in crops]
            if not all(distinct_ink(crops[a], crops[b], inks[a] | inks[b]) for a in range(4) for b in range(a + 1, 4)):
                return None
        return scene

    def _layout(self, name, tiling, size, colours, hole, shapes, fills) -> dict[str, Any]:
        side = boards.canvas_side(tiling, EDGE_PX, MARGIN, *SIDE_RANGE)
        scale, dx, dy = tilings.fit(tiling, (side, side), MARGIN)
        width = 4 * CARD + 5 * GAP
        left = (width - side) // 2
        card_top = TOP + side + GAP
        inner = CARD - 2 * FRAME - 2 * PAD
        fit = min(inner / max(b[2] - b[0], b[3] - b[1]) for b in (polyforms.bounds(s) for s in shapes))
        unit = round(min(scale, fit), 4)
        boxes, option_records, rounded = [], [], {}
        for k, (shape, fill) in enumerate(zip(shapes, fills, strict=True)):
            x0 = GAP + k * (CARD + GAP)
            box = [x0, card_top, x0 + CARD, card_top + CARD]
            bx0, by0, bx1, by1 = polyforms.bounds(shape)
            offset = [round(x0 + CARD / 2 - unit * (bx0 + bx1) / 2, 2),
                      round(card_top + CARD / 2 - unit * (by0 + by1) / 2, 2)]
            boxes.append(box)
            if id(shape) not in rounded:  # the colour variant shows one shape four times
                rounded[id(shape)] = [[(round(x, 6), round(y, 6)) for x, y in p] for p in shape]
            option_records.append({"unit": [[list(point) for point in p] for p in rounded[id(shape)]],
                                   "scale": unit, "offset": offset, "colours": list(fill)})
        return {"image_size": [width, card_top + CARD + 2 * LABEL + 4], "tiling": name,
                "board": {"unit": [[list(point) for point in poly] for poly in _rounded_unit(name, *size)],
                          "scale": round(scale, 4), "offset": [round(left + dx, 2), round(TOP + dy, 2)],
                          "colours": colours},
                "hole": list(hole), "option_boxes": boxes, "options": option_records, "frame": FRAME,
                "label_size": LABEL}

    def render(self, problem):
        return [compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The number of board cells (the paper's complexity)."""
        return float(item.metadata["board_cells"])


def pixel_polygons(record: dict[str, Any]) -> list[list[tuple[float, float]]]:
    """A record's unit polygons in pixels: unit x scale + offset, rounded to 0.01 px as ``round(v, 2)`` rounds
    (numpy's rounding agrees but within a hair of a tie, where Python's is used)."""
    s, (ox, oy) = record["scale"], record["offset"]
    unit = record["unit"]
    if not unit or len({len(poly) for poly in unit}) != 1 or not len(unit[0]):
        return [[(round(x * s + ox, 2), round(y * s + oy, 2)) for x, y in poly] for poly in unit]
    xy = np.array(unit, dtype=np.float64) * float(s) + np.array([ox, oy], dtype=np.float64)
    out = np.round(xy, 2)
    scaled = xy * 100
    tie = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    if tie.any():
        out[tie] = [round(float(v), 2) for v in xy[tie]]
    return [list(map(tuple, poly)) for poly in out.tolist()]


def _draw_cells(draw: ImageDraw.ImageDraw, polys, inks, black: int) -> None:
    """Cells filled (ink None: left white and unoutlined), then every filled cell outlined 1 px."""
    for poly, ink in zip(polys, inks, strict=True):
        if ink is not None:
            draw.polygon(poly, fill=ink)
    for poly, ink in zip(polys, inks, strict=True):
        if ink is not None:
            draw.line([*poly, poly[0]], fill=black, width=1)


def compose(scene: dict[str, Any]) -> Image.Image:
    """The picture (a palette image): the board with its blank region, the four framed option cards and their
    labels (drawn without anti-aliasing)."""
    names = sorted({c for c in scene["board"]["colours"] if c} | {c for o in scene["options"] for c in o["colours"]})
    white, black = (255, 255, 255), (0, 0, 0)
    board = indexed.canvas(tuple(scene["image_size"]), [white, black, *(rgb(PALETTE[n]) for n in names)])
    ink = {None: None, **{n: board.ink(rgb(PALETTE[n])) for n in names}}
    draw = board.draw
    draw.fontmode = "1"
    _draw_cells(draw, pixel_polygons(scene["board"]), [ink[c] for c in scene["board"]["colours"]], board.ink(black))
    for k, (box, option) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        layout.frame(draw, tuple(box), scene["frame"], colour=board.ink(black))
        _draw_cells(draw, pixel_polygons(option), [ink[c] for c in option["colours"]], board.ink(black))
        draw.text(((box[0] + box[2]) / 2, box[3] + scene["label_size"]), layout.label(k), fill=board.ink(black),
                  font=layout.font(scene["label_size"]), anchor="mm")
    return board.image


def distinct_ink(a: np.ndarray, b: np.ndarray, ink: np.ndarray) -> bool:
    """``kit.compare.distinct`` on the two cards cut to the box around ``ink`` (the pixels inked in either), so
    the white margin of a card does not dilute a difference."""
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if not len(rows):
        return False
    box = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
    return compare.distinct(a[box], b[box])


def option_picture(scene: dict[str, Any], k: int) -> np.ndarray:
    """Option ``k``'s card drawn alone (RGB array), for the distinctness check."""
    left, top, right, bottom = scene["option_boxes"][k]
    option = dict(scene["options"][k])
    option["offset"] = [option["offset"][0] - left, option["offset"][1] - top]
    image = Image.new("RGB", (right - left, bottom - top), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    _draw_cells(draw, pixel_polygons(option), [rgb(PALETTE[c]) for c in option["colours"]], (0, 0, 0))
    return np.asarray(image)


TASK = MissingTiles()
