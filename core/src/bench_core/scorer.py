"""Scoring entry points: ``score_item`` (the core scorer of an item's answer type) and ``score`` (through the
hooks of the task that made the item).  Rewards for training loops are in :mod:`bench_core.rewards`.

This module used to be ``bench_core.reward``; importing a submodule of that name replaced the public function
``bench_core.reward`` with the module (issue 11), so it is named otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bench_core.types import Item, Score


def gold_vocabulary(answer: str, options: Sequence[str] | None = None) -> list[str]:
    """The tokens of a sequence answer (and of its options), for scoring without the task's own vocabulary:
    a response naming another token scores as a wrong one would."""
    tokens: dict[str, None] = {}
    for text in [answer, *(options or ())]:
        if isinstance(text, str):
            tokens.update((t.strip(), None) for t in text.split(",") if t.strip())
    return list(tokens)


def score_item(
    item: Item,
    response: Any,
    *,
    vocabulary: Sequence[str] | None = None,
    synonyms: Mapping[str, str] | None = None,
    mode: str = "lenient",
) -> Score:
    """Score ``response`` against ``item`` with the core parser of its answer type, reading the final answer in
    ``mode`` (``"lenient"`` or ``"strict"``); never raises on the response.  A sequence item scored without a
    ``vocabulary`` uses its answer's tokens."""
    from bench_core.scoring import score_response

    if item.answer_type == "sequence" and not vocabulary:
        vocabulary = gold_vocabulary(item.answer)
    value, details = score_response(
        item.answer_type, item.answer, response, options=item.options, vocabulary=vocabulary, synonyms=synonyms,
        mode=mode,
    )
    return Score(value, parsed=details.get("parsed"), answered=bool(details.get("answered")), details=details)


def score(item: Item | Mapping[str, Any], response: Any, *, host: Any = None) -> Score:
    """Score through the hooks of the task that made ``item`` (lenient: for evaluation).  A task that is not
    installed is scored from the item's record alone, as :func:`bench_core.rewards.score_record` does."""
    from bench_core.host import default_host

    if not isinstance(item, Item):
        item = Item.from_record(item)
    host = host or default_host()
    task = host.tasks.get(item.task_id)
    if task is None:
        from bench_core.rewards import score_record, scoring_record

        return score_record(scoring_record(item, host=host), response, mode="lenient")
    result = host.call("bench_score", task, item=item, response=response)  # traced: which plugins scored it
    return result if result is not None else score_item(item, response)
