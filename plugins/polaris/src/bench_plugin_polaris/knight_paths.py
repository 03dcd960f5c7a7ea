"""``polaris/bounded-knight-paths`` (task 41; bounded, fully aligned) and ``polaris/knight-paths`` (task 45;
wrapping, partially aligned): how many sequences of exactly K knight's moves take the knight from its cell to
the target?  (Combinatorics & Probability; integer answers.)

Construction: a ``rows`` x ``cols`` board (4-6 x 5-8: at least 5 sectors, so no two knight's moves coincide
across the wrap) with a knight and a target on distinct cells; K = 2-4 (each value once per 3 consecutive
pairs; the difficulty knob).  A path is a sequence of K moves, each landing on the board; cells may repeat.
Counts come from a DP over the moves, per reading: bounded (the Cartesian rectangle; in polar the seam at
12 o'clock is a wall) and wrapping (column ``cols - 1`` next to column 0).  Every pair needs the two
readings to differ, so the boundary decides:

- bounded-knight-paths: both renderings are bounded (polar draws the seam wall); the answer is the bounded
  count, 2-99.
- knight-paths: the Cartesian grid is bounded (no wrap declared), the polar grid wraps (no seam wall); the
  Cartesian answer is the bounded count, the polar one the wrapping count, both 2-99, never equal (the item
  records the other's in ``other_answer``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from bench_core import GenerationError
from bench_plugin_polaris import knight_words as words
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.grid import KNIGHT, Board
from bench_plugin_polaris.kit.pairs import Instance, PairedTask, frame_from
from bench_plugin_polaris.verifiers import knight_paths as verifier

ROWS, COLS = (4, 6), (5, 8)
MOVES = (2, 4)
COUNT = (2, 99)
#: Boards drawn before giving up.  A 2-move pair is rare (both readings' counts in COUNT and different): 400 draws
#: all missed in about 1 pair of 150 at seed 7002 (polaris 0.1.3), so the draws go on; an item found within the
#: first 400 is drawn as before.
ATTEMPTS = 4000
KNIGHT_COLOUR, TARGET_COLOUR = words.KNIGHT_COLOUR, words.TARGET_COLOUR

Cell = tuple[int, int]


def count_walks(board: Board, start: Cell, target: Cell, k: int) -> int:
    """The number of sequences of exactly ``k`` knight's moves from ``start`` ending on ``target`` (a DP over
    the moves: ways to stand on each cell after each move)."""
    ways: dict[Cell, int] = {start: 1}
    for _ in range(k):
        after: dict[Cell, int] = defaultdict(int)
        for cell, n in ways.items():
            for nxt in board.neighbours(*cell, KNIGHT):
                after[nxt] += n
        ways = after
    return ways.get(target, 0)


def moves_for(level: float | None, spread: int) -> int:
    """K: ``MOVES[0] + spread`` without a level (``spread`` balanced over pairs), else 2 for levels below 1/3,
    3 below 2/3, 4 above."""
    low, high = MOVES
    if level is None:
        return low + spread
    return min(high, low + int(float(level) * (high - low + 1)))


class KnightPathsBase(PairedTask):
    CATEGORY = "combinatorics-probability"
    ANSWER_TYPE = "integer"
    R0 = 0.25

    def readings(self) -> dict[str, bool]:
        """Whether each rendering wraps."""
        raise NotImplementedError

    def build_pair(self, params, random, pair, rng, level):
        k = moves_for(level, self.pair_choice(random, pair, MOVES[1] - MOVES[0] + 1, "moves"))
        for _attempt in range(ATTEMPTS):
            found = self._draw(rng, k)
            if found is not None:
                return found
        raise GenerationError(f"{random.task_id}: no board where the two readings of {k}-move knight paths differ "
                              f"within {COUNT} in {ATTEMPTS} draws")

    def _draw(self, rng, k: int) -> Instance | None:
        rows, cols = int(rng.integers(ROWS[0], ROWS[1] + 1)), int(rng.integers(COLS[0], COLS[1] + 1))
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        first, second = rng.choice(len(cells), size=2, replace=False)
        start, target = cells[int(first)], cells[int(second)]
        counts = {wrap: count_walks(Board(rows, cols, wrap), start, target, k) for wrap in (False, True)}
        if counts[False] == counts[True]:
            return None
        answers = {v: counts[wrap] for v, wrap in self.readings().items()}
        if not all(COUNT[0] <= a <= COUNT[1] for a in answers.values()):
            return None
        scene = {"start": list(start), "target": list(target), "moves": k, "stem": int(rng.integers(len(words.STEMS))),
                 "wraps": self.readings()}
        facts = {"moves": k, "bounded_count": counts[False], "wrap_count": counts[True]}
        return Instance(rows, cols, scene, {v: str(a) for v, a in answers.items()}, geometry=self.geometry(rows, cols),
                        frame={"legend_lines": 2}, knobs={"moves": k}, facts=facts)

    def question(self, instance, variant, letters, contents):
        scene = instance.scene
        return words.question(variant, instance.rows, instance.cols, scene["moves"], scene["stem"], self.BOUNDARY,
                              scene["wraps"][variant])

    def draw(self, instance, variant, letters, contents):
        return picture(instance.scene, instance.rows, instance.cols, dict(instance.geometry), dict(instance.frame),
                       variant)

    def verify(self, item, images):
        return verifier.verify(self, item, images)

    def hardness(self, item):
        """The number of knight's moves K."""
        return float(item.metadata["moves"])

    @property
    def name(self) -> str:
        return type(self).__name__


class BoundedKnightPaths(KnightPathsBase):
    SUB_CATEGORY = "bounded-combinatorics"
    BOUNDARY = "bounded"
    ALIGNMENT = "full"

    def readings(self):
        return {"cartesian": False, "polar": False}


class KnightPaths(KnightPathsBase):
    SUB_CATEGORY = "topological-combinatorics"
    BOUNDARY = "wrapping"
    ALIGNMENT = "partial"

    def readings(self):
        return {"cartesian": False, "polar": True}


def picture(scene: dict[str, Any], rows: int, cols: int, geometry: dict, frame: dict, variant: str,
            wraps: bool | None = None, start: Cell | None = None):
    """The composite image of one rendering from the scene record; ``wraps`` and ``start`` override the
    record (planted faults for the tests)."""
    fr = frame_from(frame, variant, geometry)
    layout = kdraw.make_layout(variant, rows, cols, fr, geometry)
    canvas = kdraw.Canvas(fr, layout)
    canvas.grid_lines()
    wrap = scene["wraps"][variant] if wraps is None else wraps
    canvas.boundary("wrapping" if wrap else "bounded", wraps=wrap if variant == "polar" else False)
    r, c = scene["start"] if start is None else start
    tr, tc = scene["target"]
    radii = geometry["icon_radii"]
    canvas.icon("knight", r, c, KNIGHT_COLOUR, radii[r])
    canvas.icon("target", tr, tc, TARGET_COLOUR, radii[tr])
    canvas.legend(words.legend(variant, scene["moves"]))
    return canvas.image


BOUNDED = BoundedKnightPaths()
WRAPPING = KnightPaths()
