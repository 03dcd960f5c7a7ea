"""Verifier of ``polaris/bounded-knight-paths`` and ``polaris/knight-paths``: the number of K-move knight paths
re-derived by enumerating every move sequence depth-first (the generator used a DP over the moves), under
the item's rendering's reading for the answer and under the other reading for ``other_answer``; the picture
read back through the layout's inverse map (the knight, the target, the boundary)."""

from __future__ import annotations

from bench_plugin_polaris.kit import pixels
from bench_plugin_polaris.kit.pairs import frame_from
from bench_plugin_polaris.verifiers import common

JUMPS = [(a * x, b * y) for a, b in ((1, 2), (2, 1)) for x in (1, -1) for y in (1, -1)]


def enumerate_paths(rows: int, cols: int, start: tuple, target: tuple, k: int, wrap: bool) -> tuple[int, bool]:
    """(number of k-jump sequences from ``start`` ending on ``target``, whether any of them crosses between
    the last column and the first), by depth-first enumeration of every sequence (a branch is cut once the
    target is more than two rows or columns per jump left away: no jump moves farther)."""
    total, crossed_any = 0, False
    tr, tc = target
    stack = [(start, 0, False)]
    while stack:
        (r, c), used, crossed = stack.pop()
        if used == k:
            if (r, c) == target:
                total += 1
                crossed_any |= crossed
            continue
        reach = 2 * (k - used)
        gap = abs(c - tc)
        if abs(r - tr) > reach or (min(gap, cols - gap) if wrap else gap) > reach:
            continue
        for dr, dc in JUMPS:
            nr, raw = r + dr, c + dc
            if not 0 <= nr < rows:
                continue
            if 0 <= raw < cols:
                stack.append(((nr, raw), used + 1, crossed))
            elif wrap:
                stack.append(((nr, raw % cols), used + 1, True))
    return total, crossed_any


def verify(task, item, images) -> list[str]:
    failures = task.pair_failures(item)
    scene = item.metadata["scene"]
    rows, cols, k = scene["rows"], scene["cols"], scene["moves"]
    start, target = tuple(scene["start"]), tuple(scene["target"])
    wraps = scene["wraps"]
    if cols < 5:
        failures.append(f"{cols} columns: knight's moves coincide across the wrap (at least 5 needed)")
    if start == target:
        failures.append("the knight stands on the target")
    count, _ = enumerate_paths(rows, cols, start, target, k, wraps[item.variant])
    if item.answer.strip() != str(count):
        failures.append(f"the answer {item.answer} is not the {count} knight paths of {k} moves "
                        f"({'wrapping' if wraps[item.variant] else 'bounded'} reading)")
    other = "polar" if item.variant == "cartesian" else "cartesian"
    other_count, _ = enumerate_paths(rows, cols, start, target, k, wraps[other])
    if "other_answer" in item.metadata and str(item.metadata["other_answer"]) != str(other_count):
        failures.append(f"other_answer {item.metadata['other_answer']} is not the {other} rendering's {other_count}")
    if wraps != task.readings():
        failures.append(f"the recorded readings {wraps} are not the task's {task.readings()}")
    if not images:
        return [*failures, "no image"]
    image = images[0]
    layout = task.layout_of(item)
    failures += common.frame_failures(item, image, frame_from(scene["frame"], item.variant, scene["geometry"]))
    if failures:
        return failures
    polar_wraps = item.variant == "polar" and wraps["polar"]
    arr = pixels.as_array(image)
    failures += common.boundary_failures(arr, layout, task.BOUNDARY, wraps=polar_wraps)
    reader = pixels.PixelReader(arr, layout)
    from bench_plugin_polaris.knight_words import KNIGHT_COLOUR, TARGET_COLOUR  # the legend's colours

    radii = scene["geometry"]["icon_radii"]
    failures += common.marker_failures(reader, {"knight": (start, KNIGHT_COLOUR)}, radii[start[0]] * 0.75)
    failures += common.marker_failures(reader, {"target": (target, TARGET_COLOUR)}, radii[target[0]])
    return failures
