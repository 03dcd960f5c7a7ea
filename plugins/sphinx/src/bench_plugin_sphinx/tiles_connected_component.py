"""``sphinx/tiles-connected-component`` (paper B.5.2, spec T22): the size of the largest or smallest connected
component of one colour, or how many components it has, on a randomly coloured board.

Every cell of a square, hexagonal, circle-packing, triangular or rhombille board (max(9, 5n)..64 cells for n
components asked) takes one of k = 2..6 palette colours (every two at least 120 apart in RGB) with
probabilities drawn from a Dirichlet (alpha in 0.7..1.5, the paper's).  Components use shared-edge
adjacency (disks: touching), stated in the question.  The asked colour has exactly the drawn number of
components n (1..6; extremes ask a colour with at least two), and the asked extreme (largest or smallest
size) is held by exactly one component; a smallest component of one cell is asked one time in three
(otherwise it has at least two cells where 60 colourings find one), so 1 does not dominate the answers.
A board is drawn once and recoloured up to ``BOARD_TRIES`` times before another is drawn, so its cell graph is
built once per item, not once per colouring.
Complexity is the paper's knob, the number of components n: c = (n - 1) / 5.
"""

from __future__ import annotations

from bench_core import GenerationError, Problem
from bench_plugin_sphinx import tile_topology as topo
from bench_plugin_sphinx import topology_words as words
from bench_plugin_sphinx.kit import complexity, sampling
from bench_plugin_sphinx.kit.palette import PALETTE, phrase
from bench_plugin_sphinx.kit.sampling import cyclic
from bench_plugin_sphinx.sets import PaperSets
from bench_plugin_sphinx.verifiers import components as verifier

TILINGS = ("square", "hexagonal", "circles", "triangular", "rhombille")
MEASURES = ("size_largest", "size_smallest", "count_components")
#: The paper's complexity range: components of the asked colour.
COMPONENT_RANGE = (1, 6)
COLOURS = (2, 6)
ALPHA = (0.7, 1.5)
EDGE_PX, SIDE_RANGE = 44, (300, 500)
ATTEMPTS = 1000
#: Colourings tried for a smallest component of two or more cells before one of a single cell is accepted.
LEAST_TRIES = 60
#: Colourings tried on one board before another board is drawn (a board's cell graph is built once and reused).
BOARD_TRIES = 40


def answer_of(measure: str, sizes: list[int]) -> int | None:
    """The measure over one colour's component sizes, or None when an asked extreme is not unique."""
    if measure == "count_components":
        return len(sizes)
    sizes = sorted(sizes)
    extreme = sizes[-1] if measure == "size_largest" else sizes[0]
    return extreme if sizes.count(extreme) == 1 else None


class TilesConnectedComponent(PaperSets, task="tiles-connected-component"):
    def generate(self, params, random):
        rng = random.rng
        name = params.get("tiling") or cyclic(random, TILINGS, "tiling-order")
        measure = params.get("measure") or cyclic(random, MEASURES, "measure-order")
        level = params.get("difficulty")
        values = list(range(1 if measure == "count_components" else 2, COMPONENT_RANGE[1] + 1))
        if level is None:
            target = values[int(rng.integers(len(values)))]
        else:
            target = complexity.knob_for_level(level, values, *COMPONENT_RANGE, rng)
        #: A smallest component of one cell is the common case; two items in three ask for a larger one.
        least = 1 if measure != "size_smallest" or rng.random() < 1 / 3 else 2
        low = max(topo.CELL_RANGE[0], 5 * target)
        for attempt in range(ATTEMPTS):
            if attempt % BOARD_TRIES == 0:
                board = topo.pick_board(name, None, rng, low=low)
            built = self._colour(name, board, measure, target, least if attempt < LEAST_TRIES else 1, rng)
            if built is not None:
                break
        else:
            raise GenerationError(f"tiles-connected-component: no {name} board with a colour of {target} components")
        (width, height, _cells), fills, colour, answer = built
        scene = topo.scene(name, width, height, fills, EDGE_PX, SIDE_RANGE)
        stem = words.COMPONENT_STEMS[int(rng.integers(len(words.COMPONENT_STEMS)))]
        question = words.component_question(stem, measure, phrase(colour), name == "circles")
        record = complexity.record("components", target, *COMPONENT_RANGE)
        metadata = {"scene": scene, "tiling": name, "measure": measure, "asked": colour, "components": target,
                    "complexity": record, **({} if level is None else {"difficulty_knobs": {"components": target}})}
        return Problem(question=question, answer=str(answer), image_size=tuple(scene["image_size"]),
                       params={**params, "tiling": name, "measure": measure}, answer_type="integer",
                       metadata=metadata, structure=scene)

    def _colour(self, name, board, measure, target, least, rng):
        """(board, fills, asked colour name, answer at least ``least``) for one colouring of ``board`` (width,
        height, cells), or None when the colouring does not fit."""
        width, height, cells = board
        neighbours = topo.neighbour_lists(name, width, height)
        k = int(rng.integers(COLOURS[0], COLOURS[1] + 1))
        weights = sampling.dirichlet(rng, rng.uniform(*ALPHA), k)
        drawn = sampling.categorical(rng, weights, cells).tolist()
        by_colour = topo.colour_components(neighbours, drawn)
        fitting = []
        for index in range(k):
            sizes = by_colour.get(index, [])
            if len(sizes) == target:
                answer = answer_of(measure, sizes)
                if answer is not None and answer >= least:
                    fitting.append((index, answer))
        if not fitting:
            return None
        asked, answer = fitting[int(rng.integers(len(fitting)))]
        colours = topo.pick_colours(rng, k)
        colour = colours[asked]
        fills = [PALETTE[colours[d]] for d in drawn]
        return (width, height, cells), fills, colour, answer

    def render(self, problem):
        return [topo.compose(problem.structure if problem.structure is not None else problem.metadata["scene"])]

    def verify(self, item, images):
        return verifier.verify(item, images)

    def distractors(self, problem, count, random):
        """Near misses: one or two more or fewer."""
        answer = int(problem.answer)
        return [str(v) for v in (answer + 1, answer - 1, answer + 2, answer - 2) if v >= 1][:count]

    def hardness(self, item):
        """The number of components of the asked colour (the paper's complexity knob)."""
        return float(item.metadata["components"])


TASK = TilesConnectedComponent()
