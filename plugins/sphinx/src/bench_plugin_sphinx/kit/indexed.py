"""Pictures drawn straight into a palette image (PIL mode "P") for scenes of a few flat colours.

The core writes a mode "P" image as a palette PNG as it is, so a task that draws without anti-aliasing in a
handful of named colours saves the conversion of an RGB picture to a palette one (most of the PNG encode
time of such a picture).  ``canvas(size, colours)`` makes the image, its palette the given colours in that
order (the first is the background), and a draw object whose ink for a colour is ``ink(rgb)``.  The bytes
depend only on the drawing calls and the colour order, so they are as reproducible as an RGB picture's.

Pictures composed of RGB pieces can be put together as indices instead: ``indexed`` gives a piece's colours
(ascending) and each pixel's index among them, ``relabelled`` moves indices into a joint palette,
``palette_picture`` the palette image of composed indices and ``shown_palette_picture`` the same with the colours
no pixel shows left out; ``kept_backdrop`` and ``backdrop_in_palette`` do ``kept`` and ``in_palette`` for a mostly
white backdrop by its pixels that are not white.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from bench_core import palette_indices

Colour = tuple[int, int, int]
#: White's ``colour_keys`` key, the largest of all.
WHITE_KEY = 0xFFFFFF


class Canvas:
    """A palette image with its draw object; ``ink`` maps an (r, g, b) colour of the palette to its index."""

    def __init__(self, size: tuple[int, int], colours: Sequence[Colour]) -> None:
        palette = list(dict.fromkeys(tuple(int(v) for v in c) for c in colours))
        if not 1 <= len(palette) <= 256:
            raise ValueError(f"a palette canvas takes 1 to 256 colours, got {len(palette)}")
        self.index = {c: k for k, c in enumerate(palette)}
        self.image = Image.new("P", (int(size[0]), int(size[1])), 0)
        self.image.putpalette([v for c in palette for v in c])
        self.draw = ImageDraw.Draw(self.image)

    def ink(self, colour: Sequence[int]) -> int:
        """The palette index of ``colour`` (a KeyError names a colour the canvas was not made with)."""
        return self.index[tuple(int(v) for v in colour)]


def canvas(size: tuple[int, int], colours: Sequence[Colour]) -> Canvas:
    """A palette canvas of ``size`` filled with ``colours[0]``."""
    return Canvas(size, colours)


# -- RGB pieces as palette indices -----------------------------------------------------------------------------
def colour_keys(rgb: np.ndarray) -> np.ndarray:
    """Each colour of an (..., 3) uint8 array as one integer r * 65536 + g * 256 + b (int32), so keys sort as the
    colours do in (r, g, b) order."""
    return rgb[..., 0].astype(np.int32) << 16 | rgb[..., 1].astype(np.int32) << 8 | rgb[..., 2]


def indexed(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(the colours an (h, w, 3) uint8 picture shows, as ascending ``colour_keys``, each pixel's index among them as
    uint8), or None when it shows more than 256 colours: the core's ``palette_indices``, the colours as keys."""
    found = palette_indices(Image.fromarray(np.ascontiguousarray(rgb)))
    if found is None:
        return None
    colours, indices = found
    return np.array([r << 16 | g << 8 | b for r, g, b in colours], np.int32), indices


def kept(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``indexed(rgb)`` made read-only, for a piece that is cached and shared by every picture (it must show at
    most 256 colours)."""
    keys, indices = indexed(rgb)
    keys.flags.writeable = indices.flags.writeable = False
    return keys, indices


def kept_backdrop(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """A mostly white picture (a backdrop every item shares, showing white and at most 255 other colours) kept for
    ``backdrop_in_palette``: (its colours' keys ascending, white's the last; the flat positions of its pixels that
    are not white; their indices among the keys; its (h, w) shape), read-only -- what ``kept`` gives, found from
    the pixels that are not white alone (no pass of the palette conversion over the white)."""
    pixels = rgb.reshape(-1, 3)
    positions = np.flatnonzero(np.minimum(np.minimum(pixels[:, 0], pixels[:, 1]), pixels[:, 2]) != 255)
    if len(positions) == len(pixels):
        raise ValueError("a backdrop must show white")
    keys, inked = np.unique(colour_keys(pixels[positions]), return_inverse=True)
    if len(keys) > 255:
        raise ValueError(f"a backdrop shows at most 256 colours, this one {len(keys) + 1}")
    keys = np.append(keys, np.int32(WHITE_KEY)).astype(np.int32)  # white's key is the largest
    inked = inked.reshape(-1).astype(np.uint8)
    for array in (keys, positions, inked):
        array.flags.writeable = False
    return keys, positions, inked, rgb.shape[:2]


def backdrop_in_palette(
    backdrop: tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]], palette: np.ndarray
) -> np.ndarray:
    """A ``kept_backdrop``'s indices moved into a joint ``palette`` (ascending keys that hold its colours; white's,
    the largest key, is then the last): a writable (h, w) uint8 array, white filled in and the other pixels
    written (``in_palette`` of the whole picture, without a pass over its white)."""
    keys, positions, inked, shape = backdrop
    canvas = np.full(shape, len(palette) - 1, np.uint8)
    canvas.ravel()[positions] = np.searchsorted(palette, keys).astype(np.uint8)[inked]
    return canvas


def in_palette(keys: np.ndarray, indices: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """A piece's ``indices`` (h, w uint8) into its colours ``keys``, moved into a joint ``palette`` (ascending keys
    that hold them all): a writable (h, w) uint8 array (``relabelled``)."""
    return relabelled(indices, np.searchsorted(palette, keys).astype(np.uint8))


def palette_picture(indices: np.ndarray, keys: np.ndarray) -> Image.Image:
    """The palette image of ``indices`` (h, w uint8) into the colours ``keys`` (``colour_keys``).  With ``keys`` the
    picture's colours ascending and nothing else, its PNG is the one the core writes for the RGB picture."""
    image = Image.frombuffer("P", (indices.shape[1], indices.shape[0]), indices.tobytes(), "raw", "P", 0, 1)
    image.putpalette(np.stack([keys >> 16, keys >> 8 & 255, keys & 255], axis=1).astype(np.uint8).tobytes())
    return image


def relabelled(indices: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``table[indices]`` as a writable (h, w) uint8 array, for (h, w) uint8 ``indices`` and a table of at most 256
    uint8 entries (one pass of Pillow's lookup: numpy's ``take`` widens every index first)."""
    lookup = np.zeros(256, np.uint8)
    lookup[: len(table)] = table
    return np.array(Image.fromarray(np.ascontiguousarray(indices)).point(lookup.tolist()))


def shown_palette_picture(indices: np.ndarray, keys: np.ndarray) -> Image.Image:
    """``palette_picture(indices, keys)`` with the colours no pixel shows left out of the palette (the others keep
    their order, the indices follow): with ``keys`` ascending and holding every colour shown, its PNG is the one
    the core writes for the RGB picture."""
    shown = np.array(Image.fromarray(indices).histogram()[: len(keys)]) > 0
    if shown.all():
        return palette_picture(indices, keys)
    return palette_picture(relabelled(indices, (np.cumsum(shown) - 1).astype(np.uint8)), keys[shown])


def ascending_palette_picture(indices: np.ndarray, keys: Sequence[int], shown: Sequence[int]) -> Image.Image:
    """The palette image of ``indices`` (h, w uint8) into distinct colour ``keys`` (``colour_keys``, in any order)
    whose palette holds only the colours at the indices ``shown`` (those some pixel shows), ascending: with every
    shown colour listed, its PNG is the one the core writes for the RGB picture.  ``indices`` is not changed."""
    keys = np.asarray(keys, np.int64)
    shown = np.asarray(shown, np.intp)
    ascending = shown[np.argsort(keys[shown])]
    rank = [0] * 256  # a colour no pixel shows keeps 0: no index is moved from it
    for k, index in enumerate(ascending.tolist()):
        rank[index] = k
    picture = Image.fromarray(np.ascontiguousarray(indices)).point(rank)  # "L", made "P" (in place) by its palette
    chosen = keys[ascending]
    picture.putpalette(np.stack([chosen >> 16, chosen >> 8 & 255, chosen & 255], axis=1).astype(np.uint8).tobytes())
    return picture
