"""``sphinx/venn-diagram`` (paper B.2.1, spec T6): the sum of the numbers in a region of overlapping
rectangles.

Two to four axis-aligned rectangles (6 px outlines in distinct colours of the five-colour pool) are drawn on
a 1024 x 768 canvas, each new one overlapping an earlier one by at least ``MIN_OVERLAP`` px both ways, so
their union is connected; every pair of parallel edges is at least ``MIN_GAP`` px apart (no shared or
near-shared outlines and no slivers).  The edges cut the plane into a grid; grid cells inside the same
rectangles and joined side to side form one region (a membership pattern split in two gives two regions),
and each region gets one digit 1..9 in its largest grid cell, the font as large as fits.  The query is one
of the paper's four modes (only 0.4, intersection 0.4, but-not 0.1, union 0.1), drawn until it selects at
least one number; the answer is the sum of the numbers it selects.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from PIL import ImageFont

from bench_core import GenerationError, ParameterError, Problem
from bench_plugin_sphinx import venn_words as words
from bench_plugin_sphinx.kit import complexity, indexed
from bench_plugin_sphinx.kit.distractors import near_misses
from bench_plugin_sphinx.kit.palette import GEOMETRIC, phrase, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import venn as verifier

SIZE = (1024, 768)
MARGIN, LINE_WIDTH = 40, 6
MIN_GAP, MIN_OVERLAP = 46, 60
WIDTHS, HEIGHTS = (200, 560), (170, 430)
#: Digits: largest and smallest font size (px), and the clearance kept from a cell's outlines.
FONT_MAX, FONT_MIN, CLEARANCE = 46, 18, 7
COUNT_RANGE = (2, 4)
#: The query modes in one seeded order, repeated: any four consecutive items ask all four (the paper's weights
#: 0.4 : 0.4 : 0.1 : 0.1 would let a short run miss one).
MODE_CYCLE = ("only", "intersection", "butnot", "union")
ATTEMPTS, QUERY_ATTEMPTS = 300, 80


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def place_rectangles(count: int, rng: np.random.Generator) -> list[list[int]] | None:
    """``count`` boxes [x0, y0, x1, y1] (outline centre lines), or None when this draw breaks a rule."""
    boxes: list[list[int]] = []
    for k in range(count):
        for _try in range(60):
            w, h = int(rng.integers(*WIDTHS)), int(rng.integers(*HEIGHTS))
            x0 = int(rng.integers(MARGIN, SIZE[0] - MARGIN - w))
            y0 = int(rng.integers(MARGIN, SIZE[1] - MARGIN - h))
            box = [x0, y0, x0 + w, y0 + h]
            if k and not any(min(box[2], b[2]) - max(box[0], b[0]) >= MIN_OVERLAP
                             and min(box[3], b[3]) - max(box[1], b[1]) >= MIN_OVERLAP for b in boxes):
                continue
            xs = [v for b in [*boxes, box] for v in (b[0], b[2])]
            ys = [v for b in [*boxes, box] for v in (b[1], b[3])]
            if _spread(xs) and _spread(ys):
                boxes.append(box)
                break
        else:
            return None
    return boxes


def _spread(values: list[int]) -> bool:
    ordered = sorted(values)
    return all(b - a >= MIN_GAP for a, b in itertools.pairwise(ordered))


def regions(boxes: list[list[int]]) -> list[dict[str, Any]]:
    """The regions of the partition: each a membership mask (bit k: inside box k) and its grid cells
    [x0, y0, x1, y1], regions of mask 0 (outside every box) left out."""
    xs = sorted({v for b in boxes for v in (b[0], b[2])})
    ys = sorted({v for b in boxes for v in (b[1], b[3])})
    mask = {}
    for i in range(len(xs) - 1):
        for j in range(len(ys) - 1):
            cx, cy = (xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2
            mask[i, j] = sum(1 << k for k, b in enumerate(boxes) if b[0] < cx < b[2] and b[1] < cy < b[3])
    seen: set[tuple[int, int]] = set()
    out = []
    for start in sorted(mask):
        if start in seen or not mask[start]:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            i, j = stack.pop()
            group.append((i, j))
            for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if n in mask and n not in seen and mask[n] == mask[start]:
                    seen.add(n)
                    stack.append(n)
        cells = [[xs[i], ys[j], xs[i + 1], ys[j + 1]] for i, j in sorted(group)]
        out.append({"mask": mask[start], "cells": cells})
    return out


def fit_digit(cell: list[int]) -> int | None:
    """The largest font size (FONT_MIN..FONT_MAX) at which any digit, centred in ``cell``, keeps CLEARANCE px
    plus half the outline from its sides; None when even FONT_MIN does not fit."""
    w = cell[2] - cell[0] - 2 * (CLEARANCE + LINE_WIDTH // 2)
    h = cell[3] - cell[1] - 2 * (CLEARANCE + LINE_WIDTH // 2)
    for size in range(FONT_MAX, FONT_MIN - 1, -2):
        left, top, right, bottom = _font(size).getbbox("8", anchor="mm")
        if right - left <= w and bottom - top <= h:
            return size
    return None


def matches(mode: str, mask: int, inc: int, exc: int) -> bool:
    if mode == "only":
        return mask == inc
    if mode == "intersection":
        return mask & inc == inc
    if mode == "butnot":
        return mask & inc == inc and not mask & exc
    return bool(mask & inc)


def draw_query(mode: str, count: int, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """(include, exclude) box indices for ``mode`` (the paper's sizes: 1..3 included, at least 2 for an
    intersection; a but-not query excludes 1..2 of the others)."""
    order = [int(k) for k in rng.permutation(count)]
    if mode == "intersection":
        k_in = int(rng.integers(2, min(count, 3) + 1))
    elif mode == "butnot":
        k_in = int(rng.integers(1, min(count - 1, 2) + 1))
    else:
        k_in = int(rng.integers(1, min(count, 3) + 1))
    include, rest = sorted(order[:k_in]), order[k_in:]
    exclude = sorted(rest[: int(rng.integers(1, min(len(rest), 2) + 1))]) if mode == "butnot" else []
    return include, exclude


class VennDiagram(PaperSets, task="venn-diagram"):
    def check_params(self, params):
        if params.get("rectangles") is not None and params.get("difficulty") is not None:
            raise ParameterError("parameter 'difficulty': the difficulty level chooses the number of rectangles "
                                 "(2 or 3 easy, 4 hard); set either rectangles or difficulty, not both")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        counts = list(range(COUNT_RANGE[0], COUNT_RANGE[1] + 1))
        if params.get("rectangles"):
            count = int(params["rectangles"])
        elif level is not None:
            count = complexity.knob_for_level(level, counts, *COUNT_RANGE, rng)
        else:
            count = cyclic(random, tuple(counts), "count-order")
        mode = params.get("mode") or cyclic(random, MODE_CYCLE, "mode-order")
        for _attempt in range(ATTEMPTS):
            built = self._layout(count, rng)
            if built is not None:
                break
        else:
            raise GenerationError(f"venn-diagram: no layout of {count} rectangles in {ATTEMPTS} draws")
        boxes, numbers = built
        colours = [list(GEOMETRIC)[int(k)] for k in rng.permutation(len(GEOMETRIC))[:count]]
        for _q in range(QUERY_ATTEMPTS):
            include, exclude = draw_query(mode, count, rng)
            inc, exc = sum(1 << k for k in include), sum(1 << k for k in exclude)
            picked = [n for n in numbers if matches(mode, n["mask"], inc, exc)]
            if picked:
                break
        else:
            raise GenerationError(f"venn-diagram: no {mode} query selects a number")
        answer = sum(n["value"] for n in picked)
        names = [phrase(colours[k], GEOMETRIC) for k in range(count)]
        query = {"mode": mode, "include": [colours[k] for k in include], "exclude": [colours[k] for k in exclude]}
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        question = words.question(stem, mode, [names[k] for k in include], [names[k] for k in exclude])
        scene = {"rectangles": [{"colour": c, "box": b} for c, b in zip(colours, boxes, strict=True)],
                 "numbers": [{"value": n["value"], "at": n["at"], "size": n["size"]} for n in numbers],
                 "line_width": LINE_WIDTH, "query": query, "image_size": list(SIZE)}
        record = complexity.record("rectangles", count, *COUNT_RANGE)
        metadata = {"scene": scene, "rectangles": count, "mode": mode, "selected": len(picked),
                    "complexity": record, **({} if level is None else {"difficulty_knobs": {"rectangles": count}})}
        return Problem(question=question, answer=str(answer), image_size=SIZE,
                       params={**params, "rectangles": count, "mode": mode}, answer_type="integer",
                       metadata=metadata, structure=scene)

    def _layout(self, count, rng):
        """(boxes, numbers with their masks) or None when a region cannot hold a digit."""
        boxes = place_rectangles(count, rng)
        if boxes is None:
            return None
        numbers = []
        for region in regions(boxes):
            cell = max(region["cells"], key=lambda c: (c[2] - c[0]) * (c[3] - c[1]))
            size = fit_digit(cell)
            if size is None:
                return None
            at = [(cell[0] + cell[2]) // 2, (cell[1] + cell[3]) // 2]
            numbers.append({"value": int(rng.integers(1, 10)), "at": at, "size": size, "mask": region["mask"]})
        return boxes, numbers

    def render(self, problem):
        return [compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        """Near misses: the sum off by one or two (a number misread or counted in the wrong region gives
        larger slips, but these are the closest wrong answers)."""
        return near_misses(problem.answer, count)

    def hardness(self, item):
        """The number of rectangles (the paper's complexity knob)."""
        return float(item.metadata["rectangles"])


def compose(scene: dict[str, Any]) -> Any:
    """The picture (a palette image): the rectangles' outlines in order, then the digits in black, drawn
    without anti-aliasing."""
    colours = [rgb(GEOMETRIC[r["colour"]]) for r in scene["rectangles"]]
    board = indexed.canvas(tuple(scene["image_size"]), [(255, 255, 255), (0, 0, 0), *colours])
    w = scene["line_width"]
    for rect, colour in zip(scene["rectangles"], colours, strict=True):
        x0, y0, x1, y1 = rect["box"]
        board.draw.rectangle((x0 - w // 2, y0 - w // 2, x1 + w // 2 - 1, y1 + w // 2 - 1), outline=board.ink(colour),
                             width=w)
    board.draw.fontmode = "1"
    for number in scene["numbers"]:
        board.draw.text(tuple(number["at"]), str(number["value"]), fill=board.ink((0, 0, 0)),
                        font=_font(number["size"]), anchor="mm")
    return board.image


TASK = VennDiagram()
