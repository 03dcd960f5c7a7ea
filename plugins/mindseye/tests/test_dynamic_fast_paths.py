"""Dynamic Structural Correspondence: every shortcut of the generator and the verifier gives exactly what the
plain code it replaced gives (panels drawn with the axes laid only on their own pixels, distances of all
pairs at once, near-duplicate outlines struck in batches, strokes grown on their box only, shared slip scenes,
panels cut from the image one at a time)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from PIL import Image

from bench_plugin_mindseye import dynamic_correspondence as dsc
from bench_plugin_mindseye import motion
from bench_plugin_mindseye.layout import SUPERSAMPLE
from bench_plugin_mindseye.nuisance import option_features
from bench_plugin_mindseye.verifiers import dynamic_correspondence as verifier
from bench_plugin_mindseye.verifiers import line_raster


def _random_scene(rng: np.random.Generator, shapes: dict[str, str] | None = None) -> dsc.Scene:
    shapes = shapes or dict(zip("AB", (str(s) for s in rng.choice(list(motion.SHAPES), size=2, replace=False)),
                                strict=True))
    poses = {key: np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(0, 2 * np.pi),
                            rng.uniform(-1.6, -1.0), rng.uniform(-1.6, -1.0), rng.uniform(-0.4, 0.4)])
             for key in "AB"}
    if rng.random() < 0.3:  # a shape across the centre, where the axes run
        poses["A"][:2] = 0.0
    return dsc._scene(shapes, poses)


@pytest.mark.parametrize("side", [128, 218])
def test_axes_laid_on_their_pixels_equal_the_whole_axes_image(side, monkeypatch):
    rng = np.random.default_rng(side)
    no_axes = ((np.zeros(0, dtype=int), np.zeros(0, dtype=int)), np.zeros((0, 3), dtype=np.uint8))
    for _ in range(12):
        scene = _random_scene(rng)
        fast = np.asarray(dsc._draw_scene(scene, side, SUPERSAMPLE))
        # the plain composite: the shapes alone (no axis pixels), then np.where(blank, axes, image)
        monkeypatch.setattr(dsc, "_axis_pixels", lambda *_: no_axes)
        shapes_only = np.asarray(dsc._draw_scene(scene, side, SUPERSAMPLE))
        monkeypatch.undo()
        blank = (shapes_only == 255).all(axis=2, keepdims=True)
        assert np.array_equal(fast, np.where(blank, dsc._axes(side, SUPERSAMPLE), shapes_only))


def test_set_distances_equal_set_distance_of_every_pair():
    rng = np.random.default_rng(3)
    for n in (3, 4, 6):
        sets = rng.normal(size=(5, n, 2))
        sets[2] = sets[1][::-1]  # the same vertex set in another order: distance 0
        matrix = motion.set_distances(sets)
        for i in range(5):
            for j in range(5):
                assert matrix[i, j] == motion.set_distance(sets[i], sets[j])


def test_visible_and_votes_equal_their_pairwise_definitions():
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(60):
        truth = _random_scene(rng)
        others = [_random_scene(rng, truth.shapes) for _ in range(3)]
        # share poses among options so that votes can tie or single one out
        for k, other in enumerate(others):
            key = "AB"[k % 2]
            if rng.random() < 0.6:
                other[key] = truth[key]
        foils = [("x", {}, o) for o in others]
        scenes = [truth, *others]
        visible = all(max(motion.set_distance(a[k], b[k]) for k in "AB") >= dsc.VISIBLE
                      for a, b in combinations(scenes, 2))
        votes = [sum(motion.set_distance(one[k], other[k]) < 1e-9 for k in "AB" for other in scenes)
                 for one in scenes]
        assert dsc._visible(truth, foils) == visible
        assert dsc._votes_for(scenes) == (votes[0] == max(votes) and votes.count(votes[0]) == 1)
        checked += dsc._votes_for(scenes)
    assert checked  # the truth was singled out at least once


def test_distinct_outlines_equal_the_one_by_one_definition():
    rng = np.random.default_rng(7)
    for _ in range(40):
        base = rng.normal(size=(int(rng.integers(3, 7)), 2))
        outlines = [base + rng.normal(scale=float(rng.choice([0.0005, 0.002, 0.02])), size=base.shape)
                    for _ in range(int(rng.integers(1, 30)))]
        plain: list[np.ndarray] = []
        for outline in outlines:
            if all(verifier.hausdorff(outline, other) > verifier.MATCH / 4 for other in plain):
                plain.append(outline)
        fast = verifier._distinct(outlines)
        assert len(fast) == len(plain) and all(a is b for a, b in zip(fast, plain, strict=True))
        many = np.stack(outlines)
        assert list(verifier._hausdorff_to(outlines[0], many)) == [verifier.hausdorff(outlines[0], q)
                                                                   for q in outlines]
    assert verifier._distinct([]) == []


@pytest.mark.parametrize("reach", [0.0, 1.5, 3.2, 4.7])
def test_grown_on_the_box_equals_the_whole_grid(reach):
    """The verifier's pixel checks grow the outlines' samples with ``line_raster.grown`` (on their box): the
    whole-grid ``dilate`` of their marks, for one outline and for both outlines' samples together (the union of
    the two marks it used to grow)."""
    rng = np.random.default_rng(int(reach * 10))
    side = 60
    for _ in range(20):
        fine = []
        for _ in range(2):
            points = rng.uniform(-8, side + 8, size=(int(rng.integers(2, 6)), 2))  # some run off the grid
            segments = line_raster.polyline_segments(points, closed=True)
            fine.append(line_raster.samples(segments, step=0.7)[0])
            expected = line_raster.dilate(line_raster.mark(fine[-1], side), reach)
            assert np.array_equal(line_raster.grown(fine[-1], side, reach), expected)
        both = line_raster.mark(fine[0], side) | line_raster.mark(fine[1], side)
        assert np.array_equal(line_raster.grown(np.concatenate(fine), side, reach), line_raster.dilate(both, reach))
    assert not line_raster.grown(np.zeros((0, 2)), side, reach).any()


def test_shared_slip_scenes_equal_scenes_made_afresh():
    rng = np.random.default_rng(11)
    shapes = {"A": "square", "B": "triangle"}
    motions = {"A": motion.make_motion("spin_drift", "square", 1.0, rng),
               "B": motion.make_motion("grow", "triangle", 1.0, rng)}
    base = {"A": np.array([-0.4, 0.0, 0.3, np.log(0.25), np.log(0.25), 0.0]),
            "B": np.array([0.4, 0.1, 0.2, np.log(0.17), np.log(0.17), 0.0])}
    slips = {key: {"behind": list(dsc.BEHIND), "ahead": list(dsc.AHEAD)} for key in "AB"}
    truth = {key: base[key] + motions[key].delta(1.0) for key in "AB"}
    groups = dsc.DynamicCorrespondence._slip_sets(shapes, base, motions, slips)
    seen = 0
    for sets in groups:
        assert len(sets) == 4
        for foils in sets:
            for _, latent, scene in foils[:2]:
                key = latent["shape"]
                other = "B" if key == "A" else "A"
                fresh = dsc._scene(shapes, {key: base[key] + dsc._slip(motions[key], latent.get("t")),
                                            other: truth[other]})
                assert all(np.array_equal(scene[k], fresh[k]) and np.array_equal(scene.exact[k], fresh.exact[k])
                           and np.array_equal(scene.poses[k], fresh.poses[k]) for k in "AB")
                seen += 1
    assert seen == 16


def test_features_are_those_of_the_drawn_panel():
    rng = np.random.default_rng(13)
    scene = _random_scene(rng)
    measured = option_features(scene.image(218))
    assert scene.features(218) == [measured[name] for name in dsc.FEATURES]


def test_panels_cut_one_at_a_time_give_the_same_verdicts():
    rng = np.random.default_rng(17)
    side = 218
    scenes = [_random_scene(rng) for _ in range(2)]
    canvas = Image.new("RGB", (2 * side + 30, side + 20), (255, 255, 255))
    boxes = [[10, 10, 10 + side, 10 + side], [20 + side, 10, 20 + 2 * side, 10 + side]]
    for scene, box in zip(scenes, boxes, strict=True):
        canvas.paste(scene.image(side), box[:2])
    record = {"tile": side, "query_boxes": boxes[:1], "option_boxes": boxes[1:],
              "query": [scenes[0].describe(side)], "options": [scenes[1].describe(side)]}
    pixels = np.asarray(canvas)
    plain = [f for k, (box, d) in enumerate(zip(boxes, [*record["query"], *record["options"]], strict=True))
             for f in verifier.panel_pixel_failures(pixels[box[1]:box[3], box[0]:box[2]], d,
                                                    ("query 1", "option A")[k])]
    assert verifier.pixel_failures(record, canvas) == plain
    # a panel drawn one slot off is caught the same way
    record["option_boxes"] = [[box[0] - 6, box[1], box[2] - 6, box[3]] for box in boxes[1:]]
    assert verifier.pixel_failures(record, canvas)
    # a box off the canvas is not a tile
    record["option_boxes"] = [[2 * side, 10, 3 * side, 10 + side]]
    assert verifier.pixel_failures(record, canvas) == [f"option A: box is not a {side} px tile"]
