"""``bench score``: score a predictions file against a dataset and break accuracy down by any field."""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bench_core.dataset import read_items
from bench_core.errors import DatasetError
from bench_core.host import Host, default_host, trace_json
from bench_core.scorer import score
from bench_core.types import Item

#: Breakdowns every report has; ``--by`` adds more.
STANDARD_GROUPS = ("task", "category", "variant")


def load_predictions(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, int]]:
    """Responses by item id from a JSONL file of ``{"id": ..., "response": ...}``.

    Malformed lines (not JSON, not an object, no string id, no response) are counted, not fatal; a
    repeated id keeps its last response and is counted.
    """
    responses: dict[str, Any] = {}
    counts = {"lines": 0, "malformed": 0, "duplicates": 0}
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError as exc:
        raise DatasetError(f"cannot read predictions {path}: {exc.strerror}") from exc
    for line in lines:
        if not line.strip():
            continue
        counts["lines"] += 1
        try:
            record = json.loads(line)
        except ValueError:
            counts["malformed"] += 1
            continue
        if not isinstance(record, dict) or not isinstance(record.get("id"), str) or "response" not in record:
            counts["malformed"] += 1
            continue
        if record["id"] in responses:
            counts["duplicates"] += 1
        responses[record["id"]] = record["response"]
    return responses, counts


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
    if isinstance(value, (list, dict, tuple)):
        return json.dumps(value, sort_keys=True)
    return "null" if value is None else str(value)


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


class _Group:
    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.metrics: dict[str, list[float]] = defaultdict(list)

    def add(self, value: float, details: Mapping[str, Any]) -> None:
        self.n += 1
        self.total += value
        for key, metric in details.items():
            if key in _NOT_METRICS:
                continue
            if isinstance(metric, bool) or (isinstance(metric, (int, float)) and math.isfinite(metric)):
                self.metrics[key].append(float(metric))

    def summary(self) -> dict[str, Any]:
        """Accuracy and every metric averaged over ALL items of the group: an item without a response, or
        whose response has no such metric, counts 0."""
        out: dict[str, Any] = {"n": self.n, "accuracy": self.total / self.n if self.n else 0.0}
        for key, values in sorted(self.metrics.items()):
            out[f"mean_{key}"] = sum(values) / self.n if self.n else 0.0
        return out


def score_dataset(
    root: str | os.PathLike[str], predictions: str | os.PathLike[str], by: Iterable[str] = (), host: Host | None = None
) -> dict[str, Any]:
    """Score every item of ``root``; items without a prediction score 0 and are counted as missing.  A
    dataset with no items is a DatasetError (an accuracy over nothing is no result)."""
    host = host or default_host()
    items = read_items(root)
    if not items:
        raise DatasetError(f"{Path(root) / 'items.jsonl'} holds no items; there is nothing to score")
    responses, counts = load_predictions(predictions)
    fields = list(STANDARD_GROUPS) + [f for f in by if f and f not in STANDARD_GROUPS]
    groups: dict[str, dict[str, _Group]] = {f: defaultdict(_Group) for f in fields}
    overall = _Group()
    known = set()
    missing = []
    with host.tracing() as trace:  # which plugins' hooks scored each task's items
        for item in items:
            known.add(item.id)
            task = host.tasks.get(item.task_id)
            category = task.category if task else "unknown"
            if item.id in responses:
                result = score(item, responses[item.id], host=host)
                value, details = result.value, {"answered": result.answered, **result.details}
            else:
                missing.append(item.id)
                value, details = 0.0, {"answered": False}
            overall.add(value, details)
            for field in fields:
                groups[field][field_value(item, field, category)].add(value, details)
    for field in fields[len(STANDARD_GROUPS):]:
        if set(groups[field]) == {"null"}:
            raise DatasetError(
                f"no item has a field {field!r}; fields that exist: {', '.join(available_fields(items))}"
            )
    unknown = sorted(set(responses) - known)
    summary = overall.summary()
    return {
        "overall": summary["accuracy"],
        "n": len(items),
        "metrics": summary,
        "missing": len(missing),
        "missing_ids": missing[:20],
        "unknown_ids": len(unknown),
        "unknown_id_examples": unknown[:20],
        "malformed_lines": counts["malformed"],
        "duplicate_ids": counts["duplicates"],
        "predictions_file": str(Path(predictions)),
        "hook_extensions": host.extensions(),
        # for each task: the plugin that owns it, and the plugins whose hooks ran while its items were scored
        "owners": {t: host.owner.get(t) for t in sorted({item.task_id for item in items})},
        "hooks_ran": trace_json(trace),
        "by": {
            f: {k: g.summary() for k, g in sorted(groups[f].items(), key=lambda kv: _natural(kv[0]))} for f in fields
        },
    }


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
    lines = [
        f"overall accuracy {report['overall']:.4f} over {report['n']} items",
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
        lines.append(f"\nby {field}:")
        width = max((len(k) for k in table), default=4)
        for key, stats in table.items():
            more = "  ".join(
                f"{k[5:]}={v:.3f}" for k, v in stats.items() if k.startswith("mean_") and k != "mean_answered"
            )
            lines.append(f"  {key:<{width}}  n={stats['n']:<6} acc={stats['accuracy']:.4f}  {more}".rstrip())
    return "\n".join(lines)
