"""Each item's own numeric options, for partially aligned multiple-choice tasks (``PairedTask.OWN_OPTIONS``).

A partially aligned pair has two answers (line vs ring minimum, bounded vs wrapping optimum).  One shared option
list (``pairs.arrange``) would offer each item the other reading's answer as a wrong option, which the brief
forbids ("no distractor correct under the other boundary reading"), and, when one reading's answer is always the
larger, a blind solver could drop the smallest (or largest) option.  ``windows`` gives each rendering its own
options instead: consecutive positive integers around its own answer with the other reading's answer skipped,
ascending, the answer at the same rank in both (so both items have the same correct letter and share most wrong
options).  A task draws the rank per pair (``PairedTask.pair_choice``) and redraws the instance until both
windows fit above 0, so the answer's rank is uniform whatever its size.
"""

from __future__ import annotations


def window(answer: int, skip: int, rank: int, count: int) -> list[int] | None:
    """``count`` ascending positive integers, ``skip`` left out, with ``answer`` at index ``rank``; None when
    they would reach below 1."""
    below, value = [], answer - 1
    while len(below) < rank:
        if value < 1:
            return None
        if value != skip:
            below.append(value)
        value -= 1
    above, value = [], answer + 1
    while len(above) < count - 1 - rank:
        if value != skip:
            above.append(value)
        value += 1
    return [*sorted(below), answer, *above]


def windows(answers: dict[str, int], rank: int, count: int) -> dict[str, list[int]] | None:
    """Each rendering's options (its answer at ``rank``, the other's answer skipped), or None if one does not
    fit."""
    c, p = answers["cartesian"], answers["polar"]
    found = {"cartesian": window(c, p, rank, count), "polar": window(p, c, rank, count)}
    return None if None in found.values() else found
