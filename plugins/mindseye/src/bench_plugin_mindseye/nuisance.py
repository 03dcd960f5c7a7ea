"""Nuisance features of rendered panels (kit layer: imports no task): what a solver could read off a panel
without understanding it (how much ink, how large a box it fills, how colourful it is), and the tests every
task applies before it accepts a stimulus and again when it verifies the written item.

One definition serves the generators (checking candidate panels cheaply), the base class's verify and the
tests, so the numbers a generator balanced are the numbers verify re-measures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from PIL import Image

#: Ink: a pixel whose darkest channel is more than this below white counts as drawn.
INK_THRESHOLD = 60
#: Panels are framed: features ignore this many pixels along each edge.
FRAME = 3


def option_features(tile: Image.Image) -> dict[str, float]:
    """Nuisance features of one panel inside its frame (``plane_features`` of its red, green and blue planes)."""
    rgb = tile if tile.mode == "RGB" else tile.convert("RGB")
    return plane_features([np.asarray(band)[FRAME:-FRAME, FRAME:-FRAME] for band in rgb.split()])


def plane_features(planes: Sequence[np.ndarray], pixels: int | None = None) -> dict[str, float]:
    """Nuisance features of a panel's pixels given as its red, green and blue planes (2-D uint8 arrays, the frame
    already cut off; or only a part of them that holds every pixel not white, with ``pixels`` the count of them
    all): ink fraction (pixels whose darkest channel is more than ``INK_THRESHOLD`` below white), the
    area fraction of those pixels' bounding box, and mean saturation (largest minus smallest channel, over 255).
    Whole-array numpy operations keep it cheap enough for a generator to measure every candidate panel."""
    red, green, blue = planes
    darkest = np.minimum(np.minimum(red, green), blue)
    spread = np.maximum(np.maximum(red, green), blue)
    spread -= darkest  # the largest channel is never below the smallest: no wrap-around
    if pixels is None:
        pixels = darkest.size
    ink = darkest < 255 - INK_THRESHOLD
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size:
        cols = np.flatnonzero(ink.any(axis=0))
        area = int((cols[-1] + 1 - cols[0]) * (rows[-1] + 1 - rows[0])) / pixels
    else:
        area = 0.0
    saturation = int(spread.sum(dtype=np.int64)) / pixels / 255.0
    return {"ink": int(np.count_nonzero(ink)) / pixels, "extent": float(area), "saturation": float(saturation)}


def ink_elongation(tile: Image.Image) -> float:
    """How far the panel's ink (inside its frame) leans one way: the modulus of its pixels' central second
    moment, sum of (z - c)^2 for z = x + iy, over their polar moment, sum of |z - c|^2.  0 for ink with no
    principal direction (a circle, a square, a regular star), 1 for a straight line; a rule-blind solver can
    read it off any panel."""
    grey = np.asarray(tile.convert("L"))[FRAME:-FRAME, FRAME:-FRAME]
    rows, cols = np.nonzero(grey < 255 - INK_THRESHOLD)
    if not len(rows):
        return 0.0
    y, x = rows - rows.mean(), cols - cols.mean()
    polar = float((x * x + y * y).sum())
    return float(abs(complex(float((x * x - y * y).sum()), float(2 * (x * y).sum()))) / polar) if polar else 0.0


def singled_out(values: Sequence[float], answer: int, factor: float, floor: float) -> bool:
    """True if ``values[answer]`` is the unique extreme and sits further from the others than ``factor`` times
    their own spread plus ``floor`` (a nuisance feature that would let a solver pick the answer)."""
    others = [v for k, v in enumerate(values) if k != answer]
    value = values[answer]
    if min(others) <= value <= max(others):
        return False
    spread = max(others) - min(others)
    gap = min(abs(value - min(others)), abs(value - max(others)))
    return gap > factor * spread + floor


def lookalike_pair(tiles: Sequence[Image.Image], threshold: float) -> tuple[int, int] | None:
    """The first pair of panels whose grey levels differ by less than ``threshold`` on average (options that
    look the same), or None."""
    grey = [np.asarray(t.convert("L"), dtype=np.float32) for t in tiles]
    for i in range(len(grey)):
        for j in range(i + 1, len(grey)):
            if float(np.abs(grey[i] - grey[j]).mean()) < threshold:
                return i, j
    return None


def nuisance_clean(tiles: Sequence[Image.Image], answer: int | None, factor: float, floors: Mapping[str, float],
                   min_difference: float) -> bool:
    """True if no nuisance feature (ink, ink extent, saturation) singles out panel ``answer`` (with ``None``:
    any panel) and every pair of panels differs visibly: the tests the base class's verify applies to the
    composite, run on the option panels before a stimulus is accepted.  A generator whose options are
    exchangeable passes ``None``, so that what it rejects does not depend on which option is the answer."""
    features = [option_features(t) for t in tiles]
    for name, floor in floors.items():
        values = [f[name] for f in features]
        if any(singled_out(values, k, factor, floor) for k in (range(len(tiles)) if answer is None else [answer])):
            return False
    return lookalike_pair(tiles, min_difference) is None
