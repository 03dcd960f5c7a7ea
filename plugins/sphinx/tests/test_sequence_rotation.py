"""sphinx/sequence-rotation: the turn convention, balanced options, the verifier's own measurements, planted
rendering faults."""

from __future__ import annotations

import collections
import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from bench_plugin_sphinx import sequence_rotation as sr
from bench_plugin_sphinx import sequence_words as words
from bench_plugin_sphinx.kit import complexity, sequences
from bench_plugin_sphinx.verifiers import sequences as read
from PIL import Image
from sphinx_helpers import HOST, build, build_run, task_of

from bench_core import ConformanceSuite, ParameterError, assert_rejected, plan, score

TASK = task_of("sequence_rotation")


class TestConformance(ConformanceSuite):
    family = "sphinx"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return HOST

    def pytest_generate_tests(self, metafunc):
        if "task" in metafunc.fixturenames:
            metafunc.parametrize("task", [TASK], ids=[TASK.id])


def test_turned_is_counterclockwise_on_screen():
    tile = np.full((41, 41, 3), 255, np.uint8)
    tile[20, 30:40] = 0  # ink to the right of the centre
    quarter = sequences.turned(tile, 90)
    assert quarter[0:10, 20].min() == 0 and quarter[20, 30:40].min() == 255  # now above the centre
    sig = read.signature(np.asarray(Image.fromarray(np.full((101, 101, 3), 255, np.uint8))))
    assert sig.sum() == 0


def test_turn_symmetry_probe_reads_the_turned_tiles_ink():
    """The probe turns only the darkest channel; its verdict must be the one the turned RGB tiles give
    (``sequences.ink_change`` of the tile and each turn), symmetric motifs included."""
    from bench_plugin_sphinx.descriptions.sequence_rotation import ROTATION_FAMILIES

    def by_tiles(spec):
        small = sequences.render_motif(spec, sr.PROBE)
        return any(sequences.ink_change(small, sequences.turned(small, a)) < sr.SELF_CHANGE for a in range(20, 341, 10))

    rng = np.random.default_rng(8)
    verdicts = []
    for family in ROTATION_FAMILIES:
        for mode in ("asym", "sym"):
            spec = sequences.sample_motif(family, rng, mode, "test")
            verdicts.append(sr._turn_symmetric(spec))
            assert verdicts[-1] == by_tiles(spec), (family, mode)
    assert any(verdicts) and not all(verdicts)


def test_each_angle_is_turned_once_per_item(monkeypatch):
    """Options repeat the panels' angles: every distinct angle of the full-size tile is turned once."""
    angles = []
    turned = sequences.turned
    monkeypatch.setattr(sequences, "turned", lambda tile, a: angles.append(a) or turned(tile, a))
    for index in range(6):
        angles.clear()
        scene = build(TASK, index=index, seed=4).item.metadata["scene"]
        shown = {a for k, a in enumerate(scene["panel_angles"]) if k != scene["mask"]} | set(scene["option_angles"])
        assert sorted(angles) == sorted(shown), index


@pytest.mark.parametrize("turn", words.TURNS)
def test_the_stated_direction_is_the_measured_one(turn):
    for built in build_run(TASK, 8, {"direction": turn, "step": 45}, seed=4):
        scene = built.item.metadata["scene"]
        assert scene["signed_step"] == (45 if turn == "counterclockwise" else -45)
        pixels = np.asarray(built.images[0].convert("RGB"))
        visible = [k for k in range(4) if k != scene["mask"]]
        a, b = next((a, b) for a, b in itertools.pairwise(visible) if b == a + 1)
        sig = [read.signature(read.content(pixels, scene["panel_boxes"][k], scene["border"])) for k in (a, b)]
        measured = read.turn_between(*sig)[0]
        assert abs(measured - scene["signed_step"]) <= 2
        stated = re.search(r"(\d+)° (counterclockwise|clockwise)", built.item.question)
        assert stated is None or stated.group(0) == f"45° {turn}"


def test_options_are_balanced_and_the_answer_is_not_the_middle_turn():
    items = build_run(TASK, 24, seed=3)
    assert collections.Counter(b.item.answer for b in items) == {letter: 6 for letter in "ABCD"}
    assert collections.Counter(b.item.metadata["scene"]["chain_place"] for b in items) == {k: 6 for k in range(4)}
    assert collections.Counter(b.item.metadata["step"] for b in items) == {s: 6 for s in words.STEPS}
    regimes = {(b.item.metadata["step"], b.item.metadata["direction"]) for b in items[:8]}
    assert len(regimes) == 8
    for built in items[:4]:
        letter = built.item.answer.lower()
        assert built.item.metadata["paper_answer"] == f"({letter})"
        for response in (f"({letter})", letter, f"\\boxed{{({letter})}}"):
            assert score(built.item, response, host=HOST).value == 1.0


def _with_options(scene, angles):
    return sr.compose({**scene, "option_angles": angles})


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"step": 60}, seed=5)
    scene = dict(built.item.metadata["scene"])
    slot = "ABCD".index(built.item.answer)

    def reject(picture):
        assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "planted rendering fault")

    wrong = list(scene["option_angles"])
    wrong[slot] = (wrong[slot] + 2 * scene["signed_step"] + 180) % 360  # the answer drawn at another turn
    reject(_with_options(scene, wrong))
    mirrored = list(scene["option_angles"])
    mirrored[slot] = (mirrored[slot] - 2 * scene["signed_step"]) % 360  # turned the wrong way
    reject(_with_options(scene, mirrored))
    panels = list(scene["panel_angles"])
    k = next(k for k in range(4) if k != scene["mask"])
    panels[k] = (panels[k] + 30) % 360  # one visible panel off the constant step
    reject(sr.compose({**scene, "panel_angles": panels}))
    picture = sr.compose(scene).copy()
    left, top, right, bottom = scene["panel_boxes"][scene["mask"]]
    picture[top + 40: bottom - 40, left + 40: right - 40] = 0  # the blank panel not blank
    reject(picture)
    picture = sr.compose(scene).copy()
    box = scene["option_boxes"][(slot + 1) % 4]
    answer_box = scene["option_boxes"][slot]
    picture[box[1]:box[3], box[0]:box[2]] = picture[answer_box[1]:answer_box[3], answer_box[0]:answer_box[2]]
    reject(picture)  # a wrong option drawn as a copy of the answer


def test_a_question_stating_the_other_direction_is_rejected():
    for built in build_run(TASK, 6, {"step": 45}, seed=8):
        if built.item.metadata["scene"]["explicit"]:
            scene = built.item.metadata["scene"]
            other = "clockwise" if scene["turn"] == "counterclockwise" else "counterclockwise"
            question = built.item.question.replace(f"45° {scene['turn']}", f"45° {other}")
            import attrs

            item = attrs.evolve(built.item, question=question)
            assert_rejected(HOST, TASK, item, built.images, "stated direction flipped")
            return
    pytest.fail("no explicit stem in six items")


def test_step_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="step or difficulty"):
        job = plan(TASK, {"step": 30, "difficulty": 0.5}, 0, 1)[0]
        sr.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 4, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (built.item.metadata["step"] == 30) is hard
