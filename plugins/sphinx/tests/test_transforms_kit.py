"""kit.transforms: one convention for every map, shared by the words, the renderer and the verifier."""

from __future__ import annotations

import numpy as np
import pytest
from bench_plugin_sphinx import transform_words as words
from bench_plugin_sphinx.kit import motifs, probe
from bench_plugin_sphinx.kit import transforms as tf
from bench_plugin_sphinx.verifiers import transforms as px
from PIL import Image


def _asymmetric(side: int = 10) -> np.ndarray:
    rng = np.random.default_rng(7)
    return rng.integers(0, 255, (side, side, 3), dtype=np.uint8)


def test_the_names_agree_everywhere():
    assert tf.TRANSFORMS == words.TRANSFORMS
    assert set(words.ACTIONS) == set(tf.D4_MAPS) == set(px.FORMULAS)
    assert set(words.LABELS) == {*tf.TRANSFORMS, "none"}
    assert set(words.DIRECTIONS) == set(tf.KING_MOVES)


_PIL = Image.Transpose


@pytest.mark.parametrize(("op", "pil"), [("rot90", _PIL.ROTATE_90), ("rot180", _PIL.ROTATE_180),
                                         ("rot270", _PIL.ROTATE_270), ("mirror", _PIL.FLIP_LEFT_RIGHT),
                                         ("flip", _PIL.FLIP_TOP_BOTTOM), ("transpose", _PIL.TRANSPOSE),
                                         ("transverse", _PIL.TRANSVERSE)])
def test_renderer_verifier_and_pil_agree_on_every_map(op, pil):
    """Spec 7.2 #3: PIL's rotate(+90) is counterclockwise, TRANSPOSE the ↘ diagonal, TRANSVERSE the ↙ one."""
    array = _asymmetric()
    by_pil = np.asarray(Image.fromarray(array).transpose(pil))
    assert np.array_equal(probe.apply(op, array), by_pil)
    assert np.array_equal(px.mapped(array, op), by_pil)


def test_a_quarter_turn_counterclockwise_takes_the_right_to_the_top():
    tile = np.full((10, 10, 3), 255, np.uint8)
    tile[4:6, 8:10] = 0  # a mark at the right edge
    turned = px.mapped(tile, "rot90")
    assert (turned[0:2, 4:6] == 0).all() and (turned[4:6, 8:10] == 255).all()
    assert "counterclockwise" in words.ACTIONS["rot90"] and "clockwise" in words.ACTIONS["rot270"]


def test_the_paper_is_invariant_under_every_map_and_translation_steps():
    blank = tf.paper()
    for op in tf.D4_MAPS:
        assert np.array_equal(probe.apply(op, blank), blank), op
    assert np.array_equal(px.blank_paper({"side": tf.SIDE, "minor": tf.MINOR, "minor_rgb": tf.MINOR_RGB,
                                          "axis_rgb": tf.AXIS_RGB}), blank)
    assert tf.STEP % tf.MINOR == 0 and tf.STEP * 6 == tf.SIDE


def test_every_king_move_keeps_the_largest_motif_inside():
    side = 2 * (int(tf.MOTIF_FRACTION[1] * tf.SIDE) // 2)
    motif = np.zeros((side, side, 3), np.uint8)
    for vector in tf.KING_MOVES:
        tf.place(motif, vector)
    with pytest.raises(ValueError, match="leaves"):
        tf.place(motif, (2, 0))


def test_symmetric_motifs_are_rejected_as_degenerate():
    rng = np.random.default_rng(3)
    square = motifs.sample("polygon", rng, "sym")
    assert tf.degenerate(motifs.render(square, 120))
    _spec, art = tf.draw_motif("glyph", np.random.default_rng(4))
    assert not tf.degenerate(art)
    tiles = [tf.transformed(art, op) for op in tf.D4_MAPS]
    assert tf.pairwise_distinct(tiles)


def _draw_by_definition(family, rng, probe_side):
    """``draw_motif``'s loop written out: a spec must pass the degeneracy test at ``probe_side`` (when given),
    then at the motif's own side."""
    side = tf.motif_side(rng)
    for _ in range(40):
        spec = motifs.sample(family, rng, "asym")
        if probe_side is not None and tf.degenerate(motifs.render(spec, probe_side)):
            continue
        art = motifs.render(spec, side)
        if not tf.degenerate(art):
            return spec, art
    return None


@pytest.mark.parametrize("probe_side", [tf.PROBE_SIDE, None])
def test_draw_motif_probes_the_small_rendering_only_when_asked(probe_side):
    """The default probes each spec at ``PROBE_SIDE`` px first (transform-result-identify); without the probe
    (transform-pair-infer) only the rendering shown is tested.  Either way the motif has no self-symmetry."""
    for k, family in enumerate(("gear", "segment", "polygon", "glyph", "clock")):
        expected = _draw_by_definition(family, np.random.default_rng(k), probe_side)
        drawn = (tf.draw_motif(family, np.random.default_rng(k)) if probe_side == tf.PROBE_SIDE
                 else tf.draw_motif(family, np.random.default_rng(k), probe_side=probe_side))
        assert drawn[0] == expected[0] and np.array_equal(drawn[1], expected[1])
        assert not tf.degenerate(drawn[1])
