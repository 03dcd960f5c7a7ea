"""``polaris/path-counting`` (task 39; Combinatorics & Probability > Bounded Combinatorics; multiple choice, k = 5;
bounded; fully aligned): how many distinct shortest paths lead from P to Q on a grid with grey blocked cells?

Construction: a ``rows`` x ``cols`` board (4-6 x 4-7; polar: rings x sectors, the seam a wall) with a start P,
a goal Q and 2-5 grey cells.  Moves are orthogonal unit steps (Up/Down/Left/Right = Out/In/CCW/CW).  The
shortest distance d is chosen first (5-10, each value once per 6 consecutive pairs; the difficulty knob), then
P, Q and the grey cells are drawn until the breadth-first distance is d and the number of shortest paths (a DP
over the BFS layers) lies in 5-99; a board is kept with a probability that caps the frequent counts, so the
answers follow a flattened count distribution.  In half of the pairs the wrapping reading (the seam crossed)
must give another count, so the seam wall decides.  Options: the count and four other counts drawn from that
flattened distribution at distance d (``path_counting_table``), so the answer is nearly exchangeable with them
and neither an option's value nor its rank gives it away (``bench audit``); none equals the count under the
wrapping reading.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

import numpy as np

from bench_core import GenerationError
from bench_plugin_polaris import path_counting_words as words
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.grid import Board
from bench_plugin_polaris.kit.pairs import Instance, PairedTask, frame_from
from bench_plugin_polaris.path_counting_table import COUNT_TABLE
from bench_plugin_polaris.verifiers import path_counting as verifier

ROWS, COLS = (4, 6), (4, 7)
DISTANCE = (5, 10)
BLOCKS = (2, 5)
COUNT = (5, 99)
OPTIONS = 5
ATTEMPTS = 2000
#: The quantile of the count table's weights at which frequent counts are capped (``flattened``).
FLATTEN = 0.7
START_COLOUR, GOAL_COLOUR = words.START_COLOUR, words.GOAL_COLOUR

Cell = tuple[int, int]


def shortest_paths(board: Board, start: Cell, goal: Cell) -> tuple[int | None, int]:
    """(breadth-first distance from ``start`` to ``goal``, number of shortest paths), (None, 0) when
    unreachable: paths counted by a DP over the BFS layers."""
    dist = {start: 0}
    ways = {start: 1}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in board.neighbours(*cell):
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                ways[nxt] = ways[cell]
                queue.append(nxt)
            elif dist[nxt] == dist[cell] + 1:
                ways[nxt] += ways[cell]
    return (dist[goal], ways[goal]) if goal in dist else (None, 0)


def target_distance(level: float | None, spread: int) -> int:
    """The shortest distance d of a pair: ``DISTANCE[0] + spread`` without a level (``spread`` balanced over
    pairs), else 5 + round(5 * level)."""
    low, high = DISTANCE
    if level is None:
        return low + spread
    return low + round((high - low) * float(level))


def draw_board(rng, d: int, want_seam: bool) -> tuple | None:
    """One draw of a board with shortest distance ``d`` from P to Q and a count in ``COUNT`` (and, when
    ``want_seam``, another count under the wrapping reading): (board, start, goal, count, wrapping distance,
    wrapping count), or None when the draw misses."""
    sizes = [(r, c) for r in range(ROWS[0], ROWS[1] + 1) for c in range(COLS[0], COLS[1] + 1) if r + c - 2 >= d]
    rows, cols = sizes[int(rng.integers(len(sizes)))]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    start = cells[int(rng.integers(len(cells)))]
    goals = [x for x in cells if abs(x[0] - start[0]) + abs(x[1] - start[1]) in (d, d - 2)]
    if not goals:
        return None
    goal = goals[int(rng.integers(len(goals)))]
    free = [x for x in cells if x not in (start, goal)]
    count = int(rng.integers(BLOCKS[0], BLOCKS[1] + 1))
    blocked = frozenset(free[int(i)] for i in rng.choice(len(free), size=count, replace=False))
    board = Board(rows, cols, blocked=blocked)
    distance, answer = shortest_paths(board, start, goal)
    if distance != d or not COUNT[0] <= answer <= COUNT[1]:
        return None
    wrap_distance, wrap_answer = shortest_paths(board.with_wrap(True), start, goal)
    if want_seam and wrap_answer == answer:
        return None
    return board, start, goal, answer, wrap_distance, wrap_answer


def count_table(draws: int = 4000, seed: int = 16) -> dict[int, dict[int, int]]:
    """How often each count comes out of ``draw_board`` per distance d (``draws`` accepted boards each, a
    seeded generator): the distribution the distractors are drawn from (``COUNT_TABLE`` is this table,
    committed; ``python3 -m bench_plugin_polaris.path_counting`` prints it again)."""
    rng = np.random.default_rng(seed)
    table = {}
    for d in range(DISTANCE[0], DISTANCE[1] + 1):
        hist: Counter = Counter()
        while sum(hist.values()) < draws:
            found = draw_board(rng, d, bool(rng.integers(2)))
            if found is not None:
                hist[found[3]] += 1
        table[d] = dict(sorted(hist.items()))
    return table


def flattened(d: int) -> dict[int, float]:
    """The count distribution at distance ``d`` with every weight capped at the ``FLATTEN`` quantile of the
    weights (``COUNT_TABLE``): what the accepted answers follow (``keep``) and the distractors are drawn from."""
    weights = COUNT_TABLE[d]
    cap = float(np.quantile(list(weights.values()), FLATTEN))
    return {v: min(float(n), cap) for v, n in weights.items()}


def keep(answer: int, d: int, rng) -> bool:
    """Whether to keep a board whose count is ``answer``: with probability capped weight / weight, so frequent
    counts (the smallest counts above all) come no more often than the ``FLATTEN`` quantile's."""
    table = COUNT_TABLE[d]
    weight = float(table.get(answer, 1))
    return bool(rng.random() < min(1.0, _FLAT[d].get(answer, weight) / weight))


def choose_distractors(answer: int, forbidden: set[int], d: int, rng) -> list[int] | None:
    """Four distinct wrong counts drawn from the flattened distribution of the counts at distance ``d``
    (``flattened``), the distribution the kept answers follow, so the answer is (nearly) exchangeable with
    them: neither an option's value nor its rank gives it away (``bench audit``).  None in ``forbidden`` (the
    count under the wrapping reading); None when the table has too few other values."""
    weights = {v: w for v, w in _FLAT[d].items() if v != answer and v not in forbidden}
    if len(weights) < OPTIONS - 1:
        return None
    values = np.array(list(weights))
    p = np.array(list(weights.values()), dtype=float)
    chosen = rng.choice(len(values), size=OPTIONS - 1, replace=False, p=p / p.sum())
    return [int(values[i]) for i in chosen]


class PathCounting(PairedTask):
    CATEGORY = "combinatorics-probability"
    SUB_CATEGORY = "bounded-combinatorics"
    BOUNDARY = "bounded"
    ALIGNMENT = "full"
    ANSWER_TYPE = "option"
    OPTION_COUNT = OPTIONS
    R0 = 0.25

    def build_pair(self, params, random, pair, rng, level):
        d = target_distance(level, self.pair_choice(random, pair, DISTANCE[1] - DISTANCE[0] + 1, "distance"))
        want_seam = bool(rng.integers(2))
        for _attempt in range(ATTEMPTS):
            found = self._draw(rng, d, want_seam)
            if found is not None:
                return found
        raise GenerationError(f"path-counting: no board with shortest distance {d} and 5-99 shortest paths in "
                              f"{ATTEMPTS} draws")

    def _draw(self, rng, d: int, want_seam: bool) -> Instance | None:
        found = draw_board(rng, d, want_seam)
        if found is None:
            return None
        board, start, goal, answer, wrap_distance, wrap_answer = found
        if not keep(answer, d, rng):
            return None
        forbidden = {wrap_answer} if wrap_answer != answer else set()
        chosen = choose_distractors(answer, forbidden, d, rng)
        if chosen is None:
            return None
        rows, cols, blocked = board.rows, board.cols, board.blocked
        geometry = self.geometry(rows, cols)
        scene = {"start": list(start), "goal": list(goal), "blocked": sorted([list(b) for b in blocked]),
                 "moves": "orthogonal", "stem": int(rng.integers(len(words.STEMS)))}
        facts = {"distance": d, "count": answer, "wrap_count": wrap_answer, "wrap_distance": wrap_distance,
                 "seam_decides": wrap_answer != answer}
        return Instance(rows, cols, scene, {"cartesian": str(answer), "polar": str(answer)},
                        distractors=tuple(str(v) for v in chosen), geometry=geometry, frame={"legend_lines": 2},
                        knobs={"distance": d}, facts=facts)

    def question(self, instance, variant, letters, contents):
        return words.question(variant, instance.rows, instance.cols, instance.scene["stem"], letters, contents)

    def draw(self, instance, variant, letters, contents):
        return picture(instance.scene, instance.rows, instance.cols, dict(instance.geometry), dict(instance.frame),
                       variant)

    def verify(self, item, images):
        return verifier.verify(self, item, images)

    def hardness(self, item):
        """The shortest distance from P to Q (steps)."""
        return float(item.metadata["distance"])


def picture(scene: dict[str, Any], rows: int, cols: int, geometry: dict, frame: dict, variant: str,
            seam: bool = True):
    """The composite image of one rendering from the scene record (``seam=False`` leaves the bounded seam
    wall out: a planted fault for the tests)."""
    fr = frame_from(frame, variant, geometry)
    layout = kdraw.make_layout(variant, rows, cols, fr, geometry)
    canvas = kdraw.Canvas(fr, layout)
    for r, c in scene["blocked"]:
        canvas.fill_cell(r, c, kdraw.SHADE)
    canvas.grid_lines(kdraw.GRID_DARK)  # darker than the grey cells, so adjacent grey cells show their border
    canvas.boundary("bounded" if seam else "wrapping", wraps=False)
    radius = geometry["icon_radius"]
    canvas.marker("P", *scene["start"], START_COLOUR, radius)
    canvas.marker("Q", *scene["goal"], GOAL_COLOUR, radius)
    canvas.legend(words.legend(variant))
    return canvas.image


_FLAT = {d: flattened(d) for d in COUNT_TABLE}
TASK = PathCounting()


if __name__ == "__main__":  # print the committed count table again (see count_table)
    print(count_table())
