"""Dynamic Structural Correspondence: every shortcut of the generator and the verifier gives exactly what the
plain code it replaced gives (panels drawn with the axes laid only on their own pixels, reduced on the strokes'
boxes only, shapes that are apart drawn one at a time, on one canvas blanked after each drawing; features added
up from the shapes; the composite handed over as the palette image the core would make; foil sets audited
only as far as the choice needs; distances of all pairs at once, near-duplicate outlines struck in batches,
strokes grown on their box only and several at once, shared slip scenes, panels cut from the image one at a
time, poses read for every labelling at once)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from PIL import Image

from bench_core import build_item, create_host, decode_png, hookimpl, plan
from bench_plugin_mindseye import dynamic_correspondence as dsc
from bench_plugin_mindseye import motion
from bench_plugin_mindseye.base import MindsEyeTask
from bench_plugin_mindseye.descriptions.dynamic_correspondence import TASK as DESCRIPTION
from bench_plugin_mindseye.layout import SUPERSAMPLE, Tile
from bench_plugin_mindseye.nuisance import option_features
from bench_plugin_mindseye.verifiers import dynamic_correspondence as verifier
from bench_plugin_mindseye.verifiers import line_raster


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [DESCRIPTION]


_HOST = create_host(entry_points=False, plugins=[("test-dynamic-fast-paths", _Plugin())])


def _random_scene(rng: np.random.Generator, shapes: dict[str, str] | None = None) -> dsc.Scene:
    shapes = shapes or dict(zip("AB", (str(s) for s in rng.choice(list(motion.SHAPES), size=2, replace=False)),
                                strict=True))
    poses = {key: np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(0, 2 * np.pi),
                            rng.uniform(-1.6, -1.0), rng.uniform(-1.6, -1.0), rng.uniform(-0.4, 0.4)])
             for key in "AB"}
    if rng.random() < 0.3:  # a shape across the centre, where the axes run
        poses["A"][:2] = 0.0
    return dsc._scene(shapes, poses)


def _plain_panel(scene, side: int) -> np.ndarray:
    """The panel as it was drawn: both shapes through ``ImageDraw`` on a fresh supersampled tile, the whole tile
    reduced, then the axes laid where the paper is blank."""
    tile = Tile(side, SUPERSAMPLE)
    s = tile.scale
    width = tile.width(dsc.STROKE)
    a = dsc._to_px(scene["A"], s)
    tile.draw.line([*a, a[0], a[1]], fill=dsc.BLUE, width=width, joint="curve")
    b = dsc._to_px(scene["B"], s)
    dash, gap = dsc.DASH * s, dsc.GAP * s
    for (x0, y0), (x1, y1) in zip(b, b[1:] + b[:1], strict=True):
        length = float(np.hypot(x1 - x0, y1 - y0))
        count = max(2, round((length + gap) / (dash + gap)))
        piece = min(dash, (length - (count - 1) * gap) / count)
        stride = (length - piece) / (count - 1)
        for k in range(count):
            f0, f1 = k * stride / length, (k * stride + piece) / length
            tile.draw.line((x0 + f0 * (x1 - x0), y0 + f0 * (y1 - y0), x0 + f1 * (x1 - x0), y0 + f1 * (y1 - y0)),
                           fill=dsc.RED, width=width)
        r = width / 2
        tile.draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=dsc.RED)
    image = np.asarray(tile.finish())
    blank = (image == 255).all(axis=2, keepdims=True)
    return np.where(blank, dsc._axes(side, SUPERSAMPLE), image)


@pytest.mark.parametrize("side", [128, 145, 218])
def test_panels_equal_the_whole_panel_drawn_and_reduced(side):
    """Panels (shapes apart or close, near the centre and near the edge) equal the plain drawing, their features
    those of the plain drawing, and the shared canvas is blank paper after every drawing."""
    rng = np.random.default_rng(side)
    apart = 0
    for _ in range(40):
        scene = _random_scene(rng)
        if rng.random() < 0.3:  # B right next to A, or partly off the canvas
            scene = dsc._scene(scene.shapes, {"A": scene.poses["A"], "B": scene.poses["A"] + rng.uniform(-0.3, 0.3, 6)
                                              * np.array([1, 1, 1, 0.2, 0.2, 0.2])})
        plain = _plain_panel(scene, side)
        apart += dsc._layers(scene, side, SUPERSAMPLE) is not None
        assert np.array_equal(dsc._draw_panel(scene, side, SUPERSAMPLE)[0], plain)
        measured = option_features(Image.fromarray(plain))
        assert scene.features(side) == [measured[name] for name in dsc.FEATURES]
        assert np.array_equal(np.asarray(scene.image(side)), plain)
        assert dsc._canvas(side, SUPERSAMPLE).image.getextrema() == ((255, 255),) * 3
    assert 3 <= apart <= 37  # both ways of drawing were exercised


@pytest.mark.parametrize("size", ["1024x1024", "600x800"])
def test_the_composite_is_the_palette_image_of_the_plain_composite(size):
    """``render`` hands over the palette image the core makes of the base class's composite (the same PNG), and
    falls back to that composite where it shows more than 256 colours."""
    from bench_core import Problem, decode_png, encode_png, palette_indices

    checked = fallback = 0
    for index in range(14):
        job = plan(DESCRIPTION, {"size": size}, 31, index + 1)[index]
        built = build_item(_HOST, DESCRIPTION, job.seed, job.index, job.params, job.suffix, verify=False)
        problem: Problem = built.problem
        plain = MindsEyeTask.render(dsc.TASK, problem)[0]
        fast = dsc.TASK.render(problem)[0]
        palette = palette_indices(plain)
        if palette is None:
            assert fast.mode == "RGB" and fast.tobytes() == plain.tobytes()
            fallback += 1
        else:
            colours, indices = palette
            assert fast.mode == "P" and encode_png(fast) == encode_png(plain)
            assert fast.getpalette() == [v for colour in colours for v in colour]
            assert np.array_equal(np.asarray(fast), indices)
            assert np.array_equal(np.asarray(decode_png(encode_png(fast))), np.asarray(plain))
            checked += 1
    assert checked >= 10


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
        assert len(fast) == len(plain) and all(np.array_equal(a, b) for a, b in zip(fast, plain, strict=True))
        assert all(np.array_equal(a, b) for a, b in zip(verifier._distinct(np.stack(outlines)), plain, strict=True))
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


def _plain_choose(self, rng, truth, groups, side):
    """``_choose`` as it was: every set of both groups audited, then a group and a set drawn."""
    passing = [[foils for foils in sets
                if all(dsc._inside(f[2]) and dsc._apart(f[2]) for f in foils) and dsc._visible(truth, foils)
                and not dsc._votes_for([truth, *(f[2] for f in foils)])] for sets in groups]
    if not all(passing):
        return None
    kept = []
    for sets in passing:
        good, features = [], []
        for foils in sets:
            scenes = [truth, *(f[2] for f in foils)]
            values = np.array([s.features(side) for s in scenes])
            if any(dsc.singled_out(list(values[:, f]), 0, dsc._AUDIT_FACTOR,
                                   self.nuisance_floor[name] * dsc._AUDIT_FLOOR_SCALE)
                   for f, name in enumerate(dsc.FEATURES)):
                continue
            good.append(foils)
            features.append(values)
        if not good:
            return None
        kept.append((good, features))
    sets, features = kept[int(rng.integers(len(kept)))]
    logits = -dsc.shortcut_hits(np.stack(features)) @ dsc.TILT
    weights = np.exp(logits - logits.max())
    return sets[int(rng.choice(len(sets), p=weights / weights.sum()))]


def test_foil_sets_audited_as_far_as_needed_choose_as_all_audited(monkeypatch):
    """The generator audits the group it does not draw from only until one set qualifies: the same draws as
    auditing every set of both groups."""
    for seed in range(36):
        made = []
        for plain in (False, True):
            if plain:
                monkeypatch.setattr(dsc.DynamicCorrespondence, "_choose", _plain_choose)
            rng = np.random.default_rng(seed)
            stimulus = dsc.TASK._attempt(rng, ("linear", "periodic", "compound")[seed % 3], "medium")
            made.append(None if stimulus is None else
                        ([o.template for o in stimulus.options], [o.content.describe(218) for o in stimulus.options],
                         rng.random()))
        monkeypatch.undo()
        assert made[0] == made[1]


# -- the generator's solver: poses of every labelling at once ---------------------------------------------
def _plain_read_poses(shape: str, v: np.ndarray) -> np.ndarray:
    """``motion.read_poses`` as it was: a least-squares fit and a QR decomposition per labelling."""
    canon = motion.SHAPES[shape]
    v = motion._ccw(np.asarray(v, dtype=float))
    centre = v.mean(axis=0)
    poses = []
    for shift in range(len(v)):
        target = np.roll(v, shift, axis=0) - centre
        m, *_ = np.linalg.lstsq(canon, target, rcond=None)
        m = m.T
        if np.abs(canon @ m.T - target).max() > 1e-7 or np.linalg.det(m) <= 0:
            continue
        q, r = np.linalg.qr(m)
        signs = np.sign(np.diag(r))
        q, r = q * signs, (r.T * signs).T
        poses.append((centre[0], centre[1], np.arctan2(q[1, 0], q[0, 0]), np.log(r[0, 0]), np.log(r[1, 1]),
                      r[0, 1] / r[0, 0]))
    return np.array(poses)


def _plain_recognise(v: np.ndarray) -> str | None:
    v = motion._ccw(np.asarray(v, dtype=float))
    best, best_err = None, np.inf
    for name, canon in motion.SHAPES.items():
        if len(canon) != len(v):
            continue
        for shift in range(len(v)):
            target = np.roll(v, shift, axis=0)
            target = target - target.mean(axis=0)
            zc, zt = canon[:, 0] + 1j * canon[:, 1], target[:, 0] + 1j * target[:, 1]
            z = np.vdot(zc, zt) / np.vdot(zc, zc)
            err = float(np.abs(zt - z * zc).max()) / max(abs(z), 1e-12)
            if err < best_err:
                best, best_err = name, err
    return best if best_err < 1e-5 else None


def test_poses_of_all_labellings_at_once_equal_one_at_a_time():
    rng = np.random.default_rng(23)
    found = 0
    for _ in range(400):
        shape = str(rng.choice(list(motion.SHAPES)))
        pose = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(-7, 7), rng.uniform(-2, -0.5),
                         rng.uniform(-2, -0.5), rng.uniform(-0.6, 0.6) if rng.random() < 0.5 else 0.0])
        if rng.random() < 0.5:
            pose[4] = pose[3]
        v = motion.outline(shape, pose)
        if rng.random() < 0.2:
            v = np.round(v, 5)  # no exact reading
        if rng.random() < 0.2:
            v = v[::-1]
        plain, fast = _plain_read_poses(shape, v), motion.read_poses(shape, v)
        assert plain.shape == fast.shape
        if len(plain):
            found += 1
            assert np.abs(plain - fast).max() < 1e-12
        assert motion.recognise(v) == _plain_recognise(v)
    assert found > 200


# -- the verifier: readings, pixel checks and sketches -------------------------------------------------
def _plain_readings(base: np.ndarray, vertices: np.ndarray) -> list:
    centred = base - base.mean(axis=0)
    gram = np.linalg.inv(centred.T @ centred)
    out = []
    for shift in range(len(vertices)):
        target = np.roll(vertices, -shift, axis=0)
        centre = target.mean(axis=0)
        m = ((target - centre).T @ centred) @ gram
        if np.abs(centred @ m.T + centre - target).max() > verifier.AFFINE_TOLERANCE or np.linalg.det(m) <= 0:
            continue
        angle = np.arctan2(m[1, 0], m[0, 0])
        a = np.hypot(m[0, 0], m[1, 0])
        upper = verifier._rotation(-angle) @ m[:, 1]
        if upper[1] <= 0:
            continue
        out.append((shift, np.array([centre[0], centre[1], angle, np.log(a), np.log(upper[1]), upper[0] / a])))
    return out


def _plain_predict(base: np.ndarray, frames) -> list[np.ndarray]:
    """``verifier.predict`` as it was: outlines one reading at a time, travel one reading at a time."""
    readings = [_plain_readings(base, v) for v in frames]
    if any(not r for r in readings):
        return []
    positions = verifier._position_laws(np.array([r[0][1][:2] for r in readings]))
    if not positions:
        return []
    choice = np.indices([len(r) for r in readings]).reshape(4, -1).T
    series = np.stack([np.array([pose for _, pose in r])[choice[:, k]] for k, r in enumerate(readings)], axis=1)
    steps = np.remainder(np.diff(series[:, :, 2], axis=1) + np.pi, 2 * np.pi) - np.pi
    series[:, 1:, 2] = series[:, :1, 2] + np.cumsum(steps, axis=1)
    ok = np.ones(len(choice), dtype=bool)
    pose = np.zeros((len(choice), 4))
    for q, name in ((2, "angle"), (3, "log_size"), (4, "log_size"), (5, "shear")):
        fits, value = verifier._scalar_law(series[:, :, q], verifier.LAW_TOLERANCE[name])
        if name == "log_size":
            grows, size = verifier._scalar_law(np.exp(series[:, :, q]), verifier.LAW_TOLERANCE[name])
            value = np.where(fits, value, np.log(np.maximum(size, 1e-9)))
            fits |= grows & (size > 0)
        ok &= fits
        pose[:, q - 2] = value
    centred = base - base.mean(axis=0)

    def outlines_of(p):
        angle, log_a, log_c, shear = p
        a, c = np.exp(log_a), np.exp(log_c)
        m = verifier._rotation(angle) @ np.array([[a, a * shear], [0.0, c]])
        return [centred @ m.T + position for position in positions]

    def distinct(outlines):
        kept = []
        for outline in outlines:
            if all(verifier.hausdorff(outline, other) > verifier.MATCH / 4 for other in kept):
                kept.append(outline)
        return kept

    fitting = [int(n) for n in np.flatnonzero(ok)]
    outlines = distinct([o for n in fitting for o in outlines_of(pose[n])])
    if len(outlines) <= 1:
        return outlines

    def moved(n):
        labelled = [np.roll(frames[k], -readings[k][i][0], axis=0) for k, i in enumerate(choice[n])]
        return sum(float(((labelled[k + 1] - labelled[k]) ** 2).sum()) for k in range(3))

    travel = {n: moved(n) for n in fitting}
    least = min(travel.values())
    return distinct([o for n in fitting if travel[n] <= least * (1 + 1e-6) + 1e-12 for o in outlines_of(pose[n])])


def _tampered_scenes():
    """Real scene records, and copies with query frames swapped, a vertex moved, an outline read backwards or
    from another vertex (readings that fail, disagree or tie)."""
    import copy

    rng = np.random.default_rng(29)
    for index in range(24):
        job = plan(DESCRIPTION, {}, 37, index + 1)[index]
        scene = build_item(_HOST, DESCRIPTION, job.seed, job.index, job.params, job.suffix, encode=False,
                           verify=False).item.metadata["scene"]
        yield scene
        for kind in range(4):
            changed = copy.deepcopy(scene)
            shape = changed["query"][int(rng.integers(1, 4))]["shapes"]["AB"[int(rng.integers(2))]]
            if kind == 0:
                q = changed["query"]
                q[1]["shapes"], q[2]["shapes"] = q[2]["shapes"], q[1]["shapes"]
            elif kind == 1:
                shape["vertices"][0][0] += float(rng.normal(0, 0.01))
            elif kind == 2:
                shape["vertices"] = shape["vertices"][::-1]
            else:
                shape["vertices"] = shape["vertices"][1:] + shape["vertices"][:1]
            yield changed


def test_verifier_predictions_equal_one_reading_at_a_time():
    several = 0
    for scene in _tampered_scenes():
        fast = verifier.predictions(scene)
        for key in "AB":
            shapes = [frame["shapes"][key] for frame in scene["query"]]
            frames = [np.asarray(s["vertices"], dtype=float) for s in shapes]
            base = verifier.base_outline(shapes[0])
            plain = _plain_predict(base, frames)
            assert len(plain) == len(fast[key])
            assert all(np.abs(a - b).max() < 1e-12 for a, b in zip(plain, fast[key], strict=True))
            several += len(plain) != 1
    assert several > 10  # readings that fail or disagree were exercised


def _plain_panel_pixel_failures(tile, description, name):
    """``verifier.panel_pixel_failures`` as it was: the bands grown over the whole grid."""
    side = tile.shape[0]
    pen = float(description["pen"])
    failures = []
    outlines = {key: verifier._outline_px(description, key) for key in "AB"}
    fine = {key: line_raster.samples(outlines[key], step=0.7)[0] for key in "AB"}
    for key, other in (("A", "B"), ("B", "A")):
        shape = description["shapes"][key]
        points, _ = line_raster.samples(outlines[key])
        clear = ~line_raster.grown(fine[other], side, pen + 2)
        inside = np.floor(points).astype(int).clip(0, side - 1)
        points = points[clear[inside[:, 1], inside[:, 0]]]
        if len(points) < 8:
            continue
        colours = line_raster.pixel_at(tile, points)
        own = np.abs(colours - np.asarray(shape["colour"])[None, :]).max(axis=1) < verifier.COLOUR_MATCH
        blank = line_raster.darkness(colours) < verifier.CLEAR_DARKNESS - 40
        if shape["style"] == "solid" and (own.mean() < verifier.SOLID_SHOWN
                                          or int(np.count_nonzero(~own)) > verifier.SOLID_MISSES):
            failures.append(f"{name}: shape {key} is not drawn as a solid outline in {shape['colour']} where recorded "
                            f"({own.mean():.0%}, {int(np.count_nonzero(~own))} samples off it)")
        elif shape["style"] == "dashed" and (own.mean() < verifier.DASHED_SHOWN
                                             or blank.mean() < verifier.DASHED_GAPS):
            failures.append(f"{name}: shape {key} is not drawn as a dashed outline in {shape['colour']} where "
                            f"recorded ({own.mean():.0%} in colour, {blank.mean():.0%} gaps)")
    allowed = line_raster.grown(np.concatenate([fine["A"], fine["B"]]), side, pen / 2 + verifier.STRAY_REACH)
    stray = (line_raster.darkness(tile) > verifier.CLEAR_DARKNESS) & ~allowed
    b = verifier.BORDER
    stray[:b], stray[-b:], stray[:, :b], stray[:, -b:] = False, False, False, False
    if int(stray.sum()) > verifier.STRAY_ALLOWED:
        failures.append(f"{name}: {int(stray.sum())} ink pixels lie off both recorded outlines")
    return failures


def test_pixel_checks_and_sketches_equal_the_whole_grid_code():
    """On real panels and on panels with planted faults (paper or ink blotted in, the panel shifted), the
    verdicts of all panels checked together equal those of the whole-grid code one panel at a time, and the
    sketches (made together) equal ``line_raster.paint`` of each outline's ``stroke_coverage``."""
    rng = np.random.default_rng(31)
    failing = 0
    for index in range(6):
        job = plan(DESCRIPTION, {"size": ("1024x1024", "600x800")[index % 2]}, 41, index + 1)[index]
        built = build_item(_HOST, DESCRIPTION, job.seed, job.index, job.params, job.suffix)
        scene = built.item.metadata["scene"]
        image = np.asarray(decode_png(built.pngs[0]))
        side = scene["tile"]
        descriptions = [*scene["query"], *scene["options"]]
        plain_sketches = [line_raster.paint(side, [(line_raster.stroke_coverage(
            side, verifier._outline_px(d, key), float(d["pen"])), d["shapes"][key]["colour"]) for key in "AB"])
            for d in descriptions]
        assert all(np.array_equal(a, b) for a, b in zip(verifier.sketches(descriptions, side), plain_sketches,
                                                           strict=True))
        panels = []
        for k, (box, description) in enumerate(zip([*scene["query_boxes"], *scene["option_boxes"]], descriptions,
                                                   strict=True)):
            tile = image[box[1]:box[3], box[0]:box[2]].copy()
            panels.append((tile, description, f"panel {k}"))
            for _ in range(3):
                faulty = tile.copy()
                y, x = rng.integers(0, side, 2)
                r = int(rng.integers(1, 8))
                faulty[max(0, y - r):y + r, max(0, x - r):x + r] = rng.choice([255, 0, 128])
                panels.append((faulty, description, f"panel {k} blotted"))
            panels.append((np.roll(tile, int(rng.integers(-4, 5)), axis=int(rng.integers(2))), description,
                           f"panel {k} shifted"))
        plain = [_plain_panel_pixel_failures(*panel) for panel in panels]
        assert verifier.panels_pixel_failures(panels) == plain
        assert [verifier.panel_pixel_failures(*panel) for panel in panels[:5]] == plain[:5]
        failing += sum(bool(f) for f in plain)
    assert failing > 20


def test_the_shared_canvas_is_blanked_when_drawing_fails(monkeypatch):
    """A drawing that raises halfway still leaves the shared canvas blank paper for the next panel."""
    rng = np.random.default_rng(43)
    scene = _random_scene(rng)
    real = dsc._stroke

    def half(tile, key, points, width):
        real(tile, key, points, width)
        if key == "B":
            raise RuntimeError("planted")

    monkeypatch.setattr(dsc, "_stroke", half)
    for draw in (lambda: dsc._draw_panel(scene, 218, SUPERSAMPLE),
                 lambda: dsc._layer.__wrapped__("B", tuple(dsc._to_px(scene["B"], 218 * SUPERSAMPLE)), 218,
                                                SUPERSAMPLE)):
        with pytest.raises(RuntimeError, match="planted"):
            draw()
        assert dsc._canvas(218, SUPERSAMPLE).image.getextrema() == ((255, 255),) * 3
    monkeypatch.undo()
    assert np.array_equal(dsc._draw_panel(scene, 218, SUPERSAMPLE)[0], _plain_panel(scene, 218))


def test_outlines_of_all_panels_at_once_equal_one_at_a_time():
    import copy

    for scene in list(_tampered_scenes())[:10]:
        descriptions = [*scene["query"], *scene["options"]]
        for changed in (descriptions, copy.deepcopy(descriptions)):
            if changed is not descriptions:  # one outline with a vertex fewer: worked out one at a time
                changed[2]["shapes"]["B"]["vertices"] = changed[2]["shapes"]["B"]["vertices"][:-1]
            fast = verifier.outlines_px(changed)
            assert all(np.array_equal(f[key], verifier._outline_px(d, key))
                       for d, f in zip(changed, fast, strict=True) for key in "AB")


def _plain_motion_predict(shape: str, frames) -> list[np.ndarray]:
    """``motion.predict`` as it was: poses one labelling at a time, combinations listed by ``itertools.product``,
    outlines kept one by one."""
    from itertools import product

    readings = [_plain_read_poses(shape, v) for v in frames]
    if any(len(r) == 0 for r in readings):
        return []
    position = motion._fit_position(np.array([r[0, :2] for r in readings]))
    if position is None:
        return []
    combos = np.array(list(product(*[range(len(r)) for r in readings])))
    series = np.stack([readings[f][combos[:, f]] for f in range(4)], axis=1)
    angle = series[:, :, 2].copy()
    angle[:, 1:] = angle[:, :1] + np.cumsum(np.remainder(np.diff(angle, axis=1) + np.pi, 2 * np.pi) - np.pi, axis=1)
    series[:, :, 2] = angle
    ok = np.ones(len(combos), dtype=bool)
    guess = np.zeros((len(combos), 6))
    guess[:, :2] = position
    for k in range(2, 6):
        fits, value = motion._fit_scalar(series[:, :, k])
        if k in (3, 4):
            grows, size = motion._fit_scalar(np.exp(series[:, :, k]))
            value = np.where(fits, value, np.log(np.maximum(size, 1e-9)))
            fits = fits | (grows & (size > 0))
        ok &= fits
        guess[:, k] = value
    if not ok.any():
        return []
    energy = (np.diff(series[:, :, 2:], axis=1) ** 2).sum(axis=(1, 2))
    outlines: list[np.ndarray] = []
    for pose in guess[ok & (energy <= energy[ok].min() + 1e-9)]:
        candidate = motion.outline(shape, pose)
        if all(motion.set_distance(candidate, other) > 1e-6 for other in outlines):
            outlines.append(candidate)
    return outlines


def test_generator_predictions_equal_the_plain_solver():
    """The generator's own solver on the exact outlines of real draws (query frames and options, so motions that
    fit and motions that do not), with every symmetric shape: the same predicted outlines."""
    rng = np.random.default_rng(47)
    seen = 0
    for seed in range(45):
        stimulus = dsc.TASK._attempt(np.random.default_rng(seed), ("linear", "periodic", "compound")[seed % 3], "fast")
        if stimulus is None:
            continue
        for key in "AB":
            for panels in (stimulus.query, [o.content for o in stimulus.options]):
                frames = [np.asarray(p.exact[key]) for p in panels]
                if rng.random() < 0.3:
                    frames = frames[::-1]
                shape = motion.recognise(frames[0])
                if shape is None:
                    continue
                plain, fast = _plain_motion_predict(shape, frames), motion.predict(shape, frames)
                assert len(plain) == len(fast)
                assert all(np.abs(a - b).max() < 1e-12 for a, b in zip(plain, fast, strict=True))
                seen += 1
    assert seen > 60
