"""The near-miss distractors the SPHINX tasks offer (``TaskImplementation.distractors``): other option letters for
multiple-choice tasks, nearby integers for counting tasks."""

from __future__ import annotations

from collections.abc import Sequence


def other_letters(answer: str, count: int, letters: str = "ABCD") -> list[str]:
    """The first ``count`` option letters of ``letters`` that are not ``answer``."""
    return [x for x in letters if x != answer][:count]


def near_misses(answer: str, count: int, steps: Sequence[int] = (1, -1, 2, -2), minimum: int = 0) -> list[str]:
    """The first ``count`` integers ``answer + step`` (in the order of ``steps``) that are at least ``minimum``:
    the usual slips of a count (one or two too many or too few)."""
    value = int(answer)
    return [str(value + step) for step in steps if value + step >= minimum][:count]
