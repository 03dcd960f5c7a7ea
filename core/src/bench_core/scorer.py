"""Scoring entry points: ``score_item`` (the core scorer of an item's answer type) and ``score`` (through the
hooks of the task that made the item).  Rewards for training loops are in :mod:`bench_core.rewards`.

This module used to be ``bench_core.reward``; importing a submodule of that name replaced the public function
``bench_core.reward`` with the module (issue 11), so it is named otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bench_core.scoring import score_response
from bench_core.types import Item, Score


def gold_vocabulary(answer: str, options: Sequence[str] | None = None) -> list[str]:
    """The tokens of a sequence answer (and of its options), for scoring without the task's own vocabulary:
    a response naming another token scores as a wrong one would."""
    tokens: dict[str, None] = {}
    for text in [answer, *(options or ())]:
        if isinstance(text, str):
            tokens.update((t.strip(), None) for t in text.split(",") if t.strip())
    return list(tokens)


#: Letters the option scorer accepts when an option item lists no options (see :mod:`bench_core.scoring`).
_DEFAULT_OPTION_COUNT = 8


def random_baseline(answer_type: str, options: Sequence[Any] | None, declared: Any = None) -> float:
    """The expected score of a uniform random guess, by the item's record alone: ``declared`` (the item's
    ``metadata["chance"]``) where it is a number in [0, 1]; else 1/k for an item with k options (letters or
    numbered options: either way one of k), 1/8 for an option item that lists none (the scorer accepts A-H),
    and 0.0 for an open answer (a number, a sequence, a string: a guess is as good as never right).  What
    ``TaskImplementation.random_baseline`` gives unless a task knows its answer space better."""
    if isinstance(declared, (int, float)) and not isinstance(declared, bool) and 0.0 <= declared <= 1.0:
        return float(declared)
    if options:
        return 1.0 / len(options)
    if answer_type == "option":
        return 1.0 / _DEFAULT_OPTION_COUNT
    return 0.0


def checked_baseline(task_id: str, value: Any) -> float:
    """``value``, a task's random baseline for an item, as a float; PluginError unless it is a number in [0, 1]
    (a bug in the task, named)."""
    from bench_core.errors import PluginError

    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise PluginError(f"task {task_id}: random_baseline(item) gave {value!r}; it must be a number in [0, 1] "
                          "(the expected score of a uniform random guess)")
    return float(value)


def score_item(
    item: Item,
    response: Any,
    *,
    vocabulary: Sequence[str] | None = None,
    synonyms: Mapping[str, str] | None = None,
    mode: str = "lenient",
    keywords: Sequence[Any] | None = None,
) -> Score:
    """Score ``response`` against ``item`` with the core parser of its answer type, reading the final answer in
    ``mode`` (``"lenient"`` or ``"strict"``); never raises on the response.  A sequence item scored without a
    ``vocabulary`` uses its answer's tokens; a coordinate item's ``keywords`` name its components (see
    :func:`bench_core.parsing.parse_coordinate`)."""
    if item.answer_type == "sequence" and not vocabulary:
        vocabulary = gold_vocabulary(item.answer)
    value, details = score_response(
        item.answer_type, item.answer, response, options=item.options, vocabulary=vocabulary, synonyms=synonyms,
        mode=mode, keywords=keywords,
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
