"""A stream of fresh items in-process, for training loops: no files, PIL images, sharded, resumable.

``stream(tasks, seed)`` yields the same items that ``bench generate TASKS --seed SEED`` writes (same ids,
records and pixels; every item verified before it is yielded), interleaved over the tasks: the item at
*position* ``p`` is item ``p // T`` of task ``p % T`` (``T`` tasks, in ``bench tasks`` order).  Positions are
dealt to shards -- data-loader workers times ranks -- round-robin, so no two shards make the same item,
and ``start`` resumes at a position.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from bench_core.errors import ParameterError
from bench_core.types import Item

__all__ = ["Streamed", "shard_of", "stream"]

_FIRST_PLAN = 64  # designs planned at first for an endless stream; doubled as the stream goes on


@attrs.frozen
class Streamed:
    """One streamed item: its position in the stream, its record, its images (PIL, RGB or RGBA: what decoding
    its PNGs would give), its PNG bytes if the stream encodes them (else None) and its scoring record."""

    position: int
    item: Item
    images: tuple[Any, ...] = attrs.field(repr=False)
    pngs: tuple[bytes, ...] | None = attrs.field(repr=False)
    record: Mapping[str, Any] = attrs.field(repr=False)

    def row(self) -> dict[str, Any]:
        """A training row: ``id``, ``task``, ``version``, ``question``, ``options``, ``answer``, ``answer_type``,
        ``images`` (PIL) and ``bench`` (the scoring record as JSON text, which the reward adapters read)."""
        item = self.item
        return {
            "id": item.id,
            "task": item.task_id,
            "version": item.version,
            "question": item.question,
            "options": list(item.options) if item.options is not None else None,
            "answer": item.answer,
            "answer_type": item.answer_type,
            "images": list(self.images),
            "bench": json.dumps(dict(self.record), ensure_ascii=False, sort_keys=True),
        }


def shard_of(*, rank: int | None = None, world_size: int | None = None,
             worker: tuple[int, int] | None = None) -> tuple[int, int]:
    """``(index, count)`` of the shard this process makes: ``worker`` (id, number of workers) -- by default
    torch's ``get_worker_info()`` inside a data-loader worker (torch is never imported here: a process that
    has not imported it is no worker) -- and ``rank`` of ``world_size`` -- by default torch.distributed's
    when it is initialised, else 0 of 1.  Shard ``rank * workers + worker`` of ``world_size * workers``."""
    if worker is None:
        worker = (0, 1)
        data = sys.modules.get("torch.utils.data")
        info = data.get_worker_info() if data is not None else None
        if info is not None:
            worker = (int(info.id), int(info.num_workers))
    if rank is None or world_size is None:
        found = (0, 1)
        dist = sys.modules.get("torch.distributed")
        if dist is not None and dist.is_available() and dist.is_initialized():
            found = (int(dist.get_rank()), int(dist.get_world_size()))
        rank = found[0] if rank is None else rank
        world_size = found[1] if world_size is None else world_size
    worker_id, workers = worker
    if not (0 <= worker_id < workers and 0 <= rank < world_size):
        raise ParameterError(f"shard: worker {worker_id} of {workers} and rank {rank} of {world_size} are not a "
                             "shard; each id must lie in 0 .. count - 1")
    return rank * workers + worker_id, world_size * workers


def _settings_for(task: Any, settings: Mapping[str, Any], selected: list[Any]) -> dict[str, Any]:
    """The settings ``task`` has parameters for; a key no selected task has is a ParameterError, as for
    ``bench generate --set``."""
    for key in settings:
        if not any(key in {p.name for p in t.parameters} for t in selected):
            allowed = sorted({f"{t.id}: {p.name}" for t in selected for p in t.parameters})
            raise ParameterError(f"no selected task has a parameter {key!r}; parameters are: {', '.join(allowed)}")
    if "difficulty" in settings:
        lacking = [t.id for t in selected if "difficulty" not in {p.name for p in t.parameters}]
        if lacking:
            raise ParameterError(f"difficulty: {', '.join(lacking)} declare(s) no difficulty scale; stream only tasks "
                                 "that do")
    names = {p.name for p in task.parameters}
    return {k: v for k, v in settings.items() if k in names}


class _Designs:
    """Each index's job (params and id suffix) of one task, planned in growing chunks (``count`` given: all at
    once, exactly as ``bench generate --count`` plans them)."""

    def __init__(self, task: Any, settings: Mapping[str, Any], seed: int, count: int | None) -> None:
        from bench_core.generation import plan

        self._plan = lambda n: plan(task, settings, seed, n)
        self.jobs = self._plan(count if count is not None else _FIRST_PLAN)
        self.complete = count is not None or len(self.jobs) < _FIRST_PLAN

    def job(self, index: int) -> Any:
        while index >= len(self.jobs) and not self.complete:
            wanted = max(2 * len(self.jobs), index + 1)
            self.jobs = self._plan(wanted)
            self.complete = len(self.jobs) < wanted  # a preset's design ran out
        return self.jobs[index] if index < len(self.jobs) else None


def stream(
    tasks: str | Iterable[str] = (),
    seed: int = 0,
    *,
    settings: Mapping[str, Any] | None = None,
    count: int | None = None,
    start: int = 0,
    encode_png: bool = False,
    rank: int | None = None,
    world_size: int | None = None,
    worker: tuple[int, int] | None = None,
    host: Any = None,
) -> Iterator[Streamed]:
    """Yield items of ``tasks`` (selectors as ``bench generate`` takes them: ``"traversal/path"``,
    ``"marvl"``; none = every installed task) made in this process, with PIL images.

    ``settings`` are ``--set`` values (each applies to the tasks that have the parameter; one that no task has
    is a ParameterError).  ``count`` items per task (item groups, for a task with ``items_per_count`` > 1; None:
    endless; a preset's design ends where it ends); with ``count`` the items are exactly ``bench generate
    --count COUNT``'s, and without it the same as long as a task's designs do not depend on the count (true
    of every task here but preset designs sized by it).
    ``start`` is the first position (see the module's docstring) to make: a run that consumed positions up
    to ``p`` resumes with ``start=p + 1``.  ``encode_png`` also encodes each item's PNGs (for writing them);
    off, items carry no ``image_sha256`` and are verified on their images as decoding would give them.
    Sharding: see :func:`shard_of` (``rank``, ``world_size``, ``worker``); each shard makes the positions
    ``p`` with ``p % shards == shard`` -- worked out at the first ``next()``, so call ``stream`` inside a
    data-loader worker's ``__iter__``.
    """
    from bench_core.generation import build_item
    from bench_core.host import default_host
    from bench_core.rewards import scoring_record

    if isinstance(tasks, str):
        tasks = [tasks]
    if (count is not None and count < 1) or start < 0:
        raise ParameterError(f"stream: count must be at least 1 (or None) and start at least 0, got count={count}, "
                             f"start={start}")
    host = host or default_host()
    selected = host.select(list(tasks))
    settings = dict(settings or {})
    designs = [_Designs(t, _settings_for(t, settings, selected), seed, count) for t in selected]
    shard, shards = shard_of(rank=rank, world_size=world_size, worker=worker)
    position = start + (shard - start) % shards
    ended: set[int] = set()
    while len(ended) < len(selected):
        slot, index = position % len(selected), position // len(selected)
        job = designs[slot].job(index)
        if job is None:
            ended.add(slot)
        else:
            built = build_item(host, selected[slot], job.seed, job.index, job.params, job.suffix, encode=encode_png)
            images = tuple(_decoded(image) for image in built.images)
            yield Streamed(position, built.item, images, built.pngs if encode_png else None,
                           scoring_record(built.item, host=host))
        position += shards


def _decoded(image: Any) -> Any:
    from bench_core.images import as_decoded

    return as_decoded(image)
