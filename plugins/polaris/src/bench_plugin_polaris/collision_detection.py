"""``polaris/collision-detection`` (spec card 52; paper Table 7): cars with velocity arrows on a wrapping grid;
which two crash first?

One logical instance (``collision_detection_logic``) per pair: 4-6 cars on 3-5 rows (rings) of 8-12 columns
(sectors), each driving along its row or its column at 1-3 cells per tick; exact crash times (``Fraction``)
per pair; a unique first crash by tick 6, every other crash at least half a tick later, no column mover
reaching a border first, no near misses at crossings, arrows clear of cars and of each other.  Fully aligned
and wrapping: the Cartesian twin declares the left/right wrap (dashed edges, the question says so).  About half
the pairs (balanced over pairs) have a first crash that uses the wrap; the pair that would crash first without
it is never a wrong option.  Options: five colour pairs, the others pairs that crash later first.
"""

from __future__ import annotations

from bench_core import ParameterError
from bench_plugin_polaris import collision_detection_logic as logic
from bench_plugin_polaris import collision_detection_words as words
from bench_plugin_polaris.descriptions.common import CATEGORIES
from bench_plugin_polaris.kit.pairs import Instance, PairedTask, first_found

ATTEMPTS = 20_000


def hex_rgb(value: str) -> tuple[int, int, int]:
    """"#d62728" -> (214, 39, 40)."""
    return tuple(int(value[k: k + 2], 16) for k in (1, 3, 5))


def knobs_for(level: float | None, rng, params) -> tuple[int, int, int]:
    """(rows, cols, cars): set values win; else from ``level`` (3 x 8 with 4 cars up to 5 x 12 with 6), else
    drawn (at most ``logic.max_cars`` of the board)."""
    steps = 3
    if level is not None:
        k = min(steps - 1, int(level * steps))
        drawn = (logic.ROWS[0] + k, logic.COLS[0] + 2 * k, logic.CARS[0] + k)
    else:
        for _ in range(50):  # a set number of cars needs a board that takes them
            rows = params.get("rows") or int(rng.integers(logic.ROWS[0], logic.ROWS[1] + 1))
            cols = params.get("cols") or int(rng.integers(logic.COLS[0], logic.COLS[1] + 1))
            if (params.get("cars") or 0) <= logic.max_cars(rows, cols):
                break
        drawn = (rows, cols, int(rng.integers(logic.CARS[0], logic.max_cars(rows, cols) + 1)))
    return tuple(params.get(k) or v for k, v in zip(("rows", "cols", "cars"), drawn, strict=True))


class CollisionDetection(PairedTask):
    CATEGORY = CATEGORIES["ALS"]
    VERIFIER = "collision_detection"
    SUB_CATEGORY = "motion-trajectory-prediction"
    BOUNDARY = "wrapping"
    ALIGNMENT = "full"
    ANSWER_TYPE = "option"
    OPTION_COUNT = logic.OPTIONS
    ORIENTATION = "out"
    R0 = 0.3

    def check_params(self, params):
        rows, cols, cars = params.get("rows"), params.get("cols"), params.get("cars")
        if rows and cols and cars and cars > logic.max_cars(rows, cols):
            raise ParameterError(f"parameter 'cars': {cars} cars do not fit a {rows} x {cols} board with their "
                                 f"arrows clear of each other; allowed: at most {logic.max_cars(rows, cols)}")

    def build_pair(self, params, random, pair, rng, level):
        rows, cols, count = knobs_for(level, rng, params)
        wraps = bool(self.pair_choice(random, pair, 2, "wrap-use"))
        found = first_found(ATTEMPTS, lambda: logic.sample(rng, rows, cols, count, wraps),
                            f"collision-detection: no {count} cars on {rows} x {cols} with a clear first crash "
                            f"({'using' if wraps else 'not using'} the wrap) in {ATTEMPTS} draws")
        names = [car["colour"] for car in found["cars"]]
        answer = words.pair_text(names, *found["answer"])
        wrong = [words.pair_text(names, *p) for p in logic.distractor_pairs(found, rng)]
        stem = words.STEMS[int(rng.integers(len(words.STEMS)))]
        scene = {"cars": found["cars"], "stem": stem}
        return Instance(rows=rows, cols=cols, scene=scene, answers={"cartesian": answer, "polar": answer},
                        distractors=tuple(wrong), geometry=self.geometry(rows, cols, wrap=True),
                        frame={"legend_lines": count}, params={"rows": rows, "cols": cols, "cars": count},
                        knobs={"rows": rows, "cols": cols, "cars": count},
                        facts={"rows": rows, "cols": cols, "cars": count, "crash_time": found["time"],
                               "uses_wrap": wraps, "crash_times": found["crashes"],
                               "bounded_first": found["bounded"]})

    def question(self, instance, variant, letters, contents):
        return words.question(variant, instance.rows, instance.cols, len(instance.scene["cars"]),
                              instance.scene["stem"], letters, contents)

    def draw(self, instance, variant, letters, contents):
        cars, geometry = instance.scene["cars"], instance.geometry
        canvas = self.canvas_for(instance, variant)
        canvas.grid_lines()
        canvas.boundary(self.BOUNDARY)
        radius = float(geometry["icon_radius"])
        for car in cars:
            dr, dc = car["direction"]
            r, c, v = car["row"], car["col"], car["speed"]
            start = (c + 0.5, r + 0.5)
            end = (c + 0.5 + dc * v, r + 0.5 + dr * v)
            canvas.arrow([start, end], hex_rgb(car["hex"]), wrap=True)  # in the car's colour
        for car in cars:
            canvas.icon("disc", car["row"], car["col"], hex_rgb(car["hex"]), radius)
        canvas.legend([("disc", hex_rgb(car["hex"]), f"{car['colour']} car") for car in cars])
        return canvas.image

    def hardness(self, item):
        """The number of cars plus the number of pairs that ever crash (each a candidate to rule out)."""
        return float(item.metadata["cars"] + len(item.metadata["crash_times"]))


TASK = CollisionDetection()
