"""VCS (conceptual slippage): the shortcuts of the generator give exactly what the direct computations give.

Each test sets a shortcut against the computation it replaces, written out here as first written: the window a
panel of marks is drawn in against the whole supersampled tile, the ink terms measured all at once against one
polygon at a time, a reflected mark's box against the reflected mark's, the violator's slot chosen with and
without the floors that leave candidates unmade, the places of enclosed objects against the try-by-try loop."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from shapely import affinity

from bench_plugin_mindseye import conceptual_slippage as cs
from bench_plugin_mindseye.attributes import _median, _reflected_box, _reflection
from bench_plugin_mindseye.layout import BACKGROUND, Tile
from bench_plugin_mindseye.nuisance import option_features
from bench_plugin_mindseye.slippage_concepts import BUILDERS, Unbuildable, _enclosed_spots
from bench_plugin_mindseye.slippage_panels import GRID, Panel, draw_look, ink_shape, measure_ink, shape_polygon

TASK = cs.TASK
MAJORITY = {"topology": "open", "border": "thin", "hollowness": "hollow"}


def _panels(seed: int, count: int, concepts=("number", "border", "hollowness", "enclosure", "symmetry",
                                             "alignment", "topology", "spacing")) -> list[Panel]:
    """Conforming and violating panels of ``count`` nuisance draws, some scaled up past the panel's edge."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        concept = concepts[k % len(concepts)]
        look = draw_look(rng, concept, "high", "star", 4 if concept == "number" else None)
        try:
            plain, versions = BUILDERS[concept](rng, look, "weak", MAJORITY.get(concept, ""))
            made = [plain, *versions.every()[:2]]
        except Unbuildable:
            continue
        out += [Panel(marks=tuple(marks)).scaled(float(rng.uniform(0.5, 1.6))) for marks in made]
    return out


def _whole_tile(panel: Panel, side: int):
    """A panel of marks drawn on the whole supersampled tile and reduced (as first written)."""
    tile = Tile(side, supersample=3)
    unit = tile.scale / GRID
    for mark in panel.marks:
        exterior, *holes = cs.quantised_rings(mark.polygon)
        tile.draw.polygon([(x * unit, y * unit) for x, y in exterior.tolist()], fill=mark.colour)
        for hole in holes:
            tile.draw.polygon([(x * unit, y * unit) for x, y in hole.tolist()], fill=BACKGROUND)
    return tile.finish()


def test_a_panel_drawn_in_its_window_is_the_whole_tile_drawn():
    """``_render`` draws a panel of marks only in the window round its marks: the picture and its nuisance
    features (``window_features``) are those of the whole tile, also for marks that reach past the panel."""
    rng = np.random.default_rng(1)
    for panel in _panels(1, 40):
        for side in (176, 245, int(rng.integers(40, 400))):
            fresh = Panel(marks=panel.marks)
            whole = _whole_tile(fresh, side)
            assert TASK._features(fresh, side) == option_features(whole)
            assert TASK._render(fresh, side).tobytes() == whole.tobytes()


def _ring_moments_alone(points: np.ndarray) -> np.ndarray:
    """A ring's area and moments, one ring at a time (as first written; ``points`` without the closing point)."""
    x0, y0 = points[:, 0], points[:, 1]
    x1, y1 = np.append(x0[1:], x0[:1]), np.append(y0[1:], y0[:1])
    cross = x0 * y1 - x1 * y0
    moments = np.array([cross.sum() / 2, ((x0 + x1) * cross).sum() / 6, ((y0 + y1) * cross).sum() / 6,
                        ((x0 * x0 + x0 * x1 + x1 * x1) * cross).sum() / 12,
                        ((y0 * y0 + y0 * y1 + y1 * y1) * cross).sum() / 12,
                        ((x0 * y1 + 2 * x0 * y0 + 2 * x1 * y1 + x1 * y0) * cross).sum() / 24])
    return moments if moments[0] >= 0 else -moments


def _ink_shape_alone(polygons) -> np.ndarray:
    """``ink_shape`` summed in numpy arrays, one polygon at a time (as first written)."""
    total, length = np.zeros(6), 0.0
    low, high = np.full(2, np.inf), np.full(2, -np.inf)
    for polygon in polygons:
        shell = np.asarray(polygon.exterior.coords)[:-1]
        total += _ring_moments_alone(shell)
        low, high = np.minimum(low, shell.min(axis=0)), np.maximum(high, shell.max(axis=0))
        length += polygon.exterior.length
        for ring in polygon.interiors:
            total -= _ring_moments_alone(np.asarray(ring.coords)[:-1])
            length += ring.length
    area, sx, sy, sxx, syy, sxy = total
    cx, cy = sx / area, sy / area
    vxx, vyy, vxy = sxx / area - cx * cx, syy / area - cy * cy, sxy / area - cx * cy
    spread = vxx + vyy
    extent = high - low
    return np.array([float(np.hypot(vxx - vyy, 2 * vxy) / spread), np.log(length / np.sqrt(area)),
                     0.5 * np.log(spread / area), np.log(extent[0] * extent[1] / area)])


def test_ink_shape_measured_all_at_once_is_measured_one_polygon_at_a_time():
    """``measure_ink`` measures many polygons' rings in one pass, ``ink_shape`` sums in Python floats: bit for
    bit what one polygon at a time in numpy gives (holes, open outlines, every shape kind)."""
    panels = _panels(2, 48)
    measure_ink([m.polygon for panel in panels[::2] for m in panel.marks])
    for panel in panels:
        polygons = [m.polygon for m in panel.marks]
        assert ink_shape(polygons).tobytes() == _ink_shape_alone(polygons).tobytes()


def test_a_reflected_box_is_the_box_of_the_reflected_mark():
    """``_reflected_box`` maps a mark's exterior as shapely's affine_transform does: the box is the reflected
    mark's own, for every axis of ``scene_symmetry``."""
    rng = np.random.default_rng(3)
    for panel in _panels(3, 24):
        cx, cy = rng.uniform(0.3, 0.7, 2).tolist()
        for angle in (0.0, 45.0, 90.0, 135.0):
            matrix = _reflection(angle, cx, cy)
            for mark in panel.marks:
                assert _reflected_box(mark.polygon, matrix) == affinity.affine_transform(mark.polygon, matrix).bounds


def test_median_of_a_few_values_is_numpys():
    """``attributes._median`` is ``np.median`` (odd and even counts, ties)."""
    rng = np.random.default_rng(4)
    for _ in range(3000):
        values = rng.uniform(0, 1, int(rng.integers(1, 10))) * 10.0 ** rng.uniform(-3, 1)
        if rng.random() < 0.3:
            values[: len(values) // 2] = values[-1]
        assert _median(values.tolist()) == np.median(values)


def _enclosed_spots_one_try_at_a_time(rng, room, centre, enclosed, apart):
    """Places for the enclosed objects, as first written: every try tested on the room as it is."""
    reach_in = float(np.sqrt(room.area / np.pi)) if not room.is_empty else 0.0
    for _ in range(60):
        turn = rng.uniform(0, 2 * np.pi)
        rho = rng.uniform(0.0 if enclosed == 1 else 0.45, 1.0, size=enclosed) * reach_in
        angles = turn + np.pi * np.arange(enclosed) + rng.uniform(-0.6, 0.6, size=enclosed)
        spots = [centre + r * np.array([np.cos(a), np.sin(a)]) for r, a in zip(rho, angles, strict=True)]
        if all(room.contains(shapely.Point(p)) for p in spots) and all(
                np.linalg.norm(p - q) > apart for i, p in enumerate(spots) for q in spots[:i]):
            return spots
    return []


def test_enclosed_places_are_the_try_by_try_ones():
    """``_enclosed_spots`` (a prepared room, an empty room's tries drawn in one go) finds the places, and leaves
    the generator where, testing every try on the room as it is would."""
    meta = np.random.default_rng(5)
    outcomes = {"empty": 0, "none": 0, "found": 0}
    for _ in range(300):
        centre = np.array([0.5, 0.5]) + meta.uniform(-0.05, 0.05, 2)
        room = shapely.Point(*centre.tolist()).buffer(float(meta.uniform(0.02, 0.12))).buffer(
            -float(meta.uniform(0.0, 0.1)))
        enclosed, apart = int(meta.integers(1, 3)), float(meta.uniform(0.05, 0.2))
        seed = int(meta.integers(1 << 30))
        old_rng, new_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        old = _enclosed_spots_one_try_at_a_time(old_rng, room, centre, enclosed, apart)
        new = _enclosed_spots(new_rng, room, centre, enclosed, apart)
        assert [p.tolist() for p in old] == [p.tolist() for p in new]
        assert old_rng.bit_generator.state == new_rng.bit_generator.state
        outcomes["empty" if room.is_empty else "found" if old else "none"] += 1
    assert min(outcomes.values()) >= 10


@pytest.mark.parametrize("concept", ["alignment", "border", "enclosure", "symmetry"])
def test_the_violators_slot_is_chosen_as_without_the_floors(concept, monkeypatch):
    """``_matched`` makes a candidate's violating panel only if its floor (``_misfit_floors``) lets it be chosen:
    the chosen look and violator, and the generator's state, are those of making every candidate."""
    outcomes = []
    for floors in ("kept", "none"):
        if floors == "none":
            monkeypatch.setattr(cs, "_misfit_floors", lambda drawn, *_: [-math.inf] * len(drawn))
        rng = np.random.default_rng(7)
        chosen = []
        for prefer in (0, 1, -1, 0):
            reference = TASK._draw(rng, concept, "high", "weak", MAJORITY.get(concept, ""), "circle", None, twin=True)
            if reference is None:
                continue
            draw = TASK._matched(rng, concept, reference, prefer,
                                 lambda rng=rng: draw_look(rng, concept, "high", "circle", None), "weak",
                                 MAJORITY.get(concept, ""))
            chosen.append((draw.look, [(m.polygon.wkb, m.colour) for m in draw.violator.marks]))
        outcomes.append((chosen, rng.bit_generator.state))
    assert outcomes[0] == outcomes[1] and len(outcomes[0][0]) >= 3


def test_a_turned_shape_is_turned_once_per_kind_and_turn():
    """``shape_polygon`` turns a kind's unit shape once per turn (memoised): the polygon is the one made by
    turning it afresh."""
    from bench_plugin_mindseye.slippage_panels import _unit_shape

    rng = np.random.default_rng(8)
    for kind in ("circle", "ellipse", "star", "diamond", "triangle", "square", "pentagon", "hexagon"):
        for _ in range(20):
            rotation, radius = float(rng.uniform(0, 2 * np.pi)), float(rng.uniform(0.03, 0.2))
            centre = rng.uniform(0.2, 0.8, 2)
            c, s = np.cos(rotation), np.sin(rotation)
            afresh = _unit_shape(kind) @ np.array([[c, s], [-s, c]]) * radius + centre
            assert shape_polygon(kind, centre, radius, rotation).wkb == shapely.Polygon(afresh).wkb
