"""The render and verifier fast paths of the two 3D tasks (mental rotation, mental composition) added for issue 12,
each held to the code it replaced: the faces painted far to near all at once (``raster3d._painted``) against the
face-by-face painting loop, the panel's palette counts against a bincount, cube visibility on column numbers
against the pixel-centre tests, the caption plane mapped at its marks against ``Image.point``, and a panel's
interior darkness read through a lookup against its histogram."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image
from polycube_samples import random_chains, random_colours

from bench_core import build_item, default_host, plan
from bench_plugin_mindseye import mental_composition as mc
from bench_plugin_mindseye import mental_rotation as mt
from bench_plugin_mindseye import raster3d
from bench_plugin_mindseye.verifiers import projection

_HOST = default_host()


def _meshes(count: int, seed: int) -> list[raster3d.Mesh]:
    """Polycubes in oblique and lattice poses, and every kind of solid."""
    rng = np.random.default_rng(seed)
    chains = random_chains(rng)
    out = []
    while len(out) < count:
        chain = next(chains)
        if len(out) % 2:
            pose = mt.ROTATIONS[int(rng.integers(24))].astype(float)
        else:
            pose = mt.random_pose(rng, 3, "oblique")[0]
        colours = random_colours(rng, len(chain))
        out.append(raster3d.polycube_mesh(chain, colours, pose))
    kinds = [("cube", ()), ("cuboid", (1.0, 2.0, 3.0)), ("triangular_prism", (2.0,)), ("square_pyramid", (1.4,)),
             ("cone", (0.45,)), ("tetrahedron", ()), ("octahedron", ()), ("dodecahedron", ()), ("icosahedron", ())]
    out += [mc.Solid(kind, proportion, (200, 120, 90), mc.presentation(rng, kind)).mesh() for kind, proportion in kinds]
    return out


def _painted_face_by_face(mesh: raster3d.Mesh, seen: raster3d.Screen, window: tuple[int, int, int, int],
                          painter: np.ndarray) -> np.ndarray:
    """The painting ``_zbuffer`` did before ``_painted``: faces far to near, each over its box, a pixel covered
    when its centre (float32) lies between the row's crossings of the face's edges (``_face_spans``)."""
    r0, r1, c0, c1 = window
    px, py, _, ncam = seen
    ids = np.zeros((r1 - r0, c1 - c0), dtype=np.uint8)
    front = np.flatnonzero(ncam[:, 2] >= 1e-4)
    front = front[np.argsort(painter[front], kind="stable")]
    xs = np.arange(c0 + 0.5, c1, dtype=np.float32)
    for j, face in enumerate(front.tolist()):
        corners = np.asarray(mesh.faces[face])
        fx, fy = px[corners][None], py[corners][None]
        bx0, bx1 = max(math.floor(fx.min()), c0), min(math.ceil(fx.max()), c1)
        by0, by1 = max(math.floor(fy.min()), r0), min(math.ceil(fy.max()), r1)
        if bx0 >= bx1 or by0 >= by1:
            continue
        rows = np.arange(by0, by1) + 0.5
        left, right = raster3d._face_spans(fx, fy, np.zeros(len(rows), dtype=np.int64), rows)
        cols = xs[bx0 - c0:bx1 - c0]
        win = (cols >= left[:, None]) & (cols <= right[:, None])
        np.copyto(ids[by0 - r0:by1 - r0, bx0 - c0:bx1 - c0], j + 1, where=win)
    return ids


def test_painting_all_faces_at_once_is_the_face_by_face_painting():
    """Overlapping cubes, faces meeting on shared edges, windows that clip the object; and the labels are the
    faces' (one more, 0 the background) wherever the painting order puts them."""
    for mesh in _meshes(14, seed=8):
        side = 150
        scale = raster3d.shared_scale([mesh], side)
        seen = raster3d._screen(mesh, 2 * side, 2 * scale, raster3d.CAMERA)
        painter = mesh.centres @ raster3d.CAMERA.toward
        front = np.flatnonzero(seen.normals[:, 2] >= 1e-4)
        labels = front[np.argsort(painter[front], kind="stable")] + 1
        for window in ((0, 2 * side, 0, 2 * side), (13, 2 * side - 21, 30, 2 * side - 4), (150, 170, 90, 260)):
            fast = raster3d._zbuffer(mesh, seen, 2 * scale, window, shifted=True, painter=painter)
            slow = _painted_face_by_face(mesh, seen, window, painter)
            expected = np.concatenate([[0], labels])[slow]
            assert fast.dtype == np.uint8 and np.array_equal(fast, expected)


def test_painting_on_exact_ties_lets_the_later_face_win():
    """Two squares sharing an edge on pixel centres, and one square painted over another: the later one wins
    every pixel both cover, as painted one by one."""
    vertices = np.array([[0, 0, 0], [4, 0, 0], [4, 4, 0], [0, 4, 0], [8, 0, 0], [8, 4, 0],
                         [2, 2, 1], [6, 2, 1], [6, 6, 1], [2, 6, 1]], dtype=float)
    faces = np.array([[0, 1, 2, 3], [1, 4, 5, 2], [6, 7, 8, 9]])
    mesh = raster3d.Mesh(vertices, faces, [(200, 0, 0)] * 3, centres=np.array([[0, 0, 0], [0, 0, 0], [0, 0, 1.0]]))
    ncam = np.tile([0.0, 0.0, 1.0], (3, 1))
    seen = raster3d.Screen(vertices[:, 0] * 2 + 0.5, vertices[:, 1] * 2 + 0.5, vertices[:, 2], ncam)
    painter = np.array([0.0, 0.0, 1.0])
    window = (0, 20, 0, 20)
    fast = raster3d._zbuffer(mesh, seen, 2.0, window, shifted=True, painter=painter)
    assert np.array_equal(fast, _painted_face_by_face(mesh, seen, window, painter))
    assert set(np.unique(fast).tolist()) == {0, 1, 2, 3}


def test_render_counts_every_palette_entry_it_shows():
    for mesh in _meshes(6, seed=2):
        scale = raster3d.quantised_scale(raster3d.shared_scale([mesh], 120), down=True)
        drawn = raster3d.render(mesh, 120, scale).indexed
        shown, _, counts, part = drawn.info[raster3d._SHOWN_KEY]
        palette = len(drawn.getpalette()) // 3
        assert counts.dtype == np.int64 and np.array_equal(counts, np.bincount(part.ravel(), minlength=palette))
        assert np.array_equal(shown, np.union1d(np.flatnonzero(counts), [0]))


def _visibility_on_pixel_centres(voxels: np.ndarray, matrix: np.ndarray, side: int) -> np.ndarray:
    """``cube_visibility`` as it was: every pixel centre tested against each row's span of each hexagon."""
    voxels = np.asarray(voxels, dtype=float)
    camera = raster3d.CAMERA
    cam = (voxels - voxels.mean(axis=0)) @ (camera.matrix @ matrix).T
    edges = (camera.matrix[:2] @ matrix).T
    half = 0.5 * np.abs(edges).sum(axis=0)
    low, high = cam[:, :2].min(axis=0) - half, cam[:, :2].max(axis=0) + half
    scale = 0.84 * side / float(max(high - low))
    middle = (low + high) / 2
    centres = np.arange(side) + 0.5
    xs = (centres - side / 2) / scale + middle[0]
    ys = (side / 2 - centres) / scale + middle[1]
    order = np.argsort(-cam[:, 2], kind="stable")
    x, y = cam[order, 0][None, :, None], cam[order, 1][None, :, None]
    ax, ay = -edges[:, 1], edges[:, 0]
    reach = 0.5 * np.abs(ax[:, None] * edges[:, 0] + ay[:, None] * edges[:, 1]).sum(axis=1)
    rest = ay[:, None, None] * (ys[None, None, :] - y)
    flat = np.abs(ax) < 1e-12
    step = np.where(flat, 1.0, ax)[:, None, None]
    a, b = (-reach[:, None, None] - rest) / step, (reach[:, None, None] - rest) / step
    lo, hi = np.minimum(a, b) + x, np.maximum(a, b) + x
    if flat.any():
        outside = np.abs(rest) > reach[:, None, None]
        lo = np.where(flat[:, None, None], np.where(outside, np.inf, -np.inf), lo)
        hi = np.where(flat[:, None, None], np.where(outside, -np.inf, np.inf), hi)
    covered = (xs >= lo.max(axis=0)[:, :, None]) & (xs <= hi.min(axis=0)[:, :, None])
    counts = np.zeros(len(voxels), dtype=np.int64)
    taken = np.zeros((side, side), dtype=bool)
    for k in range(len(voxels)):
        counts[order[k]] = np.count_nonzero(covered[k] & ~taken)
        taken |= covered[k]
    return counts


@pytest.mark.parametrize("side", [72, 101])
def test_cube_visibility_on_column_numbers_is_the_pixel_centre_count(side):
    rng = np.random.default_rng(side)
    chains = random_chains(rng)
    tried = 0
    while tried < 80:
        chain = next(chains)
        if tried % 3 == 0:
            pose = mt.ROTATIONS[int(rng.integers(24))].astype(float)
        else:
            pose = mt.random_pose(rng, int(rng.integers(1, 4)), "oblique" if tried % 2 else "right")[0]
        pose = np.round(pose, 6) + 0.0
        if not mt.readable_pose(pose):
            continue
        tried += 1
        counts, _ = raster3d.cube_visibility(chain, pose, side)
        assert np.array_equal(counts, _visibility_on_pixel_centres(chain, pose, side))


@pytest.mark.parametrize("task_id", ["mindseye/mental-rotation", "mindseye/mental-composition"])
def test_the_caption_plane_mapped_at_its_marks_is_the_pointed_plane(task_id):
    task = _HOST.task(task_id)
    for job in plan(task, {}, 3, 2):
        built = build_item(_HOST, task, job.seed, job.index, job.params, job.suffix, verify=False)
        impl = mt.TASK if "rotation" in task_id else mc.TASK
        layout = impl.layout(built.item.params["size"])
        stimulus, _ = built.problem.structure
        plane = raster3d._plane(layout, tuple(stimulus.query_captions), tuple("ABCD"))
        rng = np.random.default_rng(job.index)
        table = rng.integers(0, 256, 256).astype(np.uint8)
        mapped = np.full(plane.grey.width * plane.grey.height, table[plane.common], dtype=np.uint8)
        mapped[plane.marks] = table[plane.marked]
        expected = np.asarray(plane.grey.point(table.tolist())).ravel()
        assert np.array_equal(mapped, expected)


def test_interior_darkness_read_through_a_lookup_is_the_histogram_count():
    task = _HOST.task("mindseye/mental-rotation")
    for job in plan(task, {}, 9, 3):
        built = build_item(_HOST, task, job.seed, job.index, job.params, job.suffix, verify=False)
        for panel in projection.scene_panels(built.item.metadata["scene"], built.images[0], "the original"):
            tile = panel.pixels
            assert tile.image is not None
            height, width = tile.shape[:2]
            counts = np.asarray(tile.image.crop((3, 3, width - 3, height - 3)).histogram())
            darkest = projection._darkest(tile.colours)
            expected = (int(counts[darkest < projection.OBJECT_LEVEL].sum()),
                        int(counts[darkest < 255 - projection.PAPER_SLACK].sum()))
            assert tile.interior_darkness() == expected
            rgb = projection.Tile(rgb=tile.rgb)
            assert rgb.interior_darkness() == expected
    # a grey panel read through a palette of its own
    grey = Image.fromarray(np.tile(np.arange(0, 250, 5, dtype=np.uint8), (50, 1))).convert("P")
    colours = np.asarray(grey.getpalette(), dtype=np.uint8).reshape(-1, 3)
    colours = np.vstack([colours, np.zeros((256 - len(colours), 3), dtype=np.uint8)])
    tile = projection.Tile(image=grey, colours=colours)
    assert tile.interior_darkness() == projection.Tile(rgb=np.asarray(grey.convert("RGB"))).interior_darkness()
