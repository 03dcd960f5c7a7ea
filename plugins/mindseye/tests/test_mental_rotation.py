"""Mental Transformation (MT): polycube geometry, every distractor template really wrong, the independent solver,
difficulty knobs, and the core's conformance suite over the task."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from bench_core import hookimpl
from bench_core.conformance import ConformanceSuite
from bench_core.host import create_host
from bench_plugin_mindseye import mental_rotation as mt
from bench_plugin_mindseye.descriptions.mental_rotation import TASK


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-mental-rotation", _Plugin())])


class TestConformance(ConformanceSuite):
    family = "mindseye"

    def bench_host(self):
        return _HOST


SEEDS = range(12)


@functools.cache
def _stimulus(seed: int, difficulty: str, **params):
    settings = {"size": "600x800", **params}
    return mt.TASK.build(np.random.default_rng(seed), difficulty, settings)


def _by_template(stimulus):
    return {o.template: o for o in stimulus.options}


def _geometry(view: mt.PolycubeView):
    return mt.canonical(mt.lattice_coordinates(view.centres()))


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


def test_lattice_recovery_sees_through_any_rotation_but_not_a_reflection():
    rng = np.random.default_rng(2)
    chain = mt.MentalRotation()._chain(rng, 9, 4)
    colours = [(k, 0, 0) for k in range(9)]
    key = mt.canonical(chain, colours)
    for angles in ("right", "oblique"):
        for axes in (1, 2, 3):
            matrix, _ = mt.random_pose(rng, axes, angles)
            assert mt.displayed_shape_key(mt.PolycubeView(chain, colours, matrix)) == key
            assert mt.displayed_shape_key(mt.PolycubeView(chain @ mt.MIRROR.T, colours, matrix)) != key


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
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_solver_picks_exactly_the_rotation_and_every_foil_is_wrong(difficulty):
    for seed in SEEDS:
        stimulus = _stimulus(seed, difficulty)
        options = list(stimulus.options)
        assert mt.TASK.solve(stimulus, options) == [k for k, o in enumerate(options) if o.role == "correct"]
        keys = [mt.displayed_shape_key(o.content) for o in options]
        assert len(set(keys)) == 4  # pairwise non-congruent, colours included


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_each_template_is_the_error_it_names(difficulty):
    for seed in SEEDS:
        stimulus = _stimulus(seed, difficulty)
        original = stimulus.query[0]
        shape = _geometry(original)
        mirrored = mt.canonical(mt.lattice_coordinates(original.centres()) @ mt.MIRROR.T)
        options = _by_template(stimulus)
        assert shape != mirrored  # chiral: the mirror can never be a rotation
        assert _geometry(options["rotation"].content) == shape
        assert _geometry(options["mirror"].content) == mirrored
        assert options["mirror"].content.colours == original.colours  # same colour order, reflected geometry
        if "off_by_theta" in options:
            twisted = options["off_by_theta"].content
            assert _geometry(twisted) not in (shape, mirrored)
            # one end arm turned: all but the cubes of that arm stay where they were along the chain
            moved = (twisted.voxels - twisted.voxels[0] != original.voxels - original.voxels[0]).any(axis=1)
            moved_back = (twisted.voxels - twisted.voxels[-1] != original.voxels - original.voxels[-1]).any(axis=1)
            assert moved.sum() < len(moved) - 1 or moved_back.sum() < len(moved) - 1
        if "similar_shape" in options:
            other = options["similar_shape"].content
            assert len(other.voxels) == len(original.voxels)
            assert _geometry(other) not in (shape, mirrored)
            assert other.colours == original.colours
        if "colour_permuted" in options:
            permuted = options["colour_permuted"].content
            assert _geometry(permuted) == shape  # the right geometry ...
            assert mt.displayed_shape_key(permuted) != mt.displayed_shape_key(original)  # ... wrongly coloured
            assert sorted(map(str, permuted.colours)) == sorted(map(str, original.colours))
            assert sum(a != b for a, b in zip(permuted.colours, original.colours, strict=True)) == 2
            assert "mirror" in options  # paired, so colour order alone cannot pick either


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
        assert "colour_permuted" not in _by_template(easy) and "colour_permuted" in _by_template(hard)


def test_explicit_knobs_override_the_difficulty_defaults():
    stimulus = _stimulus(5, "easy", cubes=10, colouring="varied", axes=2, angles="oblique")
    assert stimulus.facts["cubes"] == 10 and all(len(o.content.voxels) == 10 for o in stimulus.options)
    assert all(len(o.latent["pose"]) == 2 for o in stimulus.options)
    assert "colour_permuted" in _by_template(stimulus)
    mono = _stimulus(5, "hard", colouring="mono")
    assert set(_by_template(mono)) == {"rotation", "mirror", "off_by_theta", "similar_shape"}


def test_the_mirror_is_usually_the_designated_confound():
    levels = ("easy", "medium", "hard")
    roles = [o.template for seed in range(30) for o in _stimulus(100 + seed, levels[seed % 3]).options
             if o.role == "confound"]
    assert 0.5 <= roles.count("mirror") / len(roles) <= 0.95
    assert set(roles) <= {"mirror", "off_by_theta", "colour_permuted"}


def test_items_are_the_same_at_both_sizes_when_the_audit_allows():
    same = sum(
        mt.TASK.build(np.random.default_rng(s), "medium", {"size": "600x800"}).facts["original_voxels"]
        == mt.TASK.build(np.random.default_rng(s), "medium", {"size": "1024x1024"}).facts["original_voxels"]
        for s in range(6)
    )
    assert same >= 5
