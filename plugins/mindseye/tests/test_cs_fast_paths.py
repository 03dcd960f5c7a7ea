"""VCS (conceptual slippage), 0.2.3: the third round of speed shortcuts against the computations they replace.

The pieces of ink found by testing which grown marks meet (``attributes.ink_pieces``) against the parts of the
union of every grown mark; the centroid of the ink from the marks' own centroids (``attributes._ink_centroid``)
against the union's; a panel's attributes (``scene_attributes``) against the same function with both written
as first written; a tangential shape's outline made by scaling its corners (``slippage_panels.shape_outline``)
against the GEOS buffer and difference of ``outline``."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
import shapely
from shapely import affinity

from bench_plugin_mindseye import attributes
from bench_plugin_mindseye.conceptual_slippage import quantised_rings
from bench_plugin_mindseye.slippage_concepts import BUILDERS, Unbuildable
from bench_plugin_mindseye.slippage_panels import (
    SHAPES,
    TANGENTIAL,
    Panel,
    draw_look,
    outline,
    shape_outline,
    shape_polygon,
)

MAJORITY = {"topology": "open", "border": "thin", "hollowness": "hollow"}
CONCEPTS = ("number", "border", "hollowness", "enclosure", "symmetry", "alignment", "topology", "spacing")


def _panels(seed: int, count: int) -> list[Panel]:
    """Conforming and violating panels of ``count`` nuisance draws of every concept, some scaled down far enough
    that marks meet, plus a few with two marks laid over each other."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        concept = CONCEPTS[k % len(CONCEPTS)]
        look = draw_look(rng, concept, "high", "star", 4 if concept == "number" else None)
        try:
            plain, versions = BUILDERS[concept](rng, look, "weak", MAJORITY.get(concept, ""))
            made = [plain, *versions.every()[:2]]
        except Unbuildable:
            continue
        for marks in made:
            panel = Panel(marks=tuple(marks))
            out += [panel, panel.scaled(float(rng.uniform(0.2, 0.6)))]
        if len(made[0]) >= 2:  # the second mark laid over the first
            first, second = made[0][0], made[0][1]
            moved = affinity.translate(second.polygon, *(np.array(first.polygon.centroid.coords[0])
                                                                 - np.array(second.polygon.centroid.coords[0])
                                                                 + rng.uniform(-0.02, 0.02, 2)))
            out.append(Panel(marks=(first, attrs.evolve(second, polygon=moved), *made[0][2:])))
    return out


def _pieces_as_first_written(marks):
    return list(shapely.get_parts(shapely.unary_union([attributes.grown(m) for m in marks])))


def _scene_attributes_as_first_written(marks, monkeypatch):
    """``scene_attributes`` with the pieces and the ink's centroid made from unions, as first written."""
    with monkeypatch.context() as m:
        m.setattr(attributes, "ink_pieces", _pieces_as_first_written)
        m.setattr(attributes, "_ink_centroid", lambda polys: (lambda c: (c.x, c.y))(
            shapely.unary_union(list(polys)).centroid))
        return attributes.scene_attributes(marks)


def _key(piece):
    c = piece.centroid
    return round(c.x, 9), round(c.y, 9), round(piece.area, 12)


def test_pieces_of_ink_are_the_parts_of_the_union():
    """``ink_pieces`` finds the pieces the union of every grown mark has: as many, each of the same area and
    centroid (a piece alone is its grown mark, as the union gives it but for the order of its corners)."""
    merged = 0
    for panel in _panels(1, 120):
        polygons = [m.polygon for m in panel.marks]
        fast, slow = attributes.ink_pieces(polygons), _pieces_as_first_written(polygons)
        assert len(fast) == len(slow)
        merged += len(fast) < len(polygons)
        for a, b in zip(sorted(fast, key=_key), sorted(slow, key=_key), strict=True):
            assert abs(a.area - b.area) <= 1e-12
            assert np.allclose(a.centroid.coords[0], b.centroid.coords[0], rtol=0, atol=1e-12)
            assert a.symmetric_difference(b).area <= 1e-12
    assert merged >= 10


def test_the_ink_centroid_is_the_unions():
    """``_ink_centroid`` from the marks' centroids weighted by their areas is the union's centroid (marks that meet
    take the union itself)."""
    for panel in _panels(2, 120):
        polygons = [m.polygon for m in panel.marks]
        c = shapely.unary_union(polygons).centroid
        assert np.allclose(attributes._ink_centroid(polygons), (c.x, c.y), rtol=0, atol=1e-12)


def test_panel_attributes_are_those_measured_as_first_written(monkeypatch):
    """``scene_attributes`` (pieces and centroid by the shortcuts) gives every panel the attributes it gave with
    both made from unions."""
    panels = _panels(3, 160)
    for panel in panels:
        marks = [(m.polygon, m.colour) for m in panel.marks]
        assert attributes.scene_attributes(marks) == _scene_attributes_as_first_written(marks, monkeypatch)
    assert len(panels) >= 300


@pytest.mark.parametrize("kind", SHAPES)
def test_an_outline_made_by_scaling_is_the_overlaid_one(kind):
    """``shape_outline`` is ``outline(shape_polygon(...))``: refused for the same widths, the same rings (shell
    then hole, each from the same corner the same way round) within a few units in the last place, and the same
    rings on the record's grid (``quantised_rings``).  Kinds that are not tangential (the ellipse) are
    overlaid as before."""
    rng = np.random.default_rng(SHAPES.index(kind))
    made = refused = 0
    for _ in range(600):
        centre, radius, turn = rng.uniform(0.05, 0.95, 2), float(rng.uniform(0.03, 0.25)), float(rng.uniform(0, 7))
        shape = shape_polygon(kind, centre, radius, turn)
        width = max(0.0115, float(rng.uniform(0.1, 0.8)) * attributes.inradius(shape))
        try:
            slow = outline(shape, width)
        except ValueError:
            slow = None
        try:
            fast = shape_outline(kind, centre, radius, turn, width)
        except ValueError:
            fast = None
        assert (slow is None) == (fast is None)
        if slow is None:
            refused += 1
            continue
        made += 1
        slow_rings, fast_rings = (list(map(np.asarray, (p.exterior.coords, *(r.coords for r in p.interiors))))
                                  for p in (slow, fast))
        assert len(slow_rings) == len(fast_rings) == 2
        for a, b in zip(slow_rings, fast_rings, strict=True):
            assert a.shape == b.shape and np.abs(a - b).max() <= 1e-14
        assert all(np.array_equal(a, b) for a, b in zip(quantised_rings(slow), quantised_rings(fast), strict=True))
        if kind not in TANGENTIAL:
            assert slow.equals_exact(fast, 0.0)
    assert made >= 100 and refused >= 20


def test_a_moved_mark_is_shapelys_translation_bit_for_bit():
    """``build_symmetry`` moves a mark by ``affine_chain`` with a translation: the polygon ``affinity.translate``
    made, bit for bit."""
    from bench_plugin_mindseye.slippage_panels import affine_chain

    rng = np.random.default_rng(9)
    for k in range(2000):
        polygon = shape_polygon(SHAPES[k % len(SHAPES)], rng.uniform(0, 1, 2), float(rng.uniform(0.03, 0.2)),
                                float(rng.uniform(0, 7)))
        dx, dy = (float(v) for v in rng.uniform(-0.2, 0.2, 2))
        assert affine_chain(polygon, ((1.0, 0.0, 0.0, 1.0, dx, dy),)).wkb == affinity.translate(polygon, dx, dy).wkb
