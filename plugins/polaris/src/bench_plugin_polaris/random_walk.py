"""``polaris/random-walk`` (spec card 47; paper Table 6, Stochastic Processes): the probability that a random
walk from A to B on a street map passes intersection C.

One logical instance per pair (``walk_logic``): a street map of 3-5 x 3-6 blocks, A and B the corners of a box
of 2-4 x 2-4 blocks (not 2 x 2), C an intersection inside it.  At each intersection the walker picks uniformly
among the streets one block right or down (polar: clockwise or inward) that do not pass B's column or row; the
question states this rule, and C is never a point where "every shortest path equally likely" gives the same
value.  The answer is an exact ``Fraction``.  The five options are the walk's probabilities at the intersections
nearest a drawn point of the box (a misplaced C gives each), the answer drawn uniformly among them: the spec's
other suggestions (the equal-paths value, 1 - p, (1/2)^k) are never right and so give themselves away to an
option-only guesser (``bench audit`` measured 0.50 against chance 0.20 with them).  Partially aligned with the
same answer (spec 2.3): the polar map has n + 2 or n + 3 sectors with full circular streets (wrapping), turned
by a drawn number of sectors so the A-B box may straddle 12 o'clock; the box's connectivity mirrors the
Cartesian map, so both items share the answer.
"""

from __future__ import annotations

from bench_core import GenerationError
from bench_plugin_polaris import walk_logic as logic
from bench_plugin_polaris import walk_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask

ATTEMPTS = 300
STREET = (90, 90, 90)
STREET_WIDTH = 4
MARKER_MAX = 20.0
MARKERS = {"A": kdraw.MARKER_COLOURS["orange"], "B": kdraw.MARKER_COLOURS["sky blue"],
           "C": kdraw.MARKER_COLOURS["green"]}
COLOURS = {"street": list(STREET), **{k: list(v) for k, v in MARKERS.items()}}


class RandomWalk(PairedTask):
    NAME = "random-walk"
    CATEGORY = CATEGORIES["CP"]
    VERIFIER = "random_walk"
    SUB_CATEGORY = "stochastic-processes"
    BOUNDARY = "wrapping"
    ALIGNMENT = "partial"
    SAME_ANSWER_ALLOWED = True
    ANSWER_TYPE = "option"
    OPTION_COUNT = logic.OPTIONS
    PICTURE_OPTIONS = False
    ORIENTATION = "out"
    R0 = 0.3

    def build(self, params, rng, level):
        lo, hi = logic.SPAN
        span = logic.level_value(level, lo, hi) if level is not None else int(rng.integers(lo, hi + 1))
        for _attempt in range(ATTEMPTS):
            rows = int(rng.integers(logic.ROWS[0], logic.ROWS[1] + 1))
            cols = int(rng.integers(logic.COLS[0], logic.COLS[1] + 1))
            found = logic.sample(rng, rows, cols, span)
            if found is not None:
                break
        else:
            raise GenerationError(f"{self.NAME}: no street map with a {span}-step box passed the filters in "
                                  f"{ATTEMPTS} draws")
        spare = int(rng.integers(logic.SPARE[0], logic.SPARE[1] + 1))
        shift = int(rng.integers(cols + spare))
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        geometry = self.geometry(rows, cols, extra_sectors=spare)
        value = logic.text(found["value"])
        scene = {"start": found["start"], "end": found["end"], "via": found["via"], "polar_shift": shift,
                 "stem": stem, "colours": COLOURS}
        return Instance(rows=rows, cols=cols, scene=scene, answers={"cartesian": value, "polar": value},
                        distractors=tuple(logic.text(v) for v in found["wrong"]), geometry=geometry, frame={},
                        params={}, knobs={"steps": span}, facts={"steps": span, "probability": value})

    def question(self, instance, variant, letters, contents):
        sectors = instance.cols + int(instance.geometry["extra_sectors"])
        return words.question(variant, instance.rows, instance.cols, sectors, instance.scene["stem"], letters,
                              contents)

    def draw(self, instance, variant, letters, contents):
        scene, geometry = instance.scene, instance.geometry
        m, n = instance.rows, instance.cols
        canvas = self.canvas_for(instance, variant)
        layout = canvas.layout
        polar = variant == "polar"
        width = layout.columns_drawn if polar else n
        for i in range(m + 1):
            canvas.polyline([(0, i), (width, i)], STREET, STREET_WIDTH)
        for j in range(width if polar else n + 1):
            canvas.polyline([(j, 0), (j, m)], STREET, STREET_WIDTH)
        shift = int(scene["polar_shift"]) if polar else 0
        radius = min(float(geometry["icon_radius"]), MARKER_MAX)
        for letter, key in (("A", "start"), ("B", "end"), ("C", "via")):
            i, j = scene[key]
            at = layout.lattice_point(i, j + shift)
            canvas.icon_at("disc", at, MARKERS[letter], radius)
            canvas.text(letter, at, kdraw.BLACK, reserve=False)
        return canvas.image

    def hardness(self, item):
        """Steps from A to B."""
        return float(item.metadata["steps"])


TASK = RandomWalk()
