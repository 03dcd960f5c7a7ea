"""The verifiers' own evaluation of the 32 MaRVL-QA surface formulas, from a scene record's parameters.

Written apart from the generator's function library: each family is evaluated here from its published
formula (the plugin README and the family docstrings describe them) with the parameter names of the scene
record, so a verifier can recompute z = f(x, y) without running any generator code.  The values agree with
the generator's to rounding error (a few units in the last place); verifiers compare them with tolerances.

``grid(name, params, xs, ys)`` returns f on the tensor grid ``xs`` x ``ys`` (shape ``(len(ys), len(xs))``,
rows = y ascending); ``at(name, params, x, y)`` evaluates at points of any broadcastable shape.  Several
families are evaluated on grids through a separable form (outer products, one small matrix product for
sums of Gaussians, without BLAS): a different summation route from the generator's, and fast.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

Params = Mapping[str, Any]
_Pointwise = Callable[[Params, np.ndarray, np.ndarray], np.ndarray]
_Tensor = Callable[[Params, np.ndarray, np.ndarray], np.ndarray]


def _turn(p: Params, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates about ``p['centre']`` in the frame turned by ``p['angle']``: (along, across)."""
    cx, cy = p.get("centre", (0.0, 0.0))
    theta = p.get("angle", 0.0)
    c, s = math.cos(theta), math.sin(theta)
    dx, dy = x - cx, y - cy
    return c * dx + s * dy, c * dy - s * dx


def _dist(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    return np.sqrt((x - cx) ** 2 + (y - cy) ** 2)


# -- sums of Gaussians (lattices, mixtures, beaded rings) -------------------------------------------------


def _bumps(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    total = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)))
    for (cx, cy), sigma, height in zip(p["centres"], p["sigmas"], p["amplitudes"], strict=True):
        total = total + height * np.exp(-0.5 * ((x - cx) ** 2 + (y - cy) ** 2) / (sigma * sigma))
    return total


def _bumps_tensor(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    centres = np.asarray(p["centres"], dtype=float).reshape(-1, 2)
    sigmas = np.asarray(p["sigmas"], dtype=float)
    heights = np.asarray(p["amplitudes"], dtype=float)
    inv = 0.5 / (sigmas * sigmas)
    across = _tail_exp(-((xs[None, :] - centres[:, :1]) ** 2) * inv[:, None])  # (k, nx)
    up = heights[:, None] * _tail_exp(-((ys[None, :] - centres[:, 1:]) ** 2) * inv[:, None])  # (k, ny)
    # sum over components of outer products; einsum's own loop, not a BLAS call: threaded BLAS stalls when
    # the machine is busy, and a verifier must stay fast inside a pool of generating workers
    return np.einsum("ki,kj->ij", up, across, optimize=False)


#: Exponents below this give factors under 1e-150, taken as 0: their products would be subnormal numbers,
#: which make the matrix product hundreds of times slower, and they are far below any drawn difference.
_TAIL = -345.0


def _tail_exp(exponent: np.ndarray) -> np.ndarray:
    return np.where(exponent < _TAIL, 0.0, np.exp(np.maximum(exponent, _TAIL)))


# -- tier 1 ----------------------------------------------------------------------------------------------


def _plane(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return p["c"] + p["a"] * x + p["b"] * y


def _elliptic(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    return p["sign"] * (((x - cx) / p["a"]) ** 2 + ((y - cy) / p["b"]) ** 2)


def _hyperbolic(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    along, across = _turn(p, x, y)
    return (along / p["a"]) ** 2 - (across / p["b"]) ** 2


def _parabolic_cylinder(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = p["angle"]
    return ((math.cos(t) * x + math.sin(t) * y - p["c"]) / p["a"]) ** 2


# -- tier 2 ----------------------------------------------------------------------------------------------


def _wave(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.sin(p["w1"] * x + p["p1"]) * np.cos(p["w2"] * y + p["p2"])


def _wave_tensor(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    return np.multiply.outer(np.cos(p["w2"] * ys + p["p2"]), np.sin(p["w1"] * xs + p["p1"]))


def _ripples(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = _dist(p, x, y)
    return np.cos(p["k"] * r - p["phase"]) / (1.0 + p["alpha"] * r)


def _gabor(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    along, across = _turn(p, x, y)
    sigma = p["sigma"]
    envelope = np.exp(-(along**2 + (p["gamma"] * across) ** 2) / (2.0 * sigma * sigma))
    return envelope * np.cos(2.0 * math.pi / p["wavelength"] * along + p["phase"])


def _windowed(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    s2 = 2.0 * p["s"] ** 2
    return np.exp(-(x * x + y * y) / s2) * np.sin(p["w1"] * x + p["p1"]) * np.sin(p["w2"] * y + p["p2"])


def _windowed_tensor(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    s2 = 2.0 * p["s"] ** 2
    gx = np.exp(-xs * xs / s2) * np.sin(p["w1"] * xs + p["p1"])
    gy = np.exp(-ys * ys / s2) * np.sin(p["w2"] * ys + p["p2"])
    return np.multiply.outer(gy, gx)


def _troughs(centres: Any, u: np.ndarray, w: float) -> np.ndarray:
    depth = np.zeros(np.shape(u))
    for a in centres:
        depth = depth + np.exp(-((u - a) ** 2) / (2.0 * w * w))
    return depth


def _tunnels(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return 1.0 - _troughs(p["a"], x, p["w"]) - _troughs(p["b"], y, p["w"])


def _tunnels_tensor(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    return np.add.outer(1.0 - _troughs(p["b"], ys, p["w"]), -_troughs(p["a"], xs, p["w"]))


def _checkerboard(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.tanh(p["beta"] * np.sin(p["k"] * x + p["px"]) * np.sin(p["k"] * y + p["py"]))


def _checkerboard_tensor(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    inner = np.multiply.outer(p["beta"] * np.sin(p["k"] * ys + p["py"]), np.sin(p["k"] * xs + p["px"]))
    return np.tanh(inner)


def _modulated(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.sin(p["w1"] * x) * (1.0 + p["m"] * np.cos(p["w2"] * y))


def _modulated_tensor(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    return np.multiply.outer(1.0 + p["m"] * np.cos(p["w2"] * ys), np.sin(p["w1"] * xs))


def _damped(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = _dist(p, x, y)
    return np.exp(-p["lam"] * r) * np.cos(p["k"] * r)


def _spiral(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    dx, dy = x - cx, y - cy
    return np.sin(p["k"] * np.sqrt(dx * dx + dy * dy) + p["m"] * np.arctan2(dy, dx))


# -- tier 3 ----------------------------------------------------------------------------------------------


def _cone(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return p["h"] - p["s"] * _dist(p, x, y)


def _cusp(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    dx2, dy2 = (x - cx) ** 2, (y - cy) ** 2
    if p["form"] == "radial":
        return p["sign"] * np.cbrt(dx2 + dy2)
    return p["sign"] * (np.cbrt(dx2) + np.cbrt(dy2))


def _monkey(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    along, across = _turn(p, x, y)
    return p["scale"] * along * (along * along - 3.0 * across * across)


def _step(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    total = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)))
    for theta, offset, height in zip(p["angles"], p["offsets"], p["heights"], strict=True):
        signed = math.cos(theta) * x + math.sin(theta) * y - offset
        total = total + 0.5 * height * (1.0 + np.tanh(p["beta"] * signed))
    return total


def _ridge(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = p["angle"]
    c, s = math.cos(t), math.sin(t)
    return p["tilt"] * (c * y - s * x) - p["s"] * np.abs(c * x + s * y - p["c"])


def _astroid(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    return (np.cbrt(((x - cx) / p["a"]) ** 2) + np.cbrt(((y - cy) / p["b"]) ** 2)) ** 1.5


def _log_singularity(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    return np.log((x - cx) ** 2 + (y - cy) ** 2 + p["eps"])


def _ring(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    gap = p["eps"] + np.abs(_dist(p, x, y) - p["R"])
    if p["form"] == "log":
        return np.log(gap)
    return 1.0 / gap


def _volcano(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = _dist(p, x, y)
    rim = np.exp(-0.5 * ((r - p["R"]) / p["sigma"]) ** 2)
    crater = p["c"] * np.exp(-0.5 * (r / p["sigma_c"]) ** 2)
    return rim - crater


# -- tiers 4 and 5 ---------------------------------------------------------------------------------------


def _lobes(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # r^m cos(m theta + phi) with (u, v) = (p - centre) / sigma is the real part of (u + iv)^m e^{i phi}
    cx, cy = p["centre"]
    u, v = (x - cx) / p["sigma"], (y - cy) / p["sigma"]
    power = (u + 1j * v) ** int(p["m"])
    phi = p["angle"]
    return (math.cos(phi) * power.real - math.sin(phi) * power.imag) * np.exp(-0.5 * (u * u + v * v))


def _lobes_tensor(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    u, v = (xs - cx) / p["sigma"], (ys - cy) / p["sigma"]
    power = (u[None, :] + 1j * v[:, None]) ** int(p["m"])
    phi = p["angle"]
    envelope = np.multiply.outer(np.exp(-0.5 * v * v), np.exp(-0.5 * u * u))
    return (math.cos(phi) * power.real - math.sin(phi) * power.imag) * envelope


def _hyperboloid(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    q = ((x - cx) / p["a"]) ** 2 + ((y - cy) / p["b"]) ** 2 - 1.0
    return p["c"] * np.sqrt(np.clip(q, 0.0, None))


def _agnesi(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t, a = p["angle"], p["a"]
    u = math.cos(t) * x + math.sin(t) * y - p["c"]
    return 8.0 * a**3 / (u * u + 4.0 * a * a)


_FAMILIES: dict[str, tuple[_Pointwise, _Tensor | None]] = {
    "lattice-of-gaussian-peaks": (_bumps, _bumps_tensor),
    "inverted-lattice-of-valleys": (_bumps, _bumps_tensor),
    "gaussian-mixture": (_bumps, _bumps_tensor),
    "inverted-gaussian-mixture": (_bumps, _bumps_tensor),
    "plane": (_plane, None),
    "elliptic-paraboloid": (_elliptic, None),
    "hyperbolic-paraboloid": (_hyperbolic, None),
    "parabolic-cylinder": (_parabolic_cylinder, None),
    "wave-surface": (_wave, _wave_tensor),
    "circular-ripples": (_ripples, None),
    "gabor-function": (_gabor, None),
    "windowed-waves": (_windowed, _windowed_tensor),
    "crossed-tunnels": (_tunnels, _tunnels_tensor),
    "checkerboard": (_checkerboard, _checkerboard_tensor),
    "cone": (_cone, None),
    "cusp": (_cusp, None),
    "monkey-saddle": (_monkey, None),
    "step-function": (_step, None),
    "sharp-ridge": (_ridge, None),
    "astroidal-bowl": (_astroid, None),
    "logarithmic-singularity": (_log_singularity, None),
    "ring-singularity": (_ring, None),
    "modulated-wave": (_modulated, _modulated_tensor),
    "damped-oscillator": (_damped, None),
    "volcano": (_volcano, None),
    "spiraling-surface": (_spiral, None),
    "mixed-sign-gaussian-mixture": (_bumps, _bumps_tensor),
    "contained-symmetric-lobes": (_lobes, _lobes_tensor),
    "beaded-rings": (_bumps, _bumps_tensor),
    "inverted-beaded-rings": (_bumps, _bumps_tensor),
    "hyperboloid-of-one-sheet": (_hyperboloid, None),
    "extruded-witch-of-agnesi": (_agnesi, None),
}

#: The family names this module evaluates.
KNOWN: frozenset[str] = frozenset(_FAMILIES)


class BadParameters(ValueError):
    """The recorded parameters do not describe a surface of the recorded family."""


def _lookup(name: str) -> tuple[_Pointwise, _Tensor | None]:
    try:
        return _FAMILIES[name]
    except KeyError:
        raise BadParameters(f"the verifier knows no surface family {name!r}") from None


def _checked(name: str, params: Params, compute: Callable[[], np.ndarray]) -> np.ndarray:
    try:
        with np.errstate(all="ignore"):
            return np.asarray(compute(), dtype=float)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise BadParameters(f"the parameters {sorted(params)} do not describe a {name} surface "
                            f"({type(exc).__name__}: {exc})") from None


def at(name: str, params: Params, x: Any, y: Any) -> np.ndarray:
    """f(x, y) of family ``name`` with ``params`` at points of any broadcastable shape (BadParameters if the
    parameters do not fit the family)."""
    pointwise, _ = _lookup(name)
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    shape = np.broadcast_shapes(x.shape, y.shape)
    return _checked(name, params, lambda: pointwise(params, x, y) + np.zeros(shape))


def grid(name: str, params: Params, xs: Any, ys: Any) -> np.ndarray:
    """f on the tensor grid ``xs`` x ``ys``: shape ``(len(ys), len(xs))``, rows = y ascending (BadParameters
    if the parameters do not fit the family)."""
    _, tensor = _lookup(name)
    xs = np.asarray(xs, dtype=float).ravel()
    ys = np.asarray(ys, dtype=float).ravel()
    if tensor is not None:
        return _checked(name, params, lambda: tensor(params, xs, ys))
    if len(xs) * len(ys) <= _ROWS * _ROWS * 16:
        return at(name, params, xs[None, :], ys[:, None])
    # a band of rows at a time: each sample's value is the same, and the temporaries stay small (cached)
    out = np.empty((len(ys), len(xs)))
    for first in range(0, len(ys), _ROWS):
        out[first:first + _ROWS] = at(name, params, xs[None, :], ys[first:first + _ROWS, None])
    return out


#: Rows per band of a large pointwise ``grid`` evaluation.
_ROWS = 40
