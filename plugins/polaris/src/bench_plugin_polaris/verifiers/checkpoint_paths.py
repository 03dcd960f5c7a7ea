"""Verifier of ``polaris/checkpoint-paths``: every right/down path from X to Y is listed one by one
(depth-first search) and those through the checkpoint counted, instead of multiplying two dynamic-programming
counts; X, Y, the checkpoint, the gaps and the seam wall are read off the pixels through the layout's inverse
map."""

from __future__ import annotations

from bench_plugin_polaris.kit import pixels as kpixels
from bench_plugin_polaris.kit import text
from bench_plugin_polaris.verifiers import cp_paths, cp_pixels
from bench_plugin_polaris.verifiers.cell_ink import guarded

MOVES = ((0, 1), (1, 0))


def through_checkpoint(scene) -> int:
    """How many right/down paths from X to Y (bounded, avoiding the gaps) pass the checkpoint."""
    rows, cols = int(scene["rows"]), int(scene["cols"])
    holes = {tuple(c) for c in scene["holes"]}
    successors = cp_paths.grid_successors(rows, cols, MOVES, lambda r, c: (r, c) in holes, wrap=False)
    via = tuple(scene["via"])
    return sum(via in path for path in cp_paths.simple_paths(tuple(scene["start"]), tuple(scene["end"]), successors))


@guarded
def verify(item, images, layout_of) -> list[str]:
    """Failures of a checkpoint-paths item (empty when sound)."""
    scene, meta = item.metadata["scene"], item.metadata
    rows, cols = int(scene["rows"]), int(scene["cols"])
    failures: list[str] = []
    count = through_checkpoint(scene)
    if item.answer != str(count):
        failures.append(f"listing the paths gives {count} through the checkpoint, the item says {item.answer}")
    start, via, end = (tuple(scene[k]) for k in ("start", "via", "end"))
    holes = {tuple(c) for c in scene["holes"]}
    if len({start, via, end}) < 3 or holes & {start, via, end}:
        failures.append("X, Y, the checkpoint and the gaps must be distinct cells")
    if meta.get("moves") != end[0] - start[0] + end[1] - start[1]:
        failures.append(f"the recorded moves {meta.get('moves')} are not the X -> Y distance")
    if text.dims_phrase(item.variant, rows, cols) not in item.question:
        failures.append("the question does not state the board's dimensions")
    if text.boundary_sentence(item.variant, "bounded") not in item.question:
        failures.append("the question does not state the seam wall")
    failures += _pixel_failures(scene, images[0], layout_of(item))
    return failures


def _pixel_failures(scene, image, layout) -> list[str]:
    colours = {k: tuple(v) for k, v in scene["colours"].items()}
    array = kpixels.as_array(image)
    reader = kpixels.PixelReader(array, layout, stride=4)
    failures = []
    for key, name in (("X", "start"), ("Y", "end"), ("checkpoint", "via")):
        failures += cp_pixels.compare(cp_pixels.marker_cells(reader, colours[key]), {tuple(scene[name])}, key)
    holes = {tuple(c) for c in scene["holes"]}
    failures += cp_pixels.compare(cp_pixels.filled_cells(reader, colours["gap"]), holes, "a gap")
    failures += cp_pixels.boundary_failures(array, layout, seam_wall=True)
    return failures
