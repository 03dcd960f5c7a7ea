"""Pixel reading shared by the transformation verifiers: a tile's motif layer (the pixels that differ from the
blank graph paper, redrawn here from the sizes and colours the scene records), the eight maps written as
coordinate formulas (so the conventions are checked, not copied from the generator's array code), and the
comparisons of ``kit.compare`` on the window where the motifs lie.

Coordinates: u to the right and v downwards, measured from the tile's centre.  A quarter turn
counterclockwise as seen on the screen takes a point right of the centre to above it: (u, v) -> (v, -u).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bench_plugin_sphinx.kit import channels, compare
from bench_plugin_sphinx.verifiers.pixels import image_keys

#: Where each map sends the point (u, v) (centre-based, v downwards).
FORMULAS = {
    "mirror": lambda u, v: (-u, v),        # vertical mirror line: left and right swap
    "flip": lambda u, v: (u, -v),          # horizontal mirror line: top and bottom swap
    "transpose": lambda u, v: (v, u),      # main diagonal ↘: the line v = u
    "transverse": lambda u, v: (-v, -u),   # anti-diagonal ↙: the line v = -u
    "rot90": lambda u, v: (v, -u),         # quarter turn counterclockwise on the screen
    "rot180": lambda u, v: (-u, -v),
    "rot270": lambda u, v: (-v, u),        # quarter turn clockwise on the screen
}


def blank_paper(paper: dict) -> np.ndarray:
    """The empty tile the scene describes: two-pixel lines every ``minor`` pixels out from the centre, the
    centre pair in the axis colour (read-only; cached per description)."""
    return _blank(int(paper["side"]), int(paper["minor"]), tuple(int(v) for v in paper["minor_rgb"]),
                  tuple(int(v) for v in paper["axis_rgb"]))


@lru_cache(maxsize=8)
def _blank(side: int, minor: int, minor_rgb: tuple, axis_rgb: tuple) -> np.ndarray:
    tile = np.full((side, side, 3), 255, np.uint8)
    half = side // 2
    offsets = np.arange(-half, half + 1)
    for pos in offsets[offsets % minor == 0]:
        colour = np.array(axis_rgb if pos == 0 else minor_rgb, np.uint8)
        for c in (half + pos - 1, half + pos):
            if 0 <= c < side:
                tile[:, c] = np.minimum(tile[:, c], colour)
                tile[c, :] = np.minimum(tile[c, :], colour)
    tile.setflags(write=False)
    return tile


def motif_layer(tile: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """``tile`` with every pixel equal to the blank paper made white: the motif alone."""
    paper = channels.equals(tile, blank).view(np.uint8) * np.uint8(255)  # 255 where the paper shows, else 0
    out = np.empty(tile.shape, np.uint8)
    for c in range(tile.shape[2]):  # a channel at a time: numpy masks and broadcasts over (h, w, 3) slowly
        np.bitwise_or(tile[..., c], paper, out=out[..., c])
    return out


def mapped(layer: np.ndarray, op: str) -> np.ndarray:
    """``layer`` (square, even side) under the named map about its centre, point by point."""
    side = layer.shape[0]
    flat = layer.reshape(side * side, -1)
    return np.take(flat, _source_of(side, op), axis=0).reshape(layer.shape)  # a row gather: fancy indexing is slower


def relation_mapped(layer: np.ndarray, op: str, other: np.ndarray,
                    boxes: tuple[tuple[int, int, int, int] | None, tuple[int, int, int, int] | None]) -> str:
    """``relation(mapped(layer, op), other)``, with ``boxes`` the two layers' ``ink_box``: the mapped layer's ink
    box is the box around the mapped corners of the layer's (the map moves the pixel grid rigidly), so only the
    window is mapped."""
    side = layer.shape[0]
    live = [b for b in (_moved_box(boxes[0], side, op), boxes[1]) if b is not None]
    if not live:
        return _relation(mapped(layer, op), other)
    window = (slice(min(b[1] for b in live), max(b[3] for b in live)),
              slice(min(b[0] for b in live), max(b[2] for b in live)))
    picked = np.take(layer.reshape(side * side, -1), _source_of(side, op).reshape(side, side)[window], axis=0)
    return _relation(picked, other[window])


def _moved_box(box: tuple[int, int, int, int] | None, side: int, op: str) -> tuple[int, int, int, int] | None:
    """The ``ink_box`` (left, top, right, bottom) of a ``side`` square layer's box after the map ``op``."""
    if box is None:
        return None
    left, top, right, bottom = box
    target = _target_of(side, op)
    ys, xs = zip(*(divmod(int(target[y * side + x]), side) for y in (top, bottom - 1) for x in (left, right - 1)),
                 strict=True)
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


@lru_cache(maxsize=32)
def _target_of(side: int, op: str) -> np.ndarray:
    """For every input pixel (flat index), the flat index of the output pixel the map sends it to."""
    target = np.empty(side * side, np.intp)
    target[_source_of(side, op)] = np.arange(side * side)
    return target


@lru_cache(maxsize=32)
def _source_of(side: int, op: str) -> np.ndarray:
    """For every output pixel (flat index), the flat index of the input pixel the map sends there."""
    rows, cols = np.indices((side, side))
    u, v = cols - (side - 1) / 2, rows - (side - 1) / 2
    mu, mv = FORMULAS[op](u, v)
    target = np.rint(mv + (side - 1) / 2).astype(np.intp) * side + np.rint(mu + (side - 1) / 2).astype(np.intp)
    source = np.empty(side * side, np.intp)
    source[target.ravel()] = (rows * side + cols).ravel()
    return source


def shifted(layer: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``layer`` moved by (dx, dy) pixels (dy downwards), white where nothing moved in."""
    h, w = layer.shape[:2]
    out = np.full_like(layer, 255)
    out[max(dy, 0): h + min(dy, 0), max(dx, 0): w + min(dx, 0)] = layer[max(-dy, 0): h - max(dy, 0),
                                                                         max(-dx, 0): w - max(dx, 0)]
    return out


def ink_box(layer: np.ndarray) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of the non-white pixels, right/bottom exclusive; None when blank."""
    ink = channels.differs(layer, 255)
    if not ink.any():
        return None
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def _window(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ink = channels.differs(a, 255) | channels.differs(b, 255)
    if not ink.any():
        return a, b
    rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
    return a[rows[0]: rows[-1] + 1, cols[0]: cols[-1] + 1], b[rows[0]: rows[-1] + 1, cols[0]: cols[-1] + 1]


def relation(a: np.ndarray, b: np.ndarray) -> str:
    """``same`` when at most ``kit.compare.SAME_FRACTION`` (1 %) of the pixels of the window where either motif
    layer has ink differ in luminance (the pixel half of ``kit.compare.same``; its hash half is too coarse to
    tell a motif from its mirror image on a small window), ``distinct`` when ``kit.compare.distinct`` holds on
    that window, else ``unclear``."""
    return _relation(*_window(a, b))


def _relation(wa: np.ndarray, wb: np.ndarray) -> str:
    """``relation``'s verdict on the two windows."""
    fraction = compare.diff_fraction(wa, wb)
    if fraction <= compare.SAME_FRACTION:
        return "same"
    if fraction >= compare.DISTINCT_FRACTION or compare.dhash_distance(wa, wb) >= compare.DISTINCT_BITS:
        return "distinct"
    return "unclear"


def looks_same(a: np.ndarray, b: np.ndarray) -> bool:
    """``relation(a, b) == "same"``."""
    return relation(a, b) == "same"


def looks_distinct(a: np.ndarray, b: np.ndarray) -> bool:
    """``kit.compare.distinct`` of two motif layers on the window where either has ink."""
    return compare.distinct(*_window(a, b))


def tile_content(pixels: np.ndarray, box, border: int) -> np.ndarray:
    """The drawable square inside the framed tile at ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    return pixels[top + border: bottom - border, left + border: right - border]


def frame_is_black(pixels: np.ndarray, box, border: int) -> bool:
    left, top, right, bottom = box
    tile = pixels[top:bottom, left:right]
    # no channel of the ring (the tile without [border:-border, border:-border]) is lit
    return np.count_nonzero(tile) == np.count_nonzero(tile[border:-border, border:-border])


#: White's key (``pixels.image_keys``).
WHITE_KEY = 0xFFFFFF


def box_keys(image, boxes) -> list[np.ndarray]:
    """The pixels of each box (left, top, right, bottom) of the picture, each as one integer 0xBBGGRR (``pixels.
    image_keys``), as numpy's slicing of the picture's pixel array would cut them.  A box inside the picture is cut
    out first (Pillow's crop, so only its pixels are read); otherwise from the whole picture's keys."""
    picture = image if image.mode == "RGB" else image.convert("RGB")
    width, height = picture.size
    if all(0 <= left <= right <= width and 0 <= top <= bottom <= height for left, top, right, bottom in boxes):
        return [image_keys(picture.crop(tuple(box))) for box in boxes]
    keys = image_keys(picture)
    return [keys[top:bottom, left:right] for left, top, right, bottom in boxes]


def ring_is_black(tile: np.ndarray, border: int) -> bool:
    """``frame_is_black`` of a framed tile's keys (``box_keys``): no pixel of the ring (the tile without
    [border:-border, border:-border]) is lit, read from the ring's four sides (its rows above and below the
    inside, its columns left and right of it)."""
    if border <= 0:  # no ring: the whole tile is counted against nothing
        return np.count_nonzero(tile) == np.count_nonzero(tile[border:-border, border:-border])
    inside = tile[border:-border]
    return not (tile[:border].any() or tile[-border:].any() or inside[:, :border].any() or inside[:, -border:].any())


def blank_keys(paper: dict) -> np.ndarray:
    """The blank paper the scene describes (``blank_paper``) as keys (``box_keys``; read-only)."""
    return _blank_keys(int(paper["side"]), int(paper["minor"]), tuple(int(v) for v in paper["minor_rgb"]),
                       tuple(int(v) for v in paper["axis_rgb"]))


@lru_cache(maxsize=8)
def _blank_keys(side: int, minor: int, minor_rgb: tuple, axis_rgb: tuple) -> np.ndarray:
    blank = blank_paper({"side": side, "minor": minor, "minor_rgb": minor_rgb, "axis_rgb": axis_rgb})
    wide = blank.astype(np.uint32)
    keys = wide[..., 0] | wide[..., 1] << 8 | wide[..., 2] << 16
    keys.flags.writeable = False
    return keys
