"""The bench hook specifications: the whole contract between the host and its plugins.

Imports nothing at run time beyond pluggy, so loading it is free. Every hook is prefixed ``bench_``.

One extension mechanism, chosen for what a third party needs:

- A plugin adds tasks with ``bench_register_tasks``.  A task's work (generate, render, verify,
  distractors, score) lives on its implementation object (``bench_core.TaskImplementation``), named by an
  import string on the task and loaded on first use.  Generation and rendering are not hooks: only the
  task's owner can make its items, and a second way to do it would only let two plugins disagree.
- Any plugin may add checks to any task's ``bench_verify`` (every implementation runs; failures are
  prefixed with the plugin that reported them).
- Any plugin may wrap ``bench_score`` or ``bench_distractors`` of any task with
  ``@hookimpl(wrapper=True)``.  The core's implementations (``bench_core.defaults``, registered like any
  plugin) run last and delegate to the task's implementation object.  Which plugins' hooks ran on each
  task is recorded in every manifest (``hooks_ran``: verify) and score report (``hooks_ran``: score), so a
  benchmark number can be traced.

A plugin implementing a hook that no specification here names (``bench_genrate``, or a ``@hookimpl`` under
any other name) is refused at registration, like one that fails to import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PIL.Image import Image

    from bench_core.seeding import ItemRandom
    from bench_core.types import Item, Problem, Score, Task

PROJECT = "bench"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def bench_register_tasks() -> Sequence[Task]:
    """Describe the tasks this plugin owns.

    Must be cheap: return data only, import no heavy dependency (the implementation is named by an
    import string on each task and loaded when first used).

    :return: the plugin's task descriptions.
    """


@hookspec
def bench_verify(task: Task, item: Item, images: Sequence[Image]) -> Sequence[str] | None:
    """Prove an item correct from what was written: its JSON record and its decoded PNGs.

    Implementations must not read the generator's memory: only ``item`` (question, options, answer and
    ``item.metadata["scene"]``, the task's serialised scene record) and the pixels of ``images``.  Every
    plugin may contribute checks, also to tasks it does not own.

    :param task: the item's task.
    :param item: the item as written to ``items.jsonl`` (or about to be).
    :param images: its images, decoded from the PNG bytes that are (or will be) on disk.
    :return: human-readable failures (empty when every check passes), or None to abstain.
    """


@hookspec(firstresult=True)
def bench_score(task: Task, item: Item, response: Any) -> Score | None:
    """Score a model response against a generated item.

    Must never raise on a malformed response: it scores 0.

    :param task: the item's task.
    :param item: the item (answer, options, metadata).
    :param response: the model's raw response.
    :return: the score, or None if not this plugin's task.
    """


@hookspec(firstresult=True)
def bench_distractors(task: Task, problem: Problem, count: int, random: ItemRandom) -> Sequence[str] | None:
    """Propose plausible wrong answers for a problem.

    :param task: the problem's task.
    :param problem: the problem.
    :param count: how many distractors are wanted (a plugin may return fewer if no more exist).
    :param random: a random source for the choice among candidates.
    :return: canonical answer strings, all wrong and pairwise distinct, or None if not this plugin's task.
    """
