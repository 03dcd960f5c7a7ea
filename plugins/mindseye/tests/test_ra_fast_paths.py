"""Relation abstraction: every shortcut of the generator and the verifier gives exactly what the plain code it
replaced gives (candidate negatives turned only when their turn-free misfit bound comes first, that bound in real
arithmetic; the verifier's disc rasters cut to the widest radius once, its segment lookup built in one go)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from bench_core import build_item, default_host, plan
from bench_plugin_mindseye import relation_abstraction as ra
from bench_plugin_mindseye.strokes import flatten, ink_shape
from bench_plugin_mindseye.verifiers import relation_abstraction as verifier

_FAMILIES = sorted({f for c in ra.CONCEPTS.values() for f in (*c.positives, *c.near, *c.far)},
                   key=lambda f: f.__name__)


def _figures(seed: int, count: int) -> list[ra.Figure]:
    """Figures of every family, and near misses of them, from one seed."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        family = _FAMILIES[int(rng.integers(len(_FAMILIES)))]
        try:
            figure = family(rng)
        except RuntimeError:
            continue
        out.append(figure)
        concept = list(ra.CONCEPTS.values())[int(rng.integers(len(ra.CONCEPTS)))]
        edited = concept.edit([s.copy() for s in figure], rng, 0.12)
        if edited is not None:
            out.append(edited)
    return out


def test_turn_free_shape_is_ink_shapes_turn_free_columns():
    for figure in _figures(3, 300):
        polylines = [flatten(s, 0.05) for s in figure]
        elongation, length = ra._turn_free_shape(polylines)
        shape = ink_shape(polylines)
        assert elongation == pytest.approx(shape[0], rel=1e-11, abs=1e-13)
        assert length == pytest.approx(shape[2], rel=1e-11, abs=1e-13)


@pytest.mark.parametrize("seed", [1, 2])
def test_turning_draws_and_gives_what_turn_to_gives(seed):
    """``_Turning`` (bound first, the turn when settled) takes the same draws as ``_turn_to`` and settles on its
    angle and misfit, bit for bit; its bound never exceeds the misfit.  Targets are the shapes of other figures
    (some candidates then come within a unit, and take ``_turn_to``'s own path)."""
    figures = _figures(seed, 240)
    rng = np.random.default_rng(seed)
    eager = 0
    for k, figure in enumerate(figures):
        target = ink_shape([flatten(s, 0.05) for s in figures[k - 1]])
        if k % 3 == 0:  # targets a little off this figure's own shape: close turns exist
            target = ink_shape([flatten(s, 0.05) for s in figure]) + rng.normal(0, 0.3, 4) * ra.SHAPE_SCALE
        state = rng.bit_generator.state
        angle, misfit = ra._turn_to(rng, figure, target)
        after = rng.bit_generator.state
        rng.bit_generator.state = state
        turning = ra._Turning.of(rng, figure, target)
        assert rng.bit_generator.state == after
        eager += turning.misfit is not None
        assert turning.lower <= misfit
        turning.settle()
        assert (turning.angle, turning.misfit) == (angle, misfit)
    assert eager > 20


def _old_negative(task: ra.RelationAbstraction, rng: np.random.Generator, concept: ra.Concept,
                  want: Mapping[str, Any], near: bool, magnitude: float, near_families: Sequence[ra.Family],
                  target: np.ndarray) -> ra._Candidate | None:
    """``RelationAbstraction._negative`` as it was: every candidate turned (``_turn_to``) and the pool sorted."""
    key = concept.attribute
    others = {k: v for k, v in want.items() if k != key}
    sources = near_families if near else concept.far
    pool: list[tuple[float, int, ra.Figure, str, float, ra.Figure | None]] = []
    for attempt in range(ra.NEGATIVE_ROUNDS):
        for draw in range(ra.NEGATIVE_DRAWS):
            family = sources[int(rng.integers(len(sources)))]
            try:
                figure = base = family(rng)
            except RuntimeError:
                continue
            if near:
                figure = concept.edit([s.copy() for s in base], rng, magnitude)
                if figure is None:
                    continue
            angle, misfit = ra._turn_to(rng, figure, target)
            pool.append((misfit, attempt * ra.NEGATIVE_DRAWS + draw, figure, family.__name__, angle,
                         base if near else None))
        pool.sort(key=lambda entry: entry[:2])
        last = attempt == ra.NEGATIVE_ROUNDS - 1
        while pool and (last or pool[0][0] <= 1.0):
            _, _, figure, family, angle, base = pool.pop(0)
            candidate = task._measure_placed(figure, ra._place(rng, figure, angle), family, others)
            if candidate is None or (base is not None and task._measure(rng, base, family, want) is None):
                continue
            value = candidate.attributes[key]
            if concept.name == "lines":
                lost = isinstance(value, int) and (abs(value - want[key]) in (1,) if near else
                                                   abs(value - want[key]) >= 2)
            else:
                lost = value != want[key]
            if lost:
                return candidate
    return None


@pytest.mark.parametrize("name", sorted(ra.CONCEPTS))
def test_negative_is_the_one_the_sorted_pool_gave(name):
    """The lazily turned pool measures the candidates in the order the sorted pool did: the same negative, and
    the same draws left behind, for near and far negatives of every concept (targets: sampled positives')."""
    task = ra.TASK
    concept = ra.CONCEPTS[name]
    for seed in range(2):
        rng = np.random.default_rng([seed, len(name)])
        value = int(rng.integers(3, 7)) if name == "lines" else concept.value
        families = ra.line_families(value) if name == "lines" else concept.positives
        want = {concept.attribute: value}
        hidden = task._sample(rng, families, want)
        if hidden is None:
            continue
        target = ink_shape(hidden.polylines)
        for near in (False, True):
            near_families = ra.line_families(value) if name == "lines" else concept.near
            state = rng.bit_generator.state
            old = _old_negative(task, rng, concept, want, near, 0.14, near_families, target)
            after = rng.bit_generator.state
            rng.bit_generator.state = state
            new = task._negative(rng, concept, want, near, 0.14, near_families, target)
            assert rng.bit_generator.state == after
            assert (old is None) == (new is None)
            if old is not None:
                assert old.family == new.family and old.attributes == new.attributes
                for a, b in zip(old.strokes, new.strokes, strict=True):
                    assert np.array_equal(a.points, b.points) and np.array_equal(a.bulges, b.bulges)


def _old_discs(points: np.ndarray, width: int, height: int, radii: Sequence[float],
               centre: float) -> list[np.ndarray]:
    """``verifiers.relation_abstraction._discs`` as it was: every window cell tested against every radius."""
    reach = math.ceil(max(radii)) + 1
    offsets = np.arange(-reach, reach + 1)
    base = np.floor(points - centre).astype(np.int64)
    fx = (base[:, 0] + centre - points[:, 0])[:, None] + offsets[None]
    fy = (base[:, 1] + centre - points[:, 1])[:, None] + offsets[None]
    square = ((fx * fx)[:, None, :] + (fy * fy)[:, :, None]).reshape(len(points), -1)
    cx, cy = base[:, 0, None] + offsets[None], base[:, 1, None] + offsets[None]
    inside = (((cx >= 0) & (cx < width))[:, None, :] & ((cy >= 0) & (cy < height))[:, :, None]).reshape(len(points), -1)
    flat = ((cy * width)[:, :, None] + cx[:, None, :]).reshape(len(points), -1)
    out = []
    for r in radii:
        raster = np.zeros(width * height, dtype=bool)
        raster[flat[inside & (square <= r * r)]] = True
        out.append(raster)
    return out


def test_discs_are_the_plain_discs():
    rng = np.random.default_rng(5)
    for _ in range(40):
        points = rng.uniform(-5, 60, size=(int(rng.integers(1, 200)), 2))
        radii = list(rng.uniform(0.3, 6.0, size=int(rng.integers(1, 5))))
        for centre in (0.0, 0.5):
            new = verifier._discs(points, 50, 40, radii, centre)
            old = _old_discs(points, 50, 40, radii, centre)
            assert all(np.array_equal(a, b) for a, b in zip(new, old, strict=True))


def test_segment_lookup_is_the_plain_one():
    """The verifier's segment lookup (sorted ends, searched) finds what the dict of ends it replaced found: the
    first segment of two with the same ends, either way round, or none: for every segment, for the edges of every
    region's boundary, and for edges that are no segment."""

    host = default_host()
    task = host.task("mindseye/relation-abstraction")
    checked = 0
    rng = np.random.default_rng(8)
    for job in plan(task, {}, 17, 8):
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, encode=False, verify=False)
        for description in built.item.metadata["scene"]["options"]:
            measure = verifier.FigureMeasure(json.loads(json.dumps(description)))
            ends = np.concatenate([np.stack([d[:-1], d[1:]], axis=1) for d in measure.dense])
            plain: dict[tuple[float, ...], int] = {}
            for g, (x0, y0, x1, y1) in enumerate(ends.reshape(-1, 4).tolist()):
                plain.setdefault((x0, y0, x1, y1), g)
                plain.setdefault((x1, y1, x0, y0), g)
            starts, stops = [ends[:, 0], ends[:, 1]], [ends[:, 1], ends[:, 0]]
            for face in measure._faces():
                ring = np.asarray(face.exterior.coords)[:-1]
                starts.append(ring)
                stops.append(np.roll(ring, -1, axis=0))
            starts.append(ends[:, 0] + rng.normal(0, 1e-3, ends[:, 0].shape))
            stops.append(ends[:, 1])
            a, b = np.vstack(starts), np.vstack(stops)
            expected = [plain.get((x0, y0, x1, y1), -1) for (x0, y0), (x1, y1) in zip(a.tolist(), b.tolist(),
                                                                                       strict=True)]
            assert measure._segments_along(a, b).tolist() == expected
            checked += 1
    assert checked == 48


def test_quick_line_figure_measures_what_line_figure_does():
    """``QuickLineFigure`` (the hull of the ink as one line, the ink's depth from the hull's edge lines) has the
    hull, and every attribute, of ``LineFigure``; the depth is shapely's distance to rounding."""
    import shapely

    from bench_plugin_mindseye.attributes import LINE_ATTRIBUTES, LineFigure
    from bench_plugin_mindseye.figure_checks import QuickLineFigure, hull_depth

    rng = np.random.default_rng(9)
    for figure in _figures(11, 400):
        placed = ra._place(rng, figure)
        polylines = [flatten(s, ra.ARC_CHORD) for s in placed]
        plain, quick = LineFigure(polylines), QuickLineFigure(polylines)
        assert plain._hull().equals_exact(quick._hull(), 0)
        assert np.array_equal(shapely.get_coordinates(plain._hull()), shapely.get_coordinates(quick._hull()))
        assert plain.values(LINE_ATTRIBUTES) == quick.values(LINE_ATTRIBUTES)
        hull = plain._hull()
        if hull.geom_type == "Polygon":
            exact = float(shapely.distance(hull.exterior, shapely.points(plain._ink())).max())
            assert hull_depth(plain._ink(), hull) == pytest.approx(exact, rel=1e-9, abs=1e-12 * plain.size)


def test_verifier_hull_and_depth_are_the_plain_ones():
    """The verifier's hull (of its ink as one line) is shapely's hull of the ink points, and the ink's depth in
    it is shapely's distance from its boundary, to rounding."""
    import shapely

    host = default_host()
    task = host.task("mindseye/relation-abstraction")
    for job in plan(task, {}, 23, 8):
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, encode=False, verify=False)
        for description in built.item.metadata["scene"]["options"]:
            measure = verifier.FigureMeasure(json.loads(json.dumps(description)))
            ink = measure._ink()
            plain = shapely.convex_hull(shapely.multipoints(ink))
            assert np.array_equal(shapely.get_coordinates(plain), shapely.get_coordinates(measure._hull()))
            if plain.geom_type == "Polygon":
                exact = float(shapely.distance(plain.exterior, shapely.points(ink)).max())
                assert verifier._depth(ink, plain) == pytest.approx(exact, rel=1e-9, abs=1e-12 * measure.size)


def _old_drawing_failures(image: Any, scene: Mapping[str, Any]) -> list[str]:
    """``verifiers.relation_abstraction.drawing_failures`` as it was: the darkest channel of the whole image, the
    panels sliced from it."""
    rgb = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    grey = np.minimum(np.minimum(rgb[..., 0], rgb[..., 1]), rgb[..., 2])
    side = int(scene["tile"])
    failures = []
    for k, (box, description) in enumerate(zip(scene["option_boxes"], scene["options"], strict=True)):
        letter = chr(ord("A") + k)
        left, top, right, bottom = (int(v) for v in box)
        tile = grey[top:bottom, left:right]
        if tile.shape != (side, side):
            failures.append(f"panel {letter}: box {box} is not {side} pixels square")
            continue
        _, _, allowed, inner = verifier._masks(description, side)
        f = verifier._FRAME
        stray = (tile[f:-f, f:-f] < verifier._INK_LEVEL) & ~allowed[f:-f, f:-f]
        if int(stray.sum()) > verifier._STRAY:
            failures.append(f"panel {letter} has {int(stray.sum())} ink pixels where its record has no stroke")
        unpainted = int(np.count_nonzero(tile[inner] >= verifier._INNER_LIGHT))
        if unpainted:
            failures.append(f"panel {letter}: {unpainted} pixels {verifier._INSET:g} px inside its recorded strokes "
                            f"are not ink (a stroke broken or moved)")
        padded = np.pad(tile, 1, constant_values=verifier._PAPER)
        for s, pieces in enumerate(verifier._pieces(description)):
            pts = verifier._samples(pieces, 1.5)
            ix = np.clip(np.floor(pts[:, 0] - verifier._CENTRE + 0.5).astype(int), 0, side - 1) + 1
            iy = np.clip(np.floor(pts[:, 1] - verifier._CENTRE + 0.5).astype(int), 0, side - 1) + 1
            darkest = np.min([padded[iy + dy, ix + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)], axis=0)
            covered = float((darkest < verifier._DARK).mean())
            if covered < verifier._COVERED:
                failures.append(f"panel {letter}: recorded stroke {s + 1} is not drawn ({1 - covered:.0%} of it "
                                f"missing)")
    return failures


def test_drawing_failures_are_the_plain_ones():
    """The stroke checks cut each panel from the image rather than the darkest channel of the whole image: the
    same failures, for sound items, for planted faults (a stroke painted over, ink added, a panel moved), and for
    boxes off the canvas or of the wrong size."""
    from PIL import ImageDraw

    host = default_host()
    task = host.task("mindseye/relation-abstraction")
    rng = np.random.default_rng(4)
    for job in plan(task, {}, 29, 4):
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, encode=False, verify=False)
        scene = built.item.metadata["scene"]
        image = built.images[0].convert("RGB")
        assert verifier.drawing_failures(image, scene) == _old_drawing_failures(image, scene) == []
        faulty = image.copy()
        draw = ImageDraw.Draw(faulty)
        for left, top, right, bottom in scene["option_boxes"][:3]:
            x, y = int(rng.integers(left + 20, right - 20)), int(rng.integers(top + 20, bottom - 20))
            draw.rectangle((x - 8, y - 8, x + 8, y + 8), fill=(255, 255, 255) if rng.random() < 0.5 else (0, 0, 0))
        assert verifier.drawing_failures(faulty, scene) == _old_drawing_failures(faulty, scene)
        width, height = image.size
        for box in ([-10, 0, 290, 300], [width - 100, 5, width + 200, 305], [3, height - 50, 303, height + 250],
                    [10, 10, 200, 200]):
            odd = {**scene, "option_boxes": [box, *scene["option_boxes"][1:]]}
            assert verifier.drawing_failures(image, odd) == _old_drawing_failures(image, odd)
        shifted = {**scene, "option_boxes": [[a + 3, b, c + 3, d] for a, b, c, d in scene["option_boxes"]]}
        found = verifier.drawing_failures(image, shifted)
        assert found == _old_drawing_failures(image, shifted) and found


def test_quick_order_is_every_attribute_once():
    """``QuickLineFigure.decided`` measures every attribute ``LineFigure.decided`` does (in another order)."""
    from bench_plugin_mindseye.attributes import _COST_ORDER, LINE_ATTRIBUTES
    from bench_plugin_mindseye.figure_checks import QuickLineFigure

    assert sorted(QuickLineFigure.ORDER) == sorted(_COST_ORDER) == sorted(LINE_ATTRIBUTES)


def test_quick_decided_is_line_figure_decided():
    from bench_plugin_mindseye.attributes import LineFigure
    from bench_plugin_mindseye.figure_checks import QuickLineFigure

    rng = np.random.default_rng(12)
    undecided = 0
    for figure in _figures(13, 300):
        polylines = [flatten(s, ra.ARC_CHORD) for s in ra._place(rng, figure)]
        plain = LineFigure(polylines).decided()
        assert QuickLineFigure(polylines).decided() == plain
        undecided += plain is None
    assert undecided > 10
