"""Pixel reads shared by the algorithmic-logic verifiers: which cells hold ink of a colour (read through the
layout's inverse map ``cells_at``), whether a wall line is drawn, which label (digit, letter) is drawn at a
point (template match against the kit's font), and a guard that turns a malformed record into one failure
instead of a crash."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

import numpy as np

Cell = tuple[int, int]
#: The errors reading a malformed record raises.
MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def guarded(verify: Callable[..., list[str]]) -> Callable[..., list[str]]:
    """``verify`` returning one failure naming the problem when the item's record is malformed (a missing key,
    a short list, a wrong type) instead of raising."""

    @functools.wraps(verify)
    def checked(item, images, *args, **kwargs) -> list[str]:
        if not isinstance(getattr(item, "metadata", None), dict) or not isinstance(item.metadata.get("scene"), dict):
            return ["the item's record is malformed: metadata.scene is missing or not an object"]
        try:
            return verify(item, images, *args, **kwargs)
        except MALFORMED as exc:
            return [f"the item's record is malformed: {type(exc).__name__}: {exc}"]

    return checked


def pixels(image) -> np.ndarray:
    """The image as an (h, w, 3) uint8 array."""
    return np.asarray(image.convert("RGB") if image.mode != "RGB" else image)


_KEYS: list = [None, None]  # the last array read and its packed colours


def colour_keys(array: np.ndarray) -> np.ndarray:
    """Each pixel's colour packed into one integer (r + 256 g + 65536 b), computed once per array."""
    if _KEYS[0] is not array:
        wide = array.astype(np.uint32)
        _KEYS[0], _KEYS[1] = array, wide[..., 0] | wide[..., 1] << 8 | wide[..., 2] << 16
    return _KEYS[1]


def colour_mask(array: np.ndarray, colour: Sequence[int]) -> np.ndarray:
    """Pixels of exactly ``colour``."""
    r, g, b = (int(v) for v in colour)
    return colour_keys(array) == (r | g << 8 | b << 16)


def ink_by_cell(array: np.ndarray, layout, mask: np.ndarray, inset: float = 3.0, step: int = 2) -> dict[Cell, int]:
    """About how many ``mask`` pixels lie in each cell of ``layout`` (pixel centres mapped by ``cells_at``),
    counting only pixels at least ``inset`` px inside their cell (the four points ``inset`` px away map to the
    same cell), so a polygon edge rounded one pixel over its neighbour's boundary is not read as ink there.
    Every ``step``-th pixel in each direction is read and the counts scaled by ``step``^2."""
    sampled = np.zeros_like(mask)
    sampled[::step, ::step] = mask[::step, ::step]
    ys, xs = np.nonzero(sampled)
    px, py = xs + 0.5, ys + 0.5
    rows, cols = layout.cells_at(px, py)
    keep = rows >= 0
    for dx, dy in ((inset, 0.0), (-inset, 0.0), (0.0, inset), (0.0, -inset)):
        r2, c2 = layout.cells_at(px + dx, py + dy)
        keep &= (r2 == rows) & (c2 == cols)
    width = int(cols.max(initial=0)) + 1
    keys, counts = np.unique(rows[keep] * width + cols[keep], return_counts=True)
    return {(int(k) // width, int(k) % width): int(n) * step * step for k, n in zip(keys, counts, strict=True)}


def cells_with(array: np.ndarray, layout, colour: Sequence[int], minimum: int) -> set[Cell]:
    """The cells holding at least ``minimum`` pixels of exactly ``colour``."""
    return {cell for cell, n in ink_by_cell(array, layout, colour_mask(array, colour)).items() if n >= minimum}


def dark_along(array: np.ndarray, points: Iterable[tuple[float, float]], threshold: int = 60) -> float:
    """The share of ``points`` (pixels) whose darkest channel is below ``threshold``: how much of a drawn line
    is ink."""
    h, w = array.shape[:2]
    hits = total = 0
    for x, y in points:
        xi, yi = round(x), round(y)
        if 0 <= xi < w and 0 <= yi < h:
            total += 1
            hits += int(array[yi, xi].max() < threshold)
    return hits / total if total else 0.0


def compare_cells(found: set[Cell], recorded: set[Cell], what: str) -> list[str]:
    """Failures when the cells read off the picture differ from the recorded ones."""
    failures = []
    if found - recorded:
        failures.append(f"{what} drawn in cells the record does not list: {sorted(found - recorded)}")
    if recorded - found:
        failures.append(f"{what} recorded but not drawn in cells {sorted(recorded - found)}")
    return failures


def glyph_mask(label: str, at: tuple[float, float], px: int) -> tuple[np.ndarray, int, int]:
    """Where ``label`` would be ink if drawn centred at ``at`` (``kit.draw``'s font at ``px``, no anti-aliasing):
    the template a drawn label is compared with, as (mask, x0, y0) of a small window whose top-left pixel is
    (x0, y0)."""
    from PIL import Image, ImageDraw

    from bench_plugin_polaris.kit.draw import font

    side = 3 * px
    ax, ay = round(at[0]), round(at[1])
    x0, y0 = ax - side // 2, ay - side // 2
    canvas = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(canvas)
    draw.fontmode = "1"
    draw.text((ax - x0, ay - y0), label, fill=255, font=font(px), anchor="mm")
    return np.asarray(canvas) > 0, x0, y0


def read_label(array: np.ndarray, at: tuple[float, float], px: int, candidates: Iterable[str],
               threshold: int = 60) -> tuple[str | None, float]:
    """Which of ``candidates`` is drawn centred at ``at``: the dark ink inside the box the candidates' templates
    cover (grown by 2 px; lines further out are not read) against each template, by overlap (intersection over
    union).  ("", 1.0) when that box holds no ink; (None, best) when ink is there but no candidate fits at least
    half of it."""
    h, w = array.shape[:2]
    labels = list(candidates)
    templates = {label: glyph_mask(label, at, px) for label in labels}
    mask0, wx, wy = templates[labels[0]]
    union_mask = np.zeros_like(mask0)
    for mask, _x, _y in templates.values():
        union_mask |= mask
    ys, xs = np.nonzero(union_mask)
    if not len(xs):
        return None, 0.0
    lx0, lx1 = max(0, xs.min() - 2), min(mask0.shape[1], xs.max() + 3)
    ly0, ly1 = max(0, ys.min() - 2), min(mask0.shape[0], ys.max() + 3)
    if wx + lx0 < 0 or wy + ly0 < 0 or wx + lx1 > w or wy + ly1 > h:
        return None, 0.0
    ink = array[wy + ly0: wy + ly1, wx + lx0: wx + lx1].max(axis=2) < threshold
    if not ink.any():
        return "", 1.0
    best, score = None, 0.0
    for label in labels:
        template = templates[label][0][ly0:ly1, lx0:lx1]
        union = np.count_nonzero(ink | template)
        value = np.count_nonzero(ink & template) / union if union else 0.0
        if value > score:
            best, score = label, value
    return (best, score) if score >= 0.5 else (None, score)


def dark_share(array: np.ndarray, x: float, y: float, half: int = 3, threshold: int = 60) -> float:
    """The share of dark pixels in the (2 * half + 1)^2 square around pixel (x, y): about 0.85 on a 6 px wall
    line, under 0.45 on a 2 px grid line, 0 on an empty cell (robust to the pinholes Pillow leaves in wide
    polylines)."""
    h, w = array.shape[:2]
    xi, yi = round(x), round(y)
    window = array[max(0, yi - half): min(h, yi + half + 1), max(0, xi - half): min(w, xi + half + 1)]
    return float(np.count_nonzero(window.max(axis=2) < threshold)) / max(1, window.shape[0] * window.shape[1])


def thick_at(array: np.ndarray, x: float, y: float) -> bool:
    """Whether a thick (wall) line passes through pixel (x, y)."""
    return dark_share(array, x, y) >= 0.6
