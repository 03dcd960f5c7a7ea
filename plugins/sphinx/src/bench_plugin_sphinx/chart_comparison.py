"""``sphinx/chart-comparison`` (paper B.1.5, spec T5): a pie chart (or a bar chart) on top and four charts of
the other kind below; which one shows the same proportion for every colour?

Construction: k distinct integer percentages (``kit.charts.percentages``) and k distinct palette colours, one
per category; every chart uses the same colour for a category and the same category order (clockwise from 12
o'clock in a pie, left to right in a bar chart).  The wrong options give the same percentages to other
categories (permutations of the vector, as the paper's "permute"): all four options then hold the same
slices or bars, only coloured differently, so no option stands out by its shape, ink or size.  Every two of
the four options differ clearly: in at least two categories by 12 points or 25 % (relative), by at least 18
points in all (L1), by at least 6 points in some category, and in at least 2 % of their coloured pixels.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import comparison_words as words
from bench_plugin_sphinx.kit import charts, complexity, indexed, layout
from bench_plugin_sphinx.kit.canvas import stamp_text
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import chart_comparison as verifier

SIZE = (1440, 838)
CATEGORY_RANGE = (3, 10)
#: The top chart's box: a pie's square or a bar chart's rectangle, centred.
TOP_PIE, TOP_BARS = (530, 14, 910, 394), (340, 14, 1100, 394)
OPTION_SIDE, OPTION_TOP, LABEL_SIZE = 320, 430, 56
OPTION_LEFTS = (32, 384, 736, 1088)
#: Inset of a pie inside its option box.
PIE_INSET = 10
#: The first row under the option boxes: below it only the labels (a)-(d) are drawn.
LABEL_ROWS = OPTION_TOP + OPTION_SIDE
#: How different two options must be (spec 7.2 #12).
LARGE_POINTS, LARGE_RELATIVE, L1_POINTS, MAX_POINTS, PIXEL_FRACTION = 12, 0.25, 18, 6, 0.02
ATTEMPTS = 60


def option_box(k: int) -> list[int]:
    left = OPTION_LEFTS[k]
    return [left, OPTION_TOP, left + OPTION_SIDE, OPTION_TOP + OPTION_SIDE]


def far_apart(a: list[int], b: list[int]) -> bool:
    """Whether two percentage vectors differ clearly (the thresholds above, pixels aside)."""
    diffs = [abs(x - y) for x, y in zip(a, b, strict=True)]
    large = sum(d >= LARGE_POINTS or d / max(x, y) >= LARGE_RELATIVE for d, x, y in zip(diffs, a, b, strict=True))
    return large >= 2 and sum(diffs) >= L1_POINTS and max(diffs) >= MAX_POINTS


def draw_chart(draw: ImageDraw.ImageDraw, kind: str, box: list[int], values: list[int], colours: list[str],
               inset: int = 0) -> None:
    """A pie or a bar chart of ``values`` filling ``box`` (a pie inset by ``inset`` px on every side)."""
    left, top, right, bottom = box
    if kind == "pie":
        charts.draw_pie(draw, (left + inset, top + inset, right - inset, bottom - inset), values, colours)
    else:
        charts.draw_bars(draw, (left, top), values, colours, right - left, bottom - top)


def _draw_charts(canvas: Image.Image, scene: dict[str, Any]) -> None:
    """Draw the top chart and the four option charts of the other kind onto ``canvas`` (RGB, or a palette image
    whose palette holds black and the scene's colours: the shapes are the same, only the inks differ)."""
    draw = ImageDraw.Draw(canvas)
    colours = [PALETTE[name] for name in scene["colours"]]
    draw_chart(draw, scene["top"], scene["top_box"], scene["percentages"], colours)
    other = "bar" if scene["top"] == "pie" else "pie"
    for box, values in zip(scene["option_boxes"], scene["option_values"], strict=True):
        draw_chart(draw, other, box, values, colours, PIE_INSET)


def _stamp_labels(canvas: Image.Image) -> None:
    """The labels (a)-(d) under the option boxes, on an RGB ``canvas`` (they lie below every chart)."""
    for k in range(4):
        left, _top, right, bottom = option_box(k)
        stamp_text(canvas, ((left + right) // 2, bottom + 44), layout.label(k), LABEL_SIZE, anchor="mm")


def compose(scene: dict[str, Any]) -> Image.Image:
    """The item's picture in RGB: the top chart, the four option charts of the other kind, their labels."""
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    _stamp_labels(canvas)
    _draw_charts(canvas, scene)
    return canvas


@functools.cache
def _label_band() -> tuple[np.ndarray, np.ndarray]:
    """The rows under the option boxes (``LABEL_ROWS``: white but for the labels, below every chart) as (their
    colours' keys ascending, white's the last; each pixel's index among them), neither to be changed."""
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    _stamp_labels(canvas)
    return indexed.kept(np.asarray(canvas)[LABEL_ROWS:])


def palette_compose(scene: dict[str, Any]) -> Image.Image:
    """``compose``'s picture as the palette image the core writes for it (its colours ascending and nothing else,
    so the same PNG bytes), drawn straight into palette indices: a white canvas with the kept label band's indices
    moved into a palette of its colours, black and the scene's, the charts drawn over it with those indices as
    inks.  Every colour of the palette is shown when the top chart shows each of the scene's colours (the band's
    are shown below the charts, black in every chart's edges); else the unshown ones are left out."""
    keys, band = _label_band()
    inks = np.array([rgb(PALETTE[name]) for name in scene["colours"]] + [layout.INK], np.uint8)
    palette = np.unique(np.concatenate([keys, indexed.colour_keys(inks)]))
    pixels = np.full((SIZE[1], SIZE[0]), len(palette) - 1, np.uint8)  # white sorts last
    pixels[LABEL_ROWS:] = indexed.in_palette(keys, band, palette)
    canvas = indexed.palette_picture(pixels, palette)
    _draw_charts(canvas, scene)
    top = np.count_nonzero(canvas.crop(tuple(scene["top_box"])).histogram()[: len(palette)])
    if top == len(scene["colours"]) + 2:  # the scene's colours, black and white
        return canvas
    return indexed.shown_palette_picture(np.asarray(canvas), palette)


def _option_pixels(picture: Image.Image) -> list[np.ndarray]:
    """Each option box's pixels of a palette ``picture`` as palette indices (flat; one index per colour)."""
    pixels = np.asarray(picture)
    return [pixels[top:bottom, left:right].ravel() for left, top, right, bottom in map(option_box, range(4))]


def _pixel_distinct(a: np.ndarray, b: np.ndarray, white: int) -> bool:
    """At least PIXEL_FRACTION of the pixels coloured (not white) in either chart differ between them
    (``a``, ``b``: palette indices, ``white``: white's index)."""
    coloured = (a != white) | (b != white)
    return np.count_nonzero((a != b) & coloured) >= PIXEL_FRACTION * max(1, np.count_nonzero(coloured))


class ChartComparison(PaperSets, task="chart-comparison"):
    def check_params(self, params):
        complexity.refuse_knob_with_level(params, "categories", "the number of categories")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        low, high = CATEGORY_RANGE
        k = complexity.knob_value(params, "categories", low, high, rng)
        top = params["top"] or cyclic(random, words.TOPS, "top-order")
        position = random.balanced(4, "answer")
        names = [list(PALETTE)[int(i)] for i in rng.permutation(len(PALETTE))[:k]]
        kind = "bar" if top == "pie" else "pie"
        for _attempt in range(ATTEMPTS):
            values = charts.percentages(k, rng)
            wrong = self._wrong_options(values, rng)
            if wrong is None:
                continue
            option_values = [*wrong[:position], values, *wrong[position:]]
            scene = {"image_size": list(SIZE), "top": top, "colours": names, "percentages": values,
                     "top_box": list(TOP_PIE if top == "pie" else TOP_BARS),
                     "option_boxes": [option_box(i) for i in range(4)], "option_values": option_values,
                     "pie_inset": PIE_INSET}
            picture = palette_compose(scene)
            options, white = _option_pixels(picture), len(picture.getpalette()) // 3 - 1  # white's key is the largest
            if all(_pixel_distinct(options[a], options[b], white) for a in range(4) for b in range(a + 1, 4)):
                break
        else:
            raise GenerationError(f"chart-comparison: no three clearly different {kind} options for k={k} in "
                                  f"{ATTEMPTS} draws")
        stem = words.STEMS[top][int(rng.integers(len(words.STEMS[top])))]
        metadata = {"scene": scene, "top": top, "categories": k,
                    "complexity": complexity.record("categories", k, low, high),
                    "paper_answer": layout.label(position),
                    **({} if level is None else {"difficulty_knobs": {"categories": k}})}
        return Problem(question=words.question(stem), answer="ABCD"[position], image_size=SIZE,
                       params={**params, "top": top, "categories": k}, options=("A", "B", "C", "D"),
                       answer_type="option", metadata=metadata, structure=picture)

    def _wrong_options(self, values, rng) -> list[list[int]] | None:
        """Three permutations of ``values`` that differ clearly (``far_apart``) from it and from each other, in
        random order; None when random permutations do not give them."""
        chosen: list[list[int]] = [list(values)]
        for _ in range(80):
            candidate = [values[int(i)] for i in rng.permutation(len(values))]
            if all(far_apart(candidate, other) for other in chosen):
                chosen.append(candidate)
                if len(chosen) == 4:
                    return chosen[1:]
        return None

    def render(self, problem):
        return [problem.structure if problem.structure is not None else palette_compose(problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return other_letters(problem.answer, count)

    def hardness(self, item):
        """The number of categories k."""
        return float(len(item.metadata["scene"]["colours"]))


TASK = ChartComparison()
