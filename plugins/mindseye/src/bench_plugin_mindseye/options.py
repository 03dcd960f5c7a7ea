"""Options of a Mind's Eye item: each wrong option comes from a named template tied to a reasoning error,
exactly one of them is the designated confound (paper §4.1: "one confound sampled from a distinct
template, remaining wrong options from other templates")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

ROLES = ("correct", "confound", "filler")


@attrs.frozen
class Option:
    """One option: its role, the template that made it, a JSON-able description, and what to draw."""

    role: str = attrs.field(validator=attrs.validators.in_(ROLES))
    template: str
    latent: Mapping[str, Any] = attrs.field(factory=dict, converter=dict)
    content: Any = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class SizePlan:
    """Where the answer is to sit in the options' size order, chosen by ``generate`` from balanced choices over
    consecutive items and passed to ``build`` (``MindsEyeTask.plan``): ``rank``-th smallest (0 = smallest), and,
    for ``balancing.balanced_sizes``, whether the small end (``small_odd``) or the large end of the order holds
    the most atypical value.  The plan is fixed before the item is built, so no redraw can favour an easier
    place."""

    rank: int
    small_odd: bool | None = None


@attrs.frozen
class Stimulus:
    """What a task builds before layout: query panel contents (with captions) and options (correct first
    or anywhere; the base class places the correct one at a balanced position)."""

    query: tuple[Any, ...] = attrs.field(converter=tuple)
    query_captions: tuple[str, ...] = attrs.field(converter=tuple)
    options: tuple[Option, ...] = attrs.field(converter=tuple)
    facts: Mapping[str, Any] = attrs.field(factory=dict, converter=dict)

    def __attrs_post_init__(self) -> None:
        roles = [o.role for o in self.options]
        if roles.count("correct") != 1:
            raise ValueError(f"a stimulus needs exactly one correct option, got roles {roles}")
        if roles.count("confound") != 1:
            raise ValueError(f"a stimulus needs exactly one designated confound, got roles {roles}")
        wrong = [o.template for o in self.options if o.role != "correct"]
        if len(set(wrong)) != len(wrong):
            raise ValueError(f"wrong options must come from distinct templates, got {wrong}")

    @property
    def correct(self) -> Option:
        return next(o for o in self.options if o.role == "correct")


def arrange(options: Sequence[Option], answer_position: int, rng: Any) -> list[Option]:
    """The options in display order: the correct one at ``answer_position``, the others shuffled."""
    correct = next(o for o in options if o.role == "correct")
    others = [o for o in options if o.role != "correct"]
    order = rng.permutation(len(others))
    shown = [others[int(k)] for k in order]
    shown.insert(answer_position, correct)
    return shown
