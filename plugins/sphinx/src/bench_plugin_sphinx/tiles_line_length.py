"""``sphinx/tiles-line-length`` (paper B.2.3, spec T8): how many edge steps long is the line of one colour?

A square, triangular, hexagonal or rhombille patch (9..100 cells, roughly square) is drawn with 1 px black
cell edges; one to five lines in distinct colours run along tile edges, each a vertex-simple walk toward a
length drawn from 3..2 sqrt(cells), never on an edge another line uses (lines meet only at corners).  The
question names one line by ``colour (#hex)``; the answer is its number of edges.  Complexity is the paper's:
the board's cell count over 9..64.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import line_words as words
from bench_plugin_sphinx import tile_lines
from bench_plugin_sphinx.kit import boards, complexity
from bench_plugin_sphinx.kit.distractors import near_misses
from bench_plugin_sphinx.kit.palette import phrase
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import tile_lines as verifier

TILINGS = ("square", "triangular", "hexagonal", "rhombille")
#: The tilings in one seeded order, repeated: any four consecutive items show all four (the released generator's
#: weights 1 : 1 : 1 : 0.5 would let a short run miss one).
TILING_CYCLE = TILINGS
#: The paper's complexity range (cells on the board) and the boards drawn (up to 100 cells, c clipped at 1).
CELL_RANGE = (9, 64)
BOARD_CELLS = (9, 100)
#: How many lines: 1..5 with the released generator's weights (its K = 4 is lost to a duplicate key; ours
#: keeps it at the weight of 5).
LINE_COUNTS = (1, 2, 3, 4, 5)
LINE_WEIGHTS = np.array([1, 3, 3, 2, 2], dtype=float) / 11
EDGE_PX, SIDE_RANGE = 40, (300, 600)
#: Draws of the lines' lengths and paths before giving up.  Five lines on the 3x3 triangular patch (9 cells)
#: fit in only ~3 % of draws, so 60 draws failed ~20 % of such items; 1,000 (0.3 ms a draw) fail one in 10^12.
#: The draws are the same as before up to the first success, so every item that 60 draws found is unchanged.
ATTEMPTS = 1000


@functools.lru_cache(maxsize=16)
def _boards(name: str) -> tuple[tuple[int, int, int], ...]:
    return tuple(boards.candidates(name, *BOARD_CELLS))


def level_board(name: str, level: float | None, rng: np.random.Generator) -> tuple[int, int, int]:
    """A (width, height, cells) patch: at a level, the cell count nearest it in its bin; else any count."""
    options = _boards(name)
    counts = sorted({cells for _, _, cells in options})
    if level is None:
        cells = counts[int(rng.integers(len(counts)))]
    else:
        cells = complexity.knob_for_level(level, counts, *CELL_RANGE, rng)
    fitting = [o for o in options if o[2] == cells]
    return fitting[int(rng.integers(len(fitting)))]


class TilesLineLength(PaperSets, task="tiles-line-length"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILING_CYCLE, "tiling-order")
        level = params.get("difficulty")
        width, height, cells = level_board(name, level, rng)
        graph = tile_lines.patch(name, width, height)[1]
        count = int(params.get("lines") or LINE_COUNTS[int(rng.choice(len(LINE_COUNTS), p=LINE_WEIGHTS))])
        longest = max(4, 2 * round(math.sqrt(cells)))
        for _attempt in range(ATTEMPTS):
            lengths = [int(v) for v in rng.integers(3, longest + 1, count)]
            paths = tile_lines.draw_lines(graph, count, lengths, rng, minimum=3)
            if paths is not None:
                break
        else:
            raise GenerationError(f"tiles-line-length: no {count} lines fit a {width}x{height} {name} patch")
        colours = [tile_lines.LINE_COLOURS[int(k)] for k in rng.permutation(len(tile_lines.LINE_COLOURS))[:count]]
        asked = int(rng.integers(count))
        scene = tile_lines.board(name, width, height, EDGE_PX, *SIDE_RANGE)
        scene["lines"] = [{"colour": c, "path": p} for c, p in zip(colours, paths, strict=True)]
        scene["asked"] = colours[asked]
        answer = len(paths[asked]) - 1
        stem = words.LENGTH_STEMS[int(rng.integers(len(words.LENGTH_STEMS)))]
        question = f"{stem.format(colour=phrase(colours[asked]))} {words.LENGTH_RULE} {words.ANSWER}"
        record = complexity.record("cells", cells, *CELL_RANGE)
        metadata = {"scene": scene, "tiling": name, "lines": count, "length": answer, "complexity": record,
                    **({} if level is None else {"difficulty_knobs": {"cells": cells}})}
        side = scene["side"]
        return Problem(question=question, answer=str(answer), image_size=(side, side),
                       params={**params, "tiling": name, "lines": count}, answer_type="integer", metadata=metadata,
                       structure=scene)

    def render(self, problem):
        return [tile_lines.compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify_length(item, images)

    def distractors(self, problem, count, random):
        """Near misses: one or two edge steps more or fewer (a step missed or counted twice)."""
        return near_misses(problem.answer, count, minimum=1)

    def hardness(self, item):
        """The number of cells on the board (the paper's complexity knob)."""
        return float(item.metadata["scene"]["cells"])


TASK = TilesLineLength()
