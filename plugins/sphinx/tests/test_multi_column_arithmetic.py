"""sphinx/multi-column-arithmetic: per-column progressions, options with no majority shortcut, the verifier's
own column counts, planted rendering faults."""

from __future__ import annotations

import collections
import itertools

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import multi_column_arithmetic as mc
from bench_plugin_sphinx.kit import complexity
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, kept_backdrop_by_definition, task_of

from bench_core import ItemRandom, ParameterError, assert_rejected, encode_png, plan, score

TASK = task_of("multi_column_arithmetic")
TestConformance = conformance_suite(TASK)


def _generate(index, settings=None, seed=5):
    return mc.TASK.generate(TASK.resolve_params(settings or {}), ItemRandom(TASK.id, TASK.version, seed, index))


def test_every_column_is_a_progression_ending_in_the_answer():
    for i in range(20):
        problem = _generate(i)
        scene = problem.metadata["scene"]
        truth = scene["option_counts"]["ABCD".index(problem.answer)]
        rows = [*scene["panel_counts"], truth]
        for c in range(scene["columns"]):
            column = [row[c] for row in rows]
            assert len({b - a for a, b in itertools.pairwise(column)}) == 1
            assert all(0 <= n <= scene["cap"] for n in column)
        assert scene["steps"][0] != 0
        assert len({tuple(o) for o in scene["option_counts"]}) == 4


def test_the_column_majority_of_the_options_is_right_only_by_chance():
    """The paper's construction makes the per-column majority of the options the answer every time; here it is
    the answer exactly when the truth is the centre, one item in four."""
    hits = 0
    for i in range(40):
        problem = _generate(i, seed=6)
        scene = problem.metadata["scene"]
        options = scene["option_counts"]
        majority = [collections.Counter(o[c] for o in options).most_common(1)[0][0] for c in range(scene["columns"])]
        hits += majority == options["ABCD".index(problem.answer)]
    assert hits <= 12, hits


def test_letters_roles_and_columns_are_balanced():
    items = [_generate(i, seed=4) for i in range(20)]
    assert collections.Counter(p.answer for p in items) == {letter: 5 for letter in "ABCD"}
    assert collections.Counter(p.metadata["scene"]["role"] for p in items) == {"centre": 5, "edit": 15}
    assert collections.Counter(p.metadata["columns"] for p in items) == {c: 4 for c in mc.COLUMNS}


def test_centre_and_edits_edit_one_column_each():
    rng = np.random.default_rng(1)
    for columns in mc.COLUMNS:
        centre, edits = mc.centre_and_edits(columns, mc.CAP[columns], rng)
        assert all(2 <= v <= mc.CAP[columns] - 2 for v in centre)
        assert all(abs(change) in (1, 2) for _, change in edits)
        assert len({(c, d) for c, d in edits}) == 3


def test_the_picture_is_the_one_its_scene_draws():
    """``generate`` reuses the motif tiles its boldness test drew and composes the picture as palette indices
    (``palette_compose``): its PNG must be the one the core writes for ``compose(scene)``'s RGB picture, which draws
    every tile anew from the recorded motifs and every panel in RGB, for every number of columns and for a scene
    with a column empty everywhere (its tile's colours left out of the palette)."""
    for columns in mc.COLUMNS:
        for i in range(3):
            problem = _generate(i, {"columns": columns}, seed=11)
            assert problem.structure.mode == "P"
            expected = encode_png(Image.fromarray(mc.compose(problem.metadata["scene"])))
            assert encode_png(problem.structure) == expected, (columns, i)
    scene = _generate(0, {"columns": 3}, seed=11).metadata["scene"]
    empty = {**scene, **{key: [[0, *row[1:]] for row in scene[key]] for key in ("panel_counts", "option_counts")}}
    picture = mc.palette_compose(empty)
    assert len(picture.getpalette()) // 3 == len(picture.getcolors())
    assert encode_png(picture) == encode_png(Image.fromarray(mc.compose(empty)))


def test_pictures_fit_a_palette_and_the_labels_keep_their_look():
    """The labels are anti-aliased in ``LABEL_LEVELS`` steps so that every picture has at most 256 colours (a
    palette PNG); they differ from fully anti-aliased labels only in the label band, by under half a step."""
    from bench_plugin_sphinx.kit import sequences

    for built in build_run(TASK, 12, seed=6):
        assert len(built.images[0].getcolors(256) or ()) > 0, built.item.id
    blank = [np.full((sequences.CONTENT, sequences.CONTENT, 3), 255, np.uint8)] * 4
    full = sequences.compose(blank, blank).astype(int)
    stepped = sequences.compose(blank, blank, mc.LABEL_LEVELS).astype(int)
    moved = np.nonzero((full != stepped).any(axis=2))[0]
    assert moved.size and moved.min() >= sequences.OPTIONS_TOP + sequences.PANEL
    assert np.abs(full - stepped).max() <= 255 / (mc.LABEL_LEVELS - 1) / 2 + 1
    assert len(np.unique(stepped.reshape(-1, 3), axis=0)) <= len(np.unique(full.reshape(-1, 3), axis=0)) - 200


def test_columns_read_side_by_side_are_read_one_by_one():
    """``copies_side_by_side`` reads all columns in one pass; each column's copies must be ``copies_of`` that
    column alone (grown ink clipped at its edges, boxes counted from its left edge), ink touching every edge."""
    from bench_plugin_sphinx.verifiers import sequences as read

    rng = np.random.default_rng(9)
    for share in (0.02, 0.2, 0.6):
        masks = [rng.random((37, 23)) < share for _ in range(7)]
        masks[0][:, 0] = masks[1][:, -1] = masks[2][0] = masks[3][-1] = True
        for reach in (0, 1, 2):
            assert read.copies_side_by_side(masks, reach) == [read.copies_of(m, reach) for m in masks]


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"columns": 3}, seed=5)
    scene = dict(built.item.metadata["scene"])
    slot = "ABCD".index(built.item.answer)

    def reject(picture, what):
        assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], what)

    # one copy more, or fewer where the column already holds the item's tallest stack (the cell is sized for it)
    most = max(max(counts) for counts in [*scene["option_counts"], *scene["panel_counts"]])
    options = [list(o) for o in scene["option_counts"]]
    options[slot][1] = options[slot][1] + 1 if options[slot][1] < most else options[slot][1] - 1
    reject(mc.compose({**scene, "option_counts": options}), "one column of the answer one copy off")
    panels = [list(p) for p in scene["panel_counts"]]
    panels[1][0] += 1 if panels[1][0] < most else -1
    reject(mc.compose({**scene, "panel_counts": panels}), "a column off its progression")
    picture = mc.compose(scene).copy()
    left, top, _right, _bottom = scene["panel_boxes"][3]
    picture[top + 60: top + 80, left + 60: left + 80] = 0
    reject(picture, "blank panel inked")
    picture = mc.compose(scene).copy()
    box, answer_box = scene["option_boxes"][(slot + 1) % 4], scene["option_boxes"][slot]
    picture[box[1]:box[3], box[0]:box[2]] = picture[answer_box[1]:answer_box[3], answer_box[0]:answer_box[2]]
    reject(picture, "a wrong option drawn as the answer")
    swapped = {**scene, "motifs": [scene["motifs"][1], scene["motifs"][0], *scene["motifs"][2:]]}
    if scene["motifs"][0] != scene["motifs"][1]:
        picture = mc.compose(scene).copy()
        other = mc.compose(swapped)
        picture[answer_box[1]:answer_box[3], answer_box[0]:answer_box[2]] = \
            other[answer_box[1]:answer_box[3], answer_box[0]:answer_box[2]]
        if scene["option_counts"][slot][0] and scene["option_counts"][slot][1]:
            reject(picture, "the answer's first two columns drawn with each other's motif")


def test_a_moved_answer_letter_is_rejected_and_paper_forms_score():
    built = build(TASK, {}, seed=9)
    letter = built.item.answer.lower()
    assert built.item.metadata["paper_answer"] == f"({letter})"
    for response in (f"({letter})", letter, f"\\boxed{{({letter})}}"):
        assert score(built.item, response, host=HOST).value == 1.0
    wrong = "ABCD"[("ABCD".index(built.item.answer) + 1) % 4]
    assert_rejected(HOST, TASK, attrs.evolve(built.item, answer=wrong), built.images, "answer letter moved")


def test_the_split_is_held_out():
    assert build(TASK, {}, seed=1).item.metadata["split"] == "ood"


def test_columns_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="columns or difficulty"):
        job = plan(TASK, {"columns": 3, "difficulty": 0.5}, 0, 1)[0]
        mc.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 4, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (built.item.metadata["columns"] >= 5) is hard


def test_the_backdrop_moved_by_its_inked_pixels_equals_the_whole_backdrop_moved():
    """``kit.indexed.backdrop_in_palette`` (white filled in, the other pixels written) equals ``in_palette`` of the
    whole kept backdrop, into palettes with colours before, among and after the backdrop's."""
    from bench_plugin_sphinx.kit import indexed, sequences

    rgb = sequences.compose([None] * 4, [None] * 4, mc.LABEL_LEVELS)
    keys, indices = indexed.kept(rgb)
    backdrop = indexed.kept_backdrop(rgb)
    assert np.array_equal(backdrop[0], keys)
    for found, defined in zip(backdrop, kept_backdrop_by_definition(rgb), strict=True):
        assert np.array_equal(found, defined) and np.asarray(found).dtype == np.asarray(defined).dtype
    for extra in ([], [0x000001, 0x808081, 0xFFFFFE], list(range(0x102030, 0x102030 + 100))):
        palette = np.unique(np.concatenate([keys, np.array(extra, np.int32)]))
        whole = indexed.in_palette(keys, indices, palette)
        assert np.array_equal(indexed.backdrop_in_palette(backdrop, palette), whole)
    with pytest.raises(ValueError, match="white"):
        indexed.kept_backdrop(np.zeros((4, 4, 3), np.uint8))
