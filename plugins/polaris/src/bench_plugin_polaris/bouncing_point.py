"""``polaris/bouncing-point`` (spec card 53; paper Table 7): a point with a velocity arrow; where is it after N
steps?  Coordinate answer.

One logical instance (``bouncing_point_logic``) per pair: a board of 5-8 rows and 6-9 columns, a start cell and
a velocity with a column part ((+-1, +-1) or (0, +-1)), N = 10-60 steps.  Partially aligned (spec 2.3, 10.2):
the Cartesian point bounces off all four borders, the polar point off the inner and outer circles but loops
round the angle; pairs where the two end cells coincide are rejected, and each item records the other
rendering's cell (``other_answer``).  Ring 1 is row 1 (orientation "in"), so both renderings number cells
alike; the question states the numbering and the answer format "(row, column)" / "(ring, sector)".
"""

from __future__ import annotations

from bench_core import GenerationError, ParameterError
from bench_plugin_polaris import bouncing_point_logic as logic
from bench_plugin_polaris import bouncing_point_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask

ATTEMPTS = 200
#: Times the steps are drawn again when ATTEMPTS draws found no start (only where the steps are drawn).
STEP_REDRAWS = 10
#: The point's colour, used by nothing else.
POINT = (213, 40, 40)


def cell_text(cell) -> str:
    """The 1-based answer "(3, 5)" of a 0-based cell."""
    return f"({cell[0] + 1}, {cell[1] + 1})"


def steps_for(level: float | None, rng, params) -> int:
    """The steps: a set value wins; else from ``level`` (10 at 0 to 60 at 1), else drawn."""
    lo, hi = logic.STEPS
    if params.get("steps"):
        return int(params["steps"])
    return lo + round(level * (hi - lo)) if level is not None else int(rng.integers(lo, hi + 1))


#: How far ``nearby_steps`` looks from the level's step count, each way.
NEARBY_STEPS = 3


def nearby_steps(steps: int) -> list[int]:
    """The step counts within NEARBY_STEPS of ``steps`` and inside logic.STEPS, nearest first, the larger of two
    equally near first: 31, 29, 32, 28, ... for 30."""
    lo, hi = logic.STEPS
    return [s for d in range(1, NEARBY_STEPS + 1) for s in (steps + d, steps - d) if lo <= s <= hi]


def board_for(rng, params) -> tuple[int, int]:
    """(rows, cols): set values win, else drawn."""
    rows = params.get("rows") or int(rng.integers(logic.ROWS[0], logic.ROWS[1] + 1))
    cols = params.get("cols") or int(rng.integers(logic.COLS[0], logic.COLS[1] + 1))
    return rows, cols


class BouncingPoint(PairedTask):
    CATEGORY = CATEGORIES["ALS"]
    VERIFIER = "bouncing_point"
    SUB_CATEGORY = "motion-trajectory-prediction"
    BOUNDARY = "wrapping"
    ALIGNMENT = "partial"
    ANSWER_TYPE = "coordinate"
    OPTION_COUNT = 0
    ORIENTATION = "in"
    R0 = 0.25

    def build(self, params, rng, level):
        steps = steps_for(level, rng, params)
        found, rows, cols = self._start(params, rng, steps)
        drawn_steps = not params.get("steps") and level is None
        for _redraw in range(STEP_REDRAWS if found is None and drawn_steps else 0):
            # a set column count rules out every start for some step counts (a multiple of both the columns and
            # twice one less): draw the steps again (an item whose first steps work is drawn as before)
            steps = steps_for(level, rng, params)
            found, rows, cols = self._start(params, rng, steps)
            if found is not None:
                break
        if found is None and level is not None and not params.get("steps"):
            # the level's step count leaves no start on this (set) column count: the nearest step count that does,
            # one step more or less first (a step is 0.02 of the difficulty scale, so the item keeps its level; with a
            # difficulty range the run no longer stops at the items whose drawn level lands on such a count)
            for near in nearby_steps(steps):
                found, rows, cols = self._start(params, rng, near)
                if found is not None:
                    steps = near
                    break
        if found is None:
            why = (f"no start on {rows} x {cols} with different end cells after {steps} steps in {ATTEMPTS} draws "
                   "(after N steps the two readings agree for every start when N is a multiple of both the columns "
                   "and twice one less)")
            if params.get("cols") and params.get("steps"):
                raise ParameterError(f"parameters 'cols' {cols} and steps {steps}: {why}; choose other steps or "
                                     "columns")
            raise GenerationError(f"bouncing-point: {why}")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        scene = {"start": found["start"], "velocity": found["velocity"], "steps": steps, "stem": stem}
        return Instance(rows=rows, cols=cols, scene=scene,
                        answers={"cartesian": cell_text(found["bounded"]), "polar": cell_text(found["wrapping"])},
                        geometry=self.geometry(rows, cols), frame={},
                        params={"rows": rows, "cols": cols, "steps": steps},
                        knobs={"steps": steps}, facts={"rows": rows, "cols": cols, "steps": steps})

    @staticmethod
    def _start(params, rng, steps: int):
        """(a start and velocity whose two readings end in different cells after ``steps``, or None after
        ATTEMPTS draws; rows; columns): the board drawn again every 25 draws (some boards give both readings one
        cell after N steps from any start)."""
        found = None
        for attempt in range(ATTEMPTS):
            if attempt % 25 == 0:
                rows, cols = board_for(rng, params)
            found = logic.sample(rng, rows, cols, steps)
            if found is not None:
                break
        return found, rows, cols

    def question(self, instance, variant, letters, contents):
        scene = instance.scene
        return words.question(variant, instance.rows, instance.cols, scene["steps"], scene["stem"])

    def draw(self, instance, variant, letters, contents):
        scene, geometry = instance.scene, instance.geometry
        canvas = self.canvas_for(instance, variant)
        canvas.grid_lines()
        canvas.boundary(self.BOUNDARY, wraps=variant == "polar")
        canvas.index_labels(self.ORIENTATION)
        (r, c), (dr, dc) = scene["start"], scene["velocity"]
        canvas.arrow([(c + 0.5, r + 0.5), (c + 0.5 + dc, r + 0.5 + dr)], kdraw.BLACK)
        canvas.icon("disc", r, c, POINT, float(geometry["icon_radius"]) * 0.8)
        return canvas.image

    def distractors(self, problem, count, random):
        """The other rendering's cell first (the slip of reading the other boundary), then the cells next to the
        answer inside the board."""
        scene = problem.metadata["scene"]
        r, c = (int(v) - 1 for v in problem.answer.strip("()").split(","))
        out = [problem.metadata["other_answer"]]
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)):
            if 0 <= r + dr < scene["rows"] and 0 <= c + dc < scene["cols"]:
                text = cell_text((r + dr, c + dc))
                if text not in out and text != problem.answer:
                    out.append(text)
        return out[:count]

    def random_baseline(self, item):
        """One cell of the board at random: 1 / (rows x columns) (the paper's 1.8 % on about 56 cells)."""
        scene = item.metadata["scene"]
        return 1.0 / (int(scene["rows"]) * int(scene["cols"]))

    def hardness(self, item):
        """The number of steps."""
        return float(item.metadata["steps"])


TASK = BouncingPoint()
