"""``bench score``: score a predictions file against a dataset and break accuracy down by any field.

Both files are streamed: memory holds an index of the predictions (a hash and an offset per id:
:mod:`bench_core.predictions`) and the counters of each group (:mod:`bench_core.score_tally`), never the items
or the responses.  The items file is read in parts of whole lines, as bytes (:mod:`bench_core.score_lines`);
with ``workers`` the parts are scored in forked processes (:mod:`bench_core.score_workers`).  Items are added up
in file order, so every mean is the one adding the items one at a time gives (the same floats, to the last bit).
Each task's way of scoring is worked out once (:class:`_Scorer`): where a task keeps the core scorer and no
plugin wraps ``bench_score``, an item is scored from its answer, answer type and options alone, and a response
already scored against the same answer is looked up, without building the item's view; a task that keeps the
default ``score`` but gives its own ``scoring_hints`` is looked up likewise, by answer, hints and response.

A report can also hold each group's mean random baseline (``baseline``: each task's ``random_baseline``), and
where items come in the variants ``cartesian`` and ``polar``, each task's accuracy in both and the drop
(:func:`variant_drop`).
"""

from __future__ import annotations

import gc
import json
import math
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from bench_core.dataset import ITEMS, iter_records
from bench_core.errors import BenchError, DatasetError
from bench_core.host import Host, default_host, trace_json
from bench_core.item_views import ItemView, read_views
from bench_core.predictions import PredictionIndex, iter_predictions
from bench_core.rewards import score_record
from bench_core.score_lines import ABSENT, Entry, entries_in, entry_item, entry_view, key_absent, metadata_text
from bench_core.score_tally import Group, Outcome, Packer, Part, Tally, merge_trace
from bench_core.scorer import checked_baseline, random_baseline, score_item
from bench_core.task import TaskImplementation, implementation
from bench_core.types import Item

#: Breakdowns every report has; ``--by`` adds more.
STANDARD_GROUPS = ("task", "category", "variant")


def load_predictions(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, int]]:
    """Responses by item id from a JSONL file of ``{"id": ..., "response": ...}``, all in memory (``bench
    score`` streams the file instead: :class:`bench_core.predictions.PredictionIndex`).

    Malformed lines (not JSON, not an object, no string id, no response) are counted, not fatal; a
    repeated id keeps its last response and is counted.
    """
    responses: dict[str, Any] = {}
    counts = {"lines": 0, "malformed": 0, "duplicates": 0}
    for _, _, record in iter_predictions(path):
        counts["lines"] += 1
        if record is None:
            counts["malformed"] += 1
            continue
        if record["id"] in responses:
            counts["duplicates"] += 1
        responses[record["id"]] = record["response"]
    return responses, counts


def _field_text(value: Any) -> str:
    if isinstance(value, (list, dict, tuple)):
        return json.dumps(value, sort_keys=True)
    return "null" if value is None else str(value)


def field_value(item: Item, field: str, category: str) -> str:
    """The value of ``field`` for grouping: ``params.X``, ``metadata.X``, an item attribute, or a bare name
    looked up in params (where it was set), then metadata (where a drawn value is recorded)."""
    if field == "task":
        value: Any = item.task_id
    elif field == "category":
        value = category
    elif field == "variant" and type(item.variant) is str:  # the item's own variant (a Polaris pair's rendering)
        value = item.variant
    elif field.startswith("params."):
        value = item.params.get(field[7:])
    elif field.startswith("metadata."):
        value = item.metadata.get(field[9:])
    elif item.params.get(field) is not None:  # a drawn parameter (None in params) is found in metadata
        value = item.params[field]
    elif field in item.metadata:
        value = item.metadata[field]
    else:
        value = getattr(item, field, None)
    return _field_text(value)


def _view_value(view: ItemView, field: str, category: str) -> str:
    """:func:`field_value` of the item ``view`` stands for, decoding its metadata only where it may hold
    ``field``."""
    if field == "task":
        value: Any = view.task_id
    elif field == "category":
        value = category
    elif field == "variant" and type(view.attribute("variant")) is str:
        value = view.attribute("variant")
    elif field.startswith("params."):
        value = view.params.get(field[7:])
    elif field.startswith("metadata."):
        value = view.metadata_get(field[9:])
    elif view.params.get(field) is not None:
        value = view.params[field]
    elif view.metadata_has(field):
        value = view.metadata[field]
    else:
        value = view.attribute(field)
    return _field_text(value)


def available_fields(items: Iterable[Item]) -> list[str]:
    """The fields ``--by`` can group on: the standard ones, then every params and metadata key present
    (the scene record excluded), as bare names."""
    names: set[str] = set()
    for item in items:
        names.update(k for k, v in item.params.items() if v is not None)
        names.update(k for k in item.metadata if k != "scene")
    return [*STANDARD_GROUPS, "answer_type", *sorted(names)]


#: Score details that are values, not metrics, and are never averaged.
_NOT_METRICS = frozenset({"parsed", "gold", "via", "error"})


def metrics_of(details: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """The metrics among a score's details: the values that are bools or finite numbers, as floats."""
    out = []
    for key, metric in details.items():
        if key in _NOT_METRICS:
            continue
        kind = type(metric)
        if kind is float or kind is int:  # the common kinds first; a bool or a subclass is checked below
            if math.isfinite(metric):
                out.append((key, float(metric)))
        elif isinstance(metric, bool) or (isinstance(metric, (int, float)) and math.isfinite(metric)):
            out.append((key, float(metric)))
    return tuple(out)


#: The counters of one group (kept under this name for callers of the whole-file scorer's).
_Group = Group

_MISSING = (0.0, (("answered", 0.0),))
_MISSING_OUTCOME = (*_MISSING, None)
_TASK_NAMES = re.compile(rb'"family":"([^"\\]{1,200})","task":"([^"\\]{1,200})"')
_MEMO_SIZE = 1 << 14  # scored (answer, response) pairs remembered, each response of at most
_MEMO_RESPONSE = 1000  # this many characters
_UNKEYED = object()  # a response that is no memo key
_TEXT = {str}


def response_key(response: Any) -> Any:
    """``response`` as the part of a memo key that stands for it, or ``_UNKEYED``: a text of at most
    :data:`_MEMO_RESPONSE` characters and None as they are, an int or a bool with its type (``1 == True``, and
    they are scored apart); anything else (a longer text, a float, a list) is not remembered."""
    kind = type(response)
    if kind is str:
        return response if len(response) <= _MEMO_RESPONSE else _UNKEYED
    if response is None:
        return None
    if kind is int or kind is bool:
        return kind, response
    return _UNKEYED


class _Scorer:
    """Scores items as :func:`bench_core.scorer.score` does, tracing which plugins' hooks ran, and returns
    ``(value, metrics)``; :meth:`baseline` gives an item's random baseline.

    Each task's way of scoring is worked out once (:meth:`_kind`): ``record`` (not installed: scored from the
    item's record alone), ``core`` (it keeps the core scorer and no plugin but the core implements
    ``bench_score``: scored from its answer, answer type and options without building the Item, and a short
    response already scored against the same answer is looked up), ``hints`` (the default ``score`` with its
    own ``scoring_hints``, no plugin wrapping ``bench_score``: the hints are asked of each item, and a short
    response already scored with the same answer and hints is looked up: :meth:`hinted`), ``own`` (its own
    ``score``, no plugin wrapping ``bench_score``: its implementation is called without the hook machinery) or
    ``hook`` (through the hooks).  An Item built for a task is a :class:`~bench_core.item_views.LazyItem`: its
    fields are taken from the line (its metadata decoded) only where the task reads them."""

    def __init__(self, host: Host, baseline: bool = False) -> None:
        self.host = host
        self.with_baseline = baseline
        self.plain_hooks = {i.plugin_name for i in host.pm.hook.bench_score.get_hookimpls()} <= {"core"}
        self.kinds: dict[str, tuple[str, Any, Any]] = {}
        self.traced: set[str] = set()
        self.memo: dict[tuple[Any, ...], Outcome] = {}  # (value, metrics, None): outcomes without a baseline
        self.outcomes: dict[str, Outcome] = {}  # one object for the outcomes of the same text (see remember)
        self.categories: dict[str, str] = {}
        self.names: dict[tuple[Any, Any], tuple[str, str, str, Any, Any]] = {}
        self.own_traced: set[tuple[str, bool]] = set()  # (task id, whether its score answered) traced by _own

    def remember(self, key: tuple[Any, ...], outcome: Outcome) -> Outcome:
        """Remember ``outcome`` under ``key`` in :attr:`memo` and return it, as the object already remembered for
        an outcome of the same text if there is one: the items of a part that share an outcome then share its
        object, which :class:`~bench_core.score_tally.Packer` knows by its ``id()`` (the text tells apart
        what equality does not: -0.0 and 0.0, 1 and 1.0)."""
        if len(self.memo) >= _MEMO_SIZE:
            self.memo.clear()
        if len(self.outcomes) >= _MEMO_SIZE:
            self.outcomes.clear()
        outcome = self.outcomes.setdefault(repr(outcome), outcome)
        self.memo[key] = outcome
        return outcome

    def category(self, task_id: str) -> str:
        """The ``category`` group of ``task_id``'s items: its task's category, "unknown" if it is not installed."""
        category = self.categories.get(task_id)
        if category is None:
            task = self.host.tasks.get(task_id)
            category = self.categories[task_id] = _field_text(task.category) if task else "unknown"
        return category

    def prepare(self, root: str | os.PathLike[str], part: tuple[int, int]) -> None:
        """Work out the way of scoring (importing the implementation) of every task named in bytes ``part`` of
        ``root``'s items file, in a line written as ``Item.to_json`` writes it."""
        with open(Path(root) / ITEMS, "rb") as handle:
            handle.seek(part[0])
            data = handle.read(part[1] - part[0])
        for family, task in set(_TASK_NAMES.findall(data)):
            try:
                self._kind(f"{family.decode('utf-8')}/{task.decode('utf-8')}")
            except (UnicodeDecodeError, BenchError):
                continue  # the worker that meets it says what is wrong

    def name(self, names: tuple[str, str]) -> tuple[str, str, str, Any, Any]:
        """(task id, kind, category, task or None, implementation or None) of the task ``(family, name)``,
        remembered in :attr:`names`."""
        task_id = f"{names[0]}/{names[1]}"
        kind, task, impl = self._kind(task_id)
        found = self.names[names] = (task_id, kind, self.category(task_id), task, impl)
        return found

    def trace_id(self, task_id: str) -> None:
        """:meth:`trace` of an installed task by its id (nothing for a task that is not installed)."""
        task = self._kind(task_id)[1]
        if task is not None:
            self.trace(task)
        else:
            self.traced.add(task_id)

    def trace(self, task: Any) -> None:
        """Note that the core scored an item of ``task``: what ``host.call`` records."""
        self.host.ran(task, "bench_score", [self.host.label("core", task)])
        self.traced.add(task.id)

    def _kind(self, task_id: str) -> tuple[str, Any, Any]:
        """(kind, task or None, implementation or None) of ``task_id``: see the class's docstring."""
        kind = self.kinds.get(task_id)
        if kind is None:
            task = self.host.tasks.get(task_id)
            if task is None:
                kind = ("record", None, None)
            else:
                impl = implementation(task)
                keeps_score, keeps_hints = (getattr(getattr(impl, name), "__func__", None)
                                            is getattr(TaskImplementation, name) for name in ("score", "scoring_hints"))
                name = ("hook" if not self.plain_hooks else "own" if not keeps_score else "core" if keeps_hints
                        else "hints")
                kind = (name, task, impl)
            self.kinds[task_id] = kind
        return kind

    def __call__(self, view: ItemView, response: Any) -> tuple[float, tuple[tuple[str, float], ...]]:
        kind, task, impl = self._kind(view.task_id)
        if kind == "hook":
            return self._hook(task, view.item(), response)
        if kind == "own":
            return self._own(task, impl, view.item(), response)
        if kind == "hints":
            return self.hinted(view.task_id, view.item(), response)[:2]
        if task is not None and task.id not in self.traced:
            self.trace(task)
        key: Any = None
        options = view.options
        said = response_key(response)
        if said is not _UNKEYED and (options is None or all(type(o) is str for o in options)):
            answer = view.answer
            key = (kind, view.answer_type, answer.__class__, answer, options, said)
            try:
                found = self.memo.get(key)
            except TypeError:  # an unhashable answer or option
                key = found = None
            if found is not None:
                return found[0], found[1]
        result = self._core(kind, view, response)
        if key is not None:
            self.remember(key, (*result, None))
        return result

    @staticmethod
    def _core(kind: str, view: ItemView, response: Any) -> tuple[float, tuple[tuple[str, float], ...]]:
        if kind == "core":
            result = score_item(view, response)  # type: ignore[arg-type]  # reads answer, type and options
        else:  # as scorer.score does for a task that is not installed (scoring_record without hints)
            record = {"answer": view.answer, "answer_type": view.answer_type,
                      "options": list(view.options) if view.options is not None else None,
                      "task": view.task_id, "version": view.version}
            result = score_record(record, response, mode="lenient")
        return result.value, metrics_of({"answered": result.answered, **result.details})

    def _own(self, task: Any, impl: Any, item: Item, response: Any) -> tuple[float, tuple[tuple[str, float], ...]]:
        """What ``host.call("bench_score", ...)`` gives where the core's hook alone runs: the task's ``score``.  What
        the call traces is traced once per task and outcome (its ``score`` answered, or left the item to the core):
        the trace is the same set of names, however often it is traced."""
        result = impl.score(item, response)
        answered = result is not None
        if (task.id, answered) not in self.own_traced:
            self.own_traced.add((task.id, answered))
            self.host.ran(task, "bench_score", [self.host.label("core", task)] if answered else [])
        if not answered:
            result = score_item(item, response)
        return result.value, metrics_of({"answered": result.answered, **result.details})

    def hinted(self, task_id: str, item: Item, response: Any) -> Outcome:
        """The outcome (value, metrics, None) ``_own`` gives for an item of a task that keeps the default ``score``
        (see :meth:`hinted_fields`)."""
        _, task, impl = self._kind(task_id)
        options = item.options
        return self.hinted_fields(task, impl, item, response, item.answer_type, item.answer,
                                  options if not options or set(map(type, options)) == _TEXT else _UNKEYED)

    def hinted_fields(self, task: Any, impl: Any, item: Item, response: Any, answer_type: Any, answer: Any,
                      options: Any) -> Outcome:
        """The outcome (value, metrics, None) ``_own`` gives for ``item``, of ``task`` that keeps the default
        ``score`` (the core scorer given the task's ``scoring_hints(item)``, which is asked of every item), given
        the item's answer type, answer and options (a tuple of texts, None, or ``_UNKEYED`` for any other): a pure
        function of those, the hints and the response, so a short response already scored with the same ones is
        looked up (the same outcome object is returned)."""
        hints = impl.scoring_hints(item)
        if task.id not in self.traced:
            self.trace(task)
        key: Any = None
        if not hints:
            hinted: Any = ()
        elif type(hints) is dict:
            hinted = _hint_key((hints.get("vocabulary"), hints.get("synonyms"), hints.get("keywords")))
        else:
            hinted = _UNPLAIN
        said = response if type(response) is str and len(response) <= _MEMO_RESPONSE else response_key(response)
        if hinted is not _UNPLAIN and type(answer) is str and said is not _UNKEYED and options is not _UNKEYED:
            key = ("hints", answer_type, answer, options, said, hinted)
            found = self.memo.get(key)
            if found is not None:
                return found
        if not hints:
            result = score_item(item, response)
        else:
            result = score_item(item, response, vocabulary=hints.get("vocabulary"), synonyms=hints.get("synonyms"),
                                keywords=hints.get("keywords"))
        out = (result.value, metrics_of({"answered": result.answered, **result.details}), None)
        return out if key is None else self.remember(key, out)

    def _hook(self, task: Any, item: Item, response: Any) -> tuple[float, tuple[tuple[str, float], ...]]:
        result = self.host.call("bench_score", task, item=item, response=response)
        if result is None:
            result = score_item(item, response)
        return result.value, metrics_of({"answered": result.answered, **result.details})

    def baseline(self, view: ItemView) -> float:
        """The item's random baseline: its task's ``random_baseline(item)``, or for a task that is not installed
        or keeps the default, :func:`bench_core.scorer.random_baseline` of its record."""
        _, task, impl = self._kind(view.task_id)
        if impl is None or getattr(impl.random_baseline, "__func__", None) is TaskImplementation.random_baseline:
            return random_baseline(view.answer_type, view.options, view.metadata_get("chance"))
        return checked_baseline(task.id, impl.random_baseline(view.item()))


_UNPLAIN = object()  # a hint that is no key


def _hint_key(value: Any) -> Any:
    """``value`` (scoring hints: strings, lists, tuples and dicts of them, None) as a hashable key that tells apart
    whatever the scorer could (each container with its kind, a dict's entries in order), or ``_UNPLAIN`` if it
    holds anything else (numbers included: 1, 1.0 and True are equal keys)."""
    kind = type(value)
    if kind is str or value is None:
        return value
    if kind is list or kind is tuple:
        if all(type(v) is str for v in value):  # not _strings: a plugin's hints may hold subclasses of str
            return kind.__name__, tuple(value)
        parts = tuple(_hint_key(v) for v in value)
        return _UNPLAIN if any(p is _UNPLAIN for p in parts) else (kind.__name__, parts)
    if kind is dict:
        pairs = tuple((_hint_key(k), _hint_key(v)) for k, v in value.items())
        return _UNPLAIN if any(k is _UNPLAIN or v is _UNPLAIN for k, v in pairs) else ("dict", pairs)
    return _UNPLAIN


_BATCH = 1024
#: The kinds of task :func:`block_results` scores from a split line, without the item's view (see
#: :class:`_Scorer`): all but those whose ``bench_score`` a plugin wraps.
_SPLIT_KINDS = frozenset({"core", "record", "hints", "own"})


def _batches(views: Iterator[ItemView]) -> Iterator[list[ItemView]]:
    batch: list[ItemView] = []
    for view in views:
        batch.append(view)
        if len(batch) == _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _check_inputs(root: str | os.PathLike[str], predictions: str | os.PathLike[str], workers: int = 1
                  ) -> PredictionIndex:
    """The index of ``predictions`` (built in ``workers`` processes); if it cannot be read, a bad or empty
    dataset is reported first (as the scorer that read the items before the predictions did)."""
    from bench_core.score_workers import build_index

    try:
        return build_index(predictions, workers)
    except DatasetError:
        if not any(True for _ in read_views(root)):
            raise DatasetError(f"{Path(root) / 'items.jsonl'} holds no items; there is nothing to score") from None
        raise


Result = tuple[Any, str, bool, tuple[str, ...], Outcome]


def item_results(views: Iterable[ItemView], index: PredictionIndex, scorer: _Scorer, extra: list[str]
                 ) -> Iterator[Result]:
    """(id, task id, whether it has a response, its group keys, its outcome: score, metrics and random baseline
    or None) of each item, in order."""
    for batch in _batches(iter(views)):
        responses = index.lookup_many([v.id for v in batch])
        for view, (found, response) in zip(batch, responses, strict=True):
            yield _result(view, found, response, scorer, extra)


def _result(view: ItemView, found: bool, response: Any, scorer: _Scorer, extra: list[str]) -> Result:
    """The :data:`Result` of one item."""
    task_id = view.task_id
    category = scorer.category(task_id)
    value, metrics = scorer(view, response) if found else _MISSING
    keys = view.standard_keys(category)
    if extra:
        keys += tuple(_view_value(view, field, category) for field in extra)
    return view.id, task_id, found, keys, (value, metrics, scorer.baseline(view) if scorer.with_baseline else None)


def block_results(root: str | os.PathLike[str], data: bytes, index: PredictionIndex, scorer: _Scorer,
                  extra: list[str], packer: Packer, start: int = 0, end: int | None = None,
                  ascii: bool | None = None) -> None:
    """Add to ``packer`` the results :func:`item_results` gives for the items in ``data[start:end]`` (whole lines
    of ``root/items.jsonl``; ``ascii`` as :func:`~bench_core.score_lines.entries_in` takes it).  Without ``--by``
    fields or baselines, an item split where ``Item.to_json`` puts the metadata, of a task whose ``bench_score``
    no plugin wraps, is scored from that split line: by the core from its record (a response seen before for its
    answer is looked up), or with the task's hints or its own ``score`` given the item built from the line; its
    view is built only where its variant group is not text found by :func:`_split_variant` (or a response must
    be parsed).  Any other item goes through its view."""
    entries = entries_in(root, data, start, end, ascii)
    responses = index.lookup_many([e[0]["id"] if type(e) is tuple else e.id for e in entries])
    add = packer.add
    if extra or scorer.with_baseline:
        for entry, (found, response) in zip(entries, responses, strict=True):
            add(*_result(entry_view(root, entry), found, response, scorer, extra))
        return
    memo, tasks, traced = scorer.memo, scorer.names, scorer.traced
    combos, seen, combo_of, outcome_of = packer.combos_seen_and_appends()
    for entry, (found, response) in zip(entries, responses, strict=True):
        task = None
        if type(entry) is tuple:
            record = entry[0]
            names = (record["family"], record["task"])
            if type(names[0]) is str and type(names[1]) is str:  # else: the view names what is wrong
                task = tasks.get(names) or scorer.name(names)
        if task is None or task[1] not in _SPLIT_KINDS or type(record["id"]) is not str:
            add(*_result(entry_view(root, entry), found, response, scorer, extra))
            continue
        task_id, kind, category, task_object, impl = task
        view = None
        variant = _split_variant(entry)
        if variant is None:  # a value that is no text, or one the metadata may hold: the view's own
            view = entry_view(root, entry)
            keys = view.standard_keys(category)
        else:
            keys = (task_id, category, variant)
        if not found:
            packer.missing(record["id"])
            outcome: Any = _MISSING_OUTCOME
        elif kind == "own":
            outcome = (*scorer._own(task_object, impl, entry_item(root, entry), response), None)
        else:
            answer, options = record["answer"], record["options"]
            if options is not None:
                options = tuple(options) if _strings(options) else _UNKEYED
            if kind == "hints":
                outcome = scorer.hinted_fields(task_object, impl, entry_item(root, entry), response,
                                               record["answer_type"], answer, options)
            else:
                outcome = key = None
                said = (response if type(response) is str and len(response) <= _MEMO_RESPONSE
                        else response_key(response))
                if type(answer) is str and said is not _UNKEYED and options is not _UNKEYED:
                    key = (kind, record["answer_type"], str, answer, options, said)
                    outcome = memo.get(key)
                if outcome is None:
                    result = scorer(view or entry_view(root, entry), response)
                    outcome = memo.get(key) if key is not None else None  # the object remembered
                    if outcome is None:
                        outcome = (*result, None)
                elif task_id not in traced:
                    scorer.trace_id(task_id)
        c = combos.get(keys)
        o = seen.get(id(outcome))
        if c is None or o is None:  # new to this part: Packer.add keeps them
            add(record["id"], task_id, True, keys, outcome)
        else:
            combo_of(c)
            outcome_of(o)


def _split_variant(entry: Entry) -> str | None:
    """The ``variant`` group of a split line's item where it is text (the item's own variant, else the
    ``variant`` setting, else the metadata's, read by orjson where its text may hold one, else "null" for an
    item without one); None where the view must say (a value that is no text, or one orjson cannot read):
    :meth:`~bench_core.item_views.ItemView.standard_keys`'s rule."""
    record = entry[0]
    variant = record["variant"]
    if type(variant) is str:
        return variant
    params = record["params"]
    setting = params.get("variant") if params else None
    if setting is not None:
        return setting if type(setting) is str else None
    if variant is not None:
        return None
    _, block, _, meta, end = entry
    if (block.find(b'"variant"', meta, end) < 0 and block.find(b"\\", meta, end) < 0) or key_absent(
            block, meta, end, "variant"):
        return "null"
    value = metadata_text(entry, "variant")
    return "null" if value is ABSENT else value


def _strings(values: list[Any]) -> bool:
    """Whether every value of a decoded JSON list is a string (JSON gives no subclass of str: joining them says)."""
    try:
        "".join(values)
    except TypeError:
        return False
    return True


def pack(results: Iterable[Result], size: int = 4096) -> Iterator[Part]:
    """``results`` as parts of ``size`` items."""
    packer = Packer()
    for result in results:
        packer.add(*result)
        if len(packer) >= size:
            yield packer.part
            packer = Packer()
    if len(packer):
        yield packer.part


#: Bytes of a part read into views at a time: the views of a few hundred lines stay in the processor's caches.
_BLOCK = 1 << 20


def score_part(root: str | os.PathLike[str], start: int, end: int, index: PredictionIndex, scorer: _Scorer,
               extra: list[str]) -> Part:
    """The results of the items in bytes ``[start, end)`` of ``root/items.jsonl`` (whole lines), with the index
    entries they found and the hooks that ran.  DatasetError (or UnicodeDecodeError) for a bad line, without
    its line number."""
    with open(Path(root) / ITEMS, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    index.asked = []
    packer = Packer()
    try:
        with scorer.host.tracing() as trace:
            ascii = data.isascii()  # else each line's metadata is checked (no block is copied to check it)
            at = 0
            while at < len(data):
                cut = data.find(b"\n", at + _BLOCK) + 1 or len(data)
                block_results(root, data, index, scorer, extra, packer, at, cut, ascii)
                at = cut
        part = packer.part
        part.asked = index.asked
    finally:
        index.asked = None
    part.trace = trace_json(trace)
    return part


def score_dataset(
    root: str | os.PathLike[str], predictions: str | os.PathLike[str], by: Iterable[str] = (),
    host: Host | None = None, workers: int = 1, baseline: bool = False,
) -> dict[str, Any]:
    """Score every item of ``root``; items without a prediction score 0 and are counted as missing.  A
    dataset with no items is a DatasetError (an accuracy over nothing is no result).  ``workers`` > 1 indexes
    the predictions and scores parts of the items file in that many processes (where processes can be forked),
    with the same result.  ``baseline`` adds each group's mean random baseline (the tasks' ``random_baseline``).

    The items file is read in parts of whole lines; a part that holds a line the fast reader cannot take
    whole (a bad line) makes the run start again with the plain reader, one line at a time, which raises the
    error that line deserves with its line number."""
    host = host or default_host()
    views = read_views(root)  # a missing items.jsonl is reported before the predictions are read
    first = next(views, None)
    views.close()
    if first is None:
        raise DatasetError(f"{Path(root) / 'items.jsonl'} holds no items; there is nothing to score")
    fields = list(STANDARD_GROUPS) + [f for f in by if f and f not in STANDARD_GROUPS]
    extra = fields[len(STANDARD_GROUPS):]
    with _check_inputs(root, predictions, workers) as index, host.tracing() as trace:
        scorer = _Scorer(host, baseline)
        tally = Tally(fields, baseline)
        collecting = gc.isenabled()
        gc.disable()  # scoring makes no reference cycles; the collector's passes over the parts' objects cost a third
        try:
            _score_parts(root, index, scorer, extra, workers, tally, trace)
        except (DatasetError, UnicodeDecodeError):  # read again line by line: the error names the line
            tally = Tally(fields, baseline)
            index.forget_asked()
            for part in pack(item_results(read_views(root), index, scorer, extra)):
                tally.add(part)
        finally:
            if collecting:
                gc.enable()
        tally.finish()
        unknown, unknown_examples = index.unknown()
        counts = {"malformed": index.malformed, "duplicates": index.duplicates}
    return _report(root, predictions, host, tally, extra, unknown, unknown_examples, counts, trace)


def _score_parts(root: str | os.PathLike[str], index: PredictionIndex, scorer: _Scorer, extra: list[str],
                 workers: int, tally: Tally, trace: dict[str, dict[str, set[str]]]) -> None:
    """Score the parts of the items file, here or in ``workers`` processes, adding them to ``tally`` in order."""
    from bench_core.score_workers import parts, score_in_workers

    ranges = parts(Path(root) / ITEMS)
    if workers > 1 and len(ranges) > 1:
        scorer.prepare(root, ranges[0])  # the workers inherit what it imports, rather than each importing it
        if score_in_workers(root, ranges, index, scorer, extra, workers, tally.add, trace):
            return
    for start, end in ranges:
        part = score_part(root, start, end, index, scorer, extra)
        tally.add(part)
        merge_trace(trace, part.trace)


def _report(root: str | os.PathLike[str], predictions: str | os.PathLike[str], host: Host, tally: Tally,
            extra: list[str], unknown: int, unknown_examples: list[str], counts: Mapping[str, int],
            trace: Mapping[str, Any]) -> dict[str, Any]:
    groups = tally.groups
    for field in extra:
        if set(groups[field]) == {"null"}:
            raise DatasetError(
                f"no item has a field {field!r}; fields that exist: {', '.join(available_fields(_items(root)))}"
            )
    summary = tally.overall.summary(tally.baseline)
    report = {
        "overall": summary["accuracy"],
        "macro": macro_means(tally),
        "n": tally.n,
        "metrics": summary,
        "missing": tally.missing,
        "missing_ids": tally.missing_ids,
        "unknown_ids": unknown,
        "unknown_id_examples": unknown_examples,
        "malformed_lines": counts["malformed"],
        "duplicate_ids": counts["duplicates"],
        "predictions_file": str(Path(predictions)),
        "hook_extensions": host.extensions(),
        # for each task: the plugin that owns it, and the plugins whose hooks ran while its items were scored
        "owners": {t: host.owner.get(t) for t in sorted(tally.task_ids)},
        "hooks_ran": trace_json(trace),
        "by": {
            f: {k: g.summary(tally.baseline) for k, g in sorted(groups[f].items(), key=lambda kv: _natural(kv[0]))}
            for f in tally.fields
        },
    }
    drop = variant_drop(tally)
    if drop is not None:
        report["variant_drop"] = drop
    return report


#: The variants whose accuracies ``bench score`` sets side by side, the second minus the first (the "drop"):
#: Cartesian and Polar renderings of one problem (Polaris-Bench).
PAIRED_VARIANTS = ("cartesian", "polar")


def variant_drop(tally: Tally, variants: tuple[str, str] = PAIRED_VARIANTS) -> dict[str, Any] | None:
    """Where items carry both ``variants``: for each task that has items of both, each variant's items,
    accuracy (and mean baseline, if the tally keeps it) and ``drop`` (second minus first); and ``mean``, the
    mean of those over the tasks (each task once), with their number.  None where no task has both."""
    first, second = variants
    tasks: dict[str, Any] = {}
    for task in sorted({t for t, _ in tally.pairs}):
        a, b = tally.pairs.get((task, first)), tally.pairs.get((task, second))
        if a is None or b is None or not a.n or not b.n:
            continue
        one, two = a.summary(tally.baseline), b.summary(tally.baseline)
        row = {first: {k: v for k, v in one.items() if not k.startswith("mean_")},
               second: {k: v for k, v in two.items() if not k.startswith("mean_")}}
        row["drop"] = two["accuracy"] - one["accuracy"]
        tasks[task] = row
    if not tasks:
        return None
    mean: dict[str, Any] = {"tasks": len(tasks)}
    for variant in variants:
        mean[variant] = {k: sum(row[variant][k] for row in tasks.values()) / len(tasks)
                         for k in (["accuracy", "baseline"] if tally.baseline else ["accuracy"])}
    mean["drop"] = mean[second]["accuracy"] - mean[first]["accuracy"]
    return {"variants": list(variants), "tasks": tasks, "mean": mean}


def macro_means(tally: Tally) -> dict[str, Any]:
    """Means in which every task counts once, as papers average over tasks: ``accuracy``, the mean of the task
    accuracies (``tasks`` of them), and ``by``, for each grouping field (but ``task``) under which every task's
    items all fall in one group -- ``category``, a ``split`` recorded per task --, each group's ``tasks`` and
    the mean of their accuracies.  A field that splits some task's items between groups has no such mean
    and is left out.  Tasks with no items do not exist here, so no mean is over nothing.  Where the tally keeps
    random baselines, each mean has the mean of the tasks' mean baselines beside it (``baseline``)."""
    task_field = tally.fields.index("task")
    summaries = {task: group.summary(tally.baseline) for task, group in tally.groups["task"].items() if group.n}
    groups_of: dict[str, dict[str, set[str]]] = {f: defaultdict(set) for f in tally.fields if f != "task"}
    for keys in tally.members:
        for field, key in zip(tally.fields, keys, strict=True):
            if field != "task":
                groups_of[field][keys[task_field]].add(key)
    by: dict[str, Any] = {}
    for field, of_task in groups_of.items():
        if not of_task or any(len(keys) != 1 for keys in of_task.values()):
            continue
        members: dict[str, list[str]] = defaultdict(list)
        for task in sorted(of_task):
            members[next(iter(of_task[task]))].append(task)
        by[field] = {key: _mean_of(tally, [summaries[t] for t in tasks])
                     for key, tasks in sorted(members.items(), key=lambda kv: _natural(kv[0]))}
    mean = _mean_of(tally, [summaries[task] for task in sorted(summaries)])
    return {"accuracy": mean["accuracy"], "tasks": mean["tasks"], "by": by,
            **({"baseline": mean["baseline"]} if tally.baseline else {})}


def _mean_of(tally: Tally, summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """``tasks``, the mean ``accuracy`` and (where kept) ``baseline`` of some tasks' summaries."""
    k = len(summaries)
    out: dict[str, Any] = {"tasks": k, "accuracy": sum(s["accuracy"] for s in summaries) / k if k else 0.0}
    if tally.baseline:
        out["baseline"] = sum(s["baseline"] for s in summaries) / k if k else 0.0
    return out


def _items(root: str | os.PathLike[str]) -> Iterator[Item]:
    """Every item of ``root``, one at a time."""
    for record in iter_records(root):
        yield Item.from_record(record)


def _natural(key: str) -> tuple[Any, ...]:
    try:
        return (0, float(key), key)
    except ValueError:
        return (1, 0.0, key)


def trace_notes(report: Mapping[str, Any]) -> list[str]:
    """One note per (hook, plugins) for plugins other than a task's owner whose hooks ran on its items while
    it was scored (a third party's bench_score wrapper, say), naming the tasks: they may change the numbers."""
    owners = report.get("owners") or {}
    foreign: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
    for task_id, hooks in (report.get("hooks_ran") or {}).items():
        for hook, names in hooks.items():
            others = tuple(n for n in names if n != owners.get(task_id))
            if others:
                foreign[hook, others].append(task_id)
    return [f"note: plugin(s) {', '.join(names)} ran {hook} on {', '.join(tasks)}; they may change these numbers"
            for (hook, names), tasks in sorted(foreign.items())]


def format_report(report: Mapping[str, Any]) -> str:
    """A plain-text rendering of a score report (with ``baseline=...`` beside each accuracy where the report
    holds random baselines, and the Cartesian/Polar table where it holds :func:`variant_drop`'s)."""
    macro = report.get("macro") or {}
    baseline = "baseline" in report["metrics"]
    lines = [f"overall accuracy {report['overall']:.4f} over {report['n']} items"
             + (f" (random baseline {report['metrics']['baseline']:.4f})" if baseline else "")]
    if macro.get("tasks", 0) > 1:
        lines.append(f"mean of the {macro['tasks']} task accuracies (each task counts once) {macro['accuracy']:.4f}"
                     + (f" (random baseline {macro['baseline']:.4f})" if baseline else ""))
    lines += [
        f"missing predictions {report['missing']}, unknown ids {report['unknown_ids']}, "
        f"malformed lines {report['malformed_lines']}, duplicate ids {report['duplicate_ids']}",
    ]
    lines += trace_notes(report)
    extra = {k: v for k, v in report["metrics"].items() if k.startswith("mean_") and k != "mean_answered"}
    answered = round(report["metrics"].get("mean_answered", 0.0) * report["n"])
    lines.append(f"answered (a final answer could be parsed) {answered} of {report['n']}")
    if extra:
        lines.append("averages over all items (no answer counts 0): "
                     + "  ".join(f"{k[5:]}={v:.4f}" for k, v in extra.items()))
    for field, table in report["by"].items():
        means = (macro.get("by") or {}).get(field)
        lines.append(f"\nby {field}:" + ("  (macro: the mean of its tasks' accuracies, each task once)" if means
                                         else ""))
        width = max((len(k) for k in table), default=4)
        for key, stats in table.items():
            more = "  ".join(
                f"{k[5:]}={v:.3f}" for k, v in stats.items() if k.startswith("mean_") and k != "mean_answered"
            )
            mean = ""
            if means and key in means:
                mean = f"macro={means[key]['accuracy']:.4f} ({means[key]['tasks']} tasks)  "
                if baseline:
                    mean = mean[:-2] + f" baseline={means[key]['baseline']:.4f}  "
            chance = f"baseline={stats['baseline']:.4f}  " if baseline else ""
            lines.append(f"  {key:<{width}}  n={stats['n']:<6} acc={stats['accuracy']:.4f}  {chance}{mean}{more}"
                         .rstrip())
        if means and macro.get("tasks", 0) > 1:
            lines.append(f"  {'mean over tasks':<{width}}  {macro['tasks']} tasks  macro={macro['accuracy']:.4f}"
                         + (f" baseline={macro['baseline']:.4f}" if baseline else ""))
        if field == "variant" and report.get("variant_drop"):
            lines += _drop_lines(report["variant_drop"], baseline)
    return "\n".join(lines)


def _drop_lines(drop: Mapping[str, Any], baseline: bool) -> list[str]:
    """The table of :func:`variant_drop`: each task's accuracy in the two variants and the drop, then the means
    over the tasks."""
    first, second = drop["variants"]
    rows = [(task, row[first], row[second], row["drop"]) for task, row in drop["tasks"].items()]
    mean = drop["mean"]
    label = f"mean over {mean['tasks']} tasks"
    width = max([len(label), *(len(task) for task, *_ in rows)])

    def cell(stats: Mapping[str, Any], n: bool = True) -> str:
        text = f"{stats['accuracy']:.4f}" + (f" (n={stats['n']})" if n else "")
        return text + (f" baseline={stats['baseline']:.4f}" if baseline else "")

    lines = [f"\n{first} vs {second} (each task once; drop = {second} - {first}):"]
    lines += [f"  {task:<{width}}  {first}={cell(a)}  {second}={cell(b)}  drop={d:+.4f}" for task, a, b, d in rows]
    lines.append(f"  {label:<{width}}  {first}={cell(mean[first], False)}  {second}={cell(mean[second], False)}  "
                 f"drop={mean['drop']:+.4f}")
    return lines
