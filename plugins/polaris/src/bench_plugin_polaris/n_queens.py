"""``polaris/n-queens`` (spec card 48; paper Table 7): a partial N-Queens board, bounded only; in which cell
must the missing queen of a named row (ring) go?

One logical instance (``n_queens_logic``) is drawn per pair: an n x n board (n = 5, 7 or 8; the asked cell
uniform among the cells solutions use, so no option text is right more often than another) keeps the queens of
all rows but 2-4 (the asked row's among them; 3 on 5 x 5), completable in exactly one way; the target row has
at least two columns free of attack from the given queens.  Five options, all cells of the target row, are
listed in the question: the answer, then wrong columns free of attack (they fail deeper), then attacked ones;
none is the target's column in any toroidal completion (the other boundary reading).  The polar board has n
rings and n sectors (ring 1 = row 1, orientation "in"), the seam at 12 o'clock a thick wall (ring numbers sit
beside it, ``Canvas.index_labels``), and the question defines the polar diagonals.
"""

from __future__ import annotations

from bench_core import GenerationError, ParameterError
from bench_plugin_polaris import n_queens_logic as logic
from bench_plugin_polaris import n_queens_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask

ATTEMPTS = 200
#: The queens' fill colour: used by nothing else in the picture, so the verifier finds them by it.
QUEEN = (128, 0, 96)
#: A crown in the unit disc (x right, y up): three points over a band.
CROWN = ((-0.85, -0.75), (0.85, -0.75), (0.85, -0.35), (0.95, 0.7), (0.45, 0.05), (0.0, 0.85), (-0.45, 0.05),
         (-0.95, 0.7), (-0.85, -0.35))


def knobs_for(level: float | None, rng, size: int | None = None, missing: int | None = None,
              choose=None) -> tuple[int, int]:
    """(board size, missing queens): set values win; else from ``level`` (size 5, 7, 8 and missing 2..4 rising
    with it), else drawn (the size by ``choose(count) -> index``, default ``rng``), within
    ``logic.missing_range(size)``."""
    if size is None:
        sizes = [n for n in logic.SIZES if missing is None or logic.missing_range(n)[0] <= missing
                 <= logic.missing_range(n)[1]]
        size = (sizes[min(len(sizes) - 1, int(level * len(sizes)))] if level is not None
                else sizes[choose(len(sizes)) if choose else int(rng.integers(len(sizes)))])
    if missing is None:
        mlo, mhi = logic.missing_range(size)
        missing = (mlo + min(mhi - mlo, int(level * (mhi - mlo + 1))) if level is not None
                   else int(rng.integers(mlo, mhi + 1)))
    return size, missing


def crown(at: tuple[float, float], radius: float) -> list[tuple[int, int]]:
    """The crown's pixel polygon centred at ``at``, ``radius`` px."""
    return [(round(at[0] + radius * x), round(at[1] - radius * y)) for x, y in CROWN]


class NQueens(PairedTask):
    CATEGORY = CATEGORIES["ALS"]
    VERIFIER = "n_queens"
    SUB_CATEGORY = "constraint-satisfaction"
    BOUNDARY = "bounded"
    ALIGNMENT = "full"
    ANSWER_TYPE = "option"
    OPTION_COUNT = logic.OPTIONS
    ORIENTATION = "in"
    R0 = 0.22

    def check_params(self, params):
        size, missing = params.get("size"), params.get("missing")
        if size is not None and missing is not None:
            low, high = logic.missing_range(size)
            if not low <= missing <= high:
                raise ParameterError(f"parameter 'missing': {missing} queens missing from a {size} x {size} board is "
                                     f"not allowed (some cells could never be asked); allowed: {low}..{high}")

    def build_pair(self, params, random, pair, rng, level):
        # the size is spread over consecutive pairs (both items of a pair share it)
        size, missing = knobs_for(level, rng, params.get("size"), params.get("missing"),
                                  lambda count: self.pair_choice(random, pair, count, "size"))
        for attempt in range(ATTEMPTS):
            if attempt % (ATTEMPTS // 4) == 0:  # the asked cell is kept for a while: its draw stays uniform
                target, column = logic.draw_target(rng, size)
            found = logic.sample(rng, size, missing, target, column)
            if found is not None:
                break
        else:
            raise GenerationError(f"n-queens: no {size} x {size} board with {missing} missing queens passed the "
                                  f"filters in {ATTEMPTS} draws")
        target, answer = found["target"], found["answer"]
        wrong = logic.distractor_columns(found, rng)
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        scene = {"queens": [[r, c] for r, c in sorted(found["queens"].items())], "target": target,
                 "missing": missing, "stem": stem}
        cell = words.option_text(target, answer)
        geometry = self.geometry(size, size)
        return Instance(rows=size, cols=size, scene=scene, answers={"cartesian": cell, "polar": cell},
                        distractors=tuple(words.option_text(target, c) for c in wrong),
                        geometry=geometry, frame={},
                        params={"size": size, "missing": missing},
                        knobs={"size": size, "missing": missing},
                        facts={"size": size, "missing": missing})

    def question(self, instance, variant, letters, contents):
        scene = instance.scene
        return words.question(variant, instance.rows, scene["target"], scene["missing"], scene["stem"], letters,
                              contents)

    def draw(self, instance, variant, letters, contents):
        geometry = instance.geometry
        canvas = self.canvas_for(instance, variant)
        layout = canvas.layout
        canvas.grid_lines()
        canvas.boundary(self.BOUNDARY)
        canvas.index_labels(self.ORIENTATION)
        radius = float(geometry["icon_radius"])
        for r, c in instance.scene["queens"]:
            canvas.draw.polygon(crown(layout.cell_center(r, c), radius), fill=QUEEN, outline=kdraw.BLACK)
        return canvas.image

    def hardness(self, item):
        """Board size plus the number of missing queens."""
        scene = item.metadata["scene"]
        return float(scene["rows"] + scene["missing"])


TASK = NQueens()
