"""The fast paths of the two 3D tasks (mental rotation, mental composition) held to the code they replaced or to a
plain reference: the z-buffer with its rows worked out at once, painting convex parts far to near, cube
visibility cube by cube, the three-step anti-aliasing, the nuisance features read through a palette, the item's
picture composed as a palette image, the verifier's object comparison and its paper zone."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from PIL import Image
from polycube_samples import random_chains, random_colours

from bench_core import build_item, default_host, encode_png, palette_indices, plan
from bench_plugin_mindseye import mental_composition as mc
from bench_plugin_mindseye import mental_rotation as mt
from bench_plugin_mindseye import nuisance, raster3d
from bench_plugin_mindseye.layout import SIZES, best_layout
from bench_plugin_mindseye.verifiers import mental_rotation as mrv
from bench_plugin_mindseye.verifiers import projection

_HOST = default_host()


def _polycube_meshes(count: int, seed: int = 7) -> list[tuple[raster3d.Mesh, np.ndarray, np.ndarray]]:
    """Random chains in random poses (oblique and lattice): (mesh, voxels, pose)."""
    rng = np.random.default_rng(seed)
    chains = random_chains(rng)
    out = []
    while len(out) < count:
        chain = next(chains)
        if len(out) % 2:
            pose = mt.ROTATIONS[int(rng.integers(24))].astype(float)
        else:
            pose, _ = mt.random_pose(rng, 3, "oblique")
            if not mt.readable_pose(pose):
                continue
        colours = random_colours(rng, len(chain))
        out.append((raster3d.polycube_mesh(chain, colours, pose), chain, pose))
    return out


def _solid_meshes() -> list[raster3d.Mesh]:
    rng = np.random.default_rng(3)
    kinds = [("cube", ()), ("cuboid", (1.0, 2.0, 3.0)), ("triangular_prism", (2.0,)), ("square_pyramid", (1.4,)),
             ("cone", (0.45,)), ("tetrahedron", ()), ("octahedron", ()), ("dodecahedron", ()), ("icosahedron", ())]
    return [mc.Solid(kind, proportion, (200, 120, 90), mc.presentation(rng, kind)).mesh() for kind, proportion in kinds]


def _without_centres(mesh: raster3d.Mesh) -> raster3d.Mesh:
    return raster3d.Mesh(mesh.vertices, mesh.faces, mesh.colours, mesh.groups, mesh.owners)


def test_zbuffer_matches_the_face_by_face_fill():
    meshes = [m for m, _, _ in _polycube_meshes(12)] + _solid_meshes()
    for mesh in meshes:
        side = 150
        scale = raster3d.shared_scale([mesh], side)
        seen = raster3d._screen(mesh, 2 * side, 2 * scale, raster3d.CAMERA)
        for window in ((0, 2 * side, 0, 2 * side), (13, 2 * side - 21, 30, 2 * side - 4)):
            reference = raster3d._zbuffer_by_face(mesh, seen, 2 * scale, window)
            assert np.array_equal(raster3d._zbuffer(mesh, seen, 2 * scale, window), reference)
            shifted = raster3d._zbuffer(mesh, seen, 2 * scale, window, shifted=True)
            assert np.array_equal(shifted.astype(np.int32) - 1, reference)


@pytest.mark.parametrize("side", [120, 291])
def test_painting_convex_parts_far_to_near_draws_what_the_z_buffer_draws(side):
    """Lattice cubes (translates of one centrally symmetric box) and convex solids: the painted panel is the
    z-buffered one, to the pixel."""
    meshes = [m for m, _, _ in _polycube_meshes(16)] + _solid_meshes()
    for mesh in meshes:
        assert mesh.centres is not None
        scale = raster3d.quantised_scale(raster3d.shared_scale([mesh], side), down=True)
        painted = np.asarray(raster3d.render(mesh, side, scale).image)
        buffered = np.asarray(raster3d.render(_without_centres(mesh), side, scale).image)
        assert np.array_equal(painted, buffered)


def test_cube_visibility_counts_what_the_face_z_buffer_counts():
    for mesh, chain, pose in _polycube_meshes(60, seed=11):
        scale = raster3d.shared_scale([mesh], 72)
        per_face = raster3d.visible_pixels(mesh, 72, scale)
        per_cube = np.bincount(mesh.owners, weights=per_face, minlength=len(chain))
        counts, found_scale = raster3d.cube_visibility(chain, pose, 72)
        assert found_scale == pytest.approx(scale, rel=1e-12)
        assert np.abs(per_cube - counts).max() <= 1  # a pixel centre on a shared edge may go either way
        view = mt.PolycubeView(chain, [mt.WHITE] * len(chain), pose)
        assert mt.every_cube_visible(view) == bool(per_cube.min() >= mt.MIN_VISIBLE * scale**2) or \
            abs(per_cube.min() - mt.MIN_VISIBLE * scale**2) <= 1


def _box_reference(index: np.ndarray, outline: np.ndarray, ss: int, solid: int) -> np.ndarray:
    h, w = index.shape[0] // ss, index.shape[1] // ss
    out = np.zeros((h, w), dtype=np.uint8)
    for r in range(h):
        for c in range(w):
            rows, cols = slice(r * ss, (r + 1) * ss), slice(c * ss, (c + 1) * ss)
            block, lines = index[rows, cols], outline[rows, cols]
            inked = int(lines.sum())
            off = block[~lines]
            out[r, c] = solid * ss * ss if inked == ss * ss else inked * solid + int(off.min())
    return out


@pytest.mark.parametrize("ss", [1, 2, 3])
def test_box_steps_match_a_block_by_block_reference(ss):
    rng = np.random.default_rng(ss)
    for _ in range(20):
        index = rng.integers(0, 9, size=(6 * ss, 8 * ss)).astype(np.uint8)
        outline = rng.random(index.shape) < 0.4
        expected = (np.where(outline, np.uint8(10), index) if ss == 1 else _box_reference(index, outline, ss, 10))
        assert np.array_equal(raster3d._box_steps(index, outline, ss, 10), expected)


def test_render_is_the_box_filtered_supersampled_drawing():
    """Where no two faces of one outline group meet inside a block (polycubes: every face its own group), the
    panel is exactly the supersampled drawing reduced by Pillow's box filter."""
    for mesh, _, _ in _polycube_meshes(8, seed=9):
        side = 150
        scale = raster3d.quantised_scale(raster3d.shared_scale([mesh], side), down=True)
        ss = raster3d.SUPERSAMPLE
        big = raster3d.render(mesh, side * ss, scale * ss, supersample=1, edge_px=raster3d.edge_width(side) * ss)
        expected = np.asarray(big.image.reduce(ss))
        assert np.array_equal(np.asarray(raster3d.render(mesh, side, scale).image), expected)


def _built(task_id: str, count: int):
    task = _HOST.task(task_id)
    return [build_item(_HOST, task, job.seed, job.index, job.params, job.suffix, verify=False)
            for job in plan(task, {}, 21, count)]


@pytest.mark.parametrize("task_id", ["mindseye/mental-rotation", "mindseye/mental-composition"])
def test_palette_features_and_audit_match_the_rgb_ones(task_id):
    for built in _built(task_id, 6):
        _, shown = built.problem.structure
        side = mt.TASK.layout(built.item.params["size"]).tile
        tiles = [o.content.cache[side] for o in shown]
        assert all(t.mode == "P" for t in tiles)
        for tile in tiles:
            assert raster3d.panel_features(tile) == nuisance.option_features(tile.convert("RGB"))
        for factor, difference in ((2.0, 1.0), (0.2, 1.0), (2.0, 40.0)):
            floors = {"ink": 0.01, "extent": 0.05, "saturation": 0.03}
            expected = nuisance.nuisance_clean([t.convert("RGB") for t in tiles], None, factor, floors, difference)
            assert raster3d.panels_clean(tiles, factor, floors, difference) == expected


def _reference_picture(built, task) -> Image.Image:
    """The item's picture the plain way: the layout composes the RGB panels, then every pixel outside the
    panels' uncovered boxes is drawn in the caption levels."""
    stimulus, shown = built.problem.structure
    layout = task.layout(built.item.params["size"])
    side = layout.tile
    query = [task.draw_query(c, side).convert("RGB") for c in stimulus.query]
    options = [task.draw_option(o.content, side).convert("RGB") for o in shown]
    letters = [chr(65 + k) for k in range(len(options))]
    canvas, _ = layout.compose(query, options, list(stimulus.query_captions), letters)
    grey = np.asarray(canvas.convert("L").point(raster3d._caption_table()))
    rgb = np.asarray(canvas).copy()
    outside = np.ones(grey.shape, dtype=bool)
    plane = raster3d._plane(layout, tuple(stimulus.query_captions), tuple(letters))
    for (q0, r0, q1, r1), (left, top) in zip(plane.inner, plane.corners, strict=True):
        outside[top + r0:top + r1, left + q0:left + q1] = False
    rgb[outside] = grey[outside][:, None]
    return Image.fromarray(rgb)


@pytest.mark.parametrize("task_id", ["mindseye/mental-rotation", "mindseye/mental-composition"])
def test_the_palette_picture_is_the_core_palette_image_of_the_plain_picture(task_id):
    task = _HOST.task(task_id)
    impl = mt.TASK if "rotation" in task_id else mc.TASK
    for built in _built(task_id, 5):
        picture = built.images[0]
        reference = _reference_picture(built, impl)
        assert np.array_equal(np.asarray(picture.convert("RGB")), np.asarray(reference))
        if picture.mode == "P":
            assert encode_png(picture) == encode_png(reference)
            colours, indices = palette_indices(reference)
            assert bytes(v for c in colours for v in c) == bytes(picture.getpalette())
            assert np.array_equal(indices, np.asarray(picture))
    assert task is not None


def test_compose_falls_back_to_rgb_beyond_256_colours():
    layout = best_layout(SIZES["1024x1024"], 1, 4, 4)
    side = layout.tile
    rng = np.random.default_rng(0)
    noisy = Image.fromarray(rng.integers(0, 256, size=(side, side, 3), dtype=np.uint8))
    blank = Image.new("RGB", (side, side), (255, 255, 255))
    picture = raster3d.compose(layout, [noisy], [blank] * 4, ["Original Shape"], list("ABCD"))
    assert picture.mode == "RGB"
    plane = raster3d._plane(layout, ("Original Shape",), tuple("ABCD"))
    q0, r0, q1, r1 = plane.inner[0]
    left, top = plane.corners[0]
    assert np.array_equal(np.asarray(picture)[top + r0:top + r1, left + q0:left + q1],
                          np.asarray(noisy)[r0:r1, q0:q1])


def _same_object_reference(a, b) -> bool:
    if len(a[0]) != len(b[0]):
        return False
    target = mrv._cells(*b)
    return any(mrv._cells(a[0] @ turn.T, a[1]) == target for turn in mrv.LATTICE_ROTATIONS)


def test_same_object_matches_the_set_by_set_comparison():
    rng = np.random.default_rng(5)
    seen = set()
    for trial in range(300):
        chain = None
        while chain is None:
            chain = mt.random_chain(rng, 7, 3)
        colours = [tuple(int(v) for v in rng.integers(0, 3, 3) * 100) for _ in chain]
        kind = trial % 4
        turn = mt.ROTATIONS[int(rng.integers(24))]
        other = {0: (chain @ turn.T + 3, colours), 1: (chain * np.array([-1, 1, 1]), colours),
                 2: (chain @ turn.T, colours[::-1]), 3: (chain @ turn.T, [colours[1], colours[0], *colours[2:]])}[kind]
        expected = _same_object_reference((chain, colours), other)
        assert mrv.same_object((chain, colours), other) == expected
        seen.add(expected)
    assert seen == {True, False}


def test_paper_zone_of_joined_hulls_is_the_zone_of_their_union():
    """Filling each swept part on its own and joining the fills gives the zone that filling their union gives,
    but for pixels on the union's boundary (Pillow rounds the corners of the two outlines differently)."""
    reach = projection.PEN / 2 + projection.BEYOND_PEN
    corners = np.array([[-reach, -reach], [reach, -reach], [reach, reach], [-reach, reach]])
    for mesh, chain, pose in _polycube_meshes(10, seed=3):
        description = {"voxels": chain.tolist(), "colours": [[250, 250, 250]] * len(chain), "rotation": pose.tolist(),
                       **raster3d.view_record(raster3d.shared_scale([mesh], 200), 200)}
        parts = mrv._parts(description, 200)
        joined = projection.paper_regions([parts], 200, [reach])[0]
        hulls = [shapely.convex_hull(shapely.MultiPoint((np.asarray(p)[:, None] + corners[None]).reshape(-1, 2)))
                 for p in parts]
        union = projection._paper_mask(shapely.union_all(hulls), 200)
        differ = joined.mask != union.mask
        # a pixel either way lies on the union's outline or on a hole's (a hole's rim is no longer cut back out
        # beyond its own pixels): within two pixels of the edge of the union's zone
        edge = union.mask ^ projection._dilate(union.mask, 1)
        assert (differ & ~projection._dilate(edge, 2)).sum() == 0


def test_grown_outline_matches_the_in_place_dilation():
    rng = np.random.default_rng(4)
    for radius in (1, 2, 3):
        mask = rng.random((40, 57)) < 0.05
        expected = mask.copy()
        raster3d._dilate(expected, radius)
        assert np.array_equal(raster3d._grown(mask, radius), expected)
