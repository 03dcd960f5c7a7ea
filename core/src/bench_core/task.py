"""The base class a task implementation derives from, and lazy loading of implementations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bench_core.errors import PluginError
from bench_core.host import load_object

if TYPE_CHECKING:
    from PIL.Image import Image

    from bench_core.seeding import ItemRandom
    from bench_core.types import Item, Problem, Score, Task

#: Items per task when neither ``--count`` nor a preset says how many.
DEFAULT_SAMPLE = 4

_cache: dict[str, Any] = {}


def implementation(task: Task) -> TaskImplementation:
    """The implementation object of ``task``, imported on first use and cached."""
    try:
        return _cache[task.implementation]
    except KeyError:
        pass
    try:
        impl = load_object(task.implementation)
    except Exception as exc:
        raise PluginError(
            f"task {task.id}: cannot load its implementation {task.implementation!r}: {type(exc).__name__}: {exc}"
        ) from exc
    if isinstance(impl, type):
        impl = impl()
    _cache[task.implementation] = impl
    return impl


class TaskImplementation:
    """What a task does.  Subclasses implement ``generate`` and ``render``, and should implement ``verify``
    (an independent solver) and ``distractors``; ``score`` defaults to the core scorer of the answer type.
    """

    def check_params(self, params: Mapping[str, Any]) -> None:
        """Raise ParameterError if a combination of individually valid values is not allowed."""

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        """Concrete parameters for each index 0..n-1 of a run.

        The default repeats ``params`` ``count`` times (``DEFAULT_SAMPLE`` when count is None).  A task with
        a preset design or an input file returns its own list; ``count`` then truncates it.
        """
        return [dict(params)] * (DEFAULT_SAMPLE if count is None else count)

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        """Generate one problem from validated params and the item's random source."""
        raise NotImplementedError

    def render(self, problem: Problem) -> Sequence[Image]:
        """Draw the problem's images at ``problem.image_size``."""
        raise NotImplementedError

    def verify(self, problem: Problem, images: Sequence[Image]) -> list[str]:
        """Re-derive the answer by another route than the generator; return failures (empty if sound)."""
        return []

    def score(self, item: Item, response: Any) -> Score:
        """Score a response with the core scorer of the item's answer type."""
        from bench_core.reward import score_item

        return score_item(item, response)

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        """Plausible wrong answers; the default has none."""
        return []
