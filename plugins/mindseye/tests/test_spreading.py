"""Categorical parameters spread over the items (issue 10, "Sampling"): the difficulty tier and every parameter
a task draws when unset show min(n, values) values in ANY run of n consecutive items, or as many as the task
declares (``categorical_coverage``, with its reason); spread parameters that would lock together turn so that
every combination comes up; answer letters stay balanced per aligned block as before.

The schedule is read where ``build`` receives it (the tier and the filled-in params), so no stimulus is
built and the whole file runs in seconds.  ``tests/test_categorical_coverage.py`` at the repository root
checks the values recorded in generated items."""

from __future__ import annotations

from collections import Counter

import pytest

from bench_core import ItemRandom, implementation
from bench_plugin_mindseye import tasks
from bench_plugin_mindseye.descriptions.common import DIFFICULTIES
from bench_plugin_mindseye.spreading import cycled, least_shown

TASKS = tasks()
SEED = 2026
#: Sources of the schedule checked: past several turns of every period and past the root test's offset 101.
SOURCES = 150


class _Built(Exception):
    def __init__(self, difficulty: str, params: dict) -> None:
        self.difficulty, self.params = difficulty, params


def schedule(task, seed: int = SEED, count: int = SOURCES, **params) -> list[tuple[str, dict]]:
    """(tier, params) that ``generate`` hands to ``build`` for items 0 .. count - 1 of a run."""
    impl = implementation(task)
    resolved = task.resolve_params(params)

    def build(rng, difficulty, params, plan=None):
        raise _Built(difficulty, dict(params))

    out = []
    original = impl.build
    impl.build = build  # an instance attribute, removed below: the cached implementation is shared
    try:
        for index in range(count):
            try:
                impl.generate(resolved, ItemRandom(task.id, task.version, seed, index))
            except _Built as built:
                out.append((built.difficulty, built.params))
    finally:
        del impl.build
    assert impl.build == original
    return out


def _values(task, name: str, rows: list[tuple[str, dict]]) -> list | None:
    """The value of ``name`` per item: the tier, a spread parameter as filled in, or a tier follower's value
    (None for a follower that a tier does not fix)."""
    impl = implementation(task)
    if name == "difficulty":
        return [tier for tier, _ in rows]
    if name in impl.spread_choices():
        return [params[name] for _, params in rows]
    by_tier = impl.tier_values[name]
    if any(len(v) != 1 for v in by_tier.values()):
        return None  # drawn inside build among the tier's values: only the recorded items tell
    return [by_tier[tier][0] for tier, _ in rows]


def _drawn(task) -> list[tuple[str, int]]:
    return [(p.name, len(p.choices)) for p in task.parameters if p.choices and p.default is None]


# -- the helper --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [2, 3, 4, 9, 13])
def test_cycled_shows_every_value_in_any_window(count):
    random = ItemRandom("t/x", "1", 5, 0)
    values = [cycled(random, count, "k", p) for p in range(5 * count + 3)]
    for start in range(len(values) - count + 1):
        assert sorted(values[start:start + count]) == list(range(count)), (start, values)


@pytest.mark.parametrize(("count", "turn"), [(2, 4), (3, 9), (3, 3), (4, 8), (9, 9)])
def test_least_shown_is_exact_with_turns(count, turn):
    """Over many seeds, the fewest values a window shows is what ``least_shown`` says, for every window."""
    seeds = [ItemRandom("t/x", "1", s, 0) for s in range(40)]
    runs = [[cycled(r, count, "k", p, turn) for p in range(4 * turn + count + 3)] for r in seeds]
    for start in range(4 * turn):
        for length in range(1, count + 3):
            fewest = min(len(set(run[start:start + length])) for run in runs)
            assert fewest == least_shown(count, range(start, start + length), turn), (start, length)


def test_cycled_refuses_a_turn_that_is_not_a_multiple():
    random = ItemRandom("t/x", "1", 5, 0)
    with pytest.raises(ValueError, match="multiple of count"):
        cycled(random, 3, "k", 0, turn=4)
    with pytest.raises(ValueError, match="at least 1"):
        cycled(random, 0, "k", 0)


# -- the tasks ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_every_drawn_parameter_is_spread_or_follows_the_tier(task):
    """Each parameter with choices that is unset by default is the tier, spread over the items with exactly its
    choices, or declared to follow the tier with values among its choices."""
    impl = implementation(task)
    choices = {p.name: set(p.choices) for p in task.parameters if p.choices and p.default is None}
    for name, allowed in choices.items():
        if name == "difficulty":
            assert allowed == set(DIFFICULTIES)
        elif name in impl.spread_choices():
            assert set(impl.spread_choices()[name]) == allowed, name
        else:
            assert name in impl.tier_values, f"{task.id}: {name} is neither spread nor follows the tier"
            assert set(impl.tier_values[name]) == set(DIFFICULTIES)
            assert {v for vs in impl.tier_values[name].values() for v in vs} == allowed, name


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_any_window_shows_what_the_task_promises(task):
    """Every window of n consecutive items (n = the number of values, and one more and one less) shows at least
    what ``categorical_coverage`` promises: min(n, values) unless it declares less with a reason."""
    impl = implementation(task)
    defaults = task.resolve_params({})
    rows = schedule(task)
    for name, choices in _drawn(task):
        values = _values(task, name, rows)
        if values is None:
            assert impl.categorical_coverage(name, defaults, 0, choices)[0] == 1
            continue
        for length in sorted({max(1, choices - 1), choices, choices + 1}):
            for start in range(SOURCES - length + 1):
                limit = impl.categorical_coverage(name, defaults, start, length)
                expected = min(length, choices) if limit is None else limit[0]
                if limit is not None:
                    assert 1 <= limit[0] < min(length, choices) and limit[1], (name, start, length, limit)
                shown = len(set(values[start:start + length]))
                assert shown >= expected, f"{task.id}: items {start}..{start + length - 1} show {shown} {name}"


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_only_tier_followers_and_turns_declare_limits(task):
    """The tier and the spread parameters that do not turn promise min(n, values) in every window; a limit is
    declared only for what follows the tier or turns, and in a run of sources of its own period."""
    impl = implementation(task)
    defaults = task.resolve_params({})
    for name, choices in _drawn(task):
        declared = [impl.categorical_coverage(name, defaults, s, choices) for s in range(60)]
        if name in impl.turns or name in impl.tier_values:
            continue
        assert declared == [None] * 60, (name, declared)


def test_declared_limits_name_their_reason():
    by_id = {t.id: t for t in TASKS}
    rotation = implementation(by_id["mindseye/mental-rotation"])
    defaults = by_id["mindseye/mental-rotation"].resolve_params({})
    least, why = rotation.categorical_coverage("angles", defaults, 101, 2)
    assert least == 1 and "follows the difficulty tier" in why and "hard oblique" in why
    assert rotation.categorical_coverage("angles", defaults, 101, 3) is None  # three items reach every tier
    assert rotation.categorical_coverage("axes", defaults, 7, 3) is None
    least, why = rotation.categorical_coverage("axes", {**defaults, "difficulty": "hard"}, 0, 3)
    assert least == 1 and "which is set" in why
    folding = implementation(by_id["mindseye/paper-folding"])
    defaults = by_id["mindseye/paper-folding"].resolve_params({})
    assert folding.categorical_coverage("fold_group", defaults, 0, 6)[0] == 1  # drawn within a tier: no promise
    slippage = implementation(by_id["mindseye/conceptual-slippage"])
    defaults = by_id["mindseye/conceptual-slippage"].resolve_params({})
    assert slippage.categorical_coverage("difficulty", defaults, 7, 3)[0] == 2  # 8 and 9 share a tier
    assert slippage.categorical_coverage("difficulty", defaults, 9, 3) is None
    assert slippage.categorical_coverage("concept", defaults, 101, 9) is None
    assert slippage.categorical_coverage("concept", {**defaults, "prompt": "all"}, 0, 9)[0] == 2  # two sources
    patterns = implementation(by_id["mindseye/hierarchical-patterns"])
    defaults = by_id["mindseye/hierarchical-patterns"].resolve_params({})
    least, why = patterns.categorical_coverage("families", defaults, 3, 2)
    assert least == 1 and "turning every 4" in why
    assert patterns.categorical_coverage("families", defaults, 3, 3) is None
    assert patterns.categorical_coverage("violation", defaults, 101, 4) is None


def test_spread_parameters_do_not_lock_together():
    """Nine concepts against three tiers, four violations against two family layouts: every pair comes up,
    evenly, within a few periods (without the turn each concept would always come at one tier)."""
    by_id = {t.id: t for t in TASKS}
    rows = schedule(by_id["mindseye/conceptual-slippage"], count=27)
    pairs = Counter((params["concept"], tier) for tier, params in rows)
    assert len(pairs) == 27 and set(pairs.values()) == {1}
    rows = schedule(by_id["mindseye/hierarchical-patterns"], count=16)
    pairs = Counter((params["violation"], params["families"]) for _, params in rows)
    assert len(pairs) == 8 and set(pairs.values()) == {2}
    rows = schedule(by_id["mindseye/symmetric-structures"], count=12)
    assert len(Counter((params["symmetry"], tier) for tier, params in rows)) == 12


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_a_set_parameter_is_kept_and_the_order_depends_on_the_seed(task):
    impl = implementation(task)
    for name, values in impl.spread_choices().items():
        rows = schedule(task, count=6, **{name: values[-1]})
        assert {params[name] for _, params in rows} == {values[-1]}
    orders = {tuple(tier for tier, _ in schedule(task, seed=seed, count=3)) for seed in range(12)}
    assert len(orders) > 1  # the order of the tiers is drawn per seed
