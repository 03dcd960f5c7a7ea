"""The artefact verifier of Symmetric Structures (SS): re-derives the odd figure from the scene record and checks
that the pixels show the recorded strokes, with no code of the generator (``symmetric_structures``,
``folding``).

The record (``describe``) gives each option's strokes as drawn: polylines in tile units (the panel is the unit
square, y down) and the stroke width.

Symmetry from the strokes: any symmetry of a figure fixes the centroid of its strokes (length-weighted) and maps
the points furthest from it onto each other, and those are stroke ends.  So the mirror axes worth trying are
the bisectors between one furthest end and each end at the same distance, and the turns are by 360/n about the
centroid.  A transform is a symmetry when every point sampled along the strokes (every two pixels) lands
within ``HOLD`` of a stroke, both ways.  A figure clearly lacks a symmetry when no axis through its centroid
(every degree) and no such turn brings its strokes within ``VISIBLE_PX`` pixels of themselves: the corner
points give a lower bound for every axis, and the axes where that bound is low are measured on all samples.

The odd figure is the one lacking a symmetry that the three others have; any doubt (a figure neither clearly
with nor clearly without it) leaves no answer.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

#: A symmetry holds when the strokes map onto themselves within this (tile units; under half a pixel).
HOLD = 0.002
#: A figure clearly lacks a symmetry when its best attempt misses by at least this many pixels.
VISIBLE_PX = 4.0
#: Stroke sample spacing for the symmetry tests (pixels): a sampled miss is a lower bound of the true one.
SPACING_PX = 2.0
#: Mirror axes tried for ``lacks_mirror``: every this many degrees.
AXIS_STEP = 1.0
#: Turns tried: by 360/n for these n.
ORDERS = (2, 3, 4, 5, 6)
#: Pixel checks: ink is any channel below INK_LEVEL; a recorded stroke's inside is ink when below CORE_LEVEL.
INK_LEVEL = 195
CORE_LEVEL = 128
#: The panel check works in bands a pixel from the strokes' edges (strokes are 4.7-7 px wide): every pixel whose
#: centre lies INSET_PX or more inside a recorded stroke's edge (away from a free end, which is cut flat) must be
#: ink, and every pixel whose centre lies more than OUTSIDE_PX outside all strokes must be paper, distances exact
#: (on 400 real items per canvas, seeds 5 and 7: darkest channel at most 72 inside, nothing but white outside).
#: OUTSIDE_PX is below INSET_PX less the 0.1 px by which the distances of the last version (to points sampled
#: every 0.7 px along the strokes) could fall short, so the outside band holds every pixel that version's held,
#: and every pixel of the retired check that let ink lie 2 px beyond a stroke as Pillow drew that check's region
#: (its wide polylines fall up to 1.1 px short of their width at some angles: on the 3200 figures of 400
#: stimuli, at both canvases' tile sides, that region reached in to 0.88 px beyond a stroke's edge, where 0.9 let
#: one pixel through); drawn ink reached at most 0.65 px beyond an edge there (tests check both on real figures).
INSET_PX = 1.0
OUTSIDE_PX = 0.8
#: The inside band leaves out the last half stroke width at a free end, so no more than GAP_SHARE of the samples
#: along the centre lines (one a pixel) may be light: on a figure of few strokes that sees every end drawn short.
GAP_SHARE = 0.02
#: Strokes are measured in pieces at most this long (pixels), each in one square window.
PIECE_PX = 6.0


# -- geometry -------------------------------------------------------------------------------------------------
def segments(description: Mapping[str, Any]) -> np.ndarray:
    """The figure's strokes as an (n, 2, 2) array (tile units)."""
    out = [pair for line in description["polylines"] for pair in itertools.pairwise(line)]
    return np.asarray(out, dtype=float).reshape(-1, 2, 2)


def centroid(segs: np.ndarray) -> np.ndarray:
    """The centroid of the strokes taken as uniform wire (every isometry of the figure fixes it)."""
    lengths = np.hypot(*(segs[:, 1] - segs[:, 0]).T)
    return (lengths[:, None] * (segs[:, 0] + segs[:, 1]) / 2).sum(axis=0) / lengths.sum()


def samples(segs: np.ndarray, spacing: float) -> np.ndarray:
    """Points along every stroke, ends included, at most ``spacing`` apart."""
    d = segs[:, 1] - segs[:, 0]
    counts = np.maximum(1, np.ceil(np.hypot(d[:, 0], d[:, 1]) / spacing).astype(int)) + 1
    which = np.repeat(np.arange(len(segs)), counts)
    step = np.arange(len(which)) - np.repeat(np.cumsum(counts) - counts, counts)
    t = step / (counts[which] - 1)
    return segs[which, 0] + t[:, None] * d[which]


def distance_to_strokes(points: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """For points of shape (..., 2): the distance to the nearest stroke (worked out on x and y apart: no
    (..., strokes, 2) arrays)."""
    ax, ay = segs[:, 0, 0], segs[:, 0, 1]
    dx, dy = segs[:, 1, 0] - ax, segs[:, 1, 1] - ay
    rx, ry = points[..., 0, None] - ax, points[..., 1, None] - ay
    t = np.clip((rx * dx + ry * dy) / np.maximum(dx * dx + dy * dy, 1e-18), 0.0, 1.0)
    gx, gy = rx - t * dx, ry - t * dy
    return np.sqrt(gx * gx + gy * gy).min(axis=-1)


def mirror_matrix(centre: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """(linear part, offset) of the reflection about the line through ``centre`` at ``angle`` radians."""
    c2, s2 = math.cos(2 * angle), math.sin(2 * angle)
    m = np.array([[c2, s2], [s2, -c2]])
    return m, centre - m @ centre


def turn_matrix(centre: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """(linear part, offset) of the turn by ``angle`` radians about ``centre``."""
    c, s = math.cos(angle), math.sin(angle)
    m = np.array([[c, -s], [s, c]])
    return m, centre - m @ centre


def miss(points: np.ndarray, segs: np.ndarray, transform: tuple[np.ndarray, np.ndarray]) -> float:
    """How far the transformed points land from the strokes, at worst."""
    m, offset = transform
    return float(distance_to_strokes(points @ m.T + offset, segs).max())


class Figure:
    """One recorded figure with its strokes, samples and centroid, answering symmetry questions."""

    def __init__(self, description: Mapping[str, Any], side: int):
        self.segs = segments(description)
        self.side = side
        self.points = samples(self.segs, SPACING_PX / side)
        self.centre = centroid(self.segs)
        ends = np.unique(np.round(self.segs.reshape(-1, 2), 9), axis=0)
        self.ends = ends
        self.radius = float(np.hypot(*(ends - self.centre).T).max())

    def _two_way(self, transform: tuple[np.ndarray, np.ndarray], inverse: tuple[np.ndarray, np.ndarray]) -> float:
        return max(miss(self.points, self.segs, transform), miss(self.points, self.segs, inverse))

    def has_turn(self, order: int) -> bool:
        """The figure maps onto itself when turned by 360/order about its centroid (the stroke ends are tried
        first: they must land on strokes too)."""
        angle = 2 * math.pi / order
        there, back = turn_matrix(self.centre, angle), turn_matrix(self.centre, -angle)
        if max(miss(self.ends, self.segs, there), miss(self.ends, self.segs, back)) > HOLD:
            return False
        return self._two_way(there, back) <= HOLD

    def lacks_turn(self, order: int) -> bool:
        """Turned by 360/order about its centroid, the figure misses itself by a visible distance."""
        angle = 2 * math.pi / order
        gap = self._two_way(turn_matrix(self.centre, angle), turn_matrix(self.centre, -angle))
        return gap * self.side >= VISIBLE_PX

    def mirror_axes(self) -> list[float]:
        """The mirror axes (radians, mod pi) of the figure."""
        rel = self.ends - self.centre
        r = np.hypot(rel[:, 0], rel[:, 1])
        far = int(np.argmax(r))
        axes = []
        for k in np.flatnonzero(r >= r[far] - 2 * HOLD):
            angle = (math.atan2(rel[far, 1], rel[far, 0]) + math.atan2(rel[k, 1], rel[k, 0])) / 2
            transform = mirror_matrix(self.centre, angle)
            if miss(self.ends, self.segs, transform) <= HOLD and miss(self.points, self.segs, transform) <= HOLD:
                axes.append(angle % math.pi)
        return axes

    def lacks_mirror(self) -> bool:
        """No axis through the centroid mirrors the figure onto itself within a visible distance: every
        ``AXIS_STEP`` degrees the corners give a lower bound, the axes where it is low are measured on all
        samples, and what the half step in between can change is allowed for."""
        step = math.radians(AXIS_STEP)
        slack = 2 * self.radius * step / 2
        angles = np.arange(0.0, math.pi, step)
        c2, s2 = np.cos(2 * angles), np.sin(2 * angles)
        rel = self.ends - self.centre
        moved = (
            np.stack(
                [
                    c2[:, None] * rel[None, :, 0] + s2[:, None] * rel[None, :, 1],
                    s2[:, None] * rel[None, :, 0] - c2[:, None] * rel[None, :, 1],
                ],
                axis=-1,
            )
            + self.centre
        )
        bound = distance_to_strokes(moved, self.segs).max(axis=1)
        visible = VISIBLE_PX / self.side
        for k in np.flatnonzero(bound - slack < visible):
            bound[k] = miss(self.points, self.segs, mirror_matrix(self.centre, float(angles[k])))
        return float(bound.min()) - slack >= visible


def properties(figure: Figure) -> dict[str, Any]:
    """Which symmetries the figure has: ``mirror`` and ``turn n`` for n in ``ORDERS``, each True if held
    (``Figure.has_turn``, the stroke ends of every turn, both ways, tried at once first: the same distances as
    trying them turn by turn)."""
    out: dict[str, Any] = {"mirror": bool(figure.mirror_axes())}
    transforms = [turn_matrix(figure.centre, sign * 2 * math.pi / n) for n in ORDERS for sign in (1, -1)]
    images = np.concatenate([figure.ends @ m.T + offset for m, offset in transforms])
    ends = distance_to_strokes(images, figure.segs).reshape(len(transforms), -1).max(axis=1).reshape(-1, 2)
    for k, (n, (there, back)) in enumerate(zip(ORDERS, ends, strict=True)):
        # ``has_turn``: the ends first, then every sample both ways
        out[f"turn {n}"] = bool(max(there, back) <= HOLD) and figure._two_way(*transforms[2 * k : 2 * k + 2]) <= HOLD
    return out


def clearly_lacks(figure: Figure, name: str) -> bool:
    """The figure misses symmetry ``name`` by a visible distance."""
    if name == "mirror":
        return figure.lacks_mirror()
    return figure.lacks_turn(int(name.split()[1]))


def solve(scene: Mapping[str, Any]) -> list[int]:
    """The options lacking a symmetry that every other option has (clearly lacking it: a figure that only just
    misses gives no answer)."""
    side = int(scene["tile"])
    figures = [Figure(d, side) for d in scene["options"]]
    held = [properties(f) for f in figures]
    odd: set[int] = set()
    for name in held[0]:
        without = [k for k, h in enumerate(held) if not h[name]]
        if len(without) == 1 and clearly_lacks(figures[without[0]], name):
            odd.add(without[0])
    return sorted(odd)


# -- pixels -----------------------------------------------------------------------------------------------------
def _px(line: Sequence[Sequence[float]], side: int) -> list[tuple[float, float]]:
    return [(float(x) * side, float(y) * side) for x, y in line]


def _window(reach: float) -> int:
    """The side (pixels) of the square window that holds every pixel within ``reach`` of a stroke piece."""
    return math.ceil(PIECE_PX + 2 * reach) + 2


def _within(segs: np.ndarray, side: int, pad: int, radii: Sequence[float]) -> list[np.ndarray]:
    """For each radius, the pixels whose centres lie within it of one of the segments ``segs`` ((n, 2, 2), pixel
    units; a segment of length 0 is a point), as flat indices into the tile padded by ``pad`` on every side (at
    least ``_window`` of the largest radius).  Distances are exact: every segment is cut into pieces at most
    ``PIECE_PX`` long and each piece is measured in a square window around it, all pieces at once."""
    d = segs[:, 1] - segs[:, 0]
    count = np.maximum(1, np.ceil(np.hypot(d[:, 0], d[:, 1]) / PIECE_PX).astype(int))
    which = np.repeat(np.arange(len(segs)), count)
    step = np.arange(len(which)) - np.repeat(np.cumsum(count) - count, count)
    start = segs[which, 0] + (step / count[which])[:, None] * d[which]
    piece = d[which] / count[which][:, None]
    reach = max(radii)
    offsets = np.arange(_window(reach))
    # a window wholly off the tile is moved into the padding (it holds no pixel of the tile)
    corner = np.clip(np.floor(np.minimum(start, start + piece) - reach).astype(int), -pad, side + pad - len(offsets))
    fx = corner[:, 0, None] + offsets + 0.5 - start[:, 0, None]
    fy = corner[:, 1, None] + offsets + 0.5 - start[:, 1, None]
    px, py = piece[:, 0, None, None], piece[:, 1, None, None]
    t = np.clip((fy[:, :, None] * py + fx[:, None, :] * px) / np.maximum(px * px + py * py, 1e-18), 0.0, 1.0)
    gx, gy = fx[:, None, :] - t * px, fy[:, :, None] - t * py
    gap2 = gx * gx + gy * gy
    wide = side + 2 * pad
    flat = ((corner[:, 1, None] + offsets + pad) * wide)[:, :, None] + (corner[:, 0, None] + offsets + pad)[:, None, :]
    return [flat[gap2 <= radius * radius] for radius in radii]


def panel_bands(description: Mapping[str, Any], side: int) -> tuple[np.ndarray, np.ndarray]:
    """(inside, outside): the side x side pixels whose centres lie ``INSET_PX`` or more inside a recorded stroke's
    edge, those within half a stroke width of a free end left out (the end is cut flat, so its corners are paper),
    and those whose centres lie more than ``OUTSIDE_PX`` outside every stroke, the 3-pixel frame left out."""
    half = float(description["stroke"]) * side / 2
    ends = np.asarray([p for line in description["polylines"] for p in (line[0], line[-1])], dtype=float) * side
    pad = _window(half + OUTSIDE_PX)
    core, near = _within(segments(description) * side, side, pad, (max(half - INSET_PX, 0.0), half + OUTSIDE_PX))
    (free,) = _within(np.stack([ends, ends], axis=1), side, pad, (half,))
    wide = side + 2 * pad
    inside, outside = np.zeros(wide * wide, dtype=bool), np.ones(wide * wide, dtype=bool)
    inside[core], inside[free], outside[near] = True, False, False
    outside = outside.reshape(wide, wide)[pad : pad + side, pad : pad + side]
    outside[:3], outside[-3:], outside[:, :3], outside[:, -3:] = False, False, False, False
    return inside.reshape(wide, wide)[pad : pad + side, pad : pad + side], outside


def panel_failures(low: np.ndarray, description: Mapping[str, Any], side: int, name: str) -> list[str]:
    """``low`` (the tile's darkest channel) must show exactly the recorded strokes: ink (below ``CORE_LEVEL``) all
    over the inside band of ``panel_bands``, paper (at least ``INK_LEVEL``) all over its outside band, and ink
    under all but ``GAP_SHARE`` of the samples along the centre lines, which alone reach the free ends."""
    inside, outside = panel_bands(description, side)
    failures = []
    unpainted = int(np.count_nonzero(inside & (low >= CORE_LEVEL)))
    if unpainted:
        failures.append(f"{name}: {unpainted} pixels {INSET_PX:g} px inside the recorded strokes are not ink")
    stray = outside & (low < INK_LEVEL)
    if stray.any():
        ys, xs = np.nonzero(stray)
        failures.append(
            f"{name}: {int(stray.sum())} ink pixels off the recorded strokes (more than {OUTSIDE_PX:g} px beyond "
            f"their edges, e.g. at x={int(xs[0])}, y={int(ys[0])})"
        )
    centre = samples(segments(description), 1.0 / side) * side
    cols = np.clip(np.floor(centre[:, 0]).astype(int), 0, side - 1)
    rows = np.clip(np.floor(centre[:, 1]).astype(int), 0, side - 1)
    light = float((low[rows, cols] >= CORE_LEVEL).mean())
    if light > GAP_SHARE:
        failures.append(f"{name}: {light:.0%} of the recorded strokes are not drawn (centre-line samples)")
    return failures


def pixel_failures(scene: Mapping[str, Any], image: np.ndarray | Image.Image) -> list[str]:
    """Every option panel shows exactly its recorded strokes (``panel_failures`` on its darkest channel, taken
    once): no stroke or piece of one missing or moved, no ink off them.  ``image`` is the RGB picture as an array,
    or as a PIL image, of which only the option boxes are read."""
    side = int(scene["tile"])
    failures = []
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        if isinstance(image, Image.Image):
            tile = np.asarray(image.crop(tuple(int(v) for v in box)).convert("RGB"))
        else:
            tile = image[box[1] : box[3], box[0] : box[2]]
        low = np.minimum(np.minimum(tile[..., 0], tile[..., 1]), tile[..., 2])
        failures += panel_failures(low, description, side, f"option {chr(ord('A') + k)}")
    return failures


def sketch(description: Mapping[str, Any], side: int) -> np.ndarray:
    """A crude drawing of one figure at ``side`` pixels: its polylines in black at the recorded width."""
    image = Image.new("RGB", (side, side), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    width = max(1, round(float(description["stroke"]) * side))
    for line in description["polylines"]:
        draw.line(_px(line, side), fill=(20, 20, 20), width=width, joint="curve")
    return np.asarray(image)
