"""``bench verify`` proves items from disk (record + pixels), ``--reproduce`` re-derives them, and a verify
failure on an accepted item is a bug reported at once, never retried."""

from __future__ import annotations

import json

import pytest
import toy_plugin
from click.testing import CliRunner
from PIL import Image, ImageDraw

from bench_core.cli import main
from bench_core.dataset import read_manifest, write_manifest
from bench_core.errors import VerifyDisagreement
from bench_core.generation import build_item, round_floats
from bench_core.images import encode_png, sha256
from bench_core.task import PixelTolerance
from bench_core.verification import compare_pixels


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _generate(out, count=4):
    result = invoke("generate", "toy", "--out", str(out), "--count", str(count), "--seed", "2")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]


def _forge(out, lines):
    """Replace items.jsonl and re-seal the manifest, as a forger covering their tracks would."""
    (out / "items.jsonl").write_text("\n".join(lines) + "\n")
    write_manifest(out, read_manifest(out)["runs"])


def _rewrite_image(out, record, draw_extra):
    """Replace an item's PNG by a doctored one and update its recorded checksum, as a forger would."""
    path = out / record["images"][0]
    image = Image.open(path).convert("RGB")
    draw_extra(ImageDraw.Draw(image))
    png = encode_png(image)
    path.write_bytes(png)
    lines = (out / "items.jsonl").read_text().splitlines()
    for k, line in enumerate(lines):
        if json.loads(line)["id"] == record["id"]:
            record = {**record, "image_sha256": [sha256(png)]}
            lines[k] = json.dumps(record)
    _forge(out, lines)


def test_verify_proves_from_disk_and_catches_a_doctored_image(toy_host, tmp_path):
    out = tmp_path / "d"
    records = _generate(out)
    result = invoke("verify", str(out))
    assert result.exit_code == 0 and "from disk" in result.output
    # an extra dot with a consistent checksum: only the artefact proof can see it
    _rewrite_image(out, records[1], lambda d: d.ellipse((100, 100, 116, 116), fill="black"))
    result = invoke("verify", str(out))
    assert result.exit_code != 0 and "ink outside the recorded dots" in result.output


def test_verify_catches_an_answer_edited_in_the_record(toy_host, tmp_path):
    out = tmp_path / "d"
    records = _generate(out)
    lines = (out / "items.jsonl").read_text().splitlines()
    lines[0] = json.dumps({**records[0], "answer": str(int(records[0]["answer"]) + 1)})
    _forge(out, lines)
    result = invoke("verify", str(out))
    assert result.exit_code != 0 and "1 of 4 items failed" in result.output


def test_reproduce_regenerates_and_names_the_comparison(toy_host, tmp_path):
    out = tmp_path / "d"
    records = _generate(out)
    result = invoke("verify", str(out), "--reproduce")
    assert result.exit_code == 0, result.output
    assert "reproduced toy/dots: records identical, images identical bytes" in result.output
    # a record whose metadata was edited still proves from disk (the toy ignores 'count') but does not reproduce
    lines = (out / "items.jsonl").read_text().splitlines()
    lines[2] = json.dumps({**records[2], "metadata": {**records[2]["metadata"], "count": 99}})
    _forge(out, lines)
    assert invoke("verify", str(out)).exit_code == 0
    result = invoke("verify", str(out), "--reproduce")
    assert result.exit_code != 0 and "metadata differs" in result.output


def test_a_verify_failure_on_an_accepted_item_is_reported_not_retried(toy_host, monkeypatch):
    import attrs

    calls = []
    real = toy_plugin.DOTS.generate

    def generate(params, random):  # a generator bug: the scene record forgets the first dot
        calls.append(random.index)
        problem = real(params, random)
        scene = dict(problem.metadata["scene"])
        scene["dots"] = scene["dots"][1:]
        return attrs.evolve(problem, metadata={**problem.metadata, "scene": scene})

    monkeypatch.setattr(toy_plugin.DOTS, "generate", generate)
    with pytest.raises(VerifyDisagreement, match=r"toy/dots 1\.0\.0 seed=4 index=2 .*ink outside the recorded dots"):
        build_item(toy_host, toy_host.task("toy/dots"), 4, 2, {})
    assert calls == [2]


def test_manifest_records_the_libraries_that_can_move_pixels(toy_host, tmp_path):
    out = tmp_path / "d"
    _generate(out, 2)
    environment = json.loads((out / "manifest.json").read_text())["environment"]
    assert {"python", "numpy", "Pillow", "shapely", "matplotlib"} <= set(environment)
    assert environment["numpy"]


def test_round_floats_is_recursive_and_folds_negative_zero():
    import numpy as np

    value = round_floats({"a": 0.1234567891, "b": [np.float64(-0.0000001), (1, 2.5)], "c": np.arange(2)})
    assert value == {"a": 0.123457, "b": [0.0, [1, 2.5]], "c": [0, 1]}
    assert json.dumps(value) == '{"a": 0.123457, "b": [0.0, [1, 2.5]], "c": [0, 1]}'


def test_round_floats_keeps_plain_values_as_they_are():
    """The fast path that keeps integers, strings, booleans and None in lists and mappings without a call gives what
    a call on each gives (the value itself; a bool stays a bool, not an int)."""
    import numpy as np

    value = {"n": [1, True, None, "x", [2, False, 3.25], {"k": None, "b": True}], "m": (0, -0.0, np.int64(4))}
    rounded = round_floats(value)
    assert rounded == {"n": [1, True, None, "x", [2, False, 3.25], {"k": None, "b": True}], "m": [0, 0.0, 4]}
    assert [type(v) for v in rounded["n"][:4]] == [int, bool, type(None), str]
    assert type(rounded["n"][4][1]) is bool and type(rounded["n"][5]["b"]) is bool
    assert json.dumps(rounded) == json.dumps(value, default=int).replace("-0.0", "0.0")


def test_pixel_tolerance_comparison():
    a = Image.new("RGB", (10, 10), "white")
    b = a.copy()
    b.putpixel((3, 3), (250, 255, 255))
    assert compare_pixels(a, b, PixelTolerance(10, 0.02)) is None
    assert "differ" in compare_pixels(a, b, PixelTolerance(2, 0.02))
    assert "differ" in compare_pixels(a, b, PixelTolerance(10, 0.001))


def test_disagreement_messages_cut_long_parameter_values():
    """A stored record line in the params does not bury the message of a verify disagreement."""
    from bench_core.generation import _brief

    text = _brief({"source": 3, "record": "x" * 500})
    assert "'source': 3" in text and "(502 chars)" in text and len(text) < 150
