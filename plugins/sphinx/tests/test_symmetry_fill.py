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
        tiles = [np.asarray(built.images[0].convert("RGB").crop(box)) for box in scene["option_boxes"]]
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


# -- equalities the speed-ups rely on ------------------------------------------------------------------------------


def test_the_canvas_composition_equals_pils_paste_and_the_kept_caption_bands():
    """compose writes the tiles into a numpy canvas and pastes kept caption bands: the bordered tiles PIL's paste
    puts there, and a caption band is PIL's caption on white with its edge greys snapped to LABEL_LEVELS levels
    (at most half a step off)."""
    from bench_plugin_sphinx.kit import layout
    from PIL import ImageDraw

    for rule in ("both-axes", "main-diagonal"):
        built = build(TASK, {"rule": rule}, seed=4)
        scene = built.item.metadata["scene"]
        canvas = Image.new("RGB", sf.SIZE, layout.WHITE)
        cells = sf.cell_contents(scene)
        for k, content in enumerate(cells):
            tile = np.zeros((sf.TILE, sf.TILE, 3), np.uint8) if k == scene["mask"] else sf._bordered(content)
            layout.paste(canvas, tile, *sf.grid_box(k)[:2])
        draw = ImageDraw.Draw(canvas)
        bands = np.zeros((sf.SIZE[1], sf.SIZE[0]), bool)
        for k, op in enumerate(scene["option_ops"]):
            left, top, right, bottom = sf.option_box(k)
            layout.paste(canvas, sf._bordered(probe.apply(op, cells[scene["mask"]])), left, top)
            layout.caption(draw, ((left + right) / 2, bottom + sf.LABEL_BAND / 2), layout.label(k), sf.LABEL_SIZE)
            bands[bottom: bottom + sf.LABEL_BAND, left:right] = True
        expected, picture = np.asarray(canvas).astype(int), sf.compose(scene).astype(int)
        assert np.array_equal(np.asarray(built.images[0].convert("RGB")), picture)
        step = 255 // (sf.LABEL_LEVELS - 1)
        assert np.abs(picture - expected).max() <= step // 2
        assert set(np.unique(picture[bands])) <= set(range(0, 256, step))
        assert np.array_equal(picture[~bands], expected[~bands])


def test_the_verifier_reads_colours_in_either_channel_order():
    """The verifier keys pixels as 0xBBGGRR (``image_keys``), the tests as 0xRRGGBB (``packed``): its checks only
    compare colours for equality (white and black read the same both ways), so the scores are the same."""
    from bench_plugin_sphinx.verifiers.pixels import image_keys

    built = build(TASK, {"rule": "anti-diagonal"}, seed=6)
    scene = built.item.metadata["scene"]
    left, top, right, bottom = scene["grid_region"]
    keys, colours = image_keys(built.images[0]), packed(np.asarray(built.images[0].convert("RGB")))
    assert np.array_equal(keys == verifier._WHITE, colours == verifier._WHITE)
    assert np.array_equal(keys == verifier._BLACK, colours == verifier._BLACK)
    for rule in words.RULES:
        assert verifier.symmetry_score(keys[top:bottom, left:right], rule) == verifier.symmetry_score(
            colours[top:bottom, left:right], rule)


def test_the_symmetry_score_counts_equal_the_mean_over_the_coloured_pixels():
    """symmetry_score divides whole counts: exactly the mean of the mirror matches over the coloured pixels."""
    rng = np.random.default_rng(3)
    for rule in words.RULES:
        grid = np.where(rng.random((40, 40)) < 0.6, verifier._WHITE, rng.integers(0, 3, (40, 40)))
        grid[:, :20] = grid[:, 20:][:, ::-1]
        coloured = grid != verifier._WHITE
        expected = min(float((mirror(grid) == grid)[coloured].mean()) for mirror in verifier._mirrors(rule))
        assert verifier.symmetry_score(grid, rule) == expected


def test_the_palette_picture_is_the_png_of_the_composed_picture():
    """Items are drawn straight into a palette image (``sf.picture``): it must show ``compose``'s pixels, and its
    PNG must be byte for byte the one the core writes for ``compose``'s RGB picture (palette: the colours shown,
    ascending, nothing else), for every rule, and a picture of more than 256 colours is the RGB picture."""
    from bench_core import encode_png

    fallback = build(TASK, seed=2026, index=27)  # 582 colours: written as RGB
    assert fallback.images[0].mode == "RGB"
    for built in [fallback, *(b for rule in words.RULES for b in build_run(TASK, 2, {"rule": rule}, seed=6))]:
        image, rgb = built.images[0], sf.compose(built.item.metadata["scene"])
        assert (image.mode == "P") == (Image.fromarray(rgb).getcolors(256) is not None), built.item.id
        assert np.array_equal(np.asarray(image.convert("RGB")), rgb), built.item.id
        assert built.pngs[0] == encode_png(Image.fromarray(rgb)), built.item.id


def test_a_star_polygon_needing_more_than_200_draws_is_found():
    """Seed 6, item 13258 with star polygons: it needs 210 motif draws (a star polygon passes in ~5 %), and 200
    stopped the run.  With 2,000 the item is built (and verified)."""
    built = build(TASK, {"motif": "star_polygon"}, 6, 13258)
    assert built.item.answer in "ABCD"
