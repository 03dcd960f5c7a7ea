"""``sphinx/tiles-shortest-path`` (paper B.5.3, spec T23): the fewest moves between two marked cells through free
cells, or -1 when no path exists.

A square, hexagonal, circle-packing, triangular or rhombille board (9..64 cells) has obstacle cells (dark
gray) and free cells (light gray); the Start and End cells are free and filled with two palette colours named
in the question.  The obstacle probability comes from the paper's Beta regimes (sparse, dense, balanced,
patchy with the released weights 0.30 : 0.01 : 0.50 : 0.01).  One item in every aligned block of ten (a seeded
position) is unreachable: Start and End lie in different free components, answer -1.  Otherwise the answer
is the breadth-first number of moves (steps, not cells), drawn first, uniformly from 3..1.5 sqrt(cells), and
fields are drawn until a free pair lies exactly that far apart (after 300 misses, any distance >= 3).
Adjacency is shared edges (disks: touching), stated in the question.
Complexity is the paper's: the board's cell count, c = (n - 9) / 55.
"""

from __future__ import annotations

import numpy as np

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import tile_topology as topo
from bench_plugin_sphinx import topology_words as words
from bench_plugin_sphinx.kit import complexity, sampling
from bench_plugin_sphinx.kit.palette import PALETTE, phrase
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import paths as verifier

TILINGS = ("square", "hexagonal", "circles", "triangular", "rhombille")
OBSTACLE, FREE = "#2a2a2a", "#ebebeb"
#: Start/End colours: bright palette colours (purple, brown and gray are too near the dark obstacles).
MARK_COLOURS = ("red", "green", "blue", "orange", "cyan", "magenta", "yellow")
#: The paper's obstacle regimes: (name, Beta a, Beta b, weight).
REGIMES = (("sparse", 0.35, 2.7, 0.30), ("dense", 2.7, 0.35, 0.01), ("balanced", 1.2, 1.2, 0.50),
           ("patchy", 0.6, 0.6, 0.01))
#: The regimes' weights as probabilities.
REGIME_WEIGHTS = np.array([r[3] for r in REGIMES])
REGIME_WEIGHTS /= REGIME_WEIGHTS.sum()
REGIME_WEIGHTS.flags.writeable = False
UNREACHABLE_EVERY = 10
MIN_MOVES = 3
EDGE_PX, SIDE_RANGE = 44, (300, 500)
ATTEMPTS = 400
#: Attempts at the drawn distance before any distance the field offers is taken.
LOOSE_AFTER = 300


def unreachable_slot(random) -> bool:
    """One item in every aligned block of ten, at a seeded position in the block."""
    return random.balanced(UNREACHABLE_EVERY, "unreachable") == 0


def first_far_start(graph: dict[int, set[int]], free: set[int], comps: list[set[int]], starts: list[int],
                    target: int | None) -> tuple[int, dict[int, int], list[int]] | None:
    """(the first of ``starts`` with free cells exactly ``target`` moves away, or with ``target`` None at least
    MIN_MOVES; its breadth-first distances; those cells, sorted), or None.  Breadth-first layers are contiguous,
    so a start has such cells exactly when its eccentricity (largest distance) reaches the bound: a start whose
    component (of ``comps``, the free cells' components) has no more cells than the bound, or whose distance to
    an earlier searched start of its component plus that start's eccentricity falls short of it (triangle
    inequality), has none and is passed over without a search."""
    need = target or MIN_MOVES
    component = {cell: k for k, comp in enumerate(comps) for cell in comp}
    searched: dict[int, list[tuple[dict[int, int], int]]] = {}
    for start in starts:
        k = component[start]
        if len(comps[k]) <= need or any(reach[start] + ecc < need for reach, ecc in searched.get(k, ())):
            continue
        reach = topo.distances(graph, free, start)
        far = sorted(c for c, d in reach.items() if (d == target if target else d >= MIN_MOVES))
        if far:
            return start, reach, far
        searched.setdefault(k, []).append((reach, max(reach.values())))
    return None


class TilesShortestPath(PaperSets, task="tiles-shortest-path"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILINGS, "tiling-order")
        level = params.get("difficulty")
        unreachable = unreachable_slot(random)
        width, height, cells = topo.pick_board(name, level, rng)
        target = int(rng.integers(MIN_MOVES, max(MIN_MOVES, round(1.5 * np.sqrt(cells))) + 1))
        for attempt in range(ATTEMPTS):
            built = self._field(name, width, height, cells, unreachable, target if attempt < LOOSE_AFTER else None,
                                rng)
            if built is not None:
                break
        else:
            raise GenerationError(f"tiles-shortest-path: no {name} {width}x{height} field found")
        regime, blocked, start, end, answer = built
        starts, ends = topo.pick_colours(rng, 2, MARK_COLOURS)
        fills = [PALETTE[starts] if c == start else PALETTE[ends] if c == end else OBSTACLE if c in blocked else FREE
                 for c in range(cells)]
        scene = topo.scene(name, width, height, fills, EDGE_PX, SIDE_RANGE)
        stem = words.PATH_STEMS[int(rng.integers(len(words.PATH_STEMS)))]
        question = words.path_question(stem, phrase(starts), phrase(ends), name == "circles")
        record = complexity.record("cells", cells, *topo.CELL_RANGE)
        metadata = {"scene": scene, "tiling": name, "regime": regime, "reachable": answer >= 0,
                    "start": starts, "end": ends, "complexity": record,
                    **({} if level is None else {"difficulty_knobs": {"cells": cells}})}
        return Problem(question=question, answer=str(answer), image_size=tuple(scene["image_size"]),
                       params={**params, "tiling": name}, answer_type="integer", metadata=metadata, structure=scene)

    def _field(self, name, width, height, cells, unreachable, target, rng):
        """(regime, obstacle cells, start, end, moves or -1) or None; a reachable pair is ``target`` moves apart
        (None: any distance the field offers, at least MIN_MOVES)."""
        graph = topo.patch(name, width, height)[1]
        regime, a, b, _w = REGIMES[int(sampling.categorical(rng, REGIME_WEIGHTS, 1)[0])]
        p = float(rng.beta(a, b))
        blocked = set(np.flatnonzero(rng.random(cells) < p).tolist())  # each cell in turn, one draw each
        free = set(range(cells)) - blocked
        if not blocked or len(free) < 2:
            return None
        comps = topo.components(free, graph)
        if unreachable:
            if len(comps) < 2:
                return None
            first, second = (comps[int(k)] for k in rng.permutation(len(comps))[:2])
            start = sorted(first)[int(rng.integers(len(first)))]
            end = sorted(second)[int(rng.integers(len(second)))]
            return regime, blocked, start, end, -1
        order = sorted(free)
        found = first_far_start(graph, free, comps, [order[int(k)] for k in rng.permutation(len(order))], target)
        if found is None:
            return None
        start, reach, far = found
        end = far[int(rng.integers(len(far)))]
        return regime, blocked, start, end, reach[end]

    def render(self, problem):
        return [topo.compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        """Near misses: the count of cells instead of moves, one more or fewer, and -1 (no path)."""
        answer = int(problem.answer)
        if answer < 0:
            return [str(v) for v in (0, 1, 2, 3)][:count]
        return [str(v) for v in (answer + 1, answer - 1, -1, answer + 2) if v >= 1 or v == -1][:count]

    def hardness(self, item):
        """The number of cells on the board (the paper's complexity knob)."""
        return float(item.metadata["scene"]["cells"])


TASK = TilesShortestPath()
