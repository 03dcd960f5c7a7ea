"""The SPHINX kit: motifs, the self-symmetry probe, image comparison, tilings and the complexity mapping."""

from __future__ import annotations

import math

import numpy as np
import pytest
from bench_plugin_sphinx.descriptions import common
from bench_plugin_sphinx.kit import compare, complexity, motifs, probe, sampling, tilings
from bench_plugin_sphinx.kit.palette import PALETTE, phrase


def test_descriptions_keep_step_with_the_kit():
    assert tuple(motifs.FAMILIES) == common.MOTIF_FAMILIES
    assert common.ALIASES == complexity.ALIASES
    assert len(motifs.PAPER_FAMILIES) == 25 and motifs.PAPER_FAMILIES[11] == "icons"


def test_colours_are_named_with_their_hex():
    assert phrase("purple") == "purple (#4b0082)"
    assert len(set(PALETTE.values())) == 10


@pytest.mark.parametrize("family", list(motifs.FAMILIES))
@pytest.mark.parametrize("mode", motifs.MODES)
def test_every_family_samples_json_and_renders_deterministically(family, mode):
    spec = motifs.sample(family, np.random.default_rng(7), mode)
    again = motifs.sample(family, np.random.default_rng(7), mode)
    assert spec == again and spec["family"] == family and spec["mode"] == mode
    image = motifs.render(spec, 64)
    assert image.shape == (64, 64, 3) and image.dtype == np.uint8
    assert probe.ink_mask(image).mean() > 0.02, "the motif draws (almost) nothing"
    assert np.array_equal(image, motifs.render(again, 64))


def test_asymmetric_mode_mostly_passes_the_probe_and_symmetric_mode_is_caught():
    rng = np.random.default_rng(11)
    passed = sum(not probe.invariant_ops(motifs.render(motifs.sample(f, rng, "asym"), 96))
                 for f in motifs.FAMILIES for _ in range(3))
    assert passed >= 0.75 * 3 * len(motifs.FAMILIES)
    regular = {"family": "polygon", "mode": "sym", "colour": "red",
               "params": {"radii": [0.85] * 4, "angles": [0.0, 90.0, 180.0, 270.0], "phase": 45.0}}
    square = motifs.render(regular, 96)  # an axis-aligned square: every D4 operation is a symmetry
    assert set(probe.invariant_ops(square)) == set(probe.D4[1:])
    glyph = motifs.render({"family": "glyph", "mode": "sym", "colour": "blue", "params": {"char": "A", "turns": 0}}, 96)
    assert "mirror" in probe.invariant_ops(glyph) and "flip" not in probe.invariant_ops(glyph)


def test_a_motif_drawn_again_from_its_kept_primitives_is_the_same():
    """``render`` keeps the primitives of the specs it drew lately: drawing a spec again, after enough others to
    push it out, or a spec that differs in one value only, must give what drawing it afresh gives."""
    rng = np.random.default_rng(9)
    spec = motifs.sample("gear", rng, "asym")
    first = motifs.render(spec, 72)
    assert np.array_equal(motifs.render(spec, 72), first)
    recoloured = {**spec, "colour": next(name for name in PALETTE if name != spec["colour"])}
    assert not np.array_equal(motifs.render(recoloured, 72), first)
    turned = {**spec, "params": {**spec["params"], "angle": spec["params"]["angle"] + 90.0}}
    assert not np.array_equal(motifs.render(turned, 72), first)
    for family in list(motifs.FAMILIES) * 3:
        motifs.render(motifs.sample(family, rng, "asym"), 24)
    assert np.array_equal(motifs.render(spec, 72), first)
    assert np.array_equal(motifs.render(dict(reversed(list(spec.items()))), 72), first)


@pytest.mark.parametrize("mode", ["asym", "sym"])
def test_invariant_ops_agrees_with_change_fraction_op_by_op(mode):
    """``invariant_ops`` reads the motif once for all operations; each verdict must be ``change_fraction``'s."""
    rng = np.random.default_rng(4)
    for family in list(motifs.FAMILIES)[::3]:
        tile = motifs.render(motifs.sample(family, rng, mode), 64)
        for fraction in (0.05, probe.INVARIANT_FRACTION, 0.4):
            expected = [op for op in probe.D4[1:] if probe.change_fraction(tile, op) < fraction]
            assert probe.invariant_ops(tile, fraction=fraction) == expected, (family, fraction)


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (64, 41)])
def test_image_keys_are_pillows_rgbx_words(size):
    """The verifiers' one-integer-per-pixel colours: the packed RGB bytes read three bytes apart must give exactly
    Pillow's RGBX words with the padding masked off, the last pixel included."""
    from bench_plugin_sphinx.verifiers.pixels import image_keys
    from PIL import Image

    rgb = np.random.default_rng(size[0]).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    image = Image.fromarray(rgb)
    expected = np.frombuffer(image.tobytes("raw", "RGBX"), dtype="<u4").reshape(size[1], size[0]) & 0xFFFFFF
    keys = image_keys(image)
    assert keys.dtype == np.uint32 and np.array_equal(keys, expected)
    assert np.array_equal(image_keys(image.convert("P")), image_keys(image.convert("P").convert("RGB")))


def test_all_distinct_is_distinct_pair_by_pair():
    rng = np.random.default_rng(6)
    for family in list(motifs.FAMILIES)[::2]:
        for mode in ("asym", "sym"):
            small = motifs.render(motifs.sample(family, rng, mode), 48)
            tiles = [probe.apply(op, small) for op in ("identity", "mirror", "flip", "rot180")]
            pairwise = all(compare.distinct(tiles[a], tiles[b]) for a in range(4) for b in range(a + 1, 4))
            assert compare.all_distinct(tiles) == pairwise, (family, mode)
    assert not compare.all_distinct([small, small.copy()])
    with pytest.raises(ValueError):
        compare.all_distinct([small, small[:-1]])


def test_d4_operations_follow_the_image_conventions():
    a = np.arange(9).reshape(3, 3)
    assert probe.apply("mirror", a)[0].tolist() == [2, 1, 0]       # left and right swap
    assert probe.apply("flip", a)[0].tolist() == [6, 7, 8]         # top and bottom swap
    assert probe.apply("transpose", a)[0].tolist() == [0, 3, 6]    # across the ↘ diagonal
    assert probe.apply("transverse", a)[0].tolist() == [8, 5, 2]   # across the ↙ diagonal
    assert probe.apply("rot90", a)[0].tolist() == [2, 5, 8]        # a quarter counterclockwise
    assert probe.apply("rot270", a)[0].tolist() == [6, 3, 0]       # a quarter clockwise
    assert probe.compose("mirror", "flip") == "rot180"
    assert probe.compose("transpose", "mirror") == "rot270"  # the array turned a quarter clockwise


def test_comparison_thresholds():
    white = np.full((64, 64, 3), 255, np.uint8)
    speck = white.copy()
    speck[:3, :3] = 0
    assert compare.same(white, speck) and not compare.distinct(white, speck)
    half = white.copy()
    half[:, :32] = 0
    assert compare.distinct(white, half) and not compare.same(white, half)
    assert compare.diff_fraction(white, half) == pytest.approx(0.5)
    assert compare.dhash_distance(half, probe.apply("mirror", half)) > 4


def test_square_tiling_adjacency_and_classes():
    t = tilings.build("square", 3, 2)
    assert len(t.cells) == 6 and len(t.vertices) == 12
    edges = t.edges()
    assert sum(len(c) == 2 for c in edges.values()) == 7  # interior edges of a 3 x 2 board
    assert len(t.border_edges()) == 10
    graph = t.adjacency()
    assert sorted(len(n) for n in graph.values()) == [2, 2, 2, 2, 3, 3]
    touch = t.adjacency(touch=True)
    assert len(touch[0]) == 3  # the corner cell touches its diagonal neighbour too
    assert [t.colour_class(c) for c in t.cells[:3]] == [0, 2, 0]


@pytest.mark.parametrize(("name", "w", "h"), [("triangular", 6, 4), ("hexagonal", 5, 4), ("rhombille", 4, 3)])
def test_edge_tilings_share_edges_exactly(name, w, h):
    t = tilings.build(name, w, h)
    polygons = t.polygons()
    graph = t.adjacency()
    for cell in t.cells:
        for other in graph[cell.id]:
            shared = polygons[cell.id].intersection(polygons[other])
            assert math.isclose(shared.length, 1.0, abs_tol=1e-5), (cell, other, shared)
        for other in range(len(t.cells)):
            if other != cell.id and other not in graph[cell.id]:
                assert polygons[cell.id].intersection(polygons[other]).length < 1e-5
    assert sum(p.area for p in polygons) == pytest.approx(polygons[0].union(polygons[1]).area * 0 +
                                                          sum(p.area for p in polygons))
    degrees = {"triangular": 3, "hexagonal": 6, "rhombille": 4}[name]
    assert max(len(n) for n in graph.values()) == degrees
    classes = {t.colour_class(c) for c in t.cells}
    assert classes == {0, 1, 2}


@pytest.mark.parametrize("name", ["square", "triangular", "hexagonal", "rhombille"])
def test_colour_classes_are_a_periodic_colouring(name):
    """Edge neighbours never share a class (but rhombille's, whose classes are orientations), and a translation
    of the board by a lattice period that maps cells onto cells maps each class onto a single class."""
    t = tilings.build(name, 7, 7)
    classes = {c.id: t.colour_class(c) for c in t.cells}
    if name != "rhombille":
        assert all(classes[a] != classes[b] for a, nbrs in t.adjacency().items() for b in nbrs)
    centres = {c.id: (round(p.centroid.x, 4), round(p.centroid.y, 4))
               for c, p in zip(t.cells, t.polygons(), strict=True)}
    at = {xy: i for i, xy in centres.items()}
    for a in t.cells:
        for b in t.cells:
            dx, dy = centres[b.id][0] - centres[a.id][0], centres[b.id][1] - centres[a.id][1]
            image = {i: at.get((round(x + dx, 4), round(y + dy, 4))) for i, (x, y) in centres.items()}
            pairs = {(classes[i], classes[j]) for i, j in image.items() if j is not None}
            assert len({k for k, _ in pairs}) == len(pairs), (name, a.coord, b.coord)
            break


def test_circle_packing_touches_at_points_only():
    t = tilings.build("circles", 4, 3)
    assert all(not n for n in t.adjacency().values()), "disks share no edge"
    touch = t.adjacency(touch=True)
    assert max(len(n) for n in touch.values()) == 6
    polygons = t.polygons()
    a, b = 0, 1  # horizontal neighbours meet at one vertex
    assert b in touch[a] and polygons[a].intersection(polygons[b]).length < 1e-9


def test_vertex_graph_of_a_square_board():
    t = tilings.build("square", 2, 2)
    graph = t.vertex_graph()
    assert len(graph) == 9 and sum(len(n) for n in graph.values()) == 2 * 12


def test_knob_for_level_keeps_the_papers_bins():
    rng = np.random.default_rng(0)
    assert complexity.complexity(5, 2, 8) == 0.5
    assert complexity.knob_for_level(0.74, [2, 4, 6, 8], 2, 8, rng) == 6   # c = 0.667, easy
    assert complexity.knob_for_level(0.75, [2, 4, 6, 8], 2, 8, rng) == 8   # c = 1, hard
    assert complexity.knob_for_level(0.0, [4, 8], 2, 8, rng) == 4
    record = complexity.record("cells", 64, 9, 64)
    assert record["c"] == 1.0 and record["band"] == "hard" and record["raw"] == 64


@pytest.mark.parametrize("seed", range(4))
def test_sampling_draws_are_numpys_own(seed):
    """``sampling.dirichlet`` and ``sampling.categorical`` draw exactly what ``rng.dirichlet`` and ``rng.choice``
    draw and leave the generator in the same state; an array of uniforms is the same draws one at a time."""
    ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
    for _ in range(400):
        k = int(ours.integers(2, 7))
        assert k == int(numpys.integers(2, 7))
        alpha = ours.uniform(0.02, 2.0)
        assert alpha == numpys.uniform(0.02, 2.0)
        weights = sampling.dirichlet(ours, alpha, k)
        assert np.array_equal(weights, numpys.dirichlet(np.full(k, alpha)))
        size = int(ours.integers(1, 70))
        assert size == int(numpys.integers(1, 70))
        assert np.array_equal(sampling.categorical(ours, weights, size), numpys.choice(k, size=size, p=weights))
        assert ours.random(size).tolist() == [numpys.random() for _ in range(size)]
        assert ours.bit_generator.state == numpys.bit_generator.state


def test_indexed_pieces_map_back_to_their_colours_and_make_the_cores_palette_png():
    """``kit.indexed.indexed`` (colours by a hash into a 16-bit table) gives each pixel the index of its own colour
    among the piece's colours, ascending, for contiguous pieces and views, None past 256 colours; and
    ``palette_picture`` of those indices and colours is written as the core writes the RGB piece."""
    from bench_plugin_sphinx.kit import indexed
    from PIL import Image

    from bench_core import encode_png

    rng = np.random.default_rng(31)
    for count in (1, 2, 17, 200, 256):
        colours = rng.integers(0, 256, (count, 3)).astype(np.uint8)
        piece = colours[rng.integers(0, count, (70, 90))]
        for view in (piece, piece[::-1, ::-1], piece.transpose(1, 0, 2), piece[5:60, 3:80]):
            keys, index = indexed.indexed(view)
            assert np.all(np.diff(keys) > 0) and index.shape == view.shape[:2]
            assert np.array_equal(keys[index], indexed.colour_keys(view)), count
            assert encode_png(indexed.palette_picture(index, keys)) == encode_png(Image.fromarray(
                np.ascontiguousarray(view))), count
    many = rng.integers(0, 256, (40, 40, 3)).astype(np.uint8)
    assert len(np.unique(indexed.colour_keys(many))) > 256 and indexed.indexed(many) is None
