"""Pen strokes of line figures (relation abstraction): straight and circular-arc edges, their polylines, how their
ink is laid out apart from its size (``ink_shape``), and how a figure is placed in its panel.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np
from PIL import Image

#: Least distance of a placed figure's box from the panel's edge (``place``), as a fraction of the panel side.
PLACE_MARGIN = 0.07


def vector_norm(x: Any, axis: int | None = None) -> Any:
    """``np.linalg.norm(x)`` (or along ``axis``) of real vectors: the same arithmetic (a dot product, or a sum of
    squares along the axis) without its dispatch, which dominated the many small calls here."""
    if axis is None:
        flat = np.asarray(x, dtype=float).ravel(order="K")
        return np.sqrt(flat.dot(flat))
    x = np.asarray(x, dtype=float)
    return np.sqrt(np.add.reduce(x * x, axis=axis))


@attrs.define
class Stroke:
    """One pen stroke: vertices joined by edges that are straight (bulge 0) or circular arcs.

    ``bulges[i]`` belongs to the edge from vertex i to vertex i+1 (wrapping for closed strokes) and is
    tan(theta/4) for an arc of included angle theta, positive bulging towards the normal (-dy, dx) of the
    edge direction (dx, dy).
    ``part`` groups strokes that the program means to be one connected piece.
    """

    points: np.ndarray
    bulges: np.ndarray
    closed: bool
    part: int = 0

    @classmethod
    def make(cls, points: Sequence[Sequence[float]], closed: bool, bulges: Sequence[float] | None = None,
             part: int = 0) -> Stroke:
        """A stroke from vertex coordinates; all edges straight unless bulges are given."""
        p = np.asarray(points, dtype=float)
        count = len(p) if closed else len(p) - 1
        b = np.zeros(count) if bulges is None else np.asarray(bulges, dtype=float)
        return cls(p, b, closed, part)

    def copy(self) -> Stroke:
        """An independent copy (edits never change the original)."""
        return Stroke(self.points.copy(), self.bulges.copy(), self.closed, self.part)

    def edge(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """The end points of edge ``i`` (the last edge of a closed stroke wraps around)."""
        return self.points[i], self.points[(i + 1) % len(self.points)]


Figure = list[Stroke]


def arc_circle(a: np.ndarray, b: np.ndarray, bulge: float) -> tuple[np.ndarray, float, np.ndarray, float]:
    """(centre, radius, apex, included angle in radians) of the circular edge from ``a`` to ``b`` with ``bulge``
    (tan of a quarter of the included angle, bulging towards the normal (-dy, dx) of the edge)."""
    length = float(vector_norm(b - a))
    theta = 4.0 * np.arctan(abs(bulge))
    radius = length / (2.0 * np.sin(theta / 2.0))
    normal = np.array([-(b - a)[1], (b - a)[0]]) / length
    side = float(np.sign(bulge))
    apex = (a + b) / 2.0 + side * normal * abs(bulge) * length / 2.0  # sagitta = bulge * chord / 2
    return apex - side * normal * radius, radius, apex, theta


def arc_points(a: np.ndarray, b: np.ndarray, bulge: float, chord: float) -> np.ndarray:
    """Points of the arc from ``a`` to ``b`` with the given bulge, evenly spaced, both ends included."""
    centre, radius, apex, theta = arc_circle(a, b, bulge)
    start = np.arctan2(a[1] - centre[1], a[0] - centre[0])
    towards = np.arctan2(apex[1] - centre[1], apex[0] - centre[0])
    # the apex sits half way along the arc, theta / 2 < pi from the start in the direction of travel
    direction = 1.0 if (towards - start) % (2 * np.pi) < np.pi else -1.0
    steps = max(4, int(np.ceil(np.degrees(theta) / 5.0)), int(np.ceil(radius * theta / chord)))
    t = start + direction * theta * _unit_steps(steps)
    pts = centre + radius * np.column_stack([np.cos(t), np.sin(t)])
    pts[0], pts[-1] = a, b
    return pts


@functools.lru_cache(maxsize=256)
def _unit_steps(steps: int) -> np.ndarray:
    """``np.linspace(0, 1, steps + 1)``, made once per count (read-only)."""
    out = np.linspace(0.0, 1.0, steps + 1)
    out.setflags(write=False)
    return out


def flatten(stroke: Stroke, chord: float) -> np.ndarray:
    """The stroke as one polyline (closed strokes end on their first point)."""
    p = stroke.points
    n = len(p)
    out = [p[0]]
    for i in range(n if stroke.closed else n - 1):
        a, b = p[i], p[(i + 1) % n]
        if abs(stroke.bulges[i]) > 1e-9:
            out.extend(arc_points(a, b, float(stroke.bulges[i]), chord)[1:])
        else:
            out.append(b)
    poly = np.array(out)
    if stroke.closed:
        poly[-1] = poly[0]
    return poly


def turned_ink_shapes(polylines: Sequence[np.ndarray], turns: np.ndarray) -> np.ndarray:
    """For each angle of ``turns``, the shape of the figure's ink once turned by it (``ink_shape``)."""
    z = [p[:, 0] + 1j * p[:, 1] for p in polylines]
    a = np.concatenate([q[:-1] for q in z])
    b = np.concatenate([q[1:] for q in z])
    d = b - a
    length = np.abs(d)
    total = float(length.sum())
    centre = (length * (a + b)).sum() / (2 * total)
    u, v = a - centre, b - centre
    m2 = (length * (u * u + u * v + v * v)).sum() / 3
    polar = float((length * (np.abs(u) ** 2 + (u * np.conj(v)).real + np.abs(v) ** 2)).sum() / 3)
    turns = np.asarray(turns, dtype=float)
    slant = (length[None] * np.abs(np.sin(2 * (np.angle(d)[None] + turns[:, None])))).sum(axis=1) / total
    # every vertex once (the edges' ends repeat them, which leaves the box as it is)
    points = np.concatenate(z)[None] * np.exp(1j * turns)[:, None]
    x, y = points.real, points.imag
    box = np.log(np.maximum((x.max(axis=1) - x.min(axis=1)) * (y.max(axis=1) - y.min(axis=1)), 1e-12)) / 2
    spread = math.log(polar / total) / 2
    return np.column_stack([np.full(len(turns), abs(m2) / polar), slant, np.full(len(turns), math.log(total) - spread),
                            spread - box])


def ink_shape(polylines: Sequence[np.ndarray]) -> np.ndarray:
    """How the ink of thin strokes along the polylines is laid out, apart from its size: its elongation (the
    modulus of the wire's second moment about its centroid, sum of (z - c)^2 with z = x + iy, over its polar
    moment, sum of |z - c|^2: 0 when the ink has no principal direction, as for every figure with a turn
    symmetry of order 3 or more, 1 for a straight line); the slant of its strokes (the mean over the wire of
    |sin 2 theta| for a stroke heading theta: 0 when every stroke is horizontal or vertical, 1 when every one
    runs at 45 degrees); the log of the strokes' length over the ink's spread (the root of its polar moment per
    length); and the log of the spread over the root of the area of the ink's box.  ``bench audit`` measures
    all of them on the drawn panel, up to the stroke width: elongation, diagonal edges, and ink, spread and
    the ink's box, which ``balanced_sizes`` ranks in one order, so that their ratios are what is left to tell a
    figure by.  The negative's must be distributed like a positive's."""
    return turned_ink_shapes(polylines, np.zeros(1))[0]


def ink_spread(tile: Image.Image) -> float:
    """The spread of a panel's ink as ``bench audit`` measures it: the root of the ink pixels' summed variances
    in x and y over the panel side, inside a 3-pixel frame (ink: darker than 195)."""
    grey = np.asarray(tile.convert("L"))[3:-3, 3:-3]
    rows, cols = np.nonzero(grey < 195)
    if not len(rows):
        return 0.0
    return float(math.sqrt(rows.var() + cols.var()) / max(grey.shape))


def grey_features(tile: Image.Image) -> dict[str, float]:
    """``attributes.panel_features`` (ink, ink box, saturation) and ``ink_spread`` of a panel drawn in greys only
    (its three channels equal, as a grey ``Tile`` gives them), from its one channel: the same numbers, for a
    fraction of the work (a grey panel has no colour to measure, so its saturation is 0)."""
    grey = np.asarray(tile.getchannel(0))[3:-3, 3:-3]
    ink = grey < 195
    rows, cols = np.nonzero(ink)
    if not len(rows):
        return {"ink": 0.0, "extent": 0.0, "saturation": 0.0, "spread": 0.0}
    area = (rows.max() - rows.min() + 1) * (cols.max() - cols.min() + 1) / ink.size
    return {"ink": float(ink.mean()), "extent": float(area), "saturation": 0.0,
            "spread": float(math.sqrt(rows.var() + cols.var()) / max(grey.shape))}


def figure_size(figure: Figure) -> float:
    """The larger side of the figure's bounding box."""
    pts = np.vstack([flatten(s, 0.05) for s in figure])
    return float(max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1]), 1e-9))


def place(figure: Figure, rng: np.random.Generator, extent: float, angle: float | None = None) -> Figure:
    """Rotate the figure (at random, or by ``angle``), scale its bounding box to ``extent`` of the panel and put
    the centre of its ink (the polylines' centroid) at the panel's centre, with a little jitter; return its
    strokes in panel units (0..1, y down).  A figure whose ink is far off its box's centre is drawn smaller, so
    that its box stays PLACE_MARGIN inside the panel.

    Centring the boxes instead left the ink's centre where the figure's shape put it: a near miss (a gap
    opened, a corner cut, a crossing line cut back) moved it further from the panel's centre than the
    positives' (the most atypical ink centre was the answer in 21% of the items)."""
    angle = rng.uniform(0.0, 2 * np.pi) if angle is None else angle
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    moved = [Stroke(s.points @ rot.T, s.bulges, s.closed, s.part) for s in figure]
    raw = [flatten(s, 0.02) for s in moved]
    pts = np.vstack(raw)
    low, high = pts.min(axis=0), pts.max(axis=0)
    a, b = np.vstack([p[:-1] for p in raw]), np.vstack([p[1:] for p in raw])
    length = np.hypot(*(b - a).T)
    centre = (((a + b) / 2) * length[:, None]).sum(axis=0) / length.sum()
    offset = np.array([0.5, 0.5]) + rng.uniform(-0.03, 0.03, size=2)
    room = np.minimum((offset - PLACE_MARGIN) / np.maximum(centre - low, 1e-9),
                      (1.0 - PLACE_MARGIN - offset) / np.maximum(high - centre, 1e-9))
    scale = min(extent / float(max(high - low)), float(room.min()))
    return [Stroke((s.points - centre) * scale + offset, s.bulges.copy(), s.closed, s.part) for s in moved]


Family = Callable[[np.random.Generator], Figure]


Edit = Callable[[Figure, np.random.Generator, float], "Figure | None"]
