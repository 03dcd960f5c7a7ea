"""HPE fast paths held to the code they replaced: the same numbers, bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image

from bench_plugin_mindseye import hierarchical_patterns as hpe
from bench_plugin_mindseye import recursion
from bench_plugin_mindseye.nuisance import FRAME, INK_THRESHOLD


def _quick_layout_whole_panel(image: Image.Image) -> np.ndarray:
    """``_quick_layout`` as it was: the ink mask, its counts and moments over the whole panel."""
    grey = np.asarray(image)[FRAME:-FRAME, FRAME:-FRAME]
    h, w = grey.shape
    ink = (grey < 255 - INK_THRESHOLD).astype(np.float32)
    ones_w, index_w = np.ones(w, dtype=np.float32), np.arange(w, dtype=np.float32)
    ones_h, index_h = np.ones(h, dtype=np.float32), np.arange(h, dtype=np.float32)
    per_row = ink @ ones_w
    count = int(per_row.sum())
    elongation = extent = 0.0
    if count:
        per_col = ones_h @ ink
        rows, cols = np.flatnonzero(per_row), np.flatnonzero(per_col)
        extent = float((rows[-1] - rows[0] + 1) * (cols[-1] - cols[0] + 1) / ink.size)
        r, c = index_h.astype(np.int64), index_w.astype(np.int64)
        row_counts, col_counts = per_row.astype(np.int64), per_col.astype(np.int64)
        sy, syy = int(row_counts @ r), int(row_counts @ (r * r))
        sx, sxx = int(col_counts @ c), int(col_counts @ (c * c))
        sxy = int(r @ (ink @ index_w).astype(np.int64))
        cxx, cyy, cxy = count * sxx - sx * sx, count * syy - sy * sy, count * sxy - sx * sy
        elongation = math.hypot(cxx - cyy, 2 * cxy) / (cxx + cyy) if cxx + cyy else 0.0
    drawn_rows = np.flatnonzero((grey < 255).any(axis=1))
    total = 0.0
    if len(drawn_rows):
        drawn_cols = np.flatnonzero((grey < 255).any(axis=0))
        i0, i1 = max(int(drawn_rows[0]) - 1, 0), min(int(drawn_rows[-1]), h - 2)
        j0, j1 = max(int(drawn_cols[0]) - 1, 0), min(int(drawn_cols[-1]), w - 2)
        box = grey[i0:i1 + 2, j0:j1 + 2].astype(np.float32)
        gx, gy = box[:-1, 1:] - box[:-1, :-1], box[1:, :-1] - box[:-1, :-1]
        total = float(np.sqrt(gx * gx + gy * gy).sum(dtype=np.float64))
    edges = total / ((h - 1) * (w - 1)) / 255.0
    return np.array([elongation, math.log(max(count / ink.size, 1e-6)), math.log(max(edges, 1e-6)),
                     math.log(max(extent, 1e-6))])


def _odd_panels(side: int) -> list[Image.Image]:
    """Panels the generator never makes: blank, faint grey only (drawn, no ink), a dot in each corner of the
    interior and on the frame, ink touching every edge, grey noise."""
    out = [Image.new("L", (side, side), 255)]
    faint = np.full((side, side), 255, dtype=np.uint8)
    faint[40:60, 30:90] = 255 - INK_THRESHOLD  # drawn but not ink
    out.append(Image.fromarray(faint))
    corners = np.full((side, side), 255, dtype=np.uint8)
    for y, x in ((FRAME, FRAME), (FRAME, side - FRAME - 1), (side - FRAME - 1, FRAME), (side - 1, side - 1)):
        corners[y, x] = 0
    out.append(Image.fromarray(corners))
    edge = np.full((side, side), 255, dtype=np.uint8)
    edge[:, side // 2], edge[side // 3, :] = 10, 120
    out.append(Image.fromarray(edge))
    # grey noise everywhere: a gradient at nearly every pixel
    out.append(Image.fromarray(np.random.default_rng(side).integers(0, 256, (side, side), dtype=np.uint8)))
    return out


@pytest.mark.parametrize("side", [271, 407])
def test_quick_layout_on_the_drawn_box_is_the_whole_panel_layout(side):
    """``_quick_layout`` worked out on the box of the non-white pixels gives what it gave on the whole panel,
    exactly: drawn panels of every generator, and odd ones (blank, faint, dots at the interior's corners, ink
    across the whole panel, noise)."""
    rng = np.random.default_rng(side)
    panels = _odd_panels(side)
    for k in range(18):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        violation = (None, *recursion.SUPPORTS[generator])[k % 3]
        construction = recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2],
                                           violation=violation)
        panels.append(hpe.Panel(construction.groups).image(side))
    for image in panels:
        assert np.array_equal(hpe._quick_layout(image), _quick_layout_whole_panel(image))


def _gap_stroke_by_stroke(groups) -> float:
    """``recursion.gap`` as it was (every pair of strokes): each end against the other stroke and the side
    tests one call at a time."""
    edges, owner = recursion._edges(groups)
    i, j = np.triu_indices(len(edges), k=1)
    ends = np.abs(edges[i][:, :, None, :] - edges[j][:, None, :, :]).max(axis=3)
    keep = ~(ends < 1e-6).any(axis=(1, 2)) & ((owner[i] < 0) | (owner[i] != owner[j]))
    a, b = edges[i[keep]], edges[j[keep]]
    if not len(a):
        return math.inf

    def distance(p, s, t):
        d = t - s
        length = (d**2).sum(axis=-1)
        u = np.clip(((p - s) * d).sum(axis=-1) / np.where(length > 0, length, 1.0), 0.0, 1.0)
        return np.hypot(*np.moveaxis(s + u[..., None] * d - p, -1, 0))

    near = np.minimum.reduce([distance(a[:, 0], b[:, 0], b[:, 1]), distance(a[:, 1], b[:, 0], b[:, 1]),
                              distance(b[:, 0], a[:, 0], a[:, 1]), distance(b[:, 1], a[:, 0], a[:, 1])])

    def side(p, q, r):
        return np.sign((q[:, 0] - p[:, 0]) * (r[:, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (r[:, 0] - p[:, 0]))

    crossing = (side(a[:, 0], a[:, 1], b[:, 0]) * side(a[:, 0], a[:, 1], b[:, 1]) < 0) & \
        (side(b[:, 0], b[:, 1], a[:, 0]) * side(b[:, 0], b[:, 1], a[:, 1]) < 0)
    return float(np.where(crossing, 0.0, near).min())


def test_gap_measured_four_ends_at_once_is_the_gap_stroke_by_stroke():
    """``recursion.gap`` (whole and within a clearance) gives the old computation's value bit for bit: drawn
    trees, polygons and violators of every generator, and random strokes that cross, touch and run parallel."""
    rng = np.random.default_rng(12)
    drawings = []
    for k in range(36):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        violation = (None, *recursion.SUPPORTS[generator])[k % 4 % (len(recursion.SUPPORTS[generator]) + 1)]
        drawings.append(recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2],
                                            violation=violation).groups)
    for k in range(40):
        ends = np.round(rng.uniform(0, 1, (int(rng.integers(2, 30)), 2, 2)), 1 + k % 3)  # shared ends, collinear
        drawings.append((recursion.Group("seg", ends),))
    for groups in drawings:
        expected = _gap_stroke_by_stroke(groups)
        assert recursion.gap(groups) == expected
        within = recursion.gap(groups, within=0.05)
        assert within == expected if expected < 0.05 else within >= 0.05
        assert recursion.crowded(groups) == (expected < recursion.CLEARANCE)


def test_tips_are_the_samples_near_a_recorded_segments_end():
    """The verifier's ``_tips`` (only the recorded segments' samples measured) flags exactly the samples the whole
    table's test did: recorded segments first, then polygon and circle edges, with none or all segments."""
    from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier
    from bench_plugin_mindseye.verifiers import line_raster

    rng = np.random.default_rng(4)
    for k in range(60):
        segments = rng.uniform(0, 50, (int(rng.integers(0, 25)), 2, 2))
        recorded = int(rng.integers(0, len(segments) + 1))
        points, which = line_raster.samples(segments, step=(0.7, 1.0)[k % 2])
        reach = float(rng.uniform(0.5, 4.0))
        expected = (which < recorded) & (np.minimum(np.hypot(*(points - segments[which, 0]).T),
                                                    np.hypot(*(points - segments[which, 1]).T)) < reach)
        assert np.array_equal(verifier._tips(points, which, segments, recorded, reach), expected)


def _panel_pixel_failures_always_stray(tile, description, name) -> list[str]:
    """``verifier.panel_pixel_failures`` as it was: the stray check counted on every panel."""
    from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier
    from bench_plugin_mindseye.verifiers import line_raster

    side = tile.shape[0]
    failures = []
    lines = verifier._polylines(description, side)
    shown, own_count, own_shown = verifier.part_ink(tile, description, lines)
    missing = int(((shown < verifier.PRESENT) | ((own_count >= verifier.OWN_LEAST)
                                                 & (own_shown < verifier.OWN_PRESENT))).sum())
    if missing:
        failures.append(f"figure {name}: {missing} recorded part(s) are not drawn where the record puts them")
    fine = line_raster.samples(lines[0], step=0.7) if len(lines[0]) else None
    darkness = line_raster.darkness(tile)
    allowed = line_raster.grown(fine[0], side, float(description["pen"]) / 2 + verifier.STRAY_REACH) \
        if fine is not None else np.zeros((side, side), dtype=bool)
    stray = (darkness > verifier.CLEAR_DARKNESS) & ~allowed
    border = verifier.BORDER
    stray[:border], stray[-border:], stray[:, :border], stray[:, -border:] = False, False, False, False
    if int(stray.sum()) > verifier.STRAY_ALLOWED:
        failures.append(f"figure {name}: {int(stray.sum())} ink pixels lie off every recorded part")
    blank, off = verifier.exact_pixel_faults(tile, description, lines, fine, darkness)
    if blank > verifier.EXACT_ALLOWED:
        failures.append(f"figure {name}: {blank} pixels under the pen of a recorded part are blank")
    if off > verifier.EXACT_ALLOWED:
        failures.append(f"figure {name}: {off} ink pixels lie beyond the pen's edge of every recorded part")
    return failures


def _moved(description: dict, dx: float, dy: float, scale: float = 1.0) -> dict:
    """The record with every part moved by (dx, dy) and scaled about the panel's centre (unit coordinates)."""
    def point(x, y):
        return 0.5 + (x - 0.5) * scale + dx, 0.5 + (y - 0.5) * scale + dy
    out = dict(description)
    out["segments"] = [[*point(x0, y0), *point(x1, y1)] for x0, y0, x1, y1 in description["segments"]]
    out["polygons"] = [[list(point(x, y)) for x, y in poly] for poly in description["polygons"]]
    out["circles"] = [[*point(x, y), r * scale] for x, y, r in description["circles"]]
    return out


def test_stray_ink_counted_only_where_ink_lies_off_the_pen_finds_the_same_faults():
    """``panel_pixel_failures`` counts the stray ink only where the ink off the pen's edge exceeds its allowance
    (or a sample lies off the tile): the same failures, in the same order, as counting it on every panel -- on
    written panels of every generator, with stray ink added (dots, a stroke, noise), a part dropped, the record
    moved a little, a lot and off the tile, scaled, with a thinner and a thicker pen, and with no parts."""
    from bench_core import build_item, create_host, hookimpl, plan
    from bench_plugin_mindseye.descriptions.hierarchical_patterns import TASK
    from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier

    class _Plugin:
        @hookimpl
        def bench_register_tasks(self):
            return [TASK]

    host = create_host(entry_points=False, plugins=[("test-hierarchical_fast_paths", _Plugin())])
    rng = np.random.default_rng(7)
    outcomes = set()
    for seed in (5, 6):
        for job in plan(TASK, {}, seed, 3):
            built = build_item(host, TASK, seed, job.index, job.params, job.suffix)
            scene = built.item.metadata["scene"]
            pixels = np.asarray(built.images[0].convert("RGB"))
            for box, description in zip(scene["option_boxes"], scene["options"], strict=True):
                left, top, right, bottom = box
                tile = pixels[top:bottom, left:right]
                side = tile.shape[0]
                dots, stroke, noise = tile.copy(), tile.copy(), tile.copy()
                dots[rng.integers(5, side - 5, 6), rng.integers(5, side - 5, 6)] = 0
                stroke[side // 2, 10:40] = 30
                noise[rng.integers(0, side, 400), rng.integers(0, side, 400)] = rng.integers(0, 256, (400, 3))
                dropped = dict(description)
                for key in ("segments", "polygons", "circles"):
                    if dropped[key]:
                        dropped[key] = dropped[key][1:]
                        break
                records = [description, dropped, _moved(description, 0.004, 0.0), _moved(description, 0.05, 0.03),
                           _moved(description, -0.2, 0.0), _moved(description, 0.0, 0.0, 1.3),
                           {**description, "pen": description["pen"] * 0.5},
                           {**description, "pen": description["pen"] * 2.5},
                           {**description, "segments": [], "polygons": [], "circles": []}]
                for picture in (tile, dots, stroke, noise):
                    for record in records:
                        expected = _panel_pixel_failures_always_stray(picture, record, "A")
                        assert verifier.panel_pixel_failures(picture, record, "A") == expected
                        outcomes.add(any("off every recorded part" in f for f in expected))
    assert outcomes == {True, False}


@pytest.mark.parametrize("side", [271, 407, 500])
def test_layout_of_the_drawn_box_is_the_layout_of_its_panel(side):
    """``_box_layout`` (the candidates' match measured on their drawn box, the panel never made) gives what
    ``_quick_layout`` gives on the panel ``_drawn`` makes of the box, exactly: figures of every generator, valid
    and broken, and strokes, polygons and rings running to the panel's edges and over its frame (the box cut
    against the interior), a dot, and nothing."""
    rng = np.random.default_rng(side + 1)
    drawings = []
    for k in range(24):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        violation = (None, *recursion.SUPPORTS[generator])[k % 3]
        drawings.append(recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2],
                                            violation=violation).groups)
    edge = 1.5 / side
    drawings += [
        (recursion.Group("seg", np.array([[[-0.1, 0.5], [1.1, 0.5]], [[0.5, -0.2], [0.5, 1.2]]])),),
        (recursion.Group("seg", np.array([[[edge, edge], [0.3, edge]], [[1 - edge, 0.2], [1 - edge, 1 - edge]]])),),
        (recursion.Group("seg", np.array([[[0.0, 0.0], [0.02, 0.01]]])),),
        (recursion.Group("seg", np.array([[[0.999, 0.999], [1.0, 1.0]]])),),
        (recursion.Group("poly", np.array([[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]])),),
        (recursion.Group("poly", np.array([[[0.02, 0.98], [0.3, 0.7], [0.01, 0.6]]])),),
        (recursion.Group("circle", np.array([[0.5, 0.5, 0.5], [0.0, 0.0, 0.1], [1.0, 0.3, 0.05]])),),
        (recursion.Group("circle", np.array([[0.5, 0.5, 0.002]])),),
        (recursion.Group("seg", np.zeros((0, 2, 2))),),
        (),
    ]
    for groups in drawings:
        box = hpe._draw_box(hpe.quantise(groups), side, hpe.SUPERSAMPLE)
        panel = hpe._drawn(box, side)
        assert np.array_equal(np.asarray(panel), np.asarray(hpe._draw(hpe.quantise(groups), side, hpe.SUPERSAMPLE)))
        assert np.array_equal(hpe._box_layout(box, side), hpe._quick_layout(panel))
        assert np.array_equal(hpe._quick_layout(panel), _quick_layout_whole_panel(panel))


def test_circles_outlined_together_are_the_polylines_circle_by_circle():
    """``verifier._polylines`` outlines the circles with as many points at once: the same segments and owners,
    bit for bit, as ``line_raster.circle_polyline`` and ``polyline_segments`` circle by circle -- rings of
    every size, tiny and nil circles, circles off the tile, and circles after segments and polygons."""
    from bench_plugin_mindseye.verifiers import hierarchical_patterns as verifier
    from bench_plugin_mindseye.verifiers import line_raster

    rng = np.random.default_rng(9)
    for k in range(40):
        circles = rng.uniform(-0.2, 1.2, (int(rng.integers(0, 45)), 3))
        circles[:, 2] = np.abs(circles[:, 2]) * (0.5 if k % 2 else 0.02)
        if k % 5 == 0 and len(circles):
            circles[0, 2] = 0.0
        segments = rng.uniform(0, 1, (int(rng.integers(0, 4)), 4)).tolist()
        polygons = rng.uniform(0, 1, (int(rng.integers(0, 3)), 3 + k % 3, 2)).tolist()
        description = {"segments": segments, "polygons": polygons, "circles": circles.tolist()}
        for side in (271, 407):
            found, owner = verifier._polylines(description, side)
            head, head_owner = verifier._polylines({**description, "circles": []}, side)
            pieces, owners = [head], [head_owner]
            index = len(segments) + len(polygons)
            for x, y, r in description["circles"]:
                seg = line_raster.polyline_segments(line_raster.circle_polyline(x * side, y * side, r * side),
                                                    closed=False)
                pieces.append(seg)
                owners.append(np.full(len(seg), index))
                index += 1
            assert np.array_equal(found, np.concatenate(pieces).reshape(-1, 2, 2))
            assert np.array_equal(owner, np.concatenate(owners))


def test_panels_differ_as_by_the_float32_mean_of_their_differences():
    """``_differ`` (the in-build audit's panel difference, from an exact integer sum) decides as the float32 mean
    of the absolute differences it replaced, at every floor up to 100 grey levels (and, below that, at the mean
    itself and its float neighbours):
    drawn panels of every generator against each other, and crafted panels whose summed difference lies at twice
    the size, around 2 ** 24 and at its largest."""
    rng = np.random.default_rng(2)
    panels = []
    for k in range(18):
        generator = recursion.GENERATORS[k % len(recursion.GENERATORS)]
        construction = recursion.construct(generator, rng, 3 + k % 3, ("plain", "irregular")[k % 2])
        panels.append(np.asarray(hpe.Panel(construction.groups).image((407, 271)[k % 2])))
    pairs = [(a, b) for a in panels for b in panels if a.shape == b.shape]
    for side in (265, 401):
        size = side * side
        for total in (0, 1, 2 * size - 1, 2 * size, 2 * size + 1, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 3, 255 * size):
            a, b = np.zeros(size, dtype=np.uint8), np.zeros(size, dtype=np.uint8)
            full, rest = divmod(total, 255)
            b[:full] = 255
            if rest:
                b[full] = rest
            pairs.append((a.reshape(side, side), b.reshape(side, side)))
    for a, b in pairs:
        mean = float(np.abs(a.astype(np.float32) - b.astype(np.float32)).mean())
        floors = [0.5, 1.0, 2.0, 3.0, 100.0]
        if mean < 100:  # above, the float32 mean drifts in its last bits from the exact one that decides there
            floors += [mean, float(np.nextafter(mean, 0)), float(np.nextafter(mean, 300))]
        for floor in floors:
            assert hpe._differ(a, b, floor) == (mean > floor)
