"""Scoring entry points: ``score_item`` (the core scorer of an item's answer type) and ``reward`` (for
training loops: any item record and any response in, a float in [0, 1] out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bench_core.types import Item, Score


def score_item(
    item: Item, response: Any, *, vocabulary: Sequence[str] | None = None, synonyms: Mapping[str, str] | None = None
) -> Score:
    """Score ``response`` against ``item`` with the core parser of its answer type; never raises on the response."""
    from bench_core.scoring import score_response

    value, details = score_response(
        item.answer_type, item.answer, response, options=item.options, vocabulary=vocabulary, synonyms=synonyms
    )
    return Score(value, parsed=details.get("parsed"), answered=bool(details.get("answered")), details=details)


def score(item: Item | Mapping[str, Any], response: Any, *, host: Any = None) -> Score:
    """Score through the hooks of the task that made ``item`` (the core scorer if that task is not installed)."""
    from bench_core.host import default_host

    if not isinstance(item, Item):
        item = Item.from_record(item)
    host = host or default_host()
    task = host.tasks.get(item.task_id)
    if task is None:
        return score_item(item, response)
    result = host.pm.hook.bench_score(task=task, item=item, response=response)
    return result if result is not None else score_item(item, response)


def reward(item: Item | Mapping[str, Any], response: Any) -> float:
    """The reward of ``response`` for ``item`` in [0, 1]: 1.0 for a correct answer, 0.0 for a wrong or malformed one.

    ``item`` is an Item or one decoded line of ``items.jsonl``.
    """
    return score(item, response).value
