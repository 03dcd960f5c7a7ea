"""``sphinx/tiles-line-intersections`` (paper B.2.4, spec T9): at how many tile corners do two named lines
meet?

A square or triangular patch carries two to five lines in distinct colours, each a vertex-simple walk along
tile edges using no edge of another line, so lines can meet only at corners.  A target count t is drawn
first (1..8, or the one a difficulty level asks for); the asked pair is drawn first, its second line's
steps drawn toward the first line's corners and the line cut to end anywhere between its t-th corner on the
first line (included) and its next one, so that the pair shares exactly t corners (endpoints included); the
other lines are drawn after it.  Complexity is the paper's: the
answer over 1..7.
"""

from __future__ import annotations

import functools
import math

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import line_words as words
from bench_plugin_sphinx import tile_lines
from bench_plugin_sphinx.kit import boards, complexity, edgepaths
from bench_plugin_sphinx.kit.distractors import near_misses
from bench_plugin_sphinx.kit.palette import phrase
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import tile_lines as verifier

TILINGS = ("square", "triangular")
#: The paper's complexity range (the answer) and the answers drawn.
ANSWER_RANGE = (1, 7)
ANSWERS = tuple(range(1, 9))
LINE_COUNTS = (2, 3, 4, 5)
BOARD_CELLS = (16, 100)
EDGE_PX, SIDE_RANGE = 46, (360, 640)
#: Line sets tried per board, and boards tried, before giving up.
SETS_PER_BOARD, BOARDS = 24, 40


@functools.lru_cache(maxsize=8)
def _boards(name: str) -> tuple[tuple[int, int, int], ...]:
    return tuple(boards.candidates(name, *BOARD_CELLS))


def shared_corners(a: list[int], b: list[int]) -> int:
    return len(set(a) & set(b))


class TilesLineIntersections(PaperSets, task="tiles-line-intersections"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILINGS, "tiling-order")
        level = params.get("difficulty")
        if level is None:
            target = ANSWERS[int(rng.integers(len(ANSWERS)))]
        else:
            target = complexity.knob_for_level(level, ANSWERS, *ANSWER_RANGE, rng)
        count = int(params.get("lines") or LINE_COUNTS[int(rng.integers(len(LINE_COUNTS)))])
        found = self._lines(name, target, count, rng)
        if found is None:
            raise GenerationError(f"tiles-line-intersections: no {count} lines on a {name} patch with a pair meeting "
                                  f"at {target} corners in {BOARDS} boards")
        (width, height, _cells), paths, (i, j) = found
        colours = [tile_lines.LINE_COLOURS[int(k)] for k in rng.permutation(len(tile_lines.LINE_COLOURS))[:count]]
        if rng.random() < 0.5:
            i, j = j, i
        scene = tile_lines.board(name, width, height, EDGE_PX, *SIDE_RANGE)
        scene["lines"] = [{"colour": c, "path": p} for c, p in zip(colours, paths, strict=True)]
        scene["asked"] = [colours[i], colours[j]]
        stem = words.MEET_STEMS[int(rng.integers(len(words.MEET_STEMS)))]
        question = f"{stem.format(a=phrase(colours[i]), b=phrase(colours[j]))} {words.MEET_RULE} {words.ANSWER}"
        record = complexity.record("answer", target, *ANSWER_RANGE)
        metadata = {"scene": scene, "tiling": name, "lines": count, "shared": target, "complexity": record,
                    **({} if level is None else {"difficulty_knobs": {"answer": target}})}
        side = scene["side"]
        return Problem(question=question, answer=str(target), image_size=(side, side),
                       params={**params, "tiling": name, "lines": count}, answer_type="integer", metadata=metadata,
                       structure=scene)

    def _lines(self, name, target, count, rng):
        """(board, paths, asked pair) with the pair sharing exactly ``target`` corners, or None.  The asked pair
        is drawn first, the second line's steps drawn toward the first line's corners (``bias``, larger for a
        larger target) so that every target is reached in a few draws; the other lines follow, unsteered."""
        options = [o for o in _boards(name) if o[2] >= 4 * target + 8]
        for _board in range(BOARDS):
            width, height, cells = options[int(rng.integers(len(options)))]
            graph = tile_lines.patch(name, width, height)[1]
            longest = max(6, round(2.5 * math.sqrt(cells)))
            for _set in range(SETS_PER_BOARD):
                lengths = [int(v) for v in rng.integers(max(4, target + 1), max(longest, target + 3) + 1, count)]
                first = tile_lines.draw_lines(graph, 1, lengths[:1], rng, minimum=3)
                if first is None:
                    continue
                used = set(edgepaths.path_edges(first[0]))
                bias = float(rng.uniform(1.0, 1.0 + target))
                second = edgepaths.sample_path(graph, max(lengths[1], 3 * target), used, rng, minimum=3,
                                               prefer=frozenset(first[0]), bias=bias)
                second = self._cut(second, set(first[0]), target, graph, rng) if second else None
                if second is None:
                    continue
                used.update(edgepaths.path_edges(second))
                rest = tile_lines.draw_lines(graph, count - 2, lengths[2:], rng, minimum=3, used=used)
                if rest is None:
                    continue
                paths = [first[0], second, *rest]
                order = [int(k) for k in rng.permutation(count)]
                return (width, height, cells), [paths[k] for k in order], (order.index(0), order.index(1))
        return None

    @staticmethod
    def _cut(path, other, target, graph, rng):
        """``path`` cut to end somewhere between its ``target``-th corner on ``other`` (included) and the next
        one (excluded), so that it shares exactly ``target`` corners; None when it shares fewer, or the cut
        line is shorter than 3 edges or has its ends one edge apart."""
        hits = [k for k, v in enumerate(path) if v in other]
        if len(hits) < target:
            return None
        last = hits[target] - 1 if len(hits) > target else len(path) - 1
        end = int(rng.integers(hits[target - 1], last + 1))
        cut = path[: end + 1]
        if len(cut) < 4 or cut[-1] in graph[cut[0]]:
            return None
        return cut

    def render(self, problem):
        return [tile_lines.compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify_meetings(item, images)

    def distractors(self, problem, count, random):
        """Near misses: one corner more or fewer (an endpoint left out or a touch counted as a crossing twice)."""
        return near_misses(problem.answer, count)

    def hardness(self, item):
        """The number of shared corners (the answer, the paper's complexity knob)."""
        return float(item.metadata["shared"])


TASK = TilesLineIntersections()
