"""Verifier of ``polaris/bouncing-point``: both end cells by closed form, the point and its arrow on the pixels.

From the record alone: each bounded axis of L cells is unfolded (position p + v n taken on a triangle wave of
period 2 (L - 1)) and the wrapping column taken mod the columns (not the generator's step-by-step simulation);
the item's answer must be its rendering's end cell (Cartesian: both axes bounce; polar: the rows bounce, the
columns loop) and ``other_answer`` the other's, and the two must differ; the first step must stay on the board
(the arrow never points off it).  The question must be the words' for the record.  On the pixels: the point's
colour must be in the start cell only; the arrow's tip cell must show dark ink at its centre and no cell other
than the start and tip cells may; the Cartesian border must be thick on both sides and the polar seam open.
"""

from __future__ import annotations

import numpy as np

from bench_plugin_polaris import bouncing_point_words as words
from bench_plugin_polaris.kit.pixels import gather
from bench_plugin_polaris.verifiers.cell_ink import (
    cells_with,
    compare_cells,
    guarded,
    pixels,
    seam_cut_failures,
    thick_at,
)

POINT = (213, 40, 40)
MIN_SHARE = 0.5


def fold(p: int, v: int, n: int, length: int) -> int:
    """Where a point bouncing on an axis of ``length`` cells is after ``n`` steps: p + v n on a triangle wave."""
    if length == 1 or v == 0:
        return p
    period = 2 * (length - 1)
    m = (p + v * n) % period
    return m if m <= length - 1 else period - m


def end_cells(rows: int, cols: int, start, velocity, steps: int) -> dict[str, tuple[int, int]]:
    """{"cartesian": both axes bounce, "polar": rows bounce, columns loop}."""
    (r, c), (dr, dc) = start, velocity
    row = fold(r, dr, steps, rows)
    return {"cartesian": (row, fold(c, dc, steps, cols)), "polar": (row, (c + dc * steps) % cols)}


def _text(cell) -> str:
    return f"({cell[0] + 1}, {cell[1] + 1})"


def _inked_centres(array: np.ndarray, layout, cells: list[tuple[int, int]]) -> list[bool]:
    """For each cell, whether any of the 3 x 3 pixels about its centre is dark (ink at the centre: the arrow's
    tip), read in one gather."""
    rows = np.array([rr for rr, _cc in cells], float) + 0.5
    cols = np.array([cc for _rr, cc in cells], float) + 0.5
    px, py = layout.map_points(cols, rows)
    offsets = np.arange(-1, 2)
    shape = (len(cells), 3, 3)
    xs = np.broadcast_to(np.rint(px).astype(int)[:, None, None] + offsets[None, None, :], shape)
    ys = np.broadcast_to(np.rint(py).astype(int)[:, None, None] + offsets[None, :, None], shape)
    return (gather(array, ys, xs).max(axis=-1) < 60).any(axis=(1, 2)).tolist()


@guarded
def verify(item, images, layout_of) -> list[str]:
    scene, failures = item.metadata["scene"], []
    rows, cols, steps = int(scene["rows"]), int(scene["cols"]), int(scene["steps"])
    (r, c), (dr, dc) = (int(v) for v in scene["start"]), (int(v) for v in scene["velocity"])
    if dc not in (-1, 1) or dr not in (-1, 0, 1):
        return [f"velocity ({dr}, {dc}) must move one column and at most one row per step"]
    if not (0 <= r < rows and 0 <= c < cols and 0 <= r + dr < rows and 0 <= c + dc < cols):
        failures.append("the start cell or its first step lies off the board (the arrow would point off it)")
    ends = end_cells(rows, cols, (r, c), (dr, dc), steps)
    other = "polar" if item.variant == "cartesian" else "cartesian"
    if item.answer != _text(ends[item.variant]):
        failures.append(f"after {steps} steps the {item.variant} point is at {_text(ends[item.variant])}, the "
                        f"answer says {item.answer}")
    if item.metadata.get("other_answer") != _text(ends[other]):
        failures.append(f"other_answer {item.metadata.get('other_answer')!r} is not the {other} end cell "
                        f"{_text(ends[other])}")
    if ends["cartesian"] == ends["polar"]:
        failures.append("both readings end on the same cell (a partial pair must differ)")
    if item.question != words.question(item.variant, rows, cols, steps, scene["stem"]):
        failures.append("the question is not the one the record gives (board, steps)")
    array = pixels(images[0])
    layout = layout_of(item)
    area = 3.14159 * (0.8 * float(scene["geometry"]["icon_radius"])) ** 2
    failures += compare_cells(cells_with(array, layout, POINT, int(MIN_SHARE * area)), {(r, c)}, "the point")
    tip = (r + dr, (c + dc) % cols)
    cells = [(rr, cc) for rr in range(rows) for cc in range(cols) if (rr, cc) != (r, c)]
    for (rr, cc), inked in zip(cells, _inked_centres(array, layout, cells), strict=True):
        if inked != ((rr, cc) == tip):
            failures.append(f"cell ({rr + 1}, {cc + 1}) {'shows' if inked else 'lacks'} the arrow's tip, the "
                            f"record's arrow ends at ({tip[0] + 1}, {tip[1] + 1})")
    if layout.kind == "cartesian":
        x0, _y0, x1, _y1 = layout.grid_box()
        for rr in range(rows):
            y = layout.cell_center(rr, 0)[1]
            if not (thick_at(array, x0, y) and thick_at(array, x1, y)):
                failures.append(f"row {rr + 1} is not closed by thick borders on both sides (the point bounces)")
    else:
        failures += seam_cut_failures(array, layout, "the point loops round")
    return failures
