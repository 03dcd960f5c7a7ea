"""The core's own hook implementations, registered like any plugin (entry point ``core``).

They run last and delegate to the task's implementation object, so any plugin can override, extend
(``bench_verify``) or wrap (``bench_score``, ``bench_distractors``) them for any task.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bench_core.hookspecs import hookimpl
from bench_core.task import implementation

if TYPE_CHECKING:
    from PIL.Image import Image

    from bench_core.seeding import ItemRandom
    from bench_core.types import Item, Problem, Score, Task


@hookimpl(trylast=True)
def bench_generate(task: Task, params: Mapping[str, Any], random: ItemRandom) -> Problem:
    return implementation(task).generate(params, random)


@hookimpl(trylast=True)
def bench_render(task: Task, problem: Problem) -> Sequence[Image]:
    return implementation(task).render(problem)


@hookimpl(trylast=True)
def bench_verify(task: Task, problem: Problem, images: Sequence[Image]) -> list[str]:
    failures = [
        f"image {i} is {img.size[0]}x{img.size[1]}, declared {problem.image_size[0]}x{problem.image_size[1]}"
        for i, img in enumerate(images)
        if tuple(img.size) != tuple(problem.image_size)
    ]
    if not images:
        failures.append("the task rendered no image")
    if problem.options is not None and len(set(problem.options)) != len(problem.options):
        failures.append(f"options are not pairwise distinct: {problem.options}")
    return failures + list(implementation(task).verify(problem, images))


@hookimpl(trylast=True)
def bench_score(task: Task, item: Item, response: Any) -> Score:
    return implementation(task).score(item, response)


@hookimpl(trylast=True)
def bench_distractors(task: Task, problem: Problem, count: int, random: ItemRandom) -> list[str]:
    return list(implementation(task).distractors(problem, count, random))
