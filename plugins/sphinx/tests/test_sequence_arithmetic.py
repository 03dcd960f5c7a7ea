"""sphinx/sequence-arithmetic: counts on one progression, options that do not give the answer away, speed,
the verifier's own counts, planted rendering faults."""

from __future__ import annotations

import collections
import itertools
import time

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import sequence_arithmetic as sa
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.verifiers import sequence_arithmetic as check
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ItemRandom, assert_rejected, score

TASK = task_of("sequence_arithmetic")
TestConformance = conformance_suite(TASK)


def _generate(index, settings=None, seed=5):
    return sa.TASK.generate(TASK.resolve_params(settings or {}), ItemRandom(TASK.id, TASK.version, seed, index))


def test_rows_are_progressions_and_the_answer_fills_the_blank():
    for built in build_run(TASK, 12, seed=3):
        scene = built.item.metadata["scene"]
        counts = scene["row_counts"]
        assert len({b - a for a, b in itertools.pairwise(counts)}) == 1
        assert counts[1] - counts[0] == scene["signed_step"]
        assert all(sa.LOW <= n <= sa.HIGH for n in counts)
        answer = scene["option_counts"]["ABCD".index(built.item.answer)]
        assert answer == counts[scene["mask"]]
        chain = sorted(scene["option_counts"])
        assert len({b - a for a, b in itertools.pairwise(chain)}) == 1 and chain[0] >= 1


def test_letters_places_and_steps_are_balanced():
    items = [_generate(i, seed=4) for i in range(24)]
    assert collections.Counter(p.answer for p in items) == {letter: 6 for letter in "ABCD"}
    assert collections.Counter(p.metadata["scene"]["chain_place"] for p in items) == {k: 6 for k in range(4)}
    assert collections.Counter(p.metadata["scene"]["mask"] for p in items) == {k: 6 for k in range(4)}
    assert collections.Counter(p.metadata["step"] for p in items) == {s: 6 for s in sa.STEPS}
    assert len({(p.metadata["step"], p.metadata["direction"]) for p in items[:8]}) == 8


def test_the_options_alone_do_not_tell_the_answer():
    """Over many items the answer's rank among the option counts is uniform (it is the chain's balanced place)."""
    ranks = collections.Counter()
    for i in range(100):
        scene = _generate(i, seed=6).metadata["scene"]
        options = scene["option_counts"]
        truth = scene["row_counts"][scene["mask"]]
        ranks[sorted(options).index(truth)] += 1
    assert ranks == {k: 25 for k in range(4)}, ranks


def test_every_item_is_built_directly_and_fast():
    slowest = 0.0
    for i in range(60):
        start = time.process_time()
        _generate(i, seed=7)
        slowest = max(slowest, time.process_time() - start)
    assert slowest < 0.1, f"slowest item took {slowest * 1000:.0f} ms"


def _flood_pieces(mask: np.ndarray) -> int:
    """8-connected pieces by flood fill, pixel by pixel (the definition)."""
    seen, pieces = np.zeros_like(mask), 0
    h, w = mask.shape
    for y, x in zip(*np.nonzero(mask), strict=True):
        if seen[y, x]:
            continue
        pieces, stack = pieces + 1, [(y, x)]
        seen[y, x] = True
        while stack:
            cy, cx = stack.pop()
            for ny, nx in itertools.product((cy - 1, cy, cy + 1), (cx - 1, cx, cx + 1)):
                if 0 <= ny < h and 0 <= nx < w and mask[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
    return pieces


def test_blob_count_counts_pieces_as_a_flood_fill_does():
    """``blob_count`` joins runs of rows instead of filling pixel by pixel: the counts must be the flood fill's
    (diagonal touches join; the grown ink wraps at the tile's edges as np.roll does, the pieces do not)."""
    from bench_plugin_sphinx.kit import channels, sequences

    rng = np.random.default_rng(3)
    for share in (0.03, 0.1, 0.35):
        for reach in (0, 1, 2):
            tile = np.where(rng.random((33, 29))[:, :, None] < share, 0, 255).astype(np.uint8).repeat(3, axis=2)
            ink = channels.darkest(tile) < 215
            grown = ink.copy()
            for dy, dx in itertools.product(range(-reach, reach + 1), repeat=2):
                grown |= np.roll(np.roll(ink, dy, 0), dx, 1)
            assert sequences.blob_count(tile, reach=reach) == _flood_pieces(grown), (share, reach)
    diagonal = np.full((6, 6, 3), 255, np.uint8)
    diagonal[1, 1] = diagonal[2, 2] = diagonal[4, 1] = 0
    assert sequences.blob_count(diagonal, reach=0) == 2


def test_progression_reading():
    assert check.progression({0: 3, 1: 5, 2: 7}) == 2
    assert check.progression({0: 9, 2: 5, 3: 3}) == -2
    assert check.progression({0: 4, 1: 4, 3: 4}) == 0
    assert check.progression({0: 3, 1: 5, 2: 8}) is None
    assert check.progression({0: 3, 2: 4, 3: 5}) is None


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"step": 2}, seed=5)
    scene = dict(built.item.metadata["scene"])
    slot = "ABCD".index(built.item.answer)

    def reject(picture, what):
        assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], what)

    options = list(scene["option_counts"])
    options[slot] += 1 if options[slot] + 1 not in options else -1  # the answer drawn one copy off
    if options[slot] in scene["option_counts"]:
        options[slot] = max(scene["option_counts"]) + 1
    reject(sa.compose({**scene, "option_counts": options}), "answer one copy off")
    counts = list(scene["row_counts"])
    k = next(k for k in range(4) if k != scene["mask"])
    counts[k] += 1  # one visible panel off the progression
    reject(sa.compose({**scene, "row_counts": counts}), "row off the progression")
    picture = sa.compose(scene).copy()
    left, top, _right, _bottom = scene["panel_boxes"][scene["mask"]]
    picture[top + 60: top + 80, left + 60: left + 80] = 0  # the blank panel not blank
    reject(picture, "blank panel inked")
    picture = sa.compose(scene).copy()
    box, answer_box = scene["option_boxes"][(slot + 1) % 4], scene["option_boxes"][slot]
    picture[box[1]:box[3], box[0]:box[2]] = picture[answer_box[1]:answer_box[3], answer_box[0]:answer_box[2]]
    reject(picture, "a wrong option drawn as the answer")
    other = {**scene, "motif": {**scene["motif"], "family": "dot", "params": dict(sa.DOT)}}
    if scene["motif"]["family"] != "dot":
        picture = sa.compose(scene).copy()
        swapped = sa.compose(other)
        picture[answer_box[1]:answer_box[3], answer_box[0]:answer_box[2]] = \
            swapped[answer_box[1]:answer_box[3], answer_box[0]:answer_box[2]]
        reject(picture, "the answer drawn with another motif")


def test_a_wrong_answer_letter_is_rejected_and_paper_forms_score():
    built = build(TASK, {}, seed=9)
    letter = built.item.answer.lower()
    assert built.item.metadata["paper_answer"] == f"({letter})"
    for response in (f"({letter})", letter, f"\\boxed{{({letter})}}"):
        assert score(built.item, response, host=HOST).value == 1.0
    wrong = "ABCD"[("ABCD".index(built.item.answer) + 1) % 4]
    assert_rejected(HOST, TASK, attrs.evolve(built.item, answer=wrong), built.images, "answer letter moved")


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 4, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == max(built.item.metadata["scene"]["row_counts"])


def test_a_thin_draw_falls_back_to_a_bold_dot():
    rng = np.random.default_rng(0)
    assert sa._motif("dot", rng, {}, 40)["family"] == "dot"
    assert sa._dot({"colour": "red"})["colour"] == "red"
