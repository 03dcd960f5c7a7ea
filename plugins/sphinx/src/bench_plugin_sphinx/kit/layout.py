"""Layout helpers shared by the SPHINX tasks (spec 2.6): bordered tiles, the "(a)" labels under option
tiles, and pasting rendered arrays.  Labels use Pillow's bundled font, so every machine draws the same
glyphs."""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw, ImageFont

INK = (0, 0, 0)
WHITE = (255, 255, 255)
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` pixels (one object per size, kept: loading it again decodes the
    bundled font anew and starts its glyph cache cold, which costs more than drawing a label; callers must not
    change it)."""
    return _font(max(8, int(size)))


@functools.lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def label(index: int) -> str:
    """The paper's option label: ``(a)``, ``(b)`` ..."""
    return f"({LETTERS[index]})"


def frame(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], width: int, colour=INK) -> None:
    """A border of ``width`` pixels drawn inside ``box`` = (left, top, right, bottom), right/bottom exclusive."""
    left, top, right, bottom = box
    draw.rectangle((left, top, right - 1, bottom - 1), outline=colour, width=width)


def paste(canvas: Image.Image, array: np.ndarray, left: int, top: int) -> None:
    """Paste an RGB array with its top-left corner at (left, top)."""
    canvas.paste(Image.fromarray(np.ascontiguousarray(array)), (int(left), int(top)))


def caption(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int) -> None:
    """``text`` in black, centred on ``centre``."""
    draw.text(centre, text, fill=INK, font=font(size), anchor="mm")
