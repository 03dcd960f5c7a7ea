"""VCS word panels: verify must catch a word drawn unlike its record stroke by stroke.  Letter strokes are only
a few pixels wide (about 3.3 px on the 600x800 canvas), so almost no pixel inside one lies away from its edges;
every single stroke left out, or moved by a few pixels, and the word recoloured must still show in the
pixels.  The verifier's stroke raster, all segments of a stroke at once, is held to the segment-by-segment
one it replaced."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from bench_core import (
    assert_rejected,
    build_item,
    create_host,
    decode_png,
    hookimpl,
    plan,
    verify_item,
)
from bench_plugin_mindseye.conceptual_slippage import TASK as IMPL
from bench_plugin_mindseye.descriptions.conceptual_slippage import TASK
from bench_plugin_mindseye.slippage_panels import GRID, PALETTE
from bench_plugin_mindseye.verifiers import conceptual_slippage as verifier


class _Plugin:
    @hookimpl
    def bench_register_tasks(self):
        return [TASK]


_HOST = create_host(entry_points=False, plugins=[("test-conceptual-slippage-words", _Plugin())])


def _word_item(size, seed):
    """A word item as generated (verify accepts it)."""
    job = plan(TASK, {"concept": "word", "size": size}, seed, 1)[0]
    built = build_item(_HOST, TASK, job.seed, job.index, job.params)
    assert not verify_item(_HOST, TASK, built.item, [decode_png(p) for p in built.pngs])
    return built


def _compose(built, contents):
    """The item's picture with these panel contents in letter order (drawn by the generator's own code)."""
    layout = IMPL.layout(built.item.params["size"])
    image, _ = layout.compose([], [IMPL.draw_option(c, layout.tile) for c in contents], (), "ABCDEF")
    return image


def _strokes_changed(panel, side):
    """The panel's word drawn unlike it, by name: each stroke left out, each stroke moved by two pixels right
    and two down, and the whole word in a clearly other colour."""
    word = list(panel.word)
    shift = np.array([2.0, 2.0]) / side
    out = {}
    for s in range(len(word)):
        out[f"stroke {s} left out"] = {"word": (*word[:s], *word[s + 1 :])}
        out[f"stroke {s} moved"] = {"word": (*word[:s], word[s] + shift, *word[s + 1 :])}
    other = next(c for c in PALETTE if max(abs(a - b) for a, b in zip(c, panel.word_colour, strict=True)) > 90)
    out["recoloured"] = {"word_colour": other}
    return {name: attrs.evolve(panel, **change, tiles={}) for name, change in out.items()}


@pytest.mark.parametrize(("size", "seed"), [("600x800", 3), ("1024x1024", 2)])
def test_every_stroke_of_a_word_left_out_or_moved_is_caught(size, seed):
    built = _word_item(size, seed)
    contents = [o.content for o in built.problem.structure[1]]
    side = IMPL.layout(size).tile
    answer = "ABCDEF".index(built.item.answer)
    for k in (answer, (answer + 3) % 6):  # the mirrored word and a word written the right way round
        for name, changed in _strokes_changed(contents[k], side).items():
            drawn = list(contents)
            drawn[k] = changed
            assert_rejected(_HOST, TASK, built.item, [_compose(built, drawn)], f"{size}: panel {k} {name}")


def _stroke_mask_segment_by_segment(strokes, radius, side):
    """``verifier._stroke_mask`` by its definition, one segment and its own window at a time (the routine it
    replaced)."""
    import itertools
    import math

    mask = np.zeros((side, side), dtype=bool)
    for stroke in strokes:
        for a, b in itertools.pairwise(stroke):
            r0 = max(0, math.floor(min(a[1], b[1]) - radius - 0.5))
            r1 = min(side, math.ceil(max(a[1], b[1]) + radius + 0.5))
            c0 = max(0, math.floor(min(a[0], b[0]) - radius - 0.5))
            c1 = min(side, math.ceil(max(a[0], b[0]) + radius + 0.5))
            if r1 <= r0 or c1 <= c0:
                continue
            ys, xs = np.mgrid[r0:r1, c0:c1] + 0.5
            d = b - a
            t = np.clip(((xs - a[0]) * d[0] + (ys - a[1]) * d[1]) / max(float(d @ d), 1e-12), 0.0, 1.0)
            gap2 = (xs - a[0] - t * d[0]) ** 2 + (ys - a[1] - t * d[1]) ** 2
            mask[r0:r1, c0:c1] |= gap2 <= radius * radius
    return mask


def test_stroke_mask_is_the_segment_by_segment_mask():
    # all segments of a stroke at once in the stroke's window: the same pixels, bit for bit, at the recorded
    # width and at widths around it (also strokes pushed partly off the panel)
    rng = np.random.default_rng(5)
    for size, seed in (("600x800", 3), ("1024x1024", 2)):
        job = plan(TASK, {"concept": "word", "size": size}, seed, 1)[0]
        scene = build_item(_HOST, TASK, job.seed, job.index, job.params).item.metadata["scene"]
        side = IMPL.layout(size).tile
        for description in scene["options"]:
            word = description["word"]
            strokes = [np.asarray(f, dtype=float).reshape(-1, 2) * side / GRID for f in word["strokes"]]
            strokes += [s + rng.uniform(-0.6, 0.6, 2) * side for s in strokes[:3]]
            for radius in (float(word["stroke"]) * side / GRID / 2, *rng.uniform(0.4, 4.0, 3)):
                assert np.array_equal(
                    verifier._stroke_mask(strokes, radius, side),
                    _stroke_mask_segment_by_segment(strokes, radius, side),
                )
