"""Options that are orderings of labels (Pie Chart, Shape Sorting: "which option lists them by size?").

The paper's distractors swap two positions of the true ordering.  Made literally, every distractor is one
swap from the truth and two from each other, so the option that agrees best with the other three (at each
position, the majority label) is the answer: a shortcut that needs no look at the picture.  Here the four
options are a *centre* ordering and three orderings one swap from it, and the truth is the centre only one
time in four (otherwise one of the three swaps); every option is one or two swaps from the truth, and each
of the four roles is the answer equally often, so the options' shape says nothing about which is right.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _swapped(order: Sequence[str], pair: tuple[int, int]) -> list[str]:
    out = list(order)
    a, b = pair
    out[a], out[b] = out[b], out[a]
    return out


def swap_options(truth: Sequence[str], position: int, rng: np.random.Generator, count: int = 4) -> tuple[
        list[list[str]], dict]:
    """``count`` distinct orderings of ``truth``'s labels with ``truth`` at index ``position``, and a record of
    how they were made (``centre_is_truth``, the swapped ``pairs`` of each option, relative to the centre).

    The centre is the truth with probability 1/count, else the truth with one pair swapped; the other options
    are the centre with other pairs swapped (every pair distinct, so every ordering is distinct)."""
    n = len(truth)
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    if len(pairs) < count - 1:
        raise ValueError(f"{n} labels give only {len(pairs) + 1} orderings one swap apart, not {count}")
    if not 0 <= position < count:
        raise ValueError(f"position {position} is not in 0..{count - 1}")
    picked = [pairs[int(i)] for i in rng.permutation(len(pairs))[: count - 1]]
    centre_is_truth = int(rng.integers(count)) == 0
    if centre_is_truth:
        centre = list(truth)
        roles = [("centre", None)] + [("swap", p) for p in picked]
    else:
        centre = _swapped(truth, picked[0])  # the truth is the centre with picked[0] swapped back
        roles = [("swap", picked[0]), ("centre", None)] + [("swap", p) for p in picked[1:]]
    made = [centre if kind == "centre" else _swapped(centre, pair) for kind, pair in roles]
    truth_option, wrong = made[0], made[1:]
    wrong_roles = roles[1:]
    order = rng.permutation(len(wrong))
    wrong = [wrong[int(i)] for i in order]
    wrong_roles = [wrong_roles[int(i)] for i in order]
    options = [*wrong[:position], truth_option, *wrong[position:]]
    role_list = [*wrong_roles[:position], roles[0], *wrong_roles[position:]]
    record = {"centre_is_truth": centre_is_truth,
              "roles": [kind if pair is None else [kind, list(pair)] for kind, pair in role_list]}
    return options, record
