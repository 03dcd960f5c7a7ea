"""``bench audit``: the blind-option probe flags options that give the answer away, and passes fair ones."""

from __future__ import annotations

import json

import attrs
import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image, ImageDraw

from bench_core.audit import answer_index, audit_dataset
from bench_core.cli import main
from bench_core.dataset import DatasetWriter
from bench_core.images import encode_png, sha256
from bench_core.types import Item

BOXES = [[10, 10, 90, 90], [110, 10, 190, 90], [210, 10, 290, 90], [310, 10, 390, 90]]


def _item(index: int, task: str, answer: str, options, images=(), digests=(), scene=None, answer_type="option"):
    return Item(
        id=f"toy.{task}.0.{index:06d}", family="toy", task=task, version="1.0.0", plugin={}, seed=0, index=index,
        params={}, variant=None, pair=None, question="Which?", options=options, answer=answer,
        answer_type=answer_type, images=images, image_sha256=digests, metadata={"scene": scene or {}},
    )


def _write_panels(root, task: str, count: int, leaky: bool) -> None:
    rng = np.random.default_rng(7)
    with DatasetWriter(root) as writer:
        for i in range(count):
            radii = rng.uniform(8, 36, 4)
            answer = int(np.argmax(radii)) if leaky else int(rng.integers(4))
            image = Image.new("RGB", (400, 100), "white")
            draw = ImageDraw.Draw(image)
            for (left, top, right, bottom), r in zip(BOXES, radii, strict=True):
                cx, cy = (left + right) / 2, (top + bottom) / 2
                draw.rectangle((left, top, right - 1, bottom - 1), outline=(170, 170, 170))
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 30, 30))
            png = encode_png(image)
            rel = f"images/{task}_{i}.png"
            item = _item(i, task, "ABCD"[answer], "ABCD", (rel,), (sha256(png),),
                         {"image_size": [400, 100], "option_boxes": BOXES})
            writer.write(item.to_json(), item.images, (png,))


def test_a_panel_size_leak_is_found(tmp_path):
    _write_panels(tmp_path, "leaky", 200, leaky=True)
    (result,) = audit_dataset(tmp_path)
    assert result.kind == "image" and not result.ok
    assert result.accuracy > 0.9
    assert any("ink" in rule or "extent" in rule for rule, _ in result.leaks)


def test_fair_panels_stay_within_chance(tmp_path):
    _write_panels(tmp_path, "fair", 300, leaky=False)
    (result,) = audit_dataset(tmp_path)
    assert result.ok, result
    assert result.chance == pytest.approx(0.25)


def test_text_options_middle_value_leak_and_cli_exit_code(tmp_path):
    rng = np.random.default_rng(3)
    with DatasetWriter(tmp_path) as writer:
        for i in range(200):
            centre = int(rng.integers(3, 20))
            options = [str(v) for v in sorted({centre - 1, centre, centre + 2})]
            order = rng.permutation(3)
            shown = [options[k] for k in order]
            item = _item(i, "count", str(centre), shown, answer_type="integer")
            writer.write(item.to_json(), (), ())
    (result,) = audit_dataset(tmp_path)
    assert result.kind == "text" and not result.ok and result.accuracy > 0.9
    outcome = CliRunner().invoke(main, ["audit", str(tmp_path), "--json"])
    assert outcome.exit_code == 1
    assert json.loads(outcome.stdout.split("\nError")[0])[0]["ok"] is False


def test_answer_index_reads_letters_texts_and_numbers():
    assert answer_index(_item(0, "t", "C", "ABCD")) == 2
    assert answer_index(_item(0, "t", "7", ["5", "7"], answer_type="integer")) == 1
    assert answer_index(_item(0, "t", "2", ["Rotation", "Mirror"], answer_type="integer")) == 1
    assert answer_index(_item(0, "t", "3", None, answer_type="integer")) is None


def test_an_empty_dataset_is_an_error(tmp_path):
    (tmp_path / "items.jsonl").write_text("")
    outcome = CliRunner().invoke(main, ["audit", str(tmp_path)])
    assert outcome.exit_code != 0 and "no items" in outcome.output


def test_the_twins_of_a_pair_share_a_fold(tmp_path):
    """Two renderings of one problem (a Polaris pair) share options and answer: were they in different folds,
    the training twin's answer-rate prior would give the test twin's answer away.  Fair options, paired."""
    rng = np.random.default_rng(11)
    with DatasetWriter(tmp_path) as writer:
        for p in range(150):
            options = [str(v) for v in rng.choice(10**6, size=4, replace=False)]
            answer = options[int(rng.integers(4))]
            for variant in ("cartesian", "polar"):
                index = 2 * p + (variant == "polar")
                item = attrs.evolve(_item(index, "pairs", answer, options, answer_type="integer"),
                                    variant=variant, pair=f"0:{p}")
                writer.write(item.to_json(), (), ())
    (result,) = audit_dataset(tmp_path)
    assert result.items == 300
    assert result.ok, result
    assert result.sd == pytest.approx((0.25 * 0.75 / 150) ** 0.5, abs=1e-4)  # one draw per pair
