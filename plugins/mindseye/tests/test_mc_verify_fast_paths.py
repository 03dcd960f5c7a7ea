"""The verifier's fast paths for mental composition (and mental rotation, which shares ``projection``), held to
the code they replaced."""

from __future__ import annotations

import numpy as np
import pytest

from bench_plugin_mindseye.verifiers import projection


def _darkest_reference(pixels: np.ndarray) -> np.ndarray:
    return np.minimum(np.minimum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])


def _off_colour_reference(pixels: np.ndarray, expected: np.ndarray) -> np.ndarray:
    off = (np.maximum(pixels, expected) - np.minimum(pixels, expected)) > projection.FACE_TOLERANCE
    return off[..., 0] | off[..., 1] | off[..., 2]


@pytest.mark.parametrize("seed", range(6))
def test_darkest_is_the_channel_minimum_on_whole_arrays_and_views(seed):
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (int(rng.integers(1, 60)), int(rng.integers(1, 60)), 3), dtype=np.uint8)
    views = [image, image[1:, 2:], image[::2], np.ascontiguousarray(image[3:, 1:]), image.reshape(-1, 3),
             rng.integers(0, 256, (5, 3), dtype=np.uint8), rng.integers(0, 256, (4, 6, 4), dtype=np.uint8)]
    for pixels in views:
        fast = projection._darkest(pixels)
        assert fast.shape == pixels.shape[:-1]
        assert np.array_equal(fast, _darkest_reference(pixels))


@pytest.mark.parametrize("seed", range(6))
def test_off_colour_is_the_channelwise_rule(seed):
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(1, 50)), int(rng.integers(1, 50))
    canvas = rng.integers(0, 256, (height + 4, width + 5, 3), dtype=np.uint8)
    expected = np.clip(canvas[2:2 + height, 3:3 + width].astype(int) + rng.integers(-20, 21, (height, width, 3)),
                       0, 255).astype(np.uint8)
    pixels = canvas[2:2 + height, 3:3 + width]  # a view, as a panel's region is
    before = pixels.copy()
    assert np.array_equal(projection._off_colour(pixels, expected), _off_colour_reference(pixels, expected))
    assert np.array_equal(pixels, before)  # the panel's pixels are not written
    flat = rng.integers(0, 256, (7, 3), dtype=np.uint8), rng.integers(0, 256, (7, 3), dtype=np.uint8)
    assert np.array_equal(projection._off_colour(*flat), _off_colour_reference(*flat))


def test_off_colour_at_the_tolerance():
    base = np.full((2, 3, 3), 100, dtype=np.uint8)
    shifted = base.copy()
    shifted[0, 0, 1] += projection.FACE_TOLERANCE  # at the tolerance: on colour
    shifted[1, 2, 2] -= projection.FACE_TOLERANCE + 1  # one beyond: off
    off = projection._off_colour(shifted, base)
    assert off.tolist() == [[False, False, False], [False, False, True]]
    assert np.array_equal(off, _off_colour_reference(shifted, base))


# -- the generator's refold check: face 0's placements tried at once --------------------------------------
def _refolds_onto_reference(net, vertices, faces) -> bool:
    """``mental_composition.refolds_onto`` as it was, every placement of net face 0 tried by ``congruent``."""
    from bench_plugin_mindseye.mental_composition import _distances, edge_owners

    if len(net.faces) != len(faces):
        return False
    owners = edge_owners(faces)
    links = {i: [] for i in range(len(net.faces))}
    for i, ki, j, kj in net.hinges:
        links[i].append((ki, j, kj))
        links[j].append((kj, i, ki))
    flat = [_distances(f) for f in net.faces]
    solid = [_distances(vertices[list(f)]) for f in faces]

    def congruent(i, g, offset, scale):
        n = len(faces[g])
        if n != len(net.faces[i]):
            return False
        turn = (np.arange(n) + offset) % n
        return bool(np.abs(flat[i] - scale * solid[g][np.ix_(turn, turn)]).max() <= 1e-3 * flat[i].max())

    for start in range(len(faces)):
        scale = flat[0].sum() / solid[start].sum()
        for offset in range(len(faces[start])):
            if not congruent(0, start, offset, scale):
                continue
            mapping, taken, queue = {0: (start, offset)}, {start}, [0]
            while queue:
                i = queue.pop()
                g, o = mapping[i]
                cycle = faces[g]
                for ki, j, kj in links[i]:
                    u, v = cycle[(ki + o) % len(cycle)], cycle[(ki + o + 1) % len(cycle)]
                    h, m = owners[(v, u)]
                    image = (h, (m - kj) % len(faces[h]))
                    if j in mapping:
                        if mapping[j] != image:
                            break
                        continue
                    if h in taken or not congruent(j, *image, scale):
                        break
                    mapping[j] = image
                    taken.add(h)
                    queue.append(j)
                else:
                    continue
                break
            else:
                if len(mapping) == len(faces):
                    return True
    return False


def test_refolds_onto_matches_the_placement_by_placement_search():
    from bench_plugin_mindseye import mental_composition as mc

    kinds = [("cube", ()), ("cuboid", (1.0, 1.5, 2.0)), ("cuboid", (1.0, 1.0, 2.0)), ("triangular_prism", (1.5,)),
             ("square_pyramid", (1.2,)), ("tetrahedron", ()), ("octahedron", ()), ("dodecahedron", ()),
             ("icosahedron", ())]
    solids = [mc.polyhedron(kind, proportion) for kind, proportion in kinds]
    rng = np.random.default_rng(7)
    agreed = {True: 0, False: 0}
    for vertices, faces in solids:
        for _ in range(2):
            unfolded = mc.unfold(rng, vertices, faces)
            assert unfolded is not None
            net = mc.PolyNet(unfolded[0], unfolded[1], (200, 80, 80))
            for candidate in (net, mc._mirrored(net)):
                for other_vertices, other_faces in solids:
                    expected = _refolds_onto_reference(candidate, other_vertices, other_faces)
                    assert mc.refolds_onto(candidate, other_vertices, other_faces) == expected
                    agreed[expected] += 1
    assert agreed[True] and agreed[False]  # both answers were exercised


# -- sketches: the faces' box read from a fill's own box ---------------------------------------------------
def _shown_box_reference(ids: np.ndarray):
    shown = ids >= 0
    rows, cols = np.flatnonzero(shown.any(axis=1)), np.flatnonzero(shown.any(axis=0))
    if not len(rows):
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


@pytest.mark.parametrize("seed", range(8))
def test_shown_box_matches_the_full_scan(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        ids = np.full((int(rng.integers(0, 12)), int(rng.integers(0, 12))), -1, dtype=np.int32)
        if ids.size:
            ids[rng.random(ids.shape) < rng.choice([0.0, 0.05, 0.3, 0.9])] = int(rng.integers(0, 5))
        assert projection._shown_box(ids) == _shown_box_reference(ids)


def _flat_reference(polygons, colours, side, edge_width):
    from bench_plugin_mindseye.verifiers.polygon_fill import padded, rasterise

    ids = np.full((side, side), -1, dtype=np.int32)
    rasterise(*padded(polygons), side, ids=ids)
    count = len(polygons)
    return projection.finish(ids, np.arange(count), np.asarray(colours, dtype=float).reshape(count, 3), edge_width)


@pytest.mark.parametrize("seed", range(6))
def test_flat_polygons_drawn_over_their_box_as_over_the_canvas(seed):
    rng = np.random.default_rng(seed)
    side = int(rng.choice([120, 291]))
    for _ in range(6):
        # a strip of squares side by side (hinged), somewhere on (or partly off) the canvas
        size, count = float(rng.uniform(8, 40)), int(rng.integers(1, 5))
        x, y = float(rng.uniform(-20, side - 20)), float(rng.uniform(-20, side - 20))
        polygons = [[(x + k * size, y), (x + (k + 1) * size, y), (x + (k + 1) * size, y + size),
                     (x + k * size, y + size)] for k in range(count)]
        colours = rng.integers(0, 256, (count, 3)).astype(float)
        edge = float(rng.choice([2.91, 3.333333, 4.0]))
        fast = projection.draw_flat(polygons, colours, side, edge)
        slow = _flat_reference(polygons, colours, side, edge)._replace(agreement=projection.FLAT_AGREEMENT)
        for name in projection.Drawing._fields:
            a, b = getattr(fast, name), getattr(slow, name)
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                assert np.array_equal(a, b), name
            else:
                assert a == b, name


# -- memo keys written once per verify ---------------------------------------------------------------------
def test_keys_within_a_keyed_block_are_the_sorted_json_of_the_very_description():
    import copy
    import json

    from bench_plugin_mindseye.verifiers import mental_composition as verifier

    scene = {"query": [{"net": "polygons", "b": [1, 2], "a": 0.5}],
             "options": [{"solid": "polyhedron", "z": 1, "a": [[0, 1]]}, {"solid": "revolution", "k": 2}]}
    described = [*scene["query"], *scene["options"]]
    expected = [json.dumps(d, sort_keys=True) for d in described]
    with verifier.keyed(scene):
        assert [verifier._key(d) for d in described] == expected
        twin = copy.deepcopy(scene["options"][0])
        twin["z"] = 2  # another object (not of the scene): keyed afresh
        assert verifier._key(twin) == json.dumps(twin, sort_keys=True)
        with verifier.keyed(None):  # an unreadable scene: every key written afresh
            assert verifier._key(described[0]) == expected[0]
        assert verifier._known.keys is not None and id(described[0]) in verifier._known.keys
    assert verifier._known.keys is None
    scene["options"][0]["z"] = 3  # changed after the block: its key follows the change
    assert verifier._key(scene["options"][0]) == json.dumps(scene["options"][0], sort_keys=True)


# -- paper zones: only the parts in convex order swept -----------------------------------------------------
def _paper_regions_reference(panels, side, reaches):
    """``projection.paper_regions`` as it was: every part of a corner count swept, those not in convex order
    then hulled."""
    import shapely

    parts_of, reach_of, sizes = [], [], []
    for parts, reach in zip(panels, reaches, strict=True):
        parts_of += [np.asarray(p, dtype=float) for p in parts]
        reach_of += [float(reach)] * len(parts)
        sizes.append(len(parts))
    swept = [None] * len(parts_of)
    by_count = {}
    for k, part in enumerate(parts_of):
        by_count.setdefault(len(part), []).append(k)
    for members in by_count.values():
        group = np.stack([parts_of[k] for k in members])
        ordered = projection._convex_in_order(group)
        rings = projection._swept_all(group, np.array([reach_of[k] for k in members]))
        for k, ring, fits in zip(members, rings, ordered, strict=True):
            swept[k] = ring if fits else None
    for k in [k for k, ring in enumerate(swept) if ring is None]:
        r = reach_of[k]
        square = np.array([[-r, -r], [r, -r], [r, r], [-r, r]])
        hull = shapely.convex_hull(shapely.multipoints((parts_of[k][:, None, :] + square[None]).reshape(-1, 2)))
        swept[k] = shapely.get_coordinates(hull)
    ends = np.cumsum(sizes)
    return [projection._paper_masks(swept[end - size:end], side) for size, end in zip(sizes, ends, strict=True)]


@pytest.mark.parametrize("seed", range(5))
def test_paper_regions_sweep_only_what_is_in_convex_order(seed):
    rng = np.random.default_rng(seed)
    side = 200
    panels, reaches = [], []
    for _ in range(5):
        parts = []
        for _ in range(int(rng.integers(1, 4))):
            count = int(rng.choice([3, 4, 5, 8]))
            centre = rng.uniform(40, 160, 2)
            if rng.random() < 0.5:  # a convex polygon in order
                angles = np.sort(rng.uniform(0, 2 * np.pi, count))
                part = centre + rng.uniform(10, 30) * np.stack([np.cos(angles), np.sin(angles)], axis=1)
            else:  # a cloud of points (a solid's projected vertices)
                part = centre + rng.uniform(-30, 30, (count, 2))
            parts.append(part)
        panels.append(parts)
        reaches.append(float(rng.choice([2.25, 2.7])))
    fast = projection.paper_regions(panels, side, reaches)
    slow = _paper_regions_reference(panels, side, reaches)
    for a, b in zip(fast, slow, strict=True):
        assert a.box == b.box
        assert np.array_equal(a.mask, b.mask)



# -- the solver's hinges: corner distances coordinate by coordinate ---------------------------------------
def _hinges_reference(faces):
    from bench_plugin_mindseye.verifiers.mental_composition import HINGE_TOLERANCE

    owners = [(i, k) for i, face in enumerate(faces) for k in range(len(face))]
    starts = np.array([faces[i][k] for i, k in owners])
    ends = np.array([faces[i][(k + 1) % len(faces[i])] for i, k in owners])
    meets = (np.abs(starts[:, None, :] - ends[None, :, :]).max(axis=2) < HINGE_TOLERANCE)
    meets &= (np.abs(ends[:, None, :] - starts[None, :, :]).max(axis=2) < HINGE_TOLERANCE)
    links = {i: [] for i in range(len(faces))}
    for a, b in zip(*np.nonzero(meets), strict=True):
        (i, k), (j, m) = owners[int(a)], owners[int(b)]
        if i != j:
            links[i].append((k, j, m))
    return links


def test_hinges_as_before():
    from bench_core import build_item, default_host, plan
    from bench_plugin_mindseye.verifiers import mental_composition as verifier

    host = default_host()
    task = host.task("mindseye/mental-composition")
    nets = 0
    for job in plan(task, {}, 3, 12):
        scene = build_item(host, task, job.seed, job.index, job.params, job.suffix, verify=False).item.metadata["scene"]
        net = scene["query"][0]
        if net["net"] != "polygons":
            continue
        nets += 1
        for mirrored in (False, True):
            faces = verifier._net_faces(net, mirrored)
            assert verifier._hinges(faces) == _hinges_reference(faces)
            # faces moved by less and by more than the tolerance: some hinges kept, some lost
            nudged = [[(x + 0.03 * (k % 3 - 1), y) for x, y in face] for k, face in enumerate(faces)]
            assert verifier._hinges(nudged) == _hinges_reference(nudged)
    assert nets
    rng = np.random.default_rng(2)
    for _ in range(20):
        first, second = rng.normal(0, 1, (int(rng.integers(1, 9)), 2)), rng.normal(0, 1, (int(rng.integers(1, 9)), 2))
        assert np.array_equal(verifier._apart(first, second),
                              np.abs(first[:, None, :] - second[None, :, :]).max(axis=2))
