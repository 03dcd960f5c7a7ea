"""Reference shapes, sheets and small tokens of the spatial tasks (Positional Count, Stack Count; spec 2.2,
T1, T3), with the geometry their questions rest on.  Everything is plain arithmetic on a few numbers, so a
scene of forty tokens is made and drawn in about a millisecond.

- A *shape* is a JSON record: ``{"kind": "circle", "centre": [x, y], "radius": r}``, ``{"kind":
  "rectangle", "box": [x0, y0, x1, y1]}`` (axis-aligned) or ``{"kind": "triangle", "centre": [x, y],
  "radius": r, "rotation": a}`` (equilateral: circumradius r, a corner ``a`` degrees clockwise from straight
  up); pixel coordinates, y down, pixel i spanning [i, i + 1).  ``corners`` gives a polygon's corners,
  ``grown(shape, d)`` the same shape with its boundary moved out by d (in by -d; corners mitred), so
  ``grown(shape, outline / 2)`` is what its outline reaches and ``bounds`` of that its extreme points as a
  person sees them; ``boundary_distance`` and ``contains`` work on arrays of points.
- A *token* is a row ``[kind, x, y, r, rotation]``: a circle or a regular polygon (triangle, square, pentagon,
  hexagon) of circumradius r whose corner k lies ``rotation + 360 k / n`` degrees clockwise from straight up.
  ``token_corners`` and ``token_bounds`` give its corners and extreme points.
- ``candidates`` lays out candidate tokens on a jittered lattice, each one's circumscribed disc wholly inside
  or wholly outside every given shape, at least a clearance from its boundary (the paper's radius-aware
  placement); ``quota_tokens`` picks non-overlapping ones so that exactly a chosen number of tokens of the
  asked kind are counted (so answers are spread evenly, not piled on small counts), ``place_tokens`` picks
  them freely.
- ``draw_scene`` draws shapes (filled, black outline centred on the boundary) and tokens (black) at twice the
  size on graph paper and reduces the picture with a box filter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx.kit import indexed
from bench_plugin_sphinx.kit.canvas import BORDER, BORDER_RGB, MAJOR, MAJOR_RGB, MINOR, MINOR_RGB, PAPER_KEYS
from bench_plugin_sphinx.kit.palette import rgb

TOKEN_KINDS = ("circle", "triangle", "square", "pentagon", "hexagon")
SIDES = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}
PLURALS = {"circle": "circles", "triangle": "triangles", "square": "squares", "pentagon": "pentagons",
           "hexagon": "hexagons"}
SHAPE_KINDS = ("rectangle", "circle", "triangle")
#: The order of a token row's fields.
TOKEN_FIELDS = ("kind", "x", "y", "radius", "rotation")
SUPERSAMPLE = 2
#: A circle token is drawn as this many-sided polygon (so every token goes through the same polygon fill).
CIRCLE_SIDES = 64


def _r(value: float) -> float:
    return round(float(value), 2)


# -- shapes ------------------------------------------------------------------------------------------------
def rectangle(x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    return {"kind": "rectangle", "box": [_r(x0), _r(y0), _r(x1), _r(y1)]}


def rectangle_at(cx: float, cy: float, width: float, height: float) -> dict[str, Any]:
    """An axis-aligned rectangle centred on (cx, cy) whose recorded width and height are exactly the rounded
    ``width`` and ``height`` (so congruent rectangles stay congruent in the record)."""
    w, h = _r(width), _r(height)
    x0, y0 = _r(cx - w / 2), _r(cy - h / 2)
    return {"kind": "rectangle", "box": [x0, y0, _r(x0 + w), _r(y0 + h)]}


def circle(cx: float, cy: float, radius: float) -> dict[str, Any]:
    return {"kind": "circle", "centre": [_r(cx), _r(cy)], "radius": _r(radius)}


def triangle(cx: float, cy: float, side: float, rotation: float) -> dict[str, Any]:
    """An equilateral triangle of ``side`` centred on (cx, cy), a corner ``rotation`` degrees clockwise from up."""
    return {"kind": "triangle", "centre": [_r(cx), _r(cy)], "radius": _r(side / math.sqrt(3)),
            "rotation": _r(rotation % 360)}


def grown(shape: dict[str, Any], d: float) -> dict[str, Any]:
    """The shape with its boundary moved outward by ``d`` px (inward for negative d), corners mitred: a
    rectangle's box widened by d each side, a circle's radius plus d, a triangle's circumradius plus 2 d (an
    equilateral triangle's corner moves d / sin 30 degrees)."""
    if shape["kind"] == "rectangle":
        x0, y0, x1, y1 = shape["box"]
        return {"kind": "rectangle", "box": [x0 - d, y0 - d, x1 + d, y1 + d]}
    if shape["kind"] == "circle":
        return {**shape, "radius": shape["radius"] + d}
    return {**shape, "radius": shape["radius"] + 2 * d}


def corners(shape: dict[str, Any]) -> list[tuple[float, float]]:
    """A rectangle's or triangle's corners, clockwise on screen (none for a circle)."""
    if shape["kind"] == "rectangle":
        x0, y0, x1, y1 = shape["box"]
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if shape["kind"] == "circle":
        return []
    (cx, cy), r, turn = shape["centre"], shape["radius"], shape["rotation"]
    return [(cx + r * math.sin(math.radians(turn + 120 * k)), cy - r * math.cos(math.radians(turn + 120 * k)))
            for k in range(3)]


def bounds(shape: dict[str, Any]) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of the shape."""
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        return cx - r, cy - r, cx + r, cy + r
    xs, ys = zip(*corners(shape), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def area(shape: dict[str, Any]) -> float:
    if shape["kind"] == "rectangle":
        x0, y0, x1, y1 = shape["box"]
        return (x1 - x0) * (y1 - y0)
    if shape["kind"] == "circle":
        return math.pi * shape["radius"] ** 2
    return 3 * math.sqrt(3) / 4 * shape["radius"] ** 2


def contains(shape: dict[str, Any], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Whether each point (arrays, broadcast against each other: a row of xs and a column of ys give a grid)
    lies strictly inside the shape."""
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        return (xs - cx) ** 2 + (ys - cy) ** 2 < r * r
    points = corners(shape)
    inside = np.ones(np.broadcast_shapes(np.shape(xs), np.shape(ys)), bool)
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        inside &= (bx - ax) * (ys - ay) - (by - ay) * (xs - ax) > 0
    return inside


def boundary_distance(shape: dict[str, Any], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The distance from each point (arrays) to the shape's boundary."""
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        return np.abs(np.hypot(xs - cx, ys - cy) - r)
    points = corners(shape)
    best = np.full(np.shape(xs), np.inf)
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        dx, dy = bx - ax, by - ay
        t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        best = np.minimum(best, np.hypot(xs - ax - t * dx, ys - ay - t * dy))
    return best


def overlap_area(a: dict[str, Any], b: dict[str, Any], step: float = 2.0) -> float:
    """The area two shapes share, counted on a grid of ``step`` px over their common bounding box."""
    ax0, ay0, ax1, ay1 = bounds(a)
    bx0, by0, bx1, by1 = bounds(b)
    x0, y0, x1, y1 = max(ax0, bx0), max(ay0, by0), min(ax1, bx1), min(ay1, by1)
    if x0 >= x1 or y0 >= y1:
        return 0.0
    xs, ys = np.arange(x0 + step / 2, x1, step)[None, :], np.arange(y0 + step / 2, y1, step)[:, None]
    return float(np.count_nonzero(contains(a, xs, ys) & contains(b, xs, ys))) * step * step


# -- tokens ------------------------------------------------------------------------------------------------
def token_corners(token: Sequence) -> list[tuple[float, float]]:
    """The corners of a token row (a circle's as its ``CIRCLE_SIDES``-gon)."""
    kind, x, y, r, turn = token
    n = SIDES.get(kind, CIRCLE_SIDES)
    angles = [math.radians(turn + 360 * k / n) for k in range(n)]
    return [(x + r * math.sin(a), y - r * math.cos(a)) for a in angles]


def token_bounds(token: Sequence) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of a token row's corners (its disc for a circle)."""
    kind, x, y, r, _turn = token
    if kind == "circle":
        return x - r, y - r, x + r, y + r
    xs, ys = zip(*token_corners(token), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def candidates(rng: np.random.Generator, size: tuple[int, int], shapes: Sequence[dict[str, Any]],
               clearance: float, radius: tuple[float, float], pitch: float, border: float = 10.0) -> tuple[
                   np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Candidate tokens (x, y, circumradius, rotation arrays, in random order) on a jittered lattice of ``pitch``
    px: inside the canvas by ``border``, each one's circumscribed disc wholly inside or wholly outside every
    shape, at least ``clearance`` px from its boundary (the paper's radius-aware placement)."""
    width, height = size
    gx, gy = np.meshgrid(np.arange(pitch / 2, width, pitch), np.arange(pitch / 2, height, pitch))
    xs = gx.ravel() + rng.uniform(-pitch * 0.3, pitch * 0.3, gx.size)
    ys = gy.ravel() + rng.uniform(-pitch * 0.3, pitch * 0.3, gy.size)
    order = rng.permutation(gx.size)
    xs, ys = xs[order], ys[order]
    rs = rng.uniform(radius[0], radius[1], gx.size)
    turns = rng.uniform(0, 360, gx.size)
    xs, ys, rs, turns = (np.round(v, 2) for v in (xs, ys, rs, turns))
    fine = (xs - rs >= border) & (xs + rs <= width - border) & (ys - rs >= border) & (ys + rs <= height - border)
    for shape in shapes:
        fine &= boundary_distance(shape, xs, ys) >= clearance + rs
    return xs[fine], ys[fine], rs[fine], turns[fine]


def quota_tokens(rng: np.random.Generator, found: tuple[np.ndarray, ...], kinds: Sequence[str], asked: str,
                 counted: np.ndarray, forbidden: np.ndarray, quota: int, total: int, must: np.ndarray | None = None,
                 gap: float = 5.0) -> list[list] | None:
    """Token rows from the ``candidates`` ``found`` such that exactly ``quota`` tokens of the ``asked`` kind are
    counted: ``counted[i]`` says that candidate i, drawn as the asked kind, would be counted, ``forbidden[i]``
    that it may not be the asked kind at all (it would sit too close to the line a relation is measured
    against).  The counted tokens are placed first (at least one where ``must`` holds, if given), then others
    up to ``total`` tokens: where a candidate would be counted or is forbidden it takes another kind, elsewhere
    any kind.  Discs stay ``gap`` px apart.  None when the quota cannot be placed."""
    xs, ys, rs, turns = found
    taken: list[int] = []

    def free(i: int) -> bool:
        return all((xs[i] - xs[j]) ** 2 + (ys[i] - ys[j]) ** 2 >= (rs[i] + rs[j] + gap) ** 2 for j in taken)

    chosen: list[int] = []
    pool = [int(i) for i in np.nonzero(counted & ~forbidden)[0]]
    if must is not None:
        first = [i for i in pool if must[i]]
        if quota and not first:
            return None
        pool = first[:1] + [i for i in pool if i not in first[:1]]
    for i in pool:
        if len(chosen) == quota:
            break
        if free(i):
            chosen.append(i)
            taken.append(i)
    if len(chosen) < quota or (must is not None and quota and not must[chosen[0]]):
        return None
    others = [k for k in kinds if k != asked]
    rows = {i: asked for i in chosen}
    for i in range(len(xs)):
        if len(taken) >= total:
            break
        if i in rows or not free(i):
            continue
        if counted[i] or forbidden[i]:
            rows[i] = others[int(rng.integers(len(others)))]
        else:
            rows[i] = kinds[int(rng.integers(len(kinds)))]
        taken.append(i)
    return [[rows[i], float(xs[i]), float(ys[i]), float(rs[i]), float(turns[i])] for i in sorted(rows)]


def place_tokens(rng: np.random.Generator, size: tuple[int, int], count: int, kinds: Sequence[str],
                 shapes: Sequence[dict[str, Any]], clearance: float, radius: tuple[float, float] = (10.0, 15.0),
                 gap: float = 5.0, border: float = 10.0, pitch: float = 36.0) -> list[list]:
    """Up to ``count`` token rows (kinds drawn from ``kinds``) from the ``candidates``, discs ``gap`` px apart."""
    xs, ys, rs, turns = candidates(rng, size, shapes, clearance, radius, pitch, border)
    picks = rng.integers(len(kinds), size=len(xs))
    tokens: list[list] = []
    for k in range(len(xs)):
        if len(tokens) >= count:
            break
        x, y, r = float(xs[k]), float(ys[k]), float(rs[k])
        if all((x - t[1]) ** 2 + (y - t[2]) ** 2 >= (r + t[3] + gap) ** 2 for t in tokens):
            tokens.append([kinds[int(picks[k])], x, y, r, float(turns[k])])
    return tokens


# -- drawing -----------------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _paper(width: int, height: int, s: int, indexed: bool = False) -> Image.Image:
    """Graph paper (``kit.canvas``) at ``s`` times the size, every line ``s`` px wide on the grid of the
    reduced picture, so that the reduced paper is exactly ``canvas.graph_paper`` (shared: callers copy it): RGB,
    or with ``indexed`` an "L" image of each pixel's index into ``canvas.PAPER_KEYS`` (the same drawing)."""
    ink = _paper_ink if indexed else tuple
    image = Image.new("L" if indexed else "RGB", (width * s, height * s), ink((255, 255, 255)))
    draw = ImageDraw.Draw(image)
    for x in range(MINOR, width, MINOR):
        draw.rectangle((x * s, 0, x * s + s - 1, height * s - 1), fill=ink(MAJOR_RGB if x % MAJOR == 0 else MINOR_RGB))
    for y in range(MINOR, height, MINOR):
        draw.rectangle((0, y * s, width * s - 1, y * s + s - 1), fill=ink(MAJOR_RGB if y % MAJOR == 0 else MINOR_RGB))
    draw.rectangle((0, 0, width * s - 1, height * s - 1), outline=ink(BORDER_RGB), width=BORDER * s)
    return image


def _paper_ink(colour: tuple[int, int, int]) -> int:
    """A paper colour's index into ``canvas.PAPER_KEYS``."""
    r, g, b = colour
    return PAPER_KEYS.index(r << 16 | g << 8 | b)


def paper(width: int, height: int, s: int = SUPERSAMPLE) -> Image.Image:
    """A fresh image of graph paper at ``s`` times the size, which ``Image.reduce(s)`` turns into exactly
    ``canvas.graph_paper(width, height)``."""
    return _paper(width, height, s).copy()


def _scaled(points: Sequence[Sequence[float]], s: int) -> list[tuple[float, float]]:
    """Points in picture coordinates (pixel i spans [i, i + 1)) as PIL coordinates on the ``s`` times larger
    drawing (where an integer is a pixel's centre)."""
    return [(x * s - 0.5, y * s - 0.5) for x, y in points]


def _fill(draw: ImageDraw.ImageDraw, shape: dict[str, Any], colour, s: int) -> None:
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s - 1, (cy + r) * s - 1), fill=colour)
    else:
        draw.polygon(_scaled(corners(shape), s), fill=colour)


def draw_scene(size: tuple[int, int], shapes: Sequence[tuple[dict[str, Any], str]], tokens: Sequence[Sequence],
               outline: float) -> Image.Image:
    """The picture: graph paper, then each (shape, fill ``#rrggbb``) in order (later ones on top) inside a black
    outline of ``outline`` px centred on its boundary, then the tokens in black on top of everything; drawn at
    ``SUPERSAMPLE`` times the size and box-filtered down: exactly the pixels of ``drawing(...).reduce(SUPERSAMPLE)``.
    The drawing is made of palette indices (the same Pillow drawing calls, an index for each colour) and filtered
    as indices (``_filtered``), so the picture is the palette image the core writes for those pixels (their
    colours ascending, nothing else) and its PNG is that picture's; with more than 256 colours it is the RGB one."""
    inks = _Inks()
    big = _paper(size[0], size[1], SUPERSAMPLE, indexed=True).copy()
    _draw(big, shapes, tokens, outline, SUPERSAMPLE, inks.ink)
    indices = _filtered(np.asarray(big), inks)
    if indices is None:
        return drawing(size, shapes, tokens, outline).reduce(SUPERSAMPLE)
    return inks.picture(indices)


class _Inks:
    """The colours of an indexed drawing: each once, the paper's first (``canvas.PAPER_KEYS`` order), as keys
    r << 16 | g << 8 | b."""

    def __init__(self) -> None:
        self.keys = list(PAPER_KEYS)
        self.where = {key: k for k, key in enumerate(self.keys)}

    def ink(self, colour: tuple[int, int, int]) -> int:
        """The index of an (r, g, b) colour to draw with (taken in if new)."""
        r, g, b = colour
        index = self.index(r << 16 | g << 8 | b)
        if index > 255:
            raise ValueError("an indexed drawing takes at most 256 inks")
        return index

    def index(self, key: int) -> int:
        """The index of a colour key, taken in if new."""
        index = self.where.get(key)
        if index is None:
            index = self.where[key] = len(self.keys)
            self.keys.append(key)
        return index

    def picture(self, indices: np.ndarray) -> Image.Image:
        """The palette image of ``indices`` (h, w uint8) into these colours: the colours they show, ascending, and
        nothing else."""
        shown = np.flatnonzero(Image.fromarray(indices).histogram()[: len(self.keys)])
        return indexed.ascending_palette_picture(indices, self.keys, shown)


def _filtered(big: np.ndarray, inks: _Inks) -> np.ndarray | None:
    """The drawing's indices ``big`` (``SUPERSAMPLE`` = 2 times the size) box-filtered as Pillow's 2 x 2 reduce
    filters RGB pixels, each channel (sum of four + 2) >> 2: a pixel whose four are one colour keeps its index,
    every other combination is averaged once and indexed in ``inks``.  None when the colours pass 256."""
    h, w = big.shape[0] // 2, big.shape[1] // 2
    pairs = np.ascontiguousarray(big[: 2 * h, : 2 * w]).view("<u2").reshape(h, 2, w)  # left | right << 8
    top, bottom = pairs[:, 0], pairs[:, 1]
    out = np.ascontiguousarray(big[: 2 * h: 2, : 2 * w: 2])
    mixed = np.flatnonzero((top != bottom) | (top >> 8 != out))
    if not len(mixed):
        return out
    # a pixel's four indices in one word: top left, top right, bottom left, bottom right
    quads = top.ravel()[mixed].astype(np.int64) | bottom.ravel()[mixed].astype(np.int64) << 16
    found, inverse = np.unique(quads, return_inverse=True)
    keys = np.array(inks.keys, np.int64)
    total = np.zeros(len(found), np.int64)  # the four colours' channel sums, one channel per 10 bits
    for place in range(4):
        key = keys[found >> 8 * place & 255]
        total += (key >> 16) << 20 | (key >> 8 & 255) << 10 | key & 255
    mean = ((total >> 20) + 2) >> 2 << 16 | ((total >> 10 & 1023) + 2) >> 2 << 8 | ((total & 1023) + 2) >> 2
    table = [inks.index(key) for key in mean.tolist()]
    if len(inks.keys) > 256:
        return None
    out.ravel()[mixed] = np.array(table, np.uint8)[inverse.ravel()]
    return out


def drawing(size: tuple[int, int], shapes: Sequence[tuple[dict[str, Any], str]], tokens: Sequence[Sequence],
            outline: float) -> Image.Image:
    """``draw_scene``'s picture before the box filter, on fresh paper at ``SUPERSAMPLE`` times the size."""
    big = paper(size[0], size[1], SUPERSAMPLE)
    _draw(big, shapes, tokens, outline, SUPERSAMPLE)
    return big


def _draw(big: Image.Image, shapes: Sequence[tuple[dict[str, Any], str]], tokens: Sequence[Sequence],
          outline: float, s: int, ink=tuple) -> None:
    """Draws the shapes (black outline, then fill) and the tokens on ``big``, ``s`` times the picture's size, each
    (r, g, b) colour in ``ink(colour)`` (the colour itself on an RGB drawing, an index on an indexed one)."""
    draw = ImageDraw.Draw(big)
    for shape, colour in shapes:
        _fill(draw, grown(shape, outline / 2), ink((0, 0, 0)), s)
        _fill(draw, grown(shape, -outline / 2), ink(rgb(colour)), s)
    for token in tokens:
        draw.polygon(_scaled(token_corners(token), s), fill=ink((0, 0, 0)))
