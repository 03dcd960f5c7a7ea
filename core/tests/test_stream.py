"""The in-process stream of items (``bench_core.stream``) and the export of a dataset folder to a Hugging Face
dataset (``bench_core.to_hf_dataset``), on the toy plugin's task."""

from __future__ import annotations

import json
import sys
import types

import pytest

from bench_core import ParameterError, build_item, plan, stream
from bench_core.images import decode_png
from bench_core.stream import shard_of


def test_the_stream_yields_the_items_bench_generate_writes(toy_host):
    task = toy_host.task("toy/dots")
    streamed = list(stream("toy", seed=3, count=6, encode_png=True))
    assert [s.position for s in streamed] == list(range(6))
    for s, job in zip(streamed, plan(task, {}, 3, 6), strict=True):
        built = build_item(toy_host, task, job.seed, job.index, job.params, job.suffix)
        assert s.item == built.item and s.pngs == built.pngs  # same record, same bytes
        assert [im.tobytes() for im in s.images] == [decode_png(p).tobytes() for p in built.pngs]
        assert s.record == {"answer": built.item.answer, "answer_type": "integer", "options": None,
                            "task": "toy/dots", "version": "1.0.0"}


def test_without_png_encoding_the_items_are_the_same_but_for_the_hashes(toy_host):
    plain = list(stream("toy/dots", seed=1, count=4))
    encoded = list(stream("toy/dots", seed=1, count=4, encode_png=True))
    for a, b in zip(plain, encoded, strict=True):
        assert a.pngs is None and a.item.image_sha256 == ()
        assert json.loads(a.item.to_json()) == {**json.loads(b.item.to_json()), "image_sha256": []}
        assert [im.tobytes() for im in a.images] == [im.tobytes() for im in b.images]
        assert a.images[0].mode == "RGB"


def test_settings_apply_as_for_generate_and_a_bad_one_is_refused(toy_host):
    items = [s.item for s in stream("toy", count=3, settings={"colour": "red", "most": 2})]
    assert all(i.params["colour"] == "red" and int(i.answer) <= 2 for i in items)
    assert items[0].id.startswith("toy.dots.0.000000.")  # the id suffix of a run with settings
    with pytest.raises(ParameterError, match="no selected task has a parameter 'size'"):
        next(stream("toy", settings={"size": 3}))
    with pytest.raises(ParameterError, match="not allowed"):
        next(stream("toy", settings={"colour": "blue"}))
    with pytest.raises(ParameterError, match="start at least 0"):
        next(stream("toy", start=-1))


def test_an_endless_stream_goes_past_the_first_plan(toy_host):
    positions = []
    for s in stream("toy", seed=2, start=60, worker=(0, 2)):
        positions.append(s.position)
        if len(positions) == 10:
            break
    assert positions == list(range(60, 80, 2))


def test_shards_partition_the_stream_and_a_resumed_stream_continues_it(toy_host):
    whole = [s.item.id for s in stream("toy", count=12)]
    shards = [[s.item.id for s in stream("toy", count=12, rank=r, world_size=2, worker=(w, 2))]
              for r in range(2) for w in range(2)]
    together = [item_id for shard in shards for item_id in shard]
    assert sorted(together) == sorted(whole) and len(set(together)) == 12
    assert shards[1] == whole[1::4]  # rank 0, worker 1 of 2: shard 1 of 4
    resumed = [s.item.id for s in stream("toy", count=12, start=5)]
    assert resumed == whole[5:]
    assert [s.position for s in stream("toy", count=12, start=5, worker=(1, 3))] == [7, 10]


def test_data_loader_workers_are_found_through_torch_without_importing_it(monkeypatch):
    """Inside a torch DataLoader worker (torch.utils.data imported), get_worker_info() decides the worker; an
    initialised torch.distributed gives the rank.  Without torch, one shard."""
    assert shard_of() == (0, 1)
    info = types.SimpleNamespace(id=2, num_workers=4)
    data = types.SimpleNamespace(get_worker_info=lambda: info)
    dist = types.SimpleNamespace(is_available=lambda: True, is_initialized=lambda: True, get_rank=lambda: 1,
                                 get_world_size=lambda: 3)
    monkeypatch.setitem(sys.modules, "torch.utils.data", data)
    monkeypatch.setitem(sys.modules, "torch.distributed", dist)
    assert shard_of() == (1 * 4 + 2, 3 * 4)
    assert shard_of(rank=0, world_size=1) == (2, 4)  # explicit arguments win
    with pytest.raises(ParameterError, match="not a shard"):
        shard_of(worker=(4, 4))


def test_a_preset_design_ends_the_stream_where_it_ends(toy_host, monkeypatch):
    from bench_core.task import implementation

    impl = implementation(toy_host.task("toy/dots"))
    monkeypatch.setattr(type(impl), "expand", lambda self, params, count: [dict(params)] * 3, raising=False)
    assert [s.position for s in stream("toy")] == [0, 1, 2]


# ---------------------------------------------------------------------------------------------------------
# Hugging Face datasets export
# ---------------------------------------------------------------------------------------------------------


def _write(toy_host, root, count=5):
    from bench_core.dataset import DatasetWriter

    with DatasetWriter(root) as writer:
        for s in stream("toy", seed=4, count=count, encode_png=True):
            writer.write(s.item.to_json(), s.item.images, s.pngs)


def test_export_to_a_hugging_face_dataset(toy_host, tmp_path):
    datasets = pytest.importorskip("datasets")
    from bench_core import to_hf_dataset, trl_reward

    _write(toy_host, tmp_path / "d")
    ds = to_hf_dataset(tmp_path / "d", cache_dir=tmp_path / "cache")
    assert isinstance(ds, datasets.Dataset) and len(ds) == 5
    assert list(ds.features) == ["id", "task", "version", "seed", "index", "variant", "question", "options",
                                 "answer", "answer_type", "images", "bench", "params", "metadata"]
    assert type(ds.features["images"].feature).__name__ == "Image"
    row = ds[0]
    assert row["task"] == "toy/dots" and row["options"] is None and row["images"][0].size == (128, 128)
    assert json.loads(row["metadata"])["count"] == int(row["answer"])
    answers = [f"\\boxed{{{a}}}" for a in ds["answer"]]
    assert trl_reward(None, answers, bench=ds["bench"]) == [1.0] * 5


def test_export_errors_are_one_clear_line(toy_host, tmp_path, monkeypatch):
    from bench_core import to_hf_dataset
    from bench_core.errors import DatasetError

    with pytest.raises(DatasetError, match="does not exist"):
        to_hf_dataset(tmp_path / "nothing")
    monkeypatch.setitem(sys.modules, "datasets", None)  # as if it were not installed
    _write(toy_host, tmp_path / "d", count=1)
    with pytest.raises(DatasetError, match=r"needs the 'datasets' package.*pip install 'bench-core\[hf\]'"):
        to_hf_dataset(tmp_path / "d")


def test_export_refuses_a_changed_image(toy_host, tmp_path):
    pytest.importorskip("datasets")
    from bench_core import to_hf_dataset
    from bench_core.errors import DatasetError

    _write(toy_host, tmp_path / "d", count=2)
    record = json.loads((tmp_path / "d" / "items.jsonl").read_text().splitlines()[1])
    (tmp_path / "d" / record["images"][0]).write_bytes(b"not the png")
    with pytest.raises(DatasetError, match="does not match the SHA-256"):
        to_hf_dataset(tmp_path / "d", cache_dir=tmp_path / "cache")
