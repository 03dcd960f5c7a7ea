"""sphinx/mirror-identification: scenes, options, the pixel verifier and planted rendering faults."""

from __future__ import annotations

import collections

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import mirror_identification as mi
from bench_plugin_sphinx import mirror_words as words
from bench_plugin_sphinx.kit import complexity
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import assert_rejected, score

TASK = task_of("mirror_identification")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("symmetry").choices == words.CLASSES
    assert tuple(mi.CLASS_OPS) == words.CLASSES


@pytest.mark.parametrize("cls", words.CLASSES)
def test_each_class_is_read_back_from_the_pixels(cls):
    built = build(TASK, {"symmetry": cls}, seed=4)
    scene = built.item.metadata["scene"]
    assert scene["class"] == cls
    read, scores, failures = mi.verifier.symmetry_class(built.images[0], scene["border"])
    assert read == cls and not failures, scores
    assert scene["count"] % mi.ORBIT[cls] == 0
    options = list(built.item.options)
    assert words.class_of(options["ABCDEF".index(built.item.answer)]) == cls


def test_options_offer_every_class_once_and_letters_are_balanced():
    items = [b.item for b in build_run(TASK, 36, seed=1)]
    letters = collections.Counter(item.answer for item in items)
    assert letters == {letter: 6 for letter in "ABCDEF"}
    classes = collections.Counter(item.metadata["scene"]["class"] for item in items)
    assert classes == {cls: 6 for cls in words.CLASSES}
    for item in items:
        assert sorted(words.class_of(t) for t in item.options) == sorted(words.CLASSES)
        assert "(a) " in item.question and "(f) " in item.question


def test_paper_answer_form_and_every_form_scores():
    item = build(TASK, seed=2).item
    letter = item.answer.lower()
    assert item.metadata["paper_answer"] == f"({letter})"
    text = item.options["ABCDEF".index(item.answer)]
    for response in (f"({letter})", letter, item.answer, f"\\boxed{{({letter})}}", f"The answer is ({letter}).", text):
        assert score(item, response, host=HOST).value == 1.0, response


def _fault(built, change) -> list[str]:
    """Verify the item against its scene recomposed with ``change`` applied (a fault in the renderer)."""
    scene = {**built.item.metadata["scene"]}
    scene["seeds"] = [dict(s) for s in scene["seeds"]]
    picture = change(scene)
    assert not np.array_equal(picture, mi.compose(built.item.metadata["scene"])), "the fault changed nothing"
    return assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "planted rendering fault")


def test_planted_rendering_faults_are_caught():
    for cls in ("vertical", "both-axes", "main-diagonal"):
        built = build(TASK, {"symmetry": cls}, seed=6)

        def forget_the_mirror(scene):
            return mi.compose({**scene, "ops": []})

        def shift_one_mirror_copy(scene):  # the first seed's mirror copy drawn 6 px to the right
            alone = mi.compose({**scene, "seeds": scene["seeds"][:1], "ops": []})
            image = mi.probe.apply(scene["ops"][0], alone)
            out = mi.compose(scene).copy()
            out[image.min(axis=2) < 250] = 255
            shifted = np.full_like(image, 255)
            shifted[:, 6:] = image[:, :-6]
            out = np.minimum(out, shifted)
            out[:4], out[-4:], out[:, :4], out[:, -4:] = 0, 0, 0, 0
            return out

        def recolour_one_copy(scene):  # the first copy drawn in another colour, its mirror image not
            first, rest = scene["seeds"][:1], scene["seeds"][1:]
            other = "red" if scene["motif"]["colour"] != "red" else "blue"
            recoloured = mi.compose({**scene, "motif": {**scene["motif"], "colour": other}, "seeds": first, "ops": []})
            mirrored = mi.probe.apply(scene["ops"][0], mi.compose({**scene, "seeds": first, "ops": []}))
            return np.minimum(mi.compose({**scene, "seeds": rest}), np.minimum(recoloured, mirrored))

        def turn_one_copy(scene):  # the first copy (not its mirror images) drawn in another orientation
            seeds = [dict(s) for s in scene["seeds"]]
            turned = {**scene, "seeds": [{**seeds[0], "turn": mi.probe.compose(seeds[0]["turn"], "rot90")}],
                      "ops": []}
            mirrored = mi.probe.apply(scene["ops"][0], mi.compose({**scene, "seeds": seeds[:1], "ops": []}))
            return np.minimum(mi.compose({**scene, "seeds": seeds[1:]}), np.minimum(mi.compose(turned), mirrored))

        _fault(built, forget_the_mirror)
        _fault(built, shift_one_mirror_copy)
        _fault(built, recolour_one_copy)
        _fault(built, turn_one_copy)


def test_a_scene_with_two_classes_of_symmetry_is_refused():
    built = build(TASK, {"symmetry": "main-diagonal"}, seed=3)
    scene = built.item.metadata["scene"]
    both = mi.compose({**scene, "ops": ["transpose", "transverse"]})
    failures = assert_rejected(HOST, TASK, built.item, [Image.fromarray(both)], "both diagonals")
    assert any("no single option" in f or "shows" in f for f in failures), failures


def test_option_texts_swapped_are_caught():
    built = build(TASK, seed=5)
    options = list(built.item.options)
    k = "ABCDEF".index(built.item.answer)
    j = (k + 1) % 6
    options[k], options[j] = options[j], options[k]
    bad = attrs.evolve(built.item, options=tuple(options))
    assert_rejected(HOST, TASK, bad, built.images, "options swapped without the answer")


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 12, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == built.item.metadata["scene"]["count"]


def test_coloured_pixels_are_exactly_the_named_colours_but_white():
    """The verifier finds the named colours through a hashed table; it must accept exactly them (white, a hair
    off a named colour and random colours are not coloured)."""
    from bench_plugin_sphinx.verifiers.pixels import NAMED, key_of

    named = np.array([key_of(name) for name in NAMED], dtype=np.uint32)
    near = np.concatenate([named ^ np.uint32(1), named ^ np.uint32(1 << 8), named ^ np.uint32(1 << 16)])
    keys = np.concatenate([named, near, np.random.default_rng(3).integers(0, 1 << 24, 200000).astype(np.uint32)])
    expected = np.isin(keys, [key_of(name) for name in NAMED if name != "white"])
    assert np.array_equal(mi.verifier.coloured(keys), expected)
    assert expected[: len(named)].sum() == len(NAMED) - 1
