"""sphinx/frieze-groups: strips built from the groups' generators, every strip's group read back from its pixels,
options and letters, planted rendering faults."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from bench_plugin_sphinx import frieze_groups as fg
from bench_plugin_sphinx import frieze_words as words
from bench_plugin_sphinx.kit import complexity, groups, motifs
from bench_plugin_sphinx.verifiers import frieze as verifier
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import PNG_LEVEL, ParameterError, assert_rejected, encode_png, plan, score

TASK = task_of("frieze_groups")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("majority").choices == tuple(words.GROUPS) == TASK.parameter("odd").choices
    assert set(TASK.parameter("motif").choices) <= set(motifs.FAMILIES)
    assert set(words.GROUPS) == set(groups.FRIEZE_GROUPS) - {"p1"}
    assert {g: groups.FRIEZE_GROUPS[g].conway for g in words.GROUPS} == words.GROUPS


def _strip(built, k):
    left, top, right, bottom = built.item.metadata["scene"]["strips"][k]["box"]
    return np.asarray(built.images[0].convert("RGB"))[top:bottom, left:right]


@pytest.mark.parametrize("majority", list(words.GROUPS))
def test_every_strip_shows_its_group_on_the_pixels(majority):
    built = build(TASK, {"majority": majority}, seed=4)
    scene = built.item.metadata["scene"]
    read = [verifier.read_group(_strip(built, k), s["period"], verifier.frieze_span(s, scene["step"]))
            for k, s in enumerate(scene["strips"])]
    assert [g for g, _, _ in read] == [s["group"] for s in scene["strips"]]
    assert not any(problems for _, _, problems in read)
    assert collections.Counter(s["group"] for s in scene["strips"])[majority] == 3
    odd = "ABCD".index(built.item.answer)
    assert scene["strips"][odd]["group"] == built.item.metadata["odd"] != majority


def test_every_pair_has_a_shared_layout_and_a_tier():
    pairs = {(a, b) for a in words.GROUPS for b in fg.partners(a)}
    assert len(pairs) == 22  # 30 ordered pairs less the 8 of sidle/step against jump/spinning jump
    assert {fg.tier(a, b) for a, b in pairs} == {0, 1, 2}
    assert fg.tier("p11g", "p1m1") == fg.tier("p2mg", "p2mm") == 2 and fg.tier("p2", "p11m") == 1
    assert fg.tier("p2", "p2mg") == 0


def test_strips_share_layout_count_and_spacing_and_differ_in_motif():
    for built in build_run(TASK, 6, seed=8):
        scene = built.item.metadata["scene"]
        places = [sorted((c["x"] - s["box"][0] - s["offset"][0], c["y"] - s["box"][1] - s["offset"][1])
                         for c in s["copies"]) for s in scene["strips"]]
        assert all(p == places[0] for p in places), "copies sit at the same places in every strip (up to its offset)"
        colours = {s["motif"]["colour"] for s in scene["strips"]}
        assert len(colours) == 4


def test_letters_are_balanced_and_the_paper_form_scores():
    items = build_run(TASK, 12, seed=3)
    assert collections.Counter(b.item.answer for b in items) == {letter: 3 for letter in "ABCD"}
    assert {b.item.metadata["majority"] for b in items[:6]} == set(words.GROUPS)
    built = items[0]
    letter = built.item.answer.lower()
    assert built.item.metadata["paper_answer"] == f"({letter})"
    assert words.DEFINITION in built.item.question and "Answer with one letter (a–d)." in built.item.question
    for response in (f"({letter})", letter, built.item.answer, f"\\boxed{{({letter})}}"):
        assert score(built.item, response, host=HOST).value == 1.0


def _rendered_with(built, picture, what):
    return assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], what)


def test_planted_rendering_faults_are_caught():
    for majority in ("p11g", "p2mm", "p2"):
        built = build(TASK, {"majority": majority}, seed=5)
        scene = built.item.metadata["scene"]
        slot = "ABCD".index(built.item.answer)
        other = (slot + 1) % 4

        def strips_with(k, copies, scene=scene):
            strips = [dict(s) for s in scene["strips"]]
            strips[k] = {**strips[k], "copies": copies}
            return fg.compose({**scene, "strips": strips})

        copies = [dict(c) for c in scene["strips"][other]["copies"]]
        turned = [*copies[:2], {**copies[2], "op": "transpose"}, *copies[3:]]  # one copy drawn in a wrong orientation
        _rendered_with(built, strips_with(other, turned), "one copy turned")
        shifted = [*copies[:2], {**copies[2], "x": copies[2]["x"] + 6}, *copies[3:]]  # one copy out of place
        _rendered_with(built, strips_with(other, shifted), "one copy shifted 6 px")
        _rendered_with(built, strips_with(other, copies[:2] + copies[3:]), "one copy left out")
        _rendered_with(built, strips_with(other, copies[:-1]), "the last copy left out")
        # a dot of ink beside the frieze, in the strip but outside the span its copies claim
        start, stop = verifier.frieze_span(scene["strips"][other], scene["step"])
        left, top, right, bottom = scene["strips"][other]["box"]
        x = left + (start // 2 if start >= right - left - stop else (stop + right - left) // 2)
        dotted = fg.compose(scene).copy()
        dotted[(top + bottom) // 2 - 2: (top + bottom) // 2 + 3, x - 2: x + 3] = 0
        _rendered_with(built, dotted, "a dot of ink beside the frieze")
        # the odd strip drawn with the majority's group: four alike, no odd one
        strip = scene["strips"][slot]
        same = fg.place(majority, scene["layout"], scene["copies"], strip["box"], strip["offset"])
        _rendered_with(built, strips_with(slot, same), "the odd strip drawn with the majority group")


def test_the_verifier_tells_a_glide_from_a_mirror():
    """Spinning sidle and spinning jump differ only in whether the reflection in the axis is a glide or a mirror:
    the odd strip reads as spinning sidle, and the same strip drawn as spinning jump reads as that."""
    built = build(TASK, {"majority": "p2mm", "odd": "p2mg"}, seed=2)
    scene = built.item.metadata["scene"]
    k = "ABCD".index(built.item.answer)
    span = verifier.frieze_span(scene["strips"][k], scene["step"])
    assert verifier.read_group(_strip(built, k), scene["strips"][k]["period"], span)[0] == "p2mg"
    strips = [dict(s) for s in scene["strips"]]
    strips[k] = {**strips[k], "copies": fg.place("p2mm", scene["layout"], scene["copies"], strips[k]["box"],
                                                 strips[k]["offset"])}
    picture = fg.compose({**scene, "strips": strips})
    left, top, right, bottom = strips[k]["box"]
    group, _, problems = verifier.read_group(picture[top:bottom, left:right], strips[k]["period"],
                                             verifier.frieze_span(strips[k], scene["step"]))
    assert group == "p2mm" and not problems


def test_bad_parameter_pairs_are_refused():
    for settings, match in (({"majority": "p2", "odd": "p2"}, "majority group too"),
                            ({"majority": "p1m1", "odd": "p11m"}, "cannot share a strip layout"),
                            ({"majority": "p2", "difficulty": 0.5}, "not both")):
        with pytest.raises(ParameterError, match=match):
            job = plan(TASK, settings, 0, 1)[0]
            fg.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "tiers"), [("easy", {0, 1}), ("hard", {2})])
def test_difficulty_aliases_select_the_papers_bins(alias, tiers):
    for built in build_run(TASK, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is (alias == "hard"), record
        assert fg.tier(built.item.metadata["majority"], built.item.metadata["odd"]) in tiers


def test_label_greys_keep_the_picture_a_palette_png():
    """The frame and labels are drawn in greys that are multiples of ``GREY_STEP`` (black and white kept), so a
    picture of one-colour motifs has at most 256 colours and is written as a palette PNG."""
    built = build(TASK, {"motif": "polyomino"}, seed=3)
    scene = built.item.metadata["scene"]
    chrome = fg._chrome(tuple(scene["image_size"]), tuple(tuple(box) for box in scene["option_boxes"]))
    greys = np.unique(chrome)
    assert {0, 255} <= set(greys.tolist()) and not (greys % fg.GREY_STEP).any()
    assert len(np.unique(chrome.reshape(-1, 3), axis=0)) == len(greys)  # greys only
    assert built.images[0].getcolors(256) is not None


def test_palette_composition_writes_the_png_of_the_rgb_picture():
    """Pictures put together as palette indices (``palette_compose``) give exactly the PNG the core writes for
    ``compose``'s RGB picture; pictures that indices cannot give (over 256 colours) fall back to RGB."""
    kinds = collections.Counter()
    for built in build_run(TASK, 40, seed=9):
        scene, image = built.item.metadata["scene"], built.images[0]
        kinds[image.mode] += 1
        rgb = Image.fromarray(fg.compose(scene))
        rgb.info[PNG_LEVEL] = fg.ZLIB_LEVEL  # as render asks
        assert image.info[PNG_LEVEL] == fg.ZLIB_LEVEL and encode_png(image) == encode_png(rgb)
    assert kinds["P"] >= 30 and set(kinds) <= {"P", "RGB"}


def test_palette_composition_refuses_ink_on_ink():
    """A copy whose ink would fall on another's (``compose`` mixes them by the darker channel) is refused."""
    built = build(TASK, {"majority": "p2"}, seed=3)
    scene = built.item.metadata["scene"]
    sprites = [fg.base_sprite(strip, scene["motif_radius"]) for strip in scene["strips"]]
    assert fg.palette_compose(scene, sprites) is not None
    strips = [dict(s) for s in scene["strips"]]
    copies = [dict(c) for c in strips[0]["copies"]]
    copies[1] = {**copies[0], "x": copies[0]["x"] + 2}  # a second copy 2 px beside the first
    strips[0] = {**strips[0], "copies": copies}
    assert fg.palette_compose({**scene, "strips": strips}, sprites) is None
