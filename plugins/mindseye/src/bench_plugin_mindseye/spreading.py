"""Categorical choices spread over the sources of a run, so that any run of items shows them all (issue 10).

A choice among ``count`` values is taken from one seeded order of the values (fixed per task, version, seed
and key) repeated over the sources: any ``count`` consecutive sources show every value, however the run is
cut (a fresh order per aligned block, as ``ItemRandom.balanced`` draws, can repeat a value across a block
boundary and miss another).

Two choices repeated with periods that share a factor are locked together (with 9 concepts and 3 difficulty
tiers each concept would always come at the same tier).  One of them then *turns*: every ``turn`` sources
its order steps back one place, so one value repeats across the turn and its phase against the other choice
moves on; the windows that hold a turn show one value fewer (``least_shown`` counts them exactly).
"""

from __future__ import annotations

from bench_core import ItemRandom


def _step(position: int, turn: int | None) -> int:
    """Where ``position`` falls in the repeated order: one place back per ``turn`` positions passed."""
    return position - position // turn if turn else position


def cycled(random: ItemRandom, count: int, key: str, position: int, turn: int | None = None) -> int:
    """An index in ``range(count)`` for source ``position``: place ``position`` (moved back one place per
    ``turn`` sources, if given) of one seeded order of ``range(count)`` repeated; the order depends on the
    task, version, seed, ``count`` and ``key`` only.  Any ``count`` consecutive positions with no turn among
    them take every index once."""
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    if turn is not None and (turn < count or turn % count):
        raise ValueError(f"turn must be a multiple of count ({count}), got {turn}")
    # ``balanced`` at a position inside its first block is one seeded order, the same for every position
    return random.balanced(count, "cycled", key, position=_step(position, turn) % count)


def least_shown(count: int, positions: range, turn: int | None = None) -> int:
    """The fewest distinct indices ``cycled(..., count, ..., turn=turn)`` takes over ``positions`` (consecutive
    sources), for any seed: one per place of the order they reach, up to ``count``."""
    if not positions:
        return 0
    places = _step(positions[-1], turn) - _step(positions[0], turn) + 1
    return min(count, places)
