"""kit.pairs: item index -> (pair, rendering), option arrangement, and the pair metadata verify checks."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from bench_plugin_polaris.kit import pairs
from polaris_helpers import HOST, build, task_of

from bench_core import assert_rejected


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
           "alignment changed": {**item.metadata, "alignment": "full"}}
    for what, metadata in bad.items():
        assert_rejected(HOST, task, attrs.evolve(item, metadata=metadata), images, what)
