"""Plausible wrong sequences for a traversal, each modelled on a real way of going wrong.

- ``wrong_branch``: at a crossing, continue along the crossing segment instead of the own one (forward),
  skipping the loop in between (spec §5, "take the other branch at crossing k");
- ``reversed_loop``: take the wrong branch at a crossing backwards, run the loop in reverse, and rejoin
  (the loop between two passages of one crossing read in the wrong direction);
- ``swap_at_crossing``: the two tokens right after a crossing exchanged;
- ``swap``: two adjacent tokens exchanged anywhere (for paths without crossings).
Every candidate has the gold length, starts with the START token, and differs from the gold sequence.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bench_plugin_traversal.geometry import Crossing


def candidate_distractors(tokens: Sequence[str], crossings: Sequence[Crossing]) -> list[tuple[str, tuple[str, ...]]]:
    """Every (kind, sequence) candidate in a fixed order, wrong and distinct from ``tokens``."""
    gold = tuple(tokens)
    n = len(gold)
    out: dict[tuple[str, ...], str] = {}

    def add(kind: str, sequence: Sequence[str]) -> None:
        sequence = tuple(sequence)[:n]
        if len(sequence) == n and sequence != gold and sequence not in out:
            out[sequence] = kind

    for c in crossings:
        i, j = c.seg_a, c.seg_b
        # on segment i, turn onto segment j forwards: skip vertices i+1..j, then pad with the skipped ones
        skipped = gold[i + 1 : j + 1]
        add("wrong_branch", gold[: i + 1] + gold[j + 1 :] + skipped[::-1])
        add("reversed_loop", gold[: i + 1] + gold[i + 1 : j + 1][::-1] + gold[j + 1 :])
        for k in (i + 1, j + 1):
            if k + 1 < n:
                swapped = list(gold)
                swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
                add("swap_at_crossing", swapped)
    for k in range(1, n - 1):
        swapped = list(gold)
        swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
        add("swap", swapped)
    return [(kind, seq) for seq, kind in out.items()]


def choose_distractors(
    rng: np.random.Generator, tokens: Sequence[str], crossings: Sequence[Crossing], count: int
) -> list[tuple[str, tuple[str, ...]]]:
    """``count`` distinct candidates, crossing-based kinds first (they are the real failure mode)."""
    candidates = candidate_distractors(tokens, crossings)
    crossing_based = [c for c in candidates if c[0] != "swap"]
    plain = [c for c in candidates if c[0] == "swap"]
    chosen: list[tuple[str, tuple[str, ...]]] = []
    for pool in (crossing_based, plain):
        if len(chosen) >= count:
            break
        order = rng.permutation(len(pool)) if pool else []
        chosen.extend(pool[int(k)] for k in order[: count - len(chosen)])
    return chosen
