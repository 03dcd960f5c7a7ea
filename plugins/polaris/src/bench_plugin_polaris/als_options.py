"""Numeric options of the partially aligned multiple-choice tasks (Minimum Flips, Maximum Collection).

Their two renderings have different answers (line vs ring minimum; bounded vs wrapping optimum).  The kit's
pair arrangement (``kit.pairs.arrange``) lists both answers in one shared option list, so each item would offer
the other reading's answer as a wrong option, which the brief forbids ("no distractor correct under the other
boundary reading"), and, since one reading's optimum is always the larger, a blind solver could drop the
smallest (or largest) option.  Here each item gets its own five options instead: consecutive positive integers
around its own answer with the other reading's answer skipped, ascending, the answer at the same rank ``k`` in
both items (so both items have the same correct letter and share most wrong options).  ``k`` is drawn per pair
and the instance is redrawn until both windows fit above 0, so the answer's rank is uniform whatever its size.
"""

from __future__ import annotations

import attrs

from bench_core import option_letters
from bench_plugin_polaris.kit.pairs import pair_position


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


class OwnWindowOptions:
    """Mixin placed before ``PairedTask``: after the base builds the item, its options become the rendering's
    own window (``instance.facts["options"][variant]``, the answer at ``facts["answer_rank"]``) and the question
    is rebuilt on them; ``other_answer`` is the other item's letter (the same rank) and
    ``other_answer_content`` its answer."""

    SAME_ANSWER_ALLOWED = True  # the letters coincide by design; the contents never do (build rejects it)

    def generate(self, params, random):
        problem = super().generate(params, random)
        instance, letters, _contents = problem.structure
        _pair, variant = pair_position(random.index, params.get("variant") or "both")
        other = "polar" if variant == "cartesian" else "cartesian"
        contents = tuple(str(v) for v in instance.facts["options"][variant])
        letter = option_letters(len(contents))[int(instance.facts["answer_rank"])]
        metadata = dict(problem.metadata)
        metadata["other_answer"] = letter
        metadata["other_answer_content"] = str(instance.answers[other])
        return attrs.evolve(problem, question=self.question(instance, variant, letters, contents), answer=letter,
                            options=contents, metadata=metadata, structure=(instance, letters, contents))
