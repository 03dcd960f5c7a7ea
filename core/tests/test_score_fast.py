"""``bench score``'s fast path (issue 12) gives the plain path's reports to the last bit.

The fast path reads ``items.jsonl`` as bytes in parts (:mod:`bench_core.score_lines`), scores an item of a task
the core scores without building a view where it can, looks predictions up in batches and adds the groups up
with numpy (:mod:`bench_core.score_tally`).  The plain path is written out here: every item read whole, every
response looked up in the whole predictions file, scored through ``bench_core.score`` (the hooks), and every
group's sums added with ``+=`` and ``sum()``, one item at a time.
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from pathlib import Path

import pytest
from score_stream_case import BUILDER, DATA, EXPECTED, FIXTURES

from bench_core import score_tally
from bench_core.dataset import read_items
from bench_core.predictions import PredictionIndex
from bench_core.report import STANDARD_GROUPS, field_value, load_predictions, metrics_of, score_dataset
from bench_core.score_lines import entries_in, entry_view, views_in
from bench_core.score_tally import Packer, Tally
from bench_core.scorer import score


def plain_report(root: Path, predictions: Path, by: list[str], host) -> dict:
    """The report's numbers the plain way: ``{"n", "missing", "overall", "by": {field: {key: summary}}}``."""
    responses, _ = load_predictions(predictions)
    fields = list(STANDARD_GROUPS) + [f for f in by if f not in STANDARD_GROUPS]
    values: dict[tuple[str, str], list[float]] = defaultdict(list)
    metrics: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    n = missing = 0
    for item in read_items(root):
        n += 1
        task = host.tasks.get(item.task_id)
        category = str(task.category) if task else "unknown"
        if item.id in responses:
            result = score(item, responses[item.id], host=host)
            value, found = result.value, metrics_of({"answered": result.answered, **result.details})
        else:
            missing += 1
            value, found = 0.0, (("answered", 0.0),)
        for field in ["", *fields]:
            key = (field, field_value(item, field, category) if field else "")
            values[key].append(value)
            for name, x in found:
                metrics[key][name].append(x)
    out: dict = {"n": n, "missing": missing, "by": {f: {} for f in fields}}
    for (field, key), scores in values.items():
        total = 0.0
        for x in scores:
            total += x
        summary = {"n": len(scores), "accuracy": total / len(scores)}
        for name in sorted(metrics[field, key]):
            summary[f"mean_{name}"] = sum(metrics[field, key][name]) / len(scores)
        if field:
            out["by"][field][key] = summary
        else:
            out["overall"] = summary["accuracy"]
            out["metrics"] = summary
    return out


def _numbers(report: dict) -> dict:
    return {"n": report["n"], "missing": report["missing"], "overall": report["overall"],
            "metrics": report["metrics"], "by": {f: dict(t) for f, t in report["by"].items()}}


def _lf_copy(tmp_path: Path) -> Path:
    """The fixture with its CRLF line ends made LF: the same lines, read by the bytes reader."""
    root = tmp_path / "lf"
    root.mkdir()
    (root / "items.jsonl").write_bytes((DATA / "items.jsonl").read_bytes().replace(b"\r\n", b"\n"))
    return root


@pytest.mark.parametrize("case", sorted(BUILDER.CASES))
def test_the_plain_path_gives_the_fixture_reports(case):
    """The plain path written out above is the reference: it gives the whole-file scorer's numbers."""
    wrapper, by = BUILDER.CASES[case]
    plain = plain_report(DATA, DATA / "predictions.jsonl", by, BUILDER.host(wrapper))
    assert plain == _numbers(EXPECTED[case]["report"])


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("case", sorted(BUILDER.CASES))
def test_the_bytes_reader_gives_the_same_reports(case, workers, tmp_path, monkeypatch):
    """Without CR line ends every part goes through the bytes reader (the fixture's CRLF lines send a part to the
    text reader); in parts of 20 kB and batches of 300 items the report is still the fixture's, bit for bit."""
    from bench_core import score_workers

    monkeypatch.setattr(score_workers, "PART_BYTES", 20_000)
    monkeypatch.setattr(score_tally, "BATCH", 300)
    root = _lf_copy(tmp_path)
    wrapper, by = BUILDER.CASES[case]
    report = score_dataset(root, DATA / "predictions.jsonl", by, host=BUILDER.host(wrapper), workers=workers)
    report["predictions_file"] = "predictions.jsonl"
    report.pop("macro")
    assert json.loads(json.dumps(report)) == EXPECTED[case]["report"]


def _synthetic(tmp_path: Path, count: int, seed: int) -> Path:
    """``count`` items copied from the fixture's lines with new ids (every one split as Item.to_json writes it,
    so the fast path takes them), and predictions for most, in a shuffled order."""
    rng = random.Random(seed)
    lines = [line for line in (DATA / "items.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]
    rows = [json.loads(line) for line in (FIXTURES / "graded_responses.jsonl").read_text().splitlines() if line]
    odd = [None, "", 7, ["A"], "\\boxed{B}", "Answer: 3", "red, green, blue", "(3, 5)"]
    root = tmp_path / f"synthetic{seed}"
    root.mkdir()
    items, predictions = [], []
    for k in range(count):
        record = json.loads(json.dumps(records[rng.randrange(len(records))]))
        record["id"] = f"s.{k:06d}"
        metadata = record.get("metadata") or {}
        if rng.random() < 0.7 and isinstance(metadata.get("scene"), dict):  # no key "variant" at any depth: the
            metadata["scene"]["style"].pop("variant", None)  # fast path, unless the item asks otherwise
            metadata.pop("variant", None)
        items.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        if rng.random() < 0.9:
            response = rng.choice(rows)["response"] if rng.random() < 0.8 else rng.choice(odd)
            predictions.append(json.dumps({"id": record["id"], "response": response}))
    rng.shuffle(predictions)
    (root / "items.jsonl").write_text("\n".join(items) + "\n", encoding="utf-8")
    (root / "predictions.jsonl").write_text("\n".join(predictions) + "\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("workers", [1, 2])
def test_the_fast_path_gives_the_plain_paths_numbers(tmp_path, monkeypatch, workers):
    """4,000 items of every kind (tasks not installed, keeping the core scorer, with their own score; a plugin
    wrapping bench_score), with and without --by fields, in small parts and batches: the numbers are the plain
    path's to the last bit."""
    from bench_core import score_workers

    monkeypatch.setattr(score_workers, "PART_BYTES", 150_000)
    monkeypatch.setattr(score_tally, "BATCH", 700)
    from bench_core import report

    root = _synthetic(tmp_path, 4000, seed=workers)
    through_views = []
    result = report._result
    monkeypatch.setattr(report, "_result", lambda *args: through_views.append(1) or result(*args))
    for wrapper, by in [(False, []), (False, BUILDER.BY), (True, ["tag"])]:
        host = BUILDER.host(wrapper)
        fast = score_dataset(root, root / "predictions.jsonl", by, host=host, workers=workers)
        assert _numbers(fast) == plain_report(root, root / "predictions.jsonl", by, host)
        if workers == 1 and not by:  # in this process: most items were scored without a view
            assert 0 < len(through_views) < 2000


def test_the_bytes_reader_reads_every_line_as_the_text_reader():
    """Every fixture line read from bytes (CRLF made LF) gives the view the text reader gives: the same keys,
    group values and metadata answers."""
    from bench_core.item_views import read_views

    data = (DATA / "items.jsonl").read_bytes().replace(b"\r\n", b"\n")
    fast, plain = views_in(DATA, data), list(read_views(DATA))
    assert len(fast) == len(plain) and any(type(e) is tuple for e in entries_in(DATA, data))
    for a, b in zip(fast, plain, strict=True):
        assert a.record == b.record and a.params == b.params and a.options == b.options
        assert a.standard_keys("c") == b.standard_keys("c")
        for key in ("variant", "count", "level", "café", "scene", "nothing", "tag"):
            assert a.metadata_has(key) == b.metadata_has(key) and a.metadata_get(key) == b.metadata_get(key)
        assert a.item() == b.item()
    assert entry_view(DATA, fast[0]) is fast[0]


def test_a_bad_line_is_named_by_the_plain_reader(tmp_path):
    """A line cut short in the middle of the file (bytes reader) is reported with its line number."""
    root = _lf_copy(tmp_path)
    lines = (root / "items.jsonl").read_bytes().split(b"\n")
    lines[200] = lines[200][:-30]
    (root / "items.jsonl").write_bytes(b"\n".join(lines))
    with pytest.raises(Exception) as error:
        score_dataset(root, DATA / "predictions.jsonl", host=BUILDER.host())
    assert "items.jsonl:" in str(error.value) and "not valid JSON" in str(error.value)


def test_batched_lookups_find_what_single_lookups_find(monkeypatch, tmp_path):
    """``lookup_many`` (one read for a batch's lines, or a read each) gives ``lookup``'s answers, colliding
    hashes included."""
    import bench_core.predictions as predictions_module

    ids = [*load_predictions(DATA / "predictions.jsonl")[0], "no.such.id", 5, None]
    for span in (predictions_module.SPAN_BYTES, 0):
        monkeypatch.setattr(predictions_module, "SPAN_BYTES", span)
        with PredictionIndex(DATA / "predictions.jsonl") as index:
            positions = index.positions([i if isinstance(i, str) else "" for i in ids]).tolist()
            one = [index.lookup(i, p) if isinstance(i, str) else (False, None)
                   for i, p in zip(ids, positions, strict=True)]
            index.forget_asked()
            many = index.lookup_many(ids)
            assert json.dumps(many) == json.dumps(one)  # NaN == NaN as text
            assert index.unknown() == (0, [])
    monkeypatch.setattr(predictions_module, "hash", lambda _: 7, raising=False)
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps({"id": i, "response": r}) + "\n"
                            for i, r in [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)]))
    with PredictionIndex(path) as index:
        assert index.lookup_many(["b", "a", "z", "b"]) == [(True, 5), (True, 3), (False, None), (True, 5)]
        assert index.unknown() == (1, ["c"])


def test_the_index_built_in_parts_is_the_index_built_whole():
    from bench_core.predictions import index_range, line_ranges

    path = DATA / "predictions.jsonl"
    ranges = line_ranges(path, 3000)
    assert len(ranges) > 5
    with PredictionIndex(path) as whole, PredictionIndex(path, [index_range(path, a, b) for a, b in ranges]) as parted:
        for name in ("lines", "malformed", "duplicates"):
            assert getattr(whole, name) == getattr(parted, name)
        for name in ("_hashes", "_starts", "_lengths"):
            assert getattr(whole, name).tolist() == getattr(parted, name).tolist()


@pytest.mark.parametrize("batch", [7, 1 << 16])
def test_the_counters_add_up_as_builtin_sum_does(monkeypatch, batch):
    """A group's mean of a metric is ``sum(values) / n`` of its values in item order and its accuracy the ``+=``
    sum, to the last bit, on this Python (plain sums before 3.12, compensated from 3.12): whole numbers added at
    once, fractions one at a time, runs of each in several groups and batches."""
    monkeypatch.setattr(score_tally, "BATCH", batch)
    rng = random.Random(3)
    fractions = [rng.random(), 1 / 3, 1e-9, 2 / 7, 0.1, 1e16 + 1]
    items = []
    for k in range(6000):
        whole = (k // 500) % 2 == 0
        x = float(rng.choice([0, 1, 2, 7])) if whole else rng.choice([0.0, 1.0, *fractions])
        items.append((f"g{k % 3}", x))
    tally = Tally(["task", "category", "variant"])
    for start in range(0, len(items), 997):
        packer = Packer()
        for group, x in items[start:start + 997]:
            packer.add("id", group, True, (group, "c", "v"), (x, (("m", x), ("one", 1.0)), None))
        tally.add(packer.part)
    tally.finish()
    for group in ("g0", "g1", "g2"):
        values = [x for g, x in items if g == group]
        total = 0.0
        for x in values:
            total += x
        summary = tally.groups["task"][group].summary()
        assert summary["accuracy"] == total / len(values)
        assert summary["mean_m"] == sum(values) / len(values)
        assert summary["mean_one"] == 1.0
    every = [x for _, x in items]
    assert tally.overall.summary()["mean_m"] == sum(every) / len(every)
    assert not math.isnan(tally.overall.summary()["accuracy"])


#: Metadata texts around a ``variant`` key: the variant group the text reader gives each (the fast path reads a
#: text variant with orjson and leaves any other to the item's view).
METADATA_VARIANTS = ['{"variant":"mv","scene":{"variant":"inner"}}', '{"scene":{"variant":"inner"},"variant":5}',
                     '{"variant":["a","b"],"count":1}', '{"variant":null,"tag":"t"}', '{"scene":{"variant":"only"}}',
                     '{"variant":"first","variant":"last"}', '{"weight":NaN,"variant":"beside-nan"}',
                     '{"big":123456789012345678901234567890,"variant":"beside-big"}', '{"v\\u0061riant":"escaped"}',
                     '{"count":2}', '{"scene":{"variant":"inner","n":[1,2.5]},"variant" : "after-scene" }',
                     '{"note":"a [bracket {","variant":"beside-brackets"}', '{"list":[{"variant":"deep"}],"k":"v"}',
                     '{"variant":"early","scene":{"variant":"inner","x":[[1.5]]}}']


@pytest.mark.parametrize("workers", [1, 2])
def test_variants_in_the_metadata_and_number_responses_score_as_the_plain_path(tmp_path, monkeypatch, workers):
    """Items without a variant of their own or in their settings, whose metadata holds one (text, a number, a list,
    null, only nested, twice, beside a NaN or a long integer, behind an escape) or none, of every kind of task;
    responses that are integers and booleans (remembered with their kind: True is not 1): the numbers are the plain
    path's, and the report is the one every line read by json gives."""
    from bench_core import predictions, score_lines, score_workers

    monkeypatch.setattr(score_workers, "PART_BYTES", 40_000)
    records = [json.loads(line) for line in (DATA / "items.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]
    root = tmp_path / "variants"
    root.mkdir()
    items, lines = [], []
    for k in range(600):
        record = records[k % len(records)]
        head = {key: value for key, value in record.items() if key != "metadata"}
        head.update(id=f"v.{k:04d}", variant=None, params={**(head["params"] or {}), "variant": None})
        text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1]
        items.append(f'{text},"metadata":{METADATA_VARIANTS[k % len(METADATA_VARIANTS)]}}}')
        response = [1, True, 0, False, "1", "Answer: B", 2, None][k % 8] if k % 3 else record["answer"]
        lines.append(json.dumps({"id": f"v.{k:04d}", "response": response}))
    (root / "items.jsonl").write_text("\n".join(items) + "\n", encoding="utf-8")
    (root / "predictions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    host = BUILDER.host()
    fast = score_dataset(root, root / "predictions.jsonl", host=host, workers=workers)
    assert _numbers(fast) == plain_report(root, root / "predictions.jsonl", [], host)
    groups = {"mv", "5", '["a", "b"]', "null", "last", "beside-nan", "beside-big", "escaped", "after-scene",
              "beside-brackets", "early"}
    assert groups <= set(fast["by"]["variant"])
    monkeypatch.setattr(score_lines, "_fast_loads", None)
    monkeypatch.setattr(predictions, "_fast_loads", None)
    exact = score_dataset(root, root / "predictions.jsonl", host=BUILDER.host(), workers=workers)
    assert json.dumps(fast, sort_keys=True) == json.dumps(exact, sort_keys=True)
