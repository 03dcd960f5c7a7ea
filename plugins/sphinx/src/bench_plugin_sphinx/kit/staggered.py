"""Binary (or small) choices that alternate item by item yet meet every value of another cycled choice.

Two choices cycled at the item index with periods 2 and 2 (or 4 and 2) pair up for good: item i's tiling
fixes its mode.  ``staggered`` takes a choice at position ``index + index // block`` in its seeded order, so
it still changes from one item to the next except where the index crosses a multiple of ``block``, and its
phase against a choice of period ``block`` flips every block: over ``2 * block`` aligned items every pair
occurs.  ``short_window`` says when a run of consecutive items can show fewer values than it holds items.
"""

from __future__ import annotations

from typing import Any

from bench_plugin_sphinx.kit.sampling import stream_order


def staggered(random, choices: tuple, key: str, block: int) -> Any:
    """``choices`` in one seeded order (per task, version and seed), at position index + index // block."""
    position = random.index + random.index // block
    return choices[stream_order(random, key, len(choices))[position % len(choices)]]


def short_window(start: int, count: int, choices: int, block: int) -> bool:
    """Whether items ``start .. start + count - 1`` can repeat a staggered choice of ``choices`` values within
    a span of ``choices`` items: only a run of exactly two binary values over a block boundary does."""
    return choices == 2 and count == 2 and (start + 1) % block == 0
