"""The paper's sets (issue 15, spec 5, paper §3 and §5): the 25 tasks with their categories and their split,
the evaluation preset (100 items per task) and the training preset (the 20 in-distribution tasks only), and
``PaperSets``, the base every SPHINX task implementation derives from to get them.

Light: imports bench_core and attrs only (the task descriptions read it).

* ``preset=paper``: the paper's evaluation set, the first ``PAPER_PER_TASK`` (100) items of each task's default
  run (indices 0-99): every task's usual mix, with option letters balanced per task (``ItemRandom.balanced``
  over those consecutive indices).  No other parameter may be set beside it.
* ``preset=train``: a training set built the paper's way: items of the 20 in-distribution tasks only; each of
  the five held-out tasks (``OOD_TASKS``) plans no item under it, so ``bench generate sphinx --set
  preset=train`` makes the whole family's training set.  ``train_size`` is its size over the 20 tasks (default
  the paper's 32,000: 1,600 per task); a task's share is ``train_size // 20``, plus one for the first
  ``train_size % 20`` tasks in the paper's order.  Setting ``train_size`` alone asks for the training set.
  Training items take the indices from ``TRAIN_START`` (1,000,000) on, so none is ever an item of the
  evaluation set or of any default run of fewer than a million items of the same seed (an item's random
  source is keyed by its index).  Icons are drawn from the icons' train split only (``icon_split``).
  The paper then kept, of 100,000 generated items, the 1,600 per task most similar (CLIP ViT-B/32) to the
  evaluation items; we do not (it needs the model, and it tunes the training set to the test set).
* ``metadata["split"]`` of every item is ``iid`` or ``ood`` (``bench score --by split``: the paper's Table 2
  columns); ``verify`` checks it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from typing import Any

import attrs

from bench_core import Parameter, ParameterError, TaskImplementation

#: The paper's five categories (short names as the task descriptions' ``category``) with their titles.
CATEGORY_TITLES: dict[str, str] = {
    "geometric": "Geometric Reasoning",
    "counting": "Counting",
    "symmetry": "Symmetry & Pattern Recognition",
    "sequence": "Sequence & Transformation Reasoning",
    "topology": "Topological & Graph Reasoning",
}
#: The paper's 25 tasks in its order (task i is TASKS[i - 1]): (name, category, split).
TASKS: tuple[tuple[str, str, str], ...] = (
    ("positional-count", "geometric", "ood"),
    ("shape-sorting", "geometric", "iid"),
    ("stack-count", "geometric", "iid"),
    ("pie-chart", "geometric", "iid"),
    ("chart-comparison", "geometric", "iid"),
    ("venn-diagram", "counting", "iid"),
    ("shape-counting", "counting", "iid"),
    ("tiles-line-length", "counting", "iid"),
    ("tiles-line-intersections", "counting", "iid"),
    ("tiles-recoloring", "counting", "ood"),
    ("mirror-identification", "symmetry", "iid"),
    ("symmetry-fill", "symmetry", "iid"),
    ("frieze-groups", "symmetry", "iid"),
    ("wallpaper-groups", "symmetry", "ood"),
    ("transform-result-identify", "sequence", "iid"),
    ("transform-pair-infer", "sequence", "iid"),
    ("transform-similarity-identify", "sequence", "iid"),
    ("sequence-rotation", "sequence", "iid"),
    ("sequence-arithmetic", "sequence", "iid"),
    ("multi-column-arithmetic", "sequence", "ood"),
    ("tiles-geometry", "topology", "iid"),
    ("tiles-connected-component", "topology", "iid"),
    ("tiles-shortest-path", "topology", "iid"),
    ("missing-tiles", "topology", "iid"),
    ("tiles-composition", "topology", "ood"),
)
CATEGORY: dict[str, str] = {name: category for name, category, _ in TASKS}
SPLIT: dict[str, str] = {name: split for name, _, split in TASKS}
IID_TASKS: tuple[str, ...] = tuple(name for name, _, split in TASKS if split == "iid")
OOD_TASKS: tuple[str, ...] = tuple(name for name, _, split in TASKS if split == "ood")

PRESETS = ("none", "paper", "train")
#: Items per task in the paper's evaluation set (2,500 over the 25 tasks).
PAPER_PER_TASK = 100
#: The paper's training set size over the 20 in-distribution tasks (1,600 each).
TRAIN_SIZE = 32_000
#: The first index of a training item: evaluation items are 0-99, default runs 0, 1, ...
TRAIN_START = 1_000_000
#: The largest ``train_size`` accepted (5,000,000 items per task).
TRAIN_SIZE_MAX = 100_000_000


def train_share(name: str, size: int | None = None) -> int:
    """Items task ``name`` gives a training set of ``size`` (default ``TRAIN_SIZE``) items over the 20
    in-distribution tasks: ``size // 20``, one more for the first ``size % 20`` of them in the paper's order;
    0 for a held-out task.  The shares add up to ``size``."""
    size = TRAIN_SIZE if size is None else size
    if name not in SPLIT:
        raise KeyError(f"{name!r} is not one of the paper's 25 tasks")
    if SPLIT[name] == "ood":
        return 0
    base, extra = divmod(size, len(IID_TASKS))
    return base + (1 if IID_TASKS.index(name) < extra else 0)


def preset_of(params: Mapping[str, Any]) -> str:
    """The preset a run's params ask for: ``params["preset"]``, or ``train`` where only ``train_size`` is set."""
    preset = params.get("preset") or "none"
    if preset == "none" and params.get("train_size") is not None:
        return "train"
    return preset


def icon_split(params: Mapping[str, Any], default: str = "train") -> str:
    """The icons' split an item may draw from (``kit.icons.sample(..., split=...)``): ``train`` in the training
    set (never an evaluation icon), ``test`` in the paper's evaluation set (icons never seen in training, as
    the paper's split is meant), ``default`` otherwise.  The icon-drawing code of every task reads this."""
    preset = preset_of(params)
    if preset == "train":
        return "train"
    if preset == "paper":
        return "test"
    return default


def preset_parameters() -> tuple[Parameter, ...]:
    """The ``preset`` and ``train_size`` parameters, as each task description lists them
    (``*preset_parameters()`` in its ``parameters``)."""
    return (
        Parameter("preset", "str", "none", choices=PRESETS,
                  help=f"paper: the paper's evaluation set, the first {PAPER_PER_TASK} items of the default run; "
                       "train: the paper's training set, in-distribution tasks only (a held-out task makes no "
                       f"item), indices from {TRAIN_START:,}, icons of the train split only; none: a plain run"),
        Parameter("train_size", "int", None, minimum=1, maximum=TRAIN_SIZE_MAX,
                  help=f"the training set's size over the 20 in-distribution tasks (default {TRAIN_SIZE:,}, the "
                       "paper's); this task makes its share (size // 20, one more for the first size % 20 tasks "
                       "in the paper's order); setting it implies preset=train"),
    )


class PaperSets(TaskImplementation):
    """The base of every SPHINX task implementation: ``class Foo(PaperSets, task="foo-bar")`` instead of
    ``class Foo(TaskImplementation)``.

    ``task`` names the task (one of ``TASKS``, checked when the class is made).  The class's own
    ``generate`` is wrapped to record ``metadata["split"]`` (``iid``/``ood``) in every problem, and its
    ``verify`` to report an item whose recorded split is not its task's.  ``expand`` and ``first_index``
    implement the presets (see the module's docstring); a subclass must not define them itself.
    """

    task_name: str = ""

    def __init_subclass__(cls, task: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if task is None:
            task = cls.task_name
        if task not in SPLIT:
            raise TypeError(f"{cls.__name__}: PaperSets needs task=<one of the paper's 25 tasks>, got {task!r}; "
                            f"known: {', '.join(SPLIT)}")
        for method in ("expand", "first_index"):
            if method in cls.__dict__:
                raise TypeError(f"{cls.__name__} defines {method}, which PaperSets implements for the presets")
        cls.task_name = task
        if "generate" in cls.__dict__ and not getattr(cls.__dict__["generate"], "_records_split", False):
            cls.generate = _recording_split(cls.__dict__["generate"], SPLIT[task])
        if "verify" in cls.__dict__ and not getattr(cls.__dict__["verify"], "_checks_split", False):
            cls.verify = _checking_split(cls.__dict__["verify"], SPLIT[task])

    def expand(self, params: Mapping[str, Any], count: int | None) -> list[dict[str, Any]]:
        """The designs of a run: ``PAPER_PER_TASK`` for the paper's set, the task's share of ``train_size`` for
        the training set (none for a held-out task), else the core's default.  ParameterError for a setting
        the preset does not allow."""
        preset = preset_of(params)
        if preset == "none":
            return super().expand(params, count)
        if preset == "paper":
            self._check_paper(params)
            return [dict(params)] * PAPER_PER_TASK
        return [{**params, "preset": "train"}] * train_share(self.task_name, params.get("train_size"))

    def first_index(self, params: Mapping[str, Any]) -> int:
        return TRAIN_START if preset_of(params) == "train" else 0

    def _check_paper(self, params: Mapping[str, Any]) -> None:
        """ParameterError if any parameter but ``preset`` differs from its default beside ``preset=paper``."""
        module = importlib.import_module(f"bench_plugin_sphinx.descriptions.{self.task_name.replace('-', '_')}")
        changed = [p.name for p in module.TASK.parameters
                   if p.name != "preset" and params.get(p.name, p.default) != p.default]
        if changed:
            raise _parameter_error(
                f"preset=paper is the paper's evaluation set, each task's default mix; drop --set "
                f"{', '.join(changed)} (or leave preset unset to make a run of your own)")


def _parameter_error(message: str) -> ParameterError:
    return ParameterError(f"parameter 'preset': {message}")


def _recording_split(generate: Any, split: str) -> Any:
    """``generate`` recording ``split`` in the problem's metadata."""

    @functools.wraps(generate)
    def wrapped(self: Any, params: Mapping[str, Any], random: Any) -> Any:
        problem = generate(self, params, random)
        return attrs.evolve(problem, metadata={**problem.metadata, "split": split})

    wrapped._records_split = True  # type: ignore[attr-defined]
    return wrapped


def _checking_split(verify: Any, split: str) -> Any:
    """``verify`` also reporting an item whose recorded split is not ``split``."""

    @functools.wraps(verify)
    def wrapped(self: Any, item: Any, images: Any) -> list[str]:
        failures = list(verify(self, item, images))
        recorded = item.metadata.get("split")
        if recorded != split:
            failures.append(f"metadata split is {recorded!r}; {item.task} is {split} in the paper")
        return failures

    wrapped._checks_split = True  # type: ignore[attr-defined]
    return wrapped
