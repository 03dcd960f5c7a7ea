"""``polaris/maximum-collection`` (spec card 51; paper Table 7 and A.1): a maze with cheese numbers and a mouse;
the most cheese the mouse can eat on a walk that never enters a cell twice?

One logical instance (``maximum_collection_logic``) per pair: a random spanning-tree maze of the wrapping board
(4-6 rows and columns) with 1-4 extra openings, cheese 1-9 on about 60 % of the cells.  Partially aligned: the
Cartesian maze is bounded, the polar one wraps across 12 o'clock except where a wall is drawn on that line, so
the polar optimum is higher; both come from an exhaustive search with a node budget (rejected on overflow), and
instances where they coincide, or where an optimum eats all the cheese it can reach, are rejected.  Each item
lists five consecutive integers around its own answer with the other reading's answer left out, the answer at
the same balanced rank in both items (``PairedTask.OWN_OPTIONS``, ``kit.options``).
"""

from __future__ import annotations

from bench_core import GenerationError
from bench_plugin_polaris import maximum_collection_logic as logic
from bench_plugin_polaris import maximum_collection_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.options import windows
from bench_plugin_polaris.kit.pairs import Instance, PairedTask

ATTEMPTS = 200
#: The mouse's disc colour (kit.draw.MARKER_COLOURS' sky blue), used by nothing else.
MOUSE = (86, 180, 233)
#: Wall width, px (the kit's walls are 6): the short radial walls of the inner rings of a 6-ring polar maze
#: read as walls at native size.
MAZE_WALL = 8


def knobs_for(level: float | None, rng, params) -> tuple[int, int, int]:
    """(rows, cols, loops): set values win; else from ``level`` (4 x 4 with 1 opening up to 6 x 6 with 4), else
    drawn."""
    lo, hi = logic.SIZES
    llo, lhi = logic.LOOPS
    if level is not None:
        side = lo + min(hi - lo, int(level * (hi - lo + 1)))
        drawn = (side, side, llo + min(lhi - llo, int(level * (lhi - llo + 1))))
    else:
        drawn = (int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1)), int(rng.integers(llo, lhi + 1)))
    return tuple(params.get(k) or v for k, v in zip(("rows", "cols", "loops"), drawn, strict=True))


class MaximumCollection(PairedTask):
    CATEGORY = CATEGORIES["ALS"]
    VERIFIER = "maximum_collection"
    SUB_CATEGORY = "move-optimization"
    BOUNDARY = "wrapping"
    ALIGNMENT = "partial"
    ANSWER_TYPE = "option"
    OWN_OPTIONS = True
    OPTION_COUNT = logic.OPTIONS
    ORIENTATION = "out"
    R0 = 0.25

    def build_pair(self, params, random, pair, rng, level):
        rows, cols, loops = knobs_for(level, rng, params)
        rank = self.pair_choice(random, pair, logic.OPTIONS, "answer-rank")
        for _attempt in range(ATTEMPTS):
            found = logic.sample(rng, rows, cols, loops)
            if found is not None:
                options = windows({"cartesian": found["bounded"], "polar": found["wrapping"]}, rank,
                                              logic.OPTIONS)
                if options is not None:
                    break
        else:
            raise GenerationError(f"maximum-collection: no {rows} x {cols} maze with {loops} openings gave different "
                                  f"optima within the node budget in {ATTEMPTS} draws")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        scene = {"walls": found["walls"], "cheese": found["cheese"], "mouse": found["mouse"], "stem": stem}
        bounded, wrapping = found["bounded"], found["wrapping"]
        return Instance(rows=rows, cols=cols, scene=scene,
                        answers={"cartesian": str(bounded), "polar": str(wrapping)},
                        geometry=self.geometry(rows, cols), frame={},
                        params={"rows": rows, "cols": cols, "loops": loops},
                        knobs={"rows": rows, "cols": cols, "loops": loops},
                        facts={"rows": rows, "cols": cols, "loops": loops, "bounded_optimum": bounded,
                               "wrapping_optimum": wrapping, "best_paths": found["paths"], "options": options,
                               "answer_rank": rank})

    def question(self, instance, variant, letters, contents):
        return words.question(variant, instance.rows, instance.cols, instance.scene["stem"], letters, contents)

    def draw(self, instance, variant, letters, contents):
        scene, geometry = instance.scene, instance.geometry
        canvas = self.canvas_for(instance, variant)
        layout = canvas.layout
        canvas.grid_lines(kdraw.GRID_LIGHT)  # light thin lines, thick black walls: easy apart near the pole
        for a, b in scene["walls"]:
            seam = abs(a[1] - b[1]) > 1
            if seam and variant == "cartesian":
                continue  # the Cartesian maze has no seam edges: its left and right borders are walls anyway
            canvas.wall(tuple(a), tuple(b), width=MAZE_WALL)
        canvas.boundary(self.BOUNDARY, wraps=variant == "polar", width=MAZE_WALL)
        for r, c, amount in scene["cheese"]:
            canvas.text(str(amount), layout.cell_center(r, c), reserve=False)
        mr, mc = scene["mouse"]
        canvas.marker("M", mr, mc, MOUSE, float(geometry["icon_radius"]))
        return canvas.image

    def hardness(self, item):
        """Cells of the maze plus three per extra opening (each opening multiplies the walks to search)."""
        scene = item.metadata["scene"]
        return float(scene["rows"] * scene["cols"] + 3 * item.metadata["loops"])


TASK = MaximumCollection()
