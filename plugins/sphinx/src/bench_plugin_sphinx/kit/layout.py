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


def caption_patch(text: str, size: int, width: int, height: int, levels: int | None = None) -> np.ndarray:
    """``text`` captioned (``caption``) in the middle of a white (height, width) patch, as a read-only RGB array
    kept per caption: the same pixels ``caption`` draws on a white canvas centred on whole pixels (a whole-pixel
    move of the centre moves the glyphs' bitmap without changing it), for a caption that fits the patch and is
    drawn where the canvas is white.  ``levels``: the grey levels the anti-aliased glyph edges are snapped to
    (evenly spaced from black to white, 255 / (levels - 1) apart, which must be whole), so the caption adds that
    many colours to a picture at most and a picture of few colours stays a palette PNG; None keeps all 256."""
    return np.frombuffer(_caption_bytes(text, size, width, height, levels), np.uint8).reshape(height, width, 3)


@functools.lru_cache(maxsize=64)
def _caption_bytes(text: str, size: int, width: int, height: int, levels: int | None) -> bytes:
    patch = Image.new("RGB", (width, height), WHITE)
    caption(ImageDraw.Draw(patch), (width // 2, height // 2), text, size)
    if levels is None:
        return patch.tobytes()
    step, rest = divmod(255, levels - 1)
    if rest:
        raise ValueError(f"{levels} grey levels are not evenly spaced in 0-255")
    grey = np.asarray(patch, dtype=np.int32)
    return ((grey + step // 2) // step * step).astype(np.uint8).tobytes()
