"""sphinx/shape-counting: the figures' exact counts, the brute-force pixel verifier and planted faults."""

from __future__ import annotations

import collections
import math

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import shape_counting as sc
from bench_plugin_sphinx import shape_figures as figures
from bench_plugin_sphinx import shape_words as words
from bench_plugin_sphinx.descriptions import shape_counting as description
from bench_plugin_sphinx.kit import complexity
from bench_plugin_sphinx.verifiers import shape_counting as verifier
from PIL import ImageDraw
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, VerifyDisagreement, assert_rejected, plan, score

TASK = task_of("shape_counting")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert description.SHAPES == words.SHAPES == figures.SHAPES == tuple(figures.GENERATORS)
    assert description.FIGURES == figures.FIGURES == tuple(figures.BUILDERS)


def test_closed_forms_match_the_papers_formulas():
    for r in range(1, 6):
        for c in range(1, 8):
            counts = figures.grid_counts(list(range(c + 1)), list(range(r + 1)))
            assert counts["rectangles"] == math.comb(r + 1, 2) * math.comb(c + 1, 2)
            assert counts["squares"] == sum((r - k + 1) * (c - k + 1) for k in range(1, min(r, c) + 1))
    for n in range(1, 9):  # the order-n subdivided triangle
        full = list(range(n))
        assert figures.triangle_counts(n, full, full, full) == n * (n + 2) * (2 * n + 1) // 8
    # irregular grid: lines 0, 1, 3 by 0, 2, 3 -> squares of side 1 (0-1 x 2-3), 2 (1-3 x 0-2), 3 (0-3 x 0-3)
    assert figures.grid_counts([0, 1, 3], [0, 2, 3]) == {"rectangles": 9, "squares": 3}


def test_occupancy_counts_and_holes():
    l_shape = {(0, 0), (1, 0), (0, 1)}
    assert figures.occupancy_counts(l_shape) == {"rectangles": 5, "squares": 3, "parallelograms": 5}
    block = {(u, v) for u in range(3) for v in range(2)}
    assert figures.occupancy_counts(block)["rectangles"] == math.comb(4, 2) * math.comb(3, 2)
    ring = {(u, v) for u in range(3) for v in range(3)} - {(1, 1)}
    assert figures.has_hole(ring) and not figures.has_hole(l_shape)


@pytest.mark.parametrize("figure", description.FIGURES)
def test_every_figure_is_recounted_on_the_pixels(figure):
    for built in build_run(TASK, 3, {"figure": figure}, seed=5):
        item = built.item
        scene = item.metadata["scene"]
        assert scene["figure"] == figure
        assert 5 <= int(item.answer) <= 20
        ink = verifier.ink_mask(built.images[0])
        points = verifier.corners(np.array(scene["lines"], dtype=float))
        counted = verifier.count_shapes(points, verifier.joined(points, verifier._grown(ink, 1)), scene["shape"])
        assert counted == int(item.answer) == item.metadata["count"]


def test_shapes_cycle_and_the_question_states_what_counts():
    items = [b.item for b in build_run(TASK, 12, seed=1)]
    shapes = collections.Counter(item.metadata["shape"] for item in items)
    assert shapes == {"squares": 3, "rectangles": 3, "parallelograms": 3, "triangles": 3}
    for shape in ("squares", "parallelograms"):  # each shape's figures in turn: its three items, three figures
        assert len({item.metadata["figure"] for item in items if item.metadata["shape"] == shape}) == 3, shape
    for item in items:
        assert words.RULES[item.metadata["shape"]] in item.question and item.question.endswith(words.ANSWER)
        assert words.shape_of(item.question) == item.metadata["shape"]


def test_a_figure_that_serves_another_shape_is_refused():
    with pytest.raises(ParameterError, match="allowed figures for triangles"):
        plan(TASK, {"shape": "triangles", "figure": "grid_regular"}, 0, 1)


def test_integer_answers_score_in_every_form():
    item = build(TASK, seed=2).item
    for response in (item.answer, f"\\boxed{{{item.answer}}}", f"There are {item.answer} in total."):
        assert score(item, response, host=HOST).value == 1.0, response
    assert score(item, str(int(item.answer) + 1), host=HOST).value == 0.0


def _planted(built, change) -> list[str]:
    """Verify the item against its picture redrawn with ``change`` applied to a copy of its scene."""
    scene = {**built.item.metadata["scene"]}
    scene["lines"] = [list(line) for line in scene["lines"]]
    picture = change(scene)
    return assert_rejected(HOST, TASK, built.item, [picture], "planted rendering fault")


def test_planted_rendering_faults_are_caught():
    for figure in ("grid_irregular", "polyomino_axis", "tri_lattice", "skew_regular", "inscribed"):
        built = build(TASK, {"figure": figure}, seed=8)

        def leave_a_line_out(scene):
            return sc.compose({**scene, "lines": scene["lines"][1:]})

        def draw_an_extra_line(scene):
            image = sc.compose(scene).convert("RGB")
            x1, y1, x2, y2 = scene["lines"][0]
            ImageDraw.Draw(image).line((x1, y1 + 30, x2, y2 + 30), fill=(0, 0, 0), width=4)
            return image

        def shift_one_line(scene):
            x1, y1, x2, y2 = scene["lines"][-1]
            return sc.compose({**scene, "lines": [*scene["lines"][:-1], [x1 + 7, y1 + 7, x2 + 7, y2 + 7]]})

        _planted(built, leave_a_line_out)
        _planted(built, draw_an_extra_line)
        _planted(built, shift_one_line)


def test_a_line_left_out_of_scene_and_picture_changes_the_count():
    """The record and the picture agree, but the answer was counted for the full figure: caught by the count."""
    built = build(TASK, {"figure": "grid_regular", "shape": "rectangles"}, seed=4)
    scene = dict(built.item.metadata["scene"])
    interior = [k for k, (x1, y1, x2, y2) in enumerate(scene["lines"]) if k not in (0, len(scene["lines"]) - 1)]
    if not interior:
        pytest.skip("a one-cell grid")
    scene["lines"] = [line for k, line in enumerate(scene["lines"]) if k != interior[0]]
    item = attrs.evolve(built.item, metadata={**built.item.metadata, "scene": scene})
    failures = assert_rejected(HOST, TASK, item, [sc.compose(scene)], "line missing from the figure")
    assert any("but the answer is" in f for f in failures), failures


def test_a_wrong_closed_form_is_caught_at_generation(monkeypatch):
    real = figures.grid_counts

    def off_by_one(xs, ys):
        counts = real(xs, ys)
        return {k: v + 1 for k, v in counts.items()}

    monkeypatch.setattr(figures, "grid_counts", off_by_one)
    with pytest.raises(VerifyDisagreement, match="but the answer is"):
        for seed in range(6):
            build(TASK, {"figure": "grid_regular"}, seed=seed)


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 10, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == int(built.item.answer)
