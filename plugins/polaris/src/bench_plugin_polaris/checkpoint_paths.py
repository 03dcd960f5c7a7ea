"""``polaris/checkpoint-paths`` (spec card 42; paper Table 6, Bounded Combinatorics): count the right/down
paths from X to Y through the checkpoint, avoiding gaps.

One logical instance per pair (``checkpoint_logic``): a board of 4-7 rows and 4-8 columns, X and Y the
corners of a box of at most 9 moves, the checkpoint V inside it (not on every path), 1-4 gap cells each on
some X -> V -> Y path.  Polar: right is clockwise and down is inward (orientation "out": the top row is the
outermost ring), so X sits out and Y in; the seam at 12 o'clock is a thick wall (bounded), and the answer is
the same in both renderings.  No distractor is the count the robot would get sliding on clockwise past the
seam (the wrapping reading).
"""

from __future__ import annotations

from bench_core import ParameterError
from bench_plugin_polaris import checkpoint_logic as logic
from bench_plugin_polaris import checkpoint_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask, first_found

ATTEMPTS = 300
GAP = (70, 70, 70)
X_COLOUR = kdraw.MARKER_COLOURS["orange"]
Y_COLOUR = kdraw.MARKER_COLOURS["sky blue"]
CHECKPOINT = kdraw.MARKER_COLOURS["green"]
#: The colours as the scene records them (the verifier reads the picture with these).
COLOURS = {"gap": list(GAP), "X": list(X_COLOUR), "Y": list(Y_COLOUR), "checkpoint": list(CHECKPOINT)}


class CheckpointPaths(PairedTask):
    NAME = "checkpoint-paths"
    CATEGORY = CATEGORIES["CP"]
    VERIFIER = "checkpoint_paths"
    SUB_CATEGORY = "bounded-combinatorics"
    BOUNDARY = "bounded"
    ALIGNMENT = "full"
    ANSWER_TYPE = "integer"
    OPTION_COUNT = 0
    ORIENTATION = "out"
    R0 = 0.25

    def check_params(self, params):
        rows, gaps = params.get("rows"), params.get("gaps")
        if rows is not None and gaps is not None and gaps > logic.most_gaps(rows):
            raise ParameterError(f"parameter 'gaps': {gaps} gaps on a board of {rows} rows leave too few paths; "
                                 f"allowed: at most rows - 2 = {logic.most_gaps(rows)}")

    def knobs(self, params, rng, level) -> tuple[int, int, int]:
        """(rows, cols, gaps): set parameters win, then the level (rows and gaps rise with it), then draws;
        gaps is at most ``logic.most_gaps(rows)`` (a set gap count raises the rows)."""
        lo, hi = logic.ROWS
        glo, ghi = logic.GAPS
        rows, gaps = params.get("rows"), params.get("gaps")
        if rows is None:
            low = lo if gaps is None else max(lo, gaps + 2)
            rows = logic.level_value(level, low, hi) if level is not None else int(rng.integers(low, hi + 1))
        top = logic.most_gaps(rows)
        if gaps is None:
            if level is not None:
                gaps = min(top, logic.level_value(level, glo, ghi))
            else:
                gaps = int(rng.integers(glo, top + 1))
        cols = params.get("cols")
        if cols is None:
            cols = int(rng.integers(logic.COLS[0], logic.COLS[1] + 1))
        return int(rows), int(cols), int(gaps)

    def build(self, params, rng, level):
        rows, cols, gaps = self.knobs(params, rng, level)
        found = first_found(ATTEMPTS, lambda: logic.sample(rng, rows, cols, gaps),
                            f"{self.NAME}: no {rows} x {cols} board with {gaps} gaps passed the filters in "
                            f"{ATTEMPTS} draws")
        counts = found.pop("counts")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        geometry = self.geometry(rows, cols)
        scene = {**found, "stem": stem, "colours": COLOURS}
        answer = str(counts["bounded"])
        knobs = {"rows": rows, "cols": cols, "gaps": gaps}
        moves = found["end"][0] - found["start"][0] + found["end"][1] - found["start"][1]
        return Instance(rows=rows, cols=cols, scene=scene, answers={"cartesian": answer, "polar": answer},
                        geometry=geometry, frame={}, params=knobs, knobs=knobs,
                        facts={**knobs, "moves": moves, "legs": [counts["first"], counts["second"]]})

    def question(self, instance, variant, letters, contents):
        return words.question(variant, instance.rows, instance.cols, instance.scene["stem"])

    def draw(self, instance, variant, letters, contents):
        scene, geometry = instance.scene, instance.geometry
        canvas = self.canvas_for(instance, variant)
        layout = canvas.layout
        for r, c in scene["holes"]:
            canvas.fill_cell(r, c, GAP)
        canvas.grid_lines()
        canvas.boundary(self.BOUNDARY)
        radius = float(geometry["icon_radius"])
        canvas.marker("X", *scene["start"], X_COLOUR, radius)
        canvas.marker("Y", *scene["end"], Y_COLOUR, radius)
        vr, vc = scene["via"]
        canvas.icon_at("triangle", layout.cell_center(vr, vc), CHECKPOINT, radius, angle=180.0)
        return canvas.image

    def distractors(self, problem, count, random):
        """Wrong counts: the checkpoint or the gaps ignored, one leg only, the legs added, near misses; never
        the count of the wrapping reading (sliding clockwise past the seam)."""
        scene = problem.metadata["scene"]
        found = logic.counts(scene["rows"], scene["cols"], scene["holes"], scene["start"], scene["via"],
                             scene["end"])
        return logic.wrong_counts(found)[:count]

    def hardness(self, item):
        """Moves per path plus gaps."""
        meta = item.metadata
        return float(meta["moves"] + len(meta["scene"]["holes"]))


TASK = CheckpointPaths()
