"""The MaRVL-QA function library: 32 analytic surface families z = f(x, y) in the paper's five tiers.

The paper (appendix A.1, Table 3) names the families and tiers but gives no formulas or ranges; the
formulas and parameter ranges here are the seed spec's [I] proposals (spec §2.1), with the few gaps and
changes marked "[I]" where they are made.  Each family is vectorised over numpy arrays of any shape, has a
seeded parameter sampler and a fixed domain (default [-5, 5]^2), and says what it may be counted for
(paper Table 5); ridges, rings, plateaus and singular families are kept out of counting (empty ``counts``).

The 12 countable families also have a *targeted* sampler, ``sample_for_count(rng, feature, target)``, that
aims at a given number of maxima or minima (or both) inside the domain; the extremum engine always counts
numerically afterwards (spec §2.3: "always use the numeric count as ground truth").

Sampled parameters are rounded to 4 decimals before use, so the parameters stored with an item rebuild
exactly the function that was drawn.  Families are listed in the order of the paper's Table 3.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

Params = dict[str, Any]

#: The paper's five tiers (appendix A.1).
TIERS = (
    "Foundational & Quadric",
    "Periodic & Wave-like",
    "Singularities, Boundaries & Discontinuities",
    "Composite & Modulated",
    "Advanced & Special",
)
T1, T2, T3, T4, T5 = TIERS
#: What a family can be counted for (paper Table 5); "both" questions use families that count both.
FEATURES = ("maxima", "minima")
DOMAIN = (-5.0, 5.0, -5.0, 5.0)
#: Rows per block of a large grid evaluation (``FunctionFamily.evaluate_grid``, ``_gaussians_grid``): the
#: block's intermediate arrays stay in the processor's cache.
_GRID_BLOCK = 48
#: Smallest and largest answer of a counting question (spec §2.3: ground truth 1..20).
MIN_COUNT, MAX_COUNT = 1, 20
#: Targeted samplers keep extrema this far inside the domain (the 3% border band plus a little clearance,
#: spec §2.3 "Boundary"), in domain units of the default 10-unit-wide domain.
SAFE_MARGIN = 0.45


#: Draws a targeted sampler makes before it gives up on a target (the caller then falls back).
TARGET_TRIES = 200


class TargetUnreachable(ValueError):
    """A targeted sampler found no parameters for its target within ``TARGET_TRIES`` draws."""


def _round(value: Any) -> Any:
    """Round every float of a nested parameter structure to 4 decimals (ints and strings unchanged)."""
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_round(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    return round(float(value), 4)


@attrs.frozen
class FunctionFamily:
    """One surface family: its name (a slug, e.g. ``gaussian-mixture``), paper title, tier, countable
    features, domain, parameter sampler and vectorised evaluator.

    ``sample(rng)`` draws parameters (a JSON-able dict of floats, ints, strings and lists);
    ``evaluate(params, x, y)`` returns f on arrays of any (broadcast) shape.  Countable families also
    have ``sample_for_count`` and ``reachable``.
    """

    name: str
    title: str
    tier: str = attrs.field(validator=attrs.validators.in_(TIERS))
    counts: frozenset[str] = attrs.field(converter=frozenset)
    domain: tuple[float, float, float, float]
    sampler: Callable[[np.random.Generator], Params] = attrs.field(repr=False)
    function: Callable[[Params, np.ndarray, np.ndarray], np.ndarray] = attrs.field(repr=False)
    #: Instances per family in the paper's Table 3 (garbled; spec's reading 20/17/13/12, unknown for the rest).
    instances: int | None = None
    #: Fast exact-per-sample evaluation on a tensor grid (same values as ``evaluate`` up to rounding).
    grid_function: Callable[[Params, np.ndarray, np.ndarray], np.ndarray] | None = attrs.field(default=None, repr=False)
    #: ``(rng, feature, target) -> params`` aiming at ``target`` features of kind feature in the domain.
    targeter: Callable[[np.random.Generator, str, int], Params] | None = attrs.field(default=None, repr=False)
    #: Targets the targeter can reach, per feature ("maxima", "minima", "both").
    reach: dict[str, tuple[int, ...]] = attrs.field(factory=dict, repr=False)

    @counts.validator
    def _known_features(self, attribute: attrs.Attribute, value: frozenset[str]) -> None:
        if not value <= set(FEATURES):
            raise ValueError(f"{self.name}: counts {sorted(value)} must be a subset of {FEATURES}")

    def sample(self, rng: np.random.Generator) -> Params:
        """Seeded parameters from the family's ranges (floats rounded to 4 decimals)."""
        return _round(self.sampler(rng))

    def evaluate(self, params: Params, x: Any, y: Any) -> np.ndarray:
        """f(x, y) for numpy arrays (or scalars) ``x``, ``y`` of any broadcastable shape; always finite."""
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        return np.asarray(self.function(params, x, y), dtype=float)

    def evaluate_grid(self, params: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """f on the tensor grid ``xs`` x ``ys``: an array of shape (len(ys), len(xs)), rows = y ascending.

        Families without a grid route are evaluated sample by sample, a block of ``_GRID_BLOCK`` rows at a
        time on large grids: the same values (every sample goes through the same operations), with the
        intermediate arrays small enough to stay in the processor's cache."""
        xs = np.asarray(xs, dtype=float)
        ys = np.asarray(ys, dtype=float)
        if self.grid_function is not None:
            return np.asarray(self.grid_function(params, xs, ys), dtype=float)
        if len(xs) * len(ys) <= _GRID_BLOCK * _GRID_BLOCK * 16:
            return self.evaluate(params, xs[None, :], ys[:, None])
        out = np.empty((len(ys), len(xs)))
        for b0 in range(0, len(ys), _GRID_BLOCK):
            out[b0:b0 + _GRID_BLOCK] = self.evaluate(params, xs[None, :], ys[b0:b0 + _GRID_BLOCK, None])
        return out

    def features(self, feature: str) -> frozenset[str]:
        """The kinds ("maxima"/"minima") a question about ``feature`` ("maxima", "minima", "both") counts."""
        return frozenset(FEATURES) if feature == "both" else frozenset({feature})

    def countable(self, feature: str) -> bool:
        """Whether the paper certifies this family for ``feature`` ("both" needs maxima and minima)."""
        return bool(self.counts) and self.features(feature) <= self.counts

    def reachable(self, feature: str) -> tuple[int, ...]:
        """The target counts ``sample_for_count`` can aim at for ``feature`` (empty if not countable)."""
        return self.reach.get(feature, ()) if self.countable(feature) else ()

    def sample_for_count(self, rng: np.random.Generator, feature: str, target: int) -> Params:
        """Parameters aiming at ``target`` features of kind ``feature`` inside the domain.

        The engine recounts numerically; overlapping Gaussians may merge or spawn extrema, so the count is
        a target, not a promise.  Raises ValueError if the family cannot be counted for ``feature`` or the
        target is not in ``reachable(feature)``.
        """
        if target not in self.reachable(feature):
            raise ValueError(f"{self.name} cannot aim at {target} {feature}; reachable: {self.reachable(feature)}")
        assert self.targeter is not None
        return _round(self.targeter(rng, feature, target))


# ---------------------------------------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------------------------------------


def _centre(rng: np.random.Generator, spread: float) -> list[float]:
    return [float(rng.uniform(-spread, spread)), float(rng.uniform(-spread, spread))]


def _rotate(p: Params, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates relative to ``p['centre']`` rotated by ``p['angle']`` (x' along the angle)."""
    cx, cy = p.get("centre", (0.0, 0.0))
    c, s = math.cos(p.get("angle", 0.0)), math.sin(p.get("angle", 0.0))
    dx, dy = x - cx, y - cy
    return dx * c + dy * s, -dx * s + dy * c


def _radius(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p.get("centre", (0.0, 0.0))
    return np.hypot(x - cx, y - cy)


def _gaussians(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Sum of isotropic Gaussians ``amplitudes[k] * exp(-|p - centres[k]|^2 / (2 sigmas[k]^2))``."""
    out = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)))
    for (cx, cy), s, a in zip(p["centres"], p["sigmas"], p["amplitudes"], strict=True):
        out += a * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2.0 * s * s))
    return out


def _gaussians_grid(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    # separable: exp(-(dx^2 + dy^2)/2s^2) = exp(-dx^2/2s^2) * exp(-dy^2/2s^2); elementwise outer products
    # (not a BLAS matmul, whose summation order can depend on the thread count and break byte-identity).
    # The same products, added in the same order, as one outer product per component over the whole grid:
    # but block by block of rows (the sum stays in cache), and only over the rows and columns where the
    # component's factors are not exactly 0 (a term that is exactly 0 leaves the sum's bits as they are).
    out = np.zeros((len(ys), len(xs)))
    terms = []
    for (cx, cy), s, a in zip(p["centres"], p["sigmas"], p["amplitudes"], strict=True):
        ex = np.exp(-((xs - cx) ** 2) / (2.0 * s * s))
        ey = a * np.exp(-((ys - cy) ** 2) / (2.0 * s * s))
        cols, rows = np.flatnonzero(ex), np.flatnonzero(ey)
        if cols.size and rows.size:
            c0, c1 = int(cols[0]), int(cols[-1]) + 1
            terms.append((ey, ex[c0:c1], int(rows[0]), int(rows[-1]) + 1, c0, c1))
    buffer = np.empty((_GRID_BLOCK, len(xs)))
    for b0 in range(0, len(ys), _GRID_BLOCK):
        b1 = min(b0 + _GRID_BLOCK, len(ys))
        for ey, ex, r0, r1, c0, c1 in terms:
            lo, hi = max(b0, r0), min(b1, r1)
            if lo < hi:
                term = buffer[: hi - lo, : c1 - c0]
                np.multiply(ey[lo:hi, None], ex[None, :], out=term)
                out[lo:hi, c0:c1] += term
    return out


def _poisson_disk(rng: np.random.Generator, count: int, half: float, gap: float, tries: int = 4000) -> np.ndarray:
    """``count`` points in [-half, half]^2 at least ``gap`` apart (dart throwing; the gap shrinks 5% after
    every ``tries // 8`` misses so that it always terminates)."""
    points: list[tuple[float, float]] = []
    misses = 0
    while len(points) < count:
        candidate = rng.uniform(-half, half, 2)
        if all((candidate[0] - px) ** 2 + (candidate[1] - py) ** 2 >= gap * gap for px, py in points):
            points.append((float(candidate[0]), float(candidate[1])))
            misses = 0
            continue
        misses += 1
        if misses > tries // 8:
            gap *= 0.95
            misses = 0
    return np.array(points).reshape(count, 2)


def _gm_params(rng: np.random.Generator, signs: list[int], half: float = 5.0 - SAFE_MARGIN - 0.25) -> Params:
    """A Gaussian mixture with one component per sign: centres spread by dart throwing with a gap of at
    least 3 sigma_max (spec §2.1 asks 2.5; [I] 3 keeps neighbouring peaks from merging), sigma in
    [0.3, 0.9] (capped by the gap), amplitude in [0.5, 1.5]."""
    count = len(signs)
    gap = min(3.0 * 0.9, 0.85 * math.sqrt((2 * half) ** 2 / count))
    centres = _poisson_disk(rng, count, half, gap)
    sigma_hi = max(0.3, min(0.9, gap / 3.0))
    sigmas = rng.uniform(0.3, sigma_hi, count)
    amplitudes = rng.uniform(0.5, 1.5, count) * np.array(signs, dtype=float)
    return {"centres": centres.tolist(), "sigmas": sigmas.tolist(), "amplitudes": amplitudes.tolist()}


def _negate(p: Params) -> Params:
    return {**p, "amplitudes": [-a for a in p["amplitudes"]]}


def _factor_pairs(target: int, limit: int) -> list[tuple[int, int]]:
    """(a, b) with a * b == target and 1 <= a, b <= limit."""
    return [(a, target // a) for a in range(1, limit + 1) if target % a == 0 and target // a <= limit]


def _products(limit: int) -> tuple[int, ...]:
    return tuple(sorted({a * b for a in range(1, limit + 1) for b in range(1, limit + 1) if a * b <= MAX_COUNT}))


# ---------------------------------------------------------------------------------------------------------
# Tier 1: foundational and quadric surfaces
# ---------------------------------------------------------------------------------------------------------


def _plane_sample(rng: np.random.Generator) -> Params:
    while True:
        a, b = rng.uniform(-2, 2, 2)
        if abs(a) + abs(b) >= 0.5:  # "not both ~ 0": a flat plane shows nothing
            return {"a": a, "b": b, "c": rng.uniform(-1, 1)}


def _plane(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return p["a"] * x + p["b"] * y + p["c"] + 0.0 * (x + y)


def _elliptic_sample(rng: np.random.Generator) -> Params:
    return {"a": rng.uniform(1, 4), "b": rng.uniform(1, 4), "centre": _centre(rng, 1.5),
            "sign": int(rng.choice([-1, 1]))}


def _elliptic(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    return p["sign"] * ((x - cx) ** 2 / p["a"] ** 2 + (y - cy) ** 2 / p["b"] ** 2)


def _hyperbolic_sample(rng: np.random.Generator) -> Params:
    # [I] a centre offset (spec: centred) so that not every instance is R180-symmetric
    return {"a": rng.uniform(1, 4), "b": rng.uniform(1, 4), "angle": rng.uniform(0, math.pi),
            "centre": _centre(rng, 1.5)}


def _hyperbolic(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    u, v = _rotate(p, x, y)
    return u**2 / p["a"] ** 2 - v**2 / p["b"] ** 2


def _parabolic_cylinder_sample(rng: np.random.Generator) -> Params:
    return {"a": rng.uniform(1, 4), "c": rng.uniform(-2, 2), "angle": rng.uniform(0, math.pi)}


def _parabolic_cylinder(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (x * math.cos(p["angle"]) + y * math.sin(p["angle"]) - p["c"]) ** 2 / p["a"] ** 2


# ---------------------------------------------------------------------------------------------------------
# Tier 2: periodic and wave-like surfaces
# ---------------------------------------------------------------------------------------------------------


def _axis_layout(rng: np.random.Generator, count: int, lo: float, hi: float, d_min: float, d_max: float,
                 margin: float = SAFE_MARGIN) -> tuple[float, float] | None:
    """Spacing d and first position p0 of ``count`` evenly spaced extrema lying in [lo + margin, hi - margin]
    with the neighbours on both sides beyond [lo - margin, hi + margin]; None if no spacing in
    [d_min, d_max] allows it."""
    width = hi - lo
    low = (width + 2 * margin) / (count + 1)
    high = (width - 2 * margin) / (count - 1) if count > 1 else math.inf
    low, high = max(low, d_min), min(high, d_max)
    if low >= high:
        return None
    d = float(rng.uniform(low + 1e-3 * (high - low), high))
    first_lo = max(lo + margin, hi + margin - count * d)
    first_hi = min(lo - margin + d, hi - margin - (count - 1) * d)
    if first_lo >= first_hi:
        return None
    return d, float(rng.uniform(first_lo + 0.02 * (first_hi - first_lo), first_hi - 0.02 * (first_hi - first_lo)))


def _product_plan(rng: np.random.Generator, feature: str, target: int, limit: int) -> tuple[int, int, int]:
    """Extrema per axis (nx, ny) and the sign product s of the first extrema for a separable product
    g(x) h(y) whose 1-D extrema alternate in sign: the maxima are the pairs of equal sign.

    nx * ny even: half are maxima.  Both odd: (nx ny + 1)/2 maxima if s = +1, else (nx ny - 1)/2.
    """
    plans: list[tuple[int, int, int]] = []
    for nx in range(1, limit + 1):
        for ny in range(1, limit + 1):
            n = nx * ny
            if feature == "both":
                if n == target:
                    plans.append((nx, ny, int(rng.choice([-1, 1]))))
                continue
            for s in (-1, 1):
                maxima = n // 2 if n % 2 == 0 else (n + 1) // 2 if s == 1 else (n - 1) // 2
                count = maxima if feature == "maxima" else n - maxima
                if count == target:
                    plans.append((nx, ny, s))
    if not plans:
        raise ValueError(f"no separable plan gives {target} {feature}")
    return plans[int(rng.integers(len(plans)))]


def _wave_sample(rng: np.random.Generator) -> Params:
    return {"w1": rng.uniform(0.5, 2.5), "w2": rng.uniform(0.5, 2.5),
            "p1": rng.uniform(0, 2 * math.pi), "p2": rng.uniform(0, 2 * math.pi)}


def _wave(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.sin(p["w1"] * x + p["p1"]) * np.cos(p["w2"] * y + p["p2"])


def _wave_grid(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    return np.cos(p["w2"] * ys + p["p2"])[:, None] * np.sin(p["w1"] * xs + p["p1"])[None, :]


#: Most extrema per axis the wave-like targeters use (spacing >= pi / 2.5, spec's largest frequency).
_AXIS_LIMIT = 7


def _wave_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    """Wave surface with a chosen number of extremum lines per axis, none in the border band: the
    extrema of sin(w1 x + p1) cos(w2 y + p2) sit on a lattice (|sin| = |cos| = 1)."""
    for _ in range(TARGET_TRIES):
        nx, ny, s = _product_plan(rng, feature, target, _AXIS_LIMIT)
        ax = _axis_layout(rng, nx, -5, 5, math.pi / 2.5, math.pi / 0.5)
        ay = _axis_layout(rng, ny, -5, 5, math.pi / 2.5, math.pi / 0.5)
        if ax is None or ay is None:
            continue
        (dx, x0), (dy, y0) = ax, ay
        sx = int(rng.choice([-1, 1]))
        w1, w2 = math.pi / dx, math.pi / dy
        # sin(w1 x0 + p1) = sx and cos(w2 y0 + p2) = sx * s
        p1 = ((math.pi / 2 if sx > 0 else 3 * math.pi / 2) - w1 * x0) % (2 * math.pi)
        p2 = ((0.0 if sx * s > 0 else math.pi) - w2 * y0) % (2 * math.pi)
        return {"w1": w1, "w2": w2, "p1": p1, "p2": p2}
    raise TargetUnreachable(f"wave-surface: no layout gave {target} {feature}")


def _ripples_sample(rng: np.random.Generator) -> Params:
    return {"k": rng.uniform(1.5, 4), "alpha": rng.uniform(0, 0.5), "phase": rng.uniform(0, 2 * math.pi),
            "centre": _centre(rng, 1.5)}


def _ripples(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = _radius(p, x, y)
    return np.cos(p["k"] * r - p["phase"]) / (1 + p["alpha"] * r)


def _gabor_sample(rng: np.random.Generator) -> Params:
    return {"sigma": rng.uniform(1, 2.5), "wavelength": rng.uniform(1.5, 4), "gamma": rng.uniform(0.5, 1),
            "angle": rng.uniform(0, math.pi), "phase": rng.uniform(0, 2 * math.pi), "centre": _centre(rng, 1.0)}


def _gabor(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    u, v = _rotate(p, x, y)
    envelope = np.exp(-(u**2 + (p["gamma"] * v) ** 2) / (2 * p["sigma"] ** 2))
    return envelope * np.cos(2 * math.pi * u / p["wavelength"] + p["phase"])


def _extrema_1d(g: Callable[[np.ndarray], np.ndarray], lo: float, hi: float,
                n: int = 4001) -> list[tuple[float, float]]:
    """Interior local extrema (u, g(u)) of a smooth 1-D function on [lo, hi], to about 1e-4 (parabolic fit)."""
    u = np.linspace(lo, hi, n)
    v = g(u)
    d = np.diff(v)
    found = []
    for i in np.flatnonzero(np.sign(d[:-1]) * np.sign(d[1:]) < 0) + 1:
        a, b, c = v[i - 1], v[i], v[i + 1]
        denom = a - 2 * b + c
        shift = 0.5 * (a - c) / denom if denom != 0 else 0.0
        x = float(u[i] + shift * (u[1] - u[0]))
        found.append((x, float(g(np.array([x]))[0])))
    return found


def _line_chord(centre: tuple[float, float], angle: float,
                box: tuple[float, float, float, float]) -> tuple[float, float]:
    """Parameter range [t0, t1] of the line centre + t (cos a, sin a) inside ``box`` (empty if t0 > t1)."""
    t0, t1 = -math.inf, math.inf
    for c, d, lo, hi in ((centre[0], math.cos(angle), box[0], box[1]), (centre[1], math.sin(angle), box[2], box[3])):
        if abs(d) < 1e-12:
            if not lo <= c <= hi:
                return 1.0, 0.0
            continue
        a, b = (lo - c) / d, (hi - c) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    return t0, t1


#: Smallest |feature| relative to the largest that a targeted sampler keeps (the certifier decides finally).
_VISIBLE = 0.35


def _gabor_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    """Gabor patch whose crests (maxima) and troughs (minima) on the carrier axis are all clearly visible.

    The extrema of f lie on the carrier axis y' = 0 at the stationary points of the 1-D profile
    g(u) = exp(-u^2/2 sigma^2) cos(k u + psi), k = 2 pi / lambda, i.e. where
    h(u) = k u + arctan(u / (k sigma^2)) equals m pi - psi, with sign (-1)^m.  h is increasing and does not
    depend on psi, so a scan over psi places the lattice m pi - psi exactly: none in the border band, the
    wanted number inside.  The profile never stops oscillating, so the envelope must cover the whole chord
    ([I] sigma in [2, 5], lambda in [1.5, 5]) and every extremum inside must keep at least ``_VISIBLE`` of
    the strongest.  Across the carrier the envelope must be narrow ([I] aspect gamma in [1.5, 3], spec
    [0.5, 1]): with a wide one every crest is a long ridge running off the plot, with no distinct top.
    """
    inner = (-5 + SAFE_MARGIN, 5 - SAFE_MARGIN, -5 + SAFE_MARGIN, 5 - SAFE_MARGIN)
    outer = (-5 - SAFE_MARGIN, 5 + SAFE_MARGIN, -5 - SAFE_MARGIN, 5 + SAFE_MARGIN)
    psis = np.linspace(0, 2 * math.pi, 720, endpoint=False)
    for _ in range(TARGET_TRIES):
        p = {"sigma": rng.uniform(2.0, 5.0), "gamma": rng.uniform(1.5, 3.0), "angle": rng.uniform(0, math.pi),
             "centre": _centre(rng, 1.0)}
        t0, t1 = _line_chord(p["centre"], p["angle"], outer)
        i0, i1 = _line_chord(p["centre"], p["angle"], inner)
        if not t0 < i0 < i1 < t1:
            continue
        # extrema come every half wavelength: aim the wavelength at the wanted number on the chord
        wanted = target if feature == "both" else 2 * target + int(rng.integers(-1, 2))
        wavelength = 2 * (i1 - i0 + rng.uniform(0, t1 - t0 - (i1 - i0))) / (wanted + rng.uniform(-0.5, 0.5))
        if not 1.5 <= wavelength <= 5.0:
            continue
        p = _round({**p, "wavelength": wavelength})
        k, sigma = 2 * math.pi / p["wavelength"], p["sigma"]
        u = np.linspace(t0 - 1, t1 + 1, 4001)
        h = k * u + np.arctan(u / (k * sigma**2))
        ms = np.arange(math.floor((h[0]) / math.pi), math.ceil((h[-1] + 2 * math.pi) / math.pi) + 1)
        q = ms[None, :] * math.pi - psis[:, None]  # (psi, m)
        where = np.interp(q, h, u, left=-np.inf, right=np.inf)
        band = ((where >= t0) & (where < i0)) | ((where > i1) & (where <= t1))
        inside = (where >= i0) & (where <= i1)
        amplitude = np.where(inside, np.exp(-(where**2) / (2 * sigma**2)) / np.sqrt(1 + (where / (k * sigma**2)) ** 2),
                             0.0)
        strongest = amplitude.max(axis=1)
        faint = (inside & (amplitude < _VISIBLE * strongest[:, None])).any(axis=1)
        even = (ms % 2 == 0)[None, :]
        maxima = (inside & even).sum(axis=1)
        total = inside.sum(axis=1)
        count = {"maxima": maxima, "minima": total - maxima, "both": total}[feature]
        good = np.flatnonzero(~band.any(axis=1) & ~faint & (count == target) & (total > 0))
        if good.size:
            return {**p, "phase": float(psis[good[int(rng.integers(good.size))]])}
    raise TargetUnreachable(f"gabor-function: no draw gave {target} {feature}")


def _windowed_sample(rng: np.random.Generator) -> Params:
    # [I] phases p1, p2 (spec: none) so that the per-axis extremum counts are not forced to be even
    return {"s": rng.uniform(2, 4), "w1": rng.uniform(0.8, 2.5), "w2": rng.uniform(0.8, 2.5),
            "p1": rng.uniform(0, 2 * math.pi), "p2": rng.uniform(0, 2 * math.pi)}


def _windowed(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    window = np.exp(-(x**2 + y**2) / (2 * p["s"] ** 2))
    return window * np.sin(p["w1"] * x + p["p1"]) * np.sin(p["w2"] * y + p["p2"])


def _windowed_grid(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    gx = np.exp(-(xs**2) / (2 * p["s"] ** 2)) * np.sin(p["w1"] * xs + p["p1"])
    gy = np.exp(-(ys**2) / (2 * p["s"] ** 2)) * np.sin(p["w2"] * ys + p["p2"])
    return gy[:, None] * gx[None, :]


def _windowed_axis(rng: np.random.Generator, count: int, s: float) -> tuple[float, float, int] | None:
    """Frequency, phase and first sign of one axis of the windowed waves with exactly ``count`` visible
    1-D extrema inside the domain and none near its edges; None if this draw fails."""
    layout = _axis_layout(rng, count, -5, 5, math.pi / 2.5, math.pi / 0.8)
    if layout is None:
        return None
    d, first = layout
    sign = int(rng.choice([-1, 1]))
    w = math.pi / d
    phase = round(((math.pi / 2 if sign > 0 else 3 * math.pi / 2) - w * first) % (2 * math.pi), 4)
    w = round(w, 4)

    def g(u: np.ndarray) -> np.ndarray:
        return np.exp(-(u**2) / (2 * s * s)) * np.sin(w * u + phase)

    found = _extrema_1d(g, -5 - SAFE_MARGIN - 0.5, 5 + SAFE_MARGIN + 0.5)
    inside = [(u, v) for u, v in found if abs(u) <= 5 - SAFE_MARGIN]
    near = [u for u, _ in found if 5 - SAFE_MARGIN < abs(u) <= 5 + SAFE_MARGIN]
    if near or len(inside) != count:
        return None
    peak = max(abs(v) for _, v in inside)
    # the product of two axes' weakest features must stay visible, so each axis keeps sqrt(_VISIBLE)
    if min(abs(v) for _, v in inside) < math.sqrt(_VISIBLE) * peak:
        return None
    first_sign = 1 if inside[0][1] > 0 else -1
    return w, phase, first_sign


def _windowed_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    """Windowed waves as a separable product g(x) h(y) of windowed sines; each axis gets a chosen number
    of 1-D extrema.  [I] window width s in [3.5, 6] so that the outermost extrema stay visible."""
    for _ in range(TARGET_TRIES):
        nx, ny, s_prod = _product_plan(rng, feature, target, _AXIS_LIMIT)
        s = round(float(rng.uniform(3.5, 6.0)), 4)
        ax = _windowed_axis(rng, nx, s)
        ay = _windowed_axis(rng, ny, s)
        if ax is None or ay is None or ax[2] * ay[2] != s_prod:
            continue
        return {"s": s, "w1": ax[0], "w2": ay[0], "p1": ax[1], "p2": ay[1]}
    raise TargetUnreachable(f"windowed-waves: no layout gave {target} {feature}")


def _tunnels_sample(rng: np.random.Generator) -> Params:
    return _tunnels_layout(rng, int(rng.integers(1, 5)), int(rng.integers(1, 5)))


def _tunnels_layout(rng: np.random.Generator, nx: int, ny: int) -> Params:
    """Troughs at x = a_i (nx) and y = b_j (ny), width w in [0.3, 0.7], spacing >= 4 w (spec §2.1)."""
    w = float(rng.uniform(0.3, 0.7))

    def positions(n: int) -> list[float]:
        if n == 1:
            return [float(rng.uniform(-2.5, 2.5))]
        half = float(rng.uniform(2.8, 4.0))
        base = np.linspace(-half, half, n)
        spacing = 2 * half / (n - 1)
        jitter = rng.uniform(-0.1, 0.1, n) * spacing
        return (base + jitter).tolist()

    a, b = positions(nx), positions(ny)
    gaps = [v - u for s in (a, b) for u, v in zip(sorted(s)[:-1], sorted(s)[1:], strict=True)]
    if gaps:
        w = min(w, min(gaps) / 4.0)
    return {"w": w, "a": a, "b": b}


def _tunnels(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # [I] 1 - ... (spec: -...): the crossings (the minima, -1) lie below zero and the tops between the
    # troughs (+0.7..1) above it, so black-only contours (dashed below zero) tell valleys from tops
    w2 = 2 * p["w"] ** 2
    out = np.ones(np.broadcast_shapes(np.shape(x), np.shape(y)))
    for a in p["a"]:
        out -= np.exp(-((x - a) ** 2) / w2)
    for b in p["b"]:
        out -= np.exp(-((y - b) ** 2) / w2)
    return out


def _tunnels_grid(p: Params, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    w2 = 2 * p["w"] ** 2
    gx = -sum((np.exp(-((xs - a) ** 2) / w2) for a in p["a"]), np.zeros_like(xs))
    gy = -sum((np.exp(-((ys - b) ** 2) / w2) for b in p["b"]), np.zeros_like(ys))
    return (gy[:, None] + gx[None, :]) + 1.0


#: [I] up to 5 troughs per axis (spec: 4) so that the 16-20 count bin is reachable (20 = 4 x 5).
_TUNNEL_LIMIT = 5


def _tunnels_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    nx, ny = _factor_pairs(target, _TUNNEL_LIMIT)[int(rng.integers(len(_factor_pairs(target, _TUNNEL_LIMIT))))]
    return _tunnels_layout(rng, nx, ny)


def _checkerboard_sample(rng: np.random.Generator) -> Params:
    return {"k": rng.uniform(0.8, 2), "beta": rng.uniform(3, 20), "px": rng.uniform(0, 2 * math.pi),
            "py": rng.uniform(0, 2 * math.pi)}


def _checkerboard(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.tanh(p["beta"] * np.sin(p["k"] * x + p["px"]) * np.sin(p["k"] * y + p["py"]))


def _modulated_sample(rng: np.random.Generator) -> Params:
    return {"w1": rng.uniform(0.5, 2.5), "w2": rng.uniform(0.5, 2.5), "m": rng.uniform(0.3, 0.9)}


def _modulated(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.sin(p["w1"] * x) * (1 + p["m"] * np.cos(p["w2"] * y))


def _damped_sample(rng: np.random.Generator) -> Params:
    return {"lam": rng.uniform(0.1, 0.5), "k": rng.uniform(1.5, 4), "centre": _centre(rng, 1.5)}


def _damped(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = _radius(p, x, y)
    return np.exp(-p["lam"] * r) * np.cos(p["k"] * r)


def _spiral_sample(rng: np.random.Generator) -> Params:
    return {"k": rng.uniform(1, 3), "m": int(rng.integers(1, 4)), "centre": _centre(rng, 1.0)}


def _spiral(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    r = np.hypot(x - cx, y - cy)
    theta = np.arctan2(y - cy, x - cx)
    return np.sin(p["k"] * r + p["m"] * theta)


# ---------------------------------------------------------------------------------------------------------
# Tier 3: singularities, boundaries and discontinuities
# ---------------------------------------------------------------------------------------------------------


def _cone_sample(rng: np.random.Generator) -> Params:
    return {"h": rng.uniform(0, 1), "s": rng.uniform(0.5, 2), "centre": _centre(rng, 2.0)}


def _cone(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return p["h"] - p["s"] * _radius(p, x, y)


def _cusp_sample(rng: np.random.Generator) -> Params:
    return {"form": str(rng.choice(["radial", "axial"])), "sign": int(rng.choice([-1, 1])),
            "centre": _centre(rng, 1.5)}


def _cusp(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    dx, dy = x - cx, y - cy
    if p["form"] == "radial":
        return p["sign"] * np.cbrt(dx**2 + dy**2)
    return p["sign"] * (np.cbrt(dx**2) + np.cbrt(dy**2))


def _monkey_sample(rng: np.random.Generator) -> Params:
    return {"scale": rng.uniform(0.02, 0.1), "angle": rng.uniform(0, 2 * math.pi), "centre": _centre(rng, 1.0)}


def _monkey(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    u, v = _rotate(p, x, y)
    return p["scale"] * (u**3 - 3 * u * v**2)


def _step_sample(rng: np.random.Generator) -> Params:
    n = int(rng.integers(1, 4))
    return {"angles": rng.uniform(0, 2 * math.pi, n).tolist(), "offsets": rng.uniform(-3, 3, n).tolist(),
            "heights": (rng.uniform(0.5, 1.5, n) * rng.choice([-1, 1], n)).tolist(),
            "beta": rng.uniform(20, 40)}


def _step(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)))
    for a, c, h in zip(p["angles"], p["offsets"], p["heights"], strict=True):
        # a smoothed Heaviside step, tanh(beta .) with beta >= 20 (spec §2.1)
        out += h * 0.5 * (1 + np.tanh(p["beta"] * (x * math.cos(a) + y * math.sin(a) - c)))
    return out


def _ridge_sample(rng: np.random.Generator) -> Params:
    return {"s": rng.uniform(0.5, 2), "angle": rng.uniform(0, math.pi), "c": rng.uniform(-2, 2),
            "tilt": rng.uniform(-0.3, 0.3)}


def _ridge(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    a = p["angle"]
    across = x * math.cos(a) + y * math.sin(a) - p["c"]
    along = -x * math.sin(a) + y * math.cos(a)
    return -p["s"] * np.abs(across) + p["tilt"] * along


def _astroid_sample(rng: np.random.Generator) -> Params:
    return {"a": rng.uniform(1, 3), "b": rng.uniform(1, 3), "centre": _centre(rng, 1.0)}


def _astroid(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    return (np.cbrt(((x - cx) / p["a"]) ** 2) + np.cbrt(((y - cy) / p["b"]) ** 2)) ** 1.5


def _log_sample(rng: np.random.Generator) -> Params:
    return {"eps": float(10 ** rng.uniform(-3, -1)), "centre": _centre(rng, 2.0)}


def _log(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.log(_radius(p, x, y) ** 2 + p["eps"])


def _ring_sample(rng: np.random.Generator) -> Params:
    return {"R": rng.uniform(1.5, 3.5), "eps": rng.uniform(0.01, 0.1), "form": str(rng.choice(["log", "inverse"])),
            "centre": _centre(rng, 1.0)}


def _ring(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    gap = np.abs(_radius(p, x, y) - p["R"]) + p["eps"]
    return np.log(gap) if p["form"] == "log" else 1.0 / gap


def _volcano_sample(rng: np.random.Generator) -> Params:
    radius = rng.uniform(1, 3)
    return {"R": radius, "sigma": rng.uniform(0.4, 1), "c": rng.uniform(0.3, 1),
            "sigma_c": radius * rng.uniform(0.3, 0.8), "centre": _centre(rng, 1.0)}


def _volcano(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r = _radius(p, x, y)
    rim = np.exp(-((r - p["R"]) ** 2) / (2 * p["sigma"] ** 2))
    return rim - p["c"] * np.exp(-(r**2) / (2 * p["sigma_c"] ** 2))


# ---------------------------------------------------------------------------------------------------------
# Tier 4: composite and modulated surfaces
# ---------------------------------------------------------------------------------------------------------


def _gm_sample(rng: np.random.Generator) -> Params:
    return _gm_params(rng, [1] * int(rng.integers(1, 21)))


def _gm_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    return _gm_params(rng, [1] * target)


def _igm_sample(rng: np.random.Generator) -> Params:
    return _negate(_gm_sample(rng))


def _igm_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    return _negate(_gm_params(rng, [1] * target))


def _mixed_signs(rng: np.random.Generator, positive: int, negative: int) -> list[int]:
    signs = [1] * positive + [-1] * negative
    return [signs[int(k)] for k in rng.permutation(len(signs))]


def _mixed_sample(rng: np.random.Generator) -> Params:
    return _gm_params(rng, _mixed_signs(rng, int(rng.integers(1, 11)), int(rng.integers(1, 11))))


def _mixed_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    if feature == "both":
        positive = int(rng.integers(max(1, target - 10), min(10, target - 1) + 1))
        negative = target - positive
    else:
        other = int(rng.integers(1, max(2, min(10, 21 - target) // 2 + 1)))
        positive, negative = (target, other) if feature == "maxima" else (other, target)
    return _gm_params(rng, _mixed_signs(rng, positive, negative))


#: Lattice and tunnel counts are products nx * ny with nx, ny <= 5 (spec §2.1).
_LATTICE_LIMIT = 5


def _lattice_layout(rng: np.random.Generator, nx: int, ny: int) -> Params:
    """Gaussians at the cell centres of an nx x ny lattice with jitter <= 0.1 spacing, sigma = 0.22 x the
    smaller spacing and amplitude 1 +- 20% (spec §2.1)."""
    half = float(rng.uniform(3.9, 4.7))
    sx, sy = 2 * half / nx, 2 * half / ny
    xs = -half + sx * (np.arange(nx) + 0.5)
    ys = -half + sy * (np.arange(ny) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    jitter = rng.uniform(-0.1, 0.1, (2, ny, nx))
    centres = np.stack([gx + jitter[0] * sx, gy + jitter[1] * sy], axis=-1).reshape(-1, 2)
    sigma = 0.22 * min(sx, sy)
    count = nx * ny
    return {"centres": centres.tolist(), "sigmas": [sigma] * count,
            "amplitudes": rng.uniform(0.8, 1.2, count).tolist()}


def _lattice_sample(rng: np.random.Generator) -> Params:
    return _lattice_layout(rng, int(rng.integers(1, 6)), int(rng.integers(1, 6)))


def _lattice_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    pairs = _factor_pairs(target, _LATTICE_LIMIT)
    nx, ny = pairs[int(rng.integers(len(pairs)))]
    return _lattice_layout(rng, nx, ny)


def _ilattice_sample(rng: np.random.Generator) -> Params:
    return _negate(_lattice_sample(rng))


def _ilattice_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    return _negate(_lattice_target(rng, feature, target))


def _lobes_sample(rng: np.random.Generator) -> Params:
    return _lobes_layout(rng, int(rng.integers(1, 9)))


def _lobes_layout(rng: np.random.Generator, m: int) -> Params:
    """m lobes: the maxima and minima sit on the circle r* = sigma sqrt(m) around the centre."""
    radius = float(rng.uniform(1.8, 3.6))
    return {"m": m, "sigma": radius / math.sqrt(m), "angle": rng.uniform(0, 2 * math.pi), "centre": _centre(rng, 0.5)}


def _lobes(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    cx, cy = p["centre"]
    u = (x - cx) / p["sigma"]
    v = (y - cy) / p["sigma"]
    # (r/sigma)^m cos(m theta + phi) is the real part of (u + iv)^m e^{i phi}
    w = (u + 1j * v) ** p["m"] * complex(math.cos(p["angle"]), math.sin(p["angle"]))
    return w.real * np.exp(-(u**2 + v**2) / 2)


def _lobes_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    return _lobes_layout(rng, target // 2 if feature == "both" else target)


def _beads_layout(rng: np.random.Generator, beads: list[int]) -> Params:
    """Concentric rings (1 or 2) of equal Gaussian beads; chord between beads and ring gap >= 3 sigma."""
    beads = sorted(beads)
    if len(beads) == 1:
        radii = [float(rng.uniform(1.8, 4.0))]
    else:
        # the inner ring holds fewer beads; its radius keeps its chord near the outer ring's
        outer = float(rng.uniform(3.4, 4.2))
        inner = float(rng.uniform(max(1.0, 0.45 * outer), outer - 1.4))
        radii = [inner, outer]
    chords = [2 * r * math.sin(math.pi / m) for r, m in zip(radii, beads, strict=True)]
    limit = min(chords + ([radii[1] - radii[0]] if len(radii) == 2 else []))
    sigma = float(min(0.7, limit / 3.0) * rng.uniform(0.75, 1.0))
    centre = _centre(rng, 0.3)
    centres = []
    for r, m in zip(radii, beads, strict=True):
        phase = rng.uniform(0, 2 * math.pi)
        for k in range(m):
            t = phase + 2 * math.pi * k / m
            centres.append([centre[0] + r * math.cos(t), centre[1] + r * math.sin(t)])
    count = len(centres)
    return {"centres": centres, "sigmas": [sigma] * count, "amplitudes": [1.0] * count}


def _beads_sample(rng: np.random.Generator) -> Params:
    return _beads_layout(rng, [int(rng.integers(3, 13)) for _ in range(int(rng.integers(1, 3)))])


def _beads_split(rng: np.random.Generator, target: int) -> list[int]:
    if target <= 12 and (target < 6 or rng.random() < 0.6):
        return [target]
    inner = int(rng.integers(max(3, target - 12), min(12, target - 3) + 1))
    return [inner, target - inner]


def _beads_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    return _beads_layout(rng, _beads_split(rng, target))


def _ibeads_sample(rng: np.random.Generator) -> Params:
    return _negate(_beads_sample(rng))


def _ibeads_target(rng: np.random.Generator, feature: str, target: int) -> Params:
    return _negate(_beads_target(rng, feature, target))


# ---------------------------------------------------------------------------------------------------------
# Tier 5: advanced and special surfaces
# ---------------------------------------------------------------------------------------------------------


def _hyperboloid_sample(rng: np.random.Generator) -> Params:
    return {"a": rng.uniform(1, 3), "b": rng.uniform(1, 3), "c": rng.uniform(0.5, 2), "centre": _centre(rng, 1.0)}


def _hyperboloid(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # upper sheet as a height field; the throat (inside the ellipse) is the flat 0 region (spec §2.1)
    cx, cy = p["centre"]
    q = ((x - cx) / p["a"]) ** 2 + ((y - cy) / p["b"]) ** 2 - 1
    return p["c"] * np.sqrt(np.maximum(q, 0.0))


def _agnesi_sample(rng: np.random.Generator) -> Params:
    return {"a": rng.uniform(0.5, 2), "angle": rng.uniform(0, math.pi), "c": rng.uniform(-2, 2)}


def _agnesi(p: Params, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    u = x * math.cos(p["angle"]) + y * math.sin(p["angle"]) - p["c"]
    return 8 * p["a"] ** 3 / (u**2 + 4 * p["a"] ** 2)


# ---------------------------------------------------------------------------------------------------------
# The registry, in the order of the paper's Table 3
# ---------------------------------------------------------------------------------------------------------

_ALL = tuple(range(MIN_COUNT, MAX_COUNT + 1))
_PRODUCTS = _products(_LATTICE_LIMIT)


def _separable_reach(limit: int, both_limit: int = MAX_COUNT) -> dict[str, tuple[int, ...]]:
    both = tuple(n for n in _products(limit) if n <= both_limit)
    single = tuple(t for t in _ALL if any((a * b) in (2 * t - 1, 2 * t, 2 * t + 1)
                                          for a in range(1, limit + 1) for b in range(1, limit + 1)))
    return {"maxima": single, "minima": single, "both": both}


def _fam(name: str, title: str, tier: str, counts: set[str], sampler: Callable, function: Callable, **extra: Any
         ) -> FunctionFamily:
    return FunctionFamily(name=name, title=title, tier=tier, counts=frozenset(counts), domain=DOMAIN,
                          sampler=sampler, function=function, **extra)


_GM_GRID = {"grid_function": _gaussians_grid}
#: Windowed waves need >= 2 extrema per axis (the spec's lowest frequency, 0.8, leaves no room for one).
_WINDOWED_SINGLE = (*range(3, 16), 17, 18)
_WINDOWED_BOTH = (6, 8, 9, 10, 12, 14, 15, 16, 18, 20)

FAMILIES: dict[str, FunctionFamily] = {
    f.name: f
    for f in (
        _fam("lattice-of-gaussian-peaks", "Lattice of Gaussian Peaks", T4, {"maxima"}, _lattice_sample, _gaussians,
             instances=20, targeter=_lattice_target, reach={"maxima": _PRODUCTS}, **_GM_GRID),
        _fam("inverted-lattice-of-valleys", "Inverted Lattice of Valleys", T4, {"minima"}, _ilattice_sample,
             _gaussians, instances=20, targeter=_ilattice_target, reach={"minima": _PRODUCTS}, **_GM_GRID),
        _fam("gaussian-mixture", "Gaussian Mixture", T4, {"maxima"}, _gm_sample, _gaussians, instances=17,
             targeter=_gm_target, reach={"maxima": _ALL}, **_GM_GRID),
        _fam("inverted-gaussian-mixture", "Inverted Gaussian Mixture", T4, {"minima"}, _igm_sample, _gaussians,
             instances=17, targeter=_igm_target, reach={"minima": _ALL}, **_GM_GRID),
        _fam("plane", "Plane", T1, set(), _plane_sample, _plane, instances=13),
        _fam("elliptic-paraboloid", "Elliptic Paraboloid", T1, set(), _elliptic_sample, _elliptic, instances=13),
        _fam("hyperbolic-paraboloid", "Hyperbolic Paraboloid", T1, set(), _hyperbolic_sample, _hyperbolic,
             instances=13),
        _fam("parabolic-cylinder", "Parabolic Cylinder", T1, set(), _parabolic_cylinder_sample, _parabolic_cylinder,
             instances=13),
        _fam("wave-surface", "Wave Surface", T2, {"maxima", "minima"}, _wave_sample, _wave, instances=12,
             grid_function=_wave_grid, targeter=_wave_target, reach=_separable_reach(_AXIS_LIMIT)),
        _fam("circular-ripples", "Circular Ripples", T2, set(), _ripples_sample, _ripples, instances=12),
        _fam("gabor-function", "Gabor Function", T2, {"maxima", "minima"}, _gabor_sample, _gabor, instances=12,
             targeter=_gabor_target, reach={"maxima": tuple(range(2, 6)), "minima": tuple(range(2, 6)),
                                            "both": tuple(range(4, 11))}),
        _fam("windowed-waves", "Windowed Waves", T2, {"maxima", "minima"}, _windowed_sample, _windowed,
             instances=12, grid_function=_windowed_grid, targeter=_windowed_target,
             reach={"maxima": _WINDOWED_SINGLE, "minima": _WINDOWED_SINGLE, "both": _WINDOWED_BOTH}),
        _fam("crossed-tunnels", "Crossed Tunnels", T2, {"minima"}, _tunnels_sample, _tunnels, instances=12,
             grid_function=_tunnels_grid, targeter=_tunnels_target, reach={"minima": _products(_TUNNEL_LIMIT)}),
        _fam("checkerboard", "Checkerboard", T2, set(), _checkerboard_sample, _checkerboard),
        _fam("cone", "Cone", T3, set(), _cone_sample, _cone),
        _fam("cusp", "Cusp", T3, set(), _cusp_sample, _cusp),
        _fam("monkey-saddle", "Monkey Saddle", T3, set(), _monkey_sample, _monkey),
        _fam("step-function", "Step Function", T3, set(), _step_sample, _step),
        _fam("sharp-ridge", "Sharp Ridge", T3, set(), _ridge_sample, _ridge),
        _fam("astroidal-bowl", "Astroidal Bowl", T3, set(), _astroid_sample, _astroid),
        _fam("logarithmic-singularity", "Logarithmic Singularity", T3, set(), _log_sample, _log),
        _fam("ring-singularity", "Ring Singularity", T3, set(), _ring_sample, _ring),
        _fam("modulated-wave", "Modulated Wave", T2, set(), _modulated_sample, _modulated),
        _fam("damped-oscillator", "Damped Oscillator", T2, set(), _damped_sample, _damped),
        _fam("volcano", "Volcano", T3, set(), _volcano_sample, _volcano),
        _fam("spiraling-surface", "Spiraling Surface", T2, set(), _spiral_sample, _spiral),
        _fam("mixed-sign-gaussian-mixture", "Mixed-Sign Gaussian Mixture", T4, {"maxima", "minima"}, _mixed_sample,
             _gaussians, targeter=_mixed_target,
             reach={"maxima": tuple(range(1, 11)), "minima": tuple(range(1, 11)), "both": tuple(range(2, 21))},
             **_GM_GRID),
        _fam("contained-symmetric-lobes", "Contained Symmetric Lobes", T4, {"maxima", "minima"}, _lobes_sample,
             _lobes, targeter=_lobes_target,
             reach={"maxima": tuple(range(1, 9)), "minima": tuple(range(1, 9)), "both": tuple(range(2, 17, 2))}),
        _fam("beaded-rings", "Beaded Rings", T4, {"maxima"}, _beads_sample, _gaussians, targeter=_beads_target,
             reach={"maxima": tuple(range(3, 21))}, **_GM_GRID),
        _fam("inverted-beaded-rings", "Inverted Beaded Rings", T4, {"minima"}, _ibeads_sample, _gaussians,
             targeter=_ibeads_target, reach={"minima": tuple(range(3, 21))}, **_GM_GRID),
        _fam("hyperboloid-of-one-sheet", "Hyperboloid of One Sheet", T5, set(), _hyperboloid_sample, _hyperboloid),
        _fam("extruded-witch-of-agnesi", "Extruded Witch of Agnesi", T5, set(), _agnesi_sample, _agnesi),
    )
}

#: The 12 families of the paper's Table 5, in registry order.
COUNTABLE: tuple[str, ...] = tuple(name for name, f in FAMILIES.items() if f.counts)


def family(name: str) -> FunctionFamily:
    """The family called ``name`` (its slug, e.g. ``gaussian-mixture``, or its title, any case)."""
    key = name.strip().lower().replace(" ", "-")
    if key in FAMILIES:
        return FAMILIES[key]
    for f in FAMILIES.values():
        if f.title.lower() == name.strip().lower():
            return f
    raise KeyError(f"unknown function family {name!r}; known: {', '.join(FAMILIES)}")
