"""PNG encoding with byte-for-byte reproducible output.

An RGB image with at most 256 distinct colours is written as a palette PNG (mode "P", bit depth 1, 2, 4 or
8 by palette size): the palette is the image's colours in ascending (r, g, b) order and every pixel keeps its
exact colour, so the encoding is lossless, decodes to the same RGB pixels, and its bytes depend only on the
pixels.  Other images are written as they are (RGB, RGBA, L, LA; other modes converted to RGB).  Pillow's
optional optimisation pass is off; only the fixed settings below choose the bytes.

Settings chosen by measurement: ``python benchmarks/png_settings.py`` (12 items of every task of the four
installed families, Pillow 13.0 with zlib-ng 2.3.3, one core) gives the mean CPU ms to encode one image
(palette conversion included) / mean KiB, pooled by kind and size (the tasks each row comes from)::

    kind, size (images; tasks)                 level 1       3            4            5            6            9
    palette 1024x1024 (73; Mind's Eye)         5.5/31.3     5.5/24.7     6.7/23.4     6.8/20.5     7.7/18.3    25.8/15.6
      the same images as RGB                  11.9/46.2    11.9/42.2    15.3/29.8    15.4/29.0    16.2/28.3    42.6/26.4
    palette 672x672 (24; traversal)            2.2/10.4     2.2/9.3      2.7/7.4      2.8/7.2      3.2/6.9      9.7/5.9
      the same images as RGB                   6.0/19.5     6.0/17.4     7.4/11.3     7.4/11.0     7.7/10.8    21.6/9.9
    palette 1376x920 (8; sphinx)               6.6/38.0     6.7/30.9     8.3/29.6     8.2/27.6     9.6/23.6    34.5/17.5
    palette 640x640 (1; MaRVL counting)        4.1/73.9     5.0/71.8     4.8/69.6     5.9/68.3    10.4/67.2    88.2/65.0
    RGB >256 colours 1024x1024 (23; Mind's E) 12.3/50.9    12.4/48.3    15.9/35.4    16.1/34.9    16.7/34.8    50.7/33.1
    RGB >256 colours 1024x512 (11; MaRVL)     13.9/245     16.7/218     18.0/211     20.7/202     29.6/194    178/187
    RGB >256 colours 640x640 (11; MaRVL)      10.0/171     12.3/156     13.3/146     15.7/141     22.8/137    131/133
    RGB >256 colours 1376x920 (4; sphinx)     15.6/64.2    15.8/59.8    19.8/44.8    20.1/43.5    20.9/41.9    62.7/39.7

A palette PNG is 2-2.7x faster to encode than the same pixels in RGB at the same level and 35-45 % smaller
(PNG's per-row filters, tried on every row of an RGB image, are off for palette images).  Palette images
take level 6: levels 1-4 save 1-2 ms but are 20-50 % larger for the line drawings that make up nearly all of
them, and levels 7-9 cost far more time than they save.  RGB images take level 4, the knee of their curve:
level 6 is 5 % slower for Mind's Eye and 40 % slower for MaRVL's plots for 2-9 % less size, level 3 is
30-40 % larger.
"""

from __future__ import annotations

import hashlib
import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL.Image import Image

#: zlib level of palette PNGs (RGB images with at most 256 colours): see the measurement above.
PALETTE_COMPRESS_LEVEL = 6
#: zlib level of every other PNG (RGB with more than 256 colours, RGBA, L, LA).
PNG_COMPRESS_LEVEL = 4
#: Key of ``Image.info`` by which a task asks for another zlib level (1-9) for its picture's PNG than the ones above:
#: for large pictures that are mostly white, where a task's measurement shows the encode time worth more than the
#: bytes (SPHINX wallpaper-groups: level 3 encodes its 1120 x 1210 palette pictures in ~3.8 ms instead of ~7.0 ms, at
#: ~50 instead of ~35 KiB).  The level is part of the item's output: changing it is a task version bump.
PNG_LEVEL = "png_level"
#: Most colours an RGB image may have to be written as a palette PNG (the PNG limit).
PALETTE_MAX_COLOURS = 256
#: Multipliers tried, in this order, for a collision-free hash of an image's colours (any one that works
#: gives the same result: the hash only finds each colour's palette index, it does not choose it).
_HASH_MULTIPLIERS = (0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F, 0x165667B1, 0xD3A2646D, 0xFD7046C5,
                     0xB55A4F09, 0x6C8E9CF5, 0x7FEB352D, 0x846CA68B, 0x2C1B3C6D)
_HASH_BITS = 16


def encode_png(image: Image) -> bytes:
    """Encode ``image`` as PNG with fixed settings and no metadata chunks (no time, no text): a palette PNG
    when it is RGB with at most 256 colours (``palette_image``), else as it is (other modes as RGB); at the zlib
    level ``image.info[PNG_LEVEL]`` when a task set one."""
    buffer = io.BytesIO()
    asked = image.info.get(PNG_LEVEL)
    if asked is not None and (not isinstance(asked, int) or isinstance(asked, bool) or not 1 <= asked <= 9):
        raise ValueError(f"image.info[{PNG_LEVEL!r}] is {asked!r}; allowed: a zlib level, an integer from 1 to 9")
    if image.mode not in ("RGB", "RGBA", "L", "LA", "P"):
        image = image.convert("RGB")
    level = PNG_COMPRESS_LEVEL
    if image.mode == "RGB":
        palette = palette_image(image)
        if palette is not None:
            image, level = palette, PALETTE_COMPRESS_LEVEL
    elif image.mode == "P":
        level = PALETTE_COMPRESS_LEVEL
    image.save(buffer, format="PNG", compress_level=level if asked is None else asked, optimize=False)
    return buffer.getvalue()


def palette_image(image: Image) -> Image | None:
    """``image`` (RGB) as a mode "P" image with exactly the same pixels, or None if it has more than
    ``PALETTE_MAX_COLOURS`` colours.  The palette lists the image's colours in ascending (r, g, b) order and
    nothing else, so the result depends only on the pixels (no quantising, no dithering)."""
    from PIL import Image as PILImage

    found = palette_indices(image)
    if found is None:
        return None
    colours, indices = found
    result = PILImage.frombuffer("P", image.size, indices.tobytes(), "raw", "P", 0, 1)
    result.putpalette(bytes(value for colour in colours for value in colour))
    return result


def palette_indices(image: Image) -> tuple[list[tuple[int, int, int]], Any] | None:
    """(the colours an RGB ``image`` shows, ascending in (r, g, b) order; each pixel's index among them as an
    (height, width) uint8 array), or None if it shows more than ``PALETTE_MAX_COLOURS`` colours.  Exact: no
    quantising.  The palette PNG the core writes for ``image`` has this palette and these indices, so a plugin
    that composes a picture from pieces may compose their indices instead of their pixels."""
    import numpy as np

    colours = image.getcolors(PALETTE_MAX_COLOURS)
    if colours is None:
        return None
    rgb = sorted(colour for _, colour in colours)
    # One 24-bit key per pixel, (b << 16) | (g << 8) | r, read from Pillow's 4-byte pixels (pad byte cleared).
    keys = np.bitwise_and(np.frombuffer(image.tobytes("raw", "RGBX"), dtype="<u4"), np.uint32(0xFFFFFF))
    palette_keys = np.array([r | g << 8 | b << 16 for r, g, b in rgb], dtype=np.uint32)
    indices = _palette_indices(keys, palette_keys).reshape(image.size[1], image.size[0])
    return rgb, indices


def _palette_indices(keys, palette_keys):
    """The uint8 index of every entry of ``keys`` in ``palette_keys`` (which holds every key that occurs, each
    once); ``keys`` is overwritten.  A multiplicative hash without collisions on the palette maps a key to its
    index through a small table; if no multiplier in the list is collision-free, a binary search does the
    same, more slowly."""
    import numpy as np

    shift = np.uint32(32 - _HASH_BITS)
    for multiplier in _HASH_MULTIPLIERS:
        m = np.uint32(multiplier)
        slots = (palette_keys * m) >> shift
        if len(np.unique(slots)) == len(slots):
            table = np.zeros(1 << _HASH_BITS, dtype=np.uint8)
            table[slots] = np.arange(len(palette_keys), dtype=np.uint8)
            np.multiply(keys, m, out=keys)
            np.right_shift(keys, shift, out=keys)
            return table.take(keys)
    order = np.argsort(palette_keys)
    return order[np.searchsorted(palette_keys[order], keys)].astype(np.uint8)


def sha256(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


#: Key of ``Image.info`` under which a decoded palette picture keeps its image as stored (mode "P").
PALETTE_IMAGE = "palette_image"


def decode_png(data: bytes) -> Image:
    """The image stored in PNG ``data``, fully loaded, in RGB (or RGBA if it has alpha).  A palette PNG's image as
    stored (mode "P": the same pixels as palette indices) rides along as ``image.info[PALETTE_IMAGE]``, for a
    verifier that reads a large picture faster by its indices than by its RGB values (code that changes the RGB
    image in place must drop that key; a new image made from its pixels carries none)."""
    from PIL import Image as PILImage

    image = PILImage.open(io.BytesIO(data))
    image.load()
    return _rgb_with_palette(image)


def as_decoded(image: Image) -> Image:
    """``image`` as :func:`decode_png` would return it after :func:`encode_png`, without encoding: the same
    mode conversions (PNG is lossless and a palette PNG keeps every colour, so the pixels are the same)."""
    if image.mode not in ("RGB", "RGBA", "L", "LA", "P"):
        image = image.convert("RGB")
    return _rgb_with_palette(image)


def _rgb_with_palette(image: Image) -> Image:
    """``image`` (RGB, RGBA, L, LA or P) in RGB, or RGBA if it has alpha; a palette image kept beside it as
    ``info[PALETTE_IMAGE]``."""
    if image.mode in ("RGB", "RGBA"):
        return image
    rgb = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
    if image.mode == "P":
        rgb.info[PALETTE_IMAGE] = image
    return rgb
