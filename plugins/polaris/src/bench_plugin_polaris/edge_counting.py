"""``polaris/edge-counting`` (spec card 46; paper Table 6, Stochastic Processes): count the cell edges an ant
traverses from P to Q.

One logical instance per pair (``edge_logic``): a trail of 8-25 unit edges, a self-avoiding walk along the grid
lines of a 4-7 x 5-9 grid that never uses the two outer column lines (they merge into the 12 o'clock radial in
polar, spec 2.6), so nothing touches the seam: boundary-invariant, no seam wall drawn.  In polar every arc
between neighbouring radial lines and every radial piece between neighbouring circles counts as one edge,
whatever its drawn length.  Five options, consecutive counts; the answer's offset in them is drawn uniformly and
the window start uniformly (or from the level), so neither the value's rank nor its text gives it away.
"""

from __future__ import annotations

from bench_core import GenerationError
from bench_plugin_polaris import edge_logic as logic
from bench_plugin_polaris import edge_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask

ATTEMPTS = 400
TRAIL = kdraw.MARKER_COLOURS["vermilion"]
P_COLOUR = kdraw.MARKER_COLOURS["orange"]
Q_COLOUR = kdraw.MARKER_COLOURS["sky blue"]
TRAIL_WIDTH = 7
MARKER_MAX = 17.0
COLOURS = {"trail": list(TRAIL), "P": list(P_COLOUR), "Q": list(Q_COLOUR)}


class EdgeCounting(PairedTask):
    NAME = "edge-counting"
    CATEGORY = CATEGORIES["CP"]
    VERIFIER = "edge_counting"
    SUB_CATEGORY = "stochastic-processes"
    BOUNDARY = "invariant"
    ALIGNMENT = "full"
    ANSWER_TYPE = "option"
    OPTION_COUNT = logic.OPTIONS
    PICTURE_OPTIONS = False
    ORIENTATION = "out"
    R0 = 0.3

    def build(self, params, rng, level):
        start, offset = logic.window(rng, level)
        length = start + offset
        for _attempt in range(ATTEMPTS):
            rows, cols = logic.grid_for(length, rng)
            found = logic.sample(rng, rows, cols, length)
            if found is not None:
                break
        else:
            raise GenerationError(f"{self.NAME}: no trail of {length} edges in {ATTEMPTS} draws")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        geometry = self.geometry(rows, cols)
        scene = {**found, "stem": stem, "colours": COLOURS, "window": [start, start + logic.OPTIONS - 1]}
        wrong = tuple(str(v) for v in range(start, start + logic.OPTIONS) if v != length)
        knobs = {"edges": length}
        return Instance(rows=rows, cols=cols, scene=scene, answers={"cartesian": str(length), "polar": str(length)},
                        distractors=wrong, geometry=geometry, frame={}, params={}, knobs=knobs,
                        facts={"edges": length, "turns": logic.turns([tuple(p) for p in found["trail"]])})

    def question(self, instance, variant, letters, contents):
        return words.question(variant, instance.rows, instance.cols, instance.scene["stem"], letters, contents)

    def draw(self, instance, variant, letters, contents):
        scene, geometry = instance.scene, instance.geometry
        canvas = self.canvas_for(instance, variant)
        layout = canvas.layout
        canvas.grid_lines()
        canvas.boundary(self.BOUNDARY)  # invariant: polar draws the circles only, no seam wall
        trail = [(j, i) for i, j in scene["trail"]]
        canvas.polyline(trail, TRAIL, TRAIL_WIDTH)
        radius = min(float(geometry["icon_radius"]), MARKER_MAX)
        for letter, (i, j), colour in (("P", scene["trail"][0], P_COLOUR), ("Q", scene["trail"][-1], Q_COLOUR)):
            at = layout.lattice_point(i, j)
            canvas.icon_at("disc", at, colour, radius)
            canvas.text(letter, at, kdraw.BLACK, reserve=False)
        return canvas.image

    def hardness(self, item):
        """The number of edges to count."""
        return float(item.metadata["edges"])


TASK = EdgeCounting()
