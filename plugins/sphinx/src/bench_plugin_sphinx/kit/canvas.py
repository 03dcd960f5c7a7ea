"""Canvas helpers of the geometric and chart tasks (spec 2.6): the graph-paper background, drawing at a
multiple of the output size for smooth edges, text stamps, and keeping a picture within 256 colours.

A picture of at most 256 colours is written as a palette PNG, two to three times faster than RGB; smooth
text brings in up to 256 greys by itself, so ``quantise_greys`` rounds the pure greys of a region to 16
levels and ``stamp_text`` draws text through a coverage mask rounded the same way (the ink/no-ink split at
luminance 128 is kept exactly: every grey below 128 stays below, every other stays at or above it).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: Graph paper (spec 2.6): a minor grid every 32 px, a major one every 128 px, a thin dark border.
MINOR, MAJOR = 32, 128
MINOR_RGB, MAJOR_RGB, BORDER_RGB = (232, 232, 232), (192, 192, 192), (0, 0, 0)
BORDER = 2
_GREY_STEP = 17


@lru_cache(maxsize=8)
def _paper(width: int, height: int) -> np.ndarray:
    """Graph paper of the size as (height, width, 3) uint8 pixels, made once (read-only: callers copy it): white,
    a 1 px line every ``MINOR`` px across the whole picture (``MAJOR_RGB`` where the place is a multiple of
    ``MAJOR``), the rows' lines over the columns', and a ``BORDER`` px frame just inside the edge."""
    pixels = np.full((height, width, 3), 255, np.uint8)
    columns, rows = np.arange(MINOR, width, MINOR), np.arange(MINOR, height, MINOR)
    pixels[:, columns] = np.where((columns % MAJOR == 0)[:, None], MAJOR_RGB, MINOR_RGB)
    pixels[rows] = np.where((rows % MAJOR == 0)[:, None, None], MAJOR_RGB, MINOR_RGB)
    pixels[:BORDER], pixels[-BORDER:], pixels[:, :BORDER], pixels[:, -BORDER:] = (BORDER_RGB,) * 4
    pixels.flags.writeable = False
    return pixels


#: The graph paper's colours as ``kit.indexed.colour_keys`` (r << 16 | g << 8 | b), ascending.
PAPER_KEYS = tuple(sorted(c[0] << 16 | c[1] << 8 | c[2] for c in ((255, 255, 255), MINOR_RGB, MAJOR_RGB, BORDER_RGB)))


@lru_cache(maxsize=8)
def _paper_indices(width: int, height: int) -> np.ndarray:
    """``_paper(width, height)`` as each pixel's index into ``PAPER_KEYS`` (uint8, read-only: callers copy it),
    drawn the same way (columns' lines, then rows', then the frame) without its RGB pixels."""
    white, minor, major, border = (PAPER_KEYS.index(_key(c))
                                   for c in ((255, 255, 255), MINOR_RGB, MAJOR_RGB, BORDER_RGB))
    indices = np.full((height, width), white, np.uint8)
    columns, rows = np.arange(MINOR, width, MINOR), np.arange(MINOR, height, MINOR)
    indices[:, columns] = np.where(columns % MAJOR == 0, major, minor).astype(np.uint8)
    indices[rows] = np.where(rows % MAJOR == 0, major, minor).astype(np.uint8)[:, None]
    indices[:BORDER], indices[-BORDER:], indices[:, :BORDER], indices[:, -BORDER:] = (border,) * 4
    indices.flags.writeable = False
    return indices


def graph_paper_indices(width: int, height: int) -> tuple[tuple[int, ...], np.ndarray]:
    """(``PAPER_KEYS``, a fresh writable (height, width) uint8 array of each pixel's index into them): the
    graph paper of ``graph_paper_array`` as palette indices (a colour the paper is too small to show keeps its
    place in the keys)."""
    return PAPER_KEYS, _paper_indices(width, height).copy()


def graph_paper_counts(width: int, height: int) -> np.ndarray:
    """How many pixels of ``graph_paper_indices(width, height)`` show each of ``PAPER_KEYS`` (int64), counted from
    the lines' places without reading the pixels: the frame, then the rows' lines across the inside, then the
    columns' lines down the rest of it, the remainder white."""
    counts = np.zeros(len(PAPER_KEYS), np.int64)
    inner_w, inner_h = max(0, width - 2 * BORDER), max(0, height - 2 * BORDER)
    counts[PAPER_KEYS.index(_key(BORDER_RGB))] = width * height - inner_w * inner_h
    rows = [y for y in range(MINOR, height, MINOR) if BORDER <= y < height - BORDER]
    columns = [x for x in range(MINOR, width, MINOR) if BORDER <= x < width - BORDER]
    for y in rows:
        counts[PAPER_KEYS.index(_key(MAJOR_RGB if y % MAJOR == 0 else MINOR_RGB))] += inner_w
    for x in columns:
        counts[PAPER_KEYS.index(_key(MAJOR_RGB if x % MAJOR == 0 else MINOR_RGB))] += inner_h - len(rows)
    counts[PAPER_KEYS.index(_key((255, 255, 255)))] += (inner_w - len(columns)) * (inner_h - len(rows))
    return counts


def _key(colour: tuple[int, int, int]) -> int:
    """A colour as ``kit.indexed.colour_keys`` keys it: r << 16 | g << 8 | b."""
    r, g, b = colour
    return r << 16 | g << 8 | b


def graph_paper(width: int, height: int) -> Image.Image:
    """A fresh RGB image of graph paper (white, grey grid lines, black border)."""
    return Image.fromarray(_paper(width, height))


def graph_paper_array(width: int, height: int) -> np.ndarray:
    """``graph_paper`` as a fresh writable uint8 (height, width, 3) array."""
    return _paper(width, height).copy()


def quantise_greys(pixels: np.ndarray) -> None:
    """Round, in place, every pure grey pixel (r = g = b) of ``pixels`` (h, w, 3 uint8) to the nearest
    multiple of 17 (16 levels, black and white kept); coloured pixels are left alone."""
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    grey = (r == g) & (g == b)
    if not grey.any():
        return
    rounded = _quantised(r[grey])
    for channel in range(3):
        pixels[..., channel][grey] = rounded


def supersampled(width: int, height: int, scale: int, background=(255, 255, 255)) -> tuple[Image.Image,
                                                                                           ImageDraw.ImageDraw]:
    """A blank image ``scale`` times the output size and its drawing context; ``Image.reduce(scale)`` of it
    gives the output (box filter: the inside of every shape keeps its exact colour)."""
    image = Image.new("RGB", (width * scale, height * scale), background)
    return image, ImageDraw.Draw(image)


def _quantised(values: np.ndarray) -> np.ndarray:
    return (((values.astype(np.int16) + _GREY_STEP // 2) // _GREY_STEP) * _GREY_STEP).clip(0, 255).astype(np.uint8)


@lru_cache(maxsize=512)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """The coverage mask of ``text`` in Pillow's bundled font at ``size`` px (16 levels), and the offset of its
    top-left corner from the anchor point."""
    font = ImageFont.load_default(size=max(8, int(size)))
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    left, top = left - 2, top - 2
    mask = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor=anchor)
    return Image.fromarray(_quantised(np.asarray(mask))), left, top


def text_coverage(at: tuple[float, float], text: str, size: int, anchor: str = "lm") -> tuple[int, int, np.ndarray]:
    """(left, top, coverage): where ``stamp_text`` puts the top-left corner of ``text``'s cached 16-level mask and
    the mask as a read-only uint8 (h, w) array, for a picture composed without Pillow's paste."""
    mask, left, top = _text_mask(text, int(size), anchor)
    return round(at[0]) + left, round(at[1]) + top, np.asarray(mask)


def stamp_text(image: Image.Image, at: tuple[float, float], text: str, size: int, fill=(0, 0, 0),
               anchor: str = "lm") -> None:
    """Draw ``text`` in Pillow's bundled font at ``size`` px with its ``anchor`` at ``at`` (integer pixels), as
    ``ImageDraw.text`` would but through a cached coverage mask of 16 levels: a handful of colours per
    background instead of up to 256, and no font rasterising per item."""
    mask, left, top = _text_mask(text, int(size), anchor)
    x, y = round(at[0]) + left, round(at[1]) + top
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
