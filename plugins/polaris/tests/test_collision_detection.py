"""polaris/collision-detection: crash times against hand-worked pairs (head-on, catch-up, across the wrap,
perpendicular), both routes agreeing, the filters, wrap-use balance, and planted rendering faults."""

from __future__ import annotations

from fractions import Fraction

import attrs
import numpy as np
import pytest
from bench_plugin_polaris import collision_detection as task_module
from bench_plugin_polaris import collision_detection_logic as logic
from bench_plugin_polaris.verifiers import collision_detection as verifier
from PIL import ImageDraw
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, seam_line, task_of

from bench_core import assert_rejected

TASK = task_of("collision_detection")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)


def car(row, col, direction, speed):
    return {"row": row, "col": col, "direction": list(direction), "speed": speed}


RIGHT, LEFT, UP, DOWN = (0, 1), (0, -1), (-1, 0), (1, 0)


@pytest.mark.parametrize(("a", "b", "wrapping", "bounded"), [
    (car(1, 0, RIGHT, 1), car(1, 3, LEFT, 2), Fraction(1), Fraction(1)),  # head-on: 3 cells at 3 per tick
    (car(1, 0, RIGHT, 3), car(1, 2, RIGHT, 1), Fraction(1), Fraction(1)),  # catch-up: 2 cells at 2 per tick
    (car(1, 0, LEFT, 1), car(1, 6, RIGHT, 1), Fraction(1), None),  # apart, but 2 cells apart across the wrap
    (car(1, 0, RIGHT, 1), car(3, 2, UP, 1), Fraction(2), Fraction(2)),  # both at (1, 2) at tick 2
    (car(1, 0, RIGHT, 1), car(3, 3, UP, 1), None, None),  # the column mover arrives a tick early
    (car(1, 1, RIGHT, 2), car(1, 2, LEFT, 1), Fraction(1, 3), Fraction(1, 3)),  # swapping places: meet between
])
def test_hand_worked_crash_times(a, b, wrapping, bounded):
    assert logic.crash_time(a, b, 5, 8, wrap=True) == wrapping
    assert logic.crash_time(a, b, 5, 8, wrap=False) == bounded
    steps = verifier.first_meetings([a, b], 5, 8, True, 7 * verifier.STEPS)
    assert steps.get((0, 1)) == (None if wrapping is None else wrapping * verifier.STEPS)


def test_both_routes_agree_on_samples_and_wrap_use_is_honoured():
    rng = np.random.default_rng(6)
    seen = {True: 0, False: 0}
    while min(seen.values()) < 6:
        wraps = seen[True] > seen[False]
        found = logic.sample(rng, 4, 10, 5, not wraps)
        if found is None:
            continue
        seen[not wraps] += 1
        cars = found["cars"]
        steps = verifier.first_meetings(cars, 4, 10, True, 7 * verifier.STEPS)
        first = min(steps.items(), key=lambda kv: kv[1])
        assert list(first[0]) == found["answer"] and Fraction(first[1], verifier.STEPS) == Fraction(found["time"])
        bounded = verifier.first_meetings(cars, 4, 10, False, 7 * verifier.STEPS)
        plain = min(bounded.items(), key=lambda kv: kv[1]) if bounded else None
        assert (plain is None or plain != first) == (not wraps)
        wrong = logic.distractor_pairs(found, rng)
        assert found["answer"] not in wrong and (found["bounded"] is None or found["bounded"] not in wrong)


def test_arrows_never_cover_a_car_or_another_arrow():
    rng = np.random.default_rng(2)
    for _ in range(10):
        found = None
        while found is None:
            found = logic.sample(rng, 5, 12, 6, bool(rng.integers(2)))
        cells = [logic.arrow_cells(c, 12) for c in found["cars"]]
        flat = [cell for group in cells for cell in group]
        assert len(flat) == len(set(flat))
        assert not set(flat) & {(c["row"], c["col"]) for c in found["cars"]}


def test_wrap_use_is_balanced_over_pairs():
    items = [b.item for b in build_run(TASK, 8, {"variant": "polar"}, seed=3)]
    assert sum(item.metadata["uses_wrap"] for item in items) == 4


@pytest.mark.parametrize("index", [0, 1])
def test_planted_rendering_faults_are_caught(index):
    built = build(TASK, {"rows": 4, "cols": 10, "cars": 5}, seed=2, index=index)
    cars = [dict(c) for c in built.item.metadata["scene"]["cars"]]
    slower = [dict(c) for c in cars]
    k = next(i for i, c in enumerate(slower) if c["speed"] > 1)
    slower[k]["speed"] -= 1
    failures = assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, cars=slower)],
                               "an arrow drawn a cell short")
    assert any("at its centre" in f for f in failures), failures
    swapped = [dict(c) for c in cars]
    swapped[0]["hex"], swapped[1]["hex"] = cars[1]["hex"], cars[0]["hex"]
    assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, cars=swapped)], "two cars' colours swapped")


class _BlackArrows(task_module.CollisionDetection):
    def draw(self, instance, variant, letters, contents):  # the 0.1.0 drawing: every arrow black
        cars = [{**car, "hex": "#000000"} for car in instance.scene["cars"]]
        image = super().draw(attrs.evolve(instance, scene={**instance.scene, "cars": cars}), variant, letters, contents)
        discs = super().draw(instance, variant, letters, contents)
        for car in instance.scene["cars"]:  # the discs and the legend back in their colours
            layout = IMPL.layout_of(self._item)
            x, y = layout.cell_center(car["row"], car["col"])
            box = tuple(round(v) for v in (x - 40, y - 40, x + 40, y + 40))
            image.paste(discs.crop(box), box[:2])
        return image


@pytest.mark.parametrize("index", [0, 1])
def test_each_arrow_is_drawn_in_its_cars_colour(index):
    built = build(TASK, {"rows": 4, "cols": 10, "cars": 5}, seed=3, index=index)
    array = np.asarray(built.images[0].convert("RGB"))
    layout = IMPL.layout_of(built.item)
    for car in built.item.metadata["scene"]["cars"]:
        dr, dc = car["direction"]
        x, y = layout.cell_center(car["row"] + dr, (car["col"] + dc) % 10)
        assert tuple(array[round(y), round(x)]) == verifier._rgb(car["hex"])  # its first arrow cell's centre
    black = _BlackArrows()
    black._item = built.item
    failures = assert_rejected(HOST, TASK, built.item, [black.draw(*_structure(built))], "black arrows")
    assert any("shows no arrow at its centre" in f for f in failures), failures


def _structure(built):
    instance, letters, contents = built.problem.structure
    return instance, built.item.variant, letters, contents


def test_a_wall_at_the_seam_or_solid_sides_are_caught():
    polar = build(TASK, seed=4, index=1)
    image = seam_line(IMPL, polar, (0, 0, 0), 7)
    failures = assert_rejected(HOST, TASK, polar.item, [image], "a seam wall drawn")
    assert any("cut by a wall" in f for f in failures), failures
    cart = build(TASK, seed=4, index=0)
    image = cart.images[0].copy()
    x0, y0, _x1, y1 = IMPL.layout_of(cart.item).grid_box()
    ImageDraw.Draw(image).line([(x0, y0), (x0, y1)], fill=(0, 0, 0), width=6)
    failures = assert_rejected(HOST, TASK, cart.item, [image], "a solid left border")
    assert any("not dashed" in f for f in failures), failures


def test_difficulty_sets_board_and_cars():
    easy = build(TASK, {"difficulty": 0.0}, seed=1).item.metadata
    hard = build(TASK, {"difficulty": 1.0}, seed=1).item.metadata
    assert (easy["rows"], easy["cols"], easy["cars"]) == (3, 8, 4)
    assert (hard["rows"], hard["cols"], hard["cars"]) == (5, 12, 6)
