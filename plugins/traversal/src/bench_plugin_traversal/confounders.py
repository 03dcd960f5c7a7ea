"""Confounding lines ("grey spurs") for the TraversalBench confound split (spec §2.3, paper §2.1 / §4.2).

A spur is one straight grey segment attached at the midpoint of a backbone segment, forming a T-junction
with the target path. Spurs are added to an already accepted backbone; the target path, its glyphs and its
metrics stay unchanged. This module places spurs (:func:`place_spurs`, :func:`place_paired_spurs`) and
re-checks a placement independently with shapely (:func:`check_spurs`).

Placement policy ``midpoint_glyphsafe`` (numbers read from the authors' released data and params):

* anchor at the midpoint (t = 0.5) of a backbone segment, falling back to t in 0.4, 0.6, 0.3, 0.7 where the
  midpoint cannot host a spur (:data:`ANCHOR_TS`); at most one spur per segment;
* length = clamp(0.8 x host segment length, 60, 100) px;
* direction perpendicular to the host segment (either side) first; when clearance fails, rotated away
  from perpendicular in 15-degree steps down to :data:`MIN_SPUR_ANGLE_DEG` to the host segment;
* anchor >= 20 px from every vertex, the whole spur >= 20.5 px from every glyph centre, the spur
  >= 10 px from the backbone outside its anchor region, spurs pairwise >= 12 px apart, no anchor within
  22 px of a true crossing, the spur never crosses the backbone, and the free end lies inside the canvas.

Two choices the data leaves open, fixed here:

* *Anchor region.* The first :data:`ANCHOR_REGION_PX` (20 px, the anchor-to-vertex distance) of a spur
  are exempt from the 10-px clearance to its *host* segment only (they must touch it at the anchor);
  clearance to every other backbone segment applies along the whole spur. With a 20-px region a 10-px
  clearance needs an angle of at least 30 degrees to the host, hence :data:`MIN_SPUR_ANGLE_DEG` = 30 (the
  published data goes down to ~15 degrees, but nearly all of its spurs are at 60 degrees or more).
* *Canvas.* Spur ends must lie inside [6, 666] px (:data:`SPUR_CANVAS_PAD`), not inside the 40.32-px
  margin of the backbone: a spur pointing outwards from a path that touches the margin would otherwise
  be impossible, and the released data even lets spurs leave the canvas. 6 px keeps the 3.2-px stroke
  and its cap fully visible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np
from shapely.geometry import LineString, Point

from bench_plugin_traversal.geometry import quantise_points

__all__ = [
    "ANCHOR_REGION_PX",
    "CONFOUND_WINDOWS",
    "MIN_SPUR_ANGLE_DEG",
    "SPUR_RULES",
    "SPUR_STYLE",
    "Spur",
    "SpursUnplaceable",
    "check_spurs",
    "place_paired_spurs",
    "place_spurs",
    "spur_length_for",
    "spur_passage_index",
]

#: Render style of a spur (authors' data: stroke #7a7a7a, 3.2 px).
SPUR_STYLE: dict[str, object] = {"stroke": "#7a7a7a", "width_px": 3.2}
#: Spur-count windows (inclusive) of the two confound conditions (``conf_low`` / ``conf_high``).
CONFOUND_WINDOWS: dict[str, tuple[int, int]] = {"low": (2, 4), "high": (5, 7)}

PLACEMENT_POLICY = "midpoint_glyphsafe"
ANCHOR_T = 0.5
#: Anchor positions tried on a segment, in order: the published policy's midpoint first; where the midpoint
#: is blocked (too near a crossing or a glyph, or no clear direction) an off-centre anchor inside the
#: published oblique mode's window [0.25, 0.75].  Dense high-crossing backbones rarely host 5-7 spurs at
#: midpoints alone, which starves paired acceptance; the released data solved that by breaking rules.
ANCHOR_TS = (0.5, 0.4, 0.6, 0.3, 0.7)
SPUR_LEN_FRAC = 0.8
SPUR_LEN_MIN_PX = 60.0
SPUR_LEN_MAX_PX = 100.0
MIN_ANCHOR_TO_VERTEX_PX = 20.0
GLYPH_EXCLUSION_PX = 20.5
MIN_SPUR_TO_BACKBONE_PX = 10.0
MIN_SPUR_TO_SPUR_PX = 12.0
AVOID_CROSSING_RADIUS_PX = 22.0
#: Length of the spur, from the anchor, that may stay closer than 10 px to its host segment.
ANCHOR_REGION_PX = 20.0
#: Smallest angle between a spur and its host segment that is tried (see module docstring).
MIN_SPUR_ANGLE_DEG = 30.0
#: Angles to the host segment tried, in order of preference (perpendicular first).
SPUR_ANGLES_DEG: tuple[float, ...] = (90.0, 75.0, 60.0, 45.0, 30.0)
VIEW_PX = 672.0
#: Spur ends must lie inside [SPUR_CANVAS_PAD, VIEW_PX - SPUR_CANVAS_PAD] on both axes.
SPUR_CANVAS_PAD = 6.0
#: Greedy passes (each over a fresh random segment order) before giving up.
MAX_PLACEMENT_PASSES = 24

#: Rule codes :func:`check_spurs` can return, in the order it reports them.
SPUR_RULES: tuple[str, ...] = (
    "spur_seg_idx",
    "spur_duplicate_segment",
    "spur_anchor_midpoint",
    "spur_length",
    "spur_angle",
    "spur_anchor_vertex",
    "spur_glyph_exclusion",
    "spur_anchor_crossing",
    "spur_crosses_backbone",
    "spur_backbone_clearance",
    "spur_spur_clearance",
    "spur_canvas",
)

# Slack on pixel thresholds so that float rounding never flips a rule between placement and re-check.
_TOL = 1e-6
# The placer keeps this much extra margin on every threshold, so that neither the rounding of a different
# algorithm in the independent (shapely) re-check nor the quantisation of the spur ends to the drawing grid
# (at most 0.0071 px per end) can flip a rule.
_SAFETY = 0.02
# Slack of the rules that hold exactly before quantisation (anchor on its host at anchor_t, spur length,
# the spur meeting the backbone only at its anchor): spur ends and backbone vertices are each quantised.
_QUANTUM_TOL = 0.05


class SpursUnplaceable(ValueError):
    """The backbone cannot host the requested number of spurs under the placement rules."""


def _tuple2(v) -> tuple[float, float]:
    x, y = v
    return (float(x), float(y))


@attrs.frozen
class Spur:
    """One grey spur: attached to backbone segment ``seg_idx`` at parameter ``anchor_t``.

    ``p0`` is the anchor (on the backbone), ``p1`` the free end, both in view pixels.
    """

    seg_idx: int = attrs.field(converter=int)
    anchor_t: float = attrs.field(converter=float)
    p0: tuple[float, float] = attrs.field(converter=_tuple2)
    p1: tuple[float, float] = attrs.field(converter=_tuple2)

    @property
    def length(self) -> float:
        """Length of the spur in pixels."""
        return math.hypot(self.p1[0] - self.p0[0], self.p1[1] - self.p0[1])

    def as_dict(self) -> dict:
        """JSON-friendly record ``{seg_idx, anchor_t, p0: [x, y], p1: [x, y]}``."""
        return {
            "seg_idx": self.seg_idx,
            "anchor_t": self.anchor_t,
            "p0": [self.p0[0], self.p0[1]],
            "p1": [self.p1[0], self.p1[1]],
        }

    @classmethod
    def from_dict(cls, d: dict) -> Spur:
        """Inverse of :meth:`as_dict`."""
        return cls(d["seg_idx"], d["anchor_t"], tuple(d["p0"]), tuple(d["p1"]))


def spur_length_for(host_len: float) -> float:
    """Spur length for a host segment of length ``host_len``: clamp(0.8 * host_len, 60, 100) px."""
    return float(min(max(SPUR_LEN_FRAC * host_len, SPUR_LEN_MIN_PX), SPUR_LEN_MAX_PX))


def spur_passage_index(spur: Spur) -> int:
    """Index of the first answer token the walker emits *after* passing ``spur``.

    Convention (spec §2.3): a spur on segment i is met between token i and token i + 1 (tokens are
    0-based, token k is the glyph on vertex k), so this returns ``seg_idx + 1``. Equivalently it is the
    number of tokens already listed when the spur is passed; "confounds encountered before token k" is
    the number of spurs with ``spur_passage_index(s) <= k``.
    """
    return spur.seg_idx + 1


# --------------------------------------------------------------------------------------------------------
# numpy helpers (placement hot path)


def _as_points(points) -> np.ndarray:
    p = np.asarray(points, dtype=np.float64)
    if p.ndim != 2 or p.shape[1] != 2 or p.shape[0] < 2:
        raise ValueError(f"points must have shape (N>=2, 2), got {p.shape}")
    if not np.all(np.isfinite(p)):
        raise ValueError("points must be finite")
    return p


def _as_crossings(crossing_points) -> np.ndarray:
    c = np.asarray(list(crossing_points) if crossing_points is not None else [], dtype=np.float64)
    return c.reshape(-1, 2)


def _pt_seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points p to segments a-b (broadcast over leading axes)."""
    ab = b - a
    den = (ab * ab).sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(den > 0, ((p - a) * ab).sum(-1) / den, 0.0)
    q = a + np.clip(t, 0.0, 1.0)[..., None] * ab - p
    return np.sqrt((q * q).sum(-1))


def _cross2(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _seg_seg_dist(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray:
    """Distance between segments a0-a1 and b0-b1 (broadcast); 0 where they cross."""
    o1, o2 = _cross2(a1 - a0, b0 - a0), _cross2(a1 - a0, b1 - a0)
    o3, o4 = _cross2(b1 - b0, a0 - b0), _cross2(b1 - b0, a1 - b0)
    crossing = (o1 * o2 < 0) & (o3 * o4 < 0)
    d = np.minimum(
        np.minimum(_pt_seg_dist(a0, b0, b1), _pt_seg_dist(a1, b0, b1)),
        np.minimum(_pt_seg_dist(b0, a0, a1), _pt_seg_dist(b1, a0, a1)),
    )
    return np.where(crossing, 0.0, d)


def _own_crossings(p: np.ndarray) -> np.ndarray:
    """Proper crossings of non-adjacent backbone segments (strictly inside both), shape (K, 2)."""
    m = len(p) - 1
    if m < 3:
        return np.zeros((0, 2))
    i, j = np.triu_indices(m, k=2)
    a, d = p[:-1], np.diff(p, axis=0)
    di, dj, w = d[i], d[j], a[j] - a[i]
    den = _cross2(di, dj)
    ok = den != 0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = _cross2(w, dj) / den
        u = _cross2(w, di) / den
    hit = ok & (t > 0) & (t < 1) & (u > 0) & (u < 1)
    return a[i[hit]] + t[hit, None] * di[hit]


# --------------------------------------------------------------------------------------------------------
# placement


def _candidates(rng: np.random.Generator, p: np.ndarray, crossings: np.ndarray):
    """All statically valid spur candidates per host segment, at the first anchor of :data:`ANCHOR_TS`
    that gives the segment any candidate.

    Returns ``{seg_idx: (anchor_t, p0 (2,), p1 (K, 2))}``.
    """
    out: dict[int, tuple[float, np.ndarray, np.ndarray]] = {}
    for anchor_t in ANCHOR_TS:
        for seg, (p0, p1) in _candidates_at(rng, p, crossings, anchor_t).items():
            out.setdefault(seg, (anchor_t, p0, p1))
    return out


def _candidates_at(rng: np.random.Generator, p: np.ndarray, crossings: np.ndarray, anchor_t: float):
    """All statically valid spur candidates anchored at ``anchor_t``, grouped per host segment.

    Returns ``{seg_idx: (p0 (2,), p1 (K, 2))}`` holding only candidates that satisfy every rule that does
    not involve other spurs. Candidate order within a segment: perpendicular (random side first), then
    15-degree rotations away from perpendicular with random side and tilt order.
    """
    a, b = p[:-1], p[1:]
    d = b - a
    seg_len = np.hypot(d[:, 0], d[:, 1])
    m = len(d)
    mid = a + anchor_t * d

    # anchor rules: distance to every vertex and to every true crossing
    eligible = seg_len > 0
    dv = np.hypot(*(mid[:, None, :] - p[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    eligible &= dv >= max(MIN_ANCHOR_TO_VERTEX_PX, GLYPH_EXCLUSION_PX) + _SAFETY
    if len(crossings):
        dc = np.hypot(*(mid[:, None, :] - crossings[None, :, :]).transpose(2, 0, 1)).min(axis=1)
        eligible &= dc >= AVOID_CROSSING_RADIUS_PX + _SAFETY
    segs = np.flatnonzero(eligible)
    if segs.size == 0:
        return {}

    # Direction table per segment: (side, angle, tilt) -> unit vector u = side*sin*n + tilt*cos*t.
    k = len(segs)
    tang = d[segs] / seg_len[segs, None]
    norm = np.stack([-tang[:, 1], tang[:, 0]], axis=1)
    side1 = np.where(rng.random(k) < 0.5, 1.0, -1.0)
    rows = []  # per preference slot: (side multiplier per segment, angle, tilt multiplier per segment)
    for ang in SPUR_ANGLES_DEG:
        if ang == 90.0:
            rows.append((side1, ang, np.zeros(k)))
            rows.append((-side1, ang, np.zeros(k)))
            continue
        order = rng.random((k, 4)).argsort(axis=1)  # random order of the 4 (side, tilt) combos
        combos = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
        for slot in range(4):
            c = combos[order[:, slot]]
            rows.append((c[:, 0], ang, c[:, 1]))
    n_slots = len(rows)
    u = np.empty((k, n_slots, 2))
    for s, (side, ang, tilt) in enumerate(rows):
        r = math.radians(ang)
        u[:, s] = side[:, None] * math.sin(r) * norm + tilt[:, None] * math.cos(r) * tang
    length = np.clip(SPUR_LEN_FRAC * seg_len[segs], SPUR_LEN_MIN_PX, SPUR_LEN_MAX_PX)
    p0 = mid[segs]
    p1 = p0[:, None, :] + length[:, None, None] * u  # (k, S, 2)

    lo, hi = SPUR_CANVAS_PAD + _SAFETY, VIEW_PX - SPUR_CANVAS_PAD - _SAFETY
    ok = np.all((p1 >= lo) & (p1 <= hi), axis=-1)

    # glyph exclusion: whole spur vs every vertex
    P0 = np.broadcast_to(p0[:, None, None, :], (k, n_slots, len(p), 2))
    P1 = p1[:, :, None, :]
    dg = _pt_seg_dist(p[None, None, :, :], P0, P1).min(axis=-1)
    ok &= dg >= GLYPH_EXCLUSION_PX + _SAFETY

    # backbone clearance: whole spur vs every non-host segment; beyond the anchor region vs the host
    A0 = p0[:, None, None, :]
    dseg = _seg_seg_dist(A0, P1, a[None, None, :, :], b[None, None, :, :])  # (k, S, m)
    host = segs[:, None, None] == np.arange(m)[None, None, :]
    dseg = np.where(host, np.inf, dseg)
    ok &= dseg.min(axis=-1) >= MIN_SPUR_TO_BACKBONE_PX + _SAFETY
    far0 = p0[:, None, :] + ANCHOR_REGION_PX * u
    dhost = _seg_seg_dist(far0, p1, a[segs][:, None, :], b[segs][:, None, :])
    ok &= dhost >= MIN_SPUR_TO_BACKBONE_PX + _SAFETY

    out = {}
    for r, s in enumerate(segs):
        good = np.flatnonzero(ok[r])
        if good.size:
            out[int(s)] = (p0[r], p1[r, good])
    return out


def place_spurs(
    rng: np.random.Generator, points, crossing_points: Sequence[Sequence[float]], count: int
) -> tuple[Spur, ...]:
    """Place exactly ``count`` spurs on the backbone ``points`` (policy ``midpoint_glyphsafe``).

    ``crossing_points`` are the backbone's true crossings (e.g. ``geometry.find_crossings``); the proper
    crossings are also recomputed here and the union is used, so an incomplete list cannot let an anchor
    sit on a crossing. Returns the spurs sorted by ``seg_idx``, their ends quantised to the drawing grid
    (``geometry.quantise_points``); every placement passes :func:`check_spurs`. Deterministic for a given
    ``rng`` state and draws only from ``rng``.

    Raises :class:`SpursUnplaceable` if no valid placement is found, ``ValueError`` for bad input.
    """
    count = int(count)
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    p = _as_points(points)
    if count == 0:
        return ()
    crossings = np.concatenate([_as_crossings(crossing_points), _own_crossings(p)])
    cands = _candidates(rng, p, crossings)
    if len(cands) < count:
        raise SpursUnplaceable(
            f"backbone with {len(p) - 1} segments has only {len(cands)} segment(s) that can host a spur "
            f"(midpoint >= {GLYPH_EXCLUSION_PX} px from every vertex, >= {AVOID_CROSSING_RADIUS_PX} px "
            f"from crossings, and a direction with enough clearance); {count} requested"
        )
    host_ids = np.array(sorted(cands))
    for _ in range(MAX_PLACEMENT_PASSES):
        chosen: list[tuple[int, float, np.ndarray, np.ndarray]] = []
        for s in rng.permutation(host_ids):
            anchor_t, p0, p1s = cands[int(s)]
            if chosen:
                c0 = np.array([c[2] for c in chosen])
                c1 = np.array([c[3] for c in chosen])
                dd = _seg_seg_dist(p0[None, None, :], p1s[:, None, :], c0[None, :, :], c1[None, :, :])
                good = np.flatnonzero(dd.min(axis=1) >= MIN_SPUR_TO_SPUR_PX + _SAFETY)
                if good.size == 0:
                    continue
                pick = p1s[good[0]]
            else:
                pick = p1s[0]
            chosen.append((int(s), anchor_t, p0, pick))
            if len(chosen) == count:
                chosen.sort(key=lambda c: c[0])
                return tuple(Spur(s_, t_, *quantise_points([a_, b_])) for s_, t_, a_, b_ in chosen)
    raise SpursUnplaceable(
        f"could not place {count} mutually clear spurs on {len(cands)} candidate segment(s) "
        f"after {MAX_PLACEMENT_PASSES} passes (spurs must be >= {MIN_SPUR_TO_SPUR_PX} px apart)"
    )


def place_paired_spurs(
    rng: np.random.Generator, points, crossing_points: Sequence[Sequence[float]]
) -> dict[str, tuple[Spur, ...]]:
    """Place both confound variants of one backbone (paired acceptance).

    Draws the spur count uniformly within each window of :data:`CONFOUND_WINDOWS` (low first, then high)
    and places each variant independently, so the low set need not be a subset of the high set. Returns
    ``{"low": spurs, "high": spurs}``; raises :class:`SpursUnplaceable` if either variant fails, so a
    source backbone yields both variants or none.
    """
    counts = {name: int(rng.integers(lo, hi + 1)) for name, (lo, hi) in CONFOUND_WINDOWS.items()}
    return {name: place_spurs(rng, points, crossing_points, n) for name, n in counts.items()}


# --------------------------------------------------------------------------------------------------------
# independent re-check (shapely)


def _shapely_crossings(p: np.ndarray) -> list[tuple[float, float]]:
    """Proper crossings between non-adjacent segments, found with shapely (interior of both segments)."""
    segs = [LineString([p[k], p[k + 1]]) for k in range(len(p) - 1)]
    out = []
    for i in range(len(segs)):
        for j in range(i + 2, len(segs)):
            if not segs[i].crosses(segs[j]):
                continue
            x = segs[i].intersection(segs[j])
            if x.geom_type == "Point":
                out.append((x.x, x.y))
    return out


def check_spurs(points, crossing_points: Sequence[Sequence[float]], spurs: Sequence[Spur]) -> list[str]:
    """Re-check every placement rule for ``spurs`` on backbone ``points``; return the failed rule codes.

    Independent of the placer: distances and intersections come from shapely, and the backbone's
    crossings are recomputed (the union with ``crossing_points`` is used). Codes are from
    :data:`SPUR_RULES`, each at most once, in that order; an empty list means the placement is valid.
    """
    p = _as_points(points)
    m = len(p) - 1
    failed: set[str] = set()
    backbone = LineString(p)
    glyphs = [Point(v) for v in p]
    crossings = [Point(c) for c in _as_crossings(crossing_points)] + [Point(c) for c in _shapely_crossings(p)]
    lines = []
    seen: set[int] = set()
    for sp in spurs:
        a0, a1 = np.array(sp.p0), np.array(sp.p1)
        line = LineString([a0, a1]) if sp.length > 0 else None
        lines.append(line)
        if not 0 <= sp.seg_idx < m:
            failed.add("spur_seg_idx")
            continue
        if sp.seg_idx in seen:
            failed.add("spur_duplicate_segment")
        seen.add(sp.seg_idx)
        h0, h1 = p[sp.seg_idx], p[sp.seg_idx + 1]
        host = LineString([h0, h1])
        at = h0 + sp.anchor_t * (h1 - h0)
        if sp.anchor_t not in ANCHOR_TS or np.hypot(*(a0 - at)) > _QUANTUM_TOL:
            failed.add("spur_anchor_midpoint")
        if abs(sp.length - spur_length_for(host.length)) > _QUANTUM_TOL:
            failed.add("spur_length")
        if line is None:
            continue
        dh, ds = h1 - h0, a1 - a0
        cosang = abs(float(dh @ ds)) / (np.hypot(*dh) * np.hypot(*ds)) if host.length > 0 else 1.0
        if math.degrees(math.acos(min(1.0, cosang))) < MIN_SPUR_ANGLE_DEG - 1e-6:
            failed.add("spur_angle")
        anchor = Point(a0)
        if min(anchor.distance(g) for g in glyphs) < MIN_ANCHOR_TO_VERTEX_PX - _TOL:
            failed.add("spur_anchor_vertex")
        if min(line.distance(g) for g in glyphs) < GLYPH_EXCLUSION_PX - _TOL:
            failed.add("spur_glyph_exclusion")
        if crossings and min(anchor.distance(c) for c in crossings) < AVOID_CROSSING_RADIUS_PX - _TOL:
            failed.add("spur_anchor_crossing")
        # The spur may meet the backbone only at its anchor.
        touch = line.intersection(backbone)
        if not touch.difference(anchor.buffer(2 * _QUANTUM_TOL)).is_empty:
            failed.add("spur_crosses_backbone")
        # Clearance: whole spur vs all other segments; the part beyond the anchor region vs the host.
        others = [LineString([p[k], p[k + 1]]) for k in range(m) if k != sp.seg_idx]
        if others and min(line.distance(o) for o in others) < MIN_SPUR_TO_BACKBONE_PX - _TOL:
            failed.add("spur_backbone_clearance")
        if sp.length > ANCHOR_REGION_PX:
            far = LineString([a0 + ANCHOR_REGION_PX * ds / np.hypot(*ds), a1])
            if far.distance(host) < MIN_SPUR_TO_BACKBONE_PX - _TOL:
                failed.add("spur_backbone_clearance")
        lo, hi = SPUR_CANVAS_PAD, VIEW_PX - SPUR_CANVAS_PAD
        if not all(lo - _TOL <= c <= hi + _TOL for c in (*sp.p0, *sp.p1)):
            failed.add("spur_canvas")
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            li, lj = lines[i], lines[j]
            if li is not None and lj is not None and li.distance(lj) < MIN_SPUR_TO_SPUR_PX - _TOL:
                failed.add("spur_spur_clearance")
    return [code for code in SPUR_RULES if code in failed]
