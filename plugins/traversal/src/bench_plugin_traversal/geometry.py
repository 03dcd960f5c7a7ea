"""Geometry core of TraversalBench: metrics, crossings, distances and render-aware acceptance gates.

Everything works on one polyline ``points`` of shape (N, 2), float64, in view pixels (y grows downwards,
like an image); segment ``i`` runs from ``points[i]`` to ``points[i + 1]``. The ``batch_*`` helpers take a
stack of polylines of shape (B, N, 2) and are what the backbone generator uses to screen many proposals
at once. Pure numpy, no shapely.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import attrs
import numpy as np

__all__ = [
    "PAPER",
    "STRICT",
    "Crossing",
    "GateProfile",
    "batch_crossing_counts",
    "batch_fit_to_view",
    "batch_tortuosity",
    "check_gates",
    "count_crossings",
    "degenerate_contacts",
    "end_to_end",
    "find_crossings",
    "fit_to_view",
    "path_length",
    "point_segment_distance",
    "quantise_points",
    "segment_lengths",
    "segment_segment_distance",
    "tortuosity",
    "turn_angles",
]

# Orientation values with |o| <= _REL_EPS * scale**2 count as exactly collinear. Far below anything a
# render can show, so it only catches contacts that are degenerate up to float rounding.
_REL_EPS = 1e-12
# Slack for the pixel thresholds, so that a value stored as 40.000000000001 / 39.99999999999 still passes.
_PX_TOL = 1e-6


# --------------------------------------------------------------------------------------------------------
# gate profile


@attrs.frozen(kw_only=True)
class GateProfile:
    """Thresholds of the render-aware acceptance gates (TraversalBench §2.2 table and §5 must-have 3).

    A threshold of ``None`` switches its gate off. Distances are in view pixels, angles in degrees.
    """

    name: str = "strict"
    view: int = 672
    margin_frac: float = 0.06
    glyph_radius: float = 12.0
    glyph_pad: float = 6.0
    line_width: float = 3.0
    # render-aware gates of the published generator
    min_segment_px: float = 40.0  # S = 2r + p + 10
    min_vertex_gap_px: float = 40.0  # S, for vertices with |i - j| >= 2
    min_segment_clearance_px: float = 24.0  # 2r, non-adjacent segments that do not cross
    max_turn_deg: float = 170.0
    min_extent_frac: float = 0.75
    min_dense_gap_px: float = 4.0
    dense_step_px: float = 2.0
    dense_window_px: float = 80.0  # samples closer than this along the path are "local" (2S)
    crossing_mask_px: float = 15.0  # dense-gap samples this close to a true crossing are exempt
    # legibility gates (TraversalBench §5 must-have 3); None in the PAPER profile
    min_crossing_angle_deg: float | None = 25.0
    min_crossing_vertex_px: float | None = 20.0  # r + p + 2
    min_crossing_crossing_px: float | None = 24.0  # 2r
    min_vertex_segment_px: float | None = 21.0  # r + p + lw
    border_px: float | None = 15.0

    @property
    def spacing(self) -> float:
        """Minimum glyph centre-to-centre spacing S = 2r + p + 10 (paper A.2)."""
        return 2.0 * self.glyph_radius + self.glyph_pad + 10.0

    @property
    def margin_px(self) -> float:
        """Border left free by :func:`fit_to_view` on the longer side."""
        return self.margin_frac * self.view

    @property
    def legibility(self) -> bool:
        """True if any legibility gate is on."""
        return any(
            v is not None
            for v in (
                self.min_crossing_angle_deg,
                self.min_crossing_vertex_px,
                self.min_crossing_crossing_px,
                self.min_vertex_segment_px,
                self.border_px,
            )
        )

    @classmethod
    def from_glyph(
        cls, name: str, glyph_radius: float, glyph_pad: float, line_width: float, *, legibility: bool = True
    ) -> GateProfile:
        """Derive every threshold from the glyph geometry, as the paper's script does."""
        r, p, lw = glyph_radius, glyph_pad, line_width
        s = 2.0 * r + p + 10.0
        leg = {
            "min_crossing_angle_deg": 25.0 if legibility else None,
            "min_crossing_vertex_px": r + p + 2.0 if legibility else None,
            "min_crossing_crossing_px": 2.0 * r if legibility else None,
            "min_vertex_segment_px": r + p + lw if legibility else None,
            "border_px": 15.0 if legibility else None,
        }
        return cls(
            name=name,
            glyph_radius=r,
            glyph_pad=p,
            line_width=lw,
            min_segment_px=s,
            min_vertex_gap_px=s,
            min_segment_clearance_px=2.0 * r,
            dense_window_px=2.0 * s,
            **leg,
        )


#: Default profile: every render-aware gate plus the legibility gates.
STRICT = GateProfile.from_glyph("strict", 12.0, 6.0, 3.0, legibility=True)
#: The published generator's behaviour: legibility gates off (crossings may be shallow, under glyphs, ...).
PAPER = GateProfile.from_glyph("paper", 12.0, 6.0, 3.0, legibility=False)


# --------------------------------------------------------------------------------------------------------
# basics


def _as_points(points) -> np.ndarray:
    p = np.asarray(points, dtype=np.float64)
    if p.ndim != 2 or p.shape[1] != 2 or p.shape[0] < 2:
        raise ValueError(f"points must have shape (N>=2, 2), got {p.shape}")
    return p


def fit_to_view(points, view: int = 672, margin_frac: float = 0.06) -> np.ndarray:
    """Scale uniformly and centre so the longer bounding-box side spans exactly [margin, view - margin].

    The shorter side is centred in the view. Returns a new (N, 2) float64 array.
    """
    return batch_fit_to_view(_as_points(points)[None], view, margin_frac)[0]


def batch_fit_to_view(pts: np.ndarray, view: int = 672, margin_frac: float = 0.06) -> np.ndarray:
    """:func:`fit_to_view` for a stack (B, N, 2)."""
    lo = pts.min(axis=1)
    hi = pts.max(axis=1)
    ext = hi - lo
    longest = ext.max(axis=1)
    if np.any(longest <= 0):
        raise ValueError("cannot fit a polyline whose points all coincide")
    margin = margin_frac * view
    scale = (view - 2.0 * margin) / longest
    centre = 0.5 * (lo + hi)
    out = (pts - centre[:, None, :]) * scale[:, None, None] + 0.5 * view
    # Pin the longer side exactly on the margins (rounding would otherwise leave ~1e-13 offsets).
    rows = np.arange(pts.shape[0])
    ax = np.argmax(ext, axis=1)
    coord = pts[rows, :, ax]  # (B, N): each polyline's coordinate along its longer side
    out[rows, coord.argmin(axis=1), ax] = margin
    out[rows, coord.argmax(axis=1), ax] = view - margin
    return out


#: Decimal places of every drawn coordinate (1/100 px).  Geometry is rounded to this grid before the
#: acceptance checks and the drawing, so float noise between CPUs or SIMD paths (far below 1e-9 px) cannot
#: move a pixel, and the scene record holds exactly the numbers that were drawn.
DRAW_DECIMALS = 2


def quantise_points(points, decimals: int = DRAW_DECIMALS) -> np.ndarray:
    """``points`` rounded to ``decimals`` places as Python floats do it (``round``), returned as float64 (N, 2).

    Python's ``round`` gives the float nearest to the decimal value, which the item record's own
    6-decimal rounding leaves unchanged, so the stored and the drawn coordinates are the same floats.
    """
    p = _as_points(points)
    return np.array([[round(float(x), decimals), round(float(y), decimals)] for x, y in p], dtype=np.float64)


def segment_lengths(points) -> np.ndarray:
    """Lengths of the N - 1 segments."""
    p = _as_points(points)
    return np.hypot(*np.diff(p, axis=0).T)


def path_length(points) -> float:
    """Total length of the polyline."""
    return float(segment_lengths(points).sum())


def end_to_end(points) -> float:
    """Straight distance between the first and the last point."""
    p = _as_points(points)
    return float(np.hypot(*(p[-1] - p[0])))


def tortuosity(points) -> float:
    """Path length over end-to-end distance (>= 1; ``inf`` if the endpoints coincide)."""
    d = end_to_end(points)
    length = path_length(points)
    return math.inf if d == 0.0 else max(1.0, length / d)


def batch_tortuosity(pts: np.ndarray) -> np.ndarray:
    """Tortuosity of each polyline in a stack (B, N, 2)."""
    seg = np.diff(pts, axis=1)
    length = np.sqrt((seg * seg).sum(-1)).sum(-1)
    d = pts[:, -1] - pts[:, 0]
    e2e = np.sqrt((d * d).sum(-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(e2e > 0, length / e2e, np.inf)


def turn_angles(points) -> np.ndarray:
    """Heading change at each interior vertex in degrees (0 = straight on, 180 = full reversal)."""
    p = _as_points(points)
    return _turn_angles(np.diff(p, axis=0)[None])[0]


def _turn_angles(seg: np.ndarray) -> np.ndarray:
    a, b = seg[:, :-1], seg[:, 1:]
    cross = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    dot = (a * b).sum(-1)
    return np.degrees(np.abs(np.arctan2(cross, dot)))


# --------------------------------------------------------------------------------------------------------
# crossings


class Crossing(NamedTuple):
    """A proper crossing of segment ``seg_a`` with segment ``seg_b`` (``seg_b >= seg_a + 2``).

    ``t`` and ``u`` are the parameters along the two segments (both strictly inside (0, 1)); ``point`` is
    the crossing point and ``angle_deg`` the acute angle between the segments (0-90).
    """

    seg_a: int
    seg_b: int
    t: float
    u: float
    point: tuple[float, float]
    angle_deg: float


@functools.lru_cache(maxsize=256)
def triu_pairs(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.triu_indices(n, k=k)``, cached and read-only: the generator asks for the same few sizes for every
    candidate batch, and building them was a tenth of its time."""
    i, j = np.triu_indices(n, k=k)
    i, j = i.astype(np.intp), j.astype(np.intp)
    i.flags.writeable = j.flags.writeable = False
    return i, j


def _nonadjacent_pairs(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays (I, J) of all segment pairs with J >= I + 2 among m segments, in (I, J) order."""
    return triu_pairs(m, 2)


def _orient(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Twice the signed area of (a, b, c); > 0 for a counter-clockwise turn in x-right/y-up axes."""
    ab = b - a
    ac = c - a
    return ab[..., 0] * ac[..., 1] - ab[..., 1] * ac[..., 0]


def _eps(pts: np.ndarray) -> np.ndarray:
    """Collinearity tolerance per polyline of a stack (B, N, 2), relative to its coordinate scale."""
    scale = np.maximum(np.abs(pts).max(axis=(1, 2)), 1.0)
    return _REL_EPS * scale * scale


def _pair_signs(pts: np.ndarray):
    """Orientation signs for every non-adjacent segment pair of every polyline in a stack.

    Returns (I, J, s1, s2, s3, s4) where s1/s2 are the sides of segment J's endpoints relative to segment I
    and s3/s4 the sides of segment I's endpoints relative to segment J; each sign is -1, 0 or +1.
    """
    m = pts.shape[1] - 1
    i, j = _nonadjacent_pairs(m)
    a, b = pts[:, :-1], pts[:, 1:]
    ai, bi, aj, bj = a[:, i], b[:, i], a[:, j], b[:, j]
    eps = _eps(pts)[:, None]

    def sign(o):
        return np.where(o > eps, 1, np.where(o < -eps, -1, 0))

    return i, j, sign(_orient(ai, bi, aj)), sign(_orient(ai, bi, bj)), sign(_orient(aj, bj, ai)), sign(
        _orient(aj, bj, bi)
    )


def batch_crossing_mask(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Proper-crossing flags for a stack (B, N, 2): returns (I, J, mask (B, K)) over non-adjacent pairs."""
    i, j, s1, s2, s3, s4 = _pair_signs(pts)
    return i, j, (s1 * s2 < 0) & (s3 * s4 < 0)


def batch_crossing_counts(pts: np.ndarray) -> np.ndarray:
    """Number of proper crossings of each polyline in a stack (B, N, 2)."""
    if pts.shape[1] < 4:
        return np.zeros(pts.shape[0], dtype=np.int64)
    return batch_crossing_mask(pts)[2].sum(axis=1)


def find_crossings(points) -> list[Crossing]:
    """All proper crossings between non-adjacent segments, sorted by (seg_a, t).

    A crossing needs both segments to pass strictly through each other (0 < t < 1 and 0 < u < 1, decided
    with orientation predicates). Touching at an endpoint, collinear overlap or a segment running through
    a vertex are not crossings; see :func:`degenerate_contacts`.
    """
    p = _as_points(points)
    if len(p) < 4:
        return []
    i, j, mask = batch_crossing_mask(p[None])
    k = np.flatnonzero(mask[0])
    if k.size == 0:
        return []
    i, j = i[k], j[k]
    a, d = p[:-1], np.diff(p, axis=0)
    di, dj, w = d[i], d[j], a[j] - a[i]
    den = di[:, 0] * dj[:, 1] - di[:, 1] * dj[:, 0]
    t = (w[:, 0] * dj[:, 1] - w[:, 1] * dj[:, 0]) / den
    u = (w[:, 0] * di[:, 1] - w[:, 1] * di[:, 0]) / den
    pt = a[i] + t[:, None] * di
    cosang = np.abs((di * dj).sum(1)) / (np.hypot(*di.T) * np.hypot(*dj.T))
    ang = np.degrees(np.arccos(np.clip(cosang, 0.0, 1.0)))
    out = [
        Crossing(
            int(i[n]), int(j[n]), float(t[n]), float(u[n]), (float(pt[n, 0]), float(pt[n, 1])), float(ang[n])
        )
        for n in range(len(k))
    ]
    out.sort(key=lambda c: (c.seg_a, c.t))
    return out


def count_crossings(points) -> int:
    """Number of proper crossings (the stored ``self_intersections`` metric)."""
    p = _as_points(points)
    return int(batch_crossing_counts(p[None])[0])


def degenerate_contacts(points) -> int:
    """Count degenerate contacts: contacts between segments that are not proper crossings.

    Counted: non-adjacent segments that touch (an endpoint on the other segment, a segment passing through
    a vertex) or overlap collinearly; adjacent segments that fold back onto each other; zero-length segments.
    """
    p = _as_points(points)
    seg = np.diff(p, axis=0)
    eps = float(_eps(p[None])[0])
    count = int(np.count_nonzero(np.hypot(*seg.T) == 0.0))
    # adjacent segments folding back over each other (collinear, opposite directions)
    if len(seg) >= 2:
        cr = seg[:-1, 0] * seg[1:, 1] - seg[:-1, 1] * seg[1:, 0]
        dot = (seg[:-1] * seg[1:]).sum(1)
        count += int(np.count_nonzero((np.abs(cr) <= eps) & (dot < 0)))
    if len(p) < 4:
        return count
    i, j, s1, s2, s3, s4 = (x[0] if x.ndim == 2 else x for x in _pair_signs(p[None]))
    touching = (s1 * s2 <= 0) & (s3 * s4 <= 0)
    proper = (s1 * s2 < 0) & (s3 * s4 < 0)
    cand = touching & ~proper
    collinear = (s1 == 0) & (s2 == 0) & (s3 == 0) & (s4 == 0)
    # For collinear pairs the sign test says nothing; check that the projections overlap.
    for n in np.flatnonzero(cand & collinear):
        a0, a1, b0, b1 = p[i[n]], p[i[n] + 1], p[j[n]], p[j[n] + 1]
        ax = 0 if abs(a1[0] - a0[0]) >= abs(a1[1] - a0[1]) else 1
        lo_a, hi_a = sorted((a0[ax], a1[ax]))
        lo_b, hi_b = sorted((b0[ax], b1[ax]))
        if min(hi_a, hi_b) >= max(lo_a, lo_b):
            count += 1
    count += int(np.count_nonzero(cand & ~collinear))
    return count


# --------------------------------------------------------------------------------------------------------
# distances


def point_segment_distance(p, a, b) -> np.ndarray:
    """Distance from points ``p`` to segments ``a``-``b`` (all broadcast over leading axes, last axis 2)."""
    p, a, b = (np.asarray(x, dtype=np.float64) for x in (p, a, b))
    # on the x and y coordinates separately: the same arithmetic as on (..., 2) arrays, without numpy's slow
    # reductions over a last axis of length 2
    ax, ay = a[..., 0], a[..., 1]
    abx, aby = b[..., 0] - ax, b[..., 1] - ay
    apx, apy = p[..., 0] - ax, p[..., 1] - ay
    den = abx * abx + aby * aby
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(den > 0, (apx * abx + apy * aby) / den, 0.0)
    t = np.clip(t, 0.0, 1.0)
    qx = ax + t * abx - p[..., 0]
    qy = ay + t * aby - p[..., 1]
    return np.sqrt(qx * qx + qy * qy)


def segment_segment_distance(a1, b1, a2, b2) -> np.ndarray:
    """Minimum distance between segments a1-b1 and a2-b2 (broadcast; 0 where they touch or cross)."""
    a1, b1, a2, b2 = (np.asarray(x, dtype=np.float64) for x in (a1, b1, a2, b2))
    o1, o2 = _orient(a1, b1, a2), _orient(a1, b1, b2)
    o3, o4 = _orient(a2, b2, a1), _orient(a2, b2, b1)
    meet = (o1 * o2 < 0) & (o3 * o4 < 0)
    d = np.minimum(
        np.minimum(point_segment_distance(a1, a2, b2), point_segment_distance(b1, a2, b2)),
        np.minimum(point_segment_distance(a2, a1, b1), point_segment_distance(b2, a1, b1)),
    )
    return np.where(meet, 0.0, d)


# --------------------------------------------------------------------------------------------------------
# gates


GATE_CODES = (
    "extent",
    "segment_length",
    "vertex_gap",
    "hairpin",
    "degenerate",
    "segment_clearance",
    "dense_gap",
    "crossing_angle",
    "crossing_vertex",
    "crossing_crossing",
    "vertex_segment",
    "border",
)


def check_gates(points, profile: GateProfile = STRICT, *, fail_fast: bool = False) -> list[str]:
    """Run every render-aware acceptance gate on an already fitted polyline.

    Returns the codes of the failed gates in :data:`GATE_CODES` order (an empty list means accepted). With
    ``fail_fast`` it stops at the first failure (the generator's hot path).
    """
    p = _as_points(points)
    pr = profile
    n = len(p)
    m = n - 1
    failed: list[str] = []

    def fail(code: str) -> bool:
        failed.append(code)
        return fail_fast

    seg = np.diff(p, axis=0)
    seg_len = np.hypot(seg[:, 0], seg[:, 1])
    ext = p.max(0) - p.min(0)
    if ext.max() < pr.min_extent_frac * pr.view - _PX_TOL and fail("extent"):
        return failed
    if seg_len.min() < pr.min_segment_px - _PX_TOL and fail("segment_length"):
        return failed
    if n >= 3:
        vi, vj = triu_pairs(n, 2)
        dv = np.hypot(*(p[vi] - p[vj]).T)
        if dv.min() < pr.min_vertex_gap_px - _PX_TOL and fail("vertex_gap"):
            return failed
        turns = _turn_angles(seg[None])[0]
        if turns.max() > pr.max_turn_deg + 1e-9 and fail("hairpin"):
            return failed
    else:
        turns = np.zeros(0)
    if degenerate_contacts(p) > 0 and fail("degenerate"):
        return failed

    crossings = find_crossings(p)
    if m >= 3:
        i, j, cmask = batch_crossing_mask(p[None])
        cmask = cmask[0]
        a, b = p[:-1], p[1:]
        dseg = segment_segment_distance(a[i], b[i], a[j], b[j])
        free = ~cmask
        too_close = free.any() and dseg[free].min() < pr.min_segment_clearance_px - _PX_TOL
        if too_close and fail("segment_clearance"):
            return failed
    else:
        i = j = np.zeros(0, dtype=np.intp)
        dseg = np.zeros(0)
    if _dense_gap_fails(p, seg_len, turns, i, j, dseg, crossings, pr) and fail("dense_gap"):
        return failed

    cpts = np.array([c.point for c in crossings]).reshape(-1, 2)
    if (
        pr.min_crossing_angle_deg is not None
        and crossings
        and min(c.angle_deg for c in crossings) < pr.min_crossing_angle_deg
        and fail("crossing_angle")
    ):
        return failed
    if pr.min_crossing_vertex_px is not None and crossings:
        dcv = np.hypot(*(cpts[:, None, :] - p[None, :, :]).transpose(2, 0, 1))
        if dcv.min() < pr.min_crossing_vertex_px - _PX_TOL and fail("crossing_vertex"):
            return failed
    if pr.min_crossing_crossing_px is not None and len(crossings) >= 2:
        ci, cj = triu_pairs(len(crossings), 1)
        dcc = np.hypot(*(cpts[ci] - cpts[cj]).T)
        if dcc.min() < pr.min_crossing_crossing_px - _PX_TOL and fail("crossing_crossing"):
            return failed
    if pr.min_vertex_segment_px is not None and n >= 3:
        dvs = point_segment_distance(p[:, None, :], p[None, :-1, :], p[None, 1:, :])  # (N, M)
        k = np.arange(n)[:, None]
        s = np.arange(m)[None, :]
        nonincident = (s != k) & (s != k - 1)
        if dvs[nonincident].min() < pr.min_vertex_segment_px - _PX_TOL and fail("vertex_segment"):
            return failed
    if pr.border_px is not None and crossings:
        lo, hi = pr.border_px, pr.view - pr.border_px
        if (cpts.min() < lo or cpts.max() > hi) and fail("border"):
            return failed
    return failed


def _dense_gap_fails(p, seg_len, turns, pi, pj, dseg, crossings, pr: GateProfile) -> bool:
    """Dense nonlocal gap check (paper's ``use_dense_nonlocal_gap``).

    Conceptually: sample the curve every ``dense_step_px``; any two samples further apart along the path
    than ``dense_window_px`` must be at least ``min_dense_gap_px`` apart, unless one of them lies within
    ``crossing_mask_px`` of a true crossing. Only segment pairs that can violate this are sampled:
    adjacent pairs whose corner is sharp enough, crossing pairs whose angle is shallow enough, and
    non-crossing pairs that come closer than the gap. All other pairs pass by a distance bound.
    """
    gap, window, mask_r = pr.min_dense_gap_px, pr.dense_window_px, pr.crossing_mask_px
    cum = np.concatenate(([0.0], np.cumsum(seg_len)))
    cpts = np.array([c.point for c in crossings]).reshape(-1, 2)
    todo: list[tuple[int, int, float | None]] = []
    # Adjacent pairs: samples at distances a, b from the shared corner (interior angle alpha) are at least
    # (a + b) * sin(alpha / 2) apart, so a corner with window * sin(alpha / 2) >= gap cannot fail.
    for k, turn in enumerate(turns):
        alpha = math.radians(180.0 - float(turn))
        if window * math.sin(alpha / 2.0) < gap:
            todo.append((k, k + 1, None))
    by_pair = {(c.seg_a, c.seg_b): c for c in crossings}
    for n in np.flatnonzero(dseg < gap):
        a, b = int(pi[n]), int(pj[n])
        c = by_pair.get((a, b))
        if c is None:
            todo.append((a, b, None))
        else:
            # Away from the crossing point X a sample at distance r from X is >= r * sin(angle) from the
            # other segment; samples with r <= mask_r are exempt, so only shallow crossings need sampling.
            s = math.sin(math.radians(c.angle_deg))
            if mask_r * s < gap:
                todo.append((a, b, gap / max(s, 1e-12) + pr.dense_step_px))
    for a, b, radius in todo:
        qa, sa = _samples(p, cum, a, pr.dense_step_px)
        qb, sb = _samples(p, cum, b, pr.dense_step_px)
        if radius is not None:
            x = np.array(by_pair[(a, b)].point)
            keep_a = np.hypot(*(qa - x).T) <= radius
            keep_b = np.hypot(*(qb - x).T) <= radius
            qa, sa, qb, sb = qa[keep_a], sa[keep_a], qb[keep_b], sb[keep_b]
        if len(cpts):
            ok_a = np.hypot(*(qa[:, None, :] - cpts[None]).transpose(2, 0, 1)).min(1) > mask_r
            ok_b = np.hypot(*(qb[:, None, :] - cpts[None]).transpose(2, 0, 1)).min(1) > mask_r
            qa, sa, qb, sb = qa[ok_a], sa[ok_a], qb[ok_b], sb[ok_b]
        if len(qa) == 0 or len(qb) == 0:
            continue
        far = np.abs(sa[:, None] - sb[None, :]) > window
        d = np.hypot(qa[:, None, 0] - qb[None, :, 0], qa[:, None, 1] - qb[None, :, 1])
        if np.any(far & (d < gap)):
            return True
    return False


def _samples(p, cum, k: int, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points every <= ``step`` px along segment k (endpoints included) and their arc-length positions."""
    length = cum[k + 1] - cum[k]
    cnt = max(2, math.ceil(length / step) + 1)
    t = np.linspace(0.0, 1.0, cnt)
    return p[k] + t[:, None] * (p[k + 1] - p[k]), cum[k] + t * length
