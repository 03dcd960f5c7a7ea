"""``verifiers.tokens.read_tokens`` reads tokens in windows just large enough for the largest token's disc and
ring (``window_half``): it must give exactly what the full ``HALF`` windows give, on real pictures and on
records with planted faults (moved, turned, re-kinded, grown tokens)."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from bench_plugin_sphinx.verifiers import tokens
from bench_plugin_sphinx.verifiers.pixels import image_keys
from sphinx_helpers import build_run, task_of

from bench_core import decode_png


def _faulty(rows: list[list], rng: np.random.Generator) -> list[list]:
    rows = copy.deepcopy(rows)
    for row in rows:
        fault = int(rng.integers(6))
        if fault == 1:
            row[1] += float(rng.uniform(-4, 4))
            row[2] += float(rng.uniform(-4, 4))
        elif fault == 2:
            row[4] += float(rng.uniform(5, 60))
        elif fault == 3:
            row[0] = ("circle", "triangle", "square", "pentagon", "hexagon")[int(rng.integers(5))]
        elif fault == 4:
            row[3] += float(rng.uniform(-3, 8))
    return rows


@pytest.mark.parametrize("name", ["stack_count", "positional_count"])
def test_small_windows_read_as_the_full_ones(name):
    rng = np.random.default_rng(5)
    halves = set()
    for built in build_run(task_of(name), 30, seed=9):
        keys = image_keys(decode_png(built.pngs[0]))
        dark = tokens.dark_mask(keys)
        rows = built.item.metadata["scene"]["tokens"]
        for case in (rows, _faulty(rows, rng), _faulty(rows, rng)):
            halves.add(tokens.window_half(np.array([row[3] for row in case])))
            small = tokens.read_tokens(keys, dark, case)
            full = tokens.read_tokens(keys, dark, case, half=tokens.HALF)
            assert np.array_equal(small[0], full[0])
            assert small[1] == full[1]
            assert np.array_equal(small[2], full[2])
    assert min(halves) < tokens.HALF  # the small windows were exercised


def test_window_half_is_capped_and_holds_disc_and_ring():
    assert tokens.window_half(np.array([14.0])) == 19
    assert tokens.window_half(np.array([10.0, 17.5])) == 23
    assert tokens.window_half(np.array([30.0])) == tokens.HALF
    assert tokens.window_half(np.array([np.nan])) == tokens.HALF
