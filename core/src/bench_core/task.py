"""The base class a task implementation derives from, and lazy loading of implementations."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from bench_core.errors import PluginError
from bench_core.host import load_object

if TYPE_CHECKING:
    from PIL.Image import Image

    from bench_core.seeding import ItemRandom
    from bench_core.types import Item, Problem, Score, Task


@attrs.frozen
class PixelTolerance:
    """Largest per-channel difference (0-255) and largest fraction of pixels that may differ at all."""

    max_difference: int
    max_fraction: float

    def describe(self) -> str:
        return f"at most {self.max_fraction:.3%} of pixels differing, by at most {self.max_difference}/255"

#: Items per task when neither ``--count`` nor a preset says how many.
DEFAULT_SAMPLE = 4

#: The methods every implementation defines itself (never the base class's), with their signatures for
#: messages.  ``distractors`` too: a task without options may return [] explicitly, but a misspelt method
#: must not turn distractors (and the conformance suite's wrong-answer checks) off silently.
REQUIRED_METHODS = {
    "generate": "generate(params, random)",
    "render": "render(problem)",
    "verify": "verify(item, images)",
    "distractors": "distractors(problem, count, random)",
}

_cache: dict[tuple[str, str], Any] = {}


def implementation(task: Task) -> TaskImplementation:
    """The implementation object of ``task``, imported on first use, checked against the contract and cached.

    A module that fails to import (or calls ``sys.exit``), or an object that does not define a required
    method itself (``contract_problem``: a misspelt ``verfy`` or ``distractor`` would otherwise inherit the
    base class's), is a PluginError naming the task and what is wrong, in one line."""
    key = (task.id, task.implementation)
    try:
        return _cache[key]
    except KeyError:
        pass
    try:
        impl = load_object(task.implementation)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # also SystemExit from the module's import: the command must not just end
        raise PluginError(
            f"task {task.id}: cannot load its implementation {task.implementation!r}: {type(exc).__name__}: {exc}"
        ) from exc
    if isinstance(impl, type):
        impl = impl()
    problem = contract_problem(task, impl)
    if problem:
        raise PluginError(f"task {task.id}: {problem}")
    _cache[key] = impl
    return impl


def contract_problem(task: Task, impl: Any) -> str | None:
    """What ``impl`` lacks of the task contract, in one line, or None: a required method it does not define
    itself (one inherited from ``TaskImplementation`` counts as missing), naming a near-miss it defines instead
    (``verfy``, ``distractor``); ``hardness`` where the task declares a difficulty scale."""
    required = dict(REQUIRED_METHODS)
    if task.difficulty is not None:
        required["hardness"] = "hardness(item) (the task declares a difficulty scale)"
    own = [n for n in dir(impl) if not n.startswith("_") and n not in required and callable(getattr(impl, n, None))]
    for method, signature in required.items():
        if callable(getattr(impl, method, None)) and getattr(type(impl), method, None) is not getattr(
                TaskImplementation, method, None):
            continue
        close = difflib.get_close_matches(method, own, n=1, cutoff=0.75)
        hint = f"; it defines {close[0]}: misspelt?" if close else ""
        return (f"its implementation {type(impl).__name__} ({task.implementation}) does not define {signature}{hint}"
                " (every task implements generate, render, verify and distractors itself)")
    return None


class TaskImplementation:
    """What a task does.  Subclasses implement ``generate`` (which stores a JSON scene record in
    ``metadata["scene"]``), ``render``, ``verify`` (an independent solver over the written artefact) and
    ``distractors``; ``score`` defaults to the core scorer of the answer type.
    """

    #: How ``bench verify --reproduce`` compares re-rendered images with the stored PNGs: None promises
    #: identical bytes on any machine; a ``PixelTolerance`` states the largest difference allowed where a
    #: third-party renderer (e.g. matplotlib's anti-aliasing) may move a pixel by float noise.
    pixel_tolerance: PixelTolerance | None = None

    def check_params(self, params: Mapping[str, Any]) -> None:
        """Raise ParameterError if a combination of individually valid values is not allowed."""

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        """Concrete parameters for each index 0..n-1 of a run.

        The default repeats ``params`` ``count`` times (``DEFAULT_SAMPLE`` when count is None).  A task with
        a preset design or an input file returns its own list; ``count`` then truncates it.
        """
        return [dict(params)] * (DEFAULT_SAMPLE if count is None else count)

    def items_per_count(self, params: Mapping[str, Any]) -> int:
        """How many items one unit of a run's ``count`` makes (default 1).  A task whose items come in groups
        that share one problem (Polaris-Bench's Cartesian/Polar pairs) returns the group's size, so that
        ``--count 50`` writes 50 groups; ``expand`` is then asked for ``count`` times as many designs."""
        return 1

    def first_index(self, params: Mapping[str, Any]) -> int:
        """The item index that the first design of ``expand`` takes; the n-th takes ``first_index + n``.

        Default 0.  An item's random source is keyed by (task, version, seed, index), not by its params, so a
        preset whose items must never coincide with another run's of the same seed (a training set beside
        the evaluation set made from indices 0, 1, ...) starts its indices elsewhere."""
        return 0

    def generate(self, params: Mapping[str, Any], random: ItemRandom) -> Problem:
        """Generate one problem from validated params and the item's random source."""
        raise NotImplementedError

    def render(self, problem: Problem) -> Sequence[Image]:
        """Draw the problem's images at ``problem.image_size``."""
        raise NotImplementedError

    def verify(self, item: Item, images: Sequence[Image]) -> list[str]:
        """Prove ``item`` correct from the artefact alone; return failures (empty if sound).

        ``item`` is the record as written (``item.metadata["scene"]`` is the serialised scene this task's
        ``generate`` stored) and ``images`` are decoded from its PNG bytes.  Re-derive the answer from the
        scene by a route that shares no code with the generator's construction or acceptance checks,
        prove exactly one option correct where there are options, and confirm on the pixels the facts the
        answer rests on.  Never read generator state: this runs on items read back from disk.
        """
        raise NotImplementedError(f"{type(self).__name__} does not verify its items")

    def score(self, item: Item, response: Any) -> Score:
        """Score a response with the core scorer of the item's answer type, given this task's
        :meth:`scoring_hints` (so that it scores as the item's scoring record does without the plugin)."""
        from bench_core.scorer import score_item

        hints = self.scoring_hints(item)
        if not hints:
            return score_item(item, response)
        return score_item(item, response, vocabulary=hints.get("vocabulary"), synonyms=hints.get("synonyms"),
                          keywords=hints.get("keywords"))

    def scoring_hints(self, item: Item) -> Mapping[str, Any]:
        """What the core scorer needs, beyond the item's answer, answer type and options, to score its
        responses as this task's ``score`` does, so that a trainer can score them without the plugin
        (``bench_core.scoring_record``): ``"vocabulary"`` (the tokens of a sequence answer),
        ``"synonyms"`` (words models use for the task's words, for sequences and for options answered by
        their content) and ``"keywords"`` (for a coordinate answer, the word or words naming each component,
        in the answer's order: ``[["ring"], ["sector"]]`` reads "sector 5, ring 3" as (3, 5); see
        ``bench_core.parsing.parse_coordinate``).  The default ``score`` applies them.  Default: nothing."""
        return {}

    def random_baseline(self, item: Item) -> float:
        """The expected score of a uniform random guess on ``item``, in [0, 1] (``bench score --baseline``
        prints its mean beside the model's accuracy).  Default: ``metadata["chance"]`` where the item records
        one, else 1/k for an item with k options, 1/8 for an option item that lists none, and 0.0 for an open
        answer.  A task whose open answers come from a known space (a cell of a grid: 1/cells) says so here."""
        from bench_core.scorer import random_baseline

        return random_baseline(item.answer_type, item.options, item.metadata.get("chance"))

    def hardness(self, item: Item) -> float:
        """A model-free measure of how hard ``item`` is, read from its written record (answer-space size,
        steps, crossings, count ...): what the task's ``Difficulty.proxy`` describes.  Required of a task that
        declares a difficulty scale; the conformance suite checks that its mean rises with the level."""
        raise NotImplementedError(f"{type(self).__name__} declares no hardness proxy")

    def difficulty_position(self, params: Mapping[str, Any], random: ItemRandom) -> int:
        """The position whose level an item takes when ``difficulty`` is a range (default: the item's index).

        Items with the same position get the same level: a task whose items come in groups (the variants of
        one ``source``) returns the group's key, so a group shares its level."""
        return random.index

    def distractors(self, problem: Problem, count: int, random: ItemRandom) -> list[str]:
        """Up to ``count`` plausible wrong answers, canonical and pairwise distinct (the option letters of the
        wrong options, for a multiple-choice task).  Required of every task: there is no empty default, so a
        misspelt method cannot silently turn it off; a task without options whose answers have no plausible
        neighbours returns ``[]`` explicitly (one with options must propose some: the conformance suite says so)."""
        raise NotImplementedError(f"{type(self).__name__} does not propose distractors")
