"""``bench score``: score a predictions file against a dataset and break accuracy down by any field.

Both files are streamed (:mod:`bench_core.predictions`, :mod:`bench_core.item_views`): memory holds an index
of the predictions (a hash and an offset per id) and the counters of each group, never the items or the
responses.  Items are scored in file order, so every sum is added up in the order the whole-file scorer
added it (the same floats, to the last bit).  Where a task keeps the core scorer and no plugin wraps
``bench_score``, an item is scored from its answer, answer type and options alone, and a response already
scored against the same answer is not parsed again.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from bench_core.dataset import iter_records
from bench_core.errors import DatasetError
from bench_core.host import Host, default_host, trace_json
from bench_core.item_views import ItemView, read_views
from bench_core.predictions import PredictionIndex, iter_predictions
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
#: Whether ``sum()`` of floats is compensated (Python 3.12 on): a group's means add up as it does.
_COMPENSATED_SUM = sum([0.1] * 10) == 1.0


def metrics_of(details: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """The metrics among a score's details: the values that are bools or finite numbers, as floats."""
    out = []
    for key, metric in details.items():
        if key in _NOT_METRICS:
            continue
        if isinstance(metric, bool) or (isinstance(metric, (int, float)) and math.isfinite(metric)):
            out.append((key, float(metric)))
    return tuple(out)


class _Group:
    """The counters of one group: items, the sum of their scores and of each metric, added in item order
    as ``sum()`` adds a list (plainly, or compensated where Python's ``sum`` is)."""

    __slots__ = ("n", "sums", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.sums: dict[str, Any] = {}

    def add(self, value: float, metrics: tuple[tuple[str, float], ...]) -> None:
        self.n += 1
        self.total += value
        sums = self.sums
        if not _COMPENSATED_SUM:
            for key, x in metrics:
                sums[key] = sums.get(key, 0.0) + x
            return
        for key, x in metrics:
            acc = sums.get(key)
            if acc is None:
                sums[key] = [0 + x, 0.0]
                continue
            f = acc[0]
            t = f + x
            acc[1] += (f - t) + x if abs(f) >= abs(x) else (x - t) + f
            acc[0] = t

    def _sum(self, key: str) -> float:
        acc = self.sums[key]
        if not _COMPENSATED_SUM:
            return acc
        f, c = acc
        return f + c if c and math.isfinite(c) else f

    def summary(self) -> dict[str, Any]:
        """Accuracy and every metric averaged over ALL items of the group: an item without a response, or
        whose response has no such metric, counts 0."""
        out: dict[str, Any] = {"n": self.n, "accuracy": self.total / self.n if self.n else 0.0}
        for key in sorted(self.sums):
            out[f"mean_{key}"] = self._sum(key) / self.n if self.n else 0.0
        return out


_MISSING = (0.0, (("answered", 0.0),))
_MEMO_SIZE = 1 << 14  # scored (answer, response) pairs remembered, each response of at most
_MEMO_RESPONSE = 1000  # this many characters


class _Scorer:
    """Scores items as :func:`bench_core.scorer.score` does, tracing which plugins' hooks ran, and returns
    ``(value, metrics)``.  A task that keeps the core scorer, with no plugin but the core implementing
    ``bench_score``, is scored without building the Item, and a short response already scored against the
    same answer is looked up."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.plain_hooks = {i.plugin_name for i in host.pm.hook.bench_score.get_hookimpls()} <= {"core"}
        self.kinds: dict[str, tuple[str, Any]] = {}
        self.traced: set[str] = set()
        self.memo: dict[tuple[Any, ...], tuple[float, tuple[tuple[str, float], ...]]] = {}

    def _kind(self, task_id: str) -> tuple[str, Any]:
        """("record", None) for a task not installed, ("core", task) for one scored by the core scorer
        through the core's hook alone, ("hook", task) otherwise."""
        kind = self.kinds.get(task_id)
        if kind is None:
            task = self.host.tasks.get(task_id)
            if task is None:
                kind = ("record", None)
            else:
                from bench_core.task import TaskImplementation, implementation

                own = getattr(implementation(task).score, "__func__", None)
                kind = ("core" if self.plain_hooks and own is TaskImplementation.score else "hook", task)
            self.kinds[task_id] = kind
        return kind

    def __call__(self, view: ItemView, response: Any) -> tuple[float, tuple[tuple[str, float], ...]]:
        kind, task = self._kind(view.task_id)
        if kind == "hook":
            return self._hook(task, view.item(), response)
        if task is not None and task.id not in self.traced:
            self.host.ran(task, "bench_score", [self.host.label("core", task)])  # what host.call records
            self.traced.add(task.id)
        key: Any = None
        options = view.options
        if ((type(response) is str and len(response) <= _MEMO_RESPONSE) or response is None) and (
                options is None or all(type(o) is str for o in options)):
            answer = view.answer
            key = (kind, view.answer_type, answer.__class__, answer, options, response)
            try:
                found = self.memo.get(key)
            except TypeError:  # an unhashable answer or option
                key = found = None
            if found is not None:
                return found
        result = self._core(kind, view, response)
        if key is not None:
            if len(self.memo) >= _MEMO_SIZE:
                self.memo.clear()
            self.memo[key] = result
        return result

    @staticmethod
    def _core(kind: str, view: ItemView, response: Any) -> tuple[float, tuple[tuple[str, float], ...]]:
        from bench_core.rewards import score_record
        from bench_core.scorer import score_item

        if kind == "core":
            result = score_item(view, response)  # type: ignore[arg-type]  # reads answer, type and options
        else:  # as scorer.score does for a task that is not installed (scoring_record without hints)
            record = {"answer": view.answer, "answer_type": view.answer_type,
                      "options": list(view.options) if view.options is not None else None,
                      "task": view.task_id, "version": view.version}
            result = score_record(record, response, mode="lenient")
        return result.value, metrics_of({"answered": result.answered, **result.details})

    def _hook(self, task: Any, item: Item, response: Any) -> tuple[float, tuple[tuple[str, float], ...]]:
        from bench_core.scorer import score_item

        result = self.host.call("bench_score", task, item=item, response=response)
        if result is None:
            result = score_item(item, response)
        return result.value, metrics_of({"answered": result.answered, **result.details})


_BATCH = 1024


def _batches(views: Iterator[ItemView]) -> Iterator[list[ItemView]]:
    batch: list[ItemView] = []
    for view in views:
        batch.append(view)
        if len(batch) == _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _check_inputs(root: str | os.PathLike[str], predictions: str | os.PathLike[str]) -> PredictionIndex:
    """The index of ``predictions``; if it cannot be read, a bad or empty dataset is reported first (as the
    scorer that read the items before the predictions did)."""
    try:
        return PredictionIndex(predictions)
    except DatasetError:
        if not any(True for _ in read_views(root)):
            raise DatasetError(f"{Path(root) / 'items.jsonl'} holds no items; there is nothing to score") from None
        raise


Result = tuple[Any, str, bool, tuple[str, ...], float, tuple[tuple[str, float], ...]]


def item_results(views: Iterable[ItemView], index: PredictionIndex, scorer: _Scorer, extra: list[str]
                 ) -> Iterator[Result]:
    """(id, task id, whether it has a response, its group keys, score, metrics) of each item, in order."""
    host = scorer.host
    categories: dict[str, str] = {}
    for batch in _batches(iter(views)):
        positions = index.positions([v.id if isinstance(v.id, str) else "" for v in batch])
        for view, position in zip(batch, positions.tolist(), strict=True):
            task_id = view.task_id
            category = categories.get(task_id)
            if category is None:
                task = host.tasks.get(task_id)
                category = categories[task_id] = _field_text(task.category) if task else "unknown"
            item_id = view.id
            found, response = index.lookup(item_id, position) if isinstance(item_id, str) else (False, None)
            value, metrics = scorer(view, response) if found else _MISSING
            keys = view.standard_keys(category)
            if extra:
                keys += tuple(_view_value(view, field, category) for field in extra)
            yield item_id, task_id, found, keys, value, metrics


class _Tally:
    """The per-group counters of a report, fed the items' results in item order."""

    def __init__(self, fields: list[str]) -> None:
        self.fields = fields
        self.groups: dict[str, dict[str, _Group]] = {f: {} for f in fields}
        self.overall = _Group()
        self.members: dict[tuple[str, ...], tuple[_Group, ...]] = {}
        self.task_ids: set[str] = set()
        self.n = self.missing = 0
        self.missing_ids: list[Any] = []

    def add(self, results: Iterable[Result]) -> None:
        members, task_ids = self.members, self.task_ids
        for item_id, task_id, found, keys, value, metrics in results:
            self.n += 1
            task_ids.add(task_id)
            if not found:
                self.missing += 1
                if len(self.missing_ids) < 20:
                    self.missing_ids.append(item_id)
            targets = members.get(keys)
            if targets is None:
                targets = (self.overall, *(self.groups[f].setdefault(k, _Group())
                                           for f, k in zip(self.fields, keys, strict=True)))
                members[keys] = targets
            for group in targets:
                group.add(value, metrics)


def score_dataset(
    root: str | os.PathLike[str], predictions: str | os.PathLike[str], by: Iterable[str] = (),
    host: Host | None = None, workers: int = 1,
) -> dict[str, Any]:
    """Score every item of ``root``; items without a prediction score 0 and are counted as missing.  A
    dataset with no items is a DatasetError (an accuracy over nothing is no result).  ``workers`` > 1 scores
    parts of the items file in that many processes (where processes can be forked), with the same result."""
    host = host or default_host()
    views = read_views(root)  # a missing items.jsonl is reported before the predictions are read
    first = next(views, None)
    if first is None:
        raise DatasetError(f"{Path(root) / 'items.jsonl'} holds no items; there is nothing to score")
    fields = list(STANDARD_GROUPS) + [f for f in by if f and f not in STANDARD_GROUPS]
    extra = fields[len(STANDARD_GROUPS):]
    tally = _Tally(fields)
    with _check_inputs(root, predictions) as index, host.tracing() as trace:
        scorer = _Scorer(host)
        done, views_fresh = False, True
        if workers > 1:
            from bench_core.score_workers import score_in_workers

            views.close()
            done = score_in_workers(root, index, scorer, extra, workers, tally.add, trace)
            if not done:  # a worker met a bad line: score here, which raises the error the line deserves
                tally = _Tally(fields)
                index.forget_asked()
                views, views_fresh = read_views(root), False
        if not done:
            tally.add(item_results(itertools.chain([first], views) if views_fresh else views, index, scorer, extra))
        unknown, unknown_examples = index.unknown()
        counts = {"malformed": index.malformed, "duplicates": index.duplicates}
    groups = tally.groups
    for field in extra:
        if set(groups[field]) == {"null"}:
            raise DatasetError(
                f"no item has a field {field!r}; fields that exist: {', '.join(available_fields(_items(root)))}"
            )
    summary = tally.overall.summary()
    return {
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
            f: {k: g.summary() for k, g in sorted(groups[f].items(), key=lambda kv: _natural(kv[0]))} for f in fields
        },
    }


def macro_means(tally: _Tally) -> dict[str, Any]:
    """Means in which every task counts once, as papers average over tasks: ``accuracy``, the mean of the task
    accuracies (``tasks`` of them), and ``by``, for each grouping field (but ``task``) under which every task's
    items all fall in one group -- ``category``, a ``split`` recorded per task --, each group's ``tasks`` and
    the mean of their accuracies.  A field that splits some task's items between groups has no such mean
    and is left out.  Tasks with no items do not exist here, so no mean is over nothing."""
    task_field = tally.fields.index("task")
    accuracy = {task: group.total / group.n for task, group in tally.groups["task"].items() if group.n}
    groups_of: dict[str, dict[str, set[str]]] = {f: defaultdict(set) for f in tally.fields if f != "task"}
    for keys in tally.members:
        for field, key in zip(tally.fields, keys, strict=True):
            if field != "task":
                groups_of[field][keys[task_field]].add(key)
    by: dict[str, Any] = {}
    for field, of_task in groups_of.items():
        if not of_task or any(len(keys) != 1 for keys in of_task.values()):
            continue
        members: dict[str, list[float]] = defaultdict(list)
        for task in sorted(of_task):
            members[next(iter(of_task[task]))].append(accuracy[task])
        by[field] = {key: {"tasks": len(values), "accuracy": sum(values) / len(values)}
                     for key, values in sorted(members.items(), key=lambda kv: _natural(kv[0]))}
    values = [accuracy[task] for task in sorted(accuracy)]
    return {"accuracy": sum(values) / len(values) if values else 0.0, "tasks": len(values), "by": by}


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
    """A plain-text rendering of a score report."""
    macro = report.get("macro") or {}
    lines = [f"overall accuracy {report['overall']:.4f} over {report['n']} items"]
    if macro.get("tasks", 0) > 1:
        lines.append(f"mean of the {macro['tasks']} task accuracies (each task counts once) {macro['accuracy']:.4f}")
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
            lines.append(f"  {key:<{width}}  n={stats['n']:<6} acc={stats['accuracy']:.4f}  {mean}{more}".rstrip())
        if means and macro.get("tasks", 0) > 1:
            lines.append(f"  {'mean over tasks':<{width}}  {macro['tasks']} tasks  macro={macro['accuracy']:.4f}")
    return "\n".join(lines)
