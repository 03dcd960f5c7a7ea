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


def _flood_boxes(mask: np.ndarray) -> list[dict[str, int]]:
    """8-connected pieces by flood fill, each as {"area", "top", "bottom", "left", "right"}, in the order of their
    first pixel (row-major): the definition ``verifiers.sequences.pieces`` must meet."""
    seen, found = np.zeros_like(mask), []
    h, w = mask.shape
    for y, x in zip(*np.nonzero(mask), strict=True):
        if seen[y, x]:
            continue
        seen[y, x], stack, cells = True, [(y, x)], []
        while stack:
            cy, cx = stack.pop()
            cells.append((cy, cx))
            for ny, nx in itertools.product((cy - 1, cy, cy + 1), (cx - 1, cx, cx + 1)):
                if 0 <= ny < h and 0 <= nx < w and mask[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
        ys, xs = zip(*cells, strict=True)
        found.append({"area": len(cells), "top": int(min(ys)), "bottom": int(max(ys)), "left": int(min(xs)),
                      "right": int(max(xs))})
    return found


def test_the_verifiers_pieces_and_growth_meet_their_definitions():
    """``pieces`` (runs joined by binary search, roots hooked and halved) gives the flood fill's pieces in its
    order; ``grown`` (rows, then columns) is the union of the (2 reach + 1)^2 clipped shifts; ``uniform`` reads
    its medians as numpy does -- on random masks of every density, snakes and spirals included."""
    from bench_plugin_sphinx.verifiers import sequences as read

    rng = np.random.default_rng(12)
    masks = [rng.random((int(rng.integers(1, 40)), int(rng.integers(1, 40)))) < share
             for share in (0.05, 0.3, 0.5, 0.6, 0.9) for _ in range(12)]
    spiral = np.zeros((31, 31), bool)
    for k in range(0, 15, 2):  # a square spiral: one piece whose runs join in a long chain
        spiral[k, k: 31 - k] = spiral[k: 31 - k, 30 - k] = spiral[30 - k, k + 2: 31 - k] = True
        spiral[k + 2: 31 - k, k] = k + 2 <= 30 - k
    comb = np.zeros((20, 41), bool)
    comb[19], comb[:, 0::2] = True, True  # teeth joined only at the bottom row
    masks += [spiral, comb, np.zeros((5, 5), bool)]
    for mask in masks:
        assert read.pieces(mask) == _flood_boxes(mask)
        for reach in (0, 1, 2):
            h, w = mask.shape
            shifted = np.zeros_like(mask)
            for dy, dx in itertools.product(range(-reach, reach + 1), repeat=2):
                padded = np.pad(mask, reach)
                shifted |= padded[reach + dy: reach + dy + h, reach + dx: reach + dx + w]
            assert np.array_equal(read.grown(mask, reach), shifted)
    for _ in range(300):
        found = [{"ink": int(rng.integers(40, 60)), "left": 0, "right": int(rng.integers(9, 15)), "top": 0,
                  "bottom": int(rng.integers(9, 15))} for _ in range(int(rng.integers(0, 9)))]
        inks, widths, heights = (np.array([p[k] for p in found], float) for k in ("ink", "right", "bottom"))
        expected = not found or bool(
            (np.abs(inks - np.median(inks)) <= 0.1 * np.median(inks)).all()
            and (np.abs(widths - np.median(widths)) <= max(2.0, 0.1 * np.median(widths))).all()
            and (np.abs(heights - np.median(heights)) <= max(2.0, 0.1 * np.median(heights))).all())
        assert read.uniform(found, 0.1) == expected


def test_the_backdrop_and_pasted_panels_are_the_one_pass_drawing():
    """``kit.sequences.compose`` copies a kept backdrop (borders, arrows, labels) and pastes the panels into it:
    the picture must be the one drawn in one pass, panels pasted and borders drawn in turn."""
    from bench_plugin_sphinx.kit import layout, sequences
    from PIL import ImageDraw

    rng = np.random.default_rng(4)
    tiles = [rng.integers(0, 256, (sequences.CONTENT, sequences.CONTENT, 3), dtype=np.uint8) for _ in range(8)]
    for blank in range(4):
        panels = [None if k == blank else tiles[k] for k in range(4)]
        canvas = Image.new("RGB", sequences.SIZE, layout.WHITE)
        draw = ImageDraw.Draw(canvas)
        for k in range(4):
            if panels[k] is not None:
                layout.paste(canvas, panels[k], sequences.panel_box(k)[0] + sequences.BORDER,
                             sequences.ROW_TOP + sequences.BORDER)
            layout.frame(draw, tuple(sequences.panel_box(k)), sequences.BORDER)
            layout.paste(canvas, tiles[4 + k], sequences.option_box(k)[0] + sequences.BORDER,
                         sequences.OPTIONS_TOP + sequences.BORDER)
            left, top, right, bottom = sequences.option_box(k)
            layout.frame(draw, (left, top, right, bottom), sequences.BORDER)
            layout.caption(draw, ((left + right) / 2, bottom + sequences.LABEL_BAND / 2), layout.label(k), 56)
            if k < 3:
                sequences._arrow(draw, k)
        assert np.array_equal(sequences.compose(panels, tiles[4:]), np.asarray(canvas)), blank


def test_chain_separation_is_the_pairwise_pixel_test():
    """``_apart`` (each panel's luminance once) gives the verdict of ``compare.diff_fraction`` pair by pair, on
    chains that pass and chains with two near-equal panels."""
    from bench_plugin_sphinx.kit import compare, sequences

    rng = np.random.default_rng(2)
    verdicts = []
    for family in ("dot", "arrow", "icons"):
        spec = sequences.sample_motif(family, rng, "sym", "test")
        chains = (("grid", 16, [4, 5, 6, 7]), ("row", 6, [1, 3, 5, 6]), ("pyramid", 21, [18, 19, 20, 21]))
        for kind, most, chain in chains:
            cell = sequences.slots(kind, 1, most)[0]
            scene = {"layout": kind, "most": most, "motif": spec}
            panels = [sa.panel(scene, n, sequences.render_motif(spec, cell, sa.FILL)) for n in chain]
            pairwise = all(compare.diff_fraction(a, b) >= sa.CHANGE for a, b in itertools.combinations(panels, 2))
            panels[1] = panels[0].copy()
            panels[1][0, 0] = 0  # one pixel apart: never separated
            assert sa._apart(panels) is False
            panels = [sa.panel(scene, n, sequences.render_motif(spec, cell, sa.FILL)) for n in chain]
            verdicts.append(pairwise)
            assert sa._apart(panels) == pairwise, (family, kind, chain)
    assert any(verdicts)


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
