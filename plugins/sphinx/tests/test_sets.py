"""The paper's sets (issue 15): the 25 tasks' categories and splits, ``preset=paper`` (100 items per task,
letters balanced), ``preset=train`` (the 20 in-distribution tasks only, sized by ``train_size``, at indices no
evaluation item takes, icons of the train split), ``metadata["split"]`` on every item and ``bench score --by
split`` / ``--by category`` over it."""

from __future__ import annotations

import json
from collections import Counter

import bench_plugin_sphinx
import pytest
from bench_plugin_sphinx import sets
from click.testing import CliRunner
from sphinx_helpers import build

from bench_core import ItemRandom, ParameterError, default_host, implementation, plan
from bench_core import command_line as main

REGISTERED = sorted(bench_plugin_sphinx.tasks(), key=lambda t: t.name)
#: Registered tasks that do not take the sets yet (class bases ``PaperSets, task=...`` and ``*PRESETS`` in their
#: parameters): expected failures, strict, so each one leaves this list when it is converted.
PENDING: frozenset[str] = frozenset()
CONVERTED = frozenset(t.name for t in REGISTERED if t.name not in PENDING)


def _cases(tasks):
    """``tasks`` as parameters, those not converted yet marked as strict expected failures."""
    reason = "not converted yet: class bases (PaperSets, task=...) and *PRESETS in its parameters"
    return [pytest.param(t, id=t.name, marks=pytest.mark.xfail(strict=True, reason=reason) if t.name in PENDING
                         else ()) for t in tasks]


def test_the_papers_25_tasks_five_categories_and_five_held_out():
    assert len(sets.TASKS) == 25 and len(set(sets.SPLIT)) == 25
    assert Counter(sets.CATEGORY.values()) == {"geometric": 5, "counting": 5, "symmetry": 4, "sequence": 6,
                                               "topology": 5}  # tasks 1-5, 6-10, 11-14, 15-20, 21-25
    assert sets.OOD_TASKS == ("positional-count", "tiles-recoloring", "wallpaper-groups", "multi-column-arithmetic",
                              "tiles-composition")
    assert len(sets.IID_TASKS) == 20


@pytest.mark.parametrize("task", _cases(REGISTERED))
def test_every_registered_task_takes_the_presets_and_records_its_split(task):
    """The one-line changes every task makes: ``PaperSets`` as its base, ``*PRESETS`` in its parameters, and the
    paper's category."""
    impl = implementation(task)
    assert isinstance(impl, sets.PaperSets) and impl.task_name == task.name
    assert {"preset", "train_size"} <= {p.name for p in task.parameters}
    assert task.category == sets.CATEGORY[task.name]


@pytest.mark.parametrize("size", [1, 7, 1000, 32_000, 1_000_000, 32_007])
def test_train_shares_add_up_to_the_size(size):
    shares = [sets.train_share(name, size) for name in sets.IID_TASKS]
    assert sum(shares) == size and max(shares) - min(shares) <= 1
    assert all(sets.train_share(name, size) == 0 for name in sets.OOD_TASKS)
    assert sets.train_share("shape-sorting") == 1600


@pytest.mark.parametrize("task", _cases(REGISTERED))
def test_the_paper_preset_is_the_first_100_items_of_the_default_run(task):
    jobs = plan(task, {"preset": "paper"}, 4, None)
    assert [j.index for j in jobs] == list(range(100))
    default = plan(task, {}, 4, 100)
    assert all({**j.params, "preset": "none"} == d.params for j, d in zip(jobs, default, strict=True))
    assert len(plan(task, {"preset": "paper"}, 4, 30)) == 30  # --count still cuts it


@pytest.mark.parametrize("task", _cases(REGISTERED))
def test_the_train_preset_holds_in_distribution_tasks_only(task):
    jobs = plan(task, {"preset": "train", "train_size": 1000}, 4, None)
    if sets.SPLIT[task.name] == "ood":
        assert jobs == []
        return
    assert len(jobs) == 50
    assert [j.index for j in jobs] == list(range(sets.TRAIN_START, sets.TRAIN_START + 50))
    assert all(j.params["preset"] == "train" for j in jobs)
    assert len(plan(task, {"train_size": 1000}, 4, None)) == 50  # train_size alone asks for the training set
    assert len(plan(task, {"preset": "train"}, 4, None)) == sets.train_share(task.name)


def test_the_paper_preset_refuses_other_settings_by_name():
    task = default_host().task("sphinx/pie-chart")
    for setting in ({"direction": "ascending"}, {"train_size": 100}, {"difficulty": "hard"}):
        with pytest.raises(ParameterError, match=next(iter(setting))):
            plan(task, {"preset": "paper", **setting}, 0, None)
    with pytest.raises(ParameterError, match="preset"):
        plan(task, {"preset": "evaluation"}, 0, None)


MC = [t for t in REGISTERED if t.answer_type == "option"]


@pytest.mark.parametrize("task", _cases(MC))
def test_the_paper_presets_letters_are_balanced_per_task(task):
    """Generated only (no rendering), the first 48 items of the paper's set: every letter equally often (48 is a
    whole number of blocks of 4 and of 6 options, as 100 is of 4; ``ItemRandom.balanced``)."""
    impl = implementation(task)
    letters = Counter()
    for job in plan(task, {"preset": "paper"}, 0, None)[:48]:
        params = task.resolve_params(job.params)
        letters[impl.generate(params, ItemRandom(task.id, task.version, 0, job.index)).answer] += 1
    assert len(set(letters.values())) == 1 and len(letters) in (4, 6), letters


def test_icon_split_keeps_test_icons_out_of_training():
    assert sets.icon_split({"preset": "train"}) == "train"
    assert sets.icon_split({"preset": "none", "train_size": 5}) == "train"
    assert sets.icon_split({"preset": "paper"}) == "test"
    assert sets.icon_split({"preset": "none"}) == "train"
    assert sets.icon_split({}, default="test") == "test"


def test_items_record_their_split_and_verify_checks_it():
    from bench_core import Item

    built = build(default_host().task("sphinx/tiles-recoloring"))
    assert built.item.metadata["split"] == "ood"
    impl = implementation(default_host().task("sphinx/tiles-recoloring"))
    assert impl.verify(built.item, built.images) == []
    record = json.loads(built.item.to_json())
    record["metadata"]["split"] = "iid"
    failures = impl.verify(Item.from_record(record), built.images)
    assert any("split" in f for f in failures)


def test_a_subclass_must_name_a_paper_task_and_leave_the_presets_alone():
    with pytest.raises(TypeError, match="one of the paper's 25 tasks"):
        type("Odd", (sets.PaperSets,), {}, task="no-such-task")
    with pytest.raises(TypeError, match="expand"):
        type("Odd", (sets.PaperSets,), {"expand": lambda self, params, count: []}, task="pie-chart")


def _invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_the_family_training_set_from_the_command_line(tmp_path):
    """``bench generate sphinx --set preset=train``: every registered in-distribution task, no held-out one,
    at indices no evaluation item takes."""
    out = tmp_path / "t"
    result = _invoke("generate", "sphinx", "--set", "preset=train", "--count", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    items = [i for i in items if i["task"] in CONVERTED]  # a task not converted yet makes a plain run
    iid = sorted(t.name for t in REGISTERED if t.name in CONVERTED and sets.SPLIT[t.name] == "iid")
    assert sorted(i["task"] for i in items) == iid
    assert all(i["metadata"]["split"] == "iid" and i["index"] == sets.TRAIN_START for i in items)


def test_score_by_split_and_by_category_give_the_papers_columns(tmp_path):
    out = tmp_path / "d"
    assert _invoke("generate", "sphinx/tiles-recoloring", "sphinx/pie-chart", "--count", "2", "--out",
                   str(out)).exit_code == 0
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    predictions = tmp_path / "p.jsonl"  # pie chart right twice, tiles recoloring right once
    predictions.write_text("".join(json.dumps({"id": i["id"], "response": f"\\boxed{{{i['answer']}}}"
                                               if i["task"] == "pie-chart" or i["index"] == 0 else "\\boxed{999}"})
                                   + "\n" for i in items))
    report = json.loads(_invoke("score", str(out), str(predictions), "--by", "split,category", "--json").output)
    assert report["by"]["split"]["iid"]["n"] == 2 and report["by"]["split"]["ood"]["n"] == 2
    assert report["macro"]["by"]["split"] == {"iid": {"tasks": 1, "accuracy": 1.0},
                                              "ood": {"tasks": 1, "accuracy": 0.5}}
    assert report["macro"]["by"]["category"] == {"counting": {"tasks": 1, "accuracy": 0.5},
                                                 "geometric": {"tasks": 1, "accuracy": 1.0}}
    assert report["macro"]["accuracy"] == 0.75
    text = _invoke("score", str(out), str(predictions), "--by", "split").output
    assert "mean of the 2 task accuracies (each task counts once) 0.7500" in text


def _readme_snippet() -> str:
    from pathlib import Path

    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    after = text.split("<!-- sphinx-reward-snippet -->", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readmes_reward_snippet_scores_as_the_paper():
    """The README's TRL-shaped reward function, run as written, on two items of the paper's set."""
    from bench_core import scoring_record

    namespace: dict = {}
    exec(compile(_readme_snippet(), "README.md", "exec"), namespace)  # our own README's snippet
    reward_fn = namespace["sphinx_reward"]
    pie, count = (build(default_host().task(f"sphinx/{name}"), {"preset": "paper"}) for name in ("pie-chart",
                                                                                                 "stack-count"))
    gold_pie, gold_count = pie.item.answer, count.item.answer
    wrong_pie = next(letter for letter in "ABCD" if letter != gold_pie)
    completions = [
        f"<think>Largest slice first.</think> The answer is \\boxed{{{gold_pie}}}.",  # right, formatted: 1.0
        f"\\boxed{{{gold_count}}}",  # right, no think block: 0.9
        f"<think>Hm.</think> \\boxed{{{wrong_pie}}}",  # wrong, formatted: 0.1
        [{"role": "assistant", "content": f"<think>x</think>\\boxed{{{gold_count}}}"}],  # a conversation: 1.0
    ]
    records = [scoring_record(item) for item in (pie.item, count.item, pie.item, count.item)]
    assert reward_fn(completions, prompts=["?"] * 4, bench=records) == pytest.approx([1.0, 0.9, 0.1, 1.0])
