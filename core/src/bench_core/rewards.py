"""Rewards for RL training: a compact scoring record that travels in the dataset, reward components and
their named combinations.

A trainer scores a completion from the item's *scoring record* alone -- ``{"answer", "answer_type",
"options", "task", "version"}``, plus ``"vocabulary"``/``"synonyms"`` where the task scores sequences or
options with words of its own and ``"keywords"`` where its coordinates' components are named ("ring",
"sector") -- so no plugin is needed at scoring time, and ``{answer, answer_type, options}`` is enough.
:func:`scoring_record` makes one from an item; the adapters of :mod:`bench_core.adapters` read it from a dataset
column.

Components (each in [0, 1]):

``correct``  1.0 if the final answer is right, read in ``mode`` (``"strict"`` by default: only
             ``\\boxed{}``, answer tags or an ``Answer:`` line count -- a false positive is what a policy
             learns to produce).
``format``   1.0 if the response is a ``<think>...</think>`` block followed by a ``\\boxed{...}``, as the
             SPHINX paper's EasyR1 set-up scores it (:func:`format_reward`).
``partial``  for sequences, the normalised edit similarity between the answered and the gold token lists,
             ``1 - levenshtein / max(len)``: a repetition loop or an over-long list lowers it (unlike token
             accuracy, which a list of every token repeated maxes out); for other types, ``correct``.

Named combinations (:data:`REWARD_COMBINATIONS`) weight them: ``"correct"``, ``"sphinx"`` (0.9 x correct +
0.1 x format), ``"partial"``, ``"sphinx_partial"`` (0.9 x partial + 0.1 x format).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from typing import Any

from bench_core.scorer import gold_vocabulary
from bench_core.scoring import score_response, score_value
from bench_core.statements import check_mode
from bench_core.types import ANSWER_TYPES, Item, Score

__all__ = [
    "REWARD_COMBINATIONS",
    "as_record",
    "combine",
    "format_reward",
    "reward",
    "reward_components",
    "score_record",
    "scoring_record",
]

#: Weights of the components in each named combination.
REWARD_COMBINATIONS: dict[str, dict[str, float]] = {
    "correct": {"correct": 1.0},
    "sphinx": {"correct": 0.9, "format": 0.1},
    "partial": {"partial": 1.0},
    "sphinx_partial": {"partial": 0.9, "format": 0.1},
}
COMPONENTS = ("correct", "format", "partial")
_OPTIONAL_KEYS = ("options", "task", "version", "vocabulary", "synonyms", "keywords")


def scoring_record(item: Item | Mapping[str, Any], *, host: Any = None) -> dict[str, Any]:
    """The compact record that scores ``item`` (an Item or a decoded ``items.jsonl`` line) without its plugin:
    answer, answer type, options, task id and version, plus what the task's ``scoring_hints`` adds (the
    sequence vocabulary and synonyms of a traversal task, the coordinate keywords of a grid task) when the task
    is installed on ``host`` (default: the default host).  JSON-serialisable."""
    if not isinstance(item, Item):
        item = Item.from_record(item)
    record: dict[str, Any] = {
        "answer": item.answer,
        "answer_type": item.answer_type,
        "options": list(item.options) if item.options is not None else None,
        "task": item.task_id,
        "version": item.version,
    }
    from bench_core.host import default_host
    from bench_core.task import implementation

    host = host or default_host()
    task = host.tasks.get(item.task_id)
    if task is not None:
        hints = implementation(task).scoring_hints(item)
        for key in ("vocabulary", "synonyms", "keywords"):
            if hints.get(key):
                record[key] = dict(hints[key]) if key == "synonyms" else [
                    list(v) if isinstance(v, (list, tuple)) else v for v in hints[key]]
    return record


def _plain(value: Any) -> Any:
    """``value`` with numpy arrays / scalars (what parquet gives back) made plain lists and values."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, tuple):
        value = list(value)
    return value


def as_record(value: Any) -> dict[str, Any]:
    """A scoring record from what a dataset carries: a record mapping (extra keys ignored, so a whole
    ``items.jsonl`` line works too), its JSON text, or an Item.  ValueError, naming what is missing or wrong
    and what is allowed, if it is none of these (a bug in the dataset, never in a response)."""
    if isinstance(value, Item):
        return {"answer": value.answer, "answer_type": value.answer_type,
                "options": list(value.options) if value.options is not None else None,
                "task": value.task_id, "version": value.version}
    if isinstance(value, (str, bytes)):
        try:
            value = json.loads(value)
        except ValueError:
            raise ValueError(f"a scoring record given as text must be JSON, got {str(value)[:80]!r}") from None
    if not isinstance(value, Mapping):
        raise ValueError(f"a scoring record is a mapping with 'answer' and 'answer_type' (bench_core.scoring_record"
                         f"(item)), got {type(value).__name__}")
    missing = [k for k in ("answer", "answer_type") if value.get(k) is None]
    if missing:
        raise ValueError(f"scoring record lacks {missing}; it needs 'answer' and 'answer_type' (and 'options' for "
                         f"multiple choice), has {sorted(value)}")
    if value["answer_type"] not in ANSWER_TYPES:
        raise ValueError(f"scoring record has answer_type {value['answer_type']!r}; allowed: {', '.join(ANSWER_TYPES)}")
    record = {"answer": str(_plain(value["answer"])), "answer_type": value["answer_type"]}
    for key in _OPTIONAL_KEYS:
        if value.get(key) is not None:
            record[key] = _plain(value[key])
    if "task" not in record and value.get("family") and value.get("task"):  # an items.jsonl line
        record["task"] = f"{value['family']}/{value['task']}"
    return record


def score_record(record: Mapping[str, Any] | str | Item, response: Any, *, mode: str = "strict") -> Score:
    """Score ``response`` from a scoring record with the core scorer, reading its final answer in ``mode``;
    never raises on the response (a malformed record is a ValueError).  A sequence record without a
    vocabulary is scored against its answer's tokens."""
    return _score_plain(as_record(record), response, mode)


def _score_plain(record: Mapping[str, Any], response: Any, mode: str) -> Score:
    """:func:`score_record` of a record :func:`as_record` made."""
    check_mode(mode)
    value, details = score_response(record["answer_type"], record["answer"], response, mode=mode,
                                    **_scorer_arguments(record))
    return Score(value, parsed=details.get("parsed"), answered=bool(details.get("answered")), details=details)


def _correct(record: Mapping[str, Any], response: Any, mode: str) -> float:
    """The ``correct`` component alone: :func:`_score_plain`'s value."""
    check_mode(mode)
    return score_value(record["answer_type"], record["answer"], response, mode=mode, **_scorer_arguments(record))


def _scorer_arguments(record: Mapping[str, Any]) -> dict[str, Any]:
    """The options, vocabulary (a sequence record without one: its answer's tokens), synonyms and keywords of a
    record, as the core scorer takes them."""
    options = record.get("options") or None
    vocabulary = record.get("vocabulary")
    if record["answer_type"] == "sequence" and not vocabulary:
        vocabulary = gold_vocabulary(record["answer"], options)
    return {"options": options, "vocabulary": vocabulary, "synonyms": record.get("synonyms"),
            "keywords": record.get("keywords")}


# ---------------------------------------------------------------------------------------------------
# Components
# ---------------------------------------------------------------------------------------------------

_SPACE_BEFORE_TAG_RE = re.compile(r"\s+(?=[<>/])")  # together: whitespace around "<", ">" and "/" dropped
_SPACE_AFTER_TAG_RE = re.compile(r"(?<=[<>/])\s+")
_THINK_OPEN = "<think>"
_THINK_CLOSE = "</think>"
_BOX_RE = re.compile(r"\\boxed\{.*\}", re.DOTALL)


def format_reward(response: Any) -> float:
    """1.0 if ``response`` is a reasoning block followed by a boxed answer, as the SPHINX paper's EasyR1 set-up
    scores format: after dropping whitespace around ``<``, ``>`` and ``/`` (Qwen2.5-VL writes ``< think >``),
    it starts with ``<think>``, holds a ``</think>`` with no ``<think>`` reopened after the last one, and a
    ``\\boxed{...}`` follows that ``</think>``.  0.0 otherwise, and for anything not a string."""
    if not isinstance(response, str):
        return 0.0
    text = _SPACE_AFTER_TAG_RE.sub("", _SPACE_BEFORE_TAG_RE.sub("", response))
    if not text.startswith(_THINK_OPEN):
        return 0.0
    close = text.rfind(_THINK_CLOSE)
    if close < len(_THINK_OPEN) or _THINK_OPEN in text[close:]:
        return 0.0
    return 1.0 if _BOX_RE.search(text, close + len(_THINK_CLOSE)) else 0.0


def reward_components(record: Mapping[str, Any] | str | Item, response: Any, *, mode: str = "strict"
                      ) -> dict[str, float]:
    """``{"correct", "format", "partial"}`` for ``response`` (see the module's docstring), each in [0, 1]."""
    return _components(as_record(record), response, mode)


def _components(record: Mapping[str, Any], response: Any, mode: str,
                names: Collection[str] = COMPONENTS) -> dict[str, float]:
    """The components ``names`` of ``response`` (all of them by default)."""
    if names == ("correct",) or (len(names) == 1 and "correct" in names):
        return {"correct": _correct(record, response, mode)}
    out: dict[str, float] = {}
    if "correct" in names or "partial" in names:
        result = _score_plain(record, response, mode)
        out["correct"] = result.value
        partial = result.value
        if result.details.get("edit_similarity") is not None:  # a sequence: what is right of the answered list
            partial = max(result.value, float(result.details["edit_similarity"]) if result.answered else 0.0)
        out["partial"] = partial
    if "format" in names:
        out["format"] = format_reward(response)
    return {name: out[name] for name in COMPONENTS if name in names}


def _weights(combination: str | Mapping[str, float]) -> Mapping[str, float]:
    if isinstance(combination, str):
        try:
            return REWARD_COMBINATIONS[combination]
        except KeyError:
            raise ValueError(f"unknown reward combination {combination!r}; allowed: "
                             f"{', '.join(REWARD_COMBINATIONS)} or a mapping of component weights") from None
    unknown = sorted(set(combination) - set(COMPONENTS))
    if unknown:
        raise ValueError(f"unknown reward components {unknown}; allowed: {', '.join(COMPONENTS)}")
    return combination


def combine(components: Mapping[str, float], combination: str | Mapping[str, float] = "correct") -> float:
    """The weighted sum of ``components`` for ``combination`` (a name of :data:`REWARD_COMBINATIONS` or a
    mapping of component weights)."""
    return float(sum(weight * components[name] for name, weight in _weights(combination).items()))


def reward(
    item: Item | Mapping[str, Any] | str,
    response: Any,
    *,
    mode: str = "strict",
    combination: str | Mapping[str, float] = "correct",
) -> float:
    """The reward of ``response`` for ``item`` -- an Item, a decoded ``items.jsonl`` line or a scoring record
    (:func:`scoring_record`) -- in [0, 1] for the named combinations: by default 1.0 for a right final answer
    stated in a box, answer tags or an ``Answer:`` line, 0.0 for anything else.  ``mode="lenient"`` reads
    answers as evaluation does; ``combination`` weights the components (:data:`REWARD_COMBINATIONS`).  Scored
    by the core from the record alone (the same number with or without the task's plugin)."""
    if combination == "correct" and type(item) is dict:
        value = _plain_correct(item, response, mode)
        if value is not None:
            return 1.0 * value + 0.0  # combine's sum for {"correct": 1.0}: 0 + 1.0 x value
    weights = _weights(combination)
    if isinstance(item, Item) or (isinstance(item, Mapping) and "family" in item and "id" in item):
        record = scoring_record(item)
    else:
        record = as_record(item)
    return combine(_components(record, response, mode, tuple(weights)), weights)


def _plain_correct(record: dict[str, Any], response: Any, mode: str) -> float | None:
    """The ``correct`` component of a scoring record that :func:`as_record` would give back with the values the
    scorer reads unchanged (a text answer, a known answer type, options, vocabulary and keywords None or lists,
    synonyms None or a dict; not an ``items.jsonl`` line), as :func:`_correct` scores it; None for any other."""
    get = record.get
    answer, kind, options, vocabulary = get("answer"), get("answer_type"), get("options"), get("vocabulary")
    synonyms, keywords = get("synonyms"), get("keywords")
    if not (type(answer) is str and kind in ANSWER_TYPES and (options is None or type(options) is list)
            and (vocabulary is None or type(vocabulary) is list) and (synonyms is None or type(synonyms) is dict)
            and (keywords is None or type(keywords) is list)) or ("family" in record and "id" in record):
        return None
    check_mode(mode)
    options = options or None
    if kind == "sequence" and not vocabulary:
        vocabulary = gold_vocabulary(answer, options)
    return score_value(kind, answer, response, mode=mode, options=options, vocabulary=vocabulary, synonyms=synonyms,
                       keywords=keywords)
