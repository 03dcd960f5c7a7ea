"""``polaris/minimum-flips`` (spec card 50; paper Table 7 and A.1): strips of blue and orange cells; a move
switches three consecutive cells of one strip; the fewest moves that make every strip alternate?

One logical instance (``minimum_flips_logic``) per pair: 2-3 strips of 8, 10 or 12 cells, each an alternating
pattern with a seeded set of line moves applied.  Partially aligned: the Cartesian strips are rows with two
ends (moves at positions 1..n-2 only, thick side borders), the polar strips closed rings (moves across the
seam too; no seam wall), so the minima differ; instances where they coincide, or where a ring cannot be solved,
are rejected.  Each item lists five consecutive integers around its own answer, the other reading's answer
left out, the answer at the same balanced rank in both items (``PairedTask.OWN_OPTIONS``, ``kit.options``).
The polar rings use r0 = 0.42 so the cells stay wide; a thick line separates the strips.
"""

from __future__ import annotations

from bench_core import GenerationError
from bench_plugin_polaris import minimum_flips_logic as logic
from bench_plugin_polaris import minimum_flips_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.options import windows
from bench_plugin_polaris.kit.pairs import Instance, PairedTask

ATTEMPTS = 300
#: (cells per strip, strips) from easiest to hardest: the difficulty scale walks this list.
LADDER = ((8, 2), (10, 2), (12, 2), (8, 3), (10, 3), (12, 3))


def knobs_for(level: float | None, rng, cells: int | None, strips: int | None, choose=None) -> tuple[int, int]:
    """(cells per strip, strips): set values win; else the level's rung of ``LADDER``, else drawn (each by
    ``choose(count, name) -> index``, default ``rng``)."""
    if level is not None:
        rung_cells, rung_strips = LADDER[min(len(LADDER) - 1, int(level * len(LADDER)))]
    else:
        def pick(values, name):
            return values[choose(len(values), name) if choose else int(rng.integers(len(values)))]

        rung_cells, rung_strips = pick(logic.LENGTHS, "cells"), pick(logic.STRIPS, "strips")
    return cells or rung_cells, strips or rung_strips


class MinimumFlips(PairedTask):
    CATEGORY = CATEGORIES["ALS"]
    VERIFIER = "minimum_flips"
    SUB_CATEGORY = "move-optimization"
    BOUNDARY = "wrapping"
    ALIGNMENT = "partial"
    ANSWER_TYPE = "option"
    OWN_OPTIONS = True
    OPTION_COUNT = logic.OPTIONS
    ORIENTATION = "in"
    R0 = 0.42

    def build_pair(self, params, random, pair, rng, level):
        n, strips = knobs_for(level, rng, params.get("cells"), params.get("strips"),
                              lambda count, name: self.pair_choice(random, pair, count, name))  # spread over pairs
        rank = self.pair_choice(random, pair, logic.OPTIONS, "answer-rank")
        for _attempt in range(ATTEMPTS):
            found = logic.sample(rng, n, strips)
            if found is not None:
                options = windows({"cartesian": found["line"], "polar": found["ring"]}, rank,
                                               logic.OPTIONS)
                if options is not None:
                    break
        else:
            raise GenerationError(f"minimum-flips: no {strips} strip(s) of {n} cells with different minima in "
                                  f"{ATTEMPTS} draws")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        geometry = self.geometry(strips, n)
        scene = {"strips": found["strips"], "stem": stem}
        line, ring = found["line"], found["ring"]
        return Instance(rows=strips, cols=n, scene=scene, answers={"cartesian": str(line), "polar": str(ring)},
                        geometry=geometry, frame={},
                        params={"cells": n, "strips": strips}, knobs={"cells": n, "strips": strips},
                        facts={"cells": n, "strips": strips, "line_minimum": line, "ring_minimum": ring,
                               "options": options, "answer_rank": rank})

    def question(self, instance, variant, letters, contents):
        return words.question(variant, instance.rows, instance.cols, instance.scene["stem"], letters, contents)

    def draw(self, instance, variant, letters, contents):
        canvas = self.canvas_for(instance, variant)
        for r, strip in enumerate(instance.scene["strips"]):
            for c, value in enumerate(strip):
                canvas.fill_cell(r, c, words.COLOURS[value][1])
        canvas.grid_lines(colour=kdraw.BLACK)
        for r in range(instance.rows - 1):  # separate strips: a thick line between them
            for c in range(instance.cols):
                canvas.wall((r, c), (r + 1, c))
        canvas.boundary(self.BOUNDARY, wraps=variant == "polar")
        return canvas.image

    def hardness(self, item):
        """Cells in all strips."""
        scene = item.metadata["scene"]
        return float(scene["rows"] * scene["cols"])


TASK = MinimumFlips()
