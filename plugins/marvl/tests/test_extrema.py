"""The extremum engine (ground truth), the independent recount, and the visibility certifier's gates."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from bench_plugin_marvl import extrema as E
from bench_plugin_marvl import plotting
from bench_plugin_marvl.certify import REASONS, Verdict, certify, rejection_counts
from bench_plugin_marvl.functions import COUNTABLE, FAMILIES, T4, FunctionFamily

PX = 1.3125  # rendered pixels per render-grid sample of the default plot (525 px for 400 samples)


def surface(fn: Callable[[dict, np.ndarray, np.ndarray], np.ndarray], counts: set[str] | None = None) -> FunctionFamily:
    return FunctionFamily(name="test", title="Test", tier=T4, counts=frozenset(counts or {"maxima", "minima"}),
                          domain=(-5.0, 5.0, -5.0, 5.0), sampler=lambda rng: {}, function=fn)


def bumps(*specs: tuple[float, float, float, float]) -> FunctionFamily:
    """Gaussians (x, y, sigma, amplitude)."""
    def fn(p: dict, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)))
        for cx, cy, s, a in specs:
            out = out + a * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * s * s))
        return out
    return surface(fn)


def judge(f: FunctionFamily, kinds: tuple[str, ...] = ("maxima",)) -> tuple[E.Analysis, Verdict]:
    a = E.analyse(f, {}, kinds)
    lo, hi = plotting.value_range(a.z)
    return a, certify(a, kinds, levels=plotting.contour_levels(lo, hi), vmin=lo, vmax=hi, px_per_sample=PX)


def test_render_axes_are_the_renderers_pixel_centres() -> None:
    xs, ys = E.render_axes((-5, 5, -2, 2))
    assert np.allclose(xs, plotting.sample_axis(-5, 5))
    assert np.allclose(ys, plotting.sample_axis(-2, 2))
    assert E.RENDER_GRID == plotting.PLOT_GRID
    grown, _ = E.render_axes((-5, 5, -5, 5), pad=E.PAD)
    assert np.allclose(grown[E.PAD:-E.PAD], xs)
    assert E.BAND * E.RENDER_GRID < E.PAD  # the grown grid covers the whole border band


def test_single_gaussian_is_found_to_high_precision() -> None:
    a, v = judge(bumps((0.8123, -1.377, 0.7, 1.0)))
    (e,) = a.extrema
    assert e.kind == "maxima" and e.strict and e.zone == "interior"
    assert abs(e.x - 0.8123) < 1e-7 and abs(e.y + 1.377) < 1e-7
    assert e.as_json() == [0.8123, -1.377]
    assert v.accepted and v.count == 1


def test_minima_of_an_inverted_bump_and_no_maxima() -> None:
    f = bumps((-1.0, 2.0, 0.6, -1.0), (2.0, -2.0, 0.6, -0.7))
    a, v = judge(f, ("minima",))
    assert sorted((round(e.x, 4), round(e.y, 4)) for e in a.counted("minima")) == [(-1.0, 2.0), (2.0, -2.0)]
    assert v.accepted and v.count == 2
    assert E.analyse(f, {}, ("maxima",)).count(("maxima",)) == 0


def test_wave_surface_lattice_matches_the_analytic_extrema() -> None:
    f = FAMILIES["wave-surface"]
    p = f.sample_for_count(np.random.default_rng(1), "both", 12)
    a = E.analyse(f, p, ("maxima", "minima"))
    for e in a.counted("maxima") + a.counted("minima"):
        assert abs(math.cos(p["w1"] * e.x + p["p1"])) < 1e-6  # |sin| = 1
        assert abs(math.sin(p["w2"] * e.y + p["p2"])) < 1e-6  # |cos| = 1
        assert abs(abs(e.value) - 1) < 1e-9
        assert (e.value > 0) == (e.kind == "maxima")
    assert a.count(("maxima", "minima")) == 12


@pytest.mark.parametrize(("x", "zone"), [(0.0, "interior"), (4.75, "band"), (5.2, "band"), (5.6, "outside")])
def test_zones_follow_the_three_percent_band(x: float, zone: str) -> None:
    a = E.analyse(bumps((x, 0.0, 0.4, 1.0)), {}, ("maxima",))
    (e,) = [e for e in a.extrema if abs(e.y) < 1e-6]
    assert e.zone == zone
    assert math.isclose(e.edge, (5 - x) / 10, abs_tol=1e-6)


def test_border_band_extremum_rejects_the_plot() -> None:
    _, v = judge(bumps((0.0, 0.0, 0.6, 1.0), (-4.8, 2.0, 0.5, 0.8)))
    assert not v.accepted and "border_unstable" in v.reasons
    # a peak far outside leaves only a bright edge, which the prompt's boundary rule does not count
    _, v = judge(bumps((0.0, 0.0, 0.6, 1.0), (-6.5, 2.0, 0.8, 0.8)))
    assert v.accepted and v.count == 1


def test_low_prominence_bump_on_a_flank() -> None:
    # a small bump riding on the slope of a broad one: a maximum, but only a few colours deep
    _, v = judge(bumps((0.0, 0.0, 3.0, 1.0), (1.0, 0.0, 0.15, 0.05)))
    assert v.count == 2
    assert not v.accepted and "low_prominence" in v.reasons


def test_close_peaks_are_too_close_and_merge_on_the_grid() -> None:
    _, v = judge(bumps((0.0, 0.0, 0.03, 1.0), (0.1, 0.0, 0.03, 1.0)))
    assert not v.accepted and "too_close" in v.reasons


def test_peaks_a_sample_apart_disagree_with_the_render_grid() -> None:
    _, v = judge(bumps((0.0, 0.0, 0.012, 1.0), (0.05, 0.0, 0.012, 0.98)))
    assert not v.accepted
    assert {"grid_disagreement", "too_close"} <= set(v.reasons)


def test_contour_ring_must_close_inside_the_plot() -> None:
    # a broad peak near (not in) the border band: the highest level below its top runs off the plot edge,
    # so the contour plot shows no closed ring around it
    _, v = judge(bumps((4.2, 0.0, 3.0, 1.0)))
    assert v.count == 1 and v.reasons == {"no_contour_ring": 1}
    # the same peak in the middle is ringed
    _, v = judge(bumps((0.0, 0.0, 3.0, 1.0)))
    assert v.accepted


def test_peaks_sharing_their_ring_are_rejected() -> None:
    # two peaks joined by a col a few per cent below the lower top: one ring holds both
    _, v = judge(bumps((-0.55, 0.0, 0.5, 1.0), (0.55, 0.0, 0.5, 0.97)))
    assert v.count == 2 and not v.accepted
    assert {"low_prominence", "no_contour_ring"} <= set(v.reasons)


def test_flat_top_is_a_plateau() -> None:
    def mesa(p: dict, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.minimum(np.exp(-(x**2 + y**2) / 4), 0.8)

    a, v = judge(surface(mesa))
    assert a.flat["maxima"] == 1
    assert not v.accepted and "plateau" in v.reasons


def test_flat_valley_floor_is_not_a_plateau() -> None:
    # crossed tunnels: far from the crossing the floor is flat in float (the other trough's tail is
    # absorbed) but runs down into the crossing, so it is no top
    f = FAMILIES["crossed-tunnels"]
    p = {"w": 0.5, "a": [0.5], "b": [-3.2, 3.3]}
    a = E.analyse(f, p, ("minima",))
    assert a.flat["minima"] == 0 and a.count(("minima",)) == 2
    lo, hi = plotting.value_range(a.z)
    v = certify(a, ("minima",), levels=plotting.contour_levels(lo, hi), px_per_sample=PX)
    assert v.accepted, v.reasons


def test_plateau_tops_and_sloped_runs() -> None:
    z = np.zeros((7, 9))
    z[2:5, 2:5] = 1.0  # a flat top
    z[1, 6:9] = 0.5  # a ledge: flat, but it sits next to nothing higher ... and next to the top? no
    tops = E.plateau_tops(z, "maxima")
    sizes = sorted(len(t) for t in tops)
    assert 9 in sizes
    top, sloped = E.flat_structure(z, "maxima")
    assert top[3, 3] and not sloped[3, 3]
    # a ramp that is flat along rows but rises towards the last row: every flat run is sloped
    ramp = np.repeat(np.arange(6.0)[:, None], 8, axis=1)
    top, sloped = E.flat_structure(ramp, "maxima")
    assert not top[:-1].any() and sloped[1:-1].all()


def test_window_extrema_merges_a_plateau_and_respects_the_window() -> None:
    z = np.zeros((20, 20))
    z[5, 5] = z[5, 6] = 2.0  # a two-sample plateau: one feature
    z[5, 8] = 1.0  # within 2 samples of a higher one: not a window maximum
    z[15, 15] = 1.5
    hits = E.window_extrema(z, "maxima", radius=2, ignore=z == 0)
    assert sorted(map(tuple, hits.tolist())) == [(5, 5), (15, 15)]


def test_window_extrema_are_the_samples_at_their_windows_maximum() -> None:
    """Against the definition: samples equal to the maximum (minimum) of their (2 radius + 1)^2 window, the
    window cut at the edges, finite and not ignored; touching ones (a plateau) kept as their first."""
    rng = np.random.default_rng(11)
    for trial in range(300):
        shape = tuple(int(v) for v in rng.integers(1, 25, 2))
        z = np.round(rng.normal(size=shape), int(rng.integers(0, 2)))
        if trial % 3 == 0:
            z[rng.random(shape) < 0.05] = np.nan
        ignore = rng.random(shape) < 0.1 if trial % 2 else None
        for kind in ("maxima", "minima"):
            for radius in (1, 2):
                g = z if kind == "maxima" else -z
                padded = np.pad(g, radius, constant_values=-np.inf)
                windows = np.lib.stride_tricks.sliding_window_view(padded, (2 * radius + 1,) * 2)
                with np.errstate(invalid="ignore"):
                    at_top = (g == windows.max(axis=(2, 3))) & np.isfinite(g)
                if ignore is not None:
                    at_top &= ~ignore
                cells = E.cells_of(at_top)
                expected = cells[sorted(m[0] for m in E.touching_groups(cells))] if len(cells) > 1 else cells
                assert np.array_equal(E.window_extrema(z, kind, radius, ignore), expected), (trial, kind, radius)


def test_first_of_groups_are_the_first_members_of_touching_groups() -> None:
    rng = np.random.default_rng(12)
    for trial in range(300):
        shape = tuple(int(v) for v in rng.integers(1, 30, 2))
        cells = E.cells_of(rng.random(shape) < rng.random())
        if len(cells):
            expected = sorted(members[0] for members in E.touching_groups(cells))
            assert E.first_of_groups(cells, shape).tolist() == expected, trial


def test_not_strict_candidates_are_reported() -> None:
    a = E.analyse(bumps((0.0, 0.0, 0.7, 1.0)), {}, ("maxima",))
    (e,) = a.extrema
    degenerate = E.Analysis(family=a.family, params={}, extent=a.extent, xs=a.xs, ys=a.ys, z=a.z,
                            extrema=(E.Extremum(x=e.x, y=e.y, value=e.value, kind="maxima", strict=False,
                                                edge=e.edge, drift=0.0),), kinds=a.kinds, flat={"maxima": 0})
    lo, hi = plotting.value_range(a.z)
    v = certify(degenerate, ("maxima",), levels=plotting.contour_levels(lo, hi), px_per_sample=PX)
    assert "not_strict" in v.reasons and v.count == 0


def test_reason_codes_are_listed_in_gate_order_and_counted() -> None:
    _, v = judge(bumps((0.0, 0.0, 0.012, 1.0), (0.05, 0.0, 0.012, 0.98), (-4.8, 2.0, 0.5, 0.8)))
    assert v.codes() == [c for c in REASONS if c in v.reasons]
    totals = rejection_counts([v, {"certifier": {"rejected": {"too_close": 2}}}, {"plateau": 1}])
    assert totals["too_close"] == 3 and totals["plateau"] == 1 and totals["border_unstable"] == 1


def test_refine_converges_from_a_pixel_away() -> None:
    f = bumps((1.23456, -0.98765, 0.5, 1.0))
    points = E.refine(f, {}, np.array([[1.25, -1.0], [1.2, -0.95]]), "maxima", 0.025)
    assert np.allclose(points, [[1.23456, -0.98765]] * 2, atol=1e-8)
    assert E.is_strict(f, {}, points[0], "maxima", 0.025)
    assert not E.is_strict(f, {}, points[0], "minima", 0.025)


def test_gradient_recount_classifies_maxima_minima_and_saddles() -> None:
    f = FAMILIES["wave-surface"]
    p = f.sample_for_count(np.random.default_rng(8), "both", 6)
    points = [q for q in E.count_by_gradient(f, p) if q.edge >= E.BAND]
    a = E.analyse(f, p, ("maxima", "minima"))
    for kind in ("maxima", "minima"):
        got = sorted((round(q.x, 1), round(q.y, 1)) for q in points if q.kind == kind)
        want = sorted((round(e.x, 1), round(e.y, 1)) for e in a.counted(kind))
        assert len(got) == len(want)
        for (gx, gy), (wx, wy) in zip(got, want, strict=True):
            assert abs(gx - wx) <= 0.11 and abs(gy - wy) <= 0.11
    assert any(q.kind == "saddle" for q in points)


def test_gradient_recount_ignores_ridges() -> None:
    # a long diagonal ridge: both partial derivatives flip across it, but it holds one maximum only
    def ridge(p: dict, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        u, v = (x + y) / math.sqrt(2), (x - y) / math.sqrt(2)
        return np.exp(-(v**2) / 0.1 - u**2 / 50)

    points = [q for q in E.count_by_gradient(surface(ridge), {}) if q.edge >= E.BAND and q.kind == "maxima"]
    assert len(points) == 1 and abs(points[0].x) < 0.05 and abs(points[0].y) < 0.05


def test_gradient_recount_agrees_with_the_engine_on_countable_families() -> None:
    rng = np.random.default_rng(21)
    for name in COUNTABLE:
        f = FAMILIES[name]
        feature = "both" if f.reachable("both") else next(iter(f.counts))
        kinds = ("maxima", "minima") if feature == "both" else (feature,)
        for _ in range(2):
            p = f.sample_for_count(rng, feature, int(rng.choice(f.reachable(feature))))
            a = E.analyse(f, p, kinds)
            if any(e.zone == "band" for e in a.extrema if e.kind in kinds):
                continue  # the certifier rejects these; the two routes may differ there
            recount = [q for q in E.count_by_gradient(f, p) if q.kind in kinds and q.edge >= E.BAND]
            assert len(recount) == a.count(kinds), (name, p)


def _eight_neighbour_tops(z: np.ndarray, kind: str, strict: bool, max_ties: int = 3) -> np.ndarray:
    """The definitions of ``strict_extrema`` and ``top_samples``, compared with all 8 neighbours everywhere."""
    g = (1.0 if kind == "maxima" else -1.0) * z
    core = g[1:-1, 1:-1]
    rows, cols = g.shape
    ok = np.ones(core.shape, dtype=bool)
    ties = np.zeros(core.shape, dtype=int)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                other = g[1 + dr:rows - 1 + dr, 1 + dc:cols - 1 + dc]
                ok &= core > other if strict else core >= other
                ties += core == other
    if not strict:
        ok &= (ties <= max_ties) & (core > g.min())
    return np.argwhere(ok) + 1


def test_grid_scans_find_exactly_the_eight_neighbour_tops() -> None:
    """The row-first scans (two whole-grid comparisons, then the other six neighbours at the survivors) find
    the same samples, in the same order, as comparing every sample with its 8 neighbours: on smooth grids,
    grids full of ties (plateaus, two-sample tops) and grids with undefined samples."""
    rng = np.random.default_rng(4)
    for trial in range(120):
        shape = tuple(int(v) for v in rng.integers(3, 30, 2))
        z = [rng.random(shape), rng.integers(0, 3, shape).astype(float), np.round(rng.random(shape), 1)][trial % 3]
        if trial % 4 == 0:
            z[rng.random(shape) < 0.05] = np.nan
        for kind in ("maxima", "minima"):
            assert np.array_equal(E.strict_extrema(z, kind), _eight_neighbour_tops(z, kind, strict=True))
            assert np.array_equal(E.top_samples(z, kind), _eight_neighbour_tops(z, kind, strict=False))
    with pytest.raises(ValueError, match="kind"):
        E.strict_extrema(np.zeros((4, 4)), "saddles")


def test_a_grid_without_equal_neighbours_has_nothing_flat() -> None:
    z = np.random.default_rng(1).random((40, 50))
    top, sloped = E.flat_structure(z, "maxima")
    assert not top.any() and not sloped.any() and E.plateau_tops(z, "minima") == []


def _crater_with_island(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """A ring-shaped rim of height 1 at radius 3 around a low central bump (0.5): at level 0.3 the bump is an
    island inside the rim's hole, and a polygon whose hole holds a point encloses it for matplotlib."""
    r = np.hypot(x, y)
    return np.exp(-((r - 3.0) ** 2) / 0.5) + 0.5 * np.exp(-(r * r) / 0.5)


@pytest.mark.parametrize("field", ["crater", "bumps"])
def test_windowed_components_are_the_whole_grids(field: str) -> None:
    # the certifier traces a window around each top instead of the whole grid; every answer must be the
    # whole grid's (the first polygon enclosing the point, whether its edge reaches the grid's edge), also
    # for an island inside the hole of a rim, whose rim the whole grid answers with
    from bench_plugin_marvl.certify import _Components

    xs = ys = plotting.sample_axis(-5.0, 5.0, 400)
    grid_x, grid_y = np.meshgrid(xs, ys)
    if field == "crater":
        g = _crater_with_island(grid_x, grid_y)
        asks = [(0.3, (200, 200)), (0.45, (199, 200)), (0.9, (200, 80)), (0.2, (200, 200))]
    else:
        rng = np.random.default_rng(7)
        g = np.zeros_like(grid_x)
        for cx, cy, s, a in zip(rng.uniform(-5, 5, 14), rng.uniform(-5, 5, 14), rng.uniform(0.3, 1.2, 14),
                                rng.uniform(-1, 1, 14), strict=True):
            g += a * np.exp(-((grid_x - cx) ** 2 + (grid_y - cy) ** 2) / (2 * s * s))
        tops = E.strict_extrema(g, "maxima")
        span = float(g.max() - g.min())
        asks = [(float(g[r, c] - d * span), (int(r), int(c))) for r, c in tops for d in (0.02, 0.06, 0.3)]
    samples = np.stack([grid_x.ravel(), grid_y.ravel()], axis=1)[::37]
    windowed, whole = _Components(xs, ys, g), _Components(xs, ys, g)
    for level, (r, c) in asks:
        point = np.array([xs[c], ys[r]])
        mine, theirs = windowed.component(level, point, (r, c)), whole.component(level, point)
        assert (mine is None) == (theirs is None)
        if theirs is not None:
            assert mine[1] == theirs[1]
            assert np.array_equal(mine[0].contains_points(samples), theirs[0].contains_points(samples))
    if field == "crater":  # the island's answer is the rim: its outer loop encloses the whole crater
        path, _ = windowed.component(0.3, np.array([xs[200], ys[200]]), (200, 200))
        assert path.contains_point((2.0, 0.0))
