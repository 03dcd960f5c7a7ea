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
from bench_plugin_sphinx.kit import channels, complexity, sequences
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


def test_each_angle_modulo_90_is_turned_once_per_item(monkeypatch):
    """Options repeat the panels' angles, and angles a multiple of 90 apart share their bicubic turn: the motif's
    two full-size planes (colour and black, one two-band image) are turned once per angle modulo 90 that the
    picture shows (not a multiple of 90).  A motif refused for options too alike had its options turned, each
    angle once too; the kept motif's turns are the last."""
    turns: list[list[float]] = []
    rotate, planes = Image.Image.rotate, sr.stacked_planes

    def counted(image, degrees, *args, **kwargs):
        if image.mode == "La":
            turns[-1].append(degrees)
        return rotate(image, degrees, *args, **kwargs)

    def drawn(*args, **kwargs):
        turns.append([])  # a motif's planes drawn: its turns follow
        return planes(*args, **kwargs)

    monkeypatch.setattr(Image.Image, "rotate", counted)
    monkeypatch.setattr(sr, "stacked_planes", drawn)
    for index in range(6):
        turns.clear()
        scene = build(TASK, index=index, seed=4).item.metadata["scene"]
        shown = {a for k, a in enumerate(scene["panel_angles"]) if k != scene["mask"]} | set(scene["option_angles"])
        assert all(len(set(own)) == len(own) for own in turns), index
        assert sorted(turns[-1]) == sorted({a % 90 for a in shown} - {0}), index


def test_the_picture_is_the_one_its_scene_draws():
    """``generate`` keeps the turns it tested the options on: the picture must be ``compose(scene)``, which
    draws the motif and every turn anew from the record."""
    from bench_core import ItemRandom

    for i in range(6):
        problem = sr.TASK.generate(TASK.resolve_params({}), ItemRandom(TASK.id, TASK.version, 11, i))
        drawn = sr.compose(problem.metadata["scene"])
        assert np.array_equal(np.asarray(problem.structure), np.asarray(drawn)), i
        assert problem.structure.getpalette() == drawn.getpalette(), i


def _direct_turn(tile: np.ndarray, degrees: float) -> np.ndarray:
    """The bicubic turn by the whole angle (the definition ``sequences.turned`` stands for)."""
    white = 255 if tile.ndim == 2 else (255, 255, 255)
    return np.asarray(Image.fromarray(tile).rotate(degrees, resample=Image.Resampling.BICUBIC, fillcolor=white))


def test_the_windowed_turn_is_pils_turn_of_the_whole_tile():
    """``sequences.bicubic_turn`` turns only the centred window around the ink, and two planes as one two-band
    image: the result must be PIL's bicubic turn of the whole tile, plane by plane, exactly (motifs of every family
    as RGB tiles, the probe's grey plane and the stacked colour and black planes, at odd angles and the steps';
    a tile inked to its edge and a blank one)."""
    from bench_plugin_sphinx.descriptions.sequence_rotation import ROTATION_FAMILIES

    rng = np.random.default_rng(5)
    edge = np.full((40, 40), 255, np.uint8)
    edge[0, 5], edge[20, 39] = 0, 100
    tiles = [edge, np.full((30, 30), 255, np.uint8)]
    for family in ROTATION_FAMILIES:
        spec = sequences.sample_motif(family, rng, "asym", "test")
        probe = channels.darkest(sequences.render_motif(spec, sr.PROBE))
        tiles += [sequences.render_motif(spec, sequences.CONTENT), probe, sr.stacked_planes(spec, sequences.CONTENT)]
    for tile in tiles:
        for degrees in [30.0, 45.0, 60.0, *(float(a) for a in rng.uniform(0, 90, 2))]:
            mine = sequences.bicubic_turn(tile, degrees)
            planes = [tile] if tile.ndim == 2 or tile.shape[2] == 3 else [tile[..., 0], tile[..., 1]]
            direct = [_direct_turn(np.ascontiguousarray(plane), degrees) for plane in planes]
            assert np.array_equal(mine, direct[0] if len(direct) == 1 else np.stack(direct, axis=2)), degrees


@pytest.mark.parametrize("side", [sequences.CONTENT, sr.PROBE])
def test_a_turn_is_the_direct_bicubic_turn_but_for_rounding(side):
    """``sequences.turned`` turns by the angle modulo 90 and then by exact quarter turns; a quarter turn maps
    the square tile's pixel centres onto one another, so the result is the direct bicubic turn up to rounding:
    no channel off by more than 1, on at most 0.2 % of the pixels (RGB tiles and the probe's grey plane)."""
    from bench_plugin_sphinx.descriptions.sequence_rotation import ROTATION_FAMILIES

    rng = np.random.default_rng(21)
    for family in ROTATION_FAMILIES:
        tile = sequences.render_motif(sequences.sample_motif(family, rng, "asym", "test"), side)
        plane = tile.min(axis=2)
        kept, kept_plane = {}, {}
        for degrees in [float(a) for a in rng.integers(0, 360, 6)] + [90.0, 135.0, 225.0, 315.0, 330.0]:
            for image, store in ((tile, kept), (plane, kept_plane)):
                mine, direct = sequences.turned(image, degrees, store), _direct_turn(image, degrees)
                gap = np.abs(mine.astype(int) - direct)
                assert gap.max() <= 1 and (gap > 0).mean() <= 0.002, (family, degrees, side)
                assert np.array_equal(mine, sequences.turned(image, degrees)), "kept turns must not change a turn"


def test_mismatches_of_all_turns_at_once_are_each_turns_mismatch():
    """``_mismatches`` (contiguous blocks of a doubled signature) equals ``mismatch(turned(a, s), b)`` shift by
    shift, up to float32 summation order."""
    rng = np.random.default_rng(6)
    a, b = (rng.random((read.RINGS, read.BINS)).astype(np.float32) for _ in range(2))
    shifts = np.array([0, 1, 7, 90, 179, 180, 181, 359])
    direct = [read.mismatch(read.turned(a, s), b) for s in shifts]
    assert np.allclose(read._mismatches(a, b, shifts), direct, rtol=1e-5, atol=0)
    assert read._mismatches(a * 0, b * 0, shifts).tolist() == [0.0] * len(shifts)


def test_option_separation_is_the_pairwise_test():
    """``_separated`` (each option's ink read once, ``compare.all_distinct``) gives the verdict of the pairwise
    ``sequences.ink_change`` and ``compare.distinct`` tests, on separated options and on near copies."""
    from bench_plugin_sphinx.kit import compare

    rng = np.random.default_rng(5)
    verdicts = []
    for family in ("arrow", "glyph", "icons", "polyomino"):
        base = sequences.render_motif(sequences.sample_motif(family, rng, "asym", "test"), sequences.CONTENT)
        for angles in ([0, 90, 180, 270], [10, 40, 70, 100], [0, 3, 90, 180], [20, 20, 110, 200]):
            options = [sequences.turned(base, float(a)) for a in angles]
            pairwise = all(sequences.ink_change(options[a], options[b]) >= sr.SEPARATION
                           and compare.distinct(options[a], options[b]) for a, b in itertools.combinations(range(4), 2))
            verdicts.append(pairwise)
            assert sr._separated(options) == pairwise, (family, angles)
    assert any(verdicts) and not all(verdicts)


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


def _rgb(scene):
    """The picture of ``scene`` as an RGB array (to plant faults in)."""
    return np.array(sr.compose(scene).convert("RGB"))


def _with_options(scene, angles):
    return _rgb({**scene, "option_angles": angles})


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
    reject(_rgb({**scene, "panel_angles": panels}))
    picture = _rgb(scene)
    left, top, right, bottom = scene["panel_boxes"][scene["mask"]]
    picture[top + 40: bottom - 40, left + 40: right - 40] = 0  # the blank panel not blank
    reject(picture)
    picture = _rgb(scene)
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


def test_painted_planes_are_the_motif_tile_up_to_their_steps():
    """Tiles are the motif's colour and black planes, mixed and painted (``sr.tile_mixes``, ``sr.painted``): for
    every family, in every palette colour, that must be the RGB tile ``render_motif`` draws, no channel off by
    more than the rounding of both shares to ``COVERAGE_LEVELS`` steps allows (2 x 255 / 30 + 2), white staying
    white, and the motif's colour and black exact where the tile shows them."""
    from bench_plugin_sphinx.descriptions.sequence_rotation import ROTATION_FAMILIES
    from bench_plugin_sphinx.kit.palette import PALETTE, rgb

    rng = np.random.default_rng(12)
    for family in ROTATION_FAMILIES:
        for colour in PALETTE:
            spec = sequences.sample_motif(family, rng, "asym", "test", colour)
            tile = sequences.render_motif(spec, sequences.CONTENT)
            mine = sr.painted(sr.tile_mixes(*sr.motif_planes(spec, sequences.CONTENT)), colour)
            assert np.abs(mine.astype(int) - tile).max() <= 19, (family, colour)
            for exact in ((255, 255, 255), rgb(PALETTE[colour]), (0, 0, 0)):
                assert (mine[(tile == exact).all(axis=2)] == exact).all(), (family, colour, exact)


def test_pictures_are_the_palette_pngs_of_their_rgb_pictures():
    """Pictures are drawn straight into a palette image (``sr.picture``): its PNG must be byte for byte the one the
    core writes for the same picture in RGB (its palette the colours shown, ascending, nothing else), and every
    picture keeps under 256 colours."""
    from bench_core import encode_png

    for built in build_run(TASK, 8, seed=9):
        image = built.images[0]
        assert image.mode == "P", built.item.id
        assert encode_png(image) == encode_png(image.convert("RGB")) == built.pngs[0], built.item.id
