"""polaris/random-walk: exact probabilities against hand-checked walks and against the verifier's route listing,
the rule matters (never the equal-paths value), the two renderings share the answer, and planted rendering
faults (C moved, the polar map without its turn, a street missing, the Cartesian picture shown) are caught."""

from __future__ import annotations

from fractions import Fraction

import attrs
import numpy as np
from bench_plugin_polaris import combinatorics as cb
from bench_plugin_polaris import random_walk as task_module
from bench_plugin_polaris import walk_logic as logic
from bench_plugin_polaris.verifiers import random_walk as verifier
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, task_of

from bench_core import assert_rejected

TASK = task_of("random_walk")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)


def test_hand_checked_walks():
    # 2 x 2 box: the centre is passed with 1/2 (right-down or down-right), a corner (0, 2) with 1/4
    assert verifier.route_probability((0, 0), (2, 2), (1, 1)) == Fraction(1, 2)
    assert verifier.route_probability((0, 0), (2, 2), (0, 2)) == Fraction(1, 4)
    # 1 x 3 box from (0, 0) to (1, 3): (1, 1) is reached by down first (1/2) or right then down (1/4): 3/4
    assert verifier.route_probability((0, 0), (1, 3), (1, 1)) == Fraction(3, 4) == cb.walk_probability(
        (0, 0), (1, 3), (1, 1))
    # but only 2 of the 4 shortest paths pass (1, 1): the equal-paths rule says 1/2
    assert cb.uniform_path_probability((0, 0), (1, 3), (1, 1)) == Fraction(1, 2)


def test_routes_agree_with_the_forward_solver_and_the_rule_matters():
    rng = np.random.default_rng(8)
    made = 0
    for _ in range(200):
        found = logic.sample(rng, int(rng.integers(3, 6)), int(rng.integers(3, 7)), int(rng.integers(4, 9)))
        if found is None:
            continue
        start, end, via = (tuple(found[k]) for k in ("start", "end", "via"))
        assert verifier.route_probability(start, end, via) == found["value"]
        assert found["value"] != cb.uniform_path_probability(start, end, via)
        assert len(set(found["wrong"])) == 4 and found["value"] not in found["wrong"]
        assert all(0 < w < 1 for w in found["wrong"])
        made += 1
    assert made > 100


def test_pairs_share_options_and_answer_and_the_polar_map_has_spare_sectors():
    items = [b.item for b in build_run(TASK, 12, seed=3)]
    for first, second in zip(items[::2], items[1::2], strict=True):
        assert first.options == second.options and first.answer == second.answer
        assert first.metadata["other_answer"] == first.answer == second.metadata["other_answer"]
        rows, cols = first.metadata["dims"]["cartesian"]
        rings, sectors = first.metadata["dims"]["polar"]
        assert rings == rows and sectors - cols in (2, 3)
        assert "clockwise past B's radial street" in second.question and "Right" in first.question


def test_planted_rendering_faults_are_caught():
    built = build(TASK, {"variant": "polar"}, seed=4)
    item, scene = built.item, built.item.metadata["scene"]
    turned = (scene["polar_shift"] + 1) % (scene["cols"] + scene["geometry"]["extra_sectors"])
    failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, polar_shift=turned)], "the map turned one sector")
    assert any("is not drawn at intersection" in f for f in failures), failures
    start, end, via = scene["start"], scene["end"], scene["via"]
    other = next([i, j] for i in range(start[0], end[0] + 1) for j in range(start[1], end[1] + 1)
                 if [i, j] not in (start, end, via))
    failures = assert_rejected(HOST, TASK, item, [redraw(IMPL, built, via=other)], "C moved")
    assert any("C is not drawn" in f for f in failures), failures
    image = built.images[0].copy()
    layout = IMPL.layout_of(item)
    x, y = layout.map_point(0.5, 0)  # blank out one arc of the outermost circular street
    from PIL import ImageDraw

    ImageDraw.Draw(image).ellipse((x - 6, y - 6, x + 6, y + 6), fill=(255, 255, 255))
    failures = assert_rejected(HOST, TASK, item, [image], "a street segment missing")
    assert any("street segments" in f for f in failures), failures
    cartesian = build(TASK, {"variant": "cartesian"}, seed=4)
    assert_rejected(HOST, TASK, item, [cartesian.images[0]], "the Cartesian picture for the polar item")


def test_a_wrong_probability_in_the_record_is_caught():
    built = build(TASK, {"variant": "cartesian"}, seed=6)
    meta = dict(built.item.metadata)
    scene = meta["scene"]
    moved = [scene["via"][0], scene["via"][1]]
    for cand in ([moved[0] + 1, moved[1]], [moved[0], moved[1] + 1], [moved[0] - 1, moved[1]]):
        if cand != scene["end"] and cand != scene["start"]:
            moved = cand
            break
    meta["scene"] = {**scene, "via": moved}
    failures = assert_rejected(HOST, TASK, attrs.evolve(built.item, metadata=meta), built.images, "C elsewhere")
    assert failures
