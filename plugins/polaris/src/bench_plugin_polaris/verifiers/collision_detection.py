"""Verifier of ``polaris/collision-detection``: the crashes re-derived by stepping time, the cars and arrows read
off the pixels.

From the record alone: with speeds of 1-3 cells per tick every crash time has a denominator dividing 60, so
time is stepped in sixtieths of a tick (``STEPS``) with integer positions (in sixtieths of a cell; columns mod
the board's columns in the wrapping reading, and without the wrap a car past a side is gone), and a crash is
two cars on the same point at the same step (not the generator's closed forms).  The first crash must be one
pair's alone, by tick 6, the next at least half a tick later; no column mover may reach a border (half a cell
past the last row) before it; a row mover and a column mover that do not crash must pass their crossing a
tick or more apart.  The option naming the first pair must be the only correct one and carry the answer's
letter; no option may name the pair that crashes first in the bounded reading unless it is the answer.  The
question must be the words' for the record.  On the pixels: each car's colour must fill its recorded cell
only; every cell an arrow covers must show dark ink at its centre and no other empty cell may; the Cartesian
sides must be dashed and the polar seam open (the board wraps).
"""

from __future__ import annotations

from bench_core import option_letters
from bench_plugin_polaris import collision_detection_words as words
from bench_plugin_polaris.verifiers.cell_ink import cells_with, compare_cells, guarded, pixels, thick_at

STEPS = 60
HORIZON = 6
NEAR_MISS = STEPS  # a tick, in steps
MIN_SHARE = 0.5  # of the disc's area a car's cell must hold in its colour


def _rgb(value: str) -> tuple[int, int, int]:
    return tuple(int(value[k: k + 2], 16) for k in (1, 3, 5))


def positions(car: dict, step: int) -> tuple[int, int]:
    """(row, column) of ``car`` after ``step`` sixtieths of a tick, in sixtieths of a cell, unwrapped."""
    dr, dc = car["direction"]
    return car["row"] * STEPS + dr * car["speed"] * step, car["col"] * STEPS + dc * car["speed"] * step


def first_meetings(cars: list[dict], rows: int, cols: int, wrap: bool, last: int) -> dict[tuple[int, int], int]:
    """The first step (1..last) at which each pair of cars is on one point, in the reading."""
    found: dict[tuple[int, int], int] = {}
    for step in range(1, last + 1):
        seen: dict[tuple[int, int], list[int]] = {}
        for k, car in enumerate(cars):
            r, c = positions(car, step)
            if not -STEPS // 2 <= r <= rows * STEPS - STEPS // 2:
                continue  # a column mover past the inner / outer border
            if wrap:
                c %= cols * STEPS
            elif not -STEPS // 2 <= c <= cols * STEPS - STEPS // 2:
                continue  # gone past a side of the bounded board
            seen.setdefault((r, c), []).append(k)
        for group in seen.values():
            for a in range(len(group)):
                for b in range(a + 1, len(group)):
                    found.setdefault((group[a], group[b]), step)
    return found


def _crossing_ok(mover: dict, radial: dict, rows: int, cols: int, until: int) -> bool:
    """Whether a row mover and a column mover that do not crash pass their crossing at least a tick apart up
    to step ``until`` (the column mover's time at the row, against every time the row mover is at the column)."""
    target_r = mover["row"] * STEPS
    times_r = [s for s in range(0, until + NEAR_MISS + 1) if positions(radial, s)[0] == target_r]
    times_c = [s for s in range(0, until + NEAR_MISS + 1)
               if positions(mover, s)[1] % (cols * STEPS) == radial["col"] * STEPS]
    return all(abs(a - b) >= NEAR_MISS for a in times_r for b in times_c)


@guarded
def verify(item, images, layout_of) -> list[str]:
    scene, failures = item.metadata["scene"], []
    rows, cols = int(scene["rows"]), int(scene["cols"])
    cars = scene["cars"]
    last = (HORIZON + 1) * STEPS
    meetings = first_meetings(cars, rows, cols, True, last)
    if not meetings:
        return ["no two cars crash by tick 7"]
    order = sorted(meetings.items(), key=lambda kv: kv[1])
    pair, first = order[0]
    if first > HORIZON * STEPS:
        failures.append(f"the first crash comes after tick {HORIZON}")
    if len(order) > 1 and order[1][1] - first < STEPS // 2:
        failures.append(f"crashes {order[0]} and {order[1]} come less than half a tick apart (no clear first)")
    for k, car in enumerate(cars):
        if car["direction"][0] and any(not -STEPS // 2 < positions(car, s)[0] < rows * STEPS - STEPS // 2
                                       for s in range(first + 1)):
            edge = "top or bottom edge" if item.variant == "cartesian" else "inner or outer circle"
            failures.append(f"car {k + 1} reaches the {edge} before the first crash")
    for i, a in enumerate(cars):
        for j, b in enumerate(cars):
            key = (min(i, j), max(i, j))
            if (a["direction"][0] == 0 and b["direction"][0] != 0 and key not in meetings
                    and not _crossing_ok(a, b, rows, cols, first)):
                failures.append(f"cars {i + 1} and {j + 1} pass their crossing less than a tick apart")
    names = [car["colour"] for car in cars]
    letters = option_letters(len(item.options or ()))
    truth = words.pair_text(names, *pair)
    correct = [letter for letter, text in zip(letters, item.options or (), strict=True) if text == truth]
    if correct != [item.answer]:
        failures.append(f"the first crash is {truth}; options naming it {correct}; the answer is {item.answer}")
    bounded = first_meetings(cars, rows, cols, False, last)
    if bounded:
        other = words.pair_text(names, *min(bounded.items(), key=lambda kv: kv[1])[0])
        if other != truth and other in (item.options or ()):
            failures.append(f"{other}, first to crash without the wrap, is an option")
    if item.question != words.question(item.variant, rows, cols, len(cars), scene["stem"], letters,
                                       list(item.options)):
        failures.append("the question is not the one the record gives (board, cars, options)")
    array = pixels(images[0])
    layout = layout_of(item)
    area = 3.14159 * float(scene["geometry"]["icon_radius"]) ** 2
    for k, car in enumerate(cars):
        found = cells_with(array, layout, _rgb(car["hex"]), int(MIN_SHARE * area))
        failures += compare_cells(found, {(car["row"], car["col"])}, f"car {k + 1} ({car['colour']})")
    occupied = {(car["row"], car["col"]) for car in cars}
    covered = set()
    for car in cars:
        dr, dc = car["direction"]
        covered |= {(car["row"] + dr * s, (car["col"] + dc * s) % cols) for s in range(1, car["speed"] + 1)}
    for r in range(rows):
        for c in range(cols):
            if (r, c) in occupied:
                continue
            x, y = layout.cell_center(r, c)
            inked = array[round(y) - 1: round(y) + 2, round(x) - 1: round(x) + 2].max(axis=2).min() < 60
            if inked != ((r, c) in covered):
                failures.append(f"cell ({r + 1}, {c + 1}) {'shows' if inked else 'lacks'} arrow ink at its centre, "
                                f"but the record {'has no' if inked else 'has an'} arrow through it")
    if layout.kind == "cartesian":
        x0, y0, x1, y1 = layout.grid_box()
        for x in (x0, x1):
            share = sum(array[round(y0 + (y1 - y0) * t / 200), round(x)].max() < 60 for t in range(201)) / 201
            if not 0.3 <= share <= 0.85:
                failures.append(f"a side edge of the grid is not dashed (dark {share:.0%} of its length): the board "
                                "wraps")
    else:
        inner, _outer = layout.seam()
        for ring in range(rows):
            mid = (layout.ring_radius(ring) + layout.ring_radius(ring + 1)) / 2
            if thick_at(array, inner[0], layout.center[1] - mid):
                failures.append(f"ring {ring + 1} is cut by a wall at 12 o'clock (the board wraps)")
    return failures
