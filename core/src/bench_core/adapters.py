"""Reward functions in the shapes that RL trainers call, each importable in one line.

* TRL (``GRPOTrainer(reward_funcs=[trl_reward])``): ``trl_reward(prompts, completions, **kwargs)`` returns one
  float per completion.  Completions may be strings or conversations (lists of message dicts, as TRL passes
  them for conversational datasets; the last assistant message is scored).  The scoring record comes from
  the dataset column ``bench`` (a record or its JSON text), or from columns ``answer``, ``answer_type`` and
  optionally ``options``, ``vocabulary``, ``synonyms``; TRL passes every extra column as a keyword.
  :func:`make_trl_reward` makes one with another mode, combination or column.
* verl (``custom_reward_function.path`` = a file holding ``from bench_core import verl_compute_score as
  compute_score``): ``verl_compute_score(data_source, solution_str, ground_truth, extra_info)`` returns a
  float; ``ground_truth`` is the record (a mapping or its JSON text), or the bare answer with the rest of the
  record in ``extra_info`` (under ``bench``, or as ``answer_type``/``options`` keys).
* EasyR1 (``worker.reward.reward_function=<file>:compute_score``): ``easyr1_compute_score(reward_inputs)``
  takes the batch of ``{"response", "response_length", "ground_truth"}`` dicts and returns one
  ``{"overall", "format", "accuracy", "partial"}`` dict each (a single dict for a single input).

All take ``mode`` (``"strict"`` by default) and ``combination`` (see :mod:`bench_core.rewards`) as keyword
arguments, which verl's ``reward_kwargs`` and EasyR1's ``reward_function_kwargs`` pass through.  A response
never raises (anything unreadable scores 0); a record that is missing or malformed is a ValueError naming the
column or key (a bug in the dataset).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bench_core.rewards import as_record, combine, reward_components
from bench_core.statements import check_mode

__all__ = ["completion_text", "easyr1_compute_score", "make_trl_reward", "trl_reward", "verl_compute_score"]

_FLAT_COLUMNS = ("options", "task", "version", "vocabulary", "synonyms")


def completion_text(completion: Any) -> str:
    """The text to score in one completion: a string as it is; a conversation (a list of message dicts) its last
    assistant message (else its last message); a message dict its content; content given as a list of parts
    (``{"type": "text", "text": ...}``) its text parts joined.  Anything else is ``""`` (scores 0)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        return _content_text(completion.get("content"))
    if isinstance(completion, Sequence) and completion:
        messages = [m for m in completion if isinstance(m, Mapping)]
        if not messages:
            return ""
        assistant = [m for m in messages if m.get("role") == "assistant"]
        return _content_text((assistant or messages)[-1].get("content"))
    return ""


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [p.get("text") for p in content if isinstance(p, Mapping) and p.get("type", "text") == "text"]
        return "".join(p for p in parts if isinstance(p, str))
    return ""


def _value(record: Mapping[str, Any], response: str, mode: str, combination: str | Mapping[str, float]) -> float:
    return combine(reward_components(record, response, mode=mode), combination)


def _check(mode: str, combination: str | Mapping[str, float]) -> None:
    check_mode(mode)
    combine({"correct": 0.0, "format": 0.0, "partial": 0.0}, combination)  # validates the combination


def _column_records(kwargs: Mapping[str, Any], count: int, column: str) -> list[dict[str, Any]]:
    if column in kwargs:
        values = list(kwargs[column])
    elif "answer" in kwargs and "answer_type" in kwargs:
        values = [
            {"answer": a, "answer_type": t, **{k: kwargs[k][i] for k in _FLAT_COLUMNS if k in kwargs}}
            for i, (a, t) in enumerate(zip(kwargs["answer"], kwargs["answer_type"], strict=False))
        ]
    else:
        raise ValueError(f"the reward needs each item's scoring record: a dataset column {column!r} holding "
                         "bench_core.scoring_record(item), or columns 'answer' and 'answer_type' (and 'options'); "
                         f"the batch has columns {sorted(kwargs)}")
    if len(values) != count:
        raise ValueError(f"{len(values)} scoring records for {count} completions: the record column must have one "
                         "row per completion")
    return [as_record(v) for v in values]


def make_trl_reward(
    *, mode: str = "strict", combination: str | Mapping[str, float] = "correct", column: str = "bench"
) -> Callable[..., list[float]]:
    """A TRL reward function ``(prompts, completions, **kwargs) -> list[float]`` reading answers in ``mode``,
    weighting components by ``combination`` and taking records from the dataset column ``column`` (see the
    module's docstring).  Its ``__name__`` (what TRL logs) names the combination and mode."""
    _check(mode, combination)

    def reward_fn(prompts: Any = None, completions: Sequence[Any] = (), **kwargs: Any) -> list[float]:
        records = _column_records(kwargs, len(completions), column)
        return [_value(r, completion_text(c), mode, combination) for r, c in zip(records, completions, strict=True)]

    name = combination if isinstance(combination, str) else "weighted"
    reward_fn.__name__ = reward_fn.__qualname__ = f"bench_{name}_{mode}"
    return reward_fn


#: The TRL reward function with the defaults: strict correctness, records from the column ``bench``.
trl_reward = make_trl_reward()


def verl_compute_score(
    data_source: Any = None,
    solution_str: Any = None,
    ground_truth: Any = None,
    extra_info: Any = None,
    *,
    mode: str = "strict",
    combination: str | Mapping[str, float] = "correct",
    **kwargs: Any,
) -> float:
    """verl's ``compute_score``: the reward of ``solution_str`` for the item whose scoring record is
    ``ground_truth`` (a mapping or its JSON text) or, for a bare answer there, ``extra_info["bench"]`` or
    ``extra_info``'s own ``answer_type``/``options`` keys."""
    _check(mode, combination)
    record = _verl_record(ground_truth, extra_info)
    return _value(record, completion_text(solution_str), mode, combination)


def _verl_record(ground_truth: Any, extra_info: Any) -> dict[str, Any]:
    if isinstance(ground_truth, Mapping) or (isinstance(ground_truth, str) and ground_truth.lstrip()[:1] == "{"):
        return as_record(ground_truth)
    extra = extra_info if isinstance(extra_info, Mapping) else {}
    if extra.get("bench") is not None:
        return as_record(extra["bench"])
    if extra.get("answer_type") is not None:
        return as_record({**{k: extra[k] for k in _FLAT_COLUMNS if k in extra}, "answer": ground_truth,
                          "answer_type": extra["answer_type"]})
    raise ValueError("verl_compute_score needs the scoring record: reward_model.ground_truth holding "
                     "bench_core.scoring_record(item) (or its JSON), or extra_info with 'bench' or 'answer_type'")


def easyr1_compute_score(
    reward_inputs: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    *,
    mode: str = "strict",
    combination: str | Mapping[str, float] = "sphinx",
    format_weight: float | None = None,
) -> list[dict[str, float]] | dict[str, float]:
    """EasyR1's reward function: for each ``{"response", "ground_truth", ...}`` (ground truth = the scoring
    record or its JSON text), ``{"overall", "format", "accuracy", "partial"}``.  ``overall`` weights the
    components by ``combination`` (default ``"sphinx"``: 0.9 x accuracy + 0.1 x format), or, given
    ``format_weight`` (EasyR1's own keyword), ``(1 - format_weight) x accuracy + format_weight x format``.
    A batch (list) gives a list, a single input one dict."""
    if format_weight is not None:
        combination = {"correct": 1.0 - float(format_weight), "format": float(format_weight)}
    _check(mode, combination)
    single = isinstance(reward_inputs, Mapping)
    inputs = [reward_inputs] if single else list(reward_inputs)
    scores = []
    for entry in inputs:
        if not isinstance(entry, Mapping) or "ground_truth" not in entry:
            raise ValueError("each EasyR1 reward input is a dict with 'response' and 'ground_truth' (the scoring "
                             "record)")
        parts = reward_components(as_record(entry["ground_truth"]), completion_text(entry.get("response")), mode=mode)
        scores.append({"overall": combine(parts, combination), "format": parts["format"],
                       "accuracy": parts["correct"], "partial": parts["partial"]})
    return scores[0] if single else scores

