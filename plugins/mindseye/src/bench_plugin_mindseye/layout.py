"""Composite layouts of Mind's Eye items: query panels and a grid of labelled options, in reading order.

Every tile has the same size, gutter and label band, and labels are uppercase letters in one font, size and
position, so layout carries no cue (paper §3: consistent gutters and margins "to minimise layout cues").
The query panels come first in reading order (left to right, top to bottom), then the options A, B, C ...
row by row: either the query rows stand over the option rows (the paper's arrangement), or the query grid
stands on the left beside the option grid.  ``arrangements`` lists the legible ones for an item's panels and
``best_layout`` takes the one with the largest tile, so the content fills the canvas.  ``Layout.compose``
returns the image and the bounding box of every panel, which the items record (verify cuts panels at them).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFont

BACKGROUND = (255, 255, 255)
INK = (20, 20, 20)
FRAME = (170, 170, 170)
#: Canvas sizes: the paper's 1024x1024 (300 DPI) and the 600x800 (100 DPI) of its resolution ablation
#: (Table 3); the paper does not say which side is 800, we take portrait (600 wide, 800 tall).
SIZES: dict[str, tuple[int, int]] = {"1024x1024": (1024, 1024), "600x800": (600, 800)}
#: Supersampling factor for panel drawing; panels are reduced with a box filter.
SUPERSAMPLE = 3
#: Gutters between the query grid and the option grid when they stand side by side (one more than between
#: panels of one grid, so the query reads as apart from the options).
BESIDE_GUTTERS = 2

Box = tuple[int, int, int, int]


def font(size_px: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled sans-serif at ``size_px`` (the same on every machine with the same Pillow)."""
    return ImageFont.load_default(size=max(8, int(size_px)))


def _rows(count: int, columns: int) -> int:
    return -(-count // columns) if count else 0


@attrs.frozen
class Layout:
    """Where each panel goes on a canvas of ``size``.

    ``query_count`` panels (may be 0) fill a grid of ``query_columns`` columns (default: one row), and
    ``option_count`` option panels a grid of ``option_columns`` columns.  The query grid stands over the
    option grid, or with ``beside`` on its left (vertically centred on it).  Each tile is square; label bands
    sit under the tiles.
    """

    size: tuple[int, int]
    query_count: int
    option_count: int
    option_columns: int
    query_columns: int | None = None  # default: all query panels in one row
    beside: bool = False

    @property
    def name(self) -> str:
        """The arrangement in words, e.g. ``query 1x1 beside options 2x2`` (columns x rows)."""
        options = f"options {self.option_columns}x{_rows(self.option_count, self.option_columns)}"
        if not self.query_count:
            return options
        columns = self.query_columns or self.query_count
        query = f"query {columns}x{_rows(self.query_count, columns)}"
        return f"{query} {'beside' if self.beside else 'over'} {options}"

    @property
    def _metrics(self) -> dict[str, float]:
        width, height = self.size
        margin = round(0.035 * min(width, height))
        gutter = round(0.025 * min(width, height))
        label = round(0.055 * min(width, height))
        option_rows = _rows(self.option_count, self.option_columns)
        query_columns = self.query_columns or self.query_count
        query_rows = _rows(self.query_count, query_columns)
        if self.beside and self.query_count:
            rows = max(option_rows, query_rows)
            columns = self.option_columns + query_columns
            gaps = columns - 2 + BESIDE_GUTTERS
        else:
            rows = option_rows + query_rows
            columns = max(self.option_columns, query_columns)
            gaps = columns - 1
        tile_w = (width - 2 * margin - gaps * gutter) / columns
        tile_h = (height - 2 * margin - (rows - 1) * gutter - rows * label) / rows
        tile = int(min(tile_w, tile_h))
        return {"margin": margin, "gutter": gutter, "label": label, "tile": tile, "rows": rows,
                "option_rows": option_rows, "query_rows": query_rows, "query_columns": query_columns}

    @property
    def tile(self) -> int:
        """Side of every (square) panel in pixels."""
        return int(self._metrics["tile"])

    def _row_boxes(self, count: int, top: float, left: float | None = None) -> list[Box]:
        """``count`` boxes side by side from ``left`` (default: the row centred on the canvas)."""
        m = self._metrics
        if left is None:
            left = (self.size[0] - count * m["tile"] - (count - 1) * m["gutter"]) / 2
        lefts = [round(left + k * (m["tile"] + m["gutter"])) for k in range(count)]
        return [(x, round(top), x + m["tile"], round(top) + m["tile"]) for x in lefts]

    def _grid(self, count: int, columns: int, top: float, left: float | None, centre_short: bool) -> list[Box]:
        """``count`` boxes in rows of ``columns`` from ``top``; a short last row is centred on the row above
        with ``centre_short``, else it starts under the row's first box."""
        m = self._metrics
        boxes: list[Box] = []
        while len(boxes) < count:
            row = min(columns, count - len(boxes))
            if centre_short and left is None:
                boxes.extend(self._row_boxes(row, top))
            else:
                boxes.extend(self._row_boxes(columns, top, left)[:row])
            top += m["tile"] + m["label"] + m["gutter"]
        return boxes

    def _height(self, rows: int) -> float:
        m = self._metrics
        return rows * (m["tile"] + m["label"]) + (rows - 1) * m["gutter"] if rows else 0.0

    def boxes(self) -> tuple[list[Box], list[Box]]:
        """(query boxes, option boxes), each (left, top, right, bottom), in reading order: query panels left to
        right and top to bottom, option boxes in label order."""
        m = self._metrics
        height = self.size[1]
        if not (self.beside and self.query_count):
            top = (height - self._height(int(m["rows"]))) / 2
            query = self._grid(self.query_count, int(m["query_columns"]), top, None, True)
            top += self._height(int(m["query_rows"])) + (m["gutter"] if self.query_count else 0)
            return query, self._grid(self.option_count, self.option_columns, top, None, False)
        columns, tile, gutter = int(m["query_columns"]), m["tile"], m["gutter"]
        span = ((columns + self.option_columns) * tile + (columns + self.option_columns - 2) * gutter
                + BESIDE_GUTTERS * gutter)
        left = (self.size[0] - span) / 2
        block = self._height(int(m["rows"]))
        top = (height - block) / 2
        query_top = top + (block - self._height(int(m["query_rows"]))) / 2
        option_top = top + (block - self._height(int(m["option_rows"]))) / 2
        query = self._grid(self.query_count, columns, query_top, left, False)
        option_left = left + columns * (tile + gutter) + (BESIDE_GUTTERS - 1) * gutter
        return query, self._grid(self.option_count, self.option_columns, option_top, option_left, False)

    def compose(
        self, query: Sequence[Image.Image], options: Sequence[Image.Image], query_captions: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
    ) -> tuple[Image.Image, dict[str, list[Box]]]:
        """Paste panels (each ``tile`` x ``tile``) with a thin frame and captions; return image and boxes.

        The image is RGB, or mode "L" when every panel is (``grey_panel`` gives a grey RGB panel as "L"):
        then it holds the grey level each channel of the RGB composite would hold."""
        if len(query) != self.query_count or len(options) != self.option_count:
            raise ValueError(f"layout wants {self.query_count} query and {self.option_count} option panels")
        labels = list(labels or "ABCDEFGH"[: self.option_count])
        query_boxes, option_boxes = self.boxes()
        # panels all in one grey channel (mode "L") compose on a grey canvas: the frame, captions and labels
        # are neutral greys, and one channel gives what each of three would
        grey = all(panel.mode == "L" for panel in (*query, *options))
        canvas = Image.new("L", self.size, grey_level(BACKGROUND)) if grey else Image.new("RGB", self.size, BACKGROUND)
        draw = ImageDraw.Draw(canvas)
        caption_font = font(self._metrics["label"] * 0.62)
        label_font = font(self._metrics["label"] * 0.72)
        for panel, box, caption in zip(query, query_boxes, query_captions or [""] * len(query), strict=True):
            self._paste(canvas, draw, panel, box)
            if caption:
                self._caption(draw, box, caption, caption_font)
        for panel, box, label in zip(options, option_boxes, labels, strict=True):
            self._paste(canvas, draw, panel, box)
            self._caption(draw, box, label, label_font)
        return canvas, {"query": query_boxes, "options": option_boxes}

    def _paste(self, canvas: Image.Image, draw: ImageDraw.ImageDraw, panel: Image.Image, box: Box) -> None:
        if panel.size != (box[2] - box[0], box[3] - box[1]):
            raise ValueError(f"panel is {panel.size}, tile is {box[2] - box[0]}x{box[3] - box[1]}")
        grey = canvas.mode == "L"
        canvas.paste(panel if panel.mode == canvas.mode else panel.convert(canvas.mode), box[:2])
        draw.rectangle(box, outline=grey_level(FRAME) if grey else FRAME, width=max(1, self.tile // 200))

    def _caption(self, draw: ImageDraw.ImageDraw, box: Box, text: str, face: ImageFont.FreeTypeFont) -> None:
        centre = ((box[0] + box[2]) / 2, box[3] + self._metrics["label"] / 2)
        draw.text(centre, text, fill=grey_level(INK) if draw.im.mode == "L" else INK, font=face, anchor="mm")


class Tile:
    """A supersampled drawing surface for one panel: draw in tile units scaled by ``scale``, then ``finish``.

    ``grey`` draws on one grey channel instead of three (for panels drawn only in neutral greys on a neutral
    background: colours are then given as grey levels, ``grey_level``); ``finish`` returns the same RGB panel
    the three channels would have given, for a third of the work of the supersampled drawing and its reduction.
    """

    def __init__(self, side: int, supersample: int = SUPERSAMPLE, background: tuple[int, int, int] = BACKGROUND,
                 grey: bool = False):
        self.side = side
        self.scale = side * supersample
        self.supersample = supersample
        self.grey = grey
        if grey:
            self.image = Image.new("L", (self.scale, self.scale), grey_level(background))
        else:
            self.image = Image.new("RGB", (self.scale, self.scale), background)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, x: float, y: float) -> tuple[float, float]:
        """Unit-square coordinates (0..1, y down) to supersampled pixels."""
        return (x * self.scale, y * self.scale)

    def width(self, fraction: float) -> int:
        """A stroke width given as a fraction of the tile side, at least one output pixel."""
        return max(self.supersample, round(fraction * self.scale))

    def finish(self) -> Image.Image:
        """The panel at its final size (RGB)."""
        image = self.image.reduce(self.supersample) if self.supersample > 1 else self.image
        return image.convert("RGB") if self.grey else image


def grey_level(colour: tuple[int, int, int]) -> int:
    """The grey level of a neutral colour (all three channels equal), for drawing on a ``grey`` Tile."""
    if not colour[0] == colour[1] == colour[2]:
        raise ValueError(f"{colour} is not a grey: a grey tile draws only neutral colours")
    return colour[0]


def grey_panel(panel: Image.Image) -> Image.Image | None:
    """``panel`` as one grey channel (mode "L") if it shows only neutral greys (it is "L", or an RGB panel
    whose three channels agree), else None."""
    if panel.mode == "L":
        return panel
    if panel.mode != "RGB":
        return None
    red, green, blue = panel.split()
    if ImageChops.difference(red, green).getbbox() or ImageChops.difference(red, blue).getbbox():
        return None
    return red


def grey_ranks(image: Image.Image, levels: Sequence[int]) -> Image.Image:
    """A grey (mode "L") picture with each pixel's level replaced by its rank among ``levels`` (ascending, every
    level the picture shows): the indices of the palette image of those greys, still mode "L"."""
    rank = [0] * 256
    for k, v in enumerate(levels):
        rank[v] = k
    return image.point(rank)


def grey_palette_image(image: Image.Image, levels: Sequence[int] | None = None) -> Image.Image:
    """A grey (mode "L") picture as the palette image (mode "P") the core writes for its RGB form
    (``bench_core.palette_image``): the palette is the grey levels shown, ascending (``levels`` when the caller
    has counted them already), and each pixel's index its level's rank among them -- the same PNG, without
    reading three channels back."""
    if image.mode != "L":
        raise ValueError(f"a grey palette image is made from a mode L picture, not {image.mode}")
    if levels is None:
        levels = sorted(level for _, level in image.getcolors(256))
    result = grey_ranks(image, levels)
    result.putpalette(bytes(value for v in levels for value in (v, v, v)))
    return result


def colour_keys(pixels: np.ndarray) -> np.ndarray:
    """One integer per RGB colour (the last axis, uint8), (r << 16) | (g << 8) | b: ascending keys are colours in
    ascending (r, g, b), the order of the palette the core writes (``bench_core.palette_indices``)."""
    keys = pixels[..., 0].astype(np.uint32) << 16
    keys |= pixels[..., 1].astype(np.uint32) << 8
    keys |= pixels[..., 2]
    return keys


def _divisors(count: int) -> list[int]:
    """The column counts that fill every row of ``count`` panels (at least 2 columns where count allows),
    most columns first."""
    return [c for c in range(count, 0, -1) if count % c == 0 and (c > 1 or count == 1)]


def arrangements(size: tuple[int, int], query_count: int, option_count: int, option_columns: int) -> list[Layout]:
    """The legible arrangements of an item's panels, the paper's first (query panels in one row over options
    in rows of ``option_columns``): query and option grids with full rows (options in fewer or more columns;
    a query of several panels in one row or a grid), the query over the options, and a single query panel
    beside an option grid of two rows or more.  All keep the reading order: query panels, then A, B, C ...
    row by row."""
    query_choices = _divisors(query_count) if query_count else [None]
    option_choices = [option_columns, *(c for c in _divisors(option_count) if c != option_columns)]
    found = [Layout(size, query_count, option_count, o, q) for q in query_choices for o in option_choices]
    if query_count == 1:
        found += [Layout(size, 1, option_count, o, 1, beside=True) for o in option_choices
                  if _rows(option_count, o) >= 2]
    return found


def best_layout(size: tuple[int, int], query_count: int, option_count: int, option_columns: int) -> Layout:
    """Of ``arrangements``, the one with the largest tile (the earliest, so the paper's, on a tie)."""
    candidates = arrangements(size, query_count, option_count, option_columns)
    return max(candidates, key=lambda layout: (layout.tile, -candidates.index(layout)))
