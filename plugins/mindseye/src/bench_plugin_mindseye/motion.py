"""Shapes, inferable motions and a motion-fitting solver for Dynamic Structural Correspondence (DSC).

A shape's pose is ``(x, y, angle, log a, log c, k)``: its canonical outline (circumradius 1, centred at 0) is
mapped by ``(x, y) + R(angle) @ [[a, a*k], [0, c]]``, i.e. a rotation times an upper-triangular stretch and
shear in the shape's own frame (the QR form, so a pose can be read back from an outline).  A motion adds a
delta to the base pose as a function of t.  Every motion is *inferable* from the frames t = 0, 0.25, 0.5, 0.75
(spec §7.2): each pose quantity either changes by a constant step (linear; a size may also grow by a constant
amount), or follows a period-1 curve with no component at the sampling frequency (a sinusoid or a triangle wave:
q(0) + q(0.5) = q(0.25) + q(0.75)), or the position turns about a fixed centre by a constant angle (orbit).
Rotation steps stay under 0.4 of the shape's symmetry angle and rocking under 0.45 of it, so the smallest
rotation consistent with the frames is the true one.

The solver (``predict``) sees only outlines: it reads every frame's pose up to the outline's symmetry, tries
every consistent reading, keeps those where each quantity fits one of the model families above, prefers the
smoothest one (least squared change per step), and extrapolates it to t = 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np


def _regular(n: int, start_deg: float) -> np.ndarray:
    a = np.radians(start_deg) + 2 * np.pi * np.arange(n) / n
    return np.stack([np.cos(a), np.sin(a)], axis=1)


#: Canonical outlines (counter-clockwise, centroid at the origin, circumradius 1).  The diamond is a rhombus
#: with unequal diagonals, so it cannot be mistaken for a turned square (as in the release, spec §2.3).
SHAPES: dict[str, np.ndarray] = {
    "triangle": _regular(3, 90),
    "square": _regular(4, 45),
    "pentagon": _regular(5, 90),
    "hexagon": _regular(6, 0),
    "diamond": np.array([[0.0, -1.0], [0.62, 0.0], [0.0, 1.0], [-0.62, 0.0]]),
}
#: Order of each outline's rotation symmetry (its symmetry angle is 360 / order).
SYMMETRY = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6, "diamond": 2}
QUANTITIES = ("x", "y", "angle", "log_a", "log_c", "shear")

#: Motions per class (difficulty knob "motion class", spec §7.1 item 4): single constant-rate motions, period-1
#: motions, and compound (two quantities at once) or deforming motions.
LINEAR = ("spin", "drift", "grow")
PERIODIC = ("rock", "bounce", "wiggle", "pulsate", "orbit")
COMPOUND = ("swirl", "spin_drift", "orbit_spin", "rock_drift", "grow_spin", "shear", "tilt", "squash")
CLASSES = {"linear": LINEAR, "periodic": PERIODIC, "compound": COMPOUND}
#: Speed knob: a factor on every step size.
SPEEDS = {"slow": 0.7, "medium": 0.85, "fast": 1.0}


# -- poses and outlines ----------------------------------------------------------------------------------
def outline(shape: str, pose: Sequence[float]) -> np.ndarray:
    """The outline of ``shape`` at ``pose`` (n x 2, world units, y up)."""
    x, y, angle, la, lc, k = pose
    a, c = math.exp(la), math.exp(lc)
    cos, sin = math.cos(angle), math.sin(angle)
    m = np.array([[cos, -sin], [sin, cos]]) @ np.array([[a, a * k], [0.0, c]])
    return SHAPES[shape] @ m.T + np.array([x, y])


def set_distance(p: np.ndarray, q: np.ndarray) -> float:
    """Hausdorff distance between two vertex sets: the largest distance from a vertex of one to the nearest
    vertex of the other.  Outlines that look the same (a square turned by 90 degrees) are at distance 0."""
    d = np.hypot(p[:, None, 0] - q[None, :, 0], p[:, None, 1] - q[None, :, 1])
    return float(max(d.min(axis=1).max(), d.min(axis=0).max()))


def set_distances(sets: np.ndarray) -> np.ndarray:
    """``set_distance`` between every two of ``sets`` (k x n x 2: k vertex sets of n vertices each), as a k x k
    matrix, computed at once with the same arithmetic (so every entry equals the ``set_distance`` of its pair)."""
    p = np.asarray(sets, dtype=float)
    d = np.hypot(p[:, None, :, None, 0] - p[None, :, None, :, 0], p[:, None, :, None, 1] - p[None, :, None, :, 1])
    return np.maximum(d.min(axis=3).max(axis=2), d.min(axis=2).max(axis=2))


# -- motions ---------------------------------------------------------------------------------------------
@attrs.frozen
class Component:
    """One law acting on pose quantities: ``linear`` (a step per quarter of t), ``grow`` (the log of a size that
    grows by ``size`` times its start value per quarter), ``sine`` (amplitude, period 1),
    ``triangle`` (a step per quarter, turning at t = 0.5, period 1) or ``orbit`` (radius, start phase, turn per
    quarter).  ``weights`` spreads a scalar law over several quantities (a direction of travel, equal stretch of
    both axes, opposite stretch for a squash)."""

    law: str
    weights: tuple[float, ...]
    size: float
    phase: float = 0.0

    def delta(self, t: float) -> np.ndarray:
        w = np.array(self.weights)
        if self.law == "linear":
            return w * self.size * 4 * t
        if self.law == "grow":  # log of a size growing linearly: size * (1 + rate * steps)
            return w * math.log1p(self.size * 4 * t)
        if self.law == "sine":
            return w * self.size * math.sin(2 * math.pi * t)
        if self.law == "triangle":
            u = t % 1.0
            return w * self.size * (4 * u if u <= 0.5 else 4 * (1 - u))
        # orbit: weights pick x and y; the position turns about a centre one radius away
        turn = self.phase + self.size * 4 * t
        return np.array([w[0] * (math.cos(turn) - math.cos(self.phase)), w[1] * (math.sin(turn) - math.sin(self.phase)),
                         0, 0, 0, 0])

    def misread(self) -> np.ndarray:
        """The delta at t = 1 under the wrong model family: a steady change read as turning back at 0.75, a
        swing read as carrying on, an orbit read as leaving on its tangent (template wrong_function)."""
        if self.law in ("linear", "grow", "triangle"):
            return self.delta(0.5)
        return 2 * self.delta(0.75) - self.delta(0.5)


@attrs.frozen
class Motion:
    """A named motion: components acting on distinct pose quantities."""

    name: str
    components: tuple[Component, ...]

    def delta(self, t: float) -> np.ndarray:
        return _total([c.delta(t) for c in self.components])

    def misread(self) -> np.ndarray:
        return _total([c.misread() for c in self.components])

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "components": [attrs.asdict(c) for c in self.components]}


def _total(deltas: Sequence[np.ndarray]) -> np.ndarray:
    """``np.sum(deltas, axis=0)`` of a few pose deltas, added in the same order (first to last)."""
    out = np.array(deltas[0], dtype=float)
    for d in deltas[1:]:
        out = out + d
    return out


def _on(*pairs: tuple[str, float]) -> tuple[float, ...]:
    weights = dict(pairs)
    return tuple(float(weights.get(q, 0.0)) for q in QUANTITIES)


def make_motion(name: str, shape: str, speed: float, rng: np.random.Generator) -> Motion:
    """Draw the parameters of motion ``name`` for ``shape`` at speed factor ``speed`` (0.62-1)."""
    alpha = 2 * math.pi / SYMMETRY[shape]
    sign = 1 if rng.random() < 0.5 else -1
    heading = float(rng.uniform(0, 2 * math.pi))
    direction = _on(("x", math.cos(heading)), ("y", math.sin(heading)))

    def spin() -> Component:
        # under 0.4 of the symmetry angle per step, so the smallest rotation that explains the frames is this one
        step = speed * rng.uniform(0.8, 1.0) * min(math.radians(40), 0.4 * alpha)
        return Component("linear", _on(("angle", 1.0)), sign * step)

    def rock() -> Component:
        return Component("sine", _on(("angle", 1.0)), sign * speed * rng.uniform(0.75, 0.95) *
                         min(math.radians(45), 0.45 * alpha))

    def drift() -> Component:
        return Component("linear", direction, speed * rng.uniform(0.13, 0.17))

    def orbit() -> Component:
        radius = rng.uniform(0.3, 0.38)
        return Component("orbit", _on(("x", radius), ("y", radius)), sign * speed * math.radians(rng.uniform(50, 68)),
                         phase=heading)

    def pulsate() -> Component:
        return Component("sine", _on(("log_a", 1.0), ("log_c", 1.0)), sign * speed * rng.uniform(0.26, 0.34))

    def grow() -> Component:
        # the size grows by a constant amount per step (a constant factor would crawl at first and explode later)
        return Component("grow", _on(("log_a", 1.0), ("log_c", 1.0)), speed * rng.uniform(0.34, 0.42))

    laws = {
        "spin": lambda: [spin()],
        "rock": lambda: [rock()],
        "drift": lambda: [drift()],
        "bounce": lambda: [Component("triangle", direction, speed * rng.uniform(0.14, 0.18))],
        "wiggle": lambda: [Component("sine", direction, sign * speed * rng.uniform(0.24, 0.3))],
        "orbit": lambda: [orbit()],
        "pulsate": lambda: [pulsate()],
        "grow": lambda: [grow()],
        "swirl": lambda: [spin(), pulsate()],
        "spin_drift": lambda: [spin(), drift()],
        "orbit_spin": lambda: [orbit(), spin()],
        "rock_drift": lambda: [rock(), drift()],
        "grow_spin": lambda: [grow(), spin()],
        "shear": lambda: [Component("linear", _on(("shear", 1.0)), sign * speed * rng.uniform(0.2, 0.26))],
        "tilt": lambda: [Component("sine", _on(("shear", 1.0)), sign * speed * rng.uniform(0.38, 0.5))],
        "squash": lambda: [Component("sine", _on(("log_a", 1.0), ("log_c", -1.0)),
                                     sign * speed * rng.uniform(0.24, 0.3))],
    }
    return Motion(name, tuple(laws[name]()))


# -- the solver ------------------------------------------------------------------------------------------
#: Tolerance of the exact model tests (poses are computed exactly, so only rounding error remains).
_EPS = 1e-6


def _ccw(v: np.ndarray) -> np.ndarray:
    x, y = v[:, 0], v[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return v if area > 0 else v[::-1]


def recognise(v: np.ndarray) -> str | None:
    """The library shape whose outline is a similar copy of ``v`` (an undeformed first frame), or None.  Each
    shape is tried with every vertex of ``v`` first (all at once): the complex least-squares similarity
    z = scale * e^(i angle) with target ~ z * canon, and its largest vertex error over the scale."""
    v = _ccw(np.asarray(v, dtype=float))
    n = len(v)
    z_v = v[:, 0] + 1j * v[:, 1]
    # targets[shift] = np.roll(v, shift, axis=0), centred
    targets = z_v[(np.arange(n)[None, :] - np.arange(n)[:, None]) % n]
    targets = targets - targets.mean(axis=1, keepdims=True)
    best, best_err = None, math.inf
    for name, canon in SHAPES.items():
        if len(canon) != n:
            continue
        zc = canon[:, 0] + 1j * canon[:, 1]
        z = (targets @ zc.conj()) / np.vdot(zc, zc)
        err = np.abs(targets - z[:, None] * zc[None, :]).max(axis=1) / np.maximum(np.abs(z), 1e-12)
        k = int(np.argmin(err))
        if err[k] < best_err:
            best, best_err = name, float(err[k])
    return best if best_err < 1e-5 else None


def read_poses(shape: str, v: np.ndarray) -> np.ndarray:
    """Every pose (rows of x, y, angle, log a, log c, shear) whose outline is the vertex set ``v``: one per
    orientation-preserving correspondence of vertices that an affine map explains exactly.

    All correspondences (the vertices read from each one in turn) at once: the least-squares map of the canonical
    outline onto each is its pseudo-inverse applied to the centred vertices, and a map m with positive
    determinant is rotation(angle) @ [[a, a * shear], [0, c]] with a = |m's first column|, angle that column's
    direction, a * shear = (the first column . the second) / a and c = det(m) / a (its QR form)."""
    canon = SHAPES[shape]
    v = _ccw(np.asarray(v, dtype=float))
    centre = v.mean(axis=0)
    n = len(v)
    # targets[shift] = np.roll(v, shift, axis=0) - centre
    targets = v[(np.arange(n)[None, :] - np.arange(n)[:, None]) % n] - centre
    m = np.einsum("ij,sjk->sik", _pinv(shape), targets)  # per shift: canon @ m ~ target; the linear map is m.T
    exact = np.abs(canon @ m - targets).max(axis=(1, 2)) <= 1e-7
    m00, m01, m10, m11 = m[:, 0, 0], m[:, 1, 0], m[:, 0, 1], m[:, 1, 1]  # entries of the map m.T
    det = m00 * m11 - m01 * m10
    keep = exact & (det > 0)
    if not keep.any():
        return np.array([])
    a = np.hypot(m00, m10)[keep]
    m00, m01, m10, m11, det = m00[keep], m01[keep], m10[keep], m11[keep], det[keep]
    return np.stack([np.full(len(a), centre[0]), np.full(len(a), centre[1]), np.arctan2(m10, m00), np.log(a),
                     np.log(det / a), (m00 * m01 + m10 * m11) / (a * a)], axis=1)


_PINV: dict[str, np.ndarray] = {}


def _pinv(shape: str) -> np.ndarray:
    """The pseudo-inverse of the canonical outline (2 x n): the least-squares solve of ``read_poses``."""
    if shape not in _PINV:
        _PINV[shape] = np.linalg.pinv(SHAPES[shape])
    return _PINV[shape]


def _fit_scalar(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For series q (combos x 4): (fits, prediction at t = 1) under linear or period-1 models."""
    linear = (np.abs(q[:, 0] - 2 * q[:, 1] + q[:, 2]) < _EPS) & (np.abs(q[:, 1] - 2 * q[:, 2] + q[:, 3]) < _EPS)
    periodic = np.abs(q[:, 0] + q[:, 2] - q[:, 1] - q[:, 3]) < _EPS
    prediction = np.where(linear, 2 * q[:, 3] - q[:, 2], q[:, 0])
    return linear | periodic, prediction


def _fit_position(p: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """Prediction of the position at t = 1 from four positions (4 x 2): per-axis linear or period-1, or a turn
    about a fixed centre by a constant angle."""
    fits, guess = _fit_scalar(p.T.copy())
    if fits.all():
        return guess
    a, b, c = p[0], p[1], p[2]
    d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]))
    if abs(d) < 1e-9:
        return None
    sq = (a**2).sum(), (b**2).sum(), (c**2).sum()
    centre = np.array([sq[0] * (b[1] - c[1]) + sq[1] * (c[1] - a[1]) + sq[2] * (a[1] - b[1]),
                       sq[0] * (c[0] - b[0]) + sq[1] * (a[0] - c[0]) + sq[2] * (b[0] - a[0])]) / d
    radius = np.hypot(*(p - centre).T)
    if np.ptp(radius) > 1e-6:
        return None
    phase = np.arctan2(p[:, 1] - centre[1], p[:, 0] - centre[0])
    steps = np.remainder(np.diff(phase) + math.pi, 2 * math.pi) - math.pi
    if np.ptp(steps) > 1e-6:
        return None
    turn = phase[3] + steps[0]
    return centre + radius[0] * np.array([math.cos(turn), math.sin(turn)])


def predict(shape: str, frames: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Outlines the shape should have at t = 1 given its outlines at t = 0, 0.25, 0.5, 0.75: the smoothest
    reading in which every pose quantity follows one model family, extrapolated one step.  Usually one outline;
    several only if equally smooth readings disagree (then the item is ambiguous)."""
    readings = [read_poses(shape, v) for v in frames]
    if any(len(r) == 0 for r in readings):
        return []
    position = _fit_position(np.array([r[0, :2] for r in readings]))
    if position is None:
        return []
    # every combination of a reading per frame, the last frame's changing fastest (``itertools.product``'s order)
    combos = np.indices([len(r) for r in readings]).reshape(len(readings), -1).T
    series = np.stack([readings[f][combos[:, f]] for f in range(4)], axis=1)  # combos x 4 x 6
    angle = series[:, :, 2].copy()
    angle[:, 1:] = angle[:, :1] + np.cumsum(np.remainder(np.diff(angle, axis=1) + math.pi, 2 * math.pi) - math.pi,
                                             axis=1)
    series[:, :, 2] = angle
    ok = np.ones(len(combos), dtype=bool)
    guess = np.zeros((len(combos), 6))
    guess[:, :2] = position
    for k in range(2, 6):
        fits, value = _fit_scalar(series[:, :, k])
        if k in (3, 4):  # a size may also change by a constant amount per step (linear in the size itself)
            grows, size = _fit_scalar(np.exp(series[:, :, k]))
            value = np.where(fits, value, np.log(np.maximum(size, 1e-9)))
            fits = fits | (grows & (size > 0))
        ok &= fits
        guess[:, k] = value
    if not ok.any():
        return []
    energy = (np.diff(series[:, :, 2:], axis=1) ** 2).sum(axis=(1, 2))
    best = ok & (energy <= energy[ok].min() + 1e-9)
    candidates = [outline(shape, pose) for pose in guess[best]]
    # each kept unless an outline kept before it is within 1e-6 (each kept one strikes all later ones near it)
    near = ~(set_distances(np.stack(candidates)) > 1e-6)
    outlines: list[np.ndarray] = []
    remaining = list(range(len(candidates)))
    while remaining:
        first = remaining[0]
        outlines.append(candidates[first])
        remaining = [k for k in remaining[1:] if not near[first, k]]
    return outlines


def matches(predicted: Sequence[np.ndarray], shown: np.ndarray, tolerance: float = 1e-3) -> bool:
    """Whether the shown outline is one of the predicted outlines."""
    return any(set_distance(p, shown) < tolerance for p in predicted)


def frame_poses(base: Mapping[str, np.ndarray], motions: Mapping[str, Motion], t: float) -> dict[str, np.ndarray]:
    """Pose of every shape at time ``t``."""
    return {key: base[key] + motions[key].delta(t) for key in base}
