"""sphinx/tiles-line-intersections: lines meeting at corners, the tracing verifier and planted faults."""

from __future__ import annotations

import collections

import numpy as np
import pytest
from bench_plugin_sphinx import line_words as words
from bench_plugin_sphinx import tile_lines
from bench_plugin_sphinx import tiles_line_intersections as tli
from bench_plugin_sphinx.descriptions import tiles_line_intersections as description
from bench_plugin_sphinx.kit import complexity, edgepaths
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.verifiers import tile_lines as verifier
from PIL import ImageDraw
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import assert_rejected

TASK = task_of("tiles_line_intersections")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert description.TILINGS == tli.TILINGS
    assert tli.ANSWERS[0] == 1 and tli.ANSWERS[-1] == 8


@pytest.mark.parametrize("tiling", description.TILINGS)
def test_the_asked_pair_shares_exactly_the_answer_in_corners(tiling):
    for built in build_run(TASK, 6, {"tiling": tiling}, seed=4):
        scene = built.item.metadata["scene"]
        paths = {line["colour"]: line["path"] for line in scene["lines"]}
        a, b = scene["asked"]
        assert a != b and len(set(paths[a]) & set(paths[b])) == int(built.item.answer)
        edges = [edgepaths.path_edges(p) for p in paths.values()]
        assert sum(len(e) for e in edges) == len(set().union(*map(set, edges))), "lines share no edge"
        assert all(edgepaths.is_simple(p) for p in paths.values())
        found, failures = verifier.trace(built.item, built.images)
        assert not failures and sorted(found[a]) == sorted(edgepaths.path_edges(paths[a]))


def test_questions_name_both_colours_and_the_rule_and_answers_spread():
    items = [b.item for b in build_run(TASK, 16, seed=1)]
    for item in items:
        a, b = item.metadata["scene"]["asked"]
        assert f"{a} ({PALETTE[a]})" in item.question and f"{b} ({PALETTE[b]})" in item.question
        assert words.MEET_RULE in item.question and item.question.endswith(words.ANSWER)
    assert collections.Counter(item.metadata["tiling"] for item in items) == {"square": 8, "triangular": 8}
    assert len({item.answer for item in items}) >= 5


def _scene(built) -> dict:
    scene = dict(built.item.metadata["scene"])
    scene["lines"] = [dict(line) for line in scene["lines"]]
    return scene


def test_planted_rendering_faults_are_caught():
    for seed in range(3):
        built = build(TASK, {"lines": 3}, seed=seed)

        def drop_a_line(scene):
            keep = scene["asked"][1]
            return tile_lines.compose({**scene, "lines": [ln for ln in scene["lines"] if ln["colour"] != keep]})

        def shift_a_line(scene):
            moved = next(ln for ln in scene["lines"] if ln["colour"] == scene["asked"][0])
            others = [ln for ln in scene["lines"] if ln is not moved]
            image = tile_lines.compose({**scene, "lines": others}).convert("RGB")
            points = [(scene["vertices"][v][0] + 6, scene["vertices"][v][1]) for v in moved["path"]]
            ImageDraw.Draw(image).line(points, fill=rgb(PALETTE[moved["colour"]]), width=5, joint="curve")
            return image

        def swap_colours_of_the_pair(scene):  # the asked pair drawn in two other colours
            spare = [c for c in tile_lines.LINE_COLOURS if c not in {ln["colour"] for ln in scene["lines"]}]
            for line in scene["lines"]:
                if line["colour"] in scene["asked"]:
                    line["colour"] = spare.pop()
            return tile_lines.compose(scene)

        for fault in (drop_a_line, shift_a_line, swap_colours_of_the_pair):
            assert_rejected(HOST, TASK, built.item, [fault(_scene(built))], fault.__name__)


def test_a_line_that_misses_one_meeting_in_record_and_picture_changes_the_count():
    """The first asked line cut short before its last shared corner: record and picture agree, the count does not."""
    for seed in range(10):
        built = build(TASK, {"tiling": "square"}, seed=seed)
        scene = _scene(built)
        a, b = scene["asked"]
        line = next(ln for ln in scene["lines"] if ln["colour"] == a)
        other = set(next(ln for ln in scene["lines"] if ln["colour"] == b)["path"])
        last = max(k for k, v in enumerate(line["path"]) if v in other)
        if last < 3:
            continue
        line["path"] = line["path"][:last]
        failures = assert_rejected(HOST, TASK, built.item, [tile_lines.compose(scene)], "a meeting cut off")
        assert any("but the answer is" in f for f in failures), failures
        return
    pytest.skip("no item with a meeting far enough along its line")


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 8, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == int(built.item.answer)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 6, 7, 8, 11])
def test_weighted_index_draws_what_rng_choice_draws(size):
    """The steered step's draw, held to ``rng.choice`` with the same weights: the same index, and the generator
    left in the same state, over many weightings (the two values a steered walk uses, and arbitrary ones)."""
    master = np.random.default_rng(size)
    for _ in range(3000):
        if master.random() < 0.5:
            bias = float(master.uniform(1.0, 8.0))
            weights = [bias if flag else 1.0 for flag in master.random(size) < 0.5]
        else:
            weights = [float(w) for w in master.uniform(0.01, 10.0, size)]
        seed = int(master.integers(2**32))
        ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        array = np.array(weights)
        for _draw in range(3):
            assert edgepaths.weighted_index(ours, weights) == int(theirs.choice(size, p=array / array.sum()))
        assert ours.bit_generator.state == theirs.bit_generator.state
