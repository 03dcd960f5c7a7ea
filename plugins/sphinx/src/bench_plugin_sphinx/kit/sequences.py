"""What the three sequence tasks share (paper B.4.4-B.4.6, spec T18-T20 and 2.6 "Sequence row"): the
1440 x 760 picture of a top row of four bordered panels joined by dark-grey "▶" arrows, one panel left blank,
over four labelled option panels; motif copies laid out by count (row, column, grid, pyramid); bottom-aligned
column stacks; motif tiles turned about their centre; and a connected-component count the generators use to
refuse a motif that does not draw as one blob.

Angles are in degrees, counterclockwise on screen positive (PIL's ``rotate(+a)``, spec 7.2 #3): a step of
-45 turns each panel 45 degrees clockwise from the one before it.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx.kit import channels, icons, layout, motifs

SIZE = (1440, 760)
PANEL, BORDER, GAP = 272, 6, 72
CONTENT = PANEL - 2 * BORDER
LEFT = (SIZE[0] - (4 * PANEL + 3 * GAP)) // 2
ROW_TOP, OPTIONS_TOP, LABEL_BAND = 24, 352, 100
ARROW_GREY = (64, 64, 64)
#: The light grey of the column frames of multi-column panels.
FRAME_GREY = (200, 200, 200)
#: The layouts of motif copies (paper B.4.5 / spec T19): one row, one column, a near-square grid, a pyramid.
LAYOUTS = ("row", "column", "grid", "pyramid")


def panel_box(k: int) -> list[int]:
    """The k-th top-row panel (0..3) as [left, top, right, bottom], border included."""
    left = LEFT + k * (PANEL + GAP)
    return [left, ROW_TOP, left + PANEL, ROW_TOP + PANEL]


def option_box(k: int) -> list[int]:
    """The k-th option panel (0..3), under the k-th top panel."""
    left = LEFT + k * (PANEL + GAP)
    return [left, OPTIONS_TOP, left + PANEL, OPTIONS_TOP + PANEL]


def boxes() -> dict[str, list[list[int]]]:
    """The boxes a scene records (the verifiers read the panels there)."""
    return {"panel_boxes": [panel_box(k) for k in range(4)], "option_boxes": [option_box(k) for k in range(4)]}


def _arrow(draw: ImageDraw.ImageDraw, k: int) -> None:
    cx = LEFT + k * (PANEL + GAP) + PANEL + GAP / 2
    cy = ROW_TOP + PANEL / 2
    draw.polygon([(cx - 14, cy - 20), (cx + 16, cy), (cx - 14, cy + 20)], fill=ARROW_GREY)


def _labels(draw: ImageDraw.ImageDraw, canvas: Image.Image, levels: int | None) -> None:
    """The labels (a)-(d) under the options, anti-aliased in full (``levels`` None) or with their ink coverage
    rounded to ``levels`` steps (0 and full included), so the labels add only ``levels`` - 1 greys to the
    picture's colours."""
    if levels is None:
        for k in range(4):
            left, _top, right, bottom = option_box(k)
            layout.caption(draw, ((left + right) / 2, bottom + LABEL_BAND / 2), layout.label(k), 56)
        return
    coverage = Image.new("L", SIZE, 0)
    pen = ImageDraw.Draw(coverage)
    for k in range(4):
        left, _top, right, bottom = option_box(k)
        pen.text(((left + right) / 2, bottom + LABEL_BAND / 2), layout.label(k), fill=255, font=layout.font(56),
                 anchor="mm")
    step = 255 / (levels - 1)
    rounded = (np.rint(np.asarray(coverage) / step) * step).round().astype(np.uint8)
    canvas.paste(layout.INK, mask=Image.fromarray(rounded))


@functools.cache
def _backdrop(levels: int | None) -> np.ndarray:
    """The picture without its panels' content, drawn once and kept (read-only): the white canvas, every panel's
    and option's border, the arrows between the top panels and the labels (a)-(d) (``_labels``).  None of these
    touches a panel's inside, so pasting the panels afterwards gives the pixels of drawing it all in one pass."""
    canvas = Image.new("RGB", SIZE, layout.WHITE)
    draw = ImageDraw.Draw(canvas)
    for k in range(4):
        layout.frame(draw, tuple(panel_box(k)), BORDER)
        layout.frame(draw, tuple(option_box(k)), BORDER)
        if k < 3:
            _arrow(draw, k)
    _labels(draw, canvas, levels)
    backdrop = np.array(canvas)
    backdrop.flags.writeable = False
    return backdrop


def compose(panels: list[np.ndarray | None], options: list[np.ndarray], label_levels: int | None = None) -> np.ndarray:
    """The picture: ``panels`` (four CONTENT x CONTENT RGB arrays, None for the blank one) in the top row with
    arrows between them, ``options`` below labelled (a)-(d) (``label_levels``: see ``_labels``)."""
    picture = _backdrop(label_levels).copy()
    for k in range(4):
        inside = [(panel_box(k), panels[k]), (option_box(k), options[k])]
        for (left, top, _right, _bottom), content in inside:
            if content is not None:
                picture[top + BORDER: top + BORDER + CONTENT, left + BORDER: left + BORDER + CONTENT] = content
    return picture


# -- motifs ----------------------------------------------------------------------------------------------------
def sample_motif(family: str, rng: np.random.Generator, mode: str, split: str = "test",
                 colour: str | None = None) -> dict[str, Any]:
    """A motif spec of ``family`` (``icons`` included, from the icon ``split``)."""
    if family == "icons":
        return icons.sample(rng, mode, split, colour)
    return motifs.sample(family, rng, mode, colour)


def render_motif(spec: dict[str, Any], size: int, fill: float = 0.86) -> np.ndarray:
    """The motif as an RGB tile (size x size) on white, its unit disc ``fill`` of the tile."""
    if spec["family"] == "icons":
        return icons.render(spec, size, fill)
    return motifs.render(spec, size, fill)


def turned(tile: np.ndarray, degrees: float, kept: dict[float, np.ndarray] | None = None) -> np.ndarray:
    """``tile`` (RGB, one grey plane, or two planes stacked (h, w, 2)) turned ``degrees`` counterclockwise on
    screen about its centre (white, 255, corners filled in): a bicubic turn by the part of ``degrees`` beyond its
    last multiple of 90 (``bicubic_turn``), then exact quarter turns.  A quarter turn maps a square tile's pixel
    centres onto one another, so this is the bicubic turn by ``degrees`` but for rounding (at most 1 on a few
    pixels).  ``kept``, one dict per tile, keeps the bicubic turns, so turns a multiple of 90 apart cost one.  A
    motif drawn inside its tile's inscribed disc stays whole."""
    quarters, rest = divmod(float(degrees), 90.0)
    if rest > 90.0 - 1e-9:
        quarters, rest = quarters + 1, 0.0
    if rest < 1e-9:
        return np.ascontiguousarray(np.rot90(tile, int(quarters) % 4))
    part = None if kept is None else kept.get(rest)
    if part is None:
        part = bicubic_turn(tile, rest)
        if kept is not None:
            kept[rest] = part
    return np.ascontiguousarray(np.rot90(part, int(quarters) % 4))


#: White rim (px) kept around the ink by ``bicubic_turn``: more than the bicubic kernel's reach (2 px on either
#: axis, under 2.9 px away) so every pixel it reads beyond the rim is white in the whole tile too.
TURN_RIM = 6


def bicubic_turn(tile: np.ndarray, degrees: float) -> np.ndarray:
    """PIL's bicubic turn of ``tile`` (see ``turned``) by ``degrees`` about its centre, white corners filled in,
    computed, for a tile of even sides, on the centred window that holds every pixel within ``TURN_RIM`` px of the
    ink's farthest reach from the centre (turning moves no pixel nearer to or farther from the centre, so outside
    that window the turn is white, as PIL makes it from all-white neighbours or the fill; inside, the window's
    pixels and its centre are the tile's, and a flat white neighbourhood gives exactly white whether read or
    clamped).  Only even sides: there no pixel centre sits a whole number of pixels from the centre, so a turn by
    an angle short of 90 degrees never samples exactly at a pixel centre, where the window's rounding of the
    coordinates (not the tile's) could tip a value by one; an odd-sided tile is turned whole.  Two planes are
    turned as one two-band image (PIL turns every band by the same arithmetic as a one-band image)."""
    height, width = tile.shape[:2]
    top = left = 0
    if height % 2 == 0 and width % 2 == 0:
        rows, columns = np.nonzero(tile != 255 if tile.ndim == 2 else (tile != 255).any(axis=2))
        if rows.size:
            reach = float(np.sqrt(((rows + 0.5 - height / 2) ** 2 + (columns + 0.5 - width / 2) ** 2).max()))
        else:
            reach = 0.0
        top, left = (max(0, int(side / 2 - reach - TURN_RIM)) for side in (height, width))
    window = np.ascontiguousarray(tile[top: height - top, left: width - left])
    if tile.ndim == 3 and tile.shape[2] == 2:
        image = Image.frombuffer("La", window.shape[1::-1], window.tobytes(), "raw", "La", 0, 1)
        white: int | tuple[int, ...] = (255, 255)
    else:
        image, white = Image.fromarray(window), 255 if tile.ndim == 2 else layout.WHITE
    out = np.full_like(tile, 255)
    out[top: height - top, left: width - left] = np.asarray(image.rotate(degrees, Image.Resampling.BICUBIC,
                                                                         fillcolor=white))
    return out


def ink_change(a: np.ndarray, b: np.ndarray, step: int = 40) -> float:
    """The share of pixels inked in ``a`` or ``b`` (darkest channel ``step`` below white) that are inked in only
    one of them: 0 for the same drawing, near 1 for drawings that barely overlap."""
    ink_a, ink_b = channels.darkest(a) < 255 - step, channels.darkest(b) < 255 - step
    union = ink_a | ink_b
    return float((ink_a ^ ink_b)[union].mean()) if union.any() else 0.0


# -- copies by count -----------------------------------------------------------------------------------------
def _pyramid_rows(count: int) -> list[int]:
    rows, k = [], 1
    while sum(rows) < count:
        rows.append(min(k, count - sum(rows)))
        k += 1
    return rows


def layout_shape(kind: str, most: int) -> tuple[int, int]:
    """(rows, columns) of the slots a layout needs for up to ``most`` copies."""
    if kind == "row":
        return 1, most
    if kind == "column":
        return most, 1
    if kind == "grid":
        cols = math.ceil(math.sqrt(most))
        return math.ceil(most / cols), cols
    rows = len(_pyramid_rows(most))
    return rows, rows


def fits(kind: str, most: int) -> bool:
    """Whether ``most`` copies fit a layout legibly (cells of at least 36 px)."""
    rows, cols = layout_shape(kind, most)
    return CONTENT // max(rows, cols) >= 36


def slots(kind: str, count: int, most: int) -> tuple[int, list[tuple[int, int]]]:
    """(cell side, top-left corners) of ``count`` copies in a layout sized for ``most``: filled row by row
    from the top (a pyramid's row r holds r + 1 copies, centred), the whole block centred in the panel."""
    rows, cols = layout_shape(kind, most)
    cell = CONTENT // max(rows, cols)
    top0 = (CONTENT - rows * cell) // 2
    if kind == "pyramid":
        out = []
        for r, n in enumerate(_pyramid_rows(count)):
            width = (r + 1) * cell
            left0 = (CONTENT - width) // 2
            out += [(left0 + c * cell, top0 + r * cell) for c in range(n)]
        return cell, out
    left0 = (CONTENT - cols * cell) // 2
    return cell, [(left0 + (k % cols) * cell, top0 + (k // cols) * cell) for k in range(count)]


def copies_panel(copy: np.ndarray, kind: str, count: int, most: int) -> np.ndarray:
    """A CONTENT x CONTENT panel of ``count`` copies of ``copy`` (a cell-sized tile) in the layout."""
    panel = np.full((CONTENT, CONTENT, 3), 255, np.uint8)
    cell, corners = slots(kind, count, most)
    for x, y in corners:
        panel[y: y + cell, x: x + cell] = np.minimum(panel[y: y + cell, x: x + cell], copy[:cell, :cell])
    return panel


# -- column stacks ---------------------------------------------------------------------------------------------
def column_boxes(columns: int) -> list[list[int]]:
    """The column frames of a multi-column panel, [left, top, right, bottom] inside the panel's content."""
    pad = 6
    width = (CONTENT - 2 * pad) // columns
    left0 = (CONTENT - columns * width) // 2
    return [[left0 + c * width, pad, left0 + (c + 1) * width, CONTENT - pad] for c in range(columns)]


def stack_cell(columns: int, most: int) -> int:
    """The side of one copy's cell in a multi-column panel whose tallest stack holds ``most`` copies."""
    left, top, right, bottom = column_boxes(columns)[0]
    inner_w, inner_h = right - left - 8, bottom - top - 8
    return int(min(inner_w, inner_h // max(1, most)))


def stack_corners(counts: list[int], cell: int) -> list[tuple[int, int, int]]:
    """(column, left, top) of every copy of a multi-column panel whose column c holds ``counts[c]`` copies of
    side ``cell``: each column a bottom-aligned stack centred in its frame, inside the frame's 2 px border."""
    corners = []
    for c, ((left, _top, right, bottom), count) in enumerate(zip(column_boxes(len(counts)), counts, strict=True)):
        x = (left + right - cell) // 2
        corners += [(c, x, bottom - 4 - (k + 1) * cell) for k in range(count)]
    return corners


def stacks_panel(tiles: list[np.ndarray], counts: list[int], cell: int) -> np.ndarray:
    """A multi-column panel: light grey column frames, column c a bottom-aligned stack of ``counts[c]``
    copies of ``tiles[c]`` (cell-sized), centred in its frame (``stack_corners``)."""
    image = Image.new("RGB", (CONTENT, CONTENT), layout.WHITE)
    draw = ImageDraw.Draw(image)
    for box in column_boxes(len(counts)):
        layout.frame(draw, tuple(box), 2, FRAME_GREY)
    panel = np.array(image)
    for c, x, y in stack_corners(counts, cell):
        panel[y: y + cell, x: x + cell] = np.minimum(panel[y: y + cell, x: x + cell], tiles[c])
    return panel


# -- one blob per copy -----------------------------------------------------------------------------------------
def blob_count(tile: np.ndarray, step: int = 40, reach: int = 2) -> int:
    """The number of 8-connected pieces of ink (darkest channel ``step`` below white) after growing the ink by
    ``reach`` pixels: 1 for a motif that draws as one blob at this size."""
    ink = channels.darkest(tile) < 255 - step
    rows = ink.copy()  # the square of shifts is a row of shifts swept along a column of shifts (wrapping as roll)
    for dx in range(1, reach + 1):
        rows |= np.roll(ink, dx, 1) | np.roll(ink, -dx, 1)
    grown = rows.copy()
    for dy in range(1, reach + 1):
        grown |= np.roll(rows, dy, 0) | np.roll(rows, -dy, 0)
    return _pieces8(grown)


def _pieces8(mask: np.ndarray) -> int:
    """The number of 8-connected pieces of a boolean mask: the runs of every row, each joined (union-find) to the
    runs of the row above that touch it, diagonally included."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edges == 1)  # row-major: a row's starts and ends alternate, so they pair up
    ends = np.nonzero(edges == -1)[1]
    parent = list(range(len(starts)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    pieces, row, previous, current = len(starts), -1, [], []
    for k, (y, s, e) in enumerate(zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True)):
        if y != row:
            previous, current, row = (current if y == row + 1 else []), [], y
        for j, ps, pe in previous:
            if ps <= e and s <= pe:  # runs [s, e) and [ps, pe) touch, diagonally included
                a, b = find(j), find(k)
                if a != b:
                    parent[b] = a
                    pieces -= 1
        current.append((k, s, e))
    return pieces
