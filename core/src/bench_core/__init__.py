"""bench-core: hook specifications, data types, discovery, datasets, parsing and scoring, and the CLI.

The names in ``__all__`` are the public API: what a plugin may import, kept stable within one
``ABI_VERSION``.  Every other module and name is private and may change.  Importing this package is cheap:
numpy, Pillow, pytest and plugins load only when a name that needs them is first used.
"""

from __future__ import annotations

import importlib
from typing import Any

from bench_core.errors import (
    BenchError,
    DatasetError,
    GenerationError,
    ParameterError,
    PluginError,
    SelectorError,
    VerifyDisagreement,
)
from bench_core.hookspecs import hookimpl, hookspec
from bench_core.types import ANSWER_TYPES, Item, Parameter, Problem, PromptStyle, Score, Task, option_letters

__version__ = "0.2.13"

#: The version of the contract between the core and its plugins (hooks, types, the public API).  A plugin
#: states the one it was written for as ``BENCH_ABI`` beside its entry point; the host refuses a plugin
#: written for another one.  2: ``verify(item, images)`` reads the written artefact and its scene record.
ABI_VERSION = 2

#: Public names loaded on first use (module, attribute), so that importing bench_core stays light.
_LAZY = {
    "TaskImplementation": ("bench_core.task", "TaskImplementation"),
    "implementation": ("bench_core.task", "implementation"),
    "PixelTolerance": ("bench_core.task", "PixelTolerance"),
    "ItemRandom": ("bench_core.seeding", "ItemRandom"),
    "Difficulty": ("bench_core.difficulty", "Difficulty"),
    "parse_level": ("bench_core.difficulty", "parse_level"),
    "score": ("bench_core.scorer", "score"),
    "score_item": ("bench_core.scorer", "score_item"),
    "scoring_record": ("bench_core.rewards", "scoring_record"),
    "score_record": ("bench_core.rewards", "score_record"),
    "reward_components": ("bench_core.rewards", "reward_components"),
    "format_reward": ("bench_core.rewards", "format_reward"),
    "REWARD_COMBINATIONS": ("bench_core.rewards", "REWARD_COMBINATIONS"),
    "trl_reward": ("bench_core.adapters", "trl_reward"),
    "make_trl_reward": ("bench_core.adapters", "make_trl_reward"),
    "verl_compute_score": ("bench_core.adapters", "verl_compute_score"),
    "easyr1_compute_score": ("bench_core.adapters", "easyr1_compute_score"),
    "completion_text": ("bench_core.adapters", "completion_text"),
    "stream": ("bench_core.stream", "stream"),
    "Streamed": ("bench_core.stream", "Streamed"),
    "to_hf_dataset": ("bench_core.hf", "to_hf_dataset"),
    "extract_final_answer": ("bench_core.parsing", "extract_final_answer"),
    "parse_numbered_option": ("bench_core.choices", "parse_numbered_option"),
    "parse_integer": ("bench_core.parsing", "parse_integer"),
    "parse_number": ("bench_core.parsing", "parse_number"),
    "parse_option": ("bench_core.parsing", "parse_option"),
    "parse_sequence": ("bench_core.parsing", "parse_sequence"),
    "normalise_string": ("bench_core.parsing", "normalise_string"),
    "sequence_metrics": ("bench_core.scoring", "sequence_metrics"),
    "decode_png": ("bench_core.images", "decode_png"),
    "PALETTE_IMAGE": ("bench_core.images", "PALETTE_IMAGE"),
    "PNG_LEVEL": ("bench_core.images", "PNG_LEVEL"),
    "encode_png": ("bench_core.images", "encode_png"),
    "palette_indices": ("bench_core.images", "palette_indices"),
    "create_host": ("bench_core.host", "create_host"),
    "default_host": ("bench_core.host", "default_host"),
    "build_item": ("bench_core.generation", "build_item"),
    "plan": ("bench_core.generation", "plan"),
    "run_jobs": ("bench_core.generation", "run_jobs"),
    "verify_item": ("bench_core.generation", "verify_item"),
    "Built": ("bench_core.generation", "Built"),
    "round_floats": ("bench_core.generation", "round_floats"),
    "ConformanceSuite": ("bench_core.conformance", "ConformanceSuite"),
    "assert_rejected": ("bench_core.conformance", "assert_rejected"),
    "with_answer": ("bench_core.conformance", "with_answer"),
    "private_core_imports": ("bench_core.conformance", "private_core_imports"),
    "command_line": ("bench_core.cli", "main"),
    "difficulty_profile": ("bench_core.conformance", "difficulty_profile"),
    "full_run": ("bench_core.conformance", "full_run"),
}

__all__ = [
    "ABI_VERSION",
    "ANSWER_TYPES",
    "BenchError",
    "DatasetError",
    "GenerationError",
    "Item",
    "Parameter",
    "ParameterError",
    "PluginError",
    "Problem",
    "PromptStyle",
    "Score",
    "SelectorError",
    "Task",
    "VerifyDisagreement",
    "__version__",
    "hookimpl",
    "hookspec",
    "option_letters",
    "reward",
    *sorted(_LAZY),
]

def __getattr__(name: str) -> Any:
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'bench_core' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def reward(item: Item | Any, response: Any, *, mode: str = "strict", combination: Any = "correct") -> float:
    """The reward of ``response`` for ``item`` (an Item, a decoded items.jsonl line or a scoring record), in
    [0, 1]: see ``bench_core.rewards.reward`` (strict mode and plain correctness by default).

    A function of the package itself, so that it stays this function whatever submodules are imported (the
    scoring module is ``bench_core.scorer``; a submodule named ``reward`` would replace it)."""
    return (_REWARD or _load_reward())(item, response, mode=mode, combination=combination)


_REWARD: Any = None  # bench_core.rewards.reward, imported on the first call (importing bench_core stays light)


def _load_reward() -> Any:
    """Import ``bench_core.rewards.reward`` and keep it for the next calls."""
    global _REWARD
    from bench_core.rewards import reward as _reward

    _REWARD = _reward
    return _reward
