"""Spreading categorical draws over the item indices (issue 10, "Sampling"), and the numpy draws a rejection
loop repeats many times, without their per-call argument checks (``dirichlet``, ``categorical``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from bench_core import ItemRandom

#: numpy's Dirichlet draws normalised gamma variates when the largest concentration is at least this.
DIRICHLET_GAMMA_FROM = 0.1


def cyclic(random, choices: tuple, key: str) -> Any:
    """``choices`` in one seeded order (per task, version and seed), repeated over the item indices: any
    ``len(choices)`` consecutive items show each choice once, whatever the run's start."""
    return choices[stream_order(random, key, len(choices))[random.index % len(choices)]]


def cyclic_at(random, choices: tuple, key: Any, position: int) -> Any:
    """``choices`` in the seeded order of ``key`` (per task, version and seed), taken at ``position``: any
    ``len(choices)`` consecutive positions show each choice once.  ``cyclic`` is this at the item index; a
    task passes another position to cycle a choice that depends on an earlier one (the n-th item of a kind)."""
    return choices[stream_order(random, key, len(choices))[position % len(choices)]]


def stream_order(random, key: Any, count: int) -> tuple[int, ...]:
    """``random.stream(key).permutation(count)`` as a tuple: the same for every item of a (task, version, seed),
    so it is drawn once and kept."""
    return _stream_order(random.task_id, random.version, random.seed, key, count)


@lru_cache(maxsize=1024)
def _stream_order(task_id: str, version: str, seed: int, key: Any, count: int) -> tuple[int, ...]:
    stream = ItemRandom(task_id, version, seed, 0).stream(key)  # a stream does not depend on the index
    return tuple(int(k) for k in stream.permutation(count))


def matched_order(random, choices: tuple, allowed, key: Any) -> tuple[tuple, tuple]:
    """Two seeded orders of ``choices`` (per task, version and seed) that pair every first with an allowed
    second (``allowed(first, second)``): item i takes the pair at ``i % len(choices)``, so any ``len(choices)``
    consecutive items show every choice once in both places.  The first order is ``cyclic``'s for ``key``; the
    second is a perfect matching found by augmenting paths over candidates in a seeded order.  Raises
    ValueError when no such matching exists (``allowed`` too strict)."""
    stream = random.stream(key)
    first = tuple(choices[int(k)] for k in stream.permutation(len(choices)))
    extra = random.stream(key, "matched")
    candidates = [[choices[int(k)] for k in extra.permutation(len(choices)) if allowed(a, choices[int(k)])]
                  for a in first]
    owner: dict[Any, int] = {}

    def augment(slot: int, seen: set) -> bool:
        for second in candidates[slot]:
            if second not in seen:
                seen.add(second)
                if second not in owner or augment(owner[second], seen):
                    owner[second] = slot
                    return True
        return False

    for slot in range(len(first)):
        if not augment(slot, set()):
            raise ValueError(f"no allowed pairing of every choice of {choices!r}")
    second = [None] * len(first)
    for value, slot in owner.items():
        second[slot] = value
    return first, tuple(second)


def dirichlet(rng: np.random.Generator, alpha: float, k: int) -> np.ndarray:
    """Exactly what ``rng.dirichlet(np.full(k, alpha))`` draws, and the same stream consumed: for alpha >= 0.1
    numpy's own route, k standard gamma variates, each times one over their sum (added in order), without the
    call's argument checks (a smaller alpha takes numpy's call itself)."""
    if alpha < DIRICHLET_GAMMA_FROM:
        return rng.dirichlet(np.full(k, alpha))
    gammas = rng.standard_gamma(alpha, size=k)
    return gammas * (1.0 / sum(gammas.tolist()))


def categorical(rng: np.random.Generator, weights: np.ndarray, size: int) -> np.ndarray:
    """Exactly what ``rng.choice(len(weights), size=size, p=weights)`` draws, and the same stream consumed:
    numpy's own route (uniform variates looked up in the normalised cumulative weights), without the call's
    checks of ``weights`` (they must be finite, non-negative and sum to 1)."""
    cdf = weights.cumsum()
    cdf /= cdf[-1]
    return cdf.searchsorted(rng.random(size), side="right")
