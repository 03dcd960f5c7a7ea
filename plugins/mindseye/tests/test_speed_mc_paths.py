"""Mental composition's faster paths held to the code they replaced: the panels cut once for the shared checks and
the pixel checks, the look-alike test summed over the middle rows first, the outline core's whole blocks worked
eight at a time, the net's clean test on the loose face pairs whose boxes meet, and the nuisance audit reading the
features the sizing measured."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from bench_core import build_item, decode_png, default_host, implementation, plan
from bench_plugin_mindseye import base, raster3d
from bench_plugin_mindseye import mental_composition as mc
from bench_plugin_mindseye.verifiers import mental_composition as verifier
from bench_plugin_mindseye.verifiers import projection


# -- the references: the routines as they were ------------------------------------------------------------------
def _ref_lookalike_pairs(tiles: list[np.ndarray], min_difference: float) -> list[tuple[int, int]]:
    tripled = []
    for tile in tiles:
        total = tile[..., 0].astype(np.int16)
        total += tile[..., 1]
        total += tile[..., 2]
        tripled.append(total)
    pairs = []
    for i in range(len(tripled)):
        for j in range(i + 1, len(tripled)):
            a, b = tripled[i], tripled[j]
            if a.shape == b.shape and float(np.abs(a - b).sum()) < 3 * min_difference * a.size:
                pairs.append((i, j))
    return pairs


def _ref_whole_blocks(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int], pen: int) -> np.ndarray:
    if pen != 1:
        return projection._whole_blocks(rows, cols, shape, pen)
    left, right, top, bottom = np.uint8(10), np.uint8(5), np.uint8(12), np.uint8(3)
    bits = np.zeros(shape[0] * shape[1], dtype=np.uint8)
    block = (rows >> 1) * shape[1] + (cols >> 1)
    corner = (rows & 1) << 1 | (cols & 1)
    for k, bit in enumerate((8, 4, 2, 1)):
        at = block[corner == k]
        bits[at] = bits[at] | np.uint8(bit)
    bits = bits.reshape(shape)
    grown = bits | ((bits & left) >> 1) | ((bits & right) << 1)
    grown[:, 1:] |= (bits[:, :-1] & right) << 1
    grown[:, :-1] |= (bits[:, 1:] & left) >> 1
    whole = grown | ((grown & top) >> 2) | ((grown & bottom) << 2)
    whole[1:] |= (grown[:-1] & bottom) << 2
    whole[:-1] |= (grown[1:] & top) >> 2
    return whole == 15


def _ref_net_is_clean(polygons, hinges) -> bool:
    import shapely

    shapes = np.array([shapely.Polygon(p) for p in polygons], dtype=object)
    scale = max(np.ptp(np.vstack(polygons), axis=0))
    shrunk = shapely.buffer(shapes, -1e-4 * scale)
    hinged = {frozenset((h[0], h[2])) for h in hinges}
    pairs = [(i, j) for i in range(len(polygons)) for j in range(i + 1, len(polygons))]
    first = np.array([p[0] for p in pairs])
    second = np.array([p[1] for p in pairs])
    if shapely.intersects(shrunk[first], shrunk[second]).any():
        return False
    loose = [(i, j) for i, j in pairs if frozenset((i, j)) not in hinged]
    if loose:
        a = shapely.boundary(shapes[[i for i, _ in loose]])
        b = shapely.buffer(shapely.boundary(shapes[[j for _, j in loose]]), 1e-6 * scale)
        if (shapely.length(shapely.intersection(a, b)) > 1e-3 * scale).any():
            return False
    return True


# -- real items --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def items():
    """(implementation, item, decoded image) of a few mental-composition items, both canvases."""
    host = default_host()
    task = host.task("mindseye/mental-composition")
    out = []
    for size in ("1024x1024", "600x800"):
        for job in plan(task, {"size": size}, 31, 3):
            built = build_item(host, task, job.seed, job.index, job.params, job.suffix, verify=False)
            out.append((implementation(task), built.item, decode_png(built.pngs[0])))
    return out


def _cut_separately(impl, item, image) -> list[str]:
    """MC's verify with every check cutting its own panels (no shared ``tiles``)."""
    scene = item.metadata["scene"]
    with verifier.keyed(scene):
        verifier.prepare(scene)
        return base.MindsEyeTask.verify(impl, item, [image]) + verifier.pixel_failures(scene, image, prepared=True)


def _faulty(image, scene):
    """The image as written, and with faults planted: options A and B swapped, a dot on option A's solid, option
    D blanked."""
    yield "as written", image
    pixels = np.array(image)
    (a0, a1, a2, a3), (b0, b1, b2, b3) = scene["option_boxes"][:2]
    swapped = pixels.copy()
    swapped[a1:a3, a0:a2], swapped[b1:b3, b0:b2] = pixels[b1:b3, b0:b2], pixels[a1:a3, a0:a2]
    yield "swapped", Image.fromarray(swapped)
    dotted = pixels.copy()
    cy, cx = (a1 + a3) // 2, (a0 + a2) // 2
    dotted[cy - 2:cy + 2, cx - 2:cx + 2] = (255, 0, 255)
    yield "dot", Image.fromarray(dotted)
    d0, d1, d2, d3 = scene["option_boxes"][3]
    blank = pixels.copy()
    blank[d1 + 4:d3 - 4, d0 + 4:d2 - 4] = 255
    yield "blank", Image.fromarray(blank)


def test_shared_panels_give_the_verdicts_of_panels_cut_per_check(items):
    for impl, item, image in items:
        for name, picture in _faulty(image, item.metadata["scene"]):
            shared = impl.verify(item, [picture])
            assert shared == _cut_separately(impl, item, picture), name
            assert bool(shared) == (name != "as written"), (name, shared)


def test_panel_tiles_are_the_crops_and_decline_what_they_cannot_read(items):
    _, item, image = items[0]
    scene = item.metadata["scene"]
    query, options = base.panel_tiles(image, scene)
    for tile, box in zip([*query, *options], [*scene["query_boxes"], *scene["option_boxes"]], strict=True):
        assert np.array_equal(tile, np.asarray(image.crop(tuple(box))))
    assert base.panel_tiles(image.convert("P"), scene) is None
    assert base.panel_tiles(image, {**scene, "option_boxes": [[0.5, 0, 10, 10]] * 4}) is None
    assert base.panel_tiles(image, {"query_boxes": 3}) is None
    panels = projection.scene_panels(scene, image, "the net", (query, options))
    plain = projection.scene_panels(scene, image, "the net")
    assert [p.name for p in panels] == [p.name for p in plain]
    assert all(np.array_equal(a.pixels.rgb, b.pixels.rgb) for a, b in zip(panels, plain, strict=True))


def test_lookalike_pairs_match_the_whole_sums():
    rng = np.random.default_rng(4)
    for _ in range(300):
        side = int(rng.integers(1, 30))
        base_tile = rng.integers(0, 256, (side, side, 3)).astype(np.uint8)
        tiles = []
        for _ in range(int(rng.integers(2, 6))):
            pick = rng.random()
            if pick < 0.3:
                tile = base_tile.copy()  # the same panel
            elif pick < 0.6:  # the same but for a few pixels, maybe all outside the middle rows
                tile = base_tile.copy()
                for _ in range(int(rng.integers(0, 4))):
                    tile[rng.integers(0, side), rng.integers(0, side)] = rng.integers(0, 256, 3)
            elif pick < 0.8:
                tile = rng.integers(0, 256, (side, side, 3)).astype(np.uint8)
            else:  # another size
                other = int(rng.integers(1, 30))
                tile = rng.integers(0, 256, (other, other, 3)).astype(np.uint8)
            tiles.append(tile)
        planar = [np.ascontiguousarray(t.transpose(2, 0, 1)) for t in tiles]
        for threshold in (0.5, 1.0, 20.0):
            assert base.lookalike_pairs(planar, threshold) == _ref_lookalike_pairs(tiles, threshold)


def test_whole_blocks_match_the_byte_by_byte_rule():
    rng = np.random.default_rng(8)
    for _ in range(2000):
        h, w = int(rng.integers(1, 14)), int(rng.integers(1, 14))
        n = int(rng.integers(0, 8 * h * w))
        rows, cols = rng.integers(0, 2 * h, n), rng.integers(0, 2 * w, n)
        assert np.array_equal(projection._whole_blocks(rows, cols, (h, w), 1), _ref_whole_blocks(rows, cols, (h, w), 1))


def test_net_is_clean_matches_every_pair_tested():
    rng = np.random.default_rng(5)
    verdicts = set()
    for kind in ("cube", "cuboid", "octahedron", "dodecahedron", "icosahedron", "triangular_prism",
                 "square_pyramid", "tetrahedron"):
        proportion = {"cuboid": (1.0, 2.0, 3.0), "triangular_prism": (1.5,), "square_pyramid": (1.0,)}.get(kind, ())
        vertices, faces = mc.polyhedron(kind, proportion)
        owners = mc.edge_owners(faces)
        local = mc._face_frames(vertices, faces)
        for _ in range(25):  # random spanning trees laid flat, overlapping or not
            root = int(rng.integers(len(faces)))
            placed = {root: local[root] - local[root].mean(axis=0)}
            hinges, frontier = [], [(root, k) for k in range(len(faces[root]))]
            while frontier:
                parent, k = frontier.pop(int(rng.integers(len(frontier))))
                f = faces[parent]
                u, v = f[k], f[(k + 1) % len(f)]
                child, m = owners[(v, u)]
                if child in placed:
                    continue
                a, b = placed[parent][k], placed[parent][(k + 1) % len(f)]
                la, lb = local[child][(m + 1) % len(faces[child])], local[child][m]
                angle = np.arctan2(*(a - b)[::-1]) - np.arctan2(*(la - lb)[::-1])
                turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
                placed[child] = (local[child] - lb) @ turn.T + b
                hinges.append((parent, k, child, m))
                frontier += [(child, j) for j in range(len(faces[child])) if j != m]
            polygons = [placed[i] for i in range(len(faces))]
            found = mc.net_is_clean(polygons, hinges)
            assert found == _ref_net_is_clean(polygons, hinges)
            verdicts.add(found)
            # and with a face nudged to lie along a face it is not hinged to (a stray shared edge)
            if len(polygons) > 2:
                moved = [p.copy() for p in polygons]
                moved[-1] = moved[-1] + (moved[0][0] - moved[-1][1])
                moved_found = mc.net_is_clean(moved, hinges)
                assert moved_found == _ref_net_is_clean(moved, hinges)
                verdicts.add(moved_found)
    assert verdicts == {True, False}
    # two squares side by side: hinged, sharing an edge they are not hinged along, a corner only, apart
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    for offset, hinges, clean in (((1.0, 0.0), [(0, 1, 1, 3)], True), ((1.0, 0.0), [], False),
                                  ((1.0, 1.0), [], True), ((1.5, 0.0), [], True), ((1.0, 0.5), [], False)):
        polygons = [square, square + np.array(offset)]
        assert mc.net_is_clean(polygons, hinges) == _ref_net_is_clean(polygons, hinges) == clean, offset


def test_panels_clean_reads_the_features_given_as_measured(items):
    host = default_host()
    task = host.task("mindseye/mental-composition")
    for _, item, _ in items[:2]:
        built = build_item(host, task, item.seed, item.index, item.params, None, encode=False, verify=False)
        _, shown = built.problem.structure
        side = item.metadata["scene"]["tile"]
        stimulus_tiles = [o.content.cache[side] for o in shown]  # the options as drawn while sizing them
        features = [raster3d.panel_features(t) for t in stimulus_tiles]
        for factor, floors, difference in ((2.0, {"ink": 0.01, "extent": 0.05, "saturation": 0.03}, 1.0),
                                          (0.01, {"ink": 0.0, "extent": 0.0, "saturation": 0.0}, 1.0),
                                          (2.0, {"ink": 0.01}, 500.0)):
            assert raster3d.panels_clean(stimulus_tiles, factor, floors, difference, features=features) == \
                raster3d.panels_clean(stimulus_tiles, factor, floors, difference)
