"""Paper Folding (PF) 0.2.4: the foil choice's exact balance solver, its batched square scoring and the other
shortcuts of that version give what the computations they replace give (the solver: the minimiser that the
accelerated gradient descent of earlier versions approached), and the verifier's faster checks give the same
verdicts and messages as before."""

from __future__ import annotations

import copy
import functools
import math
from itertools import combinations, permutations

import numpy as np
import pytest
import shapely
from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from bench_plugin_mindseye import folding
from bench_plugin_mindseye import paper_folding as pf
from bench_plugin_mindseye.base import MindsEyeTask
from bench_plugin_mindseye.nuisance import singled_out
from bench_plugin_mindseye.verifiers import paper_folding as verifier


def _foils(seed: int, shape: str = "square", group: str = "vh", punches: int = 1) -> pf._Foils:
    rng = np.random.default_rng(seed)
    sheet = folding.sheet_polygon(shape)
    while True:
        folds = pf.sample_folds(rng, sheet, shape, group)
        if folds is None:
            continue
        states = folding.fold_sequence(sheet, folds)
        points = pf.sample_punches(rng, states[-1], punches)
        if points is not None:
            break
    holes = [pf.Hole(p, moved, at) for p in points for at, moved in folding.punch(states[-1], p)]
    return pf._Foils(rng, shape, sheet, folding.creases(states, folds), folds, holes, 1, states[-1])


KINDS = [(seed, shape, group, punches) for seed, (shape, group, punches) in
         enumerate([("square", "vh", 1), ("square", "diagonal", 2), ("hexagon", "vh", 1), ("hexagon", "diagonal", 2),
                     ("square", "vh", 2), ("hexagon", "diagonal", 1)])]


# -- the balance solver -------------------------------------------------------------------------------------------
def _objective(hits, target, w, spread=0.001):
    return float(((hits @ w - target) ** 2).sum() + spread * ((w - 1.0 / len(w)) ** 2).sum())


def _problems(seed: int, count: int):
    """Least-squares problems shaped like the foil choice's: 0/1 and fractional hit rows, weighted, with targets."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(1, 90))
        rows = int(rng.integers(4, 40))
        hits = np.where(rng.random((rows, n)) < 0.3, rng.choice([0.25, 0.5, 1.0], (rows, n)), 0.0)
        hits *= rng.uniform(0.2, 2.0, (rows, 1))
        target = rng.uniform(0.0, 0.6, rows)
        yield hits, target


def test_the_solver_finds_the_minimiser_on_the_simplex():
    """Its weights lie on the simplex, meet the optimality conditions (every weight's gradient at least the
    support's common value, equal on the support) and are never worse than many accelerated gradient steps."""
    for hits, target in _problems(3, 120):
        w = pf.balanced_weights(hits, target)
        assert (w >= 0).all() and abs(w.sum() - 1.0) < 1e-9
        grad = 2 * hits.T @ (hits @ w - target) + 2 * 0.001 * (w - 1.0 / len(w))
        support = w > 0
        level = grad[support].mean()
        assert np.allclose(grad[support], level, atol=1e-7)
        assert (grad[~support] >= level - 1e-7).all()
        long_run = pf._fista_weights(hits, np.broadcast_to(target, (hits.shape[0],)), 0.001, steps=3000)
        assert _objective(hits, target, w) <= _objective(hits, target, long_run) + 1e-12


def test_a_warm_start_and_the_fallback_give_the_same_minimiser():
    for hits, target in _problems(5, 60):
        w = pf.balanced_weights(hits, target)
        rng = np.random.default_rng(len(w))
        start = np.where(rng.random(len(w)) < 0.3, 1.0, 0.0)
        assert np.allclose(pf.balanced_weights(hits, target, start=start), w, atol=1e-9)
        fista = pf._fista_weights(hits, np.broadcast_to(target, (hits.shape[0],)), 0.001, steps=20000)
        assert abs(_objective(hits, target, fista) - _objective(hits, target, w)) < 1e-9


def test_a_support_beyond_the_limit_falls_back_to_gradient_descent(monkeypatch):
    hits, target = next(_problems(7, 1))
    monkeypatch.setattr(pf, "MAX_SUPPORT", 0)
    w = pf.balanced_weights(hits, target)
    assert np.array_equal(w, pf._fista_weights(hits, np.broadcast_to(target, (hits.shape[0],)), 0.001))


# -- counts and layouts -------------------------------------------------------------------------------------------
def _count_hits_with_arrays(truth: int, foils: tuple[int, ...]) -> np.ndarray:
    """``_count_shortcut_hits`` as versions up to 0.2.3 computed it, with numpy arrays."""
    counts = np.array([truth, *foils], dtype=float)
    k = len(counts)
    hits = np.zeros(len(pf.COUNT_SHORTCUTS))
    orders = list(permutations(range(k)))
    jitter = 1e-3 * (2.0 ** np.arange(k) - 1.0)
    for order in orders:
        v = counts + jitter[list(order)]
        median = np.sort(v)[k // 2]
        mean = v.mean()
        picks = (np.argmax(v), np.argmin(v), np.argmin(np.abs(v - median)), np.argmax(np.abs(v - median)),
                 np.argmin(np.abs(v - mean)), np.argmax(np.abs(v - mean)))
        hits[:6] += [int(p) == 0 for p in picks]
    hits[:6] /= len(orders)
    shared = np.array([(counts == c).sum() > 1 for c in counts])
    top, bottom = counts == counts.max(), counts == counts.min()
    groups = (shared, ~shared, top if top.sum() == 1 else None, bottom if bottom.sum() == 1 else None)
    for j, group in enumerate(groups, start=6):
        hits[j] = (1.0 / group.sum() if group[0] else 0.0) if group is not None and group.any() else 1.0 / k
    return hits


def test_count_shortcut_hits_in_plain_arithmetic_equal_the_array_version():
    for truth in range(1, 13):
        for foils in combinations(range(1, 13), 3):
            plain = pf._count_shortcut_hits.__wrapped__(truth, foils)
            assert np.array_equal(plain, _count_hits_with_arrays(truth, foils))
        for c in range(1, 13):  # shared counts
            for foils in ((c, c, c), (truth, c, c), (c, truth, truth)):
                foils = tuple(sorted(foils))
                assert np.array_equal(pf._count_shortcut_hits.__wrapped__(truth, foils),
                                      _count_hits_with_arrays(truth, foils))


def _square_pulls_one_by_one(foils, singles, squares):
    """``square_pulls`` as versions up to 0.2.3 computed it, square by square."""
    truth_stats = foils.layout(foils.truth).tolist()
    stats = [foils.layout(points).tolist() for _, points in singles]
    pictures = [pf.coarse_picture(foils.truth), *(pf.coarse_picture(points) for _, points in singles)]

    def distance(u, v):
        return pf.picture_distance(pictures[u], pictures[v])

    out = []
    for i, j, both in squares:
        b_picture = pf.coarse_picture(both)
        a, b, c = (pf.picture_distance(pictures[k], b_picture) for k in (0, i + 1, j + 1))
        tu, tv, uv = distance(0, i + 1), distance(0, j + 1), distance(i + 1, j + 1)
        similar = pf._similarity_rows([[0.0, tu, tv, a], [tu, 0.0, uv, b], [tv, uv, 0.0, c], [a, b, c, 0.0]])
        layout = np.array([[*truth_stats, *similar[0]], [*stats[i], *similar[1]], [*stats[j], *similar[2]],
                           [*foils.layout(both).tolist(), *similar[3]]])
        counts = [float(len(p)) for p in (foils.truth, singles[i][1], singles[j][1], both)]
        ordered = [float(counts.count(extreme) == 1) for extreme in (max(counts), min(counts))]
        out.append(np.concatenate([ordered, pf.layout_shortcut_hits(layout)]))
    return np.stack(out, axis=1)


@pytest.mark.parametrize(("seed", "shape", "group", "punches"), KINDS)
def test_batched_square_scores_equal_the_square_by_square_ones(seed, shape, group, punches):
    foils = _foils(seed, shape, group, punches)
    singles = pf.single_errors(foils)
    squares = pf.viable_squares(foils, singles)
    if not squares:
        pytest.skip("no viable square for this draw")
    batched = pf.square_pulls(foils, singles, squares)
    plain = _square_pulls_one_by_one(foils, singles, squares)
    assert batched.shape == plain.shape
    # the layout statistics are sums taken in another order (equal to rounding); the hits equal but at a tie's edge
    assert (batched == plain).mean() > 0.999
    options = [foils.truth, *(p for _, p in singles), *(b for _, _, b in squares)]
    assert np.allclose(pf.layouts(foils, options), [foils.layout(o) for o in options], rtol=0, atol=1e-12)
    assert np.array_equal(pf.coarse_pictures(options), [pf.coarse_picture(o) for o in options])


def test_layout_hits_of_many_squares_equal_one_at_a_time():
    rng = np.random.default_rng(23)
    stats = rng.random((300, 4, 6))
    stats[::3, 1] = stats[::3, 0]  # exact ties
    stats[1::3, 2] = stats[1::3, 0] + np.asarray(pf.LAYOUT_TIES) * 0.5  # ties within the tolerance
    many = pf.layout_shortcut_hits_many(stats)
    for k in range(len(stats)):
        assert np.array_equal(many[k], pf.layout_shortcut_hits(stats[k]))


@pytest.mark.parametrize(("seed", "shape", "group", "punches"), KINDS)
def test_viable_squares_are_the_ones_the_square_loop_kept(seed, shape, group, punches):
    foils = _foils(seed, shape, group, punches)
    singles = pf.single_errors(foils)
    want = []
    for i, j in combinations(range(len(singles)), 2):
        (a, pa), (b, pb) = singles[i], singles[j]
        if not a.combines_with(b) or (a.template not in pf.CONFOUNDS and b.template not in pf.CONFOUNDS):
            continue
        both = foils.reading([a, b])
        if not foils.valid(both):
            continue
        sets = [foils.truth, pa, pb, both]
        if any(folding.same_set(sets[u], sets[v], pf.SAME_TOLERANCE) for u, v in ((0, 3), (1, 2), (1, 3), (2, 3))):
            continue
        if singled_out([float(len(s)) for s in sets], 0, MindsEyeTask.nuisance_factor, math.inf):
            continue
        want.append((i, j, both))
    assert pf.viable_squares(foils, singles) == want
    counts = {}
    for error, points in singles:
        counts[error.template] = counts.get(error.template, 0) + 1
        assert foils.valid(points) and not folding.same_set(points, foils.truth, pf.SAME_TOLERANCE)
    assert max(counts.values()) <= pf._VARIANTS


# -- positions, readings and folds --------------------------------------------------------------------------------
def _position_with_matrices(foils, entry, mappings):
    """``_Foils._position`` as versions up to 0.2.3 computed it, with 3x3 numpy matrices."""
    kinds = {m[0]: m for m in mappings}
    wrong = {}
    if "mirror" in kinds:
        fold = foils.folds[kinds["mirror"][1]]
        wrong[kinds["mirror"][1]] = folding.reflection(fold.anchor, fold.angle + 90.0)
    if entry.spot is not None:
        m = pf.compose(foils.folds, entry.moved_by, wrong) @ np.linalg.inv(pf.compose(foils.folds, entry.moved_by))
        x = folding.apply(m, [entry.spot])[0]
    else:
        m = np.eye(3) if "punches" in kinds else pf.compose(foils.folds, entry.moved_by, wrong)
        if entry.axis is not None:
            m = folding.reflection(folding.CENTRE, entry.axis) @ m
        x = folding.apply(m, [entry.punch])[0]
    if "turn" in kinds:
        x = folding.apply(folding.rotation(folding.CENTRE, kinds["turn"][1]), [x])[0]
    return (float(x[0]), float(x[1]))


@pytest.mark.parametrize(("seed", "shape", "group", "punches"), KINDS)
def test_positions_with_plain_affine_maps_equal_the_matrix_products(seed, shape, group, punches):
    foils = _foils(seed, shape, group, punches)
    rng = np.random.default_rng(seed)
    mappings = [(), (("punches",),), *((("mirror", k),) for k in range(len(foils.folds))),
                *((("turn", a),) for a in folding.sheet_rotations(shape))]
    mappings += [(a[0], b[0]) for a, b in combinations(mappings[2:], 2) if a[0][0] != b[0][0]]
    entries = [*foils.entries]
    for e in foils.entries:
        entries.append(pf.Entry(e.punch, e.moved_by, axis=float(rng.choice([0.0, 45.0, 60.0, 90.0]))))
        entries.append(pf.Entry(moved_by=e.moved_by, spot=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8)))))
        for subset in ((0,), (1,), (0, 1)):
            entries.append(pf.Entry(e.punch, subset))
    for entry in entries:
        for m in mappings:
            assert np.allclose(foils.position(entry, m), _position_with_matrices(foils, entry, m), rtol=0, atol=1e-12)


def test_merged_is_dedup_with_its_least_separation():
    rng = np.random.default_rng(29)
    for _ in range(2000):
        points = [tuple(p) for p in rng.uniform(0, 1, (int(rng.integers(0, 12)), 2)).tolist()]
        points += [(x + float(rng.normal(scale=0.02)), y) for x, y in points[: int(rng.integers(0, 3))]]
        kept, least = pf._merged(points, pf.SAME_TOLERANCE / 2)
        assert kept == folding.dedup(points, pf.SAME_TOLERANCE / 2)
        assert math.isclose(least, folding.min_separation(kept), rel_tol=1e-12) or least == folding.min_separation(kept)


@pytest.mark.parametrize(("shape", "group"), [(s, g) for s in ("square", "hexagon") for g in ("vh", "diagonal")])
def test_cached_fold_sequences_equal_folding_them_afresh(shape, group):
    sheet = folding.sheet_polygon(shape)
    rng = np.random.default_rng(31)
    for _ in range(12):
        folds = pf.sample_folds(rng, sheet, shape, group)
        if folds is None:
            continue
        fresh = folding.fold_sequence(sheet, folds)
        cached = pf.folded_states(shape, tuple(folds))
        assert len(fresh) == len(cached)
        for a, b in zip(fresh, cached, strict=True):
            assert [(la.polygon.wkb, la.moved_by, la.to_sheet.tolist()) for la in a] == [
                (lb.polygon.wkb, lb.moved_by, lb.to_sheet.tolist()) for lb in b]
        assert list(pf.fold_creases(shape, tuple(folds))) == folding.creases(fresh, folds)
        # the candidates: as the loop with the stack folded afresh finds them
        for k in range(len(folds) + 1):
            layers = fresh[k]
            minx, miny, maxx, maxy = folding.outline(layers).bounds
            anchor = ((minx + maxx) / 2, (miny + maxy) / 2)
            want = tuple(folding.Fold(anchor, angle, side) for angle in pf.FOLD_ANGLES[(shape, group)]
                         for side in (1, -1)
                         if 0.2 <= folding.split_fraction(layers, folding.Fold(anchor, angle, side)) <= 0.8)
            assert pf.fold_candidates(shape, group, tuple(folds[:k])) == want


# -- the verifier's faster checks -----------------------------------------------------------------------------------
def _hole_failures_full_tile(darkest, holes, radius, side, name):
    """``verifier.hole_failures`` as versions up to 0.2.3 computed it: the ink weight of the whole tile first."""
    r = radius * side
    darkness = (255 - darkest).astype(np.float32)
    weight = np.clip((darkness - verifier.HOLE_FLOOR) / (235 - verifier.HOLE_FLOOR), 0.0, 1.0)
    reach = math.ceil(r + 3)
    failures = []
    for px, py in verifier._px(holes, side):
        x0, y0 = max(int(px) - reach, 0), max(int(py) - reach, 0)
        window = weight[y0:int(py) + reach + 1, x0:int(px) + reach + 1]
        ys = (np.arange(y0, y0 + window.shape[0]) + 0.5)[:, None]
        xs = (np.arange(x0, x0 + window.shape[1]) + 0.5)[None, :]
        around = window * ((xs - px) ** 2 + (ys - py) ** 2 <= (r + 2) ** 2)
        ink = float(around.sum())
        where = f"{name}: the hole at ({px:.0f}, {py:.0f}) px"
        if ink < 1.0:
            failures.append(f"{where} is missing")
            continue
        cx, cy = float((around * xs).sum()) / ink, float((around * ys).sum()) / ink
        if math.hypot(cx - px, cy - py) > verifier.HOLE_SHIFT:
            failures.append(f"{where} is drawn at ({cx:.1f}, {cy:.1f})")
            continue
        rho = np.hypot(xs - cx, ys - cy)
        dark = darkness[y0:y0 + window.shape[0], x0:x0 + window.shape[1]]
        light = int(np.count_nonzero((rho <= r - verifier.HOLE_INSET) & (dark < verifier.HALF_INK)))
        if light:
            failures.append(f"{where} is not a whole disc ({light} pixels inside it light)")
    return failures


def _mark_failures_per_option(darkest, option, side, name):
    """``verifier.mark_failures`` as versions up to 0.2.3 computed it: the floor and the outline's sample points
    worked out for every option."""
    v = verifier
    r = float(option["radius"]) * side
    outline = v._px(option["outline"], side)
    masks = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(masks)
    for a, b in option["creases"]:
        draw.line(v._px([a, b], side), fill=255, width=2 * math.ceil(v.CREASE_NEAR) + 1)
    near_crease = np.asarray(masks) > 0
    xs = (np.arange(side, dtype=np.float32) + np.float32(0.5))[None, :]
    ys = (np.arange(side, dtype=np.float32) + np.float32(0.5))[:, None]
    clear = np.abs(v._inside_depth(outline, xs, ys)) > v.CLEAR_OF_OUTLINE
    clear[:v.FRAME_MARGIN], clear[-v.FRAME_MARGIN:] = False, False
    clear[:, :v.FRAME_MARGIN], clear[:, -v.FRAME_MARGIN:] = False, False
    reach = math.ceil(r + v.CLEAR_OF_HOLE)
    for hx, hy in v._px(option["holes"], side):
        x0, y0 = max(int(hx) - reach, 0), max(int(hy) - reach, 0)
        wx, wy = xs[:, x0:int(hx) + reach + 1], ys[y0:int(hy) + reach + 1]
        clear[y0:y0 + wy.shape[0], x0:x0 + wx.shape[1]] &= (wx - hx) ** 2 + (wy - hy) ** 2 > (r + v.CLEAR_OF_HOLE) ** 2
    floor = np.where(near_crease, v.CREASE_GREY - v.PAPER_SLACK, 255 - v.PAPER_SLACK)
    failures = []
    marks = int(np.count_nonzero(clear & (darkest < floor)))
    if marks:
        failures.append(f"{name}: {marks} pixels away from the recorded outline, creases and holes are dark")
    edges = list(zip(outline, [*outline[1:], outline[0]], strict=True))
    points = np.concatenate([np.linspace(a, b, max(2, math.ceil(math.dist(a, b) / 0.5) + 1)) for a, b in edges])
    ends = np.asarray([p for c in option["creases"] for p in v._px(c, side)], dtype=float).reshape(-1, 2)
    if len(ends):
        gap = np.hypot(points[:, None, 0] - ends[None, :, 0], points[:, None, 1] - ends[None, :, 1]).min(axis=1)
        points = points[gap > v.CREASE_NEAR + 1]
    cols = np.clip(points[:, 0].astype(int), 0, side - 1)
    rows = np.clip(points[:, 1].astype(int), 0, side - 1)
    gaps = int(np.count_nonzero(255 - darkest[rows, cols] < v.HALF_INK))
    if gaps:
        failures.append(f"{name}: the sheet's outline is broken ({gaps} points of its centre line not inked)")
    return failures


def _union_one_by_one(rings):
    return shapely.union_all([Polygon(r).buffer(0) for r in rings]) if rings else Polygon()


def _record_failures_as_before(scene, monkeypatch_context):
    """``verifier.record_failures`` with the one-by-one union and the pieces' unions made anew each time (its code
    before 0.2.4 but for the shared helpers, which these two replace)."""
    with monkeypatch_context() as mp:
        mp.setattr(verifier, "_union", _union_one_by_one)
        return verifier.record_failures(scene)


@functools.lru_cache(maxsize=1)
def _items():
    from bench_core import ItemRandom
    from bench_plugin_mindseye.descriptions.paper_folding import TASK as DESCRIPTION

    out = []
    for size in ("1024x1024", "600x800"):
        params = DESCRIPTION.resolve_params({"size": size})
        for index in range(5):
            random = ItemRandom(DESCRIPTION.id, DESCRIPTION.version, 41, index)
            problem = pf.TASK.generate({**params, "source": None}, random)
            scene = copy.deepcopy(problem.metadata["scene"])
            pixels = np.asarray(pf.TASK.render(problem)[0].convert("RGB")).copy()
            out.append((scene, pixels))
    return out


def test_hole_and_mark_checks_give_the_verdicts_of_the_whole_tile_versions():
    rng = np.random.default_rng(37)
    checked = failing = 0
    for scene, clean in _items():
        side = scene["tile"]
        for trial in range(6):
            pixels = clean.copy()
            for _ in range(trial):  # dots, lines and bites planted in the panels
                box = scene["option_boxes" if rng.random() < 0.7 else "query_boxes"][int(rng.integers(4))]
                y, x = int(rng.integers(box[1] + 2, box[3] - 2)), int(rng.integers(box[0] + 2, box[2] - 2))
                h, w = (int(v) for v in rng.integers(1, 6, 2))
                pixels[y:y + h, x:x + w] = int(rng.choice([0, 40, 120, 255]))
            for kind in ("query", "option"):
                for box, description in zip(scene[f"{kind}_boxes"], scene[f"{kind}s" if kind == "option" else kind],
                                            strict=True):
                    tile = pixels[box[1]:box[3], box[0]:box[2]]
                    darkest = verifier.darkest_channel(tile)
                    holes = description.get("holes" if kind == "option" else "punches") or []
                    radius = float(description["radius"])
                    want = _hole_failures_full_tile(darkest, holes, radius, side, kind)
                    assert verifier.hole_failures(darkest, holes, radius, side, kind) == want
                    if kind == "option":
                        marks = _mark_failures_per_option(darkest, description, side, kind)
                        assert verifier.mark_failures(darkest, description, side, kind) == marks
                        failing += bool(marks)
                    checked += 1
    assert checked and failing


def test_record_checks_give_the_verdicts_of_the_one_by_one_unions():
    edits = [
        lambda s: s["query"][1]["fold"].update(side=-s["query"][1]["fold"]["side"]),
        lambda s: s["query"][2]["layers"][0]["ring"].reverse(),
        lambda s: s["query"][2]["layers"][-1].update(flap=not s["query"][2]["layers"][-1]["flap"]),
        lambda s: s["query"][1]["ghost"].clear(),
        lambda s: s["query"][3]["layers"].pop(),
        lambda s: s["query"][2]["layers"][0]["ring"].__setitem__(0, [0.5, 0.5]),
        lambda s: s["options"][0]["creases"].pop() if s["options"][0]["creases"] else None,
        lambda s: s["query"][1]["layers"][0]["ring"].__setitem__(1, [0.9, 0.1]),
        lambda s: s["query"][2]["ghost"].append([[0.1, 0.1], [0.2, 0.1], [0.1, 0.2]]),
    ]
    seen_failures = 0
    for scene, _ in _items():
        want = _record_failures_as_before(scene, pytest.MonkeyPatch.context)
        assert verifier.record_failures(scene) == want
        for edit in edits:
            broken = copy.deepcopy(scene)
            edit(broken)
            want = _record_failures_as_before(broken, pytest.MonkeyPatch.context)
            assert verifier.record_failures(broken) == want
            seen_failures += bool(want)
        # a ring shapely cannot close: the same error either way
        broken = copy.deepcopy(scene)
        broken["query"][2]["layers"][0]["ring"] = broken["query"][2]["layers"][0]["ring"][:2]
        outcomes = []
        for check in (lambda s: _record_failures_as_before(s, pytest.MonkeyPatch.context), verifier.record_failures):
            try:
                outcomes.append(check(broken))
            except Exception as exc:  # the same exception type either way
                outcomes.append(type(exc))
        assert outcomes[0] == outcomes[1]
    assert seen_failures > len(_items())
