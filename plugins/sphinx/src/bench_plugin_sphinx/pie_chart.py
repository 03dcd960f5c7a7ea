"""``sphinx/pie-chart`` (paper B.1.4, spec T4): a pie chart with no numbers and a legend of letters; which of
four orderings of the letters ranks the slices by size, ascending or descending?

Construction: k distinct integer percentages (each >= 1, summing to 100, every pair at least 9 % apart
relatively: ``kit.charts.percentages``), k distinct palette colours and k distinct random capital letters.
The slices run clockwise from 12 o'clock in the legend's order (top to bottom).  The options are orderings of
the letters made by swapping pairs (``kit.orderings.swap_options``: the paper's two-position swaps, arranged
so that the option closest to the other three is not the answer more often than chance).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bench_core import Problem
from bench_plugin_sphinx import pie_words as words
from bench_plugin_sphinx.kit import charts, complexity, layout, orderings
from bench_plugin_sphinx.kit.canvas import stamp_text
from bench_plugin_sphinx.kit.distractors import other_letters
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import pie_chart as verifier

SIZE = (1024, 768)
PIE_LEFT, PIE_TOP, PIE_SIDE = 36, 44, 680
LEGEND_LEFT, SWATCH, LETTER_SIZE = 790, 44, 46
#: The paper's range of categories k, its complexity knob.
CATEGORY_RANGE = (3, 10)
UPPERCASE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def legend_layout(count: int) -> dict[str, int]:
    """The legend's rows, centred on the canvas: row i's swatch is the ``swatch``-px square at (``left``,
    ``top + i * pitch``), its letter is anchored at its left middle ``text_dx`` px right of the swatch's right
    edge, level with the swatch's middle."""
    pitch = min(68, (SIZE[1] - 80) // count)
    top = (SIZE[1] - pitch * count) // 2 + (pitch - SWATCH) // 2
    return {"left": LEGEND_LEFT, "top": top, "pitch": pitch, "swatch": SWATCH, "text_dx": 26,
            "letter_size": LETTER_SIZE}


def legend_rows(legend: dict[str, int], count: int) -> list[tuple[list[int], list[int]]]:
    """[(swatch box [l, t, r, b], letter anchor [x, y])] of the ``count`` rows of ``legend_layout``."""
    rows = []
    for i in range(count):
        left, top, side = legend["left"], legend["top"] + i * legend["pitch"], legend["swatch"]
        rows.append(([left, top, left + side, top + side], [left + side + legend["text_dx"], top + side // 2]))
    return rows


def compose(scene: dict[str, Any]) -> Image.Image:
    """The item's picture: the pie on the left, the legend (colour swatch, letter) on the right."""
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    draw = ImageDraw.Draw(canvas)
    categories = scene["categories"]
    charts.draw_pie(draw, scene["pie_box"], [c["percent"] for c in categories], [c["hex"] for c in categories])
    legend = scene["legend"]
    for (box, anchor), category in zip(legend_rows(legend, len(categories)), categories, strict=True):
        left, top, right, bottom = box
        draw.rectangle((left, top, right - 1, bottom - 1), fill=rgb(category["hex"]), outline=layout.INK, width=2)
        stamp_text(canvas, anchor, category["letter"], legend["letter_size"])
    return canvas


def ranking(categories: list[dict[str, Any]], direction: str) -> list[str]:
    """The letters ordered by percentage in ``direction``."""
    ordered = sorted(categories, key=lambda c: c["percent"], reverse=direction == "descending")
    return [c["letter"] for c in ordered]


class PieChart(PaperSets, task="pie-chart"):
    def check_params(self, params):
        complexity.refuse_knob_with_level(params, "categories", "the number of categories")

    def generate(self, params, random):
        rng = random.rng
        level = params.get("difficulty")
        low, high = CATEGORY_RANGE
        k = complexity.knob_value(params, "categories", low, high, rng)
        direction = params["direction"] or cyclic(random, words.DIRECTIONS, "direction-order")
        values = charts.percentages(k, rng)
        names = [list(PALETTE)[int(i)] for i in rng.permutation(len(PALETTE))[:k]]
        letters = [UPPERCASE[int(i)] for i in rng.permutation(26)[:k]]
        categories = [{"letter": a, "colour": n, "hex": PALETTE[n], "percent": v}
                      for a, n, v in zip(letters, names, values, strict=True)]
        truth = ranking(categories, direction)
        position = random.balanced(4, "answer")
        made, roles = orderings.swap_options(truth, position, rng)
        options = [words.option_text(o) for o in made]
        stem = words.STEMS[direction][int(rng.integers(len(words.STEMS[direction])))]
        scene = {"image_size": list(SIZE), "direction": direction, "categories": categories,
                 "pie_box": [PIE_LEFT, PIE_TOP, PIE_LEFT + PIE_SIDE, PIE_TOP + PIE_SIDE],
                 "legend": legend_layout(k), "options": roles}
        metadata = {"scene": scene, "direction": direction, "categories": k,
                    "complexity": complexity.record("categories", k, low, high),
                    "paper_answer": "abcd"[position],
                    **({} if level is None else {"difficulty_knobs": {"categories": k}})}
        return Problem(question=words.question(stem, options), answer="ABCD"[position], image_size=SIZE,
                       params={**params, "direction": direction, "categories": k}, options=options,
                       answer_type="option", metadata=metadata)

    def render(self, problem):
        return [compose(problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        return other_letters(problem.answer, count)

    def hardness(self, item):
        """The number of slices k."""
        return float(len(item.metadata["scene"]["categories"]))


TASK = PieChart()
