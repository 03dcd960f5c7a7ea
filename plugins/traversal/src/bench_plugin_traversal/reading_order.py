"""Layouts for the auxiliary reading-order benchmark (TraversalBench spec §2.4, paper §4.3 and Fig. 7).

One unbranched, non-crossing path is laid out in parallel *lanes* that are read in a fixed scan order:

* ``ltr_tb``: left to right within a horizontal lane, lanes stacked top to bottom;
* ``rtl_tb``: right to left within a horizontal lane, lanes top to bottom;
* ``ttb_lr``: top to bottom within a vertical lane, lanes progress left to right;
* ``ttb_rl``: top to bottom within a vertical lane, lanes progress right to left.

Lanes are joined either ``raster`` (every lane runs in the regime's direction and one long "carriage
return" segment joins the end of lane k to the start of lane k + 1) or ``serpentine`` (boustrophedon:
every other lane runs backwards, joined by a short turn at the lane ends). Vertex 0 is the regime's
reading start corner. Every layout is fitted to the 672-px view with the 6 % margin and passes the
STRICT render-aware gates of :mod:`bench_plugin_traversal.geometry` with no self-crossing.

The layout is built in a canonical frame (``a`` = position along a lane in reading direction, ``c`` =
position across lanes in lane order) and then mapped to image axes per regime; the gates are invariant
under that mapping, so one construction serves all four regimes.
"""

from __future__ import annotations

import numpy as np

from .geometry import STRICT, check_gates, find_crossings, fit_to_view, quantise_points

__all__ = [
    "CONNECTORS",
    "LANE_COUNTS",
    "REGIMES",
    "VERTEX_COUNTS",
    "ReadingOrderUnplaceable",
    "lane_of_vertex",
    "lane_sizes",
    "layout_reading_order",
]

REGIMES: tuple[str, ...] = ("ltr_tb", "rtl_tb", "ttb_lr", "ttb_rl")
LANE_COUNTS: tuple[int, ...] = (2, 3, 4)
VERTEX_COUNTS: tuple[int, ...] = (9, 11, 13, 15, 17)
CONNECTORS: tuple[str, ...] = ("raster", "serpentine")

VIEW = 672
MARGIN_FRAC = 0.06
_INNER = VIEW * (1.0 - 2.0 * MARGIN_FRAC)  # 591.36 px: side of the window the fitted path spans
#: Perpendicular jitter amplitude as a fraction of the lane spacing (spec: at most 0.25).
JITTER_FRAC = 0.15
#: Within-lane gaps are the even gap times a factor drawn from this range, then renormalised.
GAP_FACTOR_RANGE = (0.8, 1.2)
#: Lane ends may start/stop short of the full width by up to this fraction of the width.
END_INSET_FRAC = 0.05
#: Near the lane end/start served by a raster return, vertices are only jittered away from the return.
#: Fraction of the lane width (from that end) over which this holds.
CORRIDOR_SIDE_FRAC = 0.5
MAX_ATTEMPTS = 200
_MIN_SEG_PX = STRICT.min_segment_px  # 40 px


class ReadingOrderUnplaceable(ValueError):
    """The requested (regime, lanes, vertices, connector) combination cannot be laid out."""


def lane_sizes(vertices: int, lanes: int) -> tuple[int, ...]:
    """Vertices per lane: as even as possible, earlier lanes take the extra ones."""
    base, extra = divmod(int(vertices), int(lanes))
    return tuple(base + (1 if k < extra else 0) for k in range(int(lanes)))


def lane_of_vertex(vertices: int, lanes: int) -> np.ndarray:
    """Lane index (0 = first lane read) of each vertex along the path, shape (vertices,)."""
    return np.repeat(np.arange(int(lanes)), lane_sizes(vertices, lanes))


def _validate(regime: str, lanes: int, vertices: int, connector: str) -> tuple[int, ...]:
    if regime not in REGIMES:
        raise ValueError(f"unknown regime {regime!r}; expected one of {REGIMES}")
    if connector not in CONNECTORS:
        raise ValueError(f"unknown connector {connector!r}; expected one of {CONNECTORS}")
    if lanes < 1 or vertices < 2:
        raise ValueError(f"need lanes >= 1 and vertices >= 2, got lanes={lanes}, vertices={vertices}")
    sizes = lane_sizes(vertices, lanes)
    if min(sizes) < 2:
        raise ReadingOrderUnplaceable(
            f"{vertices} vertices in {lanes} lanes leaves a lane with fewer than 2 vertices {sizes}"
        )
    # Shortest possible within-lane gap (all lane-end insets and gap factors at their worst).
    width = _INNER * (1.0 - 2.0 * END_INSET_FRAC)
    lo, hi = GAP_FACTOR_RANGE
    worst_gap = width / (max(sizes) - 1) * lo / hi
    if worst_gap < _MIN_SEG_PX:
        raise ReadingOrderUnplaceable(
            f"{max(sizes)} vertices in one lane of a {VIEW}px view give gaps down to {worst_gap:.1f}px "
            f"< {_MIN_SEG_PX}px minimum segment length ({vertices} vertices in {lanes} lanes)"
        )
    spacing = _INNER / max(lanes - 1 + 2.0 * JITTER_FRAC, 1.0)
    if lanes > 1 and spacing * (1.0 - 2.0 * JITTER_FRAC) < _MIN_SEG_PX:
        raise ReadingOrderUnplaceable(f"{lanes} lanes are too close together in a {VIEW}px view")
    return sizes


def _canonical(rng: np.random.Generator, sizes: tuple[int, ...], connector: str) -> np.ndarray:
    """One proposal in the canonical frame: column 0 = along the lane (reading direction), column 1 =
    across lanes (lane order). Both lie inside [0, _INNER]."""
    lanes = len(sizes)
    w = _INNER
    spacing = w / max(lanes - 1 + 2.0 * JITTER_FRAC, 1.0)
    jit = JITTER_FRAC * spacing
    centres = jit + spacing * np.arange(lanes) if lanes > 1 else np.array([0.5 * w])
    out = []
    for k, n in enumerate(sizes):
        start = rng.uniform(0.0, END_INSET_FRAC * w)
        stop = w - rng.uniform(0.0, END_INSET_FRAC * w)
        gaps = rng.uniform(*GAP_FACTOR_RANGE, size=n - 1)
        a = start + (stop - start) * np.concatenate(([0.0], np.cumsum(gaps))) / gaps.sum()
        c = rng.uniform(-jit, jit, size=n)
        if connector == "raster":
            # The return from lane k's end (a ~ w) to lane k+1's start (a ~ 0) crosses the band between
            # them diagonally. Vertices near that end of lane k are jittered away from the band (up),
            # vertices near the start of lane k+1 away from it (down), so the diagonal keeps clear of
            # glyphs it does not visit and the turns at both of its ends stay well below 170 degrees.
            rel = (a - a[0]) / max(a[-1] - a[0], 1e-9)
            if k < lanes - 1:
                near_end = rel >= 1.0 - CORRIDOR_SIDE_FRAC
                c[near_end] = -np.abs(c[near_end])
                c[-1] = 0.5 * c[-1]  # a calmer end vertex keeps the return's slope steady
            if k > 0:
                near_start = rel <= CORRIDOR_SIDE_FRAC
                c[near_start] = np.abs(c[near_start])
                c[0] = 0.5 * c[0]
        else:
            if k % 2 == 1:  # boustrophedon: odd lanes run backwards
                a = w - a
        out.append(np.stack([a, centres[k] + c], axis=1))
    return np.concatenate(out, axis=0)


def _to_regime(q: np.ndarray, regime: str) -> np.ndarray:
    """Map canonical (along, across) coordinates to image (x, y), y down."""
    a, c = q[:, 0], q[:, 1]
    w = _INNER
    if regime == "ltr_tb":
        x, y = a, c
    elif regime == "rtl_tb":
        x, y = w - a, c
    elif regime == "ttb_lr":
        x, y = c, a
    else:  # ttb_rl
        x, y = w - c, a
    return np.stack([x, y], axis=1)


def layout_reading_order(
    rng: np.random.Generator, regime: str, lanes: int, vertices: int, connector: str = "raster"
) -> np.ndarray:
    """Lay out one reading-order path; returns fitted view-pixel points of shape (vertices, 2), quantised to
    the drawing grid (``geometry.quantise_points``) before the gates run.

    Vertices are split over ``lanes`` as by :func:`lane_sizes` (path order = lane order, see
    :func:`lane_of_vertex`). Within a lane they advance in the regime's reading direction with irregular
    spacing and perpendicular jitter of at most ``JITTER_FRAC`` (0.15 <= 0.25) of the lane spacing;
    with ``connector="serpentine"`` odd lanes run backwards. Vertex 0 sits at the regime's start corner
    (top-left for ``ltr_tb``/``ttb_lr``, top-right for ``rtl_tb``/``ttb_rl``). The result has no
    self-crossing and passes ``geometry.check_gates(points, STRICT)``. Deterministic for a given ``rng``
    state; draws only from ``rng``.

    Raises :class:`ReadingOrderUnplaceable` if the combination cannot be laid out (too many vertices
    per lane, a lane with fewer than 2 vertices, or no valid proposal in ``MAX_ATTEMPTS`` tries), and
    ``ValueError`` for unknown regimes or connectors.
    """
    lanes, vertices = int(lanes), int(vertices)
    sizes = _validate(regime, lanes, vertices, connector)
    last: list[str] = []
    for _ in range(MAX_ATTEMPTS):
        p = quantise_points(fit_to_view(_to_regime(_canonical(rng, sizes, connector), regime), VIEW, MARGIN_FRAC))
        last = check_gates(p, STRICT, fail_fast=True)
        if not last and not find_crossings(p):
            return p
    raise ReadingOrderUnplaceable(
        f"no valid {regime}/{connector} layout with {vertices} vertices in {lanes} lanes after "
        f"{MAX_ATTEMPTS} attempts (last failed gates: {last or ['self_crossing']})"
    )
