"""Reading cells off the picture for the tile-piece verifiers: each recorded polygon's interior (a 5 px band
along its outline left out) must show one exact colour, and every pixel of a checked area that no recorded
cell covers must be white, so nothing unrecorded is drawn there."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx.verifiers.pixels import NAMED, image_keys, key_of

WHITE = 0xFFFFFF
NAME_OF_KEY = {key_of(n): n for n in NAMED}


def to_pixels(record: dict) -> list[list[tuple[float, float]]]:
    """A record's unit polygons placed in pixels (unit x scale + offset)."""
    s, (ox, oy) = float(record["scale"]), record["offset"]
    return [[(x * s + ox, y * s + oy) for x, y in poly] for poly in record["unit"]]


def keys_of(image) -> np.ndarray:
    """Each pixel's colour as one integer 0xBBGGRR (h x w); a palette picture is read through its palette
    (no RGB copy)."""
    if image.mode == "P":
        palette = np.array(image.getpalette("RGB") or [], dtype=np.uint32).reshape(-1, 3)
        lut = np.zeros(256, dtype=np.uint32)
        lut[: len(palette)] = palette[:, 0] | palette[:, 1] << 8 | palette[:, 2] << 16
        return lut[np.asarray(image)]
    return image_keys(image if image.mode == "RGB" else image.convert("RGB"))


def read(keys: np.ndarray, polygons: Sequence[Sequence[tuple[float, float]]],
         areas: Sequence[Sequence[int]]) -> tuple[list[str | None], list[str]]:
    """(each polygon's colour name, or None where its interior is not one flat named colour; failures): every
    ``areas`` box (left, top, right, bottom) must be white wherever no polygon (or its outline band) lies."""
    h, w = keys.shape
    ids, cover = _maps(list(enumerate(polygons)), w, h, _id_mode(polygons))
    inside, covered = np.asarray(ids), np.asarray(cover) > 0
    sel = inside > 0
    names = _flat_colours(inside[sel], keys[sel], len(polygons))
    failures = []
    for area in areas:
        rows, cols = _box(area, h, w)
        failures += _strays(covered[rows, cols], keys[rows, cols], area)
    return names, failures


def read_picture(image, polygons: Sequence[Sequence[tuple[float, float]]],
                 areas: Sequence[Sequence[int]]) -> tuple[list[str | None], list[str]]:
    """``read(keys_of(image), polygons, areas)``, reading and drawing each area on its own when the areas do not
    overlap and every polygon lies well inside one of them, its outline band clear of the others (a picture's
    labels and margins are not read); otherwise on the whole picture.  Pillow draws on pixel coordinates
    truncated to integers, so a polygon drawn moved by a whole number of pixels is the same pixels moved."""
    w, h = image.size
    boxes = [_box(area, h, w) for area in areas]
    owners = None if image.mode != "RGB" or _overlap(boxes) else _owners(polygons, boxes)
    if owners is None:
        return read(keys_of(image), polygons, areas)
    mode = _id_mode(polygons)
    cells, colours, failures = [np.zeros(0, np.intp)], [np.zeros(0, np.uint32)], []
    for area, (rows, cols), mine in zip(areas, boxes, owners, strict=True):
        if rows.start >= rows.stop or cols.start >= cols.stop:
            continue
        moved = [(k, [(float(x) - cols.start, float(y) - rows.start) for x, y in polygons[k]]) for k in mine]
        ids, cover = _maps(moved, cols.stop - cols.start, rows.stop - rows.start, mode)
        keys = image_keys(image.crop((cols.start, rows.start, cols.stop, rows.stop)))
        part = np.asarray(ids)
        sel = part > 0
        cells.append(part[sel])
        colours.append(keys[sel])
        failures += _strays(np.asarray(cover) > 0, keys, area)
    return _flat_colours(np.concatenate(cells), np.concatenate(colours), len(polygons)), failures


#: Pixels a filled polygon may reach beyond the box of its corners' coordinates, and its outline band (7 px
#: lines and squares on corners truncated to whole pixels) beyond that box: safe bounds.
REACH, BAND_REACH = 2, 5


def _owners(polygons: Sequence[Sequence[tuple[float, float]]],
            boxes: Sequence[tuple[slice, slice]]) -> list[list[int]] | None:
    """For each box, the polygons it holds: those that lie inside it widened by ``REACH`` pixels, their outline
    bands (``BAND_REACH``) reaching no other box.  None when a polygon has no such box (or is not finite)."""
    if not polygons or not boxes:
        return None if polygons else [[] for _ in boxes]
    if len({len(poly) for poly in polygons}) != 1 or not len(polygons[0]):
        corners = [_corners(poly) for poly in polygons]
        if any(c is None for c in corners):
            return None
        low, high = np.array([c[0] for c in corners]), np.array([c[1] for c in corners])
    else:
        xy = np.array(polygons, dtype=np.float64)
        if xy.ndim != 3 or xy.shape[2] != 2 or not np.isfinite(xy).all():
            return None
        low, high = np.floor(xy.min(axis=1)), np.ceil(xy.max(axis=1))
    held = np.stack([(c.start <= low[:, 0] - REACH) & (high[:, 0] + REACH + 1 <= c.stop)
                     & (r.start <= low[:, 1] - REACH) & (high[:, 1] + REACH + 1 <= r.stop) for r, c in boxes], axis=1)
    touched = np.stack([(c.start < high[:, 0] + BAND_REACH + 1) & (low[:, 0] - BAND_REACH < c.stop)
                        & (r.start < high[:, 1] + BAND_REACH + 1) & (low[:, 1] - BAND_REACH < r.stop)
                        for r, c in boxes], axis=1)
    if not ((held.sum(axis=1) == 1) & (touched.sum(axis=1) == 1) & (held <= touched).all(axis=1)).all():
        return None
    box_of = held.argmax(axis=1)
    return [np.flatnonzero(box_of == b).tolist() for b in range(len(boxes))]


def _corners(poly: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray] | None:
    """(floor of the lowest x and y, ceiling of the highest) of a polygon's corners; None when it has none or a
    coordinate is not finite."""
    xy = np.array(poly, dtype=np.float64).reshape(-1, 2) if len(poly) else np.zeros((0, 2))
    if not len(xy) or not np.isfinite(xy).all():
        return None
    return np.floor(xy.min(axis=0)), np.ceil(xy.max(axis=0))


def _id_mode(polygons: Sequence) -> str:
    """The mode of the polygon-number map: one byte per pixel while the numbers fit."""
    return "L" if len(polygons) < 255 else "I"


def _box(area: Sequence[int], h: int, w: int) -> tuple[slice, slice]:
    """The rows and columns ``[top:bottom, left:right]`` selects of an h x w array, as plain ascending slices."""
    left, top, right, bottom = area
    r0, r1, _ = slice(top, bottom).indices(h)
    c0, c1, _ = slice(left, right).indices(w)
    return slice(r0, max(r0, r1)), slice(c0, max(c0, c1))


def _overlap(boxes: Sequence[tuple[slice, slice]]) -> bool:
    """Whether two of the (non-empty) boxes share a pixel."""
    live = [(r, c) for r, c in boxes if r.start < r.stop and c.start < c.stop]
    return any(a[0].start < b[0].stop and b[0].start < a[0].stop and a[1].start < b[1].stop and b[1].start < a[1].stop
               for k, a in enumerate(live) for b in live[k + 1:])


def _maps(polygons: Sequence[tuple[int, Sequence[tuple[float, float]]]], w: int, h: int,
          mode: str) -> tuple[Image.Image, Image.Image]:
    """For the numbered polygons (k, ring) on a w x h canvas: (each pixel's number k + 1 in the polygon's
    interior, its outline's 5 px band left out, else 0 (an image of ``mode``); non-zero where a pixel lies in
    some polygon or its outline band, 7 px wide with a 7 px square at every corner)."""
    rings = [(k, [tuple(p) for p in poly]) for k, poly in polygons]
    ids = Image.new(mode, (w, h), 0)
    cover = Image.new("L", (w, h), 0)
    draw, cdraw = ImageDraw.Draw(ids), ImageDraw.Draw(cover)
    for k, ring in rings:
        draw.polygon(ring, fill=k + 1)
        cdraw.polygon(ring, fill=1)
    for _, ring in rings:
        draw.line([*ring, ring[0]], fill=0, width=5)
        cdraw.line([*ring, ring[0]], fill=1, width=7)
    for x, y in dict.fromkeys(p for _, ring in rings for p in ring):  # a corner shared by cells is drawn once
        cdraw.rectangle((x - 3, y - 3, x + 3, y + 3), fill=1)
    return ids, cover


def _strays(covered: np.ndarray, keys: np.ndarray, area: Sequence[int]) -> list[str]:
    """The failure for an area's pixels (``covered`` and ``keys`` cut to it) that are not white and lie in no
    polygon or outline band."""
    stray = ~covered & (keys != WHITE)
    if not stray.any():
        return []
    return [f"{int(stray.sum())} pixels drawn outside every recorded cell in the area {list(area)}"]


def _flat_colours(cell: np.ndarray, key: np.ndarray, count: int) -> list[str | None]:
    """For polygons 1..``count``, given the number (``cell``) and colour key (``key``) of every interior pixel:
    the named colour every pixel of the polygon shows, or None where it has no pixel, two colours, or a colour
    without a name."""
    cell = cell.astype(np.intp)
    first = np.zeros(count + 1, dtype=np.uint32)
    first[cell] = key  # one pixel's colour per polygon: every other pixel of it must show the same
    mixed = np.bincount(cell[key != first[cell]], minlength=count + 1) > 0
    seen = np.bincount(cell, minlength=count + 1) > 0
    return [NAME_OF_KEY.get(int(first[k])) if seen[k] and not mixed[k] else None for k in range(1, count + 1)]
