"""sphinx/symmetry-fill: rules, whole-grid symmetry on the pixels, options, planted rendering faults."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from bench_plugin_sphinx import symmetry_fill as sf
from bench_plugin_sphinx import symmetry_words as words
from bench_plugin_sphinx.kit import compare, complexity, motifs, probe
from bench_plugin_sphinx.verifiers import symmetry_fill as verifier
from bench_plugin_sphinx.verifiers.pixels import packed
from PIL import Image
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, assert_rejected, plan, score

TASK = task_of("symmetry_fill")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("rule").choices == words.RULES == tuple(sf.RULE_TILES)
    assert set(TASK.parameter("motif").choices) <= set(motifs.FAMILIES)


def _grid(built) -> np.ndarray:
    """The left grid of the item's picture with the answer option pasted into the black cell (packed colours)."""
    scene = built.item.metadata["scene"]
    pixels = packed(np.asarray(built.images[0].convert("RGB")))
    left, top, right, bottom = scene["grid_region"]
    ml, mt, mr, mb = scene["grid_boxes"][scene["mask"]]
    ol, ot, o_r, ob = scene["option_boxes"]["ABCD".index(built.item.answer)]
    grid = pixels[top:bottom, left:right].copy()
    grid[mt - top: mb - top, ml - left: mr - left] = pixels[ot:ob, ol:o_r]
    return grid


@pytest.mark.parametrize("rule", words.RULES)
def test_the_completed_grid_is_symmetric_as_a_picture(rule):
    for seed in (1, 2):
        built = build(TASK, {"rule": rule}, seed=seed)
        grid = _grid(built)
        assert verifier.symmetry_score(grid, rule) == 1.0
        if "diagonal" in rule:  # the blacked-out cell is one the symmetry determines: off the diagonal
            assert sf.RULE_TILES[rule][built.item.metadata["scene"]["mask"]] is not None


def test_options_are_distinct_balanced_and_named_by_the_paper_form():
    items = build_run(TASK, 20, seed=3)
    assert collections.Counter(b.item.answer for b in items) == {letter: 5 for letter in "ABCD"}
    assert collections.Counter(b.item.metadata["scene"]["rule"] for b in items) == {r: 4 for r in words.RULES}
    for built in items[:6]:
        scene = built.item.metadata["scene"]
        tiles = [np.asarray(built.images[0].crop(box)) for box in scene["option_boxes"]]
        assert all(compare.distinct(tiles[a], tiles[b]) for a in range(4) for b in range(a + 1, 4))
        letter = built.item.answer.lower()
        assert built.item.metadata["paper_answer"] == f"({letter})"
        for response in (f"({letter})", letter, f"\\boxed{{({letter})}}"):
            assert score(built.item, response, host=HOST).value == 1.0


def _rendered_with(built, change) -> list[str]:
    scene = dict(built.item.metadata["scene"])
    picture = change(scene)
    return assert_rejected(HOST, TASK, built.item, [Image.fromarray(picture)], "planted rendering fault")


def test_planted_rendering_faults_are_caught():
    for rule in ("vertical", "both-axes", "anti-diagonal"):
        built = build(TASK, {"rule": rule}, seed=5)
        answer_slot = "ABCD".index(built.item.answer)

        def answer_not_mirrored(scene, answer_slot=answer_slot):  # the answer tile drawn transposed
            ops = list(scene["option_ops"])
            ops[answer_slot] = "transpose"
            return sf.compose({**scene, "option_ops": ops})

        def grid_tile_misdrawn(scene, rule=rule):  # a visible grid tile drawn in the wrong orientation
            picture = sf.compose(scene).copy()
            cell = next(k for k in range(4) if k != scene["mask"] and sf.RULE_TILES[rule][k] is not None)
            left, top, right, bottom = scene["grid_boxes"][cell]
            picture[top:bottom, left:right] = probe.apply("rot90", picture[top:bottom, left:right])
            return picture

        def mask_not_black(scene):
            picture = sf.compose(scene).copy()
            left, top, right, bottom = scene["grid_boxes"][scene["mask"]]
            picture[top + 20:bottom - 20, left + 20:right - 20] = 255
            return picture

        _rendered_with(built, answer_not_mirrored)
        _rendered_with(built, grid_tile_misdrawn)
        _rendered_with(built, mask_not_black)


def test_rule_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="rule or difficulty"):
        job = plan(TASK, {"rule": "vertical", "difficulty": 0.5}, 0, 1)[0]
        sf.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert ("diagonal" in built.item.metadata["scene"]["rule"]) is hard
