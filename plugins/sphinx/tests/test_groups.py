"""kit.groups: isometries, the frieze and wallpaper groups closed from their generators, seeds, sprites and the
motif probe under arbitrary linear maps."""

from __future__ import annotations

import math

import numpy as np
import pytest
from bench_plugin_sphinx.kit import groups, motifs, probe
from PIL import Image

#: Orders of the point groups and largest rotation orders of the seventeen wallpaper groups (textbook values).
WALLPAPER = {
    "p1": (1, 1), "p2": (2, 2), "pm": (2, 1), "pg": (2, 1), "cm": (2, 1), "pmm": (4, 2), "pmg": (4, 2),
    "pgg": (4, 2), "cmm": (4, 2), "p4": (4, 4), "p4m": (8, 4), "p4g": (8, 4), "p3": (3, 3), "p3m1": (6, 3),
    "p31m": (6, 3), "p6": (6, 6), "p6m": (12, 6),
}

#: The textbook look of each frieze in each layout: the copies' operations in reading order (x, then y).
FRIEZES = {
    ("p1", "row"): "I I I I",
    ("p11g", "row"): "I F I F",
    ("p1m1", "row"): "I M I M",
    ("p2", "row"): "I R I R",
    ("p2mg", "row"): "I M F R",
    ("p11m", "columns"): "I F I F I F I F",
    ("p2", "columns"): "I R I R I R I R",
    ("p2mg", "columns"): "I R M F I R M F",
    ("p2mm", "columns"): "I F M R I F M R",
}
_LETTER = {"identity": "I", "mirror": "M", "flip": "F", "rot180": "R"}


def test_d4_matrices_act_as_the_probe_operations():
    """A point p of a centred array moves to D4_LINEAR[op] @ p under probe.apply(op)."""
    a = np.zeros((5, 5), int)
    a[0, 3] = 1  # x = +1, y = -2 from the centre
    for name, matrix in groups.D4_LINEAR.items():
        moved = probe.apply(name, a)
        y, x = (int(v) for v in np.argwhere(moved == 1)[0])
        assert (x - 2, y - 2) == tuple(int(v) for v in matrix @ np.array((1, -2))), name
        assert groups.d4_name(matrix) == name
    assert groups.d4_name(groups.rotation(60)) is None


def test_rotations_turn_counterclockwise_on_screen_and_reflections_keep_their_axis():
    up = groups.rotation(90) @ np.array((1.0, 0.0, 1.0))  # +x turned a quarter counterclockwise: up the screen
    assert np.allclose(up[:2], (0, -1))
    axis = groups.reflection(30)
    direction = np.array((math.cos(math.radians(30)), -math.sin(math.radians(30)), 0.0))
    assert np.allclose(axis @ direction, direction) and np.allclose(axis @ axis, np.eye(3))
    g = groups.glide(0, 2.0)
    assert np.allclose(g @ g, groups.translation(4.0, 0.0))


@pytest.mark.parametrize(("iuc", "layout"), list(FRIEZES))
def test_frieze_copies_are_the_orbit_of_the_generators(iuc, layout):
    copies = groups.frieze_copies(iuc, layout, 4)
    assert " ".join(_LETTER[c.op] for c in copies) == FRIEZES[(iuc, layout)]
    wide = {(c.x, c.y): c.op for c in groups.frieze_copies(iuc, layout, 12)}
    for generator in groups.FRIEZE_GROUPS[iuc].generators[layout]:  # each generator maps the copies to copies
        for c in groups.frieze_copies(iuc, layout, 12):
            x, y, _ = generator @ np.array((c.x, c.y, 1.0))
            if 0 < x < 12:
                target = groups.d4_name(generator[:2, :2] @ c.part)
                assert wide[(round(x, 6) + 0.0, round(y, 6) + 0.0)] == target


def test_frieze_periods():
    periods = {key: groups.frieze_period(*key) for key in FRIEZES}
    assert periods == {("p1", "row"): 1, ("p11g", "row"): 2, ("p1m1", "row"): 2, ("p2", "row"): 2,
                       ("p2mg", "row"): 4, ("p11m", "columns"): 1, ("p2", "columns"): 1, ("p2mg", "columns"): 2,
                       ("p2mm", "columns"): 2}
    with pytest.raises(ValueError, match="cannot be drawn in layout"):
        groups.frieze_copies("p11m", "row", 4)


@pytest.mark.parametrize("name", list(WALLPAPER))
def test_wallpaper_generators_close_to_the_point_group(name):
    group = groups.WALLPAPER_GROUPS[name]
    lattice = groups.make_lattice(group.lattice, 12000.0, np.random.default_rng(3))
    reps = groups.coset_representatives(name, lattice)
    parts = groups.point_group(reps)
    assert (len(reps), groups.rotation_order(parts)) == WALLPAPER[name]
    assert len(parts) == len(reps)
    for part in parts:  # every linear part maps the lattice onto itself
        image = part @ lattice.matrix
        coords = np.linalg.solve(lattice.matrix, image)
        assert np.allclose(coords, np.rint(coords), atol=1e-6)
    seed, clearance = groups.best_seeds(reps, lattice, np.random.default_rng(1))
    assert clearance > 0.25 * math.sqrt(lattice.cell_area / len(reps))
    copies = groups.pattern_copies(reps, lattice, seed, (0, 0, 300, 300), 0)
    assert len(copies) > 0 and all(0 <= c.x <= 300 and 0 <= c.y <= 300 for c in copies)


def _pattern_copies_reference(reps, lattice, seed, window, reach):
    """``groups.pattern_copies`` as first written (a Copy per lattice point, sorted by y then x): the reference its
    array form (``pattern_centres``) must equal exactly."""
    left, top, right, bottom = window
    basis = lattice.matrix
    inverse = np.linalg.inv(basis)
    corners = np.array([(left - reach, top - reach), (right + reach, top - reach), (left - reach, bottom + reach),
                        (right + reach, bottom + reach)])
    seed = np.array((float(seed[0]), float(seed[1]), 1.0))
    copies = []
    for op in reps:
        centre = (op @ seed)[:2]
        frac = (corners - centre) @ inverse.T
        lo, hi = np.floor(frac.min(axis=0)).astype(int), np.ceil(frac.max(axis=0)).astype(int)
        ij = np.array([(i, j) for i in range(lo[0], hi[0] + 1) for j in range(lo[1], hi[1] + 1)], float)
        points = centre + ij @ basis.T
        inside = ((points[:, 0] >= left - reach) & (points[:, 0] <= right + reach) & (points[:, 1] >= top - reach)
                  & (points[:, 1] <= bottom + reach))
        part = op[:2, :2].round(9) + 0.0
        copies += [groups.Copy(float(x), float(y), part) for x, y in points[inside]]
    return sorted(copies, key=lambda c: (c.y, c.x))


@pytest.mark.parametrize("name", list(groups.WALLPAPER_GROUPS))
def test_pattern_copies_and_centres_equal_the_reference(name):
    """``pattern_copies`` and ``pattern_centres`` list exactly the reference's copies, in its order (centres to the
    bit, each with its representative's linear part), for random lattices, seeds, windows (whole and fractional,
    reaching past the pattern's origin) and reaches."""
    rng = np.random.default_rng(31)
    kind = groups.WALLPAPER_GROUPS[name].lattice
    for _trial in range(12):
        lattice = groups.make_lattice(kind, float(rng.uniform(2000, 20000)), rng)
        reps = groups.coset_representatives(name, lattice)
        seed = lattice.matrix @ rng.random(2)
        if _trial % 2:
            seed = np.rint(seed)
        left, top = rng.uniform(-300, 100, 2) * (1 if _trial % 3 else 0)
        window = (left, top, left + rng.uniform(50, 600), top + rng.uniform(50, 600))
        reach = float(rng.choice([0.0, 2.0, rng.uniform(5, 40)]))
        want = _pattern_copies_reference(reps, lattice, seed, window, reach)
        got = groups.pattern_copies(reps, lattice, seed, window, reach)
        assert [(c.x, c.y) for c in got] == [(c.x, c.y) for c in want]
        assert all(np.array_equal(a.part, b.part) for a, b in zip(got, want, strict=True))
        centres, owners = groups.pattern_centres(reps, lattice, seed, window, reach)
        assert centres.tolist() == [[c.x, c.y] for c in want]
        parts = [groups.as_json(op[:2, :2].round(9) + 0.0) for op in reps]
        assert [parts.index(groups.as_json(c.part)) for c in want] == owners.tolist()


def test_unit_reach_reads_the_primitives_drawn():
    """``unit_reach`` (on the primitives ``motifs.render`` keeps) reads what it reads on freshly made primitives,
    for draws of every family, and leaves ``render``'s drawing unchanged."""
    rng = np.random.default_rng(37)
    for family in motifs.FAMILIES:
        for _ in range(4):
            spec = motifs.sample(family, rng, "asym")
            first = groups.unit_reach(spec)
            motifs._KEPT.clear()
            drawn = motifs.render(spec, 41)
            motifs._KEPT.clear()
            assert groups.unit_reach(spec) == first
            assert np.array_equal(motifs.render(spec, 41), drawn)


def test_lattices_have_the_kind_they_claim():
    rng = np.random.default_rng(5)
    for kind in groups.LATTICES:
        lattice = groups.make_lattice(kind, 10000.0, rng)
        (ux, uy), (vx, vy) = lattice.basis
        assert ux * ux + uy * uy <= vx * vx + vy * vy + 1e-6  # reduced: the shorter first
        if kind != "hexagonal":  # whole pixels with even conventional sides
            assert all(float(v).is_integer() for v in (*lattice.a, *lattice.b))
            assert lattice.a[0] % 2 == 0 and (lattice.b[1] % 2 == 0 or kind == "oblique")
    hexagonal = groups.make_lattice("hexagonal", 10000.0, rng)
    u, v = (np.array(x) for x in hexagonal.basis)
    assert math.isclose(abs(u @ v) / (u @ u), 0.5, abs_tol=1e-9)
    u, v = (np.array(x) for x in groups.reduce_basis((10, 0), (37, 3)))
    assert tuple(u) == (-3.0, 3.0) and abs(u @ v) <= (u @ u) / 2 and u[0] * v[1] - u[1] * v[0] == 30


def test_motif_changes_sees_self_symmetry_at_any_angle():
    blade = {"family": "polygon", "mode": "sym", "colour": "blue",
             "params": {"radii": [0.85, 0.3] * 3, "angles": [0.0, 60.0, 120.0, 180.0, 240.0, 300.0], "phase": 17.0}}
    tile = motifs.render(blade, 121)  # a three-pointed star turned 17 degrees: 3-fold with mirrors off the axes
    turn120, turn90 = groups.motif_changes(tile, [groups.rotation(120), groups.rotation(90)])
    assert turn120 < 0.05 < 0.2 < turn90
    mirrors = [groups.motif_changes(tile, [groups.reflection(a)])[0] for a in range(0, 180, 1)]
    assert min(mirrors) < 0.05 and max(mirrors) > 0.2
    arrow = motifs.render(motifs.sample("arrow", np.random.default_rng(2), "asym"), 121)
    assert min(groups.motif_changes(arrow, [groups.rotation(a) for a in (60, 90, 120, 180)])) > 0.2


def _changes_by_definition(rgb, part, shift):
    """The share of sampled inked pixels whose image under x -> A (x - c) + c + t, or back, finds no pixel of like
    darkness (and, where both are dark, colour) within one pixel: ``motif_changes`` written out point by point."""
    m = groups._sampled(rgb, None)
    a = np.asarray(part, float)
    inverse = np.linalg.inv(a)
    shares = []
    for matrix, t in ((a, np.asarray(shift, float)), (inverse, -inverse @ np.asarray(shift, float))):
        changed = 0
        for x, y, d0, c0 in zip(m["xs"], m["ys"], m["d0"], m["c0"], strict=True):
            q = matrix @ np.array((x - m["cx"], y - m["cy"])) + (m["cx"], m["cy"]) + t
            qx = int(np.clip(int(np.rint(q[0])), -1, m["w"])) + m["pad"]
            qy = int(np.clip(int(np.rint(q[1])), -1, m["h"])) + m["pad"]
            found = False
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    d1 = m["dark"][qy + dy, qx + dx]
                    like = abs(d1 - d0) <= 0.3
                    if like and m["several"] and d1 > 0.5 and d0 > 0.5:
                        like = int(np.abs(m["colour"][qy + dy, qx + dx] - c0).max()) <= 100
                    found = found or like
            changed += not found
        shares.append(changed / len(m["xs"]))
    return max(shares)


@pytest.mark.parametrize("family", ["arrow", "glyph", "pictogram"])
def test_motif_changes_measures_each_distinct_map_once_as_defined(family):
    """Involutions without a shift are measured once for both ways, and the neighbourhood is read one offset at a
    time: the figures must still be exactly the definition's, for one-colour and several-colour motifs."""
    rng = np.random.default_rng(11)
    parts = [groups.reflection(30)[:2, :2], groups.rotation(180)[:2, :2], groups.rotation(90)[:2, :2]]
    shifts = [[(0, 0)], [(0, 0), (3, -2)], [(1, 0)]]
    for k in range(3):
        tile = motifs.render(motifs.sample(family, rng, "asym", colour="yellow"), 61)
        if k == 2:  # a purple motif beside the yellow one: colours must match where both are dark
            tile = np.minimum(tile, np.roll(motifs.render(motifs.sample("arrow", rng, "asym", colour="purple"), 61),
                                            14, axis=1))
            assert groups._sampled(tile, None)["several"]
        measured = groups.motif_changes(tile, parts, shifts=shifts)
        expected = [min(_changes_by_definition(tile, part, t) for t in ts)
                    for part, ts in zip(parts, shifts, strict=True)]
        assert measured == pytest.approx(expected, abs=1e-12)


def test_kept_candidates_and_inverses_equal_fresh_ones():
    """``self_symmetry_candidates`` keeps the fixed turns and mirrors and ``motif_changes`` the maps' inverses:
    the same names in the same order, the same matrices and the same inverses bit for bit as built afresh."""
    rng = np.random.default_rng(29)
    for family in ("arrow", "glyph", "pictogram", "polyomino", "clock"):
        tile = motifs.render(motifs.sample(family, rng, "asym"), 61)
        fresh = {f"turn {d}": groups.rotation(d)[:2, :2] for d in groups.SELF_TURNS}
        angles = [float(a) for a in range(0, 180, groups.SELF_MIRROR_STEP)] + list(groups.principal_axes(tile))
        fresh.update({f"mirror {a:.1f}": groups.reflection(a)[:2, :2] for a in angles})
        kept = groups.self_symmetry_candidates(tile)
        assert list(kept) == list(fresh)
        for name, part in fresh.items():
            assert np.array_equal(kept[name], part)
            for _ in range(2):  # the second call is answered from the kept inverses
                assert np.array_equal(groups._inverse(np.asarray(part, float)), np.linalg.inv(part))


def test_sprites_turn_about_their_centre_and_stamp_clips():
    big = np.full((63, 63, 3), 255, np.uint8)
    big[3:12, 27:36] = 0  # a block above the centre
    quarter = groups.transformed_sprite(big, groups.rotation(90), 3)  # D4: exact, by array operations
    assert quarter.shape == (21, 21, 3) and quarter[10, 2].max() < 128  # now left of the centre
    sixth = groups.transformed_sprite(big, groups.rotation(60), 3)
    ys, xs = np.nonzero(sixth.min(axis=2) < 128)
    angle = math.degrees(math.atan2(-(ys.mean() - 10), xs.mean() - 10))
    assert abs(angle - 150) < 8  # up (90 degrees) turned 60 counterclockwise
    canvas = np.full((10, 10, 3), 255, np.uint8)
    groups.stamp(canvas, quarter, 50, 50)  # wholly outside: nothing drawn, no error
    assert canvas.min() == 255
    groups.stamp(canvas, quarter, 12, 5)  # the block (8 px left of the centre) lands at x = 4, the rest is clipped
    assert canvas[5, 4].max() < 128 and canvas[5, 8].min() == 255


def test_self_symmetries_finds_turns_and_mirror_lines_at_any_angle():
    pentagon = {"family": "polygon", "mode": "sym", "colour": "green",
                "params": {"radii": [0.85] * 5, "angles": [72.0 * k for k in range(5)], "phase": -77.0}}
    found = groups.self_symmetries(motifs.render(pentagon, 101))
    assert "turn 72" in found and any(name.startswith("mirror") for name in found)
    crescent = motifs.render({"family": "crescent", "mode": "sym", "colour": "gray",
                              "params": motifs.sample("crescent", np.random.default_rng(3), "sym")["params"]}, 101)
    turned = np.asarray(Image.fromarray(crescent).rotate(23, resample=Image.Resampling.BICUBIC,
                                                         fillcolor=(255, 255, 255)))
    assert any(name.startswith("mirror") for name in groups.self_symmetries(turned))  # its axis at 23 degrees off
    arrow = motifs.render(motifs.sample("arrow", np.random.default_rng(2), "asym"), 101)
    assert groups.self_symmetries(arrow) == []


def test_centred_sprites_and_reach():
    rng = np.random.default_rng(8)
    for family in ("arrow", "pictogram", "glyph", "bars"):
        spec = motifs.sample(family, rng, "asym")
        sprite, _fill = groups.centred_sprite(spec, 30)
        side = sprite.shape[0]
        assert side % 2 == 1 and side == 2 * 30 + 5
        cx, cy = groups.ink_centroid(sprite)
        assert abs(cx - side // 2) <= 1 and abs(cy - side // 2) <= 1  # the ink's centre on the centre pixel
        assert 28 <= groups.ink_radius(sprite, (cx, cy)) <= 32
        reach = groups.unit_reach(spec)
        drawn = motifs.render(spec, 101, fill=1.0)
        assert abs(groups.ink_radius(drawn) - reach * 50) <= 3  # a unit reaches fill * size / 2 px


def _staircase(size: int = 97, cell: int = 12) -> np.ndarray:
    """Dark square cells on white in a staircase of six (two per row, one row down each), centred on a ``size``
    px picture: turned half a turn about the middle it lies one cell off itself."""
    picture = np.full((size, size, 3), 255, np.uint8)
    corner = (size - 5 * cell) // 2
    for row, col in [(i, i) for i in range(4)] + [(i, i + 1) for i in range(4)]:
        top, left = corner + row * cell, corner + col * cell
        picture[top + 1: top + cell - 1, left + 1: left + cell - 1] = (40, 40, 160)
    return picture


def test_pattern_ink_reads_a_symmetry_as_none_changed_and_a_shift_off_it_as_changed():
    """A motif and its mirror image side by side: the mirror between them carries every inked pixel onto ink of
    like darkness (in place and within a pixel), the same mirror a cell's width off does not."""
    tile = _staircase()
    picture = np.full((97, 200, 3), 255, np.uint8)
    picture[:, 3:100], picture[:, 100:197] = tile, tile[:, ::-1]
    mirror = np.array(((-1.0, 0.0), (0.0, 1.0)))  # x -> 199 - x lays column 3 + i on column 196 - i
    for reach in (0, 1):
        ink = groups.PatternInk(picture, reach)
        held, off = ink.changes(mirror, [(199, 0), (199 + 12, 0)])
        assert held == 0.0 and off > 0.3
        assert ink.changes(mirror, [(199, 0)], points=200)[0] == 0.0  # a sample reads the same
    ink = groups.PatternInk(picture, 0)
    assert ink.changes(np.eye(2), [(0, 0)])[0] == 0.0
    assert ink.changes(np.eye(2), [(800, 0)])[0] == 1.0  # nothing lands in the picture


def test_pattern_ink_overlays_find_the_shift_that_suits_a_turned_copy_best():
    """The staircase turned half a turn about its middle changes most of its ink; at the best overlay the
    correlation finds (a cell down or up), little.  Shifts shorter than ``exclude`` are never offered."""
    picture, centre, half_turn = _staircase(161), np.array((80.0, 80.0)), -np.eye(2)
    about = centre - half_turn @ centre  # the half-turn about the middle
    for reach in (0, 1):
        ink = groups.PatternInk(picture, reach)
        (shifts, translations) = ink.overlays([half_turn, np.eye(2)], centre, 45, 3, excludes=[0, 8])
        best = min(ink.changes(half_turn, about + shift + np.array((dx, dy)))[0]
                   for shift in shifts for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        assert best < 0.3 < ink.changes(half_turn, about)[0] - 0.3
        assert translations and all(np.hypot(*shift) >= 8 for shift in translations)


def test_pattern_ink_measures_a_batch_of_maps_as_each_alone():
    """``changes`` takes one map per shift (or one for all); each reading is the one the map gives alone."""
    picture = _staircase(161)
    ink = groups.PatternInk(picture, 1)
    maps = np.array([-np.eye(2), np.eye(2), groups.rotation(90)[:2, :2]])
    shifts = np.array([(160.0, 148.0), (0.0, 12.0), (0.0, 160.0)])
    alone = [ink.changes(a, t)[0] for a, t in zip(maps, shifts, strict=True)]
    assert ink.changes(maps, shifts).tolist() == alone
    assert ink.changes(np.eye(2), shifts[1:]).tolist() == [alone[1], ink.changes(np.eye(2), shifts[2])[0]]


def _unchanged_reference(ink: groups.PatternInk, maps, shifts, chosen):
    """``PatternInk._unchanged`` as first written (integer images clipped to the picture, 2-D sums): the
    reference its faster form must equal exactly."""
    points, values = ink.points[chosen], ink.values[chosen]
    image = np.rint(points @ np.swapaxes(maps, 1, 2) + shifts[:, None, :]).astype(np.int64)
    x, y = image[..., 0], image[..., 1]
    r = ink.reach
    inside = (x >= r) & (x < ink.w - r) & (y >= r) & (y < ink.h - r)
    x, y = np.clip(x, 0, ink.w - 1), np.clip(y, 0, ink.h - 1)
    step = groups.LIKE_NEAR if r else groups.LIKE_IN_PLACE
    alike = np.zeros(inside.shape, bool)
    width, flat = ink.padded.shape[1], ink.padded.ravel()
    at = (y + r + 1) * width + (x + r + 1)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            alike |= np.abs(flat[at + dy * width + dx] - values) <= step
    return (inside & ~alike).sum(axis=1), inside.sum(axis=1)


@pytest.mark.parametrize("reach", [0, 1])
def test_pattern_ink_changes_is_both_ways_of_unchanged(reach):
    """``changes`` (a map's images and its inverse's compared in one pass) reads exactly the share the reference
    ``_unchanged`` counts give for the map and for its inverse, on random pictures, maps and shifts, for every
    sample size."""
    rng = np.random.default_rng(43 + reach)
    for trial in range(20):
        h, w = (int(v) for v in rng.integers(20, 120, 2))
        levels = rng.choice([255, 238, 170, 119, 51, 0], (h, w, 3)).astype(np.uint8)
        picture = np.where(rng.random((h, w, 1)) < 0.4, levels, 255).astype(np.uint8)
        ink = groups.PatternInk(picture, reach)
        n = int(rng.integers(1, 12))
        maps = np.array([groups.rotation(a)[:2, :2] for a in rng.choice([0, 60, 90, 120, 180, 270, 33.5], n)])
        maps[rng.random(n) < 0.5] @= np.array(((-1.0, 0.0), (0.0, 1.0)))
        maps += rng.normal(0, 1e-12, maps.shape) * (trial % 2)
        shifts = rng.uniform(-1.5 * w, 1.5 * h, (n, 2))
        shifts[: n // 2] = np.rint(shifts[: n // 2]) + rng.choice([0.0, 0.5], (n // 2, 2))
        inverse = np.linalg.inv(maps)
        for points in (None, max(1, len(ink.points) // 3)):
            chosen = ink._spread(points)
            c1, n1 = _unchanged_reference(ink, maps, shifts, chosen)
            c2, n2 = _unchanged_reference(ink, inverse, -(inverse @ shifts[:, :, None])[:, :, 0], chosen)
            want = np.where(n1 + n2 > 0, (c1 + c2) / np.maximum(n1 + n2, 1), 1.0)
            assert ink.changes(maps, shifts, points).tolist() == want.tolist()


@pytest.mark.parametrize("reach", [0, 1])
def test_pattern_ink_unchanged_equals_reference(reach):
    """The float-image, clipped-gather ``_unchanged`` counts exactly what the integer, clipped-coordinate one
    counts, for random pictures, maps (turns, mirrors, lattice maps with rounding noise) and shifts reaching
    far outside the picture, on all and on spread samples of the ink."""
    rng = np.random.default_rng(7 + reach)
    for trial in range(30):
        h, w = (int(v) for v in rng.integers(20, 120, 2))
        levels = rng.choice([255, 238, 170, 119, 51, 0], (h, w, 3)).astype(np.uint8)
        picture = np.where(rng.random((h, w, 1)) < 0.4, levels, 255).astype(np.uint8)
        ink = groups.PatternInk(picture, reach)
        n = int(rng.integers(1, 12))
        angles = rng.choice([0, 60, 90, 120, 180, 270, 33.5], n)
        maps = np.array([groups.rotation(a)[:2, :2] for a in angles])
        maps[rng.random(n) < 0.5] @= np.array(((-1.0, 0.0), (0.0, 1.0)))
        maps += rng.normal(0, 1e-12, maps.shape) * (trial % 2)
        shifts = rng.uniform(-1.5 * w, 1.5 * h, (n, 2))
        shifts[: n // 2] = np.rint(shifts[: n // 2]) + rng.choice([0.0, 0.5], (n // 2, 2))
        for chosen in (slice(None), ink._spread(max(1, len(ink.points) // 3))):
            got = ink._unchanged(maps, shifts, chosen)
            want = _unchanged_reference(ink, maps, shifts, chosen)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def _window_reference(ink: groups.PatternInk, centre, radius):
    """``PatternInk._window`` as first written (the half-size picture padded whole, grid, mask and spectrum made
    afresh): the reference its faster form must equal exactly."""
    half = math.ceil(1.5 * radius) + 2
    dark = np.pad(ink.dark[::2, ::2], half + 1)
    mx, my = (round(v / 2) for v in centre)
    target = dark[my + 1: my + 2 * half + 2, mx + 1: mx + 2 * half + 2]
    grid = np.mgrid[-half: half + 1, -half: half + 1][::-1].reshape(2, -1).astype(np.float64)
    own = np.hypot(*grid) <= radius / 2 + 1
    spectrum = np.fft.rfft2(target, s=(groups._fft_length(target.shape[0]),) * 2)
    dy, dx = np.mgrid[1 - half: half, 1 - half: half]
    return (target, spectrum, grid, own, 2 * np.array((mx, my), np.float64)), 2 * np.hypot(dx, dy)


@pytest.mark.parametrize("reach", [0, 1])
def test_pattern_ink_setup_and_window_equal_reference(reach):
    """``PatternInk``'s darkness, inked pixels (np.nonzero's order) and padding, and its overlay window (a slice
    into zeros, the grid, mask and shift lengths kept between patches) are exactly what they were first computed
    as, for random pictures and centres up to and past the picture's edges."""
    rng = np.random.default_rng(31 + reach)
    for _trial in range(40):
        h, w = (int(v) for v in rng.integers(20, 300, 2))
        levels = rng.choice([255, 238, 170, 119, 68, 51, 0], (h, w, 3)).astype(np.uint8)
        picture = np.where(rng.random((h, w, 1)) < rng.uniform(0.05, 0.6), levels, 255).astype(np.uint8)
        ink = groups.PatternInk(picture, reach)
        dark = (255 - picture.min(axis=2)).astype(np.float32) / np.float32(255)
        ys, xs = np.nonzero(dark > groups.PATTERN_INK)
        assert np.array_equal(ink.dark, dark) and ink.dark.dtype == dark.dtype
        assert np.array_equal(ink.points, np.stack([xs, ys], axis=1).astype(np.float64))
        assert np.array_equal(ink.values, dark[ys, xs])
        assert np.array_equal(ink.padded, np.pad(dark, reach + 1)) and ink.padded.dtype == np.float32
        radius = float(rng.uniform(4, 40))
        centre = (float(rng.uniform(-2, w + 1)), float(rng.uniform(-2, h + 1)))
        want, lengths = _window_reference(ink, centre, radius)
        got = ink._window(centre, radius)
        assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(got, want, strict=True))
        assert np.array_equal(ink._lengths(math.ceil(1.5 * radius) + 2), lengths)


def _changed_reference(m, stack, offsets):
    """``groups._changed`` as first written (2-D colour gathers, ``all_channels``): the reference its faster form
    must equal exactly."""
    pad, h, w = m["pad"], m["h"], m["w"]
    rx, ry = m["xs"] - m["cx"], m["ys"] - m["cy"]
    px = np.rint(m["cx"] + offsets[:, 0, None] + stack[:, 0, 0, None] * rx + stack[:, 0, 1, None] * ry)
    py = np.rint(m["cy"] + offsets[:, 1, None] + stack[:, 1, 0, None] * rx + stack[:, 1, 1, None] * ry)
    px = np.clip(px.astype(int), -1, w) + pad
    py = np.clip(py.astype(int), -1, h) + pad
    width = m["dark"].shape[1]
    base = py * width + px
    flat, d0 = m["dark"].ravel(), m["d0"]
    colour, dark0 = m["colour"].reshape(-1, 3), d0 > 0.5
    same = np.zeros(base.shape, bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            at = base + (dy * width + dx)
            d1 = flat[at]
            hit = np.abs(d1 - d0) <= 0.3
            if m["several"]:
                near = np.abs(colour[at] - m["c0"]) <= 100
                hit &= ~((d1 > 0.5) & dark0) | near.all(axis=-1)
            same |= hit
    return 1.0 - same.mean(axis=1)


def test_changed_equals_reference():
    """``_changed`` (flat gathers, one colour plane at a time) measures exactly what the 2-D gather form does, on
    motifs of every family in every palette colour (several of them two-coloured) under random turns, mirrors and
    shifts."""
    from bench_plugin_sphinx.kit.palette import PALETTE

    rng = np.random.default_rng(5)
    families = sorted(motifs.FAMILIES)
    several = 0
    for k in range(60):
        spec = motifs.sample(families[k % len(families)], rng, "asym", colour=list(PALETTE)[k % len(PALETTE)])
        m = groups._sampled(motifs.render(spec, 61), None)
        if m is None:
            continue
        several += m["several"]
        stack = np.array([groups.rotation(a)[:2, :2] for a in rng.uniform(0, 360, 24)])
        stack[::3] @= np.array(((-1.0, 0.0), (0.0, 1.0)))
        offsets = rng.normal(0, 4, (24, 2))
        assert np.array_equal(groups._changed(m, stack, offsets), _changed_reference(m, stack, offsets))
    assert several  # the colour branch was exercised
