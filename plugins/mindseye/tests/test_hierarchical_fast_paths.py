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
