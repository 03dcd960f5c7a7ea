"""Building items: plan the jobs of a run, build one item (generate, render, encode, verify), run many."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from bench_core.difficulty import LEVEL_KEY, draw_level
from bench_core.difficulty import PARAMETER as LEVEL_PARAMETER
from bench_core.errors import GenerationError, PluginError, VerifyDisagreement
from bench_core.host import Host, default_host, trace_json
from bench_core.images import as_decoded, decode_png, encode_png, sha256
from bench_core.seeding import ItemRandom
from bench_core.task import implementation
from bench_core.types import Item, Problem, Task

#: Decimal places of every float stored in item metadata (scene records included).  Rounding makes the
#: written record independent of last-digit float noise between CPUs and SIMD paths.
METADATA_DECIMALS = 6
#: Metadata keys the core gives a meaning of its own: a drawn value is never recorded under them.
RESERVED_METADATA = frozenset({"scene", LEVEL_KEY, "difficulty_knobs"})


@attrs.frozen
class Job:
    """One item to build: which task, seed, index and concrete params, and the id suffix of its run."""

    task_id: str
    seed: int
    index: int
    params: Mapping[str, Any] = attrs.field(converter=dict)
    suffix: str = ""

    @property
    def item_id(self) -> str:
        family, name = self.task_id.split("/")
        return f"{family}.{name}.{self.seed}.{self.index:06d}{self.suffix}"


@attrs.frozen
class Built:
    """A built item with its encoded PNGs, and the problem and images it came from."""

    item: Item
    pngs: tuple[bytes, ...]
    problem: Problem = attrs.field(eq=False, repr=False)
    images: tuple[Any, ...] = attrs.field(eq=False, repr=False)


def settings_suffix(settings: Mapping[str, Any]) -> str:
    """An id suffix that keeps runs with different (canonical) ``--set`` values apart ('' when none)."""
    if not settings:
        return ""
    text = json.dumps(dict(sorted(settings.items())), sort_keys=True, default=str)
    return "." + hashlib.sha256(text.encode()).hexdigest()[:8]


def plan(task: Task, settings: Mapping[str, Any], seed: int, count: int | None) -> list[Job]:
    """The jobs of a run of ``task``: validates ``settings`` (ParameterError on bad input) and expands presets.
    ``count`` counts the task's groups (``items_per_count`` items each; one item for most tasks).  The n-th
    design takes the index ``first_index(params) + n`` (0 + n unless the task says otherwise)."""
    params = task.resolve_params(settings)
    impl = implementation(task)
    impl.check_params(params)
    per = impl.items_per_count(params)
    if isinstance(per, bool) or not isinstance(per, int) or per < 1:
        raise PluginError(f"{task.id}: items_per_count returned {per!r}; it must be an int >= 1 (a bug in the task)")
    designs = impl.expand(params, None if count is None else count * per)
    if count is not None:
        designs = designs[:count * per]
    first = impl.first_index(params)
    if isinstance(first, bool) or not isinstance(first, int) or first < 0:
        raise PluginError(f"{task.id}: first_index returned {first!r}; it must be an int >= 0 (a bug in the task)")
    suffix = settings_suffix(task.canonical_settings(settings))
    return [Job(task.id, seed, first + i, design, suffix) for i, design in enumerate(designs)]


def build_item(host: Host, task: Task, seed: int, index: int, params: Mapping[str, Any], suffix: str = "", *,
               encode: bool = True, verify: bool = True, timings: dict[str, float] | None = None) -> Built:
    """Generate and render one item, encode its PNGs, then verify the item as it will be written.

    The result depends only on (task, version, seed, index, params).  Verify runs on the item's JSON record
    read back and on the PNGs decoded again, exactly what ``bench verify`` later reads from disk.  There is
    no retry: a generator may reject its own draws as often as it likes, but an item it accepted that
    verify rejects is a bug, reported as VerifyDisagreement with the task, seed, index and what disagreed.

    ``encode=False`` (for training streams) skips the PNGs: the item has no ``image_sha256`` and
    ``Built.pngs`` is empty, and verify sees the rendered images converted as decoding would (``as_decoded``;
    PNG is lossless, so the pixels are the same).

    ``verify=False`` builds the same item and PNGs (verification never changes them) without verifying them:
    only for studies of what items look like whose tasks' verifiers are exercised elsewhere, such as the
    blind-option audit's test (``bench generate`` always verifies).

    ``timings`` (for benchmarks), when given, has the CPU seconds (``process_time``) of each stage added under
    ``generate`` (drawing the level and the problem), ``render``, ``encode`` and ``verify`` (the record read
    back, the PNGs decoded, every verifier run); the result is the same with or without it.
    """
    clock = _StageClock(timings)
    params = task.resolve_params(params)
    random = ItemRandom(task.id, task.version, seed, index)
    impl = implementation(task)
    level = item_level(task, impl, params, random)
    problem = impl.generate(params if task.difficulty is None else {**params, LEVEL_PARAMETER: level}, random)
    if not isinstance(problem, Problem):
        raise GenerationError(f"{task.id}: generate returned {type(problem).__name__}, not a bench_core.Problem")
    metadata = {**problem.metadata, **{k: v for k, v in drawn_values(task, params, problem).items()
                                       if k not in problem.metadata}}
    if level is not None:
        if metadata.get(LEVEL_KEY, level) != level:
            raise GenerationError(f"{task.id}: generate recorded {LEVEL_KEY}={metadata[LEVEL_KEY]!r}, but the "
                                  f"item's level is {level} (the core records it; leave the key alone)")
        metadata = {**metadata, LEVEL_KEY: level}
    clock.lap("generate")
    images = tuple(impl.render(problem) or ())
    clock.lap("render")
    pngs = tuple(encode_png(image) for image in images) if encode else ()
    clock.lap("encode")
    job = Job(task.id, seed, index, params, suffix)
    base = f"images/{task.family}/{task.name}/{job.item_id}"
    paths = [f"{base}.png"] if len(images) == 1 else [f"{base}_{k}.png" for k in range(len(images))]
    item = Item(
        id=job.item_id,
        family=task.family,
        task=task.name,
        version=task.version,
        plugin={k: v for k, v in host.plugin_of(task).items() if k != "name"},
        seed=seed,
        index=index,
        params=params,
        variant=problem.variant,
        pair=problem.pair,
        question=problem.question,
        options=problem.options,
        answer=problem.answer,
        answer_type=problem.answer_type or task.answer_type,
        images=paths,
        image_sha256=[sha256(p) for p in pngs],
        metadata=round_floats(metadata),
    )
    written = Item.from_record(json.loads(item.to_json()))
    if not verify:
        return Built(written, pngs, problem, images)
    decoded = [decode_png(p) for p in pngs] if encode else [as_decoded(image) for image in images]
    failures = verify_item(host, task, written, decoded)
    if failures:
        raise VerifyDisagreement(
            f"{task.id} {task.version} seed={seed} index={index} params={_brief(params)}: the generator accepted an "
            f"item that verify rejects: {'; '.join(failures)}"
        )
    clock.lap("verify")
    return Built(written, pngs, problem, images)


class _StageClock:
    """Adds the CPU time since the previous lap to ``timings[stage]``; does nothing when ``timings`` is None."""

    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings
        self.last = time.process_time() if timings is not None else 0.0

    def lap(self, stage: str) -> None:
        if self.timings is not None:
            now = time.process_time()
            self.timings[stage] = self.timings.get(stage, 0.0) + now - self.last
            self.last = now


def drawn_values(task: Task, params: Mapping[str, Any], problem: Problem) -> dict[str, Any]:
    """The values ``generate`` reports in ``problem.params`` for parameters the run left to be drawn per item
    (None in ``params``), each checked against its declaration: a value outside its range or choices, or a
    set value reported changed, is a GenerationError naming the task's bug.  The core records the values
    returned in the item's metadata under the parameter's name (unless the task recorded that key itself)."""
    drawn = {}
    for parameter in task.parameters:
        value = problem.params.get(parameter.name)
        if value is None or parameter.kind == "level" or parameter.name in RESERVED_METADATA:
            continue  # not reported; the level is the core's to draw and record
        setting = params.get(parameter.name)
        if setting is not None:
            if value != setting:
                raise GenerationError(f"{task.id}: generate reports {parameter.name}={value!r} in Problem.params, "
                                      f"but the run set {setting!r} (a bug in the task: honour the setting)")
            continue
        problem_text = parameter.value_problem(value)
        if problem_text:
            raise GenerationError(f"{task.id}: generate drew {problem_text} (reported in Problem.params): a bug in "
                                  "the task, which may draw only the values its parameter declares")
        drawn[parameter.name] = value
    return drawn


def _brief(params: Mapping[str, Any], width: int = 80) -> str:
    """``params`` for a message: a value whose text is longer than ``width`` is cut, with its length said (a
    stored record line would otherwise bury the message)."""
    parts = []
    for key, value in params.items():
        text = repr(value)
        if len(text) > width:
            text = f"{text[:width]}... ({len(text)} chars)"
        parts.append(f"{key!r}: {text}")
    return "{" + ", ".join(parts) + "}"


def item_level(task: Task, impl: Any, params: Mapping[str, Any], random: ItemRandom) -> float | None:
    """The difficulty level of one item (None where the task has no scale or ``difficulty`` is unset): the
    setting's single level, or a level drawn for the item's ``difficulty_position`` from a range."""
    setting = params.get(LEVEL_PARAMETER) if task.difficulty is not None else None
    if setting is None:
        return None
    low, high = task.difficulty.bounds(setting)
    return draw_level(low, high, random, impl.difficulty_position(params, random))


#: Values ``round_floats`` returns as they are, looked up by their exact type (no call for each one).
_KEPT_AS_THEY_ARE = frozenset({int, str, bool, type(None)})


def round_floats(value: Any, decimals: int = METADATA_DECIMALS) -> Any:
    """``value`` with every float (also inside mappings and sequences) rounded to ``decimals`` places, numpy
    scalars and arrays turned into plain JSON values, tuples into lists."""
    kind = type(value)  # the plain JSON types first (a metadata record is mostly lists of floats and integers)
    if kind is float:
        return round(value, decimals) + 0.0
    if kind is list or kind is tuple:
        return [round(v, decimals) + 0.0 if type(v) is float else v if type(v) in _KEPT_AS_THEY_ARE
                else round_floats(v, decimals) for v in value]
    if kind is dict:
        return {str(k): round(v, decimals) + 0.0 if type(v) is float else v if type(v) in _KEPT_AS_THEY_ARE
                else round_floats(v, decimals) for k, v in value.items()}
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return round(value, decimals) + 0.0  # + 0.0 folds -0.0 into 0.0
    if hasattr(value, "tolist"):
        return round_floats(value.tolist(), decimals)
    if isinstance(value, Mapping):
        return {str(k): round_floats(v, decimals) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [round_floats(v, decimals) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(round_floats(v, decimals) for v in value)
    raise TypeError(f"metadata holds a {type(value).__name__}, which is not JSON serialisable: {value!r}")


def verify_item(host: Host, task: Task, item: Item, images: Sequence[Any]) -> list[str]:
    """Every failure the ``bench_verify`` implementations report for ``item`` and its decoded ``images``, each
    prefixed with the plugin that reported it (the core's checks and the task's own verify carry the name of
    the plugin that owns the task).  The plugins that checked the item (all but those that abstained with
    None) are traced on the host; an implementation that raises is named in a PluginError."""
    failures = []
    arguments = {"task": task, "item": item, "images": list(images)}
    checked = []
    for impl in reversed(host.pm.hook.bench_verify.get_hookimpls()):
        name = host.label(impl.plugin_name, task)
        try:
            result = impl.function(*[arguments[a] for a in impl.argnames])
        except Exception as exc:
            raise PluginError(f"[{name}] bench_verify raised {type(exc).__name__} on {item.id}: {exc}") from exc
        if result is not None:
            checked.append(name)
        failures += [f"[{name}] {failure}" for failure in result or ()]
    host.ran(task, "bench_verify", checked)
    return failures


def _build_job(job: Job) -> tuple[str, tuple[str, ...], tuple[bytes, ...]]:
    host = default_host()
    built = build_item(host, host.task(job.task_id), job.seed, job.index, job.params, job.suffix)
    return built.item.to_json(), built.item.images, built.pngs


def build_job_traced(job: Job) -> tuple[str, tuple[str, ...], tuple[bytes, ...], dict[str, dict[str, list[str]]]]:
    """``_build_job`` plus the trace of which plugins' hooks ran on the item (``{task id: {hook: plugins}}``),
    returned so that worker processes can report it to the writer."""
    host = default_host()
    with host.tracing() as trace:
        result = _build_job(job)
    return (*result, trace_json(trace))


def effective_workers(requested: int, jobs: int) -> int:
    """``requested`` capped at the number of jobs and of CPU cores (at least 1)."""
    return max(1, min(requested, jobs, os.cpu_count() or 1))


def run_jobs(
    jobs: Sequence[Job], workers: int = 1, job_fn: Callable[[Job], Any] = _build_job
) -> Iterator[Any]:
    """Apply ``job_fn`` to every job, in job order whatever the worker count (results stream as they finish).

    The worker count is capped by ``effective_workers``."""
    workers = effective_workers(workers, len(jobs))
    if workers <= 1:
        for job in jobs:
            yield job_fn(job)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(processes=workers) as pool:
        yield from pool.imap(job_fn, jobs, chunksize=max(1, min(16, len(jobs) // (workers * 8) or 1)))
