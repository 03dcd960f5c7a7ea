"""Reading the small black tokens and the large outlined shapes of the spatial tasks back from the pixels
(no kit code).

Every token row (kind, x, y, circumradius, rotation) is drawn afresh here, pixel by pixel (the regular polygon
whose corner k lies at ``rotation + 360 k / n`` degrees clockwise from straight up, a circle as a disc), and
compared with the picture: the dark pixels (every channel below 100) around it must overlap it (intersection
over union >= 0.75); its ink (each pixel's blend between its background and black) must match, within 0.03
on average over its disc, the same token drawn afresh as the picture was made (Pillow's polygon fill at twice
the size, box-filtered; measured: at most 0.02 over 735 true tokens, at least 0.08 for each drawn as the
next kind); and nothing dark may lie in a ring just outside it.  All tokens are read at once, in square
windows just large enough for the largest token's ring.

Shape records are read the same way: a rectangle's box, a circle's centre and radius, an equilateral
triangle's centre, circumradius and rotation; ``shape_corners``, ``inside_shape`` and ``boundary_distance``
are this module's own geometry, and ``outline_band`` draws a shape's outline band afresh for the ink check.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from bench_plugin_sphinx.verifiers.pixels import channels

SIDES = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}
DARK = 100
IOU = 0.75
#: Largest mean difference, over a token's disc, between its ink in the picture and the token drawn afresh.
ERROR = 0.03
#: Graph paper's colours: white and the grid greys (spec 2.6).
PAPER = ((255, 255, 255), (232, 232, 232), (192, 192, 192))
_PAPER_KEYS = np.array([r | g << 8 | b << 16 for r, g, b in PAPER], dtype=np.uint32)
#: The ring outside a token (px beyond its circumradius) that must hold no dark pixel.
RING = (2.0, 4.0)
#: The largest half side of a token window: (2 HALF + 1) px square holds the disc and ring of a token of
#: circumradius up to 18 px (larger ones are read in it, cut).
HALF = 23


def dark_mask(keys: np.ndarray) -> np.ndarray:
    """Black ink (tokens, outlines, and their blended edges where at least about half black): every channel
    below 100.  The fills are brighter in some channel (the darkest, blue #1f77b4, reaches 180)."""
    # Per byte b of the key: b >= DARK exactly when its top bit is set or its low seven bits plus (128 - DARK)
    # reach 128 (at most 127 + 28 = 155, so no carry crosses into the next byte): one pass for all channels.
    low = keys & np.uint32(0x7F7F7F)
    low += np.uint32(0x010101 * (128 - DARK))
    low |= keys
    return (low & np.uint32(0x808080)) == 0


def coverage(tokens: list[list], size: tuple[int, int], columns: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """How much of each pixel of each window the token rows cover, in 255ths (uint8 (n, h, w), 0..255), drawn
    afresh: every token's polygon (a circle's as a 64-gon) filled by Pillow at twice the size and box-filtered
    down, as the picture was made.  Window k is the picture's ``rows[k]`` x ``columns[k]`` (ascending pixel
    indices, consecutive but for repeats where clipped to the picture); only the windows are filtered."""
    width, height = size
    mask = Image.new("L", (width * 2, height * 2), 0)
    draw = ImageDraw.Draw(mask)
    for kind, x, y, r, turn in tokens:
        n = SIDES.get(kind, 64)
        angles = [math.radians(turn + 360 * k / n) for k in range(n)] if kind != "circle" else \
            [2 * math.pi * k / 64 for k in range(64)]
        if kind == "circle":
            points = [(2 * (x + r * math.cos(a)) - 0.5, 2 * (y + r * math.sin(a)) - 0.5) for a in angles]
        else:
            points = [(2 * (x + r * math.sin(a)) - 0.5, 2 * (y - r * math.cos(a)) - 0.5) for a in angles]
        draw.polygon(points, fill=255)
    out = np.empty((len(columns), rows.shape[1], columns.shape[1]), np.uint8)
    for k, (xs, ys) in enumerate(zip(columns, rows, strict=True)):
        x0, y0, x1, y1 = int(xs[0]), int(ys[0]), int(xs[-1]) + 1, int(ys[-1]) + 1
        tile = np.asarray(mask.reduce(2, box=(2 * x0, 2 * y0, 2 * x1, 2 * y1)))
        out[k] = tile if tile.shape == out.shape[1:] else tile[(ys - y0)[:, None], (xs - x0)[None, :]]
    return out


def _windows(plane: np.ndarray, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(``plane[py[k][:, None], px[k][None, :]]`` for every window k as an (n, h, w) array; which windows lie
    wholly inside the picture).  Those are read as slices of ``plane``, the ones clipped by its edge pixel by
    pixel."""
    h, w = py.shape[1], px.shape[1]
    whole = (px[:, -1] - px[:, 0] == w - 1) & (py[:, -1] - py[:, 0] == h - 1)
    out = np.empty((len(px), h, w), plane.dtype)
    if whole.any():
        out[whole] = np.lib.stride_tricks.sliding_window_view(plane, (h, w))[py[whole, 0], px[whole, 0]]
    if not whole.all():
        cut = ~whole
        out[cut] = plane[py[cut][:, :, None], px[cut][:, None, :]]
    return out, whole


def window_half(radii: np.ndarray) -> int:
    """Half the side of the token windows ((2 half + 1) px square, centred on the pixel holding a token's centre),
    at most ``HALF``: every pixel whose centre lies within a token's circumradius plus its ring lies in its
    window (a pixel centre within R of x = c has index i with floor(c) - ceil(R) - 1 <= i <= floor(c) + ceil(R)).
    Nothing outside the disc and ring is read, so every larger window reads the same."""
    largest = float(np.max(radii)) + RING[1]
    return HALF if not largest < HALF else min(HALF, math.ceil(largest) + 1)


def read_tokens(keys: np.ndarray, dark: np.ndarray, tokens: list[list],
                half: int | None = None) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(each token's dark-pixel extent as an (n, 4) array of x0, y0, x1, y1 with exclusive ends, -1 where it
    has no ink; failures; the mask of the pixels the tokens account for) of the token rows in the picture.
    Windows of ``half`` (``window_half`` of the tokens' radii unless given; any larger one reads the same)."""
    n = len(tokens)
    height, width = dark.shape
    if not n:
        return np.zeros((0, 4), int), [], np.zeros_like(dark)
    kinds = [t[0] for t in tokens]
    cx, cy, r, turn = (np.array([t[k] for t in tokens], dtype=float) for k in (1, 2, 3, 4))
    half = window_half(r) if half is None else half
    offsets = np.arange(-half, half + 1)
    px = np.clip(np.floor(cx)[:, None].astype(int) + offsets[None, :], 0, width - 1)  # (n, W)
    py = np.clip(np.floor(cy)[:, None].astype(int) + offsets[None, :], 0, height - 1)
    win_keys, whole = _windows(keys, px, py)  # (n, W, W)
    win_dark = _windows(dark, px, py)[0]
    dx = px[:, None, :] + 0.5 - cx[:, None, None]
    dy = py[:, :, None] + 0.5 - cy[:, None, None]
    distance = np.sqrt(dx * dx + dy * dy)
    own = _drawn_afresh(kinds, r, turn, dx, dy, distance)
    near = distance <= r[:, None, None] + RING[0]
    ring = (distance > r[:, None, None] + RING[0]) & (distance <= r[:, None, None] + RING[1])
    seen = win_dark & near
    union = np.count_nonzero(seen | own, axis=(1, 2))
    iou = np.count_nonzero(seen & own, axis=(1, 2)) / np.maximum(union, 1)
    background = _backgrounds(keys, cx, cy, r)
    rr, gg, bb = channels(win_keys)
    brightest = np.maximum(np.maximum(rr, gg), bb).astype(np.float32)
    base = np.maximum(np.maximum(background & 0xFF, (background >> 8) & 0xFF), background >> 16).astype(np.float32)
    on_paper = np.isin(background, _PAPER_KEYS)
    base[on_paper] = 255.0
    base = np.maximum(base, 1.0)  # a black background (a blanked picture) has no ink to measure
    alpha = np.clip(1.0 - brightest / base[:, None, None], 0.0, 1.0)
    alpha[on_paper[:, None, None] & np.isin(win_keys, _PAPER_KEYS)] = 0.0  # untouched paper is no ink
    drawn = coverage(tokens, (width, height), px, py).astype(np.float32) / 255.0
    error = (np.abs(alpha - drawn) * near).sum(axis=(1, 2)) / np.count_nonzero(near, axis=(1, 2))
    touched = np.any(win_dark & ring, axis=(1, 2))
    failures = []
    for k in range(n):
        name = f"token {k + 1} ({kinds[k]} at {cx[k]:.2f}, {cy[k]:.2f})"
        if iou[k] < IOU:
            failures.append(f"{name}: the picture does not show it there (overlap {iou[k]:.2f})")
        elif error[k] > ERROR:
            failures.append(f"{name}: its ink differs from the {kinds[k]} drawn afresh by {error[k]:.3f} on average")
        if touched[k]:
            failures.append(f"{name}: ink touches it from outside")
    rows, cols = seen.any(axis=2), seen.any(axis=1)
    extents = np.full((n, 4), -1, int)
    has = rows.any(axis=1)
    extents[has, 0] = px[has, np.argmax(cols[has], axis=1)]
    extents[has, 2] = px[has, cols.shape[1] - 1 - np.argmax(cols[has][:, ::-1], axis=1)] + 1
    extents[has, 1] = py[has, np.argmax(rows[has], axis=1)]
    extents[has, 3] = py[has, rows.shape[1] - 1 - np.argmax(rows[has][:, ::-1], axis=1)] + 1
    covered = np.zeros_like(dark)
    for k in np.nonzero(whole)[0]:
        covered[py[k, 0]: py[k, -1] + 1, px[k, 0]: px[k, -1] + 1] |= near[k]
    cut = ~whole  # windows clipped by the edge: their pixels one by one
    rows_of = np.broadcast_to(py[cut][:, :, None], near[cut].shape)
    cols_of = np.broadcast_to(px[cut][:, None, :], near[cut].shape)
    covered[rows_of[near[cut]], cols_of[near[cut]]] = True
    return extents, failures, covered


def _drawn_afresh(kinds: list[str], r: np.ndarray, turn: np.ndarray, dx: np.ndarray, dy: np.ndarray,
                  distance: np.ndarray) -> np.ndarray:
    """Per token window, the pixels whose centre (``dx``, ``dy`` from the token's centre, ``distance`` away) lies
    in the token: a circle's disc, or the regular polygon whose corner k lies ``turn + 360 k / n`` degrees
    clockwise from straight up (inside every edge of its clockwise corners).  Tokens of one kind are done
    together."""
    own = np.ones(distance.shape, dtype=bool)
    for kind in sorted(set(kinds)):
        picked = np.array([k for k, one in enumerate(kinds) if one == kind])
        sides = SIDES.get(kind)
        if sides is None:
            own[picked] = distance[picked] <= r[picked, None, None]
            continue
        angles = np.radians(turn[picked, None] + 360.0 * np.arange(sides + 1) / sides)
        radii = r[picked, None]
        xs, ys = radii * np.sin(angles), -radii * np.cos(angles)  # corners relative to the centre, clockwise
        kx, ky = dx[picked], dy[picked]
        inside = own[picked]
        for a in range(sides):
            ax, ay = xs[:, a, None, None], ys[:, a, None, None]
            ex, ey = xs[:, a + 1, None, None] - ax, ys[:, a + 1, None, None] - ay
            inside &= ex * (ky - ay) - ey * (kx - ax) >= 0
        own[picked] = inside
    return own


def _backgrounds(keys: np.ndarray, cx: np.ndarray, cy: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Per token, the colour key most common on a ring of 24 samples 4 px outside its circumscribed disc (the
    smallest key among equally common ones)."""
    h, w = keys.shape
    angles = np.arange(24) * (2 * math.pi / 24)
    reach = (r + 4)[:, None]
    xs = np.clip(np.rint(cx[:, None] + reach * np.cos(angles)).astype(int), 0, w - 1)
    ys = np.clip(np.rint(cy[:, None] + reach * np.sin(angles)).astype(int), 0, h - 1)
    samples = keys[ys, xs].astype(np.int64)
    counts = np.count_nonzero(samples[:, :, None] == samples[:, None, :], axis=2)
    best = np.argmax((counts << 32) - samples, axis=1)  # most common first, then the smallest key
    return samples[np.arange(len(cx)), best].astype(np.uint32)


def shape_corners(shape: dict, grow: float = 0.0) -> list[tuple[float, float]]:
    """A rectangle's or equilateral triangle's corners (clockwise on screen), its boundary moved out by
    ``grow`` px with mitred corners."""
    if shape["kind"] == "rectangle":
        x0, y0, x1, y1 = shape["box"]
        return [(x0 - grow, y0 - grow), (x1 + grow, y0 - grow), (x1 + grow, y1 + grow), (x0 - grow, y1 + grow)]
    (cx, cy), r, turn = shape["centre"], shape["radius"] + 2 * grow, shape["rotation"]
    return [(cx + r * math.sin(math.radians(turn + 120 * k)), cy - r * math.cos(math.radians(turn + 120 * k)))
            for k in range(3)]


def inside_shape(shape: dict, x: float, y: float) -> bool:
    """Whether the point lies inside the shape."""
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        return (x - cx) ** 2 + (y - cy) ** 2 < r * r
    points = shape_corners(shape)
    inside = False
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def boundary_distance(shape: dict, x: float, y: float) -> float:
    """The distance from the point to the shape's boundary."""
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        return abs(math.hypot(x - cx, y - cy) - r)
    points = shape_corners(shape)
    best = math.inf
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def outline_band(shape: dict | list[dict], width: float, size: tuple[int, int]) -> np.ndarray:
    """The pixels within about ``width / 2`` of the boundary of the shape (or of any of a list of shapes): their
    outlines and blended edges."""
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    w = math.ceil(width)
    for one in shape if isinstance(shape, list) else [shape]:
        if one["kind"] == "circle":
            (cx, cy), r = one["centre"], one["radius"]
            draw.ellipse((cx - r - w / 2, cy - r - w / 2, cx + r + w / 2, cy + r + w / 2), outline=255, width=w)
        else:
            points = shape_corners(one)
            draw.line(points + points[:1], fill=255, width=w, joint="curve")
            for x, y in points:  # the outline's mitred corner tips
                draw.ellipse((x - w, y - w, x + w, y + w), fill=255)
    return np.asarray(mask) > 0


def inside_many(shape: dict, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``inside_shape`` for arrays of points (the shape's corners run clockwise on screen)."""
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        return (xs - cx) ** 2 + (ys - cy) ** 2 < r * r
    points = shape_corners(shape)
    inside = np.ones(np.shape(xs), bool)
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        inside &= (bx - ax) * (ys - ay) - (by - ay) * (xs - ax) > 0
    return inside


def distance_many(shape: dict, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``boundary_distance`` for arrays of points."""
    if shape["kind"] == "circle":
        (cx, cy), r = shape["centre"], shape["radius"]
        return np.abs(np.hypot(xs - cx, ys - cy) - r)
    points = shape_corners(shape)
    best = np.full(np.shape(xs), np.inf)
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        dx, dy = bx - ax, by - ay
        t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        best = np.minimum(best, np.hypot(xs - ax - t * dx, ys - ay - t * dy))
    return best
