"""The CLI over the toy plugin: listing, generation, verification failures, scoring reports."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bench_core.cli import main


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_version_and_listings(toy_host):
    assert "bench, version" in invoke("--version").output
    plugins = json.loads(invoke("plugins", "--json").output)
    toy = next(p for p in plugins if p["name"] == "toy")
    assert toy["status"] == "ok" and toy["task_count"] == 1
    tasks = json.loads(invoke("tasks", "toy", "--json").output)
    assert tasks[0]["id"] == "toy/dots" and tasks[0]["parameters"][0]["name"] == "most"
    result = invoke("tasks", "nosuch")
    assert result.exit_code != 0 and "installed families: toy" in result.output


def test_generate_verify_and_detect_tampering(toy_host, tmp_path):
    out = tmp_path / "d"
    result = invoke("generate", "toy", "--out", str(out), "--count", "5", "--set", "most=3")
    assert result.exit_code == 0, result.output
    assert invoke("verify", str(out)).exit_code == 0
    record = json.loads((out / "items.jsonl").read_text().splitlines()[0])
    assert record["params"] == {"most": 3, "colour": "black"} and record["variant"] is None
    image = out / record["images"][0]
    image.write_bytes(image.read_bytes()[:-10])
    result = invoke("verify", str(out))
    assert result.exit_code != 0 and "does not match its recorded SHA-256" in result.output


def test_invalid_parameter_value_names_what_is_allowed(toy_host, tmp_path):
    result = invoke("generate", "toy/dots", "--out", str(tmp_path / "d"), "--set", "colour=blue")
    assert result.exit_code != 0
    assert "parameter 'colour'" in result.output and "allowed: black, red" in result.output
    result = invoke("generate", "toy/dots", "--out", str(tmp_path / "d"), "--set", "most")
    assert result.exit_code != 0 and "KEY=VALUE" in result.output


def test_score_reports_missing_unknown_and_breakdowns(toy_host, tmp_path):
    out = tmp_path / "d"
    invoke("generate", "toy", "--out", str(out), "--count", "4", "--seed", "3")
    records = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    lines = [json.dumps({"id": records[0]["id"], "response": f"\\boxed{{{records[0]['answer']}}}"}),
             json.dumps({"id": records[1]["id"], "response": "no idea"}),
             json.dumps({"id": "toy.dots.9.000000", "response": "1"}),
             "{broken"]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("\n".join(lines) + "\n")
    report = json.loads(invoke("score", str(out), str(predictions), "--json", "--by", "count").output)
    assert report["overall"] == 0.25 and report["n"] == 4
    assert report["missing"] == 2 and report["unknown_ids"] == 1 and report["malformed_lines"] == 1
    assert set(report["by"]) == {"task", "category", "variant", "count"}
    text = invoke("score", str(out), str(predictions), "--by", "count").output
    assert "overall accuracy 0.2500" in text and "by count:" in text


def test_plain_task_listing_explains_every_parameter(toy_host, monkeypatch):
    import attrs

    from bench_core import Parameter

    task = toy_host.tasks["toy/dots"]
    drawn = Parameter("source", "int", None, minimum=0, help="key of the drawing: items sharing it share a scene")
    monkeypatch.setitem(toy_host.tasks, task.id, attrs.evolve(task, parameters=(*task.parameters, drawn)))
    text = invoke("tasks", "toy/dots").output
    assert "default None" not in text and "default: None" not in text
    assert "--set source=...  default: drawn per item" in text
    assert "key of the drawing: items sharing it share a scene" in text and "largest dot count" in text
    assert "difficulty 0: 1 or 2 dots" in text


def test_generate_help_says_what_count_defaults_to_and_where_parameters_are_listed(toy_host):
    text = " ".join(invoke("generate", "--help").output.split())
    assert "default: the task's preset size if a preset is set, else 4" in text
    assert "'bench tasks FAMILY/TASK' lists each task's parameters" in text
