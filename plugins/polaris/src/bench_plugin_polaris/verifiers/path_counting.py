"""Verifier of ``polaris/path-counting``: the number of shortest paths re-derived by enumerating paths one by
one (depth-first, iterative deepening on the length; the generator used BFS layers and a DP), under the
bounded reading for the answer and under the wrapping reading to prove no option is right there; the picture
read back through the layout's inverse map (grey cells, P and Q, the walls)."""

from __future__ import annotations

from bench_plugin_polaris.kit import pixels
from bench_plugin_polaris.kit.pairs import frame_from
from bench_plugin_polaris.verifiers import common

LIMIT = 16


def _steps(rows: int, cols: int, blocked: set, wrap: bool):
    def around(r: int, c: int):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if wrap:
                nc %= cols
            if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in blocked:
                yield nr, nc
    return around


def enumerate_shortest(rows: int, cols: int, blocked: set, start: tuple, goal: tuple, wrap: bool
                       ) -> tuple[int | None, int]:
    """(length, number) of the shortest paths found by depth-first enumeration of every walk of length L,
    L = the grid distance, then one more, ... up to ``LIMIT`` (a walk of the shortest length never revisits a
    cell); walks that cannot reach Q in the steps left (grid distance, cyclic across the wrap) are cut."""
    around = _steps(rows, cols, blocked, wrap)

    def apart(cell) -> int:
        dc = abs(cell[1] - goal[1])
        return abs(cell[0] - goal[0]) + (min(dc, cols - dc) if wrap else dc)

    for length in range(apart(start), LIMIT + 1):
        found = 0
        stack = [(start, 0)]
        while stack:
            cell, used = stack.pop()
            if used == length:
                found += cell == goal
                continue
            for nxt in around(*cell):
                if used + 1 + apart(nxt) <= length:
                    stack.append((nxt, used + 1))
        if found:
            return length, found
    return None, 0


def verify(task, item, images) -> list[str]:
    failures = task.pair_failures(item)
    scene = item.metadata["scene"]
    rows, cols = scene["rows"], scene["cols"]
    blocked = {tuple(b) for b in scene["blocked"]}
    start, goal = tuple(scene["start"]), tuple(scene["goal"])
    if start in blocked or goal in blocked or start == goal:
        return [*failures, "P and Q must be distinct free cells"]
    length, count = enumerate_shortest(rows, cols, blocked, start, goal, wrap=False)
    if not count:
        return [*failures, "Q cannot be reached from P"]
    _, wrap_count = enumerate_shortest(rows, cols, blocked, start, goal, wrap=True)
    options = list(item.options or ())
    correct = [k for k, o in enumerate(options) if o == str(count)]
    if len(correct) != 1:
        failures.append(f"{len(correct)} options equal the count {count} of shortest paths: {options}")
    elif "ABCDEFGHIJ"[correct[0]] != item.answer:
        failures.append(f"the answer {item.answer} is not the option holding the count {count}")
    if len(set(options)) != len(options):
        failures.append(f"the options are not distinct: {options}")
    if wrap_count != count and str(wrap_count) in options:
        failures.append(f"option {wrap_count} is right under the wrapping reading (the seam crossed)")
    if item.metadata.get("distance") != length:
        failures.append(f"the recorded distance {item.metadata.get('distance')} differs from the enumerated {length}")
    if not images:
        return [*failures, "no image"]
    image = images[0]
    layout = task.layout_of(item)
    fr = frame_of(item)
    failures += common.frame_failures(item, image, fr)
    if failures:
        return failures
    arr = pixels.as_array(image)
    failures += common.boundary_failures(arr, layout, "bounded", wraps=False)
    reader = pixels.PixelReader(arr, layout)
    failures += common.shading_failures(reader, blocked)
    radius = scene["geometry"]["icon_radius"]
    from bench_plugin_polaris.path_counting_words import GOAL_COLOUR, START_COLOUR  # the legend's colours

    failures += common.marker_failures(reader, {"start P": (start, START_COLOUR), "goal Q": (goal, GOAL_COLOUR)},
                                       radius)
    return failures


def frame_of(item):
    """The frame of the item's image, from its record."""
    scene = item.metadata["scene"]
    return frame_from(scene["frame"], item.variant, scene["geometry"])
