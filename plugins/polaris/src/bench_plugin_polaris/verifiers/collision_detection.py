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
only (its arrow's cells aside); every cell an arrow covers must show that car's colour at its centre
(the arrows are drawn in their car's colour) and no other empty cell may; the Cartesian
sides must be dashed and the polar seam open (the board wraps).
"""

from __future__ import annotations

import numpy as np

from bench_core import option_letters
from bench_plugin_polaris import collision_detection_words as words
from bench_plugin_polaris.kit.pixels import gather
from bench_plugin_polaris.verifiers.cell_ink import (
    cells_with_colours,
    compare_cells,
    guarded,
    pixels,
    seam_cut_failures,
)

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
    """The first step (1..last) at which each pair of cars is on one point, in the reading; ordered by step,
    then (within a step) by the smallest car index on the point, then by the pair.  Every car's position at
    every step is one integer array (a car past the inner / outer border, or past a side of the bounded
    board, is gone)."""
    if len(cars) < 2:
        return {}
    step = np.arange(1, last + 1)
    r = np.array([car["row"] * STEPS + car["direction"][0] * car["speed"] * step for car in cars])
    c = np.array([car["col"] * STEPS + car["direction"][1] * car["speed"] * step for car in cars])
    half = -STEPS // 2
    on = (r >= half) & (r <= rows * STEPS + half)  # a column mover past the inner / outer border is gone
    if wrap:
        c %= cols * STEPS
    else:
        on &= (c >= half) & (c <= cols * STEPS + half)  # gone past a side of the bounded board
    count = len(cars)
    hits = []
    for a in range(count):
        for b in range(a + 1, count):
            together = on[a] & on[b] & (r[a] == r[b]) & (c[a] == c[b])
            if together.any():
                t = int(np.argmax(together))
                there = on[:, t] & (r[:, t] == r[a, t]) & (c[:, t] == c[a, t])
                hits.append((t + 1, int(np.argmax(there)), a, b))
    return {(a, b): t for t, _first, a, b in sorted(hits)}


def _crossing_ok(mover: dict, radial: dict, rows: int, cols: int, until: int) -> bool:
    """Whether a row mover and a column mover that do not crash pass their crossing at least a tick apart up
    to step ``until`` (the column mover's time at the row, against every time the row mover is at the column)."""
    target_r = mover["row"] * STEPS
    times_r = [s for s in range(0, until + NEAR_MISS + 1) if positions(radial, s)[0] == target_r]
    times_c = [s for s in range(0, until + NEAR_MISS + 1)
               if positions(mover, s)[1] % (cols * STEPS) == radial["col"] * STEPS]
    return all(abs(a - b) >= NEAR_MISS for a in times_r for b in times_c)


def _colours_at_centres(array: np.ndarray, layout, cells: list[tuple[int, int]], colours: list) -> list[list[int]]:
    """For each cell, the indices of ``colours`` found in the 3 x 3 pixels about its centre (one gather)."""
    if not cells:
        return []
    centres = np.array([layout.cell_center(r, c) for r, c in cells], float)
    offsets = np.arange(-1, 2)
    xs = np.rint(centres[:, 0]).astype(int)[:, None, None] + offsets[None, None, :]
    ys = np.rint(centres[:, 1]).astype(int)[:, None, None] + offsets[None, :, None]
    shape = (len(cells), 3, 3)
    patch = gather(array, np.broadcast_to(ys, shape), np.broadcast_to(xs, shape)).astype(np.int64)  # (.., rgb)
    keys = (patch[..., 0] << 16) | (patch[..., 1] << 8) | patch[..., 2]
    wanted = np.array([(r << 16) | (g << 8) | b for r, g, b in colours], np.int64)
    hit = (keys.reshape(len(cells), 9, 1) == wanted[None, None, :]).any(axis=1)
    return [np.nonzero(row)[0].tolist() for row in hit]


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
    colours = [_rgb(car["hex"]) for car in cars]
    ahead = [{(car["row"] + car["direction"][0] * s, (car["col"] + car["direction"][1] * s) % cols)
              for s in range(1, car["speed"] + 1)} for car in cars]
    found = cells_with_colours(array, layout, colours, int(MIN_SHARE * area))
    for k, (car, cells) in enumerate(zip(cars, found, strict=True)):
        # a disc's worth of the car's colour in its own cell; its arrow (same colour, thinner) may add its cells
        failures += compare_cells(cells - ahead[k], {(car["row"], car["col"])}, f"car {k + 1} ({car['colour']})")
    occupied = {(car["row"], car["col"]) for car in cars}
    owner = {cell: k for k, cells in enumerate(ahead) for cell in cells}
    empty = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in occupied]
    for (r, c), shown in zip(empty, _colours_at_centres(array, layout, empty, colours), strict=True):
        want = [owner[(r, c)]] if (r, c) in owner else []
        if shown != want:
            seen = f"car {shown[0] + 1}'s arrow" if shown else "no arrow"
            meant = f"car {want[0] + 1}'s arrow" if want else "no arrow"
            failures.append(f"cell ({r + 1}, {c + 1}) shows {seen} at its centre, but the record has {meant} "
                            "through it")
    if layout.kind == "cartesian":
        x0, y0, x1, y1 = layout.grid_box()
        ys = [round(y0 + (y1 - y0) * t / 200) for t in range(201)]
        for x in (x0, x1):
            share = float(np.count_nonzero(array[ys, round(x)].max(axis=1) < 60)) / 201
            if not 0.3 <= share <= 0.85:
                failures.append(f"a side edge of the grid is not dashed (dark {share:.0%} of its length): the board "
                                "wraps")
    else:
        failures += seam_cut_failures(array, layout, "the board wraps")
    return failures
