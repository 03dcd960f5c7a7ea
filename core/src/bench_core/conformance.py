"""The conformance suite: the tests every task must pass, for our plugins and third parties alike.

Use it from a plugin's test-suite by subclassing::

    from bench_core.conformance import ConformanceSuite

    class TestMyFamilyConformance(ConformanceSuite):
        family = "myfamily"        # None runs it over every installed task

pytest then runs each test below once per task of the family (the plugin must be installed, so that
its entry point is visible).  Override ``seeds`` to widen or narrow the sweep.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bench_core.errors import ParameterError
from bench_core.generation import Built, build_item, plan
from bench_core.host import Host, default_host
from bench_core.reward import score
from bench_core.seeding import ItemRandom
from bench_core.task import implementation
from bench_core.types import Task

#: Responses that must score 0 and never raise, whatever the task.
GARBAGE_RESPONSES: tuple[Any, ...] = (
    "",
    "   \n\t ",
    "I cannot answer that.",
    "x" * 2_000_000,
    "\x00\x01\x02\xff\xfe",
    "\ud800 lone surrogate",
    "🙂🙃" * 5000,
    "<answer></answer>",
    "\\boxed{}",
    "<final_answer>",
    "{" * 10000,
    None,
    b"\x89PNG\r\n\x1a\n",
    ["not", "a", "string"],
)


class ConformanceSuite:
    """Parametrised over the tasks of ``family``; see the module docstring."""

    family: str | None = None
    seeds: Sequence[int] = (0, 1, 2, 3, 4, 5, 6, 7)
    distractor_count: int = 3

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "task" in metafunc.fixturenames:
            tasks = self.bench_host().select([self.family] if self.family else [])
            if not tasks:
                pytest.fail(f"no installed task in family {self.family!r}: is the plugin installed?")
            metafunc.parametrize("task", tasks, ids=[t.id for t in tasks])

    # -- helpers ---------------------------------------------------------------------------------
    def bench_host(self) -> Host:
        """The host whose tasks are tested: the installed plugins (override to test an unregistered one)."""
        return default_host()

    @property
    def host(self) -> Host:
        return self.bench_host()

    def build(self, task: Task, seed: int, index: int, settings: dict[str, Any] | None = None) -> Built:
        job = plan(task, settings or {}, seed, index + 1)[index]
        return build_item(self.host, task, seed, index, job.params, job.suffix)

    # -- the contract ----------------------------------------------------------------------------
    def test_deterministic(self, task: Task) -> None:
        later = self.build(task, 11, 3)
        self.build(task, 11, 2)  # generating another item in between must not matter
        again = self.build(task, 11, 3)
        assert later.item.to_json() == again.item.to_json()
        assert later.pngs == again.pngs
        other = self.build(task, 12, 3)
        assert other.item.to_json() != later.item.to_json(), "a different seed gave the same item"

    def test_gold_scores_one_and_verify_passes(self, task: Task) -> None:
        for seed in self.seeds:
            for index in (0, 1):
                built = self.build(task, seed, index)  # raises if verify fails
                result = score(built.item, built.item.answer, host=self.host)
                assert result.value == 1.0, f"gold answer of {built.item.id} scored {result.value}"
                assert result.answered

    def test_distractors_score_zero(self, task: Task) -> None:
        for seed in self.seeds[:4]:
            built = self.build(task, seed, 0)
            random = ItemRandom(task.id, task.version, seed, 0, 0)
            distractors = self.host.pm.hook.bench_distractors(
                task=task, problem=built.problem, count=self.distractor_count, random=random
            )
            assert distractors is not None
            distractors = list(distractors)
            assert len(set(distractors)) == len(distractors), f"repeated distractors {distractors}"
            for wrong in distractors:
                assert wrong != built.item.answer
                result = score(built.item, wrong, host=self.host)
                assert result.value == 0.0, f"distractor {wrong!r} of {built.item.id} scored {result.value}"

    def test_extreme_parameter_values(self, task: Task) -> None:
        for parameter in task.parameters:
            for value in parameter.extremes():
                jobs = plan(task, {parameter.name: value}, 3, 2)
                for job in jobs:
                    build_item(self.host, task, job.seed, job.index, job.params, job.suffix)

    def test_image_has_declared_size_and_is_not_blank(self, task: Task) -> None:
        import numpy as np

        built = self.build(task, 5, 0)
        assert built.images, "no image rendered"
        for image in built.images:
            assert tuple(image.size) == tuple(built.problem.image_size)
            pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
            background = np.median(pixels, axis=0)
            ink = np.any(np.abs(pixels.astype(int) - background) > 40, axis=1).mean()
            assert ink > 0.002, f"image of {built.item.id} is (nearly) blank: {ink:.4%} ink"

    def test_garbage_responses_score_zero(self, task: Task) -> None:
        built = self.build(task, 2, 0)
        for response in GARBAGE_RESPONSES:
            result = score(built.item, response, host=self.host)
            assert result.value == 0.0, f"garbage {str(response)[:40]!r} scored {result.value}"

    def test_invalid_parameters_raise_clear_errors(self, task: Task) -> None:
        with pytest.raises(ParameterError, match="no-such-parameter"):
            plan(task, {"no-such-parameter": "1"}, 0, 1)
        for parameter in task.parameters:
            if parameter.choices is not None:
                bad: Any = "definitely-not-allowed" if parameter.kind == "str" else 10**9 + 7
            elif parameter.maximum is not None:
                bad = parameter.maximum + 1
            elif parameter.minimum is not None:
                bad = parameter.minimum - 1
            else:
                continue
            with pytest.raises(ParameterError, match=parameter.name) as info:
                plan(task, {parameter.name: bad}, 0, 1)
            assert "allowed" in str(info.value)

    def test_implementation_loads(self, task: Task) -> None:
        impl = implementation(task)
        for method in ("generate", "render", "verify", "score", "distractors"):
            assert callable(getattr(impl, method, None)), f"{task.id} implementation lacks {method}"
