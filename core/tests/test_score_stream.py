"""``bench score`` streams its inputs and gives the reports the whole-file scorer gave.

``fixtures/score_stream`` (built by ``fixtures/build_score_stream.py``) holds a dataset of every answer type,
scored three ways (a task not installed, an installed task keeping the core scorer, a task with its own
``score``), and a predictions file with malformed lines, repeated, unknown and missing ids and responses of
every kind; ``expected.json`` is what the scorer that loaded both files whole reported on them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from score_stream_case import BUILDER, DATA, EXPECTED

from bench_core.errors import DatasetError
from bench_core.predictions import PredictionIndex
from bench_core.report import format_report, load_predictions, score_dataset


def _report(root: Path, predictions: Path, case: str, *, macro: bool = False) -> dict:
    """The report as JSON gives it back (tuples are lists); without its ``macro`` means unless asked for (they
    were added after the reference reports were made, and are checked against their task tables)."""
    wrapper, by = BUILDER.CASES[case]
    report = score_dataset(root, predictions, by, host=BUILDER.host(wrapper))
    report["predictions_file"] = "predictions.jsonl"
    if not macro:
        report.pop("macro")
    return json.loads(json.dumps(report))


def test_the_fixture_inputs_are_what_the_builder_writes():
    lines, predictions = BUILDER.build()
    assert (DATA / "predictions.jsonl").read_bytes() == predictions
    written = [line for line in (DATA / "items.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert written == lines


@pytest.mark.parametrize("case", sorted(BUILDER.CASES))
def test_reports_are_the_whole_file_scorers(case):
    """Every number, id list and trace is what the scorer that read both files whole reported, float for
    float: the sums are added in the same order."""
    report = _report(DATA, DATA / "predictions.jsonl", case, macro=True)
    expected = EXPECTED[case]["report"]
    macro = report.pop("macro")
    assert report["by"] == expected["by"]
    assert report == expected
    assert format_report(report) == EXPECTED[case]["text"]
    tasks = [stats["accuracy"] for stats in expected["by"]["task"].values()]
    assert macro["tasks"] == len(tasks) and macro["accuracy"] == pytest.approx(sum(tasks) / len(tasks), abs=1e-12)


@pytest.mark.parametrize("part_bytes", [20_000, 5_000])
@pytest.mark.parametrize("case", sorted(BUILDER.CASES))
def test_worker_processes_give_the_same_reports(case, part_bytes, monkeypatch):
    """Scored in parts by two forked workers (parts of 20 kB or 5 kB here: many, cut mid-file; at 5 kB each
    worker is handed several parts at once), the reports are the same to the last bit."""
    from bench_core import score_workers

    monkeypatch.setattr(score_workers, "PART_BYTES", part_bytes)
    parts = len(score_workers.parts(DATA / "items.jsonl"))
    assert parts > 10 and (score_workers.chunk_size(parts, 2) > 1) == (part_bytes == 5_000)
    wrapper, by = BUILDER.CASES[case]
    report = score_dataset(DATA, DATA / "predictions.jsonl", by, host=BUILDER.host(wrapper), workers=2)
    report["predictions_file"] = "predictions.jsonl"
    assert report.pop("macro") == _report(DATA, DATA / "predictions.jsonl", case, macro=True)["macro"]
    assert json.loads(json.dumps(report)) == EXPECTED[case]["report"]


def test_a_bad_line_met_by_a_worker_is_reported_as_alone(monkeypatch, tmp_path):
    """A line no worker can read makes the run start again in one process, which names the line."""
    from bench_core import score_workers

    monkeypatch.setattr(score_workers, "PART_BYTES", 20_000)
    lines = (DATA / "items.jsonl").read_bytes().split(b"\n")
    lines[300] = lines[300][:-40]
    (tmp_path / "items.jsonl").write_bytes(b"\n".join(lines))
    errors = []
    for workers in (1, 2):
        with pytest.raises(DatasetError) as error:
            score_dataset(tmp_path, DATA / "predictions.jsonl", host=BUILDER.host(), workers=workers)
        errors.append(str(error.value))
    assert errors[0] == errors[1] and "items.jsonl:" in errors[0] and "not valid JSON" in errors[0]


def test_a_field_no_item_has_names_the_fields_that_exist():
    with pytest.raises(DatasetError) as error:
        score_dataset(DATA, DATA / "predictions.jsonl", ["nosuchfield"], host=BUILDER.host())
    assert str(error.value) == EXPECTED["unknown_field_error"]


def test_prediction_lines_are_counted_as_the_whole_file_reader_counted_them():
    responses, counts = load_predictions(DATA / "predictions.jsonl")
    expected = EXPECTED["standard"]["report"]
    assert counts["malformed"] == expected["malformed_lines"] and counts["duplicates"] == expected["duplicate_ids"]
    with PredictionIndex(DATA / "predictions.jsonl") as index:
        assert (index.malformed, index.duplicates) == (counts["malformed"], counts["duplicates"])
        positions = index.positions(list(responses))
        for (item_id, response), position in zip(responses.items(), positions.tolist(), strict=True):
            found, streamed = index.lookup(item_id, position)
            assert found and json.dumps(streamed) == json.dumps(response)  # NaN == NaN as text
        assert index.unknown() == (0, [])


def test_colliding_hashes_are_told_apart(monkeypatch, tmp_path):
    """Ids whose hashes collide (forced here: every id hashes alike) keep their own last responses."""
    import bench_core.predictions as predictions_module

    monkeypatch.setattr(predictions_module, "hash", lambda _: 7, raising=False)
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps({"id": i, "response": r}) + "\n"
                            for i, r in [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)]))
    with PredictionIndex(path) as index:
        assert index.duplicates == 2
        assert index.lookup("b", int(index.positions(["b"])[0])) == (True, 5)
        assert index.lookup("a", int(index.positions(["a"])[0])) == (True, 3)
        assert index.lookup("z", int(index.positions(["z"])[0])) == (False, None)
        assert index.unknown() == (1, ["c"])


def test_shuffled_predictions_give_the_same_report(tmp_path):
    """Prediction lines in another order (each id's own lines kept in order) change nothing."""
    lines = (DATA / "predictions.jsonl").read_bytes().split(b"\n")
    by_id: dict[object, list[bytes]] = {}
    for line in lines:
        try:  # a line holding a lone CR goes with the id of its first record
            key = json.loads(line.decode("utf-8", "replace").split("\r")[0])["id"]
        except (ValueError, TypeError, KeyError):
            key = line
        by_id.setdefault(key, []).append(line)
    keys = sorted(by_id, key=repr)
    random.Random(5).shuffle(keys)
    shuffled = tmp_path / "predictions.jsonl"
    shuffled.write_bytes(b"\n".join(line for key in keys for line in by_id[key]))
    assert _report(DATA, shuffled, "by_fields") == EXPECTED["by_fields"]["report"]


def test_malformed_responses_score_zero(tmp_path):
    """Responses that are not text, or text with no answer, score 0 and count as not answered."""
    host = BUILDER.host()
    root = tmp_path / "d"
    root.mkdir()
    item = BUILDER._item(0, "fix/default-option", "option", "B", ["x", "y", "z"])
    odd = [None, 7, ["B"], {"answer": "B"}, True, "", "   ", "\x00\ud800", "B" * 5000, float("nan")]
    items = [{**item, "id": f"i{k}"} for k in range(len(odd))]
    (root / "items.jsonl").write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in items))
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps({"id": f"i{k}", "response": r}) + "\n" for k, r in enumerate(odd)))
    report = score_dataset(root, predictions, host=host)
    assert report["overall"] == 0.0 and report["n"] == len(odd) and report["missing"] == 0
    assert report["metrics"]["mean_answered"] == 0.0
