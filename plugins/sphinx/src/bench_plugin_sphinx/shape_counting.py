"""``sphinx/shape-counting`` (paper B.2.2, spec T7): how many squares (rectangles, parallelograms,
triangles) does one connected line figure hold?

A figure generator matched to the asked shape (``shape_figures``) draws the figure in lattice units and
counts the shape exactly; only figures whose count lies in the paper's bounds, 5..20, are used.  The figure
is fitted into the 640 x 480 canvas at a random scale and place, its cells tinted light (half the time)
and its lines drawn 4 px black.  The scene records the lines and circles in pixels, which is all the
renderer and the verifier read.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from bench_core import GenerationError, ParameterError, Problem
from bench_plugin_sphinx import shape_figures as figures
from bench_plugin_sphinx import shape_words as words
from bench_plugin_sphinx.kit import complexity, indexed
from bench_plugin_sphinx.kit.distractors import near_misses
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic, cyclic_at
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import shape_counting as verifier

SIZE = (640, 480)
MARGIN = 36
LINE_WIDTH = 4
#: The paper's bounds on the answer, which is also its complexity knob.
ANSWER_RANGE = (5, 20)
#: The asked shapes in one seeded order, repeated: any four consecutive items ask all four (the released
#: generator asks for squares most, which would let a short run miss one).
SHAPE_CYCLE = ("squares", "rectangles", "parallelograms", "triangles")
#: Tint of a cell: this share of a palette colour over white.
TINT = 0.3
ATTEMPTS = 400
#: With a difficulty level, figures are drawn until one's c lies this close to the level (in its bin).
LEVEL_TOLERANCE = 1 / 30


def tint(name: str) -> tuple[int, int, int]:
    return tuple(round(255 + TINT * (v - 255)) for v in rgb(PALETTE[name]))  # type: ignore[return-value]


def fit(figure: dict[str, Any], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(3 x 2 affine matrix, lattice -> pixel) placing the figure in the canvas at a random scale and place."""
    basis = np.array(figure["basis"], dtype=float)
    pts = np.array([p for seg in figure["segments"] for p in seg], dtype=float)
    if figure["circles"]:
        pts = np.vstack([pts, [[c[0] - c[2], c[1] - c[2]] for c in figure["circles"]],
                         [[c[0] + c[2], c[1] + c[2]] for c in figure["circles"]]])
    mapped = pts @ basis
    lo, hi = mapped.min(axis=0), mapped.max(axis=0)
    room = np.array(SIZE, dtype=float) - 2 * MARGIN
    scale = float(min(room / np.maximum(hi - lo, 1e-9))) * float(rng.uniform(0.78, 1.0))
    slack = room - (hi - lo) * scale
    offset = MARGIN + slack * rng.uniform(0.1, 0.9, 2) - lo * scale
    return basis * scale, offset


def _px(points, matrix, offset) -> list[list[float]]:
    return [[round(float(v), 2) for v in np.asarray(p, dtype=float) @ matrix + offset] for p in points]


def layout(figure: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """The figure's lines, circles and cells in pixels."""
    matrix, offset = fit(figure, rng)
    lines = [[*a, *b] for a, b in (_px(seg, matrix, offset) for seg in figure["segments"])]
    scale = float(np.linalg.norm(matrix[0]))
    circles = [[*_px([c[:2]], matrix, offset)[0], round(float(c[2]) * scale, 2)] for c in figure["circles"]]
    cells = [_px(cell, matrix, offset) for cell in figure["cells"]]
    return {"lines": lines, "circles": circles, "cells": cells}


def compose(scene: dict[str, Any]) -> Image.Image:
    """The picture (a palette image of white, black and the tint): tinted cells, then circles and lines in
    black, a disc at every line end."""
    colours = [(255, 255, 255), (0, 0, 0)] + ([tint(scene["fill"])] if scene["fill"] else [])
    board = indexed.canvas(tuple(scene["image_size"]), colours)
    draw, black = board.draw, board.ink((0, 0, 0))
    if scene["fill"]:
        colour = board.ink(tint(scene["fill"]))
        for cell in scene["cells"]:
            draw.polygon([tuple(p) for p in cell], fill=colour)
    w = scene["line_width"]
    for cx, cy, r in scene["circles"]:
        draw.ellipse((cx - r - w / 2, cy - r - w / 2, cx + r + w / 2, cy + r + w / 2), outline=black, width=w)
    for x1, y1, x2, y2 in scene["lines"]:
        draw.line((x1, y1, x2, y2), fill=black, width=w)
    for x1, y1, x2, y2 in scene["lines"]:
        for x, y in ((x1, y1), (x2, y2)):
            draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=black)
    return board.image


class ShapeCounting(PaperSets, task="shape-counting"):
    def check_params(self, params):
        shape, figure = params.get("shape"), params.get("figure")
        if shape and figure and figure not in figures.GENERATORS[shape]:
            serving = [s for s, table in figures.GENERATORS.items() if figure in table]
            raise ParameterError(f"figure={figure!r} does not serve shape={shape!r}: it is drawn for "
                                 f"{', '.join(serving)}; allowed figures for {shape}: "
                                 f"{', '.join(figures.GENERATORS[shape])}")

    def generate(self, params, random):
        self.check_params(params)
        rng = random.rng
        figure_name = params.get("figure")
        shape = params.get("shape")
        if shape is None:
            cycle = SHAPE_CYCLE if figure_name is None else tuple(
                s for s in SHAPE_CYCLE if figure_name in figures.GENERATORS[s])
            shape = cyclic(random, cycle, "shape-order")
        level = params.get("difficulty")
        if figure_name is None and level is None:  # the shape's figures in turn: its n-th item takes the n-th
            position = random.index if params.get("shape") else random.index // len(SHAPE_CYCLE)
            figure_name = cyclic_at(random, tuple(figures.GENERATORS[shape]), ("figure-order", shape), position)
        figure, count = self._figure(shape, figure_name, level, rng)
        fill = None if rng.random() < 0.5 else list(PALETTE)[int(rng.integers(len(PALETTE)))]
        scene = {"shape": shape, "figure": figure["name"], "fill": fill, "line_width": LINE_WIDTH,
                 "params": figure["params"], **layout(figure, rng), "image_size": list(SIZE)}
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        record = complexity.record("answer", count, *ANSWER_RANGE)
        metadata = {"scene": scene, "shape": shape, "figure": figure["name"], "count": count, "complexity": record,
                    **({} if level is None else {"difficulty_knobs": {"answer": count}})}
        return Problem(question=words.question(stem, shape), answer=str(count), image_size=SIZE,
                       params={**params, "shape": shape, "figure": figure["name"]}, answer_type="integer",
                       metadata=metadata, structure=scene)

    def categorical_coverage(self, name, params, start, count):
        """The asked shape is spread over the indices; the figure follows it (each shape's own figures in
        turn), so a run of n items shows each shape's figures about n / 4 times: triangles have one figure,
        parallelograms three, squares five and rectangles three of the squares' five.  No schedule can show
        every figure in any nine items while any four items ask all four shapes (tri_lattice would have to
        come twice in nine items, once per four)."""
        figure, shape = params.get("figure"), params.get("shape")
        if name == "shape" and figure is not None:
            serving = [s for s in SHAPE_CYCLE if figure in figures.GENERATORS[s]]
            return min(count, len(serving)), f"only {', '.join(serving)} can be counted in a {figure} figure"
        if name != "figure" or figure is not None or params.get("difficulty") is not None:
            return None if name != "figure" or figure is not None else (
                1, "with a difficulty level the figure is drawn for the level's counts")
        if shape is not None:
            return None if count <= len(figures.GENERATORS[shape]) else (
                len(figures.GENERATORS[shape]), f"{shape} are counted in {len(figures.GENERATORS[shape])} figures")
        per_shape = count // len(SHAPE_CYCLE)
        least = min(per_shape, 1) + min(per_shape, 3) + min(per_shape, 5) if per_shape else count - 1
        return max(1, least), ("the figure follows the asked shape (triangles one figure, parallelograms three, "
                               "squares five, rectangles three of the squares'), each shape's own in turn")

    def _figure(self, shape, figure_name, level, rng) -> tuple[dict[str, Any], int]:
        """A figure whose count of ``shape`` lies in ANSWER_RANGE (and, with a level, in the level's bin and as
        near the level as ATTEMPTS draws find)."""
        table = figures.GENERATORS[shape]
        names = [figure_name] if figure_name else list(table)
        weights = np.array([table[n] for n in names], dtype=float)
        best: tuple[float, dict[str, Any], int] | None = None
        for _attempt in range(ATTEMPTS):
            name = names[int(rng.choice(len(names), p=weights / weights.sum()))]
            figure = figures.draw(name, shape, rng)
            if figure is None:
                continue
            count = int(figure["counts"][shape])
            if not ANSWER_RANGE[0] <= count <= ANSWER_RANGE[1]:
                continue
            figure["name"] = name
            if level is None:
                return figure, count
            c = complexity.complexity(count, *ANSWER_RANGE)
            gap = abs(c - level) + (0 if complexity.band(c) == complexity.band(level) else 1)
            if best is None or gap < best[0]:
                best = (gap, figure, count)
            if gap <= LEVEL_TOLERANCE:
                break
        if best is None:
            raise GenerationError(f"shape-counting: no {shape} figure with {ANSWER_RANGE[0]}..{ANSWER_RANGE[1]} "
                                  f"shapes in {ATTEMPTS} draws")
        return best[1], best[2]

    def render(self, problem):
        return [compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        """Near misses: one or two more or fewer (the usual slips of a count)."""
        return near_misses(problem.answer, count, (1, -1, 2, -2, 3))

    def hardness(self, item):
        """The number of shapes to count (the answer, the paper's complexity knob)."""
        return float(item.metadata["count"])


TASK = ShapeCounting()
