"""The icon motif family: our own drawings, a fixed train/test split, asymmetric icons that the self-symmetry
probe finds asymmetric at any turn."""

from __future__ import annotations

import json

import numpy as np
import pytest
from bench_plugin_sphinx.kit import icons, motifs, probe


def test_the_split_is_fixed_disjoint_and_eighty_twenty():
    train, test = set(icons.SPLITS["train"]), set(icons.SPLITS["test"])
    assert not train & test and train | test == set(icons.ICONS)
    assert len(icons.ICONS) == 50 and len(test) == 10
    assert icons.SPLITS["test"] == ("cloud", "lock", "anchor", "magnifier", "bulb", "book", "cactus", "paw", "chair",
                                    "kite")
    assert all(icons.split_of(n) == "test" for n in test) and all(icons.split_of(n) == "train" for n in train)
    assert set(icons.ASYMMETRIC) & test and set(icons.ASYMMETRIC) & train
    assert "icons" in motifs.PAPER_FAMILIES and "icons" not in motifs.FAMILIES  # a family of its own module


@pytest.mark.parametrize("name", list(icons.ICONS))
def test_every_icon_draws_one_solid_silhouette(name):
    spec = {"family": "icons", "mode": "sym", "colour": "blue",
            "params": {"name": name, "split": icons.split_of(name), "rotation": 0.0}}
    tile = icons.render(spec, 64)
    assert tile.shape == (64, 64, 3) and tile.dtype == np.uint8
    ink = probe.ink_mask(tile).mean()
    assert 0.05 < ink < 0.7, f"{name} inks {ink:.0%} of its tile"
    assert np.array_equal(tile, icons.render(json.loads(json.dumps(spec)), 64))


@pytest.mark.parametrize("name", icons.ASYMMETRIC)
def test_asymmetric_icons_have_no_symmetry_at_any_turn(name):
    rng = np.random.default_rng(len(name))
    for turn in [0.0, 45.0, 90.0, 135.0, *rng.uniform(0, 360, 6)]:
        spec = {"family": "icons", "mode": "asym", "colour": "red",
                "params": {"name": name, "split": icons.split_of(name), "rotation": float(turn)}}
        assert not probe.invariant_ops(icons.render(spec, 96), probe.REFLECTIONS + probe.ROTATIONS), (name, turn)


def test_symmetric_icons_are_caught_by_the_probe():
    for name in ("heart", "star", "hourglass", "glasses"):
        spec = {"family": "icons", "mode": "sym", "colour": "green",
                "params": {"name": name, "split": icons.split_of(name), "rotation": 0.0}}
        assert probe.invariant_ops(icons.render(spec, 96), probe.REFLECTIONS), name


def test_sampling_keeps_to_the_split_and_mode():
    rng = np.random.default_rng(5)
    for split in ("train", "test"):
        for mode in icons.MODES:
            specs = [icons.sample(rng, mode, split) for _ in range(60)]
            assert all(s["params"]["split"] == split and s["params"]["name"] in icons.SPLITS[split] for s in specs)
            assert all(s["family"] == "icons" and s["colour"] in motifs.PALETTE for s in specs)
            if mode == "asym":
                assert all(s["params"]["name"] in icons.ASYMMETRIC for s in specs)
            assert json.loads(json.dumps(specs)) == specs
    again = icons.sample(np.random.default_rng(9), "asym", "test")
    assert again == icons.sample(np.random.default_rng(9), "asym", "test")
    with pytest.raises(ValueError, match="split"):
        icons.sample(rng, "asym", "validation")
    with pytest.raises(ValueError, match="unknown icon"):
        icons.geometry("unicorn")
