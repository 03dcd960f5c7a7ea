"""kit.pairs: item index -> (pair, rendering), option arrangement, and the pair metadata verify checks."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from bench_plugin_polaris.kit import pairs
from polaris_helpers import HOST, build, task_of

from bench_core import GenerationError, assert_rejected


def test_item_indices_map_to_pairs_and_renderings():
    assert [pairs.pair_position(i, "both") for i in range(4)] == [
        (0, "cartesian"), (0, "polar"), (1, "cartesian"), (1, "polar")]
    assert pairs.pair_position(3, "polar") == (3, "polar") and pairs.pair_position(3, "cartesian") == (3, "cartesian")
    with pytest.raises(ValueError, match="variant"):
        pairs.pair_position(0, "hexagonal")
    assert pairs.pair_key("polaris/x", 2, 5) == "polaris/x:2:5"


def test_arrange_places_both_answers_of_a_partial_pair_and_keeps_options_distinct():
    rng = np.random.default_rng(0)
    full = pairs.arrange(5, 3, {"cartesian": "7", "polar": "7"}, ["1", "2", "3", "4", "9"], rng)
    assert full[3] == "7" and len(set(full)) == 5 and set(full) == {"7", "1", "2", "3", "4"}
    partial = pairs.arrange(5, 0, {"cartesian": "7", "polar": "9"}, ["9", "1", "2", "3", "4"], rng)
    assert partial[0] == "7" and "9" in partial and len(set(partial)) == 5
    with pytest.raises(ValueError, match="distinct distractors"):
        pairs.arrange(5, 0, {"cartesian": "7", "polar": "7"}, ["1", "1", "2", "3"], rng)


def test_verify_rejects_pair_metadata_that_does_not_match_the_item():
    task = task_of("knight_paths")
    built = build(task, seed=1, index=1)  # the polar item of pair 0
    item, images = built.item, list(built.images)
    bad = {"rendering swapped": {**item.metadata, "rendering": "cartesian"},
           "other_answer dropped": {k: v for k, v in item.metadata.items() if k != "other_answer"},
           "dims changed": {**item.metadata, "dims": {"cartesian": [9, 9], "polar": [9, 9]}},
           "alignment changed": {**item.metadata, "alignment": "full"},
           "alignment_table changed": {**item.metadata, "alignment_table": "full"},
           "alignment_table dropped": {k: v for k, v in item.metadata.items() if k != "alignment_table"}}
    for what, metadata in bad.items():
        assert_rejected(HOST, task, attrs.evolve(item, metadata=metadata), images, what)


def test_table_alignment_defaults_to_alignment_and_a_different_declaration_records_both(monkeypatch):
    from bench_plugin_polaris import knight_paths

    task = task_of("knight_paths")
    item = build(task, seed=1, index=1).item
    assert (item.metadata["alignment"], item.metadata["alignment_table"]) == ("partial", "partial")
    # a task whose paper table marks it otherwise (Rule-Based Navigation: table partial, Figure 5(a) full)
    monkeypatch.setattr(knight_paths.WRAPPING, "TABLE_ALIGNMENT", "full")
    built = build(task, seed=1, index=1)
    assert (built.item.metadata["alignment"], built.item.metadata["alignment_table"]) == ("partial", "full")
    assert "other_answer" in built.item.metadata  # the solver assertions follow ALIGNMENT, not the table
    changed = {**built.item.metadata, "alignment_table": "partial"}
    assert_rejected(HOST, task, attrs.evolve(built.item, metadata=changed), list(built.images), "table changed")
    monkeypatch.setattr(knight_paths.WRAPPING, "TABLE_ALIGNMENT", "sometimes")
    with pytest.raises(GenerationError, match="TABLE_ALIGNMENT"):
        build(task, seed=1, index=3)


def test_own_options_keep_the_other_readings_answer_out_and_share_the_letter():
    from bench_plugin_polaris.kit import options

    assert options.window(5, 3, 2, 5) == [2, 4, 5, 6, 7]
    assert options.window(2, 5, 4, 5) is None  # four values below 2 would reach 0
    for name in ("minimum_flips", "maximum_collection"):
        task = task_of(name)
        for pair in range(3):
            c, p = (build(task, seed=4, index=2 * pair + k).item for k in (0, 1))
            assert c.answer == p.answer and c.metadata["other_answer"] == c.answer
            assert c.metadata["other_answer_content"] not in c.options
            assert p.metadata["other_answer_content"] not in p.options
            assert c.options[ord(c.answer) - 65] != p.options[ord(p.answer) - 65]
    item = build(task_of("minimum_flips"), seed=4, index=0)
    planted = list(item.item.options)
    planted[(ord(item.item.answer) - 65 + 1) % 5] = item.item.metadata["other_answer_content"]
    assert_rejected(HOST, task_of("minimum_flips"), attrs.evolve(item.item, options=tuple(planted)),
                    list(item.images), "the other reading's answer planted as an option")
