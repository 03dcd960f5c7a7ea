"""Categorical parameters are spread over the item indices (issue 10, "Sampling").

For every installed task and every parameter with ``choices`` that the task draws per item when it is unset
(default None), a run of n consecutive items, n the number of choices (at most ``CAP``), shows min(n, number
of choices) distinct values: from index 0, and from index ``OFFSET``, a start that cuts every block of 2 to
32 items, so that balancing per aligned block alone does not pass.  The value drawn is read where
``bench score --by NAME`` finds it: in params, then in metadata, then in ``metadata["knobs"]``.

A task whose design cannot promise that says so itself: its implementation's ``categorical_coverage(name,
params, start, count)`` returns the fewest values that run can show and why (or None to promise the full
count), and the test holds the task to its own number.  Only the generator runs (no rendering or
verification), so the whole file takes seconds per task.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from bench_core import ItemRandom, default_host, implementation, plan
from bench_core.difficulty import PARAMETER as LEVEL_PARAMETER
from bench_core.generation import item_level

SEED = 2026
#: Longest run generated per window.
CAP = 32
#: The second window's start: not a multiple of any block size from 2 to 32 (101 is prime).
OFFSET = 101
STARTS = (0, OFFSET)

#: (task, parameter, start) cases that fall short today, with what was measured: expected failures, strict,
#: so each one has to be removed when its task is fixed (or declares its limit through categorical_coverage).
KNOWN_SHORT: dict[tuple[str, str, int], str] = {
}

TASKS = default_host().select([])


def _drawn(task) -> list[tuple[str, int]]:
    """(name, number of choices) of every parameter with choices that is unset by default.  A difficulty
    level is left out: its choices are named levels (``easy``, ``hard``), never drawn per item."""
    return [(p.name, len(p.choices)) for p in task.parameters if p.choices and p.default is None and p.kind != "level"]


CASES = [(task, name, choices) for task in TASKS for name, choices in _drawn(task)]


def _hashable(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


@cache
def _run(task_id: str, start: int, count: int) -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """(params, metadata) of items ``start .. start + count - 1`` of the default run: what ``build_item``
    generates, without rendering or verifying."""
    task = next(t for t in TASKS if t.id == task_id)
    impl = implementation(task)
    out = []
    for job in plan(task, {}, SEED, start + count)[start:]:
        params = task.resolve_params(job.params)
        random = ItemRandom(task.id, task.version, SEED, job.index)
        level = item_level(task, impl, params, random)
        problem = impl.generate(params if task.difficulty is None else {**params, LEVEL_PARAMETER: level}, random)
        out.append((dict(params), dict(problem.metadata)))
    return tuple(out)


def _recorded(name: str, params: dict[str, Any], metadata: dict[str, Any]) -> Any:
    if params.get(name) is not None:
        return params[name]
    if name in metadata:
        return metadata[name]
    knobs = metadata.get("knobs")
    if isinstance(knobs, dict) and name in knobs:
        return knobs[name]
    raise AssertionError(f"the drawn value of {name!r} is recorded neither in params, metadata nor metadata.knobs")


def _case_id(task, name: str, choices: int) -> str:
    return f"{task.id}:{name}"


def _marks(task, name: str, start: int) -> list:
    reason = KNOWN_SHORT.get((task.id, name, start))
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


@pytest.mark.parametrize(
    ("task", "name", "choices", "start"),
    [pytest.param(t, n, c, s, marks=_marks(t, n, s), id=f"{_case_id(t, n, c)}@{s}") for t, n, c in CASES
     for s in STARTS],
)
def test_a_run_of_items_covers_the_choices(task, name: str, choices: int, start: int):
    count = min(choices, CAP)
    impl = implementation(task)
    defaults = task.resolve_params({})
    declared = getattr(impl, "categorical_coverage", None)
    limit = declared(name, defaults, start, count) if declared is not None else None
    expected, why = (min(count, choices), "") if limit is None else limit
    assert 1 <= expected <= min(count, choices), f"{task.id}: categorical_coverage({name!r}) said {expected}"
    values = [_hashable(_recorded(name, params, metadata)) for params, metadata in _run(task.id, start, count)]
    assert len(set(values)) >= expected, (
        f"{task.id}: items {start}..{start + count - 1} show {len(set(values))} distinct {name} of {choices} "
        f"(expected at least {expected}{'; ' + why if why else ''}): {values}"
    )


def test_marvl_declares_its_limits_with_reasons():
    """The limits marvl declares are the ones its design explains (and no weaker where it promises more)."""
    by_id = {t.id: t for t in TASKS}
    if "marvl/transformation" not in by_id:
        pytest.skip("marvl is not installed")
    transformation = implementation(by_id["marvl/transformation"])
    defaults = by_id["marvl/transformation"].resolve_params({})
    assert transformation.categorical_coverage("family", defaults, OFFSET, 32) is None  # any 32 show all 32
    assert transformation.categorical_coverage("style_a", defaults, OFFSET, 9) is None
    assert transformation.categorical_coverage("transform", defaults, 0, 4) is None  # aligned block
    least, reason = transformation.categorical_coverage("transform", defaults, OFFSET, 4)
    assert least == 3 and "aligned blocks of four" in reason
    counting = implementation(by_id["marvl/counting"])
    defaults = by_id["marvl/counting"].resolve_params({})
    assert counting.categorical_coverage("style", defaults, OFFSET, 9) is None
    assert counting.categorical_coverage("family", defaults, 0, 12)[0] == 12 - 2  # a block's targets may not allow 12
    assert counting.categorical_coverage("count_type", defaults, OFFSET, 3)[0] == 2


def test_traversal_declares_the_limits_of_its_cell_schedule():
    """traversal/path keeps the published mix, every reachable cell once per cycle (163 under the default strict
    profile), so short runs cannot show every bin: it declares what its schedule guarantees, and longer runs of
    the default items show every value."""
    by_id = {t.id: t for t in TASKS}
    if "traversal/path" not in by_id:
        pytest.skip("traversal is not installed")
    task = by_id["traversal/path"]
    impl = implementation(task)
    defaults = task.resolve_params({})
    for start in STARTS:
        least, reason = impl.categorical_coverage("vertices", defaults, start, 5)
        assert least == 4 and "163 items" in reason and "cannot repeat every 5 items" in reason
        assert impl.categorical_coverage("tort_bin", defaults, start, 6)[0] == 5
        assert impl.categorical_coverage("cross_bin", defaults, start, 7)[0] == 6
        for name, full in (("vertices", 4), ("tort_bin", 4), ("cross_bin", 5)):  # short runs: all different
            assert impl.categorical_coverage(name, defaults, start, full) is None, name
        for name, count, choices in (("vertices", 9, 5), ("tort_bin", 17, 6), ("cross_bin", 32, 7)):
            assert impl.categorical_coverage(name, defaults, start, count) is None, name
            values = {_recorded(name, params, metadata) for params, metadata in _run(task.id, start, count)}
            assert len(values) == choices, (name, start, sorted(values))
