"""The glyph palette stays distinguishable, and every glyph renders in its own colour and shape as the
artefact verifier reads them back."""

from __future__ import annotations

import itertools

import numpy as np

from bench_plugin_traversal.artefact import hue_name, pixel_failures, read_scene
from bench_plugin_traversal.glyphs import COLOURS, VOCABULARY
from bench_plugin_traversal.render import Scene, render_scene


def _lab(rgb):
    c = np.array(rgb, dtype=float) / 255.0
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ c
    xyz /= np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_colours_are_far_apart_in_lab():
    # CIE76 distance; 25 is well beyond "clearly different" (about 10) for every pair
    for (a, ra), (b, rb) in itertools.combinations(COLOURS.items(), 2):
        assert np.linalg.norm(_lab(ra) - _lab(rb)) > 25, (a, b)


def test_the_verifier_names_every_palette_colour():
    assert all(hue_name(rgb) == name for name, rgb in COLOURS.items())


def test_every_glyph_renders_in_its_colour_and_shape():
    points = np.array([(60 + (i % 8) * 75.25, 80 + (i // 8) * 110.5) for i in range(len(VOCABULARY))])
    scene = Scene.on_vertices(672, points, VOCABULARY)
    assert pixel_failures(render_scene(scene), read_scene(scene.record())) == []
