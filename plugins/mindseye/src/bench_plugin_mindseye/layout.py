"""Composite layouts of Mind's Eye items: a row of query panels above a grid of labelled options.

Every option tile has the same size, gutter and label band, and labels are uppercase letters in one
font, size and position, so layout carries no cue (paper §3: consistent gutters and margins "to
minimise layout cues").  ``Layout.compose`` returns the image and the bounding box of every panel, which
the items record for attention analyses.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from PIL import Image, ImageDraw, ImageFont

BACKGROUND = (255, 255, 255)
INK = (20, 20, 20)
FRAME = (170, 170, 170)
#: Canvas sizes: the paper's 1024x1024 (300 DPI) and the 600x800 (100 DPI) of its resolution ablation
#: (Table 3); the paper does not say which side is 800, we take portrait (600 wide, 800 tall).
SIZES: dict[str, tuple[int, int]] = {"1024x1024": (1024, 1024), "600x800": (600, 800)}
#: Supersampling factor for panel drawing; panels are reduced with a box filter.
SUPERSAMPLE = 3

Box = tuple[int, int, int, int]


def font(size_px: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled sans-serif at ``size_px`` (the same on every machine with the same Pillow)."""
    return ImageFont.load_default(size=max(8, int(size_px)))


@attrs.frozen
class Layout:
    """Where each panel goes on a canvas of ``size``.

    ``query_count`` panels (may be 0) run across the top row; ``option_count`` option panels fill a grid
    of ``option_columns`` columns below.  Each tile is square; label bands sit under the tiles.
    """

    size: tuple[int, int]
    query_count: int
    option_count: int
    option_columns: int
    query_columns: int | None = None  # default: all query panels in one row

    @property
    def _metrics(self) -> dict[str, float]:
        width, height = self.size
        margin = round(0.035 * min(width, height))
        gutter = round(0.025 * min(width, height))
        label = round(0.055 * min(width, height))
        option_rows = -(-self.option_count // self.option_columns)
        query_columns = self.query_columns or self.query_count
        query_rows = -(-self.query_count // query_columns) if self.query_count else 0
        rows = option_rows + query_rows
        columns = max(self.option_columns, query_columns)
        tile_w = (width - 2 * margin - (columns - 1) * gutter) / columns
        tile_h = (height - 2 * margin - (rows - 1) * gutter - rows * label) / rows
        tile = int(min(tile_w, tile_h))
        return {"margin": margin, "gutter": gutter, "label": label, "tile": tile, "rows": rows,
                "option_rows": option_rows}

    @property
    def tile(self) -> int:
        """Side of every (square) panel in pixels."""
        return int(self._metrics["tile"])

    def _row_boxes(self, count: int, top: float) -> list[Box]:
        m = self._metrics
        width = self.size[0]
        span = count * m["tile"] + (count - 1) * m["gutter"]
        left = (width - span) / 2
        lefts = [round(left + k * (m["tile"] + m["gutter"])) for k in range(count)]
        return [
            (x, round(top), x + m["tile"], round(top) + m["tile"])
            for x in lefts
        ]

    def boxes(self) -> tuple[list[Box], list[Box]]:
        """(query boxes, option boxes), each (left, top, right, bottom), option boxes in label order."""
        m = self._metrics
        height = self.size[1]
        block = m["rows"] * (m["tile"] + m["label"]) + (m["rows"] - 1) * m["gutter"]
        top = (height - block) / 2
        query: list[Box] = []
        remaining = self.query_count
        while remaining:
            count = min(self.query_columns or self.query_count, remaining)
            query.extend(self._row_boxes(count, top))
            remaining -= count
            top += m["tile"] + m["label"] + m["gutter"]
        options: list[Box] = []
        remaining = self.option_count
        while remaining:
            count = min(self.option_columns, remaining)
            options.extend(self._row_boxes(self.option_columns, top)[:count])
            remaining -= count
            top += m["tile"] + m["label"] + m["gutter"]
        return query, options

    def compose(
        self, query: Sequence[Image.Image], options: Sequence[Image.Image], query_captions: Sequence[str] | None = None,
        labels: Sequence[str] | None = None,
    ) -> tuple[Image.Image, dict[str, list[Box]]]:
        """Paste panels (each ``tile`` x ``tile``) with a thin frame and captions; return image and boxes."""
        if len(query) != self.query_count or len(options) != self.option_count:
            raise ValueError(f"layout wants {self.query_count} query and {self.option_count} option panels")
        labels = list(labels or "ABCDEFGH"[: self.option_count])
        query_boxes, option_boxes = self.boxes()
        canvas = Image.new("RGB", self.size, BACKGROUND)
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
        canvas.paste(panel.convert("RGB"), box[:2])
        draw.rectangle(box, outline=FRAME, width=max(1, self.tile // 200))

    def _caption(self, draw: ImageDraw.ImageDraw, box: Box, text: str, face: ImageFont.FreeTypeFont) -> None:
        centre = ((box[0] + box[2]) / 2, box[3] + self._metrics["label"] / 2)
        draw.text(centre, text, fill=INK, font=face, anchor="mm")


class Tile:
    """A supersampled drawing surface for one panel: draw in tile units scaled by ``scale``, then ``finish``."""

    def __init__(self, side: int, supersample: int = SUPERSAMPLE, background: tuple[int, int, int] = BACKGROUND):
        self.side = side
        self.scale = side * supersample
        self.supersample = supersample
        self.image = Image.new("RGB", (self.scale, self.scale), background)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, x: float, y: float) -> tuple[float, float]:
        """Unit-square coordinates (0..1, y down) to supersampled pixels."""
        return (x * self.scale, y * self.scale)

    def width(self, fraction: float) -> int:
        """A stroke width given as a fraction of the tile side, at least one output pixel."""
        return max(self.supersample, round(fraction * self.scale))

    def finish(self) -> Image.Image:
        """The panel at its final size."""
        return self.image.reduce(self.supersample) if self.supersample > 1 else self.image
