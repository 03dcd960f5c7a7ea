"""Training with bench items (issue 11), on real items of the installed tasks: the README's Training section
runs as written (TRL, verl, the stream in a data loader; trl and torch are stood in for by fakes that call
what they would call), the adapters score real items, and a scoring record scores every task's items as the
task's own plugin does."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path

import pytest

from bench_core import (
    easyr1_compute_score,
    score,
    score_record,
    scoring_record,
    stream,
    trl_reward,
    verl_compute_score,
)
from bench_core.host import default_host

README = Path(__file__).resolve().parents[1] / "README.md"


def training_blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Training"): text.index("## Writing a plugin")]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def run(code: str, **names) -> dict:
    """Execute a README block, with fewer items than it asks for (speed is measured in benchmarks/)."""
    namespace = dict(names)
    exec(compile(re.sub(r"count=\d+", "count=3", code), str(README), "exec"), namespace)
    return namespace


@pytest.fixture
def fake_trl(monkeypatch):
    """``trl`` as far as the README uses it: the trainer calls each reward function on the first batch as TRL
    does (every column but the prompt as a keyword, conversational completions), here answering each item
    with its gold answer, then with a wrong one."""
    module = types.ModuleType("trl")
    calls = {}

    class GRPOConfig:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    class GRPOTrainer:
        def __init__(self, model, reward_funcs, args, train_dataset):
            batch = train_dataset.select(range(len(train_dataset)))
            columns = {k: batch[k] for k in batch.column_names if k != "prompt"}
            right = [[{"role": "assistant", "content": f"<think>traced</think>\\boxed{{{a}}}"}]
                     for a in batch["answer"]]
            wrong = [[{"role": "assistant", "content": "\\boxed{blue circle}"}] for _ in batch["answer"]]
            calls["right"] = [f(batch["prompt"], right, **columns) for f in reward_funcs]
            calls["wrong"] = [f(batch["prompt"], wrong, **columns) for f in reward_funcs]

    module.GRPOConfig, module.GRPOTrainer = GRPOConfig, GRPOTrainer
    monkeypatch.setitem(sys.modules, "trl", module)
    return calls


def test_the_readme_trl_example_rewards_real_items(fake_trl):
    pytest.importorskip("datasets")
    trl_block = training_blocks()[0]
    assert "reward_funcs=[trl_reward]" in trl_block
    run(trl_block)
    assert fake_trl["right"] == [[1.0, 1.0, 1.0]] and fake_trl["wrong"] == [[0.0, 0.0, 0.0]]


def test_the_readme_verl_example_scores_real_items(tmp_path, monkeypatch):
    pytest.importorskip("datasets")
    reward_file, data_block = training_blocks()[1:3]
    compute_score = run(reward_file)["compute_score"]
    monkeypatch.chdir(tmp_path)
    rows = run(data_block)["rows"]
    assert (tmp_path / "bench_train.parquet").stat().st_size > 0
    for row in rows:
        truth = row["reward_model"]["ground_truth"]
        answer = json.loads(truth)["answer"]
        assert compute_score(row["data_source"], f"Answer: {answer}", truth, None) == 1.0
        assert compute_score(row["data_source"], f"The answer is {answer}.", truth, None) == 0.0  # strict
        assert compute_score(row["data_source"], "Answer: 99", truth, {"index": 0}) == 0.0


@pytest.fixture
def fake_torch(monkeypatch):
    """``torch.utils.data`` as far as the README uses it: a DataLoader whose workers each draw one batch, with
    get_worker_info() telling each worker who it is (as in a worker process)."""
    torch, utils, data = (types.ModuleType(n) for n in ("torch", "torch.utils", "torch.utils.data"))
    current = {"info": None}

    class IterableDataset:
        pass

    class DataLoader:
        def __init__(self, dataset, batch_size, num_workers, collate_fn):
            self.dataset, self.batch_size, self.num_workers, self.collate = dataset, batch_size, num_workers, collate_fn

        def first_batches(self):
            batches = []
            for worker in range(self.num_workers):
                current["info"] = types.SimpleNamespace(id=worker, num_workers=self.num_workers)
                rows = iter(self.dataset)
                batches.append(self.collate([next(rows) for _ in range(self.batch_size)]))
            current["info"] = None
            return batches

    data.IterableDataset, data.DataLoader, data.get_worker_info = IterableDataset, DataLoader, lambda: current["info"]
    torch.utils, utils.data = utils, data
    for name, module in (("torch", torch), ("torch.utils", utils), ("torch.utils.data", data)):
        monkeypatch.setitem(sys.modules, name, module)


def test_the_readme_stream_example_gives_each_worker_its_own_items(fake_torch):
    block = training_blocks()[3]
    loader = run(block.replace("batch_size=8", "batch_size=2"))["loader"]
    batches = loader.first_batches()
    ids = [row["id"] for batch in batches for row in batch]
    assert len(ids) == 8 and len(set(ids)) == 8
    assert {row["task"] for batch in batches for row in batch} == {"traversal/path", "marvl/counting"}
    assert all(row["images"][0].mode in ("RGB", "RGBA") for batch in batches for row in batch)


# ---------------------------------------------------------------------------------------------------------
# Adapters on real items, and records that score as the plugins do
# ---------------------------------------------------------------------------------------------------------


def responses(item) -> list[str]:
    """Right, wrong, formatted and unformatted answers to ``item``, options named by their content too."""
    answers = [item.answer]
    if item.options:
        answers += list(item.options[:2])
        letters = "ABCDEFGH"[: len(item.options)]
        answers += [letters[0], letters[-1]]
    if item.answer_type == "sequence":
        tokens = item.answer.split(", ")
        answers += [", ".join(reversed(tokens)), " -> ".join(tokens), item.answer.replace(" tri", " triangle")]
    if item.answer_type == "integer":
        answers += [str(int(item.answer) + 1), f"{item.answer} local maxima"]
    out = []
    for a in answers:
        out += [a, f"\\boxed{{{a}}}", f"<think>Maybe {answers[-1]}.</think>\nAnswer: {a}", f"The answer is {a}.",
                f"{a}\n\nI checked every candidate.", f"Let me look at {a} and then"]
    return out


@pytest.fixture(scope="module")
def real_items():
    host = default_host()
    items = []
    for task in sorted(host.tasks):
        items += [s.item for s in stream(task, seed=7, count=1)]
    for settings in ({"format": "choice"}, {"option_order": "shuffled"}):
        tasks = [t for t in ("traversal/path", "marvl/counting", "marvl/transformation")
                 if any(p.name in settings for p in host.task(t).parameters)]
        items += [s.item for s in stream(tasks, seed=8, count=1, settings=settings)]
    return items


def test_a_scoring_record_scores_every_task_as_its_plugin_does(real_items):
    """Lenient record scoring (no plugin) equals ``bench_core.score`` (the task's own hooks) on real items of
    every installed task, for right, wrong and oddly formatted answers."""
    assert len({i.task_id for i in real_items}) >= 12
    for item in real_items:
        record = json.loads(json.dumps(scoring_record(item)))  # as it travels in a dataset
        for response in responses(item):
            assert score_record(record, response, mode="lenient").value == score(item, response).value, (
                item.id, response)


def test_the_adapters_score_real_items(real_items):
    for item in real_items:
        record = json.dumps(scoring_record(item))
        right = f"<think>Looked at the image.</think>\n\\boxed{{{item.answer}}}"
        conversation = [{"role": "user", "content": "q"}, {"role": "assistant", "content": right}]
        assert trl_reward([None], [conversation], bench=[record]) == [1.0], item.id
        assert verl_compute_score("bench", right, record) == 1.0
        assert verl_compute_score("bench", f"{item.answer}", record) == 0.0  # strict: a bare answer is not enough
        scores = easyr1_compute_score([{"response": right, "response_length": 9, "ground_truth": record},
                                       {"response": "no idea", "response_length": 2, "ground_truth": record}])
        assert [s["overall"] for s in scores] == pytest.approx([1.0, 0.0])


def test_records_carry_the_task_hints():
    item = next(iter(stream("traversal/path", seed=9, count=1))).item
    record = scoring_record(item)
    assert record["task"] == "traversal/path" and len(record["vocabulary"]) == 40
    assert record["synonyms"]["triangle"] == "tri"
    answer = item.answer.replace(" tri", " triangle")
    assert score_record(record, f"Answer: {answer}").value == 1.0
    transformation = next(iter(stream("marvl/transformation", seed=9, count=1))).item
    assert scoring_record(transformation)["synonyms"]["horizontally"] == "x"
