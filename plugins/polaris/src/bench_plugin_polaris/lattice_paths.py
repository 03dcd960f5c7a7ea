"""``polaris/lattice-paths`` (spec card 43; paper Table 6, Bounded Combinatorics): count the paths on a dot grid
that step right, down or diagonally down-right.

One logical instance per pair (``lattice_logic``): an (m + 1) x (n + 1) dot grid, m, n in 2..4, 1-3 removed
dots (crossed out in red), A top-left and B bottom-right.  The Cartesian picture draws the dots and faint guide
lines; the polar one puts the dots where m + 1 circles meet radial lines 1..n+1 of S = n + 2 sectors (orientation
"out": A on the outermost circle), so the lattice lines x = 0 and x = S, which merge at 12 o'clock, carry no dot
(spec 2.6) and the seam there is a thick wall.  Both renderings count the same paths.
"""

from __future__ import annotations

from bench_core import ParameterError
from bench_plugin_polaris import lattice_logic as logic
from bench_plugin_polaris import lattice_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask, first_found

ATTEMPTS = 200
DOT = (0, 0, 0)
GUIDE = (185, 185, 185)
CROSS = kdraw.MARKER_COLOURS["vermilion"]
A_COLOUR = kdraw.MARKER_COLOURS["orange"]
B_COLOUR = kdraw.MARKER_COLOURS["sky blue"]
DOT_RADIUS = 7
CROSS_HALF = 11
COLOURS = {"dot": list(DOT), "cross": list(CROSS), "A": list(A_COLOUR), "B": list(B_COLOUR)}


def dot_point(layout, i: int, j: int, shift: int):
    """The pixel of dot (i, j): lattice point (i, j + shift) of the layout (shift 1 in polar, 0 in Cartesian)."""
    return layout.lattice_point(i, j + shift)


class LatticePaths(PairedTask):
    NAME = "lattice-paths"
    CATEGORY = CATEGORIES["CP"]
    VERIFIER = "lattice_paths"
    SUB_CATEGORY = "bounded-combinatorics"
    BOUNDARY = "bounded"
    ALIGNMENT = "full"
    ANSWER_TYPE = "integer"
    OPTION_COUNT = 0
    ORIENTATION = "out"
    R0 = 0.25
    EXTRA_SECTORS = logic.SPARE

    def check_params(self, params):
        m, n, removed = params.get("rows"), params.get("cols"), params.get("removed")
        if m is not None and n is not None and removed is not None and removed < logic.fewest_removed(m, n):
            raise ParameterError(f"parameter 'removed': a {m} x {n} grid with {removed} removed dots has more than "
                                 f"{logic.COUNT[1]} paths; allowed: at least {logic.fewest_removed(m, n)}")

    def knobs(self, params, rng, level) -> tuple[int, int, int]:
        """(m, n, removed): set parameters win, then the level (m + n from 4 to 8 and removed dots rise with
        it, the split of m + n drawn), then draws; a 4 x 4 grid loses at least 2 dots."""
        lo, hi = logic.SIZES
        m, n, removed = params.get("rows"), params.get("cols"), params.get("removed")
        if level is not None and (m is None or n is None):
            size = logic.level_value(level, 2 * lo, 2 * hi)
            if m is None and n is None:
                m = int(rng.integers(max(lo, size - hi), min(hi, size - lo) + 1))
            if m is None:
                m = min(hi, max(lo, size - n))
            if n is None:
                n = min(hi, max(lo, size - m))
        m = int(rng.integers(lo, hi + 1)) if m is None else m
        n = int(rng.integers(lo, hi + 1)) if n is None else n
        fewest = logic.fewest_removed(m, n)
        if removed is None:
            rlo, rhi = logic.REMOVED
            removed = max(fewest, logic.level_value(level, rlo, rhi)) if level is not None else int(
                rng.integers(fewest, rhi + 1))
        return int(m), int(n), int(removed)

    def build(self, params, rng, level):
        m, n, removed = self.knobs(params, rng, level)
        found = first_found(ATTEMPTS, lambda: logic.sample(rng, m, n, removed),
                            f"{self.NAME}: no {m} x {n} dot grid with {removed} removed dots has "
                            f"{logic.COUNT[0]}..{logic.COUNT[1]} paths ({ATTEMPTS} draws)")
        counts = found.pop("counts")
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        geometry = self.geometry(m, n)
        scene = {**found, "stem": stem, "colours": COLOURS, "polar_shift": logic.SHIFT}
        answer = str(counts["bounded"])
        knobs = {"rows": m, "cols": n, "removed": removed}
        return Instance(rows=m, cols=n, scene=scene, answers={"cartesian": answer, "polar": answer},
                        geometry=geometry, frame={}, params=knobs, knobs=knobs,
                        facts={**knobs, "readings": counts})

    def question(self, instance, variant, letters, contents):
        scene = instance.scene
        return words.question(variant, instance.rows, instance.cols, bool(scene["removed"]), scene["stem"])

    def draw(self, instance, variant, letters, contents):
        scene, geometry = instance.scene, instance.geometry
        m, n = instance.rows, instance.cols
        canvas = self.canvas_for(instance, variant)
        layout = canvas.layout
        shift = int(scene["polar_shift"]) if variant == "polar" else 0
        for i in range(m + 1):  # guide lines between neighbouring dots: arcs / radials in polar
            canvas.polyline([(shift, i), (n + shift, i)], GUIDE, kdraw.GRID_WIDTH)
        for j in range(n + 1):
            canvas.polyline([(j + shift, 0), (j + shift, m)], GUIDE, kdraw.GRID_WIDTH)
        if variant == "polar":
            canvas.seam_wall()
        removed = {tuple(d) for d in scene["removed"]}
        for i in range(m + 1):
            for j in range(n + 1):
                x, y = dot_point(layout, i, j, shift)
                if (i, j) in removed:
                    for dx in (-1, 1):
                        canvas.line([(x - CROSS_HALF, y - dx * CROSS_HALF), (x + CROSS_HALF, y + dx * CROSS_HALF)],
                                    CROSS, 4)
                elif (i, j) not in ((0, 0), (m, n)):
                    canvas.draw.ellipse((round(x) - DOT_RADIUS, round(y) - DOT_RADIUS, round(x) + DOT_RADIUS,
                                         round(y) + DOT_RADIUS), fill=DOT)
        radius = float(geometry["icon_radius"])
        for letter, (i, j), colour in (("A", (0, 0), A_COLOUR), ("B", (m, n), B_COLOUR)):
            at = dot_point(layout, i, j, shift)
            canvas.icon_at("disc", at, colour, radius)
            canvas.text(letter, at, kdraw.BLACK, reserve=False)
        return canvas.image

    def distractors(self, problem, count, random):
        """Wrong counts: the Delannoy number (removed dots ignored), the count without diagonal steps, a removed
        dot put back, near misses; never the count of the wrapping reading."""
        scene = problem.metadata["scene"]
        readings = problem.metadata["readings"]
        exclude = {int(problem.answer), readings["wrapping"]}
        return logic.wrong_counts(scene["rows"], scene["cols"], scene["removed"], int(problem.answer), exclude)[:count]

    def hardness(self, item):
        """Steps across (m + n) plus removed dots."""
        scene = item.metadata["scene"]
        return float(scene["rows"] + scene["cols"] + len(scene["removed"]))


TASK = LatticePaths()
