"""``sphinx/tiles-composition`` (paper B.5.5, spec T25; held out in the paper): pieces and the shape they form.

A connected region R of s cells (s in [4p, 4p + 8]) is made by randomised breadth-first search on a square
or triangular patch and cut into p = 2..4 connected pieces (at least 3 cells each, sizes from a
Dirichlet(1.2) split) grown from far-apart seeds.  Two modes:

- ``decompose``: R on top; the options are bags of p pieces, the true bag and three bags of pieces of the
  same sizes cut from near misses of R;
- ``compose``: the bag on top; the options are shapes of s cells, R and three near misses of it.

R and its near misses are all one or two cell moves (a cell leaves without disconnecting, another joins next
to what remains) from a hidden base region, so the true option is drawn like the wrong ones: the blind audit
cannot pick it by compactness or ink.

Every wrong option is proved wrong by an exact-cover search (``kit.polyforms.assemble``): its bag cannot
tile R, or the true bag cannot tile it, under any rotations, reflections and placements.  Wrong options are
also pairwise non-congruent (bag signatures, shape signatures).  Every shown piece or shape is turned or
mirrored by a random element of the tiling's point group.  Colours: ``uniform`` (one palette colour) or
``random_per_cell`` (each cell of the patch has its own palette colour, kept wherever the cell is shown:
the paper's deliberate clue).  All panels share one cell size, and every card has the same size.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from PIL import Image

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import composition_words as words
from bench_plugin_sphinx.kit import complexity, indexed, layout, polyforms, tilings
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.kit.staggered import short_window, staggered
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import composition as verifier

TILINGS = ("square", "triangular")
#: Each tiling once per seeded cycle of two (the released weights are square 1 : triangular 0.5;
#: orthogonal_split, 0.25, is not a tiling of the kit).
TILING_CYCLE = TILINGS
MODES = words.MODES
COLOURINGS = ("uniform", "random_per_cell")
#: Each colouring once per seeded cycle of two (the released weights are uniform 0.75 : random_per_cell 0.25).
COLOURING_CYCLE = COLOURINGS
#: The released piece-count weights 0.5 : 0.35 : 0.15 as one seeded order of twenty.
PIECES_CYCLE = (2,) * 10 + (3,) * 7 + (4,) * 3
PIECES_RANGE = (2, 4)
PATCH = {"square": (9, 9), "triangular": (14, 8)}
SMALLEST = 3
EDGE_PX, MAX_WIDTH, GAP, TOP, FRAME, PAD, LABEL = 36, 2200, 40, 16, 4, 18, 48
ATTEMPTS = 60


@functools.lru_cache(maxsize=4)
def patch(name: str):
    """(edge adjacency, unit polygons) of the working patch of ``name``; callers must not change them."""
    tiling = tilings.build(name, *PATCH[name])
    return tiling.adjacency(), tuple(tuple(tiling.vertices[v] for v in c.verts) for c in tiling.cells)


def near_miss(region: set[int], graph, rng, moves: int) -> set[int] | None:
    out = set(region)
    for _ in range(moves):
        out = polyforms.move(out, graph, rng)
        if out is None:
            return None
    return out if out != region else None


class TilesComposition(PaperSets, task="tiles-composition"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILING_CYCLE, "tiling-order")
        mode = params.get("mode") or staggered(random, MODES, "mode-order", 2)
        colouring = params.get("colouring") or staggered(random, COLOURING_CYCLE, "colouring-order", 4)
        level = params.get("difficulty")
        if params.get("pieces") is not None:
            pieces = int(params["pieces"])
        elif level is not None:
            pieces = complexity.knob_for_level(level, range(2, 5), *PIECES_RANGE, rng)
        else:
            pieces = cyclic(random, PIECES_CYCLE, "pieces-order")
        position = random.balanced(4, "answer")
        for _attempt in range(ATTEMPTS):
            built = self._build(name, mode, pieces, rng)
            if built is not None:
                break
        else:
            raise GenerationError(f"tiles-composition: no {mode} item with {pieces} {name} pieces")
        region, bag, wrong = built
        polys = patch(name)[1]
        if colouring == "uniform":
            colour = list(PALETTE)[int(rng.integers(len(PALETTE)))]
            cell_colour = dict.fromkeys(range(len(polys)), colour)
        else:
            cell_colour = {c: list(PALETTE)[int(rng.integers(len(PALETTE)))] for c in range(len(polys))}
        group = polyforms.GROUPS[name]

        def shown(cells):
            view = group[int(rng.integers(len(group)))]
            cells = sorted(cells)
            return {"cells": cells, "view": view,
                    "polys": polyforms.transform_all([polys[c] for c in cells], *view),
                    "colours": [cell_colour[c] for c in cells]}

        if mode == "decompose":
            top = [shown(region)]
            true_option = [shown(p) for p in bag]
            options = [[shown(p) for p in w] for w in wrong]
        else:
            top = [shown(p) for p in bag]
            true_option = [shown(region)]
            options = [[shown(w)] for w in wrong]
        for option in options:
            order = rng.permutation(len(option))
            option[:] = [option[int(k)] for k in order]
        order = rng.permutation(len(true_option))
        true_option = [true_option[int(k)] for k in order]
        options.insert(position, true_option)
        scene = self._layout(name, mode, top, options)
        scene.update(colouring=colouring, pieces=pieces, region_cells=len(region),
                     option_provenance=[[{"cells": s["cells"], "turn_degrees": 30 * s["view"][0],
                                          "mirrored": s["view"][1]} for s in o] for o in options])
        stem = words.STEMS[mode][int(rng.integers(len(words.STEMS[mode])))]
        record = complexity.record("pieces", pieces, *PIECES_RANGE)
        metadata = {"scene": scene, "tiling": name, "mode": mode, "colouring": colouring, "pieces": pieces,
                    "region_cells": len(region), "complexity": record, "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"pieces": pieces}})}
        return Problem(question=words.question(mode, stem), answer="ABCD"[position],
                       image_size=tuple(scene["image_size"]),
                       params={**params, "tiling": name, "mode": mode, "colouring": colouring, "pieces": pieces},
                       options=("A", "B", "C", "D"), answer_type="option", metadata=metadata, structure=scene)

    def categorical_coverage(self, name, params, start, count):
        """The tiling alternates item by item; the mode too but for a repeat after every second item, the
        colouring after every fourth, so that all eight (tiling, mode, colouring) triples occur in any eight
        aligned items: a run of two across such a point shows one mode (colouring)."""
        block = {"mode": 2, "colouring": 4}.get(name)
        if block is not None and short_window(start, count, 2, block):
            return 1, (f"the {name} repeats once every {block} items so that it meets every tiling"
                       + (" and mode" if name == "colouring" else ""))
        return None

    def _build(self, name, mode, pieces, rng):
        """(region, its pieces, three wrong options: bags in decompose, regions in compose) or None.  A base
        region is grown first and kept hidden; the true region and every wrong option's region are each one or
        two cell moves from it, so the right option is drawn from the same distribution as the wrong ones
        (a wrong option made by moving cells of the true region would be less compact than it, a give-away)."""
        graph, polys = patch(name)
        size = int(rng.integers(4 * pieces, 4 * pieces + 9))
        base = polyforms.grow(graph, size, rng)
        if len(base) != size:
            return None
        region = near_miss(base, graph, rng, int(rng.integers(1, 3)))
        if region is None:
            return None
        sizes = polyforms.balanced_sizes(size, pieces, rng, SMALLEST)
        bag = polyforms.split(region, graph, sizes, rng)
        if bag is None:
            return None
        target = [polys[c] for c in sorted(region)]
        true_bag = [[polys[c] for c in sorted(p)] for p in bag]
        if mode == "decompose":
            seen = {polyforms.bag_signature(true_bag, name)}
        else:
            seen = {polyforms.signature(target, name)}
        wrong = []
        for _ in range(60):
            other = near_miss(base, graph, rng, int(rng.integers(1, 3)))
            if other is None:
                continue
            if mode == "decompose":
                cut = polyforms.split(other, graph, sizes, rng, tries=5)
                if cut is None:
                    continue
                shapes = [[polys[c] for c in sorted(p)] for p in cut]
                sig = polyforms.bag_signature(shapes, name)
                if sig in seen or polyforms.assemble(shapes, target, name) is not None:
                    continue
                wrong.append(cut)
            else:
                shape = [polys[c] for c in sorted(other)]
                sig = polyforms.signature(shape, name)
                if sig in seen or polyforms.assemble(true_bag, shape, name) is not None:
                    continue
                wrong.append(other)
            seen.add(sig)
            if len(wrong) == 3:
                return region, bag, wrong
        return None

    def _layout(self, name, mode, top, options) -> dict[str, Any]:
        """Cell size, card size and every shown shape's place (unit polygons, scale, offset)."""
        bag_side = "top" if mode == "compose" else "options"
        pieces = [s for o in options for s in o] if bag_side == "options" else top
        slot = [0.0, 0.0]
        for s in pieces:
            x0, y0, x1, y1 = polyforms.bounds(s["polys"])
            slot = [max(slot[0], x1 - x0 + 1.0), max(slot[1], y1 - y0 + 1.0)]
        n = len(top) if bag_side == "top" else len(options[0])
        cols = min(n, 2) if bag_side == "options" else n
        rows = math.ceil(n / cols)
        bag_units = (cols * slot[0], rows * slot[1])
        shapes = [o[0] for o in options] if bag_side == "top" else top
        whole = [0.0, 0.0]
        for s in shapes:
            x0, y0, x1, y1 = polyforms.bounds(s["polys"])
            whole = [max(whole[0], x1 - x0 + 1.0), max(whole[1], y1 - y0 + 1.0)]
        card_units = bag_units if bag_side == "options" else whole
        top_units = whole if bag_side == "options" else bag_units
        unit = min(EDGE_PX, (MAX_WIDTH - 5 * GAP) / 4 / card_units[0] - 1, (MAX_WIDTH - 2 * GAP) / top_units[0])
        unit = round(unit, 4)
        card = [math.ceil(card_units[0] * unit) + 2 * (FRAME + PAD),
                math.ceil(card_units[1] * unit) + 2 * (FRAME + PAD)]
        top_px = [math.ceil(top_units[0] * unit), math.ceil(top_units[1] * unit)]
        width = max(4 * card[0] + 5 * GAP, top_px[0] + 2 * GAP)
        card_top = TOP + top_px[1] + GAP
        boxes = []
        for k in range(4):
            left = (width - (4 * card[0] + 3 * GAP)) // 2 + k * (card[0] + GAP)
            boxes.append([left, card_top, left + card[0], card_top + card[1]])

        def place(shapes, box, grid):
            """Each shape centred in its slot of a cols x rows grid inside ``box``."""
            gcols, grows = grid
            left, top_, right, bottom = box
            sw, sh = (right - left) / gcols, (bottom - top_) / grows
            out = []
            for k, s in enumerate(shapes):
                cx, cy = left + sw * (k % gcols + 0.5), top_ + sh * (k // gcols + 0.5)
                x0, y0, x1, y1 = polyforms.bounds(s["polys"])
                out.append({"unit": [[[round(x, 6), round(y, 6)] for x, y in p] for p in s["polys"]], "scale": unit,
                            "offset": [round(cx - unit * (x0 + x1) / 2, 2), round(cy - unit * (y0 + y1) / 2, 2)],
                            "colours": list(s["colours"])})
            return out

        top_box = [(width - top_px[0]) // 2, TOP, (width - top_px[0]) // 2 + top_px[0], TOP + top_px[1]]
        inner = [[b[0] + FRAME + PAD, b[1] + FRAME + PAD, b[2] - FRAME - PAD, b[3] - FRAME - PAD] for b in boxes]
        if bag_side == "options":
            top_record = place(top, top_box, (1, 1))
            option_records = [place(o, box, (cols, rows)) for o, box in zip(options, inner, strict=True)]
        else:
            top_record = place(top, top_box, (cols, rows))
            option_records = [place(o, box, (1, 1)) for o, box in zip(options, inner, strict=True)]
        return {"image_size": [width, card_top + card[1] + 2 * LABEL + 4], "tiling": name, "mode": mode,
                "top_box": top_box, "top": top_record, "option_boxes": boxes, "options": option_records,
                "frame": FRAME, "label_size": LABEL}

    def render(self, problem):
        return [compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return [x for x in "ABCD" if x != problem.answer][:count]

    def hardness(self, item):
        """The number of pieces (the paper's complexity), then the region's size."""
        return float(item.metadata["pieces"]) + item.metadata["region_cells"] / 100


def pixel_polygons(record: dict[str, Any]) -> list[list[tuple[float, float]]]:
    s, (ox, oy) = record["scale"], record["offset"]
    return [[(round(x * s + ox, 2), round(y * s + oy, 2)) for x, y in poly] for poly in record["unit"]]


def compose(scene: dict[str, Any]) -> Image.Image:
    """The picture (a palette image): the top figure, the four framed cards and their labels, no
    anti-aliasing; every cell filled and outlined 1 px black."""
    shapes = [*scene["top"], *(s for o in scene["options"] for s in o)]
    names = sorted({c for s in shapes for c in s["colours"]})
    white, black = (255, 255, 255), (0, 0, 0)
    board = indexed.canvas(tuple(scene["image_size"]), [white, black, *(rgb(PALETTE[n]) for n in names)])
    draw = board.draw
    draw.fontmode = "1"
    ink = board.ink(black)
    for k, box in enumerate(scene["option_boxes"]):
        layout.frame(draw, tuple(box), scene["frame"], colour=ink)
        draw.text(((box[0] + box[2]) / 2, box[3] + scene["label_size"]), layout.label(k), fill=ink,
                  font=layout.font(scene["label_size"]), anchor="mm")
    for s in shapes:
        polys = pixel_polygons(s)
        for poly, colour in zip(polys, s["colours"], strict=True):
            draw.polygon(poly, fill=board.ink(rgb(PALETTE[colour])))
        for poly in polys:
            draw.line([*poly, poly[0]], fill=ink, width=1)
    return board.image


TASK = TilesComposition()
