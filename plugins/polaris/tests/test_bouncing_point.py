"""polaris/bouncing-point: the step-by-step simulation against hand-traced bounces and the verifier's closed
form, the partial pair (different cells, both recorded), coordinate scoring, and planted rendering faults."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_polaris import bouncing_point as task_module
from bench_plugin_polaris import bouncing_point_logic as logic
from bench_plugin_polaris.verifiers import bouncing_point as verifier
from PIL import ImageDraw
from polaris_helpers import HOST, build, build_run, conformance_suite, redraw, seam_line, task_of

from bench_core import ParameterError, assert_rejected, score, score_record, scoring_record

TASK = task_of("bouncing_point")
IMPL = task_module.TASK

TestConformance = conformance_suite(TASK)


@pytest.mark.parametrize(("start", "velocity", "steps", "bounded", "wrapping"), [
    # rows 0,1,2,3,4,3,2 and columns 0,1,2,3,4,5,4 (bounded) or ..5,0 (wrapping): hand-traced on 5 x 6
    ((0, 0), (1, 1), 6, (2, 4), (2, 0)),
    ((2, 5), (0, 1), 1, (2, 4), (2, 0)),  # at the right border: bounce back, or loop into column 0
    ((4, 3), (1, -1), 3, (1, 0), (1, 0)),  # the bottom row moving down reverses at once: rows 3, 2, 1
    ((1, 1), (-1, -1), 4, (3, 3), (3, 3)),  # the corner (0, 0) reverses both: rows 0,1,2,3, columns 0,1,2,3
    ((1, 1), (-1, -1), 3, (2, 2), (2, 4)),  # ... but looping, columns 0, 5, 4
])
def test_hand_traced_bounces(start, velocity, steps, bounded, wrapping):
    assert logic.simulate(5, 6, start, velocity, steps, wrap=False) == bounded
    assert logic.simulate(5, 6, start, velocity, steps, wrap=True) == wrapping
    ends = verifier.end_cells(5, 6, start, velocity, steps)
    assert (ends["cartesian"], ends["polar"]) == (bounded, wrapping)


def test_closed_form_agrees_with_the_simulation():
    rng = np.random.default_rng(9)
    for _ in range(300):
        rows, cols = int(rng.integers(5, 9)), int(rng.integers(6, 10))
        start = (int(rng.integers(rows)), int(rng.integers(cols)))
        velocity = logic.VELOCITIES[int(rng.integers(len(logic.VELOCITIES)))]
        steps = int(rng.integers(0, 80))
        ends = verifier.end_cells(rows, cols, start, velocity, steps)
        assert ends["cartesian"] == logic.simulate(rows, cols, start, velocity, steps, wrap=False)
        assert ends["polar"] == logic.simulate(rows, cols, start, velocity, steps, wrap=True)


def test_pairs_record_each_others_cell_and_coordinates_score():
    built = build_run(TASK, 4, seed=8)
    for c, p in zip(built[::2], built[1::2], strict=True):
        assert c.item.answer != p.item.answer
        assert c.item.metadata["other_answer"] == p.item.answer and p.item.metadata["other_answer"] == c.item.answer
        assert "(ring, sector)" in p.item.question and "(row, column)" in c.item.question
    item = built[1].item
    r, s = item.answer.strip("()").split(", ")
    for response in (item.answer, f"The point ends in ring {r}, sector {s}: ({r}, {s})", f"\\boxed{{({r},{s})}}"):
        assert score(item, response, host=HOST).value == 1.0
    assert score(item, item.metadata["other_answer"], host=HOST).value == 0.0
    # components named in the other order read by keyword, here and on the trainer's path (no plugin)
    assert score(item, f"sector {s}, ring {r}", host=HOST).value == 1.0
    assert score_record(scoring_record(item, host=HOST), f"Answer: sector {s}, ring {r}", mode="lenient").value == 1.0
    if r != s:
        assert score(item, f"({s}, {r})", host=HOST).value == 0.0
    cartesian = built[0].item
    row, column = cartesian.answer.strip("()").split(", ")
    assert score(cartesian, f"column {column}, row {row}", host=HOST).value == 1.0
    cells = built[0].item.metadata["scene"]["rows"] * built[0].item.metadata["scene"]["cols"]
    assert IMPL.random_baseline(built[0].item) == pytest.approx(1 / cells)


@pytest.mark.parametrize("index", [0, 1])
def test_planted_rendering_faults_are_caught(index):
    built = build(TASK, {"rows": 6, "cols": 8}, seed=2, index=index)
    scene = built.item.metadata["scene"]
    (r, c), (dr, dc) = scene["start"], scene["velocity"]
    flipped = [dr, -dc] if 0 <= c - dc < 8 else [-dr if 0 <= r - dr < 6 else dr, dc]
    if flipped != [dr, dc]:
        failures = assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, velocity=flipped)], "the arrow turned")
        assert any("arrow's tip" in f for f in failures), failures
    moved = [r, (c + 3) % 8]
    assert_rejected(HOST, TASK, built.item, [redraw(IMPL, built, start=moved)], "the point drawn elsewhere")


def test_a_wall_at_the_seam_or_open_sides_are_caught():
    polar = build(TASK, seed=4, index=1)
    image = seam_line(IMPL, polar, (0, 0, 0), 7)
    failures = assert_rejected(HOST, TASK, polar.item, [image], "a seam wall drawn")
    assert any("cut by a wall" in f for f in failures), failures
    cart = build(TASK, seed=4, index=0)
    image = cart.images[0].copy()
    _x0, y0, x1, y1 = IMPL.layout_of(cart.item).grid_box()
    ImageDraw.Draw(image).line([(x1, y0 + 5), (x1, y1 - 5)], fill=(255, 255, 255), width=9)
    failures = assert_rejected(HOST, TASK, cart.item, [image], "the right border erased")
    assert any("thick borders" in f for f in failures), failures


def test_difficulty_sets_the_steps():
    assert build(TASK, {"difficulty": 0.0}, seed=1).item.metadata["steps"] == 10
    assert build(TASK, {"difficulty": 1.0}, seed=1).item.metadata["steps"] == 60


def test_a_set_column_count_that_rules_out_the_drawn_steps_draws_the_steps_again():
    """0.1.3, ``--set cols=6``, seed 7001, item 4: the drawn steps (a multiple of 6 and of 10) leave both readings in
    one cell from every start, and redrawing only the rows (every 25 draws) could not help, so the run stopped.
    The steps are now drawn again; with the steps set too, the pair is refused, naming both."""
    built = build(TASK, {"cols": 6}, 7001, 4)
    steps = built.item.metadata["scene"]["steps"]
    assert built.item.params["cols"] == 6 and (steps % 6 or steps % 10)
    with pytest.raises(ParameterError, match="'cols' 6 and steps 30"):
        build(TASK, {"cols": 6, "steps": 30}, 7001, 0)


def test_a_level_whose_steps_leave_no_start_takes_the_nearest_steps_that_do():
    """0.1.4, ``--set cols=6 --set difficulty=0..1``: the items whose drawn level gave 30 or 60 steps (both readings
    end in one cell from every start on 6 columns) stopped the run with a ParameterError.  The nearest step count
    that leaves a start is taken instead; a set step count is still refused."""
    assert task_module.nearby_steps(30) == [31, 29, 32, 28, 33, 27]
    assert task_module.nearby_steps(60) == [59, 58, 57]
    for cols, level, steps in ((6, 0.4, 29), (6, 1.0, 59), (8, 0.92, 55)):
        built = build(TASK, {"cols": cols, "difficulty": level}, seed=3, index=0)
        assert built.item.params["cols"] == cols
        assert built.item.metadata["steps"] == steps
        assert built.item.metadata["difficulty_knobs"] == {"steps": steps}
    with pytest.raises(ParameterError, match="'cols' 6 and steps 60"):
        build(TASK, {"cols": 6, "steps": 60}, 3, 0)
