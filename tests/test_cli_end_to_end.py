"""The bench CLI end to end over every installed plugin: generate, verify, score; determinism across
worker counts; resuming an interrupted run; quick start-up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench_core.cli import main


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sample")
    run("generate", "--out", str(out), "--count", "2", "--seed", "1")  # every task: the CLI, not a statistic
    return out


def test_default_job_samples_every_task_and_verifies(sample):
    records = [json.loads(line) for line in (sample / "items.jsonl").read_text().splitlines()]
    tasks = {f"{r['family']}/{r['task']}" for r in records}
    listed = {t["id"] for t in json.loads(run("tasks", "--json"))}
    assert tasks == listed
    assert "verified" in run("verify", str(sample))
    manifest = json.loads((sample / "manifest.json").read_text())
    assert manifest["total"] == len(records)


def test_gold_predictions_score_one(sample, tmp_path):
    predictions = tmp_path / "gold.jsonl"
    lines = [json.dumps({"id": json.loads(r)["id"], "response": json.loads(r)["answer"]})
             for r in (sample / "items.jsonl").read_text().splitlines()]
    predictions.write_text("\n".join(lines) + "\nnot json\n")
    report = json.loads(run("score", str(sample), str(predictions), "--json", "--by", "vertices"))
    assert report["overall"] == 1.0
    assert report["malformed_lines"] == 1 and report["missing"] == 0


def test_per_metric_averages_are_over_all_items_and_labelled_so(tmp_path):
    out = tmp_path / "d"
    run("generate", "traversal/path", "--out", str(out), "--count", "4", "--seed", "3")
    first = json.loads((out / "items.jsonl").read_text().splitlines()[0])
    predictions = tmp_path / "p.jsonl"
    predictions.write_text(json.dumps({"id": first["id"], "response": first["answer"]}) + "\n")
    text = run("score", str(out), str(predictions))
    # one of four answered, and right: a metric's mean is 1/4, not the 1.0 of the answered item alone
    assert "overall accuracy 0.2500 over 4 items" in text and "answered (a final answer could be parsed) 1 of 4" in text
    assert "averages over all items (no answer counts 0): " in text
    assert "exact=0.2500" in text and "token_accuracy=0.2500" in text
    report = json.loads(run("score", str(out), str(predictions), "--json"))
    assert report["metrics"]["mean_token_accuracy"] == 0.25


def test_workers_give_identical_bytes(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    run("generate", "traversal", "--out", str(one), "--count", "8", "--seed", "4")
    run("generate", "traversal", "--out", str(two), "--count", "8", "--seed", "4", "--workers", "2")
    assert tree_bytes(one) == tree_bytes(two)


def test_interrupted_run_resumes_without_duplicates(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    run("generate", "traversal/path", "--out", str(whole), "--count", "6", "--seed", "2")
    run("generate", "traversal/path", "--out", str(cut), "--count", "6", "--seed", "2")
    data = (cut / "items.jsonl").read_bytes()
    lines = data.splitlines(keepends=True)
    (cut / "items.jsonl").write_bytes(b"".join(lines[:3]) + lines[3][:40])  # a torn fourth line
    manifest = json.loads((cut / "manifest.json").read_text())  # as a kill -9 leaves it: written at the start
    (cut / "manifest.json").write_text(json.dumps({**manifest, "complete": False}))
    result = CliRunner().invoke(main, ["verify", str(cut)])
    assert result.exit_code != 0 and "cut short" in result.output
    assert "wrote 3 items (3 already present)" in run("generate", "traversal/path", "--out", str(cut),
                                                      "--count", "6", "--seed", "2")
    assert tree_bytes(whole) == tree_bytes(cut)


def test_bad_selector_and_parameter_fail_clearly(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["generate", "nosuch", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "installed families" in result.output
    result = runner.invoke(main, ["generate", "traversal/path", "--set", "vertices=10", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "allowed: 9, 11, 13, 15, 17" in result.output
    result = runner.invoke(main, ["generate", "traversal", "--set", "colour=red", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "no selected task has a parameter 'colour'" in result.output
    assert not (tmp_path / "x" / "items.jsonl").exists()


def test_plain_listing_explains_every_parameter_of_every_task():
    listing = json.loads(run("tasks", "--json"))
    text = run("tasks")
    assert "default None" not in text and "default: None" not in text
    for task in listing:
        for parameter in task["parameters"]:
            assert parameter["help"], f"{task['id']}: parameter {parameter['name']} has no help"
            if parameter["name"] != "difficulty":  # the scale is explained by its own lines
                assert f"--set {parameter['name']}=...  default: " in text
                assert parameter["help"] in text, f"{task['id']}: {parameter['name']}'s help is not shown"


def test_listing_tasks_imports_no_heavy_dependency():
    code = (
        "import sys; from click.testing import CliRunner; from bench_core.cli import main; "
        "r = CliRunner().invoke(main, ['tasks']); assert r.exit_code == 0, r.output; "
        "heavy = [m for m in ('numpy', 'PIL', 'shapely') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
