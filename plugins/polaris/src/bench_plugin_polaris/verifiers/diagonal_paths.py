"""Verifier of the diagonal-path tasks: the paths are listed one by one (depth-first search, under both
boundary readings) instead of counted by dynamic programming, and the board is read off the pixels through the
layout's inverse map (P, Q, blocked cells, the checkerboard, the seam wall or its absence)."""

from __future__ import annotations

import itertools

from bench_plugin_polaris.kit import pixels as kpixels
from bench_plugin_polaris.kit import text
from bench_plugin_polaris.verifiers import cp_paths, cp_pixels
from bench_plugin_polaris.verifiers.cell_ink import guarded

MOVES = ((1, -1), (1, 1))


def enumerated(scene, wrap: bool) -> list[tuple]:
    """Every diagonal path from P to Q under one boundary reading."""
    rows, cols = int(scene["rows"]), int(scene["cols"])
    blocked = {tuple(c) for c in scene["blocked"]}
    successors = cp_paths.grid_successors(rows, cols, MOVES, lambda r, c: (r, c) in blocked, wrap)
    return cp_paths.simple_paths(tuple(scene["start"]), tuple(scene["end"]), successors)


def crosses_seam(path: tuple, cols: int) -> bool:
    """Whether a path steps between the last column and the first (more than one column at once)."""
    return any(abs(b[1] - a[1]) > 1 for a, b in itertools.pairwise(path))


@guarded
def verify(item, images, layout_of, boundary: str) -> list[str]:
    """Failures of a diagonal-path item (empty when sound)."""
    scene, meta = item.metadata["scene"], item.metadata
    variant = item.variant
    rows, cols = int(scene["rows"]), int(scene["cols"])
    failures: list[str] = []
    wraps = boundary == "wrapping" and variant == "polar"
    paths = {"bounded": enumerated(scene, False), "wrapping": enumerated(scene, True)}
    counts = {k: len(v) for k, v in paths.items()}
    if any(crosses_seam(p, cols) for p in paths["bounded"]):
        failures.append("a bounded path crosses the seam")
    reading = "wrapping" if wraps else "bounded"
    if item.answer != str(counts[reading]):
        failures.append(f"listing the paths under the {reading} reading gives {counts[reading]}, the item says "
                        f"{item.answer}")
    if meta.get("readings") != counts:
        failures.append(f"the recorded counts {meta.get('readings')} differ from the listed ones {counts}")
    if boundary == "wrapping":
        other = "bounded" if wraps else "wrapping"
        if meta.get("other_answer") != str(counts[other]):
            failures.append(f"other_answer {meta.get('other_answer')!r} is not the {other} count {counts[other]}")
        if not scene["checkered"] or cols % 2:
            failures.append("a wrapping board must be a checkerboard with an even number of columns")
    start, end = tuple(scene["start"]), tuple(scene["end"])
    if start[0] != 0 or end[0] != rows - 1:
        failures.append(f"P {start} must be in the first row and Q {end} in the last")
    if text.dims_phrase(variant, rows, cols) not in item.question:
        failures.append("the question does not state the board's dimensions")
    if text.boundary_sentence(variant, boundary, wraps=wraps) not in item.question:
        failures.append("the question does not state the boundary the picture shows")
    failures += _pixel_failures(item, images[0], layout_of(item), boundary, wraps)
    return failures


def _pixel_failures(item, image, layout, boundary: str, wraps: bool) -> list[str]:
    scene = item.metadata["scene"]
    colours = {k: tuple(v) for k, v in scene["colours"].items()}
    array = kpixels.as_array(image)
    reader = kpixels.PixelReader(array, layout, stride=4)
    failures = cp_pixels.compare(cp_pixels.marker_cells(reader, colours["P"]), {tuple(scene["start"])}, "P")
    failures += cp_pixels.compare(cp_pixels.marker_cells(reader, colours["Q"]), {tuple(scene["end"])}, "Q")
    blocked = {tuple(c) for c in scene["blocked"]}
    failures += cp_pixels.compare(cp_pixels.filled_cells(reader, colours["blocked"]), blocked, "a blocked cell")
    if scene["checkered"]:
        dark = {(r, c) for r in range(int(scene["rows"])) for c in range(int(scene["cols"])) if (r + c) % 2} - blocked
        failures += cp_pixels.compare(cp_pixels.filled_cells(reader, colours["checker"]), dark,
                                      "a checkerboard square")
    failures += cp_pixels.boundary_failures(array, layout, seam_wall=boundary == "bounded" and not wraps)
    return failures
