"""``bench score`` reads lines with orjson and remembers the scores of tasks that keep the default ``score`` with
their own ``scoring_hints`` (issue 12): every report is the exact path's to the last bit.

The exact path is the same scorer with orjson switched off (every line read by json, as before) and the plain path
of ``test_score_fast`` (every item read whole and scored through the hooks).  The inputs hold what orjson reads
otherwise than json or not at all: integers beyond 64 bits (orjson reads a float), NaN, floats beyond the doubles,
lone surrogates, invalid UTF-8; and a task whose hints differ from item to item.
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import attrs
import pytest
from score_stream_case import BUILDER, DATA, FIXTURES
from test_score_fast import _numbers, plain_report

from bench_core import Task, hookimpl, predictions, score_lines
from bench_core.item_views import LazyItem, read_views
from bench_core.predictions import decode_line, decode_record
from bench_core.report import load_predictions, score_dataset
from bench_core.score_lines import exact_record, split_at, split_line
from bench_core.scorer import score_item
from bench_core.types import Item


class HintedScoring(BUILDER._Stub):
    """Keeps the default ``score``; its hints depend on the item (its index, answer type and metadata)."""

    def scoring_hints(self, item):
        k = item.index % 5
        if k == 0:
            return {}
        if k == 1:
            return {"synonyms": {"yes": "A", "no": "B", str(item.metadata.get("tag")): "C"}}
        if k == 2:
            if item.answer_type == "coordinate":
                return {"keywords": [["row"], ["column", "col"]] if item.index % 2 else [["column"], ["row"]]}
            return {"synonyms": {"first": "A", "second": "B"}}
        if k == 3:
            if item.answer_type == "sequence":
                tokens = [t.strip() for t in item.answer.split(",") if t.strip()]
                return {"vocabulary": [*tokens, "orange"], "synonyms": {"crimson": tokens[0]}}
            return {"synonyms": ("not", "a", "dict")}  # not plain: never remembered
        return {"synonyms": {"second": "A"}, "unused": 1}


HINTED = HintedScoring()


class HintedPlugin:
    """Registers ``hint/<answer type>``, each scored with :class:`HintedScoring`'s hints."""

    BENCH_ABI = 2

    @hookimpl
    def bench_register_tasks(self):
        return [Task(family="hint", name=t, version="1.0.0", answer_type=t, category=f"cat-{t}",
                     description=f"hinted task {t}", implementation="test_score_exact:HINTED") for t in BUILDER.TYPES]


def _host():
    from bench_core.host import create_host

    BUILDER.host()  # puts the fixture's modules on the path
    import toy_plugin

    return create_host(entry_points=False, plugins=[("toy", toy_plugin), ("fixture", BUILDER.FixturePlugin()),
                                                    ("hint", HintedPlugin())])


#: Values put in items and responses that orjson reads otherwise than json, or not at all.
BIG = 123456789012345678901234567890
ODD_TEXT = ['{"big": 123456789012345678901234567890}', '{"nan": NaN}', '{"huge": 1e400}', '"\\ud800 lone"',
            '{"neg": -9223372036854775809}', '{"ok": 18446744073709551615}']


def _dataset(tmp_path: Path, count: int = 1500) -> Path:
    """Items copied from the fixture's lines (every third moved to a ``hint/`` task), some with odd values in
    their params, seed, question or metadata, written as ``Item.to_json`` writes them; predictions for most,
    some responses odd, and malformed lines."""
    lines = [line for line in (DATA / "items.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]
    rows = [json.loads(line) for line in (FIXTURES / "graded_responses.jsonl").read_text().splitlines() if line]
    root = tmp_path / "exact"
    root.mkdir()
    items, preds = [], []
    for k in range(count):
        record = json.loads(json.dumps(records[(k * 7) % len(records)]))
        record["id"] = f"e.{k:05d}"
        record["index"] = k
        if k % 3 == 0:
            record["family"], record["task"] = "hint", record["answer_type"]
        record.pop("extra", None)
        head = {key: value for key, value in record.items() if key != "metadata"}
        text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1]
        odd = k % 13
        if odd == 1:
            text = text.replace('"params":{', f'"params":{{"big":{BIG},', 1)
        elif odd == 2:
            text = text.replace('"seed":3', f'"seed":{BIG}', 1)
        elif odd == 3:
            text = text.replace('"params":{', '"params":{"nan":NaN,', 1)
        elif odd == 4:
            text = text.replace('"question":"', '"question":"\\ud800', 1)
        elif odd == 5:
            text = text.replace('"params":{', '"params":{"ok":18446744073709551615,"neg":-9223372036854775809,', 1)
        metadata = json.dumps(record.get("metadata"), ensure_ascii=False, separators=(",", ":"))
        if odd in (6, 7) and metadata.startswith("{"):
            metadata = '{"weight":' + ("1e400" if odd == 6 else str(BIG)) + "," + metadata[1:]
        items.append(f'{text},"metadata":{metadata}}}')
        if k % 10:
            response = rows[(k * 11) % len(rows)]["response"]
            if k % 17 == 0:
                preds.append(f'{{"id": "e.{k:05d}", "response": {ODD_TEXT[(k // 17) % len(ODD_TEXT)]}}}')
                continue
            if k % 19 == 0:
                response = [BIG, "A"] if k % 2 else BIG
            preds.append(json.dumps({"id": f"e.{k:05d}", "response": response}))
        if k % 50 == 0:
            preds.append(['{"id": "x", "resp', '[1, 2]', '{"response": "A"}', f'{{"id": {BIG}, "response": "A"}}',
                          '{"id": "e.00001", "response": NaN}'][(k // 50) % 5])
    (root / "items.jsonl").write_text("\n".join(items) + "\n", encoding="utf-8")
    (root / "predictions.jsonl").write_text("\n".join(preds) + "\n", encoding="utf-8")
    return root


def _exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read every line with json, as before orjson."""
    monkeypatch.setattr(score_lines, "_fast_loads", None)
    monkeypatch.setattr(predictions, "_fast_loads", None)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("by", [[], ["big", "seed", "params.nan", "tag", "weight"]])
def test_the_fast_readers_give_the_exact_paths_reports(tmp_path, monkeypatch, workers, by):
    """Odd values in items and responses, a hinted task, malformed lines, in parts of 60 kB: the report with orjson
    is the report without it, and the plain path's numbers."""
    from bench_core import score_workers

    monkeypatch.setattr(score_workers, "PART_BYTES", 60_000)
    root = _dataset(tmp_path)
    host = _host()
    fast = score_dataset(root, root / "predictions.jsonl", by, host=host, workers=workers)
    with monkeypatch.context() as patch:
        _exact(patch)
        exact = score_dataset(root, root / "predictions.jsonl", by, host=_host(), workers=workers)
    assert json.dumps(fast, sort_keys=True) == json.dumps(exact, sort_keys=True)
    assert json.dumps(_numbers(fast), sort_keys=True) == json.dumps(
        _numbers(plain_report(root, root / "predictions.jsonl", by, _host())), sort_keys=True)
    assert fast["malformed_lines"] > 0 and fast["missing"] > 0


def test_hinted_tasks_are_remembered_with_their_hints(tmp_path):
    """Items of a task with its own hints (scored from memory when the answer, options, hints and response were
    seen before) score as the hooks score each of them."""
    from bench_core.report import _Scorer, metrics_of
    from bench_core.scorer import score

    root = _dataset(tmp_path, 300)
    host = _host()
    scorer = _Scorer(host)
    views = [view for view in read_views(root) if view.task_id.startswith("hint/")]
    assert {scorer._kind(view.task_id)[0] for view in views} == {"hints"}
    responses = ["second", "yes", "no", "first", "t1", "column 5, row 3", "(3, 5)", "crimson", "A", "3", None]
    for _ in range(2):  # the second round is looked up
        for view in views:
            for response in responses:
                expected = score(view.item().whole(), response, host=host)
                assert scorer(view, response) == (expected.value, metrics_of({"answered": expected.answered,
                                                                               **expected.details}))
    assert any(key[0] == "hints" for key in scorer.memo)


class OwnScoring(BUILDER._Stub):
    """Its own ``score``, which leaves every ``integer`` item and the first ``option`` items (index below 300) to the
    core scorer (returns None)."""

    def score(self, item, response):
        if item.answer_type == "integer" or (item.answer_type == "option" and item.index < 300):
            return None
        return score_item(item, response)


OWN = OwnScoring()


class OwnPlugin:
    """Registers ``own/<answer type>``, each scored by :class:`OwnScoring`."""

    BENCH_ABI = 2

    @hookimpl
    def bench_register_tasks(self):
        return [Task(family="own", name=t, version="1.0.0", answer_type=t, category=f"cat-{t}",
                     description=f"own-score task {t}", implementation="test_score_exact:OWN") for t in BUILDER.TYPES]


@pytest.mark.parametrize("workers", [1, 2])
def test_tasks_with_their_own_score_are_traced_as_the_hooks_trace_them(tmp_path, monkeypatch, workers):
    """A task's own ``score`` is traced once per task and outcome (it answered, or left the item to the core), yet
    the report's ``hooks_ran`` and numbers are those of scoring every item through the hooks."""
    from bench_core import score_workers
    from bench_core.host import create_host, trace_json
    from bench_core.scorer import score

    monkeypatch.setattr(score_workers, "PART_BYTES", 60_000)
    root = _dataset(tmp_path, 600)
    items = root / "items.jsonl"
    items.write_text(items.read_text(encoding="utf-8").replace('"family":"hint"', '"family":"own"'), encoding="utf-8")
    BUILDER.host()
    import toy_plugin

    host = create_host(entry_points=False, plugins=[("toy", toy_plugin), ("fixture", BUILDER.FixturePlugin()),
                                                    ("ownp", OwnPlugin())])
    report = score_dataset(root, root / "predictions.jsonl", host=host, workers=workers)
    responses, _ = load_predictions(root / "predictions.jsonl")
    with host.tracing() as trace:
        for view in read_views(root):
            if view.task_id.startswith("own/") and view.id in responses:
                score(view.item().whole(), responses[view.id], host=host)
    expected = trace_json(trace)
    assert {t: report["hooks_ran"][t] for t in expected} == expected
    assert expected["own/integer"] == {"bench_score": []} and expected["own/option"] == {"bench_score": ["ownp"]}
    assert json.dumps(_numbers(report), sort_keys=True) == json.dumps(
        _numbers(plain_report(root, root / "predictions.jsonl", [], host)), sort_keys=True)


LINES = [b'{"id": "a", "response": "B"}', b'{"id":"a","response":null}', b'{"id": "a", "response": 7}',
         b'{"id": "a", "response": 123456789012345678901234567890}', b'{"id": "a", "response": 1e400}',
         b'{"id": "a", "response": [1, 123456789012345678901234567890]}', b'{"id": "a", "response": NaN}',
         b'{"id": "a", "response": "\\ud800"}', b'{"id": "a", "response": "\xff"}', b'\xef\xbb\xbf{"id": "a"}',
         b'{"id": 123456789012345678901234567890, "response": "A"}', b'{"id": "a", "id": "b", "response": 1}',
         b'{"id": "a"}', b'[1, 2]', b'{"id": "a", "response": {"x": -9223372036854775809}}', b' {"id": "a", '
         b'"response": 2.5} ', b'{"id": "a", "response": true, "extra": 1e400}', b'{"id": "a", "response": "\\u00e9"}',
         b'{"id": "\xc3\xa9", "response": "\xc3\xa9"}', b'{"id": "a", "response": "B"} x', b"[" * 3000 + b"]" * 3000]


@pytest.mark.parametrize("raw", LINES)
def test_a_prediction_line_reads_as_json_reads_it(raw):
    assert repr(decode_line(raw)) == repr(decode_record(raw.decode("utf-8", "replace")))


ITEM = {"id": "i.1", "family": "fix", "task": "default-option", "version": "1", "plugin": {"name": "x"}, "seed": 3,
        "index": 1, "params": {"colour": "red"}, "variant": None, "pair": None, "question": "Which?", "options": None,
        "answer": "B", "answer_type": "option", "images": ["a.png"], "image_sha256": ["0"]}
_HEAD = json.dumps(ITEM, separators=(",", ":"))[:-1]
ITEM_LINES = [_HEAD + ',"metadata":{"a":1}}', _HEAD.replace('"seed":3', f'"seed":{BIG}') + ',"metadata":{}}',
              _HEAD.replace('"colour":"red"', '"n":NaN') + ',"metadata":null}',
              _HEAD.replace('"colour":"red"', '"x":1e400') + ',"metadata":{"a":1}}',
              _HEAD.replace('"Which?"', '"\\ud800?"') + ',"metadata":{"a":1}}',
              _HEAD.replace('"family":"fix"', f'"family":{BIG}') + ',"metadata":{"a":1}}',
              _HEAD.replace('"options":null', '"options":"AB"') + ',"metadata":{"a":1}}',
              _HEAD + ',"metadata":{"a":1}}   ', _HEAD + ',"metadata":  {"a":1} }', _HEAD + ',"metadata":[1]}',
              _HEAD + ',"metadata":{"a":1},"x":2}',
              _HEAD.replace('"answer_type":"option"', '"answer_type":"odd"') + ',"metadata":{}}',
              _HEAD + ',"metadata":{"big":' + str(BIG) + '}}', '{"metadata":{},' + _HEAD[1:] + "}",
              _HEAD + ',"metadata":{"a":1,"a":2}}',
              _HEAD.replace('"params":{', '"params":{"p":1,"p":2,') + ',"metadata":1}',
              _HEAD.replace('"colour":"red"', f'"big":{BIG}') + ',"metadata":{}}',
              _HEAD.replace('"colour":"red"', f'"deep":[[1,{{"n":{BIG}}}],"x"]') + ',"metadata":{}}']


@pytest.mark.parametrize("text", ITEM_LINES)
def test_an_item_line_splits_as_json_splits_it(text):
    """The keys orjson reads (read again by json where a long integer may have become a float) are json's."""
    line = text.encode("utf-8", "surrogatepass")
    data = b"\n" + line + b"\n"
    fast, exact = split_at(data, 1, len(data) - 1), split_line(line)
    assert (fast is None) == (exact is None)
    if fast is not None:
        assert repr(exact_record(fast)) == repr(exact[0])
        assert (fast[3] - 1, fast[4] - 1) == exact[2:]


def test_a_lazy_item_is_the_item():
    """The item of a split line reads, compares, prints, copies and pickles as the Item read whole, and decodes its
    metadata only when it is read."""
    whole = {item.id: item for item in __import__("bench_core.dataset", fromlist=["x"]).read_items(DATA)}
    lazy = [view.item() for view in read_views(DATA)]
    assert sum(type(item) is LazyItem for item in lazy) > 100
    for item in lazy:
        expected = whole[item.id]
        if type(item) is LazyItem:
            assert item._view._metadata is None  # nothing has read it yet
        assert item == expected and expected == item
        assert not item != expected  # noqa: SIM202 (__ne__ is defined apart)
        assert repr(item) == repr(expected) and attrs.asdict(item) == attrs.asdict(expected)
        assert type(pickle.loads(pickle.dumps(item))) is Item and copy.deepcopy(item) == expected
        assert attrs.evolve(item, answer="Z") == attrs.evolve(expected, answer="Z")
        with pytest.raises(TypeError):
            hash(item)


@pytest.mark.parametrize("text", ITEM_LINES)
def test_the_item_of_a_split_line_is_the_item_json_reads(text):
    """The item ``bench score`` builds from a split line (its fields taken from orjson's record when first read) is
    the Item of the line as json reads it: long integers, NaN and lone surrogates included, field by field."""
    from bench_core.score_lines import entry_item

    line = text.encode("utf-8", "surrogatepass")
    data = b"\n" + line + b"\n"
    entry = split_at(data, 1, len(data) - 1)
    if entry is None:
        return
    expected = Item.from_record(json.loads(text))
    for name in [a.name for a in attrs.fields(Item)]:  # one field read first, then the rest
        item = entry_item("root", entry)
        assert repr(getattr(item, name)) == repr(getattr(expected, name)), name
        assert repr(item.whole()) == repr(expected) and item == expected


def test_reading_a_text_field_reads_nothing_else():
    """A split line's item whose answer type (a text) is read has not checked its numbers nor decoded its metadata;
    reading its seed (a long integer, which orjson reads as a float) reads it again with json."""
    from bench_core.score_lines import entry_item

    line = (_HEAD.replace('"seed":3', f'"seed":{BIG}') + ',"metadata":{"a":1}}').encode()
    data = b"\n" + line + b"\n"
    entry = split_at(data, 1, len(data) - 1)
    assert type(entry[0]["seed"]) is float  # orjson's record
    item = entry_item("root", entry)
    assert item.answer_type == "option" and item.options is None
    assert item._view._exact is False and item._view._metadata is None
    assert item.seed == BIG and type(item.seed) is int and item._view._exact is True
    assert item.metadata == {"a": 1}
