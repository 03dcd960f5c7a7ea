"""The bench hook specifications: the whole contract between the host and its plugins.

Imports nothing at run time beyond pluggy, so loading it is free. Every hook is prefixed ``bench_``.
A task is owned by the plugin that returns its description from ``bench_register_tasks``; the other
hooks receive that description and return None when they have nothing to say about it.  ``bench_verify``
sees only the artefact (the item record and its decoded PNGs), never the generator's in-memory problem.  The core's
default implementations (``bench_core.defaults``, registered like any plugin) run last and delegate to
the task's implementation object, so a third-party plugin can override a hook for one task (return a
value), add checks to ``bench_verify`` for any task, or wrap ``bench_score`` / ``bench_distractors``
with ``@hookimpl(wrapper=True)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

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


@hookspec(firstresult=True)
def bench_generate(task: Task, params: Mapping[str, Any], random: ItemRandom) -> Problem | None:
    """Generate one problem of ``task``.

    :param task: the task to generate.
    :param params: validated, concrete parameter values.
    :param random: the item's random source, derived from (task, version, seed, index).
    :return: the problem, or None if this plugin does not generate ``task``.
    """


@hookspec(firstresult=True)
def bench_render(task: Task, problem: Problem) -> Sequence[Image] | None:
    """Render the images of a generated problem.

    :param task: the problem's task.
    :param problem: the problem returned by ``bench_generate``.
    :return: the images (PIL, size ``problem.image_size``), or None if not this plugin's task.
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
