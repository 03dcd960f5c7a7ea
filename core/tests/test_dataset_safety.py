"""Datasets that cannot be silently corrupted (issue 9): every case here did something wrong without
saying so, or ended in a traceback, before it was fixed."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys

import pytest
import toy_plugin
from click.testing import CliRunner

from bench_core import host as host_module
from bench_core.cli import main
from bench_core.dataset import MANIFEST, DatasetWriter
from bench_core.errors import DatasetError
from bench_core.host import create_host


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def lines_of(out):
    return (out / "items.jsonl").read_text().splitlines()


@pytest.fixture
def dataset(toy_host, tmp_path):
    out = tmp_path / "d"
    result = invoke("generate", "toy", "--out", str(out), "--count", "5", "--seed", "1")
    assert result.exit_code == 0, result.output
    return out


def test_a_second_writer_fails_at_once_naming_the_holder(toy_host, tmp_path):
    with DatasetWriter(tmp_path):
        with pytest.raises(DatasetError, match=rf"another bench process \(pid {os.getpid()}\)"):
            DatasetWriter(tmp_path)
        result = invoke("generate", "toy", "--out", str(tmp_path), "--count", "2")
        assert result.exit_code != 0 and f"pid {os.getpid()}" in result.output
    with DatasetWriter(tmp_path):  # released on close
        pass


def test_a_second_generate_process_is_refused_while_one_writes(toy_host, tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from bench_core.dataset import DatasetWriter\n"
         f"w = DatasetWriter({str(tmp_path)!r}); print('locked', flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        result = invoke("generate", "toy", "--out", str(tmp_path), "--count", "2")
        assert result.exit_code != 0 and f"pid {holder.pid}" in result.output
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


def test_a_writer_that_finished_while_another_checked_leaves_no_duplicates(dataset, monkeypatch):
    # the second process read the folder before the first one wrote anything, then got the lock after the
    # first had finished: what it makes must be decided again under the lock
    with monkeypatch.context() as stale:
        stale.setattr("bench_core.dataset.existing_ids", lambda root: set())
        stale.setattr("bench_core.dataset.is_complete", lambda root: False)
        result = invoke("generate", "toy", "--out", str(dataset), "--count", "5", "--seed", "1")
    assert result.exit_code == 0 and "wrote 0 items (5 already present)" in result.output
    assert len(lines_of(dataset)) == 5
    assert invoke("verify", str(dataset)).exit_code == 0


def test_verify_checks_the_manifest_deleted_and_duplicated_lines(dataset):
    original = lines_of(dataset)
    (dataset / "items.jsonl").write_text("\n".join(original[1:]) + "\n")
    result = invoke("verify", str(dataset))
    assert result.exit_code != 0 and "4 items in items.jsonl, the manifest records 5" in result.output
    assert "the manifest disagrees with the items" in result.output and "1 of 4 items" not in result.output
    (dataset / "items.jsonl").write_text("\n".join([*original, original[0]]) + "\n")
    result = invoke("verify", str(dataset))
    assert result.exit_code != 0 and "occur more than once" in result.output


def test_a_missing_or_garbage_manifest_is_an_error_not_a_reset(dataset):
    manifest = dataset / MANIFEST
    manifest.write_text("{not json")
    result = invoke("verify", str(dataset))
    assert result.exit_code != 0 and "not readable JSON" in result.output
    result = invoke("generate", "toy", "--out", str(dataset), "--count", "5", "--seed", "1")
    assert result.exit_code != 0 and "holds items but" in result.output
    assert manifest.read_text() == "{not json"  # the history was not silently reset
    manifest.unlink()
    result = invoke("verify", str(dataset))
    assert result.exit_code != 0 and "manifest.json is missing" in result.output


def test_another_run_into_a_dataset_is_refused_unless_appended(dataset):
    result = invoke("generate", "toy", "--out", str(dataset), "--count", "5", "--seed", "2")
    assert result.exit_code != 0
    assert "bench generate toy --count 5 --seed 1" in result.output and "--append" in result.output
    assert len(lines_of(dataset)) == 5
    result = invoke("generate", "toy", "--out", str(dataset), "--count", "5", "--seed", "1")
    assert result.exit_code == 0 and "nothing to write" in result.output
    result = invoke("generate", "toy", "--out", str(dataset), "--count", "3", "--seed", "2", "--append")
    assert result.exit_code == 0 and len(lines_of(dataset)) == 8
    manifest = json.loads((dataset / MANIFEST).read_text())
    assert [r["seed"] for r in manifest["runs"]] == [1, 2] and manifest["complete"] is True
    assert invoke("verify", str(dataset)).exit_code == 0


def test_equivalent_parameters_name_the_same_items(toy_host, tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    invoke("generate", "toy", "--out", str(a), "--count", "3", "--set", "most=03")
    invoke("generate", "toy", "--out", str(b), "--count", "3", "--set", "most=3")
    assert lines_of(a) == lines_of(b)
    invoke("generate", "toy", "--out", str(c), "--count", "3", "--set", "most=5")  # the default, explicitly
    plain = tmp_path / "plain"
    invoke("generate", "toy", "--out", str(plain), "--count", "3")
    assert lines_of(c) == lines_of(plain)
    result = invoke("generate", "toy", "--out", str(plain), "--count", "3", "--set", "most=5")
    assert result.exit_code == 0 and "nothing to write" in result.output


def test_empty_out_is_refused_and_workers_are_capped(toy_host, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("generate", "toy", "--out", "", "--count", "2")
    assert result.exit_code != 0 and "--out" in result.output
    assert not (tmp_path / "items.jsonl").exists()
    result = CliRunner().invoke(main, ["generate", "toy", "--out", "w", "--count", "2", "--workers", "1000"])
    assert result.exit_code == 0
    assert "using" in result.output and "worker" in result.output and len(lines_of(tmp_path / "w")) == 2


def test_verify_of_an_empty_or_missing_dataset_is_an_error(toy_host, tmp_path):
    result = invoke("verify", str(tmp_path))
    assert result.exit_code != 0 and "does not exist" in result.output
    (tmp_path / "items.jsonl").write_text("")
    result = invoke("verify", str(tmp_path))
    assert result.exit_code != 0 and "holds no items" in result.output
    (tmp_path / "p.jsonl").write_text("")
    result = invoke("score", str(tmp_path), str(tmp_path / "p.jsonl"))  # no accuracy over nothing either
    assert result.exit_code != 0 and "holds no items; there is nothing to score" in result.output


def test_score_by_an_unknown_field_lists_the_fields(dataset, tmp_path):
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("")
    result = invoke("score", str(dataset), str(predictions), "--by", "nosuchfield")
    assert result.exit_code != 0
    assert "no item has a field 'nosuchfield'" in result.output and "count" in result.output


def test_score_labels_averages_as_over_all_items(dataset, tmp_path):
    record = json.loads(lines_of(dataset)[0])
    predictions = tmp_path / "p.jsonl"
    predictions.write_text(json.dumps({"id": record["id"], "response": record["answer"]}) + "\n")
    text = invoke("score", str(dataset), str(predictions)).output
    assert "answered (a final answer could be parsed) 1 of 5" in text


def test_a_plugin_that_calls_sys_exit_is_isolated(monkeypatch):
    class ExitsOnImport:
        name, dist = "exits", None

        def load(self):
            raise SystemExit(3)

    class ExitsInHook:
        def bench_register_tasks(self):
            sys.exit(4)

    monkeypatch.delenv("BENCH_STRICT_PLUGINS", raising=False)
    monkeypatch.setattr(host_module.importlib.metadata, "entry_points", lambda group: [ExitsOnImport()])
    host = create_host(plugins=[("toy", toy_plugin), ("hook", ExitsInHook())])
    assert host.records["exits"].status == "failed" and "SystemExit" in host.records["exits"].error
    assert host.records["hook"].status == "failed" and "toy/dots" in host.tasks


def test_an_implementation_that_calls_sys_exit_is_one_clear_line(toy_host, tmp_path, monkeypatch):
    import attrs

    (tmp_path / "exits_on_import.py").write_text("import sys\nsys.exit(5)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    task = attrs.evolve(toy_host.tasks["toy/dots"], name="exits", implementation="exits_on_import:X")
    monkeypatch.setitem(toy_host.tasks, task.id, task)
    monkeypatch.setitem(toy_host.owner, task.id, "toy")
    result = CliRunner().invoke(main, ["generate", "toy/exits", "--out", str(tmp_path / "d")])
    assert result.exit_code == 1  # not the plugin's 5
    assert "cannot load its implementation 'exits_on_import:X': SystemExit: 5" in result.output


def test_strict_plugins_give_one_clear_line(monkeypatch):
    class Broken:
        name, dist = "broken", None

        def load(self):
            raise ImportError("no module named 'numpyy'")

    monkeypatch.setattr(host_module.importlib.metadata, "entry_points", lambda group: [Broken()])
    monkeypatch.setattr(host_module, "_default_host", None)
    monkeypatch.setenv("BENCH_STRICT_PLUGINS", "1")
    result = CliRunner().invoke(main, ["plugins"])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "numpyy" in result.output
    assert "Traceback" not in result.output


def test_nothing_to_write_needs_no_write_access(dataset, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the writer was opened although nothing was left to write")

    monkeypatch.setattr("bench_core.dataset.DatasetWriter.__init__", refuse)
    result = invoke("generate", "toy", "--out", str(dataset), "--count", "5", "--seed", "1")
    assert result.exit_code == 0 and "nothing to write" in result.output


def test_disk_full_is_one_clear_line_and_loses_nothing(toy_host, tmp_path, monkeypatch):
    from bench_core import dataset as dataset_module

    real = dataset_module.DatasetWriter.write
    calls = []

    def write(self, item_json, paths, pngs):
        calls.append(1)
        if len(calls) == 3:
            self._handle = _FullDisk(self._handle)
        return real(self, item_json, paths, pngs)

    monkeypatch.setattr(dataset_module.DatasetWriter, "write", write)
    result = invoke("generate", "toy", "--out", str(tmp_path), "--count", "5")
    assert result.exit_code != 0 and "No space left on device" in result.output
    assert "Traceback" not in result.output
    assert len(lines_of(tmp_path)) == 2  # the two complete items, no torn line
    monkeypatch.setattr(dataset_module.DatasetWriter, "write", real)
    result = invoke("generate", "toy", "--out", str(tmp_path), "--count", "5")
    assert result.exit_code == 0 and len(lines_of(tmp_path)) == 5
    assert invoke("verify", str(tmp_path)).exit_code == 0


class _FullDisk:
    """A file handle on a disk that fills up part-way through the next line."""

    def __init__(self, handle):
        self.handle = handle

    def write(self, data):
        self.handle.write(data[:20])  # a partial line reaches the disk
        self.handle.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def close(self):
        self.handle.close()


def test_files_respect_the_umask(dataset):
    record = json.loads(lines_of(dataset)[0])
    for path in (dataset / record["images"][0], dataset / MANIFEST, dataset / "items.jsonl"):
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == 0o666 & ~_umask(), f"{path.name} has mode {oct(mode)}"


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_a_torn_last_line_says_how_to_repair_it_and_that_repairs_it(dataset):
    with open(dataset / "items.jsonl", "a") as handle:
        handle.write('{"id": "toy.dots.1.0000')
    result = invoke("verify", str(dataset))
    assert result.exit_code != 0 and "run the same 'bench generate' command again" in result.output
    assert invoke("generate", "toy", "--out", str(dataset), "--count", "5", "--seed", "1").exit_code == 0
    assert len(lines_of(dataset)) == 5 and invoke("verify", str(dataset)).exit_code == 0


def test_an_interrupted_run_is_reported_by_verify_until_resumed(dataset):
    manifest = json.loads((dataset / MANIFEST).read_text())
    # as written when the run began, before its items
    started = {**manifest, "complete": False, "counts": {}, "total": 0, "checksums": {"items.jsonl": None}}
    (dataset / MANIFEST).write_text(json.dumps(started))
    result = invoke("verify", str(dataset))
    assert result.exit_code != 0 and "did not finish" in result.output
    assert result.output.count("manifest:") == 1  # one problem, not every item written since the run began
    result = invoke("generate", "toy", "--out", str(dataset), "--count", "5", "--seed", "1")
    assert result.exit_code == 0
    assert invoke("verify", str(dataset)).exit_code == 0


def test_a_task_with_no_items_for_the_settings_is_named(toy_host, tmp_path, monkeypatch):
    """A selected task whose settings plan no item (a held-out task asked for its training set) is named on
    stderr; where no selected task plans any, generate fails before writing anything, instead of writing an
    empty dataset that ``bench verify`` then rejects."""
    import attrs

    (tmp_path / "idle_tasks.py").write_text(
        "from toy_plugin import Dots\n\n"
        "class Idle(Dots):\n"
        "    def expand(self, params, count):\n"
        "        return []\n\n"
        "IDLE = Idle()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    task = attrs.evolve(toy_host.tasks["toy/dots"], name="idle", implementation="idle_tasks:IDLE")
    monkeypatch.setitem(toy_host.tasks, task.id, task)
    monkeypatch.setitem(toy_host.owner, task.id, "toy")

    both = CliRunner().invoke(main, ["generate", "toy", "--out", str(tmp_path / "both"), "--count", "2"])
    assert both.exit_code == 0 and "wrote 2 items" in both.stdout
    assert "no items from toy/idle with these settings" in both.stderr

    alone = CliRunner().invoke(main, ["generate", "toy/idle", "--out", str(tmp_path / "alone")])
    assert alone.exit_code != 0 and "no items to make: toy/idle plans none" in alone.output
    assert not (tmp_path / "alone").exists()
