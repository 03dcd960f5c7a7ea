"""Mental Transformation (MT): polycube geometry, every distractor template really wrong, the artefact verifier
and the faults it must catch, difficulty knobs, and the core's conformance suite over the task."""

from __future__ import annotations

import copy
import functools
import math
from collections import Counter
from pathlib import Path

import attrs
import numpy as np
import pytest

from bench_core import (
    ConformanceSuite,
    assert_rejected,
    build_item,
    create_host,
    decode_png,
    hookimpl,
    plan,
    verify_item,
)
from bench_plugin_mindseye import mental_rotation as mt
from bench_plugin_mindseye import raster3d
from bench_plugin_mindseye.descriptions.mental_rotation import TASK
from bench_plugin_mindseye.layout import Layout
from bench_plugin_mindseye.verifiers import mental_rotation as verifier


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-mental-rotation", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return _HOST


SEEDS = range(12)
SIDE = mt.TASK.layout("600x800").tile


@functools.cache
def _stimulus(seed: int, difficulty: str, **params):
    settings = {"size": "600x800", **params}
    return mt.TASK.build(np.random.default_rng(seed), difficulty, settings)


def _by_template(stimulus):
    return {o.template: o for o in stimulus.options}


def _geometry(view: mt.PolycubeView):
    return mt.canonical(view.voxels)


def _scene(stimulus, options):
    """The scene record's panel descriptions of a stimulus with ``options`` in display order."""
    return {"query": [mt.TASK.describe(stimulus.query[0], SIDE)],
            "options": [mt.TASK.describe(o.content, SIDE) for o in options]}


# -- geometry ------------------------------------------------------------------------------------------
def test_rotation_group_has_24_distinct_proper_rotations():
    assert len(mt.ROTATIONS) == 24
    assert len({m.tobytes() for m in mt.ROTATIONS}) == 24
    assert all(round(np.linalg.det(m)) == 1 for m in mt.ROTATIONS)


def test_canonical_form_is_invariant_under_rotation_and_translation_but_not_reflection():
    rng = np.random.default_rng(0)
    chain = mt.MentalRotation()._chain(rng, 8, 3)
    key = mt.canonical(chain)
    for m in mt.ROTATIONS:
        assert mt.canonical(chain @ m.T + [3, -2, 5]) == key
    assert mt.canonical(chain @ mt.MIRROR.T) != key  # _chain only returns chiral shapes
    colours = [str(k % 3) for k in range(8)]
    assert mt.canonical(chain, colours) != mt.canonical(chain, colours[::-1])


def test_self_symmetries_count_the_rotations_that_keep_a_shape_and_its_colours():
    rod = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    assert mt.self_symmetries(np.zeros((1, 3), dtype=int)) == 24
    assert mt.self_symmetries(rod + np.array([4, -1, 2])) == 8  # the rod's axis kept or reversed, turned about it
    assert mt.self_symmetries(rod, ["red", "blue", "red"]) == 8
    assert mt.self_symmetries(rod, ["red", "blue", "green"]) == 4  # its ends told apart: only turns about it
    square = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])
    assert mt.self_symmetries(square) == 8 and mt.self_symmetries(square, ["a", "b", "b", "a"]) == 4


def test_visibility_fills_all_faces_at_once_exactly_as_the_z_buffer_face_by_face():
    """``every_cube_visible`` counts pixels with ``_zbuffer_at_once``: the same face index on every pixel as
    the renderer's face-by-face z-buffer, ties between faces included."""
    rng = np.random.default_rng(4)
    task = mt.MentalRotation()
    for k in range(40):
        chain = task._chain(rng, *((6, 3), (8, 3), (8, 4), (10, 4))[k % 4])
        mesh = raster3d.polycube_mesh(chain, [mt.WHITE] * len(chain), mt.random_pose(rng, 3, "oblique")[0])
        for side in (72, 150):
            scale = raster3d.shared_scale([mesh], side)
            seen = raster3d._screen(mesh, side, scale, raster3d.CAMERA)
            face_by_face = raster3d._zbuffer(mesh, seen, scale, (0, side, 0, side))
            assert np.array_equal(raster3d._zbuffer_at_once(mesh, side, scale, raster3d.CAMERA), face_by_face)


def test_chains_are_self_avoiding_non_planar_open_and_without_self_symmetry():
    rng = np.random.default_rng(1)
    task = mt.MentalRotation()
    for cubes, arms in ((6, 3), (8, 3), (8, 4), (10, 4)):
        for _ in range(10):
            chain = task._chain(rng, cubes, arms)
            assert len(chain) == cubes == len({tuple(c) for c in chain.tolist()})
            assert (np.abs(np.diff(chain, axis=0)).sum(axis=1) == 1).all()  # a face-connected path
            assert (np.ptp(chain, axis=0) > 0).all()  # spans all three axes
            assert len(mt.joints(chain)) == arms - 1
            assert not mt.touches_itself(chain)
            assert mt.self_symmetries(chain) == 1


def test_the_verifier_generates_the_24_proper_rotations_itself():
    assert len(verifier.LATTICE_ROTATIONS) == 24
    assert {m.tobytes() for m in verifier.LATTICE_ROTATIONS} == {m.tobytes() for m in mt.ROTATIONS}


def test_the_verifier_sees_through_any_pose_and_lattice_turn_but_not_a_reflection_or_a_recolouring():
    rng = np.random.default_rng(2)
    chain = mt.MentalRotation()._chain(rng, 9, 4)
    colours = [[k * 20, 0, 0] for k in range(9)]

    def panel(voxels, matrix, paint=colours):
        return {"voxels": np.asarray(voxels).tolist(), "colours": paint, "rotation": np.round(matrix, 6).tolist()}

    original = verifier.shown_object(panel(chain, np.eye(3)))
    for angles in ("right", "oblique"):
        for axes in (1, 2, 3):
            matrix, _ = mt.random_pose(rng, axes, angles)
            turn = mt.ROTATIONS[int(rng.integers(24))]
            assert verifier.same_object(original, verifier.shown_object(panel(chain @ turn.T + 3, matrix)))
            assert not verifier.same_object(original, verifier.shown_object(panel(chain @ mt.MIRROR.T, matrix)))
            swapped = [colours[1], colours[0], *colours[2:]]
            assert not verifier.same_object(original, verifier.shown_object(panel(chain, matrix, swapped)))
    # a pose that reflects shows the mirror image; one that is not a rotation shows no polycube
    assert verifier.same_object(original, verifier.shown_object(panel(chain @ mt.MIRROR.T, mt.MIRROR)))
    assert verifier.shown_object(panel(chain, np.diag([1.0, 1.0, 1.3]))) is None


@pytest.mark.parametrize("angles", ["right", "oblique"])
@pytest.mark.parametrize("axes", [1, 2, 3])
def test_poses_use_the_requested_axes_and_angles(axes, angles):
    rng = np.random.default_rng(axes)
    for _ in range(30):
        matrix, spec = mt.random_pose(rng, axes, angles)
        assert len(spec) == axes and len({a for a, _ in spec}) == axes
        assert all(d in mt.ANGLES[angles] for _, d in spec)
        if angles == "oblique":
            assert any(d % 90 for _, d in spec)
        if axes > 1:  # never secretly a turn about one axis
            assert not (np.abs(np.diag(matrix) - 1) < 1e-9).any()
        assert np.allclose(matrix @ matrix.T, np.eye(3)) and np.linalg.det(matrix) == pytest.approx(1)


# -- items ---------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_solver_picks_exactly_the_rotation_and_every_foil_is_wrong(difficulty):
    for seed in SEEDS:
        stimulus = _stimulus(seed, difficulty)
        options = list(stimulus.options)
        scene = _scene(stimulus, options)
        assert verifier.solve_scene(scene) == [k for k, o in enumerate(options) if o.role == "correct"]
        keys = [mt.canonical(o.content.voxels, o.content.colours) for o in options]
        assert len(set(keys)) == 4  # pairwise non-congruent, colours included


def _coloured(view: mt.PolycubeView):
    return mt.canonical(view.voxels, view.colours)


def _mirrored(view: mt.PolycubeView):
    return mt.canonical(view.voxels @ mt.MIRROR.T, view.colours)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_each_template_is_the_error_it_names(difficulty):
    for seed in SEEDS:
        stimulus = _stimulus(seed, difficulty)
        original = stimulus.query[0]
        shape = _geometry(original)
        mirrored = mt.canonical(original.voxels @ mt.MIRROR.T)
        options = _by_template(stimulus)
        edit = stimulus.facts["edit"]
        assert set(options) == {"rotation", "mirror", edit, f"mirrored_{edit}"}
        assert shape != mirrored  # chiral: the mirror can never be a rotation
        assert _coloured(options["rotation"].content) == _coloured(original)
        assert _mirrored(options["mirror"].content) == _coloured(original)  # reflected, same colour order
        changed = options[edit].content
        assert _mirrored(options[f"mirrored_{edit}"].content) == _coloured(changed)  # the edit, reflected
        if edit == "off_by_theta":
            assert _geometry(changed) not in (shape, mirrored)
            # one end arm turned: all but the cubes of that arm keep their place along the chain (up to a turn)
            assert any(
                (np.abs((changed.voxels - changed.voxels[end]) @ turn.T
                        - (original.voxels - original.voxels[end])).sum(axis=1) > 0).sum() < len(changed.voxels) - 1
                for end in (0, -1) for turn in mt.ROTATIONS)
        if edit == "similar_shape":
            assert len(changed.voxels) == len(original.voxels)
            assert _geometry(changed) not in (shape, mirrored)
            assert changed.colours == original.colours
        if edit == "colour_permuted":
            assert _geometry(changed) == shape  # the right geometry ...
            assert _coloured(changed) != _coloured(original)  # ... wrongly coloured
            assert sorted(map(str, changed.colours)) == sorted(map(str, original.colours))
            assert sum(a != b for a, b in zip(changed.colours, original.colours, strict=True)) == 2


@pytest.mark.slow
def test_every_option_stands_to_the_others_as_the_answer_does():
    # issue 7's blind audit: with every foil one edit away from the answer, the answer was the option most
    # like all the others.  Now each option has exactly one mirror image among the others, and the original
    # is any of the four objects equally often.
    count = 90
    sources = Counter()
    for seed in range(count):
        stimulus = _stimulus(400 + seed, ("easy", "medium", "hard")[seed % 3])
        views = [o.content for o in stimulus.options]
        for view in views:
            assert sum(_mirrored(other) == _coloured(view) for other in views) == 1
        sources[tuple(stimulus.facts["original_is"].values())] += 1
    assert set(sources) == set(mt.WORLD)
    assert min(sources.values()) >= count / 4 - 3 * math.sqrt(count * 3 / 16)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_every_panel_is_readable(difficulty):
    for seed in SEEDS[:6]:
        stimulus = _stimulus(seed, difficulty)
        assert mt.every_cube_visible(stimulus.query[0])
        for option in stimulus.options:
            assert mt.readable_pose(option.content.matrix)
            assert mt.every_cube_visible(option.content)


def test_difficulty_knobs_follow_the_paper():
    for seed in SEEDS:
        easy, hard = _stimulus(seed, "easy"), _stimulus(seed, "hard")
        assert easy.facts["knobs"]["axes"] == 1 and hard.facts["knobs"]["axes"] == 3
        assert 6 <= easy.facts["cubes"] <= 7 and 8 <= hard.facts["cubes"] <= 10
        assert {tuple(o.content.colours) for o in easy.options} == {(mt.WHITE,) * easy.facts["cubes"]}
        assert len({c for o in hard.options for c in o.content.colours}) >= 3
        for stimulus, angles in ((easy, "right"), (hard, "oblique")):
            for option in stimulus.options:
                pose = option.latent["pose"]
                assert len(pose) == stimulus.facts["knobs"]["axes"]
                assert all(d in mt.ANGLES[angles] for _, d in pose)
        assert easy.facts["edit"] in ("off_by_theta", "similar_shape")
    hard_edits = Counter(_stimulus(seed, "hard").facts["edit"] for seed in SEEDS)
    assert hard_edits["colour_permuted"] >= 2 and set(hard_edits) <= {"colour_permuted", "off_by_theta",
                                                                        "similar_shape"}


def test_explicit_knobs_override_the_difficulty_defaults():
    stimulus = _stimulus(5, "easy", cubes=10, colouring="varied", axes=2, angles="oblique")
    assert stimulus.facts["cubes"] == 10 and all(len(o.content.voxels) == 10 for o in stimulus.options)
    assert all(len(o.latent["pose"]) == 2 for o in stimulus.options)
    assert len({c for o in stimulus.options for c in o.content.colours}) >= 3
    mono = _stimulus(5, "hard", colouring="mono")
    assert mono.facts["edit"] in ("off_by_theta", "similar_shape")
    assert {c for o in mono.options for c in o.content.colours} == {mt.WHITE}


@pytest.mark.slow
def test_the_mirror_is_usually_the_designated_confound():
    levels = ("easy", "medium", "hard")
    roles = [o.template for seed in range(30) for o in _stimulus(100 + seed, levels[seed % 3]).options
             if o.role == "confound"]
    assert 0.5 <= roles.count("mirror") / len(roles) <= 0.95
    assert set(roles) <= {"mirror", "off_by_theta", "colour_permuted", "similar_shape"}


def test_items_are_the_same_at_both_sizes_when_the_audit_allows():
    same = sum(
        mt.TASK.build(np.random.default_rng(s), "medium", {"size": "600x800"}).facts["original_voxels"]
        == mt.TASK.build(np.random.default_rng(s), "medium", {"size": "1024x1024"}).facts["original_voxels"]
        for s in range(6)
    )
    assert same >= 5


def test_the_question_says_that_cubes_keep_their_colours():
    # the colour_permuted foil is a correct rotation of the geometry: it is wrong only by a stated rule
    assert "every cube keeps its colour" in mt.TASK.texts.question


# -- the artefact verifier and planted faults ------------------------------------------------------------------
def _built(seed: int = 0, index: int = 1, **settings):
    job = plan(TASK, {"difficulty": "hard", **settings}, seed, index + 1)[index]
    return build_item(_HOST, TASK, seed, index, job.params, job.suffix)


def _redrawn(built) -> list:
    """The item's picture drawn again by the task's own render (panel caches emptied), under whatever fault a
    test has planted."""
    stimulus, shown = built.problem.structure
    for content in (*stimulus.query, *(o.content for o in shown)):
        content.cache = {}
    return list(mt.TASK.render(built.problem))


def _answer_index(built) -> int:
    return "ABCD".index(built.item.answer)


def test_the_unmutated_items_verify_from_their_pixels():
    for seed in range(3):
        built = _built(seed)
        assert not verify_item(_HOST, TASK, built.item, [decode_png(p) for p in built.pngs])
        assert not verify_item(_HOST, TASK, built.item, _redrawn(built))  # the redraw itself is faithful


def test_options_drawn_one_slot_off_are_caught(monkeypatch):
    built = _built(1)
    compose = Layout.compose

    def shifted(self, query, options, captions=None, labels=None):
        return compose(self, query, [*options[1:], options[0]], captions, labels)

    monkeypatch.setattr(Layout, "compose", shifted)
    assert_rejected(_HOST, TASK, built.item, _redrawn(built), "options drawn one slot off")


def test_a_distractor_made_correct_in_the_scene_is_caught():
    for seed in range(3):
        built = _built(seed)
        scene = copy.deepcopy(dict(built.item.metadata["scene"]))
        wrong = next(k for k in range(4) if k != _answer_index(built))
        original = scene["query"][0]
        turn = verifier.LATTICE_ROTATIONS[7]
        scene["options"][wrong]["voxels"] = (np.asarray(original["voxels"]) @ turn.T).tolist()
        scene["options"][wrong]["colours"] = original["colours"]
        item = attrs.evolve(built.item, metadata={**built.item.metadata, "scene": scene})
        failures = assert_rejected(_HOST, TASK, item, [decode_png(p) for p in built.pngs], "distractor made correct")
        assert any("scene solver finds" in f for f in failures), failures


def test_the_original_drawn_from_another_object_is_caught(monkeypatch):
    for seed in range(3):
        built = _built(seed)
        stimulus, shown = built.problem.structure
        other = next(o.content for o in shown if o.template == "mirror")
        query = stimulus.query[0]
        impostor = mt.PolycubeView(other.voxels, other.colours, query.matrix)
        impostor.relative_scale = query.relative_scale
        monkeypatch.setattr(mt.MentalRotation, "draw_query",
                            lambda self, content, side, view=impostor: self.draw_option(view, side))
        assert_rejected(_HOST, TASK, built.item, _redrawn(built), "the original drawn from the mirror object")
        monkeypatch.undo()


def test_two_cube_colours_swapped_in_the_drawing_are_caught():
    for seed in range(3):
        built = _built(seed)
        _, shown = built.problem.structure
        images = _redrawn(built)  # fills every panel's cache at the item's side
        view = shown[_answer_index(built)].content
        colours = list(view.colours)
        i = 0
        j = next(k for k in range(1, len(colours)) if np.abs(np.subtract(colours[k], colours[i])).max() > 60)
        colours[i], colours[j] = colours[j], colours[i]
        side = next(iter(view.cache))
        swapped = mt.PolycubeView(view.voxels, colours, view.matrix)
        view.cache[side] = raster3d.render(swapped.mesh(), side, view.pixel_scale(side)).image
        images = list(mt.TASK.render(built.problem))
        failures = assert_rejected(_HOST, TASK, built.item, images, "two cube colours swapped on the answer")
        assert any("recorded colour" in f for f in failures), failures


def test_every_two_cube_colours_are_told_apart_even_on_the_darkest_face():
    from bench_plugin_mindseye.verifiers.projection import FACE_TOLERANCE

    colours = [np.array(c) for c in mt.PALETTE.values()]
    closest = min(np.abs(a - b).max() for k, a in enumerate(colours) for b in colours[k + 1:])
    assert closest * raster3d.AMBIENT > 1.5 * FACE_TOLERANCE
