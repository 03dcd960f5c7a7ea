"""The visibility certifier: automatic gates standing in for the paper's manual curation of counting plots.

The paper's authors looked at every counting plot and kept it only if the numeric count "exactly matched
the number of clearly visible features" (paper §3.2.1 and appendix A.3).  The gates below turn their
criteria into numbers (spec §2.3 "Manual curation"); a plot is certified only if every extremum of the
asked kind(s) passes every gate, because one doubtful feature makes the whole count doubtful.  The gates
judge the function as drawn for *every* style (colour range and contour levels are the same in all nine),
so one certified function serves all nine renderings.

Reason codes (each rejection carries one or more):

``border_unstable``
    an extremum lies within 3% of the plot width of an edge, inside or outside: the count changes when the
    domain shrinks or grows by 3% (spec §2.3 "Boundary"; the paper's prompt rule 2 and its reviewers'
    "features near the plot boundary").
``not_strict``
    a refined candidate is not a strict local extremum (a degenerate or flat top).
``plateau``
    the rendered grid has a flat top that no point extremum explains (prompt rule 3 counts a plateau as
    one feature; our ground truth counts points, so such plots are left out).
``grid_disagreement``
    the render grid's own extremum count (the paper's ``peak_local_max`` with ``min_distance`` 2, i.e. a
    5 x 5 window) or positions differ from the refined count (spec §2.3 "Agreement").
``too_close``
    two extrema of one kind are less than 12 rendered pixels apart (spec §2.3 "Separation").
``low_prominence``
    an extremum's topographic prominence on the render grid is below 6% of the colour range, about 15 of a
    colour map's 256 colours (spec §2.3 "Heatmap visibility": a peak must fade before a neighbour brightens).
``no_contour_ring``
    no contour level draws a closed ring around the extremum alone (spec §2.3 "Contour visibility": the
    highest level below a maximum, or lowest above a minimum, must enclose it and no other extremum, and
    must not run into the plot edge).

Connectivity ("which extrema share a superlevel component") is read from contourpy's filled polygons of
{z >= level}: a point is in a component exactly when it lies inside the component's outer boundary and
outside its holes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from bench_plugin_marvl.extrema import (
    BAND,
    Analysis,
    Extremum,
    box_max,
    cells_of,
    edge_distance,
    flat_structure,
    window_extrema,
    window_tops,
)

#: Every reason code the certifier can give, in the order the gates run.
REASONS = ("border_unstable", "not_strict", "plateau", "grid_disagreement", "too_close", "low_prominence",
           "no_contour_ring")
#: Smallest prominence, as a fraction of the colour range (spec §2.3 p_min = 6%).
PROMINENCE = 0.06
#: Smallest distance between two extrema of one kind in rendered pixels (spec §2.3).
MIN_SEPARATION_PX = 12.0
#: Largest distance (render-grid samples) between a refined extremum and its render-grid extremum.
MATCH_SAMPLES = 2.5
#: Window radius of the render-grid count (paper's min_distance 10 on 2000 samples, scaled to 400).
WINDOW_RADIUS = 2
#: A grid with more window extrema than this is flat noise, not a countable landscape.
MAX_WINDOW_HITS = 400


@attrs.frozen
class Verdict:
    """The certifier's decision for one plot: accepted or not, why not, and how close the call was."""

    accepted: bool
    #: Reason code -> number of extrema (or 1 for a whole-plot reason) that failed that gate.
    reasons: Mapping[str, int] = attrs.field(converter=dict)
    #: Counted extrema over the asked kinds.
    count: int
    #: Smallest separation (px) between counted extrema of one kind and smallest edge distance (fraction of
    #: the plot size) of any extremum found, for the record of accepted items.
    margins: Mapping[str, float] = attrs.field(converter=dict, factory=dict)

    def codes(self) -> list[str]:
        """The reason codes, in gate order."""
        return [code for code in REASONS if code in self.reasons]


def rejection_counts(records: Iterable[Mapping[str, Any]]) -> Counter[str]:
    """Add up reason codes over item metadata (``metadata["certifier"]["rejected"]``), verdicts' reasons or
    plain ``{code: n}`` mappings; for reporting how often each gate fired."""
    total: Counter[str] = Counter()
    for record in records:
        if isinstance(record, Verdict):
            total.update({code: 1 for code in record.reasons})
            continue
        rejected = record.get("certifier", {}).get("rejected") if "certifier" in record else record
        for code, n in (rejected or {}).items():
            total[code] += int(n)
    return total


#: Half-width (samples) of the first window a component is looked for in (``_Components.component``); the
#: window doubles until it holds the whole component.
COMPONENT_WINDOW = 16


class _Components:
    """Superlevel components of one field (z for maxima, -z for minima) at any level.

    ``component`` answers with the first of contourpy's filled polygons of {g >= level} over the whole grid
    whose boundary loops enclose the point (matplotlib's ``contains_point`` tests a point against every loop
    of a path, holes included, so a polygon whose hole holds the point encloses it too).  It traces a window
    of the grid around the point instead of the whole grid where that gives the same polygon, which is the
    common case and a fraction of the work (see ``_windowed``)."""

    def __init__(self, xs: np.ndarray, ys: np.ndarray, g: np.ndarray) -> None:
        self.xs, self.ys, self.g = xs, ys, g
        self.cache: dict[tuple[float, tuple[int, int, int, int]], tuple[list[np.ndarray], list[np.ndarray],
                                                                        np.ndarray]] = {}
        self.tol = 1e-9 * max(xs[-1] - xs[0], ys[-1] - ys[0])
        self.generators: dict[tuple[int, int, int, int], Any] = {}

    def _filled(self, level: float, window: tuple[int, int, int, int]
                ) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
        """contourpy's filled polygons of {g >= level} over the samples ``window`` = (row from, row to, column
        from, column to) and their bounding boxes; cached."""
        key = (level, window)
        if key not in self.cache:
            generator = self.generators.get(window)
            if generator is None:  # one generator per window serves every level traced over it
                r0, r1, c0, c1 = window
                generator = _filled_generator(self.xs[c0:c1], self.ys[r0:r1], self.g[r0:r1, c0:c1])
                self.generators[window] = generator
            points, codes = generator.filled(level, np.inf)
            boxes = np.array([[p[:, 0].min(), p[:, 0].max(), p[:, 1].min(), p[:, 1].max()] for p in points])
            self.cache[key] = (points, codes, boxes.reshape(-1, 4))
        return self.cache[key]

    def component(self, level: float, point: np.ndarray, at: tuple[int, int] | None = None
                  ) -> tuple[Any, bool] | None:
        """The component of {g >= level} holding ``point``: (matplotlib path, whether its outer boundary
        runs along the grid edge), or None.  ``at`` = (row, col) of the sample at ``point`` lets a window
        around it be traced instead of the whole grid (``_windowed``)."""
        found = None if at is None else self._windowed(level, point, at)
        if found is None:
            hits = self._enclosing(level, point, (0, *self.g.shape[:1], 0, self.g.shape[1]))
            found = hits[0] if hits else None
        return None if found is None else (found[0], found[1])

    def _windowed(self, level: float, point: np.ndarray, at: tuple[int, int]) -> tuple[Any, bool, bool] | None:
        """``component`` traced over a window around sample ``at`` (half-width ``COMPONENT_WINDOW``, doubled
        while needed), or None where only the whole grid can tell.

        The window's answer is the whole grid's when exactly one of its polygons encloses the point, that
        polygon's outer boundary keeps off the window's edges inside the grid, and some ray from the point
        along its grid row or column meets no sample at or above the level outside that boundary.  Then the
        polygon is a whole component (every piece of a filled contour depends on the four samples of its quad
        alone, and every quad of it and of its holes is in the window), so the whole grid draws it alike; no
        other polygon encloses it (one would put a sample at or above the level on every such ray outside
        it: where the ray leaves that polygon's outer boundary, or where the boundary runs along the grid's
        edge); and none inside it encloses the point (it would be in the window too)."""
        rows, cols = self.g.shape
        r, c = at
        radius = COMPONENT_WINDOW
        while True:
            window = (max(0, r - radius), min(rows, r + radius + 1), max(0, c - radius), min(cols, c + radius + 1))
            if window == (0, rows, 0, cols):
                return None
            hits = self._enclosing(level, point, window)
            if len(hits) > 1:
                return None
            if len(hits) == 1 and not hits[0][2]:
                return hits[0] if self._open_ray(level, at, hits[0][3]) else None
            radius *= 2

    def _open_ray(self, level: float, at: tuple[int, int], outer: np.ndarray) -> bool:
        """Whether one of the four rays from sample ``at`` along its grid row or column to the grid's edge meets
        no sample at or above ``level`` outside the closed loop ``outer``."""
        from matplotlib.path import Path

        r, c = at
        g, xs, ys = self.g, self.xs, self.ys
        loop = Path(outer)
        rays = ((g[r, c + 1:], xs[c + 1:], None), (g[r, :c], xs[:c], None),
                (g[r + 1:, c], None, ys[r + 1:]), (g[:r, c], None, ys[:r]))
        for values, along_x, along_y in rays:
            high = np.flatnonzero(values >= level)
            if not high.size:
                return True
            x = along_x[high] if along_x is not None else np.full(high.size, xs[c])
            y = along_y[high] if along_y is not None else np.full(high.size, ys[r])
            if loop.contains_points(np.stack([x, y], axis=1)).all():
                return True
        return False

    def _enclosing(self, level: float, point: np.ndarray, window: tuple[int, int, int, int]
                   ) -> list[tuple[Any, bool, bool, np.ndarray]]:
        """Every polygon of {g >= level} over ``window`` whose loops enclose ``point``, in contourpy's order:
        (path, whether its outer boundary runs along the grid edge, whether it runs along an edge of the
        window inside the grid, the outer boundary)."""
        from matplotlib.path import Path

        points, codes, boxes = self._filled(level, window)
        candidates = np.flatnonzero((boxes[:, 0] <= point[0]) & (point[0] <= boxes[:, 1])
                                    & (boxes[:, 2] <= point[1]) & (point[1] <= boxes[:, 3]))
        xs, ys, tol = self.xs, self.ys, self.tol
        r0, r1, c0, c1 = window
        found = []
        for i in candidates:
            path = Path(points[i], codes[i])
            if not path.contains_point(point):
                continue
            code = codes[i]
            close = np.flatnonzero(code == Path.CLOSEPOLY)
            outer = points[i][: int(close[0]) + 1] if close.size else points[i]
            edge = bool(
                (np.abs(outer[:, 0] - xs[0]) <= tol).any() or (np.abs(outer[:, 0] - xs[-1]) <= tol).any()
                or (np.abs(outer[:, 1] - ys[0]) <= tol).any() or (np.abs(outer[:, 1] - ys[-1]) <= tol).any()
            )
            cut = bool(
                (c0 > 0 and (np.abs(outer[:, 0] - xs[c0]) <= tol).any())
                or (c1 < len(xs) and (np.abs(outer[:, 0] - xs[c1 - 1]) <= tol).any())
                or (r0 > 0 and (np.abs(outer[:, 1] - ys[r0]) <= tol).any())
                or (r1 < len(ys) and (np.abs(outer[:, 1] - ys[r1 - 1]) <= tol).any())
            )
            found.append((path, edge, cut, outer))
            if window == (0, len(ys), 0, len(xs)):
                break  # the whole grid: the first is the answer
        return found


def _filled_generator(xs: np.ndarray, ys: np.ndarray, g: np.ndarray) -> Any:
    """contourpy's serial generator of filled contours (outer boundaries with their holes) of ``g`` on the tensor
    grid ``xs`` x ``ys``: what ``contourpy.contour_generator(xs, ys, g, name="serial", fill_type="OuterCode")``
    makes, built without that function's argument checks where ``g`` is finite (no mask; the checks cost twice
    what tracing a small window does), which are the settings it would pass."""
    import contourpy

    x = np.asarray(xs, dtype=np.float64)
    y = np.asarray(ys, dtype=np.float64)
    z = np.ascontiguousarray(g, dtype=np.float64)
    if z.ndim == 2 and z.shape == (len(y), len(x)) and min(z.shape) >= 2 and np.isfinite(z).all():
        cls = contourpy.SerialContourGenerator
        # np.meshgrid(x, y), filled in place (its argument handling costs more than a small window's copy)
        grid_x = np.empty(z.shape)
        grid_x[...] = x
        grid_y = np.empty(z.shape)
        grid_y[...] = y[:, None]
        try:
            return cls(grid_x, grid_y, z, None, corner_mask=cls.supports_corner_mask(),
                       line_type=cls.default_line_type, fill_type=contourpy.FillType.OuterCode, quad_as_tri=False,
                       z_interp=contourpy.ZInterp.Linear, x_chunk_size=0, y_chunk_size=0)
        except TypeError:  # another contourpy's constructor: the public route below
            pass
    return contourpy.contour_generator(x, y, g, name="serial", fill_type="OuterCode")


def _sign(kind: str) -> float:
    return 1.0 if kind == "maxima" else -1.0


def certify(analysis: Analysis, kinds: Sequence[str] | frozenset[str], *, levels: Sequence[float],
            vmin: float | None = None, vmax: float | None = None, px_per_sample: float) -> Verdict:
    """Run every gate on the extrema of ``kinds`` of ``analysis``.

    ``levels`` are the contour levels the renderer draws, ``vmin``/``vmax`` its colour range (default: the
    range of the render grid) and ``px_per_sample`` the rendered size of one grid sample in pixels."""
    z = analysis.z
    xs, ys = analysis.xs, analysis.ys
    vmin = float(z.min()) if vmin is None else float(vmin)
    vmax = float(z.max()) if vmax is None else float(vmax)
    span = vmax - vmin
    hx, hy = analysis.spacing
    reasons: Counter[str] = Counter()
    margins: dict[str, float] = {}
    count = 0
    for kind in kinds:
        s = _sign(kind)
        found = analysis.of(kind)
        counted = analysis.counted(kind)
        count += len(counted)
        if found:
            # margins for the record, from the recorded (4-decimal) positions: reproducible on any CPU
            recorded_edges = (abs(float(edge_distance(*e.as_json(), analysis.extent))) for e in found)
            margins["edge"] = min(margins.get("edge", math.inf), min(recorded_edges))
        # border_unstable / not_strict: what the refinement says about every candidate near the plot
        reasons["border_unstable"] += sum(1 for e in found if e.zone == "band")
        reasons["not_strict"] += sum(1 for e in found if not e.strict and e.zone != "outside")
        if analysis.flat.get(kind, 0):
            reasons["plateau"] += 1
        g = s * z
        # grid_disagreement: the render grid's own count and positions
        hits = _window_hits(z, kind, analysis.unflat)
        if hits is None:
            reasons["plateau"] += 1
            hits = np.zeros((0, 2), dtype=int)
        hx_pos, hy_pos = xs[hits[:, 1]], ys[hits[:, 0]]
        interior = edge_distance(hx_pos, hy_pos, analysis.extent) >= BAND
        grid_points = np.stack([hx_pos[interior], hy_pos[interior]], axis=1)
        reasons["grid_disagreement"] += _disagreement(grid_points, counted, found, hx, hy)
        # too_close
        if len(counted) > 1:
            pts = np.array([[e.x / hx, e.y / hy] for e in counted])
            d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1]) * px_per_sample
            d[np.diag_indices(len(counted))] = np.inf
            closest = d.min(axis=1)
            recorded = np.array([e.as_json() for e in counted]) / np.array([hx, hy])
            gaps = np.sqrt((recorded[:, None, 0] - recorded[None, :, 0]) ** 2
                           + (recorded[:, None, 1] - recorded[None, :, 1]) ** 2) * px_per_sample
            gaps[np.diag_indices(len(counted))] = np.inf
            margins["separation_px"] = min(margins.get("separation_px", math.inf), float(gaps.min()))
            reasons["too_close"] += int(np.sum(closest < MIN_SEPARATION_PX))
        if not counted:
            continue
        # low_prominence and no_contour_ring on the render grid
        components = _Components(xs, ys, g)
        ring_levels = np.sort(s * np.asarray(levels, dtype=float))
        tops = [_grid_top(g, e, xs, ys) for e in counted]
        floors = []
        for value, _ in tops:
            below = ring_levels[ring_levels < value]
            floors.append(min(value - PROMINENCE * span, below[-1] if below.size else value))
        rivals = _rivals(g, min(floors))
        for value, (r, c) in tops:
            point = np.array([xs[c], ys[r]])
            # samples of this very top (ties next to it) are not rivals
            others = rivals[(np.abs(rivals[:, 0] - r) > 2) | (np.abs(rivals[:, 1] - c) > 2)]
            other_xy = np.stack([xs[others[:, 1]], ys[others[:, 0]]], axis=1)
            other_g = g[others[:, 0], others[:, 1]]
            # prominence >= PROMINENCE * span: no higher point shares the component PROMINENCE * span down
            level = value - PROMINENCE * span
            found_component = components.component(level, point, (r, c))
            higher = other_xy[other_g >= value]
            if found_component is None or (len(higher) and found_component[0].contains_points(higher).any()):
                reasons["low_prominence"] += 1
            # a closed contour ring around this extremum alone: the highest level below it
            below = ring_levels[ring_levels < value]
            if not below.size:
                reasons["no_contour_ring"] += 1
                continue
            ring = components.component(float(below[-1]), point, (r, c))
            inside = other_xy[other_g >= below[-1]]
            if ring is None or ring[1] or (len(inside) and ring[0].contains_points(inside).any()):
                reasons["no_contour_ring"] += 1
    reasons = Counter({code: n for code, n in reasons.items() if n})
    # separations to 1/100 px, edge distances to 1e-4 of the plot: far coarser than float noise
    margins = {k: round(v, 2 if k == "separation_px" else 4) for k, v in margins.items() if math.isfinite(v)}
    ordered = {code: reasons[code] for code in REASONS if code in reasons}
    return Verdict(accepted=not ordered, reasons=ordered, count=count, margins=margins)


def _window_hits(z: np.ndarray, kind: str, unflat: bool = False) -> np.ndarray | None:
    """Render-grid extrema by the 5 x 5 window rule, or None when the grid is too flat to count.

    Samples of sloped flat runs (``flat_structure``: a numerically level valley floor that runs into a
    deeper point) and of the global floor are no features, so they are dropped before the window rule.
    ``unflat`` (the analysis found no two neighbours equal on a grid holding ``z``) skips ``flat_structure``,
    which then finds nothing flat."""
    # the global floor of g = sign * z, read on z itself (negation is exact): the samples at z's minimum
    # (maxima) or at its maximum (minima); NaN anywhere leaves no sample there, as on g
    floor = (z <= z.min()) if kind == "maxima" else (z >= z.max())
    if unflat:  # nothing flat: the floor alone
        ignore = floor
    else:
        structure = flat_structure(z, kind)
        if structure is None:
            return None
        ignore = structure[1] | floor
    if ignore.all():
        return None
    hits = window_extrema(z, kind, radius=WINDOW_RADIUS, ignore=ignore)
    return None if len(hits) > MAX_WINDOW_HITS else hits


def _disagreement(grid_points: np.ndarray, counted: list[Extremum], found: list[Extremum], hx: float,
                  hy: float) -> int:
    """How many refined counted extrema lack a render-grid extremum within ``MATCH_SAMPLES`` and how many
    interior render-grid extrema lack a refined one (any zone, strict or not)."""
    def near(points: np.ndarray, x: float, y: float) -> bool:
        if not len(points):
            return False
        return bool(np.min(np.hypot((points[:, 0] - x) / hx, (points[:, 1] - y) / hy)) <= MATCH_SAMPLES)

    refined = np.array([[e.x, e.y] for e in found]).reshape(-1, 2)
    missing = sum(1 for e in counted if not near(grid_points, e.x, e.y))
    extra = sum(1 for x, y in grid_points if not near(refined, x, y))
    return missing + extra + (0 if missing or extra or len(grid_points) == len(counted) else 1)


def _grid_top(g: np.ndarray, e: Extremum, xs: np.ndarray, ys: np.ndarray) -> tuple[float, tuple[int, int]]:
    """The highest render-grid sample (of g) within one sample of extremum ``e``: its value and (row, col)."""
    c = int(np.clip(np.searchsorted(xs, e.x), 1, len(xs) - 1))
    r = int(np.clip(np.searchsorted(ys, e.y), 1, len(ys) - 1))
    r0, r1, c0, c1 = max(r - 2, 0), min(r + 2, g.shape[0]), max(c - 2, 0), min(c + 2, g.shape[1])
    patch = g[r0:r1, c0:c1]
    i, j = np.unravel_index(int(np.argmax(patch)), patch.shape)
    return float(patch[i, j]), (int(r0 + i), int(c0 + j))


def _rivals(g: np.ndarray, floor: float) -> np.ndarray:
    """(row, col) of every 3 x 3 local top of g (edge samples included, ties kept) at or above ``floor``:
    the highest point of any superlevel component is one of them."""
    at = window_tops(g, np.greater_equal, 1, floor)
    if at is not None:  # the same samples, read at the few that top their row neighbours
        return np.stack([at // g.shape[1], at % g.shape[1]], axis=1)
    best = box_max(np.pad(g, 1, mode="constant", constant_values=-np.inf))
    return cells_of((g >= best) & (g >= floor))
