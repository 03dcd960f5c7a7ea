"""Verifier of ``polaris/edge-counting``: the trail is read off the pixels, one unit edge at a time (the trail
colour at the mapped midpoint of every edge of the grid, arcs and radial pieces in polar), and counted; the edges
read must be exactly the recorded trail's, which must be a simple walk from P to Q off the two outer column
lines; exactly one option holds the count."""

from __future__ import annotations

import itertools

import numpy as np

from bench_plugin_polaris.kit import pixels as kpixels
from bench_plugin_polaris.verifiers.cell_ink import guarded


def grid_edges(layout) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every unit edge of the layout's grid as a pair of lattice points (polar: the arcs of all S sectors, the
    last one closing the circle)."""
    rows, cols = layout.rows, layout.columns_drawn
    polar = layout.kind == "polar"
    edges = []
    for i in range(rows + 1):
        for j in range(cols):
            edges.append(((i, j), (i, j + 1)))
    for i in range(rows):
        for j in range(cols if polar else cols + 1):
            edges.append(((i, j), (i + 1, j)))
    return edges


def drawn_edges(image, layout, colour) -> set[frozenset]:
    """The unit edges whose mapped midpoint has the trail colour within 2 px (lattice point ``(i, S)`` taken
    as ``(i, 0)`` in polar); ``image`` may already be its ``as_array`` pixels."""
    array = image if isinstance(image, np.ndarray) else kpixels.as_array(image)
    width = layout.columns_drawn
    edges = grid_edges(layout)
    if not edges:
        return set()
    xs = np.array([(a[1] + b[1]) / 2 for a, b in edges], float)
    ys = np.array([(a[0] + b[0]) / 2 for a, b in edges], float)
    px, py = layout.map_points(xs, ys)
    near = kpixels.colours_near(array, np.stack([px, py], axis=1), colour, 2)
    found = set()
    for (a, b), hit in zip(edges, near, strict=True):
        if hit:
            if layout.kind == "polar":
                a, b = (a[0], a[1] % width), (b[0], b[1] % width)
            found.add(frozenset((a, b)))
    return found


@guarded
def verify(item, images, layout_of) -> list[str]:
    """Failures of an edge-counting item (empty when sound)."""
    scene = item.metadata["scene"]
    rows, cols = int(scene["rows"]), int(scene["cols"])
    trail = [tuple(p) for p in scene["trail"]]
    failures: list[str] = []
    if len(set(trail)) != len(trail):
        failures.append("the recorded trail visits a point twice")
    if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in itertools.pairwise(trail)):
        failures.append("the recorded trail makes a step that is not one unit edge")
    if any(not (0 <= i <= rows and 1 <= j <= cols - 1) for i, j in trail):
        failures.append("the recorded trail leaves the grid or touches the outer column lines (the polar seam)")
    recorded = {frozenset(pair) for pair in itertools.pairwise(trail)}
    colours = {k: tuple(v) for k, v in scene["colours"].items()}
    layout = layout_of(item)
    array = kpixels.as_array(images[0])
    read = drawn_edges(array, layout, colours["trail"])
    if read != recorded:
        extra, missing = len(read - recorded), len(recorded - read)
        failures.append(f"the trail drawn has {len(read)} edges ({extra} not recorded, {missing} recorded edges "
                        "missing)")
    count = len(read)
    options = list(item.options or ())
    holding = [k for k, text in enumerate(options) if text.strip() == str(count)]
    if len(holding) != 1:
        failures.append(f"{len(holding)} options hold the count {count} read off the picture: {options}")
    elif chr(ord("A") + holding[0]) != item.answer:
        failures.append(f"the count {count} is option {chr(ord('A') + holding[0])}, the item says {item.answer}")
    for key, point in (("P", trail[0]), ("Q", trail[-1])):
        if not kpixels.colour_near(array, layout.lattice_point(*point), colours[key], 3):
            failures.append(f"{key} is not drawn at the trail's {'start' if key == 'P' else 'end'} {point}")
    if item.metadata.get("edges") != len(recorded):
        failures.append(f"the recorded edge count {item.metadata.get('edges')} is not the trail's {len(recorded)}")
    return failures
