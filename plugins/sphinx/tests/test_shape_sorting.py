"""sphinx/shape-sorting: values 10 % apart, rankings measured back on the pixels, options without a centre
shortcut, planted rendering faults."""

from __future__ import annotations

import collections
import itertools

import attrs
import numpy as np
import pytest
from bench_plugin_sphinx import shape_sorting as ss
from bench_plugin_sphinx import sorting_words as words
from bench_plugin_sphinx.kit import complexity, spatial
from bench_plugin_sphinx.kit.canvas import graph_paper, graph_paper_counts, graph_paper_indices, stamp_text
from bench_plugin_sphinx.kit.palette import PALETTE, rgb
from bench_plugin_sphinx.verifiers import shape_sorting as verifier
from PIL import Image, ImageDraw
from sphinx_helpers import HOST, build, build_run, conformance_suite, task_of

from bench_core import ParameterError, assert_rejected, encode_png, plan, score

TASK = task_of("shape_sorting")


TestConformance = conformance_suite(TASK)


def test_description_keeps_step_with_the_implementation():
    assert TASK.parameter("metric").choices == words.METRICS == tuple(words.NAMES)
    items = TASK.parameter("items")
    assert (items.minimum, items.maximum) == ss.ITEM_RANGE


@pytest.mark.parametrize("metric", words.METRICS)
def test_values_keep_the_papers_gap_and_read_back_from_the_pixels(metric):
    for k in (3, 10):
        built = build(TASK, {"metric": metric, "items": k}, seed=k)
        scene = built.item.metadata["scene"]
        values = [ss.metric_value(s, metric) for s in scene["shapes"]]
        assert all(abs(a - b) / max(a, b) >= 0.099 for a, b in itertools.combinations(values, 2)), values
        size = scene["label_size"]
        boxes = [(x - size, y - size, x + size, y + size) for x, y in (s["label"] for s in scene["shapes"])]
        measured = [verifier.measure(built.images[0], s, metric, scene["stroke"], boxes)[0] for s in scene["shapes"]]
        assert np.argsort(measured).tolist() == np.argsort(values).tolist()
        assert len({s["colour"] for s in scene["shapes"]}) == k and len({s["letter"] for s in scene["shapes"]}) == k


def test_shapes_do_not_overlap_and_stay_on_the_canvas():
    for built in build_run(TASK, 12, seed=6):
        scene = built.item.metadata["scene"]
        width, height = scene["image_size"]
        prints = [ss._footprint(s) for s in scene["shapes"]]
        for x, y, r in prints:
            assert r <= x <= width - r and r <= y <= height - r
        for (ax, ay, ar), (bx, by, br) in itertools.combinations(prints, 2):
            assert np.hypot(ax - bx, ay - by) >= ar + br + ss.GAP - 0.01


def _centre(options: list[str]) -> int:
    def distance(a, b):
        return sum(x != y for x, y in zip(a.split(","), b.split(","), strict=True))
    return int(np.argmin([sum(distance(o, p) for p in options) for o in options]))


def test_metrics_letters_and_directions_balance_without_a_centre_shortcut():
    items = [b.item for b in build_run(TASK, 24, seed=5)]
    assert collections.Counter(item.answer for item in items) == {letter: 6 for letter in "ABCD"}
    assert collections.Counter(item.metadata["metric"] for item in items) == {m: 4 for m in words.METRICS}
    assert collections.Counter(item.metadata["direction"] for item in items) == {"ascending": 12, "descending": 12}
    hits = sum("ABCD"[_centre(list(item.options))] == item.answer for item in items)
    assert hits <= 11, f"the option closest to the others is the answer in {hits} of 24 items"


def test_every_answer_form_scores():
    item = build(TASK, seed=2).item
    letter = item.answer.lower()
    assert item.metadata["paper_answer"] == letter
    text = item.options["ABCD".index(item.answer)]
    for response in (letter, f"({letter})", f"\\boxed{{{letter}}}", text):
        assert score(item, response, host=HOST).value == 1.0, response


def _recomposed(built, shapes) -> list[str]:
    scene = {**built.item.metadata["scene"], "shapes": shapes}
    return assert_rejected(HOST, TASK, built.item, [ss.compose(scene)], "planted rendering fault")


@pytest.mark.parametrize("metric", ["polygon-area", "ellipse-perimeter", "angle", "length"])
def test_planted_rendering_faults_are_caught(metric):
    built = build(TASK, {"metric": metric, "items": 5}, seed=9)
    shapes = [dict(s) for s in built.item.metadata["scene"]["shapes"]]
    order = sorted(range(5), key=lambda i: ss.metric_value(shapes[i], metric))
    small, large = order[0], order[-1]

    swapped = [dict(s) for s in shapes]  # the smallest and largest shapes drawn in each other's colour
    swapped[small]["hex"], swapped[large]["hex"] = shapes[large]["hex"], shapes[small]["hex"]
    swapped[small]["colour"], swapped[large]["colour"] = shapes[large]["colour"], shapes[small]["colour"]
    _recomposed(built, swapped)

    grown = [dict(s) for s in shapes]  # the smallest drawn larger than the largest
    key = {"polygon": "radius", "ellipse": "a", "angle": "measure", "segment": None}[shapes[small]["kind"]]
    if key is None:
        (x0, y0), (x1, y1) = shapes[small]["ends"]
        dx, dy = (x1 - x0) * 0.6, (y1 - y0) * 0.6
        grown[small]["ends"] = [[x0 - dx, y0 - dy], [x1 + dx, y1 + dy]]
    else:
        grown[small][key] = shapes[large][key] * 1.05
        if key == "a":
            grown[small]["b"] = shapes[large]["b"] * 1.05
    _recomposed(built, grown)

    relettered = [dict(s) for s in shapes]  # two letters exchanged in the picture
    relettered[0]["letter"], relettered[1]["letter"] = shapes[1]["letter"], shapes[0]["letter"]
    failures = _recomposed(built, relettered)
    assert any("label" in f for f in failures), failures


def test_a_question_naming_another_metric_is_caught():
    built = build(TASK, {"metric": "polygon-area"}, seed=3)
    bad = built.item.question.replace("by area (the size of the region each outline encloses)",
                                      "by perimeter (the total length of each outline)", 1)
    assert bad != built.item.question
    assert_rejected(HOST, TASK, attrs.evolve(built.item, question=bad), built.images, "another metric named")


def test_items_and_difficulty_together_are_refused():
    with pytest.raises(ParameterError, match="items or difficulty"):
        job = plan(TASK, {"items": 5, "difficulty": 0.5}, 0, 1)[0]
        ss.TASK.check_params(TASK.resolve_params(job.params))


@pytest.mark.parametrize(("alias", "hard"), [("easy", False), ("hard", True)])
def test_difficulty_aliases_select_the_papers_bins(alias, hard):
    for built in build_run(TASK, 6, {"difficulty": alias}, seed=2):
        record = built.item.metadata["complexity"]
        assert (record["c"] >= complexity.HARD_FROM) is hard, record
        assert (len(built.item.metadata["scene"]["shapes"]) >= 9) is hard


def _laid_and_pasted(rows: int, levels: np.ndarray, name: str) -> tuple[Image.Image, np.ndarray]:
    """(``_Layers`` laying the colour through ``levels`` (one coverage per column) on ``rows`` rows of distinct
    colours, Pillow's paste of the same): every pixel value of every channel under every coverage level."""
    row = np.arange(rows)
    colours = np.stack([row, 255 - row, (row - 77) % 256], axis=1).astype(np.uint8)  # three different channels
    pixels = np.repeat(colours[:, None, :], len(levels), axis=1)
    coverage = np.repeat(levels.astype(np.uint8)[None, :], rows, axis=0)
    keys = colours[:, 0].astype(np.int64) << 16 | colours[:, 1].astype(np.int64) << 8 | colours[:, 2]
    layers = ss._Layers(keys.tolist(), np.repeat(row.astype(np.uint8)[:, None], len(levels), axis=1),
                        [len(levels)] * rows)
    layers.lay(0, 0, coverage, rgb(PALETTE[name]))
    pasted = Image.fromarray(pixels)
    pasted.paste(rgb(PALETTE[name]), (0, 0, len(levels), rows), Image.fromarray(coverage))
    return layers.picture(), np.asarray(pasted)


def test_outlines_are_laid_on_the_paper_as_pillow_pastes_through_a_mask():
    """``_Layers.lay`` blends a colour into the picture with numpy; every pixel value under every coverage level
    must come out as Pillow's paste through the same mask would make it (256 x 256 colours: past the palette)."""
    for name in ("red", "yellow", "gray"):
        picture, pasted = _laid_and_pasted(256, np.arange(256), name)
        assert picture.mode == "RGB" and np.array_equal(np.asarray(picture), pasted), name


def test_layers_within_256_colours_are_the_palette_picture_the_core_writes():
    """Laid within 256 colours, the picture is the core's palette image of the pasted RGB pixels: the same PNG
    bytes (its colours ascending, the ones no pixel shows any more left out)."""
    for name in ("red", "blue", "gray"):
        picture, pasted = _laid_and_pasted(40, np.array([0, 64, 128, 191, 255, 255]), name)
        assert picture.mode == "P" and np.array_equal(np.asarray(picture.convert("RGB")), pasted), name
        assert encode_png(picture) == encode_png(Image.fromarray(pasted))


def _compose_by_pasting(scene: dict) -> Image.Image:
    """The picture as Pillow draws it in RGB: graph paper, each outline's supersampled mask (Pillow's own curve
    joints) pasted in its colour, each letter stamped."""
    width, height = scene["image_size"]
    s = spatial.SUPERSAMPLE
    picture = graph_paper(width, height)
    for shape in scene["shapes"]:
        points = ss.outline(shape)
        x0 = max(0, int(min(p[0] for p in points)) - 2 * ss.STROKE)
        y0 = max(0, int(min(p[1] for p in points)) - 2 * ss.STROKE)
        x1 = min(width, int(max(p[0] for p in points)) + 2 * ss.STROKE + 1)
        y1 = min(height, int(max(p[1] for p in points)) + 2 * ss.STROKE + 1)
        mask = Image.new("L", ((x1 - x0) * s, (y1 - y0) * s), 0)
        ImageDraw.Draw(mask).line([((x - x0) * s - 0.5, (y - y0) * s - 0.5) for x, y in points], fill=255,
                                  width=ss.STROKE * s, joint="curve")
        picture.paste(rgb(shape["hex"]), (x0, y0, x1, y1), mask.reduce(s))
    for shape in scene["shapes"]:
        stamp_text(picture, tuple(shape["label"]), shape["letter"], scene["label_size"], anchor="mm")
    return picture


@pytest.mark.parametrize("metric", words.METRICS)
def test_composed_indices_give_the_png_of_the_picture_pillow_draws(metric):
    """``compose`` builds palette indices; its PNG must be the one the core writes for the RGB picture."""
    for built in build_run(TASK, 8, {"metric": metric}, seed=31):
        scene = built.item.metadata["scene"]
        assert encode_png(ss.compose(scene)) == encode_png(_compose_by_pasting(scene))


def test_graph_paper_indices_and_counts_are_the_paper():
    for width, height in [(505, 555), (1800, 1800), (129, 257), (33, 3), (1, 1), (640, 128)]:
        keys, indices = graph_paper_indices(width, height)
        palette = np.array([[k >> 16, k >> 8 & 255, k & 255] for k in keys], np.uint8)
        assert np.array_equal(palette[indices], np.asarray(graph_paper(width, height)))
        assert np.bincount(indices.ravel(), minlength=len(keys)).tolist() == graph_paper_counts(width, height).tolist()
