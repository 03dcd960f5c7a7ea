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
    ids = Image.new("L" if len(polygons) < 255 else "I", (w, h), 0)
    draw = ImageDraw.Draw(ids)
    for k, poly in enumerate(polygons):
        draw.polygon([tuple(p) for p in poly], fill=k + 1)
    covered = np.asarray(ids) > 0
    for poly in polygons:
        ring = [tuple(p) for p in poly]
        draw.line([*ring, ring[0]], fill=0, width=5)
    band = Image.new("1", (w, h), 0)
    bdraw = ImageDraw.Draw(band)
    for poly in polygons:
        ring = [tuple(p) for p in poly]
        bdraw.line([*ring, ring[0]], fill=1, width=7)
        for x, y in ring:
            bdraw.rectangle((x - 3, y - 3, x + 3, y + 3), fill=1)
    covered |= np.asarray(band)
    inside = np.asarray(ids)
    failures = []
    sel = inside > 0
    cell, key = inside[sel], keys[sel].astype(np.int64)
    lo = np.full(len(polygons) + 1, np.iinfo(np.int64).max)
    hi = np.full(len(polygons) + 1, -1)
    cell = cell.astype(np.intp)
    np.minimum.at(lo, cell, key)
    np.maximum.at(hi, cell, key)
    names: list[str | None] = []
    for k in range(1, len(polygons) + 1):
        if hi[k] < 0 or lo[k] != hi[k] or int(lo[k]) not in NAME_OF_KEY:
            names.append(None)
        else:
            names.append(NAME_OF_KEY[int(lo[k])])
    for left, top, right, bottom in areas:
        stray = (~covered[top:bottom, left:right]) & (keys[top:bottom, left:right] != WHITE)
        if stray.any():
            failures.append(f"{int(stray.sum())} pixels drawn outside every recorded cell in the area "
                            f"{[left, top, right, bottom]}")
    return names, failures
