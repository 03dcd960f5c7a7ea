"""The numbers behind ``bench report``: one scored row per item, chance levels, and grouped accuracies.

The tables of a report come from :func:`bench_core.report.score_dataset` (the numbers ``bench score``
prints); the figures need joint groupings (tortuosity x crossings, category x layout) and the items
themselves, so each item is also scored here, through the same scorer, into a :class:`Row`.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from bench_core.types import Item

#: Letters the option scorer accepts when an option item lists no options (see bench_core.scoring).
_DEFAULT_OPTION_COUNT = 8
#: Two-sided 95% normal quantile, for Wilson intervals.
_Z95 = 1.959964


def chance_level(item: Item) -> float:
    """The accuracy of a random guesser on ``item``.

    A value the task declares in ``metadata["chance"]`` (a number in [0, 1]) wins; otherwise an item with
    options has 1/k for its k options (a letter or a numbered option: both are one of k choices), an option
    item without listed options 1/8 (the scorer accepts A-H), and an open answer (a number, a sequence, a
    string) 0.
    """
    declared = item.metadata.get("chance")
    if isinstance(declared, (int, float)) and not isinstance(declared, bool) and 0.0 <= declared <= 1.0:
        return float(declared)
    if item.options:
        return 1.0 / len(item.options)
    if item.answer_type == "option":
        return 1.0 / _DEFAULT_OPTION_COUNT
    return 0.0


@attrs.frozen
class Row:
    """One item with its score: ``value`` in [0, 1], what was parsed, the scorer's details, the raw
    response (None when the predictions had none for it) and the item's chance level."""

    item: Item
    category: str
    value: float
    answered: bool
    parsed: Any
    details: Mapping[str, Any]
    response: Any
    has_response: bool
    chance: float

    @property
    def family(self) -> str:
        return self.item.family

    @property
    def task(self) -> str:
        return self.item.task_id

    @property
    def right(self) -> bool:
        """Fully correct (a score of 1)."""
        return self.value >= 1.0

    def metric(self, name: str) -> float:
        """A numeric detail of the score (``token_accuracy``...), 0 when the response has none (as
        ``bench score`` averages it), the score itself for ``"accuracy"``."""
        if name == "accuracy":
            return self.value
        value = self.details.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return 0.0
        return float(value)


def score_rows(items: Iterable[Item], responses: Mapping[str, Any], host: Any) -> list[Row]:
    """Score each item's response through the hooks of its task (``bench_core.scorer.score``, the scorer
    ``bench score`` uses); an item without a response scores 0, unanswered."""
    from bench_core.scorer import score

    rows = []
    for item in items:
        task = host.tasks.get(item.task_id)
        category = task.category if task else "unknown"
        chance = chance_level(item)
        if item.id in responses:
            result = score(item, responses[item.id], host=host)
            rows.append(Row(item, category, result.value, result.answered, result.parsed, dict(result.details),
                            responses[item.id], True, chance))
        else:
            rows.append(Row(item, category, 0.0, False, None, {}, None, False, chance))
    return rows


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may be a sum of scores in [0, 1]);
    (0, 0) for no items."""
    if n <= 0:
        return 0.0, 0.0
    p = min(1.0, max(0.0, successes / n))
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # p inside, whatever the rounding


@attrs.frozen
class Cell:
    """A group of rows: its size, mean score, mean of another metric, mean chance, answer rate and the
    Wilson interval of the mean score."""

    n: int
    accuracy: float
    metric: float
    chance: float
    answered: float
    low: float
    high: float

    @classmethod
    def of(cls, rows: Sequence[Row], metric: str = "accuracy") -> Cell:
        n = len(rows)
        if not n:
            return cls(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        total = sum(r.value for r in rows)
        low, high = wilson(total, n)
        return cls(n, total / n, sum(r.metric(metric) for r in rows) / n, sum(r.chance for r in rows) / n,
                   sum(r.answered for r in rows) / n, low, high)

    @classmethod
    def macro(cls, rows: Sequence[Row], key: Callable[[Row], Hashable] = lambda r: r.task,
              metric: str = "accuracy") -> Cell:
        """The mean over the groups of ``rows`` by ``key`` (tasks, by default) of each group's figures: the
        papers' category and overall scores, which weigh every task alike whatever its item count.  ``n`` is
        the number of rows; the interval is the normal 95% interval of the mean of the groups' proportions
        (each group's variance p(1-p)/n_g), clipped to [0, 1] and always holding the mean."""
        groups = [cls.of(g, metric) for g in group(rows, key).values()]
        if not groups:
            return cls(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        k = len(groups)
        accuracy = sum(g.accuracy for g in groups) / k
        half = _Z95 * math.sqrt(sum(g.accuracy * (1 - g.accuracy) / g.n for g in groups)) / k
        return cls(sum(g.n for g in groups), accuracy, sum(g.metric for g in groups) / k,
                   sum(g.chance for g in groups) / k, sum(g.answered for g in groups) / k,
                   max(0.0, min(accuracy, accuracy - half)), min(1.0, max(accuracy, accuracy + half)))


def group(rows: Iterable[Row], key: Callable[[Row], Hashable]) -> dict[Any, list[Row]]:
    """Rows by ``key(row)``, keys in natural order (numbers by value, ``"6-10"`` after ``"1-5"``); rows whose
    key is None are left out."""
    groups: dict[Any, list[Row]] = defaultdict(list)
    for row in rows:
        k = key(row)
        if k is not None:
            groups[k].append(row)
    return {k: groups[k] for k in sorted(groups, key=natural_key)}


#: Words that name an order (difficulty tiers): sorted by rank, not alphabetically.
_ORDINAL_WORDS = ("easy", "medium", "hard")
_LEADING_NUMBER = re.compile(r"^\s*(-?\d+(?:\.\d+)?)")


def natural_key(value: Any) -> tuple[Any, ...]:
    """A sort key that puts numbers (and strings starting with one, such as ``"11-15"``) in numeric order, and
    the tiers easy, medium, hard in theirs, before other strings; tuples sort element by element."""
    if isinstance(value, tuple):
        return tuple(natural_key(v) for v in value)
    if isinstance(value, bool):
        return (1, 0.0, str(value))
    if isinstance(value, (int, float)):
        return (0, float(value), str(value))
    if str(value).lower() in _ORDINAL_WORDS:
        return (0, float(_ORDINAL_WORDS.index(str(value).lower())), str(value))
    match = _LEADING_NUMBER.match(str(value))
    if match:
        return (0, float(match.group(1)), str(value))
    return (1, 0.0, str(value))


def metadata_value(row: Row, name: str) -> Any:
    """``name`` from the item's params (where it was set) or metadata (where a drawn value is recorded), as
    ``bench score --by`` finds a bare name; None when the item has neither."""
    value = row.item.params.get(name)
    if value is None:
        value = row.item.metadata.get(name)
    return value


def macro_mean(rows: Sequence[Row], by: Callable[[Row], Hashable] = lambda r: r.task) -> tuple[float, float]:
    """The unweighted mean over ``by`` groups (tasks by default) of each group's accuracy and chance: how the
    papers average a category over its tasks."""
    groups = group(rows, by)
    if not groups:
        return 0.0, 0.0
    cells = [Cell.of(g) for g in groups.values()]
    return sum(c.accuracy for c in cells) / len(cells), sum(c.chance for c in cells) / len(cells)


def pick_examples(rows: Sequence[Row]) -> tuple[Row | None, Row | None]:
    """One row the model got right and one it got wrong, in file order; a wrong answer that was parsed is
    preferred to a missing or unparsable one (it shows what the model thought)."""
    right = next((r for r in rows if r.right), None)
    wrong = next((r for r in rows if not r.right and r.answered), None)
    if wrong is None:
        wrong = next((r for r in rows if not r.right), None)
    return right, wrong
