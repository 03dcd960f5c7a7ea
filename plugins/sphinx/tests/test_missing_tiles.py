"""sphinx/missing-tiles: the periodic colourings, the cut, the options, the pixel verifier and planted faults."""

from __future__ import annotations

import collections
import copy
import itertools
from pathlib import Path

import numpy as np
import pytest
from bench_plugin_sphinx import missing_tiles as mt
from bench_plugin_sphinx import missing_words as words
from bench_plugin_sphinx.descriptions import missing_tiles as description
from bench_plugin_sphinx.kit import complexity, polyforms
from bench_plugin_sphinx.verifiers import assembly
from bench_plugin_sphinx.verifiers import missing_tiles as verifier
from PIL import ImageDraw
from sphinx_helpers import HOST, build, build_run, task_of

from bench_core import ConformanceSuite, assert_rejected

TASK = task_of("missing_tiles")


class TestConformance(ConformanceSuite):
    family = "sphinx"
    golden_dir = Path(__file__).parent / "golden"

    def bench_host(self):
        return HOST

    def pytest_generate_tests(self, metafunc):
        if "task" in metafunc.fixturenames:
            metafunc.parametrize("task", [TASK], ids=[TASK.id])


def test_description_keeps_step_with_the_implementation():
    assert description.TILINGS == mt.TILINGS == tuple(dict.fromkeys(mt.TILING_CYCLE))
    assert description.VARIANTS == mt.VARIANTS == words.VARIANTS


@pytest.mark.parametrize("name", mt.TILINGS)
def test_the_colouring_is_periodic_and_proper(name):
    """Every translation between two cells of one shape moves every class to one class (a lattice colouring:
    the pattern can be inferred), and edge neighbours never share a class."""
    _, graph, polys, _, classes = mt.patch(name, 7, 7)
    centre = [tuple(np.mean(p, axis=0)) for p in polys]
    form = [verifier._form(p) for p in polys]
    moved = collections.defaultdict(set)
    for a, b in itertools.permutations(range(len(polys)), 2):
        if form[a] == form[b]:
            t = (round(centre[b][0] - centre[a][0], 3), round(centre[b][1] - centre[a][1], 3))
            moved[t].add(classes[a] == classes[b])
    assert all(len(v) == 1 for v in moved.values())
    assert all(classes[a] != classes[b] for a in graph for b in graph[a])
    assert len(set(classes)) == mt.class_count(name)


@pytest.mark.parametrize("name", mt.TILINGS)
def test_signatures_are_invariant_under_the_group_and_agree_with_the_verifiers_search(name):
    _, graph, polys, _, _ = mt.patch(name, 8, 8)
    rng = np.random.default_rng(4)
    shapes = [[polys[c] for c in sorted(polyforms.grow(graph, int(rng.integers(3, 9)), rng))] for _ in range(12)]
    for shape in shapes:
        sig = polyforms.signature(shape, name)
        for turn, flip in polyforms.GROUPS[name]:
            view = polyforms.shift(polyforms.transform_all(shape, turn, flip), 3.5, -7.0)
            assert polyforms.signature(view, name) == sig
            assert assembly.congruent(assembly.cells_of(view), assembly.cells_of(shape))
    for a, b in itertools.combinations(shapes, 2):
        same = polyforms.congruent(a, b, name)
        assert same == assembly.congruent(assembly.cells_of(a), assembly.cells_of(b))


@pytest.mark.parametrize("name", mt.TILINGS)
def test_colour_items_span_two_classes_and_offer_one_true_assignment(name):
    for built in build_run(TASK, 4, {"tiling": name, "variant": "color"}, seed=3):
        scene = built.item.metadata["scene"]
        _, graph, polys, interior, classes = mt.patch(name, *_dims(scene, name))
        hole = scene["hole"]
        assert set(hole) <= interior and polyforms.connected(set(hole), graph)
        assert len({classes[c] for c in hole}) >= 2
        colourings = [tuple(o["colours"]) for o in scene["options"]]
        assert len(set(colourings)) == 4
        truth = colourings["ABCD".index(built.item.answer)]
        board = dict(zip(range(len(polys)), scene["board"]["colours"], strict=True))
        by_class = {classes[c]: board[c] for c in board if board[c] is not None}
        assert truth == tuple(by_class[classes[c]] for c in hole)


@pytest.mark.parametrize("name", mt.TILINGS)
def test_shape_items_have_one_congruent_option(name):
    for built in build_run(TASK, 4, {"tiling": name, "variant": "shape"}, seed=3):
        scene = built.item.metadata["scene"]
        hole = [scene["board"]["unit"][c] for c in scene["hole"]]
        congruent = [polyforms.congruent(o["unit"], hole, name) for o in scene["options"]]
        assert congruent.count(True) == 1 and congruent.index(True) == "ABCD".index(built.item.answer)
        assert all(len(o["unit"]) == len(hole) for o in scene["options"])
        assert len({polyforms.signature(o["unit"], name) for o in scene["options"]}) == 4


def _dims(scene, name):
    return scene["width"], scene["height"]


def test_tilings_and_variants_follow_their_orders():
    items = [b.item for b in build_run(TASK, 20, seed=1)]
    assert collections.Counter(i.metadata["tiling"] for i in items) == dict.fromkeys(mt.TILINGS, 5)
    assert all(len({i.metadata["tiling"] for i in items[k: k + 4]}) == 4 for k in range(17))
    assert collections.Counter(i.metadata["variant"] for i in items) == {"color": 10, "shape": 10}
    # every tiling meets both variants within eight items (cycled alone, the two orders would pair for good)
    assert len({(i.metadata["tiling"], i.metadata["variant"]) for i in items[:8]}) == 8
    assert collections.Counter(i.answer for i in items[:20]) == dict.fromkeys("ABCD", 5)


def _scene(built) -> dict:
    return copy.deepcopy(built.item.metadata["scene"])


def answer_cell_recoloured(scene, answer, wrong):
    option = scene["options"][answer]
    option["colours"][0] = "brown" if option["colours"][0] != "brown" else "cyan"
    return mt.compose(scene)


def answer_cell_dropped(scene, answer, wrong):
    option = scene["options"][answer]
    option["unit"], option["colours"] = option["unit"][1:], option["colours"][1:]
    return mt.compose(scene)


def wrong_option_drawn_as_the_answer(scene, answer, wrong):
    shift = scene["option_boxes"][wrong][0] - scene["option_boxes"][answer][0]
    true = scene["options"][answer]
    scene["options"][wrong] = {**true, "offset": [true["offset"][0] + shift, true["offset"][1]]}
    return mt.compose(scene)


def blank_cell_filled(scene, answer, wrong):
    scene["board"]["colours"][scene["hole"][0]] = scene["options"][answer]["colours"][0]
    return mt.compose(scene)


def board_cell_recoloured(scene, answer, wrong):
    colours = scene["board"]["colours"]
    k = next(k for k, c in enumerate(colours) if c is not None)
    colours[k] = "gray" if colours[k] != "gray" else "red"
    return mt.compose(scene)


def stray_mark_in_a_card(scene, answer, wrong):
    image = mt.compose(scene).convert("RGB")
    left, top = scene["option_boxes"][wrong][:2]
    ImageDraw.Draw(image).rectangle((left + 12, top + 12, left + 20, top + 20), fill=(0, 0, 0))
    return image


FAULTS = (answer_cell_dropped, wrong_option_drawn_as_the_answer, blank_cell_filled, board_cell_recoloured,
          stray_mark_in_a_card)


@pytest.mark.parametrize("variant", mt.VARIANTS)
@pytest.mark.parametrize("name", ("square", "triangular", "hexagonal"))
def test_planted_rendering_faults_are_caught(variant, name):
    built = build(TASK, {"tiling": name, "variant": variant}, seed=5)
    answer = "ABCD".index(built.item.answer)
    faults = FAULTS + ((answer_cell_recoloured,) if variant == "color" else ())
    for fault in faults:
        image = fault(_scene(built), answer, (answer + 1) % 4)
        assert_rejected(HOST, TASK, built.item, [image], f"{variant}/{name}: {fault.__name__}")


def test_periodic_inference_reads_the_pattern_not_the_record():
    """A board whose visible cells break the pattern gives conflicting readings for a blank cell."""
    built = build(TASK, {"tiling": "square", "variant": "color"}, seed=2)
    scene = built.item.metadata["scene"]
    colours = [c for c in scene["board"]["colours"]]
    inferred, problems = verifier.infer_colours(scene["board"]["unit"], colours)
    assert not problems and set(inferred) == set(scene["hole"])
    rng = np.random.default_rng(0)
    names = sorted({c for c in colours if c})
    shuffled = [None if c is None else names[int(rng.integers(len(names)))] for c in colours]
    _, problems = verifier.infer_colours(scene["board"]["unit"], shuffled)
    assert problems


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 8, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == built.item.metadata["board_cells"]


def test_the_shape_variant_on_the_smallest_rhombille_board_is_found():
    """Seed 1, item 1329 with the shape variant on rhombille at difficulty 0: the 3x3 board's pieces fit in ~10 %
    of draws and 80 draws all failed, stopping the run.  With 1,000 draws the item is built (and verified)."""
    built = build(TASK, {"tiling": "rhombille", "variant": "shape", "difficulty": 0}, 1, 1329)
    assert built.item.metadata["scene"]["tiling"] == "rhombille"
