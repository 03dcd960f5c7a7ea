"""``polaris/sudoku`` (spec card 49; the paper's Figure 21): a 6 x 6 Sudoku with outlined boxes; what number
replaces the '?' in the highlighted cell?

One logical instance (``sudoku_logic``) per pair: a full grid by randomised backtracking, cells emptied while the
solution stays unique down to the level's number of givens, and a target cell that no single row, column or
box settles (at the harder half of the scale, one its row, column and box together leave open).  Options: five
of the six digits, the dropped one a digit the target's row, column or box already excludes.  Polar: 6 rings x
6 sectors (ring 1 = row 1, orientation "in", as in the paper's example), regions of 2 rings x 3 sectors or
3 x 2 outlined with thick lines; the seam is an ordinary region border.  Topology-invariant and fully aligned.
"""

from __future__ import annotations

from bench_core import ParameterError
from bench_plugin_polaris import sudoku_logic as logic
from bench_plugin_polaris import sudoku_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit import draw as kdraw
from bench_plugin_polaris.kit.pairs import Instance, PairedTask, first_found

ATTEMPTS = 60
#: The highlighted (asked) cell's fill: light yellow, used by nothing else.
HIGHLIGHT = (255, 232, 120)
#: Px of the row / column (ring / sector) numbers: smaller than the puzzle's digits, and grey.
LABEL_PX = 18
BOX_NAMES = {"2x3": (2, 3), "3x2": (3, 2)}


def knobs_for(level: float | None, rng, givens: int | None) -> tuple[int, bool]:
    """(givens, deep): a set number of givens wins; else from ``level`` (22 at 0 down to 10 at 1), else drawn;
    ``deep`` (the target needs more than its own row, column and box) from the level's upper half, else drawn."""
    lo, hi = logic.GIVENS
    if givens is None:
        givens = hi - round(level * (hi - lo)) if level is not None else int(rng.integers(lo, hi + 1))
    deep = level >= 0.5 if level is not None else bool(rng.integers(2))
    return givens, deep


class Sudoku(PairedTask):
    CATEGORY = CATEGORIES["ALS"]
    VERIFIER = "sudoku"
    SUB_CATEGORY = "constraint-satisfaction"
    BOUNDARY = "invariant"
    ALIGNMENT = "full"
    ANSWER_TYPE = "option"
    OPTION_COUNT = logic.OPTIONS
    ORIENTATION = "in"
    R0 = 0.25
    FONT_PX = 28

    def check_params(self, params):
        if params.get("givens") is not None and params.get("difficulty") is not None:
            raise ParameterError("parameter 'givens': set givens or difficulty, not both (the level sets the number "
                                 "of givens); allowed: one of them")

    def build_pair(self, params, random, pair, rng, level):
        givens, deep = knobs_for(level, rng, params.get("givens"))
        # the box shape alternates over consecutive pairs (both items of a pair share it)
        name = params.get("box") or ("2x3", "3x2")[self.pair_choice(random, pair, 2, "box")]
        box = BOX_NAMES[name]
        found = first_found(ATTEMPTS, lambda: logic.sample(rng, box, givens, deep),
                            f"sudoku: no {name} puzzle with {givens} givens and an open target in {ATTEMPTS} "
                            "draws")
        plausible, excluded = logic.wrong_digits(found)
        plausible = [plausible[int(i)] for i in rng.permutation(len(plausible))]
        excluded = [excluded[int(i)] for i in rng.permutation(len(excluded))]
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        size = logic.SIZE
        filled = sum(1 for row in found["puzzle"] for v in row if v)
        geometry = self.geometry(size, size)
        scene = {"box": list(box), "puzzle": found["puzzle"], "target": found["target"], "stem": stem}
        answer = str(found["answer"])
        return Instance(rows=size, cols=size, scene=scene, answers={"cartesian": answer, "polar": answer},
                        distractors=tuple(str(d) for d in plausible + excluded), geometry=geometry, frame={},
                        params={"box": name, "givens": filled} if params.get("givens") is None else {"box": name},
                        knobs={"givens": givens, "deep": deep},
                        facts={"box": name, "givens": filled, "deep": deep})

    def question(self, instance, variant, letters, contents):
        scene = instance.scene
        return words.question(variant, instance.rows, scene["target"], scene["stem"], letters, contents)

    def draw(self, instance, variant, letters, contents):
        scene = instance.scene
        canvas = self.canvas_for(instance, variant)
        layout = canvas.layout
        tr, tc = scene["target"]
        canvas.fill_cell(tr, tc, HIGHLIGHT)
        canvas.grid_lines()
        bh, bw = scene["box"]
        for i in range(bh, instance.rows, bh):  # the box borders, each a whole ring / row line in one stroke
            canvas.row_line(i)
        for j in range(bw, instance.cols, bw):
            canvas.column_line(j)
        canvas.boundary(self.BOUNDARY)
        if variant == "polar":
            canvas.seam_wall()  # the last and the first sector always lie in different boxes: a box border
        # row / column or ring / sector numbers as the question counts them: grey and smaller than the digits
        canvas.index_labels(self.ORIENTATION, kdraw.GRID, LABEL_PX)
        for r, row in enumerate(scene["puzzle"]):
            for c, value in enumerate(row):
                if value:
                    canvas.text(str(value), layout.cell_center(r, c), reserve=False)
        canvas.text("?", layout.cell_center(tr, tc), reserve=False)
        return canvas.image

    def hardness(self, item):
        """Empty cells of the puzzle, plus 6 when the target needs more than its row, column and box."""
        scene = item.metadata["scene"]
        empty = sum(1 for row in scene["puzzle"] for v in row if not v)
        return float(empty + 6 * bool(item.metadata.get("deep")))


TASK = Sudoku()
