"""Cell-targeted backbone generator for TraversalBench.

A backbone is an unlabelled polyline that lands in a requested (tortuosity bin, crossing bin) cell at a
given vertex count and passes every render-aware gate of a :class:`~.geometry.GateProfile`.

How it is fast enough: proposers draw a whole batch of candidate polylines at once as a (B, N, 2) array;
the batch is fitted to the view and screened with broadcast numpy, and only the few survivors go through
the full :func:`~.geometry.check_gates`. Each cell has a recipe in ``backbone_recipes.json`` with one of
three modes (spec §2.2 "recommended generator" and paper App. A.3):

* ``sample``: draw batches from the cell's tuned proposal boxes (family + knob ranges, written by
  ``benchmarks/backbone_cells.py --tune``) and keep the first candidate that passes; for the easy cells.
* ``repair``: draw one smaller batch, rank it by :func:`gate_penalty` (a continuous distance from "in the
  cell and accepted") and run :func:`repair`, a batched hill climb that moves one vertex at a time, on
  the near misses; restart with a fresh batch after a bounded number of generations.
* ``grow``: make a backbone of the same cell at fewer vertices (with that cell's own recipe) and insert
  vertices by splitting long segments (:func:`grow`), re-checking every gate after each insertion.

Which mode and box each cell uses is chosen by timing (``benchmarks/tune_backbone_recipes.py``). Cells
that no recipe fills fast enough under STRICT are flagged in the table with a reason and exported as
:data:`UNREACHABLE_STRICT` / :data:`UNREACHABLE_REASONS`; they are generated under PAPER. Knob values are
drawn at random per candidate inside the tuned ranges, so a cell is not filled with one repeated shape.
All randomness comes from the ``rng`` passed in.
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
    quantise_points,
    tortuosity,
    triu_pairs,
)

__all__ = [
    "FAMILIES",
    "UNREACHABLE_REASONS",
    "UNREACHABLE_STRICT",
    "Backbone",
    "CellUnreachable",
    "gate_penalty",
    "generate_backbone",
    "grow",
    "load_recipes",
    "propose",
    "repair",
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

    # x and y are worked on separately where a (..., 2) array would be reduced over its last axis (the same
    # arithmetic, without numpy's slow reductions over an axis of length 2)
    seg = np.diff(pts, axis=1)
    seg_len = np.sqrt(seg[..., 0] * seg[..., 0] + seg[..., 1] * seg[..., 1])
    keep(seg_len.min(1) >= profile.min_segment_px - _PX_TOL)
    dx, dy = pts[:, -1, 0] - pts[:, 0, 0], pts[:, -1, 1] - pts[:, 0, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = seg_len.sum(1) / np.sqrt(dx * dx + dy * dy)
    if tort_range is not None:
        mask = (tau >= tort_range[0]) & (tau < tort_range[1])
        keep(mask)
        tau = tau[mask]
    mask = _turn_angles(seg).max(1) <= profile.max_turn_deg + 1e-9
    keep(mask)
    tau = tau[mask]
    vi, vj = triu_pairs(n, 2)
    px, py = pts[..., 0], pts[..., 1]
    gx, gy = px[:, vi] - px[:, vj], py[:, vi] - py[:, vj]
    mask = (gx * gx + gy * gy).min(1) >= (profile.min_vertex_gap_px - _PX_TOL) ** 2
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
        good &= np.where(_incident_mask(n)[None], np.inf, dvs).min((1, 2)) >= profile.min_vertex_segment_px - _PX_TOL
    if profile.min_crossing_angle_deg is not None:
        di, dj = bi - ai, bj - aj
        dix, diy, djx, djy = di[..., 0], di[..., 1], dj[..., 0], dj[..., 1]
        dot = np.abs(dix * djx + diy * djy)
        nrm = np.sqrt((dix * dix + diy * diy) * (djx * djx + djy * djy))
        cos_max = math.cos(math.radians(profile.min_crossing_angle_deg))
        good &= ~np.any(cross & (dot > cos_max * nrm + 1e-12), axis=1)
    sel = sel[good]
    return pts[sel], idx[sel], tau[sel], cnt[sel]


@functools.lru_cache(maxsize=32)
def _incident_mask(n: int) -> np.ndarray:
    """(N, N-1) bool mask: True where vertex k is an endpoint of segment s."""
    kk = np.arange(n)[:, None]
    ss = np.arange(n - 1)[None, :]
    mask = (ss == kk) | (ss == kk - 1)
    mask.flags.writeable = False
    return mask


# --------------------------------------------------------------------------------------------------------
# continuous gate penalty and local repair


def _relu(x):
    return np.maximum(x, 0.0)


def _implied_min_angle(profile: GateProfile) -> float:
    """Smallest crossing angle that the gates accept for sure.

    Under every profile the dense-gap gate rejects crossings shallower than asin(gap / mask) (samples just
    outside the masked disc around the crossing come closer than the gap), so the penalty aims above that
    even when the legibility angle gate is off.
    """
    implied = math.degrees(math.asin(min(1.0, profile.min_dense_gap_px / profile.crossing_mask_px))) + 1.0
    if profile.min_crossing_angle_deg is not None:
        implied = max(implied, profile.min_crossing_angle_deg)
    return implied


def gate_penalty(
    pts: np.ndarray,
    profile: GateProfile,
    tort_range: tuple[float, float],
    cross_range: tuple[int, int | None],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Continuous distance of each fitted polyline of a stack (B, N, 2) from "in the cell and accepted".

    Returns (penalty, tortuosity, crossing count). The penalty is 0 exactly when the candidate is in the
    cell and passes every vectorised gate (segment length, vertex gap, hairpin, segment clearance, and the
    legibility gates of ``profile``); otherwise it adds the relative shortfall of each violated threshold,
    10 x the log-distance of the tortuosity from its bin and 1 per missing / surplus crossing. The
    remaining gates (degenerate contacts, dense gap) are left to :func:`~.geometry.check_gates`.
    """
    # Computed on the x and y coordinates as separate arrays: the same arithmetic, operation by operation, as
    # on (..., 2) arrays, but without numpy's slow reductions over a last axis of length 2.
    b, n, _ = pts.shape
    m = n - 1
    px, py = pts[..., 0], pts[..., 1]
    ax, ay = px[:, :-1], py[:, :-1]
    sx, sy = px[:, 1:] - ax, py[:, 1:] - ay
    seg_sq = sx * sx + sy * sy
    sl = np.sqrt(seg_sq)
    s_min = profile.min_segment_px
    pen = _relu(s_min - sl).sum(1) / s_min
    dx, dy = px[:, -1] - px[:, 0], py[:, -1] - py[:, 0]
    e2e = np.sqrt(dx * dx + dy * dy)
    tau = sl.sum(1) / np.maximum(e2e, 1e-9)
    lt = np.log(tau)
    tp = _relu(math.log(tort_range[0]) - lt)
    if math.isfinite(tort_range[1]):
        tp = tp + _relu(lt - math.log(tort_range[1]))
    pen += 10.0 * tp
    # turn angles (``geometry._turn_angles``): the dot product's sum over the pair is its two products added
    tx0, ty0, tx1, ty1 = sx[:, :-1], sy[:, :-1], sx[:, 1:], sy[:, 1:]
    turn = np.degrees(np.abs(np.arctan2(tx0 * ty1 - ty0 * tx1, tx0 * tx1 + ty0 * ty1)))
    pen += _relu(turn - profile.max_turn_deg).sum(1) / 10.0
    vi, vj = triu_pairs(n, 2)
    gx, gy = px[:, vi] - px[:, vj], py[:, vi] - py[:, vj]
    g_min = profile.min_vertex_gap_px
    pen += _relu(g_min - np.sqrt(gx * gx + gy * gy)).sum(1) / g_min
    # vertex-to-segment distances (B, N, M); pair clearances are gathered from them
    ab2 = seg_sq[:, None, :]
    apx, apy = px[:, :, None] - ax[:, None, :], py[:, :, None] - ay[:, None, :]
    tproj = np.clip((apx * sx[:, None] + apy * sy[:, None]) / np.maximum(ab2, 1e-12), 0.0, 1.0)
    qx, qy = apx - tproj * sx[:, None], apy - tproj * sy[:, None]
    dvs = np.sqrt(qx * qx + qy * qy)
    pi, pj = _nonadjacent_pairs(m)
    # every per-segment quantity of both segments of every pair, in two gathers: (7, B, P) each
    per_segment = np.stack([ax, ay, sx, sy, px[:, 1:], py[:, 1:], seg_sq])
    seg_i, seg_j = per_segment[:, :, pi], per_segment[:, :, pj]
    aix, aiy, dix, diy, bix, biy = seg_i[:6]
    ajx, ajy, djx, djy, bjx, bjy = seg_j[:6]
    # ``_orient_xy`` of the pairs; b - a of a segment is its (sx, sy), the same subtraction of the same numbers
    ex, ey = ajx - aix, ajy - aiy
    o1 = dix * ey - diy * ex
    o2 = dix * (bjy - aiy) - diy * (bjx - aix)
    o3 = djx * (aiy - ajy) - djy * (aix - ajx)
    o4 = djx * (biy - ajy) - djy * (bix - ajx)
    cross = (o1 * o2 < 0) & (o3 * o4 < 0)
    cnt = cross.sum(1)
    lo, hi = cross_range
    pen += _relu(lo - cnt)
    if hi is not None:
        pen += _relu(cnt - hi)
    # the four endpoint-to-segment distances of every pair, (B, 4, P), in one gather
    ends = dvs.reshape(b, -1)[:, _pair_distance_index(n)]
    dseg = np.minimum(np.minimum(ends[:, 0], ends[:, 1]), np.minimum(ends[:, 2], ends[:, 3]))
    c_min = profile.min_segment_clearance_px
    pen += np.where(cross, 0.0, _relu(c_min - dseg)).sum(1) / c_min
    if profile.min_vertex_segment_px is not None:
        v_min = profile.min_vertex_segment_px
        pen += (_relu(v_min - dvs) * _nonincident_mask(n)).sum((1, 2)) / v_min
    k_max = int(cnt.max()) if b else 0
    if k_max == 0:
        return pen, tau, cnt
    nrm = np.sqrt(seg_i[6] * seg_j[6])
    cosang = np.abs(dix * djx + diy * djy) / np.maximum(nrm, 1e-12)
    ang = np.degrees(np.arccos(np.clip(cosang, 0.0, 1.0)))
    amin = _implied_min_angle(profile)
    pen += np.where(cross, _relu(amin - ang), 0.0).sum(1) / amin
    if not profile.legibility:
        return pen, tau, cnt
    # crossing points, packed to the front: (B, K) coordinates with a validity mask
    order = np.argsort(~cross, axis=1, kind="stable")[:, :k_max]
    rows = np.arange(b)[:, None]
    valid = cross[rows, order]
    den = dix * djy - diy * djx
    num = ex * djy - ey * djx
    tt = np.where(cross, num / np.where(cross, den, 1.0), 0.0)[rows, order]
    first_x, first_y, along_x, along_y = seg_i[:4, rows, order]
    cpx = first_x + tt * along_x
    cpy = first_y + tt * along_y
    if profile.min_crossing_vertex_px is not None:
        x_min = profile.min_crossing_vertex_px
        cvx, cvy = cpx[:, :, None] - px[:, None], cpy[:, :, None] - py[:, None]
        dcv = np.sqrt(cvx * cvx + cvy * cvy)
        pen += (_relu(x_min - dcv) * valid[..., None]).sum((1, 2)) / x_min
    if profile.min_crossing_crossing_px is not None and k_max >= 2:
        x_min = profile.min_crossing_crossing_px
        ci, cj = triu_pairs(k_max, 1)
        ccx, ccy = cpx[:, ci] - cpx[:, cj], cpy[:, ci] - cpy[:, cj]
        dcc = np.sqrt(ccx * ccx + ccy * ccy)
        pen += (_relu(x_min - dcc) * (valid[:, ci] & valid[:, cj])).sum(1) / x_min
    if profile.border_px is not None:
        x_min = profile.border_px
        edge = np.minimum(np.minimum(cpx, profile.view - cpx), np.minimum(cpy, profile.view - cpy))
        pen += (_relu(x_min - edge) * valid).sum(1) / x_min
    return pen, tau, cnt


def _orient_xy(ax, ay, bx, by, cx, cy):
    """``geometry._orient`` on separate coordinate arrays: twice the signed area of (a, b, c)."""
    abx, aby = bx - ax, by - ay
    acx, acy = cx - ax, cy - ay
    return abx * acy - aby * acx


@functools.lru_cache(maxsize=32)
def _pair_distance_index(n: int) -> np.ndarray:
    """(4, P) flat indices into a (N, N-1) vertex-to-segment distance table of, for every non-adjacent
    segment pair (i, j): the distances of vertices i and i + 1 to segment j and of vertices j and j + 1 to
    segment i."""
    m = n - 1
    pi, pj = _nonadjacent_pairs(m)
    index = np.stack([pi * m + pj, (pi + 1) * m + pj, pj * m + pi, (pj + 1) * m + pi])
    index.flags.writeable = False
    return index


@functools.lru_cache(maxsize=32)
def _nonincident_mask(n: int) -> np.ndarray:
    """(N, N-1) float mask: 1 where vertex k is not an endpoint of segment s."""
    kk = np.arange(n)[:, None]
    ss = np.arange(n - 1)[None, :]
    return ((ss != kk) & (ss != kk - 1)).astype(np.float64)


_STEP_PX = np.array([3.0, 10.0, 30.0, 80.0])
#: Perpendicular displacement scales of a split point, relative to the split segment's length.
_GROW_OFFSETS = np.array([0.03, 0.12])


def _accept(p: np.ndarray, profile: GateProfile, t_rng, c_rng) -> tuple[np.ndarray, float, list[Crossing]] | None:
    """Full acceptance of one fitted candidate, quantised to the drawing grid first (``quantise_points``):
    every gate plus the exact cell metrics.  Returns (quantised points, tortuosity, crossings) or None."""
    p = quantise_points(p)
    if check_gates(p, profile, fail_fast=True):
        return None
    crossings = find_crossings(p)
    tau = tortuosity(p)
    if not (t_rng[0] <= tau < t_rng[1]) or not _in_range(len(crossings), c_rng):
        return None
    return p, tau, crossings


def repair(
    rng: np.random.Generator,
    pts: np.ndarray,
    profile: GateProfile,
    tort_range: tuple[float, float],
    cross_range: tuple[int, int | None],
    *,
    pop: int = 8,
    kids: int = 24,
    gens: int = 40,
    pen: np.ndarray | None = None,
) -> tuple[np.ndarray | None, int, tuple | None]:
    """Local repair / anneal of near-miss candidates (spec §2.2 recommended generator, step 3).

    Keeps the ``pop`` candidates of ``pts`` (fitted, (B, N, 2)) with the lowest :func:`gate_penalty`; each
    generation moves one random vertex of ``kids`` copies of them by a Gaussian step (3-80 px), refits
    and keeps the best ``pop`` of parents and children, so the penalty never gets worse. Returns (accepted
    points, quantised, or None, candidates evaluated, (points, tortuosity, crossings) or None).
    """
    if pen is None:
        pen = gate_penalty(pts, profile, tort_range, cross_range)[0]
    order = np.argsort(pen, kind="stable")[:pop]
    cur, cur_pen = pts[order], pen[order].copy()
    n = pts.shape[1]
    rows = np.arange(kids)
    evaluated = 0
    for _ in range(gens):
        ch = cur[rng.integers(len(cur), size=kids)]
        v = rng.integers(n, size=kids)
        step = _STEP_PX[rng.integers(len(_STEP_PX), size=kids)]
        ch[rows, v] += step[:, None] * rng.standard_normal((kids, 2))
        ch = batch_fit_to_view(ch, profile.view, profile.margin_frac)
        ch_pen = gate_penalty(ch, profile, tort_range, cross_range)[0]
        evaluated += kids
        for k in np.flatnonzero(ch_pen <= 0.0):
            res = _accept(ch[k], profile, tort_range, cross_range)
            if res is not None:
                return res[0], evaluated, res
            ch_pen[k] = 1e-3  # passes the vectorised gates only: keep, but below the exact hits
        all_pts = np.concatenate([cur, ch])
        all_pen = np.concatenate([cur_pen, ch_pen])
        order = np.argsort(all_pen, kind="stable")[:pop]
        cur, cur_pen = all_pts[order], all_pen[order]
    return None, evaluated, None


def grow(
    rng: np.random.Generator,
    points: np.ndarray,
    vertices: int,
    profile: GateProfile,
    tort_range: tuple[float, float],
    cross_range: tuple[int, int | None],
    *,
    tries: int = 32,
    repair_gens: int = 0,
    max_evals: int | None = None,
) -> tuple[np.ndarray | None, int]:
    """Bootstrap mode (paper App. A.3): insert vertices into an accepted backbone until it has ``vertices``.

    Each insertion splits a segment long enough to hold two minimum-length segments at a point drawn
    around its middle, displaced perpendicular by a small Gaussian amount; ``tries`` such splits are
    screened at once with :func:`gate_penalty` (refitted, so every gate and the cell are re-checked after
    each insertion) and one clean split is kept at random. Returns (points or None when no clean split is
    left, candidates evaluated); the caller runs the full gate check on the result. With ``repair_gens``
    a step without a clean split runs :func:`repair` on the splits for that many generations instead.
    At most ``max_evals`` candidates are evaluated.
    """
    p = points
    evaluated = 0
    min_len = 2.0 * profile.min_segment_px + 8.0
    cap = math.inf if max_evals is None else max_evals
    while len(p) < vertices:
        if evaluated + tries > cap:
            return None, evaluated
        seg = np.diff(p, axis=0)
        sl = np.hypot(seg[:, 0], seg[:, 1])
        ok = np.flatnonzero(sl >= min_len)
        if ok.size == 0:
            return None, evaluated
        w = sl[ok] - min_len + 1.0
        k = ok[rng.choice(ok.size, size=tries, p=w / w.sum())]
        u = rng.uniform(0.35, 0.65, tries)
        off = rng.normal(0.0, 1.0, tries) * rng.choice(_GROW_OFFSETS, tries) * sl[k]
        normal = np.stack([-seg[k, 1], seg[k, 0]], axis=1) / sl[k, None]
        new = p[k] + u[:, None] * seg[k] + off[:, None] * normal
        n = len(p)
        cand = np.empty((tries, n + 1, 2))
        ar = np.arange(n + 1)[None, :]
        src_idx = np.where(ar <= k[:, None], ar, ar - 1)  # rows: old index feeding each new slot
        cand[:] = p[src_idx]
        cand[np.arange(tries), k + 1] = new
        cand = batch_fit_to_view(cand, profile.view, profile.margin_frac)
        pen = gate_penalty(cand, profile, tort_range, cross_range)[0]
        evaluated += tries
        good = np.flatnonzero(pen <= 0.0)
        if good.size == 0:
            gens = min(repair_gens, int((cap - evaluated) // _REPAIR_DEFAULTS["kids"]))
            if gens <= 0:
                return None, evaluated
            # no clean split: repair the best splits (their extra vertex included) for a few generations
            fixed, used, _res = repair(rng, cand, profile, tort_range, cross_range, gens=gens, pen=pen)
            evaluated += used
            if fixed is None:
                return None, evaluated
            p = fixed
            continue
        p = cand[good[int(rng.integers(good.size))]]
    return p, evaluated


# --------------------------------------------------------------------------------------------------------
# recipes

#: Cells (vertices, tort_bin, cross_bin) that the tuned recipes do not reach under STRICT within the speed
#: budget (filled from the recipe file, where each such cell carries ``"unreachable": true`` and a
#: ``"reason"``; see :data:`UNREACHABLE_REASONS`). They work under PAPER.
UNREACHABLE_STRICT: frozenset[tuple[int, int, int]]
#: Why each cell of :data:`UNREACHABLE_STRICT` is left out.
UNREACHABLE_REASONS: dict[tuple[int, int, int], str]


@functools.lru_cache(maxsize=1)
def load_recipes() -> dict:
    """Load the tuned per-cell proposal table shipped as package data (cached)."""
    text = resources.files(__package__).joinpath("backbone_recipes.json").read_text(encoding="utf-8")
    return json.loads(text)


def _as_recipe(entry) -> dict:
    """Normalise a cell entry: a bare list of proposal boxes means plain sampling."""
    if isinstance(entry, list):
        return {"mode": "sample", "entries": entry}
    return entry


def _cell_recipe(vertices: int, tort_bin: int, cross_bin: int, profile: GateProfile) -> dict:
    table = load_recipes()
    key = f"{vertices}:{tort_bin}:{cross_bin}"
    prof = "strict" if profile.legibility else "paper"
    by_prof = table.get("cells", {})
    # A STRICT-accepted backbone is also PAPER-accepted and PAPER recipes at least aim at the right region,
    # so each profile borrows the other's recipes before falling back to the generic mix.
    other = "paper" if prof == "strict" else "strict"
    for entry in (by_prof.get(prof, {}).get(key), by_prof.get(other, {}).get(key)):
        if entry:
            recipe = _as_recipe(entry)
            if recipe.get("entries") or recipe.get("mode") == "grow":
                return recipe
    return {"mode": "sample", "entries": table["fallback"]}


def _load_unreachable() -> dict[tuple[int, int, int], str]:
    try:
        strict = load_recipes().get("cells", {}).get("strict", {})
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    out = {}
    for key, entry in strict.items():
        if isinstance(entry, dict) and entry.get("unreachable"):
            v, t, s = (int(x) for x in key.split(":"))
            out[(v, t, s)] = str(entry.get("reason", "not reached under STRICT"))
    return dict(sorted(out.items()))


UNREACHABLE_REASONS = _load_unreachable()
UNREACHABLE_STRICT = frozenset(UNREACHABLE_REASONS)

_REPAIR_DEFAULTS = {"pop": 8, "kids": 24, "gens": 40}


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
    fitted to the view and quantised to the drawing grid (``geometry.quantise_points``); their tortuosity
    is in the tortuosity bin, their crossing count in the crossing bin, and ``check_gates(points, profile)
    == []`` holds for the quantised points. Raises :class:`CellUnreachable` when no candidate
    passes within ``max_proposals`` evaluated candidates (proposals plus repair moves; default from the
    recipe table).

    Each cell's recipe says how: ``sample`` draws batches from the tuned proposal boxes and screens them;
    ``repair`` draws a (smaller) batch, takes any exact hit, and otherwise runs :func:`repair` on the
    batch's near misses.
    """
    if vertices < 4:
        raise ValueError("vertices must be >= 4")
    recipe = _cell_recipe(vertices, tort_bin, cross_bin, profile)
    budget = max_proposals
    if budget is None:
        budget = int(load_recipes().get("max_proposals", 40000))
    return generate_with_recipe(rng, vertices, tort_bin, cross_bin, profile, recipe, budget)


def generate_with_recipe(
    rng: np.random.Generator,
    vertices: int,
    tort_bin: int,
    cross_bin: int,
    profile: GateProfile,
    recipe: dict | list,
    budget: int,
) -> Backbone:
    """:func:`generate_backbone` with an explicit cell recipe (what the recipe tuner times)."""
    t_rng = tortuosity_range(tort_bin)
    c_rng = crossing_range(cross_bin)
    recipe = _as_recipe(recipe)
    if recipe.get("mode") == "grow":
        return _generate_grown(rng, vertices, tort_bin, cross_bin, profile, recipe, budget)
    entries = recipe["entries"]
    repairing = recipe.get("mode") == "repair"
    rp = {**_REPAIR_DEFAULTS, **recipe.get("repair", {})}
    weights = np.array([e["weight"] for e in entries], dtype=np.float64)
    weights /= weights.sum()
    attempts = 0
    while attempts < budget:
        e = entries[int(rng.choice(len(entries), p=weights))] if len(entries) > 1 else entries[0]
        batch = int(min(e.get("batch", 128), budget - attempts))
        raw = propose(rng, e["family"], batch, vertices, e["knobs"])
        if not repairing:
            pts, idx, _tau, _cnt = screen_batch(raw, profile, t_rng, c_rng)
            for k in range(len(pts)):
                res = _accept(pts[k], profile, t_rng, c_rng)
                if res is not None:
                    return Backbone(res[0], e["family"], attempts + int(idx[k]) + 1, res[1], res[2])
            attempts += batch
            continue
        ext = raw.max(1) - raw.min(1)
        raw = raw[ext.max(1) > 0]
        attempts += batch
        if len(raw) == 0:
            continue
        pts = batch_fit_to_view(raw, profile.view, profile.margin_frac)
        pen = gate_penalty(pts, profile, t_rng, c_rng)[0]
        for k in np.flatnonzero(pen <= 0.0):
            res = _accept(pts[k], profile, t_rng, c_rng)
            if res is not None:
                return Backbone(res[0], e["family"], attempts - batch + int(k) + 1, res[1], res[2])
            pen[k] = 1e-3
        kids = int(rp["kids"])
        gens = min(int(rp["gens"]), (budget - attempts) // kids)
        if gens <= 0:
            break
        p, used, res = repair(rng, pts, profile, t_rng, c_rng, pop=int(rp["pop"]), kids=kids, gens=gens, pen=pen)
        attempts += used
        if p is not None:
            return Backbone(res[0], f"{e['family']}+repair", attempts, res[1], res[2])
    raise CellUnreachable(vertices, tort_bin, cross_bin, attempts)


def _generate_grown(rng, vertices, tort_bin, cross_bin, profile, recipe, budget) -> Backbone:
    """``grow`` mode: a backbone of the same cell at ``recipe["from"]`` vertices, grown by safe insertion."""
    t_rng = tortuosity_range(tort_bin)
    c_rng = crossing_range(cross_bin)
    base_v = int(recipe["from"])
    if not 4 <= base_v < vertices:
        raise ValueError(f"grow recipe needs 4 <= from < {vertices}, got {base_v}")
    base_recipe = _cell_recipe(base_v, tort_bin, cross_bin, profile)
    attempts = 0
    while attempts < budget:
        try:
            base = generate_with_recipe(rng, base_v, tort_bin, cross_bin, profile, base_recipe, budget - attempts)
        except CellUnreachable as exc:
            attempts += exc.attempts
            break
        attempts += base.attempts
        gens = int(recipe.get("repair_gens", 0))
        p, used = grow(rng, base.points, vertices, profile, t_rng, c_rng, repair_gens=gens, max_evals=budget - attempts)
        attempts += used
        if p is None:
            continue
        res = _accept(p, profile, t_rng, c_rng)
        if res is not None:
            return Backbone(res[0], f"{base.family}+grow{base_v}", attempts, res[1], res[2])
    raise CellUnreachable(vertices, tort_bin, cross_bin, attempts)


def _in_range(count: int, rng_pair: tuple[int, int | None]) -> bool:
    lo, hi = rng_pair
    return count >= lo and (hi is None or count <= hi)


def cell_keys(vertices: int) -> list[tuple[int, int]]:
    """Populated (tort_bin, cross_bin) cells at a vertex count, sorted."""
    return sorted(POPULATED_CELLS[vertices])
