"""Spreading categorical draws over the item indices (issue 10, "Sampling")."""

from __future__ import annotations

from typing import Any


def cyclic(random, choices: tuple, key: str) -> Any:
    """``choices`` in one seeded order (per task, version and seed), repeated over the item indices: any
    ``len(choices)`` consecutive items show each choice once, whatever the run's start."""
    order = random.stream(key).permutation(len(choices))
    return choices[int(order[random.index % len(choices)])]
