"""The dataset writer: atomic items, torn-line repair, resume, manifest."""

from __future__ import annotations

import json

import pytest

from bench_core.dataset import DatasetWriter, read_items, write_manifest
from bench_core.errors import DatasetError
from bench_core.generation import build_item


def test_torn_tail_is_dropped_and_ids_are_known(toy_host, tmp_path):
    task = toy_host.task("toy/dots")
    builts = [build_item(toy_host, task, 0, i, {}) for i in range(3)]
    with DatasetWriter(tmp_path) as writer:
        for built in builts[:2]:
            writer.write(built.item.to_json(), built.item.images, built.pngs)
    with open(tmp_path / "items.jsonl", "ab") as handle:
        handle.write(builts[2].item.to_json().encode()[:25])
    writer = DatasetWriter(tmp_path)
    assert builts[0].item.id in writer and builts[2].item.id not in writer
    writer.write(builts[2].item.to_json(), builts[2].item.images, builts[2].pngs)
    writer.close()
    assert [i.id for i in read_items(tmp_path)] == [b.item.id for b in builts]
    manifest = write_manifest(tmp_path, {"seed": 0})
    assert manifest["counts"] == {"toy/dots": 3}
    assert set(manifest["checksums"]) == {"items.jsonl", *(b.item.images[0] for b in builts)}


def test_a_corrupt_complete_line_is_reported_not_overwritten(tmp_path):
    (tmp_path / "items.jsonl").write_text('{"id": "a"}\nnot json\n')
    with pytest.raises(DatasetError, match=r"items\.jsonl:2"):
        DatasetWriter(tmp_path)
    assert (tmp_path / "items.jsonl").read_text() == '{"id": "a"}\nnot json\n'


def test_item_json_round_trip(toy_host):
    built = build_item(toy_host, toy_host.task("toy/dots"), 5, 1, {"colour": "red"})
    record = json.loads(built.item.to_json())
    assert list(record)[:4] == ["id", "family", "task", "version"]
    assert record["plugin"] == {"distribution": None, "version": None}
    again = type(built.item).from_record(record)
    assert again.to_json() == built.item.to_json()
