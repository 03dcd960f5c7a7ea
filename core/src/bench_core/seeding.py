"""Per-item random sources derived from (task, version, seed, index), never from global state.

Each item gets its own numpy Generator seeded by a SHA-256 digest of its identity, so an item is the same
whatever the worker count or the order of generation.  Named sub-streams (``stream``) derive further
generators from the same identity plus a key, e.g. to share one backbone between paired variants.
"""

from __future__ import annotations

import hashlib
from typing import Any

import attrs
import numpy as np


def derive_seed(*parts: Any) -> int:
    """A 128-bit integer from the SHA-256 of the parts' ``repr``-free string forms joined by '|'."""
    text = "|".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:16], "big")


def generator(*parts: Any) -> np.random.Generator:
    """A PCG64 generator seeded from ``derive_seed(*parts)``."""
    return np.random.Generator(np.random.PCG64(derive_seed(*parts)))


@attrs.frozen
class ItemRandom:
    """The random source of one item.

    ``rng`` is the item's own generator; ``stream(*key)`` gives an independent generator for a named
    purpose that does not depend on the index (so two items can share it).
    """

    task_id: str
    version: str
    seed: int
    index: int
    rng: np.random.Generator = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "rng", generator(self.task_id, self.version, self.seed, self.index))

    def stream(self, *key: Any) -> np.random.Generator:
        """An independent generator for ``key`` under this (task, version, seed); the index is not used."""
        return generator(self.task_id, self.version, self.seed, "stream", *key)

    def balanced(self, count: int, *key: Any, position: int | None = None) -> int:
        """A choice in ``range(count)`` balanced over consecutive positions: positions ``b*count`` to
        ``b*count + count - 1`` take every value exactly once, in an order drawn from ``(key, b)``.

        ``position`` defaults to the item index; use a shared key (e.g. a source) to give paired items the
        same choice.  Over any n items each value occurs n/count times up to one block's remainder, so
        answer letters, difficulty levels or transformation types stay uniform without luck.
        """
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        position = self.index if position is None else position
        block, offset = divmod(position, count)
        order = generator(self.task_id, self.version, self.seed, "balanced", count, *key, block).permutation(count)
        return int(order[offset])
