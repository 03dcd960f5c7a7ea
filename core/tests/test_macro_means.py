"""Means over tasks (``bench score``'s ``macro``): every task counts once, as papers average a category over its
tasks; and ``TaskImplementation.first_index``, which lets a preset place its items at other indices."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner
from score_stream_case import BUILDER

from bench_core import ParameterError, PluginError, plan
from bench_core import host as host_module
from bench_core.cli import main
from bench_core.report import format_report, score_dataset
from bench_core.types import Task

#: (task, right answers, wrong answers, split): category cat-option holds default-option (4 of 4 right) and
#: tagged (0 of 1), cat-integer holds default-integer (1 of 2).
PLAN = (("fix/default-option", 4, 0, "iid"), ("fix/tagged", 0, 1, "ood"), ("fix/default-integer", 1, 1, "iid"))


@pytest.fixture
def scored(tmp_path, monkeypatch):
    """A dataset of the plan above, its predictions, and the fixture host installed as the default."""
    host = BUILDER.host()
    monkeypatch.setattr(host_module, "_default_host", host)
    items, predictions, n = [], [], 0
    for task_id, right, wrong, split in PLAN:
        answer_type = "integer" if task_id.endswith("integer") else "option"
        for k in range(right + wrong):
            record = BUILDER._item(n, task_id, answer_type, "2" if answer_type == "integer" else "B",
                                   None if answer_type == "integer" else ["x", "y", "z"])
            record["metadata"]["split"] = split
            items.append(record)
            answer = record["answer"] if k < right else ("3" if answer_type == "integer" else "C")
            predictions.append({"id": record["id"], "response": f"\\boxed{{{answer}}}"})
            n += 1
    root = tmp_path / "d"
    root.mkdir()
    (root / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in items))
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in predictions))
    return root, path, host


def test_category_and_split_means_count_every_task_once(scored):
    root, predictions, host = scored
    report = score_dataset(root, predictions, ["split", "tag"], host=host)
    assert report["overall"] == pytest.approx(5 / 7)  # pooled over items
    assert report["by"]["category"]["cat-option"]["accuracy"] == pytest.approx(4 / 5)
    macro = report["macro"]
    assert macro["tasks"] == 3 and macro["accuracy"] == pytest.approx((1.0 + 0.0 + 0.5) / 3)
    assert macro["by"]["category"] == {"cat-integer": {"tasks": 1, "accuracy": 0.5},
                                       "cat-option": {"tasks": 2, "accuracy": 0.5}}
    assert macro["by"]["split"] == {"iid": {"tasks": 2, "accuracy": 0.75}, "ood": {"tasks": 1, "accuracy": 0.0}}
    # a field whose values vary within a task has no mean over tasks; nor has the task field itself
    assert "tag" not in macro["by"] and "variant" not in macro["by"] and "task" not in macro["by"]


def test_the_text_and_json_reports_show_the_means(scored):
    root, predictions, _ = scored
    runner = CliRunner()
    result = runner.invoke(main, ["score", str(root), str(predictions), "--by", "category,split", "--json"],
                           catch_exceptions=False)
    assert result.exit_code == 0
    report = json.loads(result.output)
    assert report["macro"]["by"]["category"]["cat-option"] == {"tasks": 2, "accuracy": 0.5}
    assert report["macro"]["by"]["split"]["iid"]["accuracy"] == 0.75
    text = runner.invoke(main, ["score", str(root), str(predictions), "--by", "split"], catch_exceptions=False).output
    assert "mean of the 3 task accuracies (each task counts once) 0.5000" in text
    lines = text.splitlines()
    option = next(line for line in lines if line.strip().startswith("cat-option"))
    assert "acc=0.8000" in option and "macro=0.5000 (2 tasks)" in option
    iid = next(line for line in lines if line.strip().startswith("iid"))
    assert "macro=0.7500 (2 tasks)" in iid
    assert format_report(report) == text.rstrip("\n")


def test_a_single_task_report_prints_no_mean_line(scored):
    root, predictions, host = scored
    lines = (root / "items.jsonl").read_text().splitlines()[:4]  # default-option only
    (root / "items.jsonl").write_text("\n".join(lines) + "\n")
    report = score_dataset(root, predictions, host=host)
    assert report["macro"]["tasks"] == 1 and report["macro"]["accuracy"] == 1.0
    assert "each task counts once" not in format_report(report)


# -- first_index ---------------------------------------------------------------------------------------------
class _Shifted:
    """The toy task's implementation with its items placed from ``START`` on when ``most`` is 9."""

    START = 1_000_000

    def __init__(self, first):
        import toy_plugin

        self._toy = toy_plugin.DOTS
        self._first = first

    def __getattr__(self, name):
        return getattr(self._toy, name)

    def first_index(self, params):
        return self._first(params)


def _task_with(first, monkeypatch) -> Task:
    import toy_plugin

    from bench_core import task as task_module

    impl = _Shifted(first)
    monkeypatch.setattr(task_module, "implementation", lambda task: impl)
    monkeypatch.setattr(sys.modules["bench_core.generation"], "implementation", lambda task: impl)
    return toy_plugin.TOY


def test_first_index_moves_a_runs_indices_and_ids(toy_host, monkeypatch):
    task = _task_with(lambda params: _Shifted.START if params["most"] == 9 else 0, monkeypatch)
    plain = plan(task, {}, 3, 3)
    shifted = plan(task, {"most": 9}, 3, 3)
    assert [j.index for j in plain] == [0, 1, 2]
    assert [j.index for j in shifted] == [1_000_000, 1_000_001, 1_000_002]
    assert shifted[0].item_id.startswith("toy.dots.3.1000000.")


@pytest.mark.parametrize("bad", [-1, 1.5, True, "7"])
def test_a_bad_first_index_is_the_tasks_bug(toy_host, monkeypatch, bad):
    task = _task_with(lambda params: bad, monkeypatch)
    with pytest.raises(PluginError, match="first_index returned"):
        plan(task, {}, 0, 1)
    assert not issubclass(PluginError, ParameterError)
