"""What the two diagonal-path tasks share: the pair builder, the drawing and the verifier hook.

``polaris/bounded-diagonal-paths`` (spec card 40) and ``polaris/wrapping-diagonal-paths`` (card 44) draw one
logical instance per pair (``diagonal_logic``): a board of 4-7 rows and 4-8 columns, P in the top row
(outermost ring), Q in the bottom row (innermost ring), blocked cells; the checker moves one row down (ring
inward) and one column (sector) left or right.  The polar board has as many sectors as the Cartesian one has
columns, orientation "out".  Bounded: the seam at 12 o'clock is a thick wall and both renderings count the
same paths.  Wrapping (partial): the Cartesian board is a plain rectangle, the polar one wraps, so the polar
item counts more paths; the board is a checkerboard with an even number of columns.
"""

from __future__ import annotations

from bench_core import ParameterError
from bench_plugin_polaris import diagonal_logic as logic
from bench_plugin_polaris import diagonal_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask, first_found
from bench_plugin_polaris.verifiers import diagonal_paths as verifier

ATTEMPTS = 300
#: Fills read back by the verifier: used by nothing else in the picture.
BLOCKED = (70, 70, 70)
CHECKER = (226, 206, 160)
P_COLOUR = kdraw.MARKER_COLOURS["orange"]
Q_COLOUR = kdraw.MARKER_COLOURS["sky blue"]
#: The colours as the scene records them (the verifier reads the picture with these).
COLOURS = {"blocked": list(BLOCKED), "checker": list(CHECKER), "P": list(P_COLOUR), "Q": list(Q_COLOUR)}


class DiagonalPaths(PairedTask):
    """The shared pair builder; subclasses set the boundary, alignment and the instance filters."""

    CATEGORY = CATEGORIES["CP"]
    ANSWER_TYPE = "integer"
    OPTION_COUNT = 0
    ORIENTATION = "out"
    R0 = 0.25
    #: Allowed column counts and blocked-cell range of the task.
    COLUMNS: tuple[int, ...] = tuple(range(logic.COLS[0], logic.COLS[1] + 1))
    BLOCKED_RANGE = logic.BLOCKED
    CHECKERED = False

    def check_params(self, params):
        rows, blocked = params.get("rows"), params.get("blocked")
        if rows is not None and blocked is not None and blocked > logic.most_blocked(rows, self.BLOCKED_RANGE[1]):
            raise ParameterError(f"parameter 'blocked': {blocked} blocked cells on a board of {rows} rows leave too "
                                 f"few paths; allowed: at most rows - 4 = {logic.most_blocked(rows, 9)}")

    def knobs(self, params, rng, level) -> tuple[int, int, int]:
        """(rows, cols, blocked): set parameters win, then the level (rows and blocked cells rise with it),
        then draws; blocked is at most ``logic.most_blocked(rows)`` (a set blocked count raises the rows)."""
        lo, hi = logic.ROWS
        blo, bhi = self.BLOCKED_RANGE
        rows, blocked = params.get("rows"), params.get("blocked")
        if rows is None:
            low = max(lo, lo if blocked is None else blocked + 4)
            rows = logic.level_value(level, low, hi) if level is not None else int(rng.integers(low, hi + 1))
        top = logic.most_blocked(rows, bhi)
        if blocked is None:
            blocked = min(top, logic.level_value(level, blo, bhi)) if level is not None else int(
                rng.integers(blo, top + 1))
        cols = params.get("cols")
        if cols is None:
            cols = self.COLUMNS[int(rng.integers(len(self.COLUMNS)))]
        return int(rows), int(cols), int(blocked)

    def wants_seam(self, rng) -> bool:
        """Whether this pair must be one where the other boundary reading changes the count."""
        return False

    def build_pair(self, params, random, pair, rng, level):
        """``build`` with the column count, when not set, spread over consecutive pairs (``pair_choice``: any run
        of n pairs shows min(n, choices) counts)."""
        if params.get("cols") is None:
            params = {**params, "cols": self.COLUMNS[self.pair_choice(random, pair, len(self.COLUMNS), "cols")]}
        return self.build(params, rng, level)

    def build(self, params, rng, level):
        rows, cols, blocked = self.knobs(params, rng, level)
        wrap_matters = self.wants_seam(rng)
        partial = self.ALIGNMENT == "partial"
        found = first_found(ATTEMPTS,
                            lambda: logic.sample(rng, rows, cols, blocked, wrap_matters=wrap_matters, partial=partial),
                            f"{self.NAME}: no {rows} x {cols} board with {blocked} blocked cells passed the "
                            f"filters in {ATTEMPTS} draws")
        counts = found.pop("counts")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        scene = {**found, "stem": stem, "checkered": self.CHECKERED, "colours": COLOURS}
        if partial:
            answers = {"cartesian": str(counts["bounded"]), "polar": str(counts["wrapping"])}
        else:
            answers = {"cartesian": str(counts["bounded"]), "polar": str(counts["bounded"])}
        knobs = {"rows": rows, "cols": cols, "blocked": blocked}
        geometry = self.geometry(rows, cols)
        return Instance(rows=rows, cols=cols, scene=scene, answers=answers,
                        geometry=geometry, frame={}, params=knobs, knobs=knobs,
                        facts={**knobs, "readings": counts, "wrap_matters": counts["bounded"] != counts["wrapping"]})

    def wraps(self, variant: str) -> bool:
        """Whether ``variant``'s picture wraps: only the polar board of the wrapping task."""
        return self.BOUNDARY == "wrapping" and variant == "polar"

    def question(self, instance, variant, letters, contents):
        scene = instance.scene
        return words.question(variant, instance.rows, instance.cols, boundary=self.BOUNDARY,
                              wraps=self.wraps(variant), blocked=bool(scene["blocked"]),
                              checkered=bool(scene["checkered"]), stem=scene["stem"])

    def draw(self, instance, variant, letters, contents):
        scene, geometry = instance.scene, instance.geometry
        canvas = self.canvas_for(instance, variant)
        if scene["checkered"]:
            for r in range(instance.rows):
                for c in range(instance.cols):
                    if (r + c) % 2:
                        canvas.fill_cell(r, c, CHECKER)
        for r, c in scene["blocked"]:
            canvas.fill_cell(r, c, BLOCKED)
        canvas.grid_lines()
        canvas.boundary(self.BOUNDARY, wraps=self.wraps(variant))
        radius = float(geometry["icon_radius"])
        canvas.marker("P", *scene["start"], P_COLOUR, radius)
        canvas.marker("Q", *scene["end"], Q_COLOUR, radius)
        return canvas.image

    def verify(self, item, images):
        return self.pair_failures(item) + verifier.verify(item, images, self.layout_of, self.BOUNDARY)

    def distractors(self, problem, count, random):
        """Wrong counts: the count under the other boundary reading never (it is the other rendering's answer
        or a misreading the seam wall rules out), then the count ignoring the blocked cells, then near misses;
        for the wrapping task the other rendering's answer comes first (``PairedTask.distractors``)."""
        meta = problem.metadata
        value = int(problem.answer)
        readings = meta["readings"]
        scene = meta["scene"]
        free = logic.readings(scene["rows"], scene["cols"], scene["start"], scene["end"], ())
        reading = "wrapping" if self.wraps(problem.variant) else "bounded"
        extra = [free[reading]]
        exclude = {value}
        if self.ALIGNMENT == "partial":
            extra.insert(0, int(meta["other_answer"]))
        else:
            exclude.add(readings["wrapping"])
        return logic.near_misses(value, exclude, extra)[:count]

    def hardness(self, item):
        """Moves per path (rows - 1) plus blocked cells."""
        scene = item.metadata["scene"]
        return float(scene["rows"] - 1 + len(scene["blocked"]))
