"""Cell-targeted backbone generator for TraversalBench.

A backbone is an unlabelled polyline that lands in a requested (tortuosity bin, crossing bin) cell at a
given vertex count and passes every render-aware gate of a :class:`~.geometry.GateProfile`.

How it is fast enough: proposers draw a whole batch of candidate polylines at once as a (B, N, 2) array;
the batch is fitted to the view and screened with broadcast numpy (tortuosity, crossing count, segment
length, hairpins, vertex gaps, clearances), and only the few survivors go through the full
:func:`~.geometry.check_gates`. Which proposer family, and which knob ranges, to use for each cell comes
from a per-cell recipe table (``backbone_recipes.json``) tuned offline by
``benchmarks/backbone_cells.py --tune``. Knob values are drawn at random per candidate inside the tuned
ranges, so a cell is not filled with one repeated shape.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from importlib import resources

import attrs
import numpy as np

from .cells import POPULATED_CELLS, crossing_range, tortuosity_range
from .geometry import (
    STRICT,
    Crossing,
    GateProfile,
    _nonadjacent_pairs,
    _orient,
    _turn_angles,
    batch_fit_to_view,
    check_gates,
    find_crossings,
    point_segment_distance,
    tortuosity,
)

__all__ = [
    "FAMILIES",
    "UNREACHABLE_STRICT",
    "Backbone",
    "CellUnreachable",
    "generate_backbone",
    "load_recipes",
    "propose",
    "screen_batch",
]

_PX_TOL = 1e-6


def _short_points(p: np.ndarray) -> str:
    return f"<{len(p)} points>"


def _short_crossings(c: list) -> str:
    return f"<{len(c)} crossings>"


@attrs.frozen
class Backbone:
    """An accepted backbone: fitted view-pixel ``points`` (N, 2) plus how it was made and its metrics."""

    points: np.ndarray = attrs.field(eq=False, repr=_short_points)
    family: str
    attempts: int
    tortuosity: float
    crossings: list[Crossing] = attrs.field(eq=False, repr=_short_crossings)


class CellUnreachable(RuntimeError):
    """No backbone for the requested cell was found within the proposal budget."""

    def __init__(self, vertices: int, tort_bin: int, cross_bin: int, attempts: int):
        self.vertices, self.tort_bin, self.cross_bin, self.attempts = vertices, tort_bin, cross_bin, attempts
        super().__init__(
            f"cell (vertices={vertices}, tort_bin={tort_bin}, cross_bin={cross_bin}) not reached after "
            f"{attempts} proposals; try the PAPER gate profile or another cell"
        )


# --------------------------------------------------------------------------------------------------------
# proposer families: (rng, batch, vertices, knobs) -> (B, N, 2) in arbitrary units (fitted afterwards)
#
# Every knob is a (lo, hi) range; each candidate draws its own value uniformly inside it.


def _u(rng: np.random.Generator, rng_pair, size) -> np.ndarray:
    lo, hi = rng_pair
    return rng.uniform(lo, hi, size) if hi > lo else np.full(size, float(lo))


def _walk(rng, b, n, k):
    """Heading-persistent random walk: turn = curl (signed per candidate) + N(0, turn_sd).

    ``grow`` stretches the steps geometrically along the path (spirals out / in without self-contact).
    """
    sd = _u(rng, k.get("turn_sd", (0.3, 0.3)), (b, 1))
    curl = _u(rng, k.get("curl", (0.0, 0.0)), (b, 1)) * rng.choice((-1.0, 1.0), (b, 1))
    turns = curl + sd * rng.standard_normal((b, n - 2))
    heading = np.cumsum(np.concatenate([rng.uniform(0, 2 * np.pi, (b, 1)), turns], axis=1), axis=1)
    grow = _u(rng, k.get("grow", (0.0, 0.0)), (b, 1))
    steps = rng.uniform(1.0, 1.6, (b, n - 1)) * np.exp(grow * np.linspace(-1.0, 1.0, n - 1)[None])
    return _integrate(heading, steps)


def _integrate(heading: np.ndarray, steps: np.ndarray) -> np.ndarray:
    d = np.stack([np.cos(heading) * steps, np.sin(heading) * steps], axis=-1)
    out = np.zeros((heading.shape[0], heading.shape[1] + 1, 2))
    np.cumsum(d, axis=1, out=out[:, 1:])
    return out


def _weave(rng, b, n, k):
    """Rail weave: stations spread along a baseline, visited in a locally shuffled order.

    ``disp`` is how far (in stations) the visiting order may run ahead, which sets the number of
    back-and-forth passes and thus crossings at low tortuosity; ``amp`` is the sideways amplitude.
    ``alt`` is the probability that the sideways offsets alternate in sign (zig-zag) instead of being free.
    """
    idx = np.arange(n, dtype=np.float64)[None]
    x = idx + rng.uniform(-0.25, 0.25, (b, n))
    disp = _u(rng, k.get("disp", (0.0, 0.0)), (b, 1))
    order = np.argsort(idx + disp * rng.uniform(0.0, 1.0, (b, n)), axis=1)
    xs = np.take_along_axis(x, order, axis=1)
    amp = _u(rng, k.get("amp", (0.5, 0.5)), (b, 1))
    free = rng.uniform(-1.0, 1.0, (b, n))
    zig = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)[None] * rng.uniform(0.3, 1.0, (b, n))
    alt = rng.uniform(0, 1, (b, 1)) < k.get("alt", 0.5)
    ys = amp * np.where(alt, zig, free)
    return np.stack([xs, ys], axis=-1)


def _star(rng, b, n, k):
    """Star / rotation path: vertex s sits at angle 2*pi*q*s on a (jittered, optionally shrinking) circle.

    q near k/n gives star-polygon-like paths with many crossings; (n - 1) * q < 1 gives open arcs
    (high tortuosity, no crossings); ``shrink`` turns the circle into a spiral.
    """
    q = _u(rng, k.get("q", (0.3, 0.45)), (b, 1))
    s = np.arange(n, dtype=np.float64)[None]
    ang = 2.0 * np.pi * q * s + _u(rng, k.get("ang_jit", (0.05, 0.05)), (b, 1)) * rng.standard_normal((b, n))
    shrink = _u(rng, k.get("shrink", (0.0, 0.0)), (b, 1))
    rj = _u(rng, k.get("rad_jit", (0.1, 0.1)), (b, 1))
    r = 1.0 - shrink * s / (n - 1) + rj * rng.uniform(-1.0, 1.0, (b, n))
    r = np.maximum(r, 0.05)
    rot = rng.uniform(0, 2 * np.pi, (b, 1))
    return np.stack([r * np.cos(ang + rot), r * np.sin(ang + rot)], axis=-1)


def _loops(rng, b, n, k):
    """Mostly straight walk with ``loops`` curls inserted: 3 consecutive same-sign turns of ~loop_turn each.

    Each curl makes the path cross itself once at modest extra length (bowtie / figure-eight-like).
    """
    nl = int(k.get("loops", 1))
    sd = _u(rng, k.get("turn_sd", (0.15, 0.15)), (b, 1))
    turns = sd * rng.standard_normal((b, n - 2))
    span = 3
    lt = np.radians(_u(rng, k.get("loop_turn", (110.0, 140.0)), (b, nl)))
    sign = rng.choice((-1.0, 1.0), (b, nl))
    free = n - 2 - span * nl
    if free < 0:
        raise ValueError("too many loops for this vertex count")
    # place nl non-overlapping windows of `span` turns: choose gaps by a random composition of `free`
    cuts = np.sort(rng.integers(0, free + 1, (b, nl)), axis=1)
    starts = cuts + span * np.arange(nl)[None]
    rows = np.arange(b)[:, None]
    for o in range(span):
        turns[rows, starts + o] = sign * lt
    heading = np.cumsum(np.concatenate([rng.uniform(0, 2 * np.pi, (b, 1)), turns], axis=1), axis=1)
    steps = rng.uniform(1.0, 1.8, (b, n - 1))
    return _integrate(heading, steps)


def _meander(rng, b, n, k):
    """Serpentine over ``rows`` lanes (boustrophedon): crossing-free paths of any tortuosity."""
    rows_n = int(k.get("rows", 2))
    per = np.full(rows_n, n // rows_n)
    per[: n % rows_n] += 1
    lane = np.repeat(np.arange(rows_n), per)
    pos = np.concatenate([np.arange(c) if r % 2 == 0 else np.arange(c)[::-1] for r, c in enumerate(per)])
    pos = pos.astype(np.float64) / max(per.max() - 1, 1)
    gap = _u(rng, k.get("gap", (0.3, 0.6)), (b, 1))
    xs = pos[None] + rng.uniform(-0.06, 0.06, (b, n))
    ys = lane[None] * gap + gap * rng.uniform(-0.15, 0.15, (b, n))
    return np.stack([xs, ys], axis=-1)


def _bowtie(rng, b, n, k):
    """Gently meandering baseline with ``ties`` bowties (Z-crossings) inserted.

    A bowtie is three steps (w, h), (-w', 0), (w'', -h): the first and third cross once near the middle,
    adding little length, which reaches one or a few crossings at low tortuosity.
    """
    ties = int(k.get("ties", 1))
    m = n - 1
    if 3 * ties > m:
        raise ValueError("too many bowties for this vertex count")
    dx = _u(rng, k.get("dx", (0.8, 1.4)), (b, m))
    dy = _u(rng, k.get("wobble", (0.0, 0.3)), (b, 1)) * rng.standard_normal((b, m))
    free = m - 3 * ties
    cuts = np.sort(rng.integers(0, free + 1, (b, ties)), axis=1)
    starts = cuts + 3 * np.arange(ties)[None]
    rows = np.arange(b)[:, None]
    w = _u(rng, k.get("w", (0.8, 1.3)), (b, ties))
    h = _u(rng, k.get("h", (0.6, 1.0)), (b, ties)) * rng.choice((-1.0, 1.0), (b, ties))
    for o, (fx, fy) in enumerate(((1.0, 1.0), (-1.0, 0.0), (1.0, -1.0))):
        dx[rows, starts + o] = fx * w * rng.uniform(0.85, 1.15, (b, ties))
        dy[rows, starts + o] = fy * h * rng.uniform(0.85, 1.15, (b, ties))
    out = np.zeros((b, n, 2))
    np.cumsum(np.stack([dx, dy], axis=-1), axis=1, out=out[:, 1:])
    return out


def _rail(rng, b, n, k):
    """Rail weave: vertices alternate between two rails, stepping forward or (with ``p_back``) backward.

    Back steps under a long forward step make several crossings while the path keeps moving along the
    rails, which is how the low-tortuosity / many-crossing corner (t1 s3-s5) is reached.
    """
    m = n - 1
    p_back = _u(rng, k.get("p_back", (0.3, 0.5)), (b, 1))
    back = rng.uniform(0, 1, (b, m)) < p_back
    back[:, 0] = False
    back[:, -1] = False
    fwd = _u(rng, k.get("fwd", (1.5, 3.0)), (b, m))
    bwd = _u(rng, k.get("bwd", (0.6, 1.2)), (b, m))
    dx = np.where(back, -bwd, fwd)
    amp = _u(rng, k.get("amp", (0.6, 1.2)), (b, 1))
    y = np.where(np.arange(n) % 2 == 0, 0.5, -0.5)[None] * amp * rng.uniform(0.8, 1.2, (b, n))
    x = np.concatenate([np.zeros((b, 1)), np.cumsum(dx, axis=1)], axis=1)
    return np.stack([x, y], axis=-1)


FAMILIES: dict[str, Callable[..., np.ndarray]] = {
    "walk": _walk,
    "weave": _weave,
    "star": _star,
    "loops": _loops,
    "meander": _meander,
    "bowtie": _bowtie,
    "rail": _rail,
}


def propose(rng: np.random.Generator, family: str, batch: int, vertices: int, knobs: dict) -> np.ndarray:
    """Draw ``batch`` raw candidate polylines (B, N, 2) from a proposer family with the given knobs."""
    return FAMILIES[family](rng, batch, vertices, knobs)


# --------------------------------------------------------------------------------------------------------
# batch screening


def screen_batch(
    raw: np.ndarray,
    profile: GateProfile,
    tort_range: tuple[float, float] | None = None,
    cross_range: tuple[int, int | None] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fit a stack of raw proposals and apply the cheap, vectorised part of the gates.

    Returns (fitted points of the survivors, their indices in ``raw``, their tortuosity, their crossing
    counts). Survivors still need :func:`check_gates` (degenerate contacts, dense gap, crossing
    legibility); everything checked here is implied by it, so the screen never rejects a valid candidate.
    ``tort_range`` = [lo, hi) and ``cross_range`` = [lo, hi] (hi None = open) restrict to one cell.
    """
    b, n, _ = raw.shape
    m = n - 1
    idx = np.arange(b)
    ext = raw.max(1) - raw.min(1)
    ok = ext.max(1) > 0
    pts, idx = raw[ok], idx[ok]
    pts = batch_fit_to_view(pts, profile.view, profile.margin_frac)

    def keep(mask):
        nonlocal pts, idx, seg, seg_len
        pts, idx, seg, seg_len = pts[mask], idx[mask], seg[mask], seg_len[mask]

    seg = np.diff(pts, axis=1)
    seg_len = np.sqrt((seg * seg).sum(-1))
    keep(seg_len.min(1) >= profile.min_segment_px - _PX_TOL)
    d = pts[:, -1] - pts[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = seg_len.sum(1) / np.sqrt((d * d).sum(-1))
    if tort_range is not None:
        mask = (tau >= tort_range[0]) & (tau < tort_range[1])
        keep(mask)
        tau = tau[mask]
    mask = _turn_angles(seg).max(1) <= profile.max_turn_deg + 1e-9
    keep(mask)
    tau = tau[mask]
    vi, vj = np.triu_indices(n, k=2)
    dv = pts[:, vi] - pts[:, vj]
    mask = (dv * dv).sum(-1).min(1) >= (profile.min_vertex_gap_px - _PX_TOL) ** 2
    keep(mask)
    tau = tau[mask]
    empty = np.zeros(0, dtype=np.int64)
    if len(pts) == 0:
        return pts, idx, tau, empty
    # crossings of all non-adjacent pairs
    pi, pj = _nonadjacent_pairs(m)
    a, bb = pts[:, :-1], pts[:, 1:]
    ai, bi, aj, bj = a[:, pi], bb[:, pi], a[:, pj], bb[:, pj]
    o1, o2, o3, o4 = _orient(ai, bi, aj), _orient(ai, bi, bj), _orient(aj, bj, ai), _orient(aj, bj, bi)
    cross = (o1 * o2 < 0) & (o3 * o4 < 0)
    cnt = cross.sum(1)
    mask = np.ones(len(pts), dtype=bool)
    if cross_range is not None:
        lo, hi = cross_range
        mask &= cnt >= lo
        if hi is not None:
            mask &= cnt <= hi
    if not mask.any():
        return pts[:0], idx[:0], tau[:0], empty
    # clearance of non-crossing non-adjacent segments: min over the 4 endpoint-to-segment distances
    sel = np.flatnonzero(mask)
    ai, bi, aj, bj, cross = ai[sel], bi[sel], aj[sel], bj[sel], cross[sel]
    dseg = np.minimum(
        np.minimum(point_segment_distance(ai, aj, bj), point_segment_distance(bi, aj, bj)),
        np.minimum(point_segment_distance(aj, ai, bi), point_segment_distance(bj, ai, bi)),
    )
    good = np.where(cross, np.inf, dseg).min(1) >= profile.min_segment_clearance_px - _PX_TOL
    if profile.min_vertex_segment_px is not None:
        # a vertex is an endpoint of non-incident... pairs above only cover vertices vs segments >= 2 away;
        # vertex k vs segment k-2 / k+1 (adjacent-but-not-incident) is covered there too via the shared pair.
        p = pts[sel]
        dvs = point_segment_distance(p[:, :, None, :], p[:, None, :-1, :], p[:, None, 1:, :])  # (b, N, M)
        kk = np.arange(n)[:, None]
        ss = np.arange(m)[None, :]
        inc = (ss == kk) | (ss == kk - 1)
        good &= np.where(inc[None], np.inf, dvs).min((1, 2)) >= profile.min_vertex_segment_px - _PX_TOL
    if profile.min_crossing_angle_deg is not None:
        di, dj = bi - ai, bj - aj
        dot = np.abs((di * dj).sum(-1))
        nrm = np.sqrt((di * di).sum(-1) * (dj * dj).sum(-1))
        cos_max = math.cos(math.radians(profile.min_crossing_angle_deg))
        good &= ~np.any(cross & (dot > cos_max * nrm + 1e-12), axis=1)
    sel = sel[good]
    return pts[sel], idx[sel], tau[sel], cnt[sel]


# --------------------------------------------------------------------------------------------------------
# recipes

#: Cells (vertices, tort_bin, cross_bin) that no tuned recipe reaches under STRICT (filled from the recipe
#: file; see the "unreachable_strict" entry and its "why" note there). They work under PAPER.
UNREACHABLE_STRICT: frozenset[tuple[int, int, int]]


@functools.lru_cache(maxsize=1)
def load_recipes() -> dict:
    """Load the tuned per-cell proposal table shipped as package data (cached)."""
    text = resources.files(__package__).joinpath("backbone_recipes.json").read_text(encoding="utf-8")
    return json.loads(text)


def _cell_recipes(vertices: int, tort_bin: int, cross_bin: int, profile: GateProfile) -> list[dict]:
    table = load_recipes()
    key = f"{vertices}:{tort_bin}:{cross_bin}"
    prof = "strict" if profile.legibility else "paper"
    by_prof = table.get("cells", {})
    # A STRICT-accepted backbone is also PAPER-accepted and PAPER recipes at least aim at the right region,
    # so each profile borrows the other's recipes before falling back to the generic mix.
    other = "paper" if prof == "strict" else "strict"
    return by_prof.get(prof, {}).get(key) or by_prof.get(other, {}).get(key) or table["fallback"]


def _load_unreachable() -> frozenset[tuple[int, int, int]]:
    try:
        rows = load_recipes().get("unreachable_strict", {}).get("cells", [])
    except (FileNotFoundError, json.JSONDecodeError):
        rows = []
    return frozenset(tuple(r) for r in rows)


UNREACHABLE_STRICT = _load_unreachable()


# --------------------------------------------------------------------------------------------------------
# generator


def generate_backbone(
    rng: np.random.Generator,
    vertices: int,
    tort_bin: int,
    cross_bin: int,
    profile: GateProfile = STRICT,
    *,
    max_proposals: int | None = None,
) -> Backbone:
    """Generate one backbone with ``vertices`` points in cell (tort_bin, cross_bin) that passes ``profile``.

    Deterministic given the state of ``rng`` (the only source of randomness). The returned points are
    fitted to the view, their tortuosity is in the tortuosity bin, their crossing count in the crossing
    bin, and ``check_gates(points, profile) == []``. Raises :class:`CellUnreachable` when no candidate
    passes within ``max_proposals`` proposals (default from the recipe table).
    """
    if vertices < 4:
        raise ValueError("vertices must be >= 4")
    t_rng = tortuosity_range(tort_bin)
    c_rng = crossing_range(cross_bin)
    entries = _cell_recipes(vertices, tort_bin, cross_bin, profile)
    budget = max_proposals
    if budget is None:
        budget = int(load_recipes().get("max_proposals", 40000))
    weights = np.array([e["weight"] for e in entries], dtype=np.float64)
    weights /= weights.sum()
    attempts = 0
    while attempts < budget:
        e = entries[int(rng.choice(len(entries), p=weights))] if len(entries) > 1 else entries[0]
        batch = int(min(e.get("batch", 128), budget - attempts))
        raw = propose(rng, e["family"], batch, vertices, e["knobs"])
        pts, idx, tau, _cnt = screen_batch(raw, profile, t_rng, c_rng)
        for k in range(len(pts)):
            p = pts[k]
            if check_gates(p, profile, fail_fast=True):
                continue
            crossings = find_crossings(p)
            tau = tortuosity(p)
            # re-check the cell with the exact (tolerance-aware) metrics the rest of the plugin uses
            if not (t_rng[0] <= tau < t_rng[1]) or not _in_range(len(crossings), c_rng):
                continue
            return Backbone(
                points=p,
                family=e["family"],
                attempts=attempts + int(idx[k]) + 1,
                tortuosity=tau,
                crossings=crossings,
            )
        attempts += batch
    raise CellUnreachable(vertices, tort_bin, cross_bin, attempts)


def _in_range(count: int, rng_pair: tuple[int, int | None]) -> bool:
    lo, hi = rng_pair
    return count >= lo and (hi is None or count <= hi)


def cell_keys(vertices: int) -> list[tuple[int, int]]:
    """Populated (tort_bin, cross_bin) cells at a vertex count, sorted."""
    return sorted(POPULATED_CELLS[vertices])
