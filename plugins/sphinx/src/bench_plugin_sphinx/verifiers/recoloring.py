"""Verifier of ``sphinx/tiles-recoloring``: the differing cells are read off the two boards' pixels.

The scene records the cells' outlines (corner pixels and, per cell, its corners in order) and where the two
boards stand.  The verifier draws its own map of cell interiors (each recorded polygon filled with its
number, a 3 px band along every outline left out) and reads both boards through it: every cell must show
one exact colour on each board (white, or a named colour), both frames must be black, the black (outline)
pixels must be the same on both boards and so must every pixel no cell covers (gaps between disks,
margins), so the boards are the same grid in the same place.  The answer is the number of cells whose
colour differs; the recorded cell colours are not read.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx import recolour_words as words
from bench_plugin_sphinx.verifiers.pixels import NAMED, hex_rgb, image_keys
from bench_plugin_sphinx.verifiers.records import guarded


def colour_keys(image) -> np.ndarray:
    """Each pixel's colour as one integer 0xBBGGRR (h x w)."""
    return image_keys(image if image.mode == "RGB" else image.convert("RGB"))


def _key(name: str) -> int:
    r, g, b = (int(v) for v in hex_rgb(NAMED[name]))
    return r | g << 8 | b << 16


def interior_map(size: int, xy: np.ndarray, polygons: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """((size x size) cell number + 1 at each pixel well inside a recorded cell, 0 elsewhere; the pixels no
    recorded cell covers at all)."""
    canvas = Image.new("I", (size, size), 0)
    draw = ImageDraw.Draw(canvas)
    for k, verts in enumerate(polygons):
        draw.polygon([tuple(xy[v]) for v in verts], fill=k + 1, outline=k + 1)
    uncovered = np.asarray(canvas) == 0
    for verts in polygons:
        ring = [tuple(xy[v]) for v in verts]
        draw.line([*ring, ring[0]], fill=0, width=3)
    return np.asarray(canvas), uncovered


def cell_colours(board: np.ndarray, ids: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """(each cell's colour key, read at its centre pixel; the cells with a pixel of another colour)."""
    ref = np.zeros(len(centres) + 1, dtype=board.dtype)  # number 0 (no cell) reads as key 0, then masked off
    ref[1:] = board[centres[:, 1], centres[:, 0]]
    mixed = (board != ref[ids]) & (ids > 0)
    return ref[1:].astype(np.int64), [int(k) - 1 for k in np.unique(ids[mixed])]


def centre_pixels(xy: np.ndarray, polygons: list[list[int]], ids: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Each cell's vertex mean rounded to a pixel, and the cells whose centre pixel is not well inside them."""
    centres = np.array([np.rint(xy[verts].mean(axis=0)) for verts in polygons], dtype=int)
    centres = np.clip(centres, 0, ids.shape[0] - 1)
    off = [k for k, (x, y) in enumerate(centres) if ids[y, x] != k + 1]
    return centres, off


@guarded
def verify(item, images) -> list[str]:
    scene, failures = item.metadata["scene"], []
    if words.RULE not in item.question:
        failures.append("the question does not state what counts as a differing cell")
    keys = colour_keys(images[0])
    (l1, t1, r1, b1), (l2, t2, r2, b2) = scene["board_boxes"]
    frame, side = int(scene["frame"]), int(scene["side"])
    if (r1 - l1, b1 - t1) != (r2 - l2, b2 - t2) or r1 - l1 != side + 2 * frame:
        return [*failures, f"the board boxes {scene['board_boxes']} do not hold two boards of side {side}"]
    panels = []
    for left, top, right, bottom in scene["board_boxes"]:
        box = keys[top:bottom, left:right]
        ring = np.ones(box.shape, dtype=bool)
        ring[frame:-frame, frame:-frame] = False
        if (box[ring] != 0).any():
            failures.append(f"the frame of the board at ({left}, {top}) is not black")
        panels.append(box[frame:-frame, frame:-frame])
    xy = np.array(scene["vertices"], dtype=float)
    polygons = scene["polygons"]
    ids, uncovered = interior_map(side, xy, polygons)
    allowed = {_key(n) for n in NAMED if n != "black"}
    centres, off = centre_pixels(xy, polygons, ids)
    if off:
        return [*failures, f"{len(off)} recorded cells have no interior around their centre (e.g. cell {off[0]})"]
    read = []
    for name, panel in zip(("left", "right"), panels, strict=True):
        colours, bad = cell_colours(panel, ids, centres)
        if bad:
            failures.append(f"{len(bad)} cells of the {name} board do not show one flat colour (e.g. cell {bad[0]})")
        if not set(colours.tolist()) <= allowed:
            failures.append(f"the {name} board has cells in colours that are not white or a named colour")
        read.append(colours)
    moved = int(((panels[0] == 0) != (panels[1] == 0)).sum() + (panels[0] != panels[1])[uncovered].sum())
    if moved:
        failures.append(f"{moved} outline or background pixels differ between the boards (the grids do not line "
                        "up)")
    if failures:
        return failures
    differing = int((read[0] != read[1]).sum())
    try:
        claimed = int(str(item.answer).strip())
    except ValueError:
        return [f"answer {item.answer!r} is not an integer"]
    if differing != claimed:
        failures.append(f"{differing} cells differ between the boards in the picture, but the answer is {claimed}")
    return failures
