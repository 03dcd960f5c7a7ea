"""sphinx/tiles-recoloring: regions, the two variants, the pixel verifier and planted faults."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import recolour_words as words
from bench_plugin_sphinx import tiles_recoloring as tr
from bench_plugin_sphinx.descriptions import tiles_recoloring as description
from bench_plugin_sphinx.kit import complexity
from PIL import Image, ImageDraw
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import assert_rejected

TASK = task_of("tiles_recoloring")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert description.TILINGS == tr.TILINGS == tuple(dict.fromkeys(tr.TILING_CYCLE))
    assert description.VARIANTS == tr.VARIANTS


@pytest.mark.parametrize("tiling", description.TILINGS)
@pytest.mark.parametrize("variant", description.VARIANTS)
def test_boards_differ_in_exactly_the_answer_and_regions_stay_connected(tiling, variant):
    for built in build_run(TASK, 3, {"tiling": tiling, "variant": variant}, seed=6):
        scene = built.item.metadata["scene"]
        left, right = scene["left"], scene["right"]
        assert sum(a != b for a, b in zip(left, right, strict=True)) == int(built.item.answer)
        graph = tr.patch(tiling, scene["width"], scene["height"])[1]
        region = {k for k, c in enumerate(left) if c == scene["region_colours"][0]}
        coloured = {k for k, c in enumerate(right) if c in scene["region_colours"]}
        assert tr.connected(region, graph) and tr.connected(coloured, graph)
        second = scene["region_colours"][1:]
        recoloured = [k for k, (a, b) in enumerate(zip(left, right, strict=True)) if b in second]
        assert (len(recoloured) > 0) is (variant == "color_change")
        assert all(left[k] == scene["region_colours"][0] for k in recoloured)
        assert words.RULE in built.item.question
        assert (words.CIRCLES_NOTE in built.item.question) is (tiling == "circles")


def test_colours_of_an_item_are_far_apart():
    rng = np.random.default_rng(1)
    for _ in range(50):
        picked = tr.distinct_colours(rng, 3)
        assert not {"orange", "yellow"} <= set(picked)


def test_tilings_are_spread_over_the_indices():
    items = [b.item for b in build_run(TASK, 10, seed=1)]
    tilings = [i.metadata["tiling"] for i in items]
    assert all(len(set(tilings[k:k + 5])) == 5 for k in range(6))  # any five consecutive show all five


def _scene(built) -> dict:
    scene = dict(built.item.metadata["scene"])
    scene["left"], scene["right"] = list(scene["left"]), list(scene["right"])
    return scene


def test_planted_rendering_faults_are_caught():
    for tiling in ("square", "circles", "hexagonal"):
        built = build(TASK, {"tiling": tiling}, seed=3)

        def one_more_cell_changed(scene):
            same = [k for k, (a, b) in enumerate(zip(scene["left"], scene["right"], strict=True)) if a == b]
            scene["right"][same[0]] = "purple" if scene["right"][same[0]] != "purple" else "green"
            return tr.compose(scene)

        def a_change_undone(scene):
            changed = [k for k, (a, b) in enumerate(zip(scene["left"], scene["right"], strict=True)) if a != b]
            scene["right"][changed[0]] = scene["left"][changed[0]]
            return tr.compose(scene)

        def right_board_shifted(scene):
            image = tr.compose(scene).convert("RGB")
            left, top, right, bottom = scene["board_boxes"][1]
            f = scene["frame"]
            pixels = np.asarray(image).copy()
            inner = pixels[top + f: bottom - f, left + f: right - f].copy()
            pixels[top + f: bottom - f, left + f + 5: right - f] = inner[:, :-5]
            return Image.fromarray(pixels)

        def half_a_cell_recoloured(scene):
            image = tr.compose(scene).convert("RGB")
            xy = np.array(scene["vertices"])
            verts = xy[scene["polygons"][0]]
            left, top = scene["board_boxes"][1][:2]
            cx, cy = verts.mean(axis=0) + np.array([left, top]) + scene["frame"]
            ImageDraw.Draw(image).rectangle((cx - 2, cy - 2, cx + 3, cy + 3), fill=(75, 0, 130))
            return image

        for fault in (one_more_cell_changed, a_change_undone, right_board_shifted, half_a_cell_recoloured):
            assert_rejected(HOST, TASK, built.item, [fault(_scene(built))], fault.__name__)


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 8, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert record["raw"] == int(built.item.answer)


def test_cell_colours_reads_centres_and_flags_mixed_cells():
    """``cell_colours`` on random keys and cell maps, held to its definition: each cell's key at its centre, and
    the cells with any inside pixel of another key (with ``uint32`` keys read from a view, as the verifier does)."""
    from bench_plugin_sphinx.verifiers import recoloring

    rng = np.random.default_rng(8)
    for _ in range(60):
        h, w, cells = int(rng.integers(5, 40)), int(rng.integers(5, 40)), int(rng.integers(1, 9))
        ids = rng.integers(0, cells + 1, (h, w)).astype(np.int32)
        keys = rng.choice(np.array([0, 0xFFFFFF, 0x1976D2, 0xE53935], dtype=np.uint32), (h + 4, w + 4))
        board = keys[2:-2, 2:-2]
        centres = np.column_stack([rng.integers(0, w, cells), rng.integers(0, h, cells)])
        colours, mixed = recoloring.cell_colours(board, ids, centres)
        expected = [int(board[y, x]) for x, y in centres]
        assert colours.tolist() == expected
        assert mixed == [k for k in range(cells) if (board[ids == k + 1] != expected[k]).any()]
