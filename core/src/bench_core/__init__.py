"""bench-core: hook specifications, data types, discovery, datasets, parsing and scoring, and the CLI.

Importing this package is cheap; numpy, Pillow and plugins load only when items are generated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bench_core.hookspecs import hookimpl, hookspec
from bench_core.types import ANSWER_TYPES, Item, Parameter, Problem, Score, Task

__version__ = "0.2.0"

__all__ = [
    "ANSWER_TYPES",
    "Item",
    "Parameter",
    "Problem",
    "Score",
    "Task",
    "__version__",
    "hookimpl",
    "hookspec",
    "reward",
]

if TYPE_CHECKING:
    from bench_core.types import Item as _Item


def reward(item: _Item | Any, response: Any) -> float:
    """The reward of ``response`` for ``item`` (an Item or a decoded items.jsonl line), in [0, 1]."""
    from bench_core.reward import reward as _reward

    return _reward(item, response)
