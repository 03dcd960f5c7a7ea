"""``bench score --workers N``: the predictions indexed and the items scored in parts by forked worker processes.

Both files are cut into parts of about 4 MiB that end at a newline (:func:`bench_core.predictions.line_ranges`).
First the workers index the parts of the predictions file (:func:`bench_core.predictions.index_range`) and the
parent joins them, in file order, into one :class:`~bench_core.predictions.PredictionIndex`.  Then a second set
of workers, forked once the index exists (they inherit it, the host and the scorer), scores the parts of the
items file (:func:`bench_core.report.score_part`) and sends each back compactly (a
:class:`~bench_core.score_tally.Part`: its distinct group keys and outcomes, and two indices per item) with the
index entries it found and the hooks that ran; the parent adds the parts up in file order, so the sums are those
of one process to the last bit.  A worker that meets anything it cannot score (a bad line) stops the run: the
parent then scores alone, to raise the error that line deserves with its line number.  Where processes cannot
be forked, or a file holds a single part, the parent does the work alone.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench_core.predictions import PART_BYTES, PredictionIndex, index_range, line_ranges
from bench_core.score_tally import merge_trace

__all__ = ["PART_BYTES", "build_index", "parts", "score_in_workers"]

_JOB: dict[str, Any] = {}  # what the workers inherit when they are forked
#: A flag in shared memory, made before each pool is forked: the parent sets it when it stops reading results
#: early, and the workers then skip the jobs still queued.
_STOP: Any = None


def parts(path: Path, size: int | None = None) -> list[tuple[int, int]]:
    """Byte ranges covering ``path`` of about ``size`` bytes (default :data:`PART_BYTES`), each ending just
    after a newline (the last one at the end of the file)."""
    return line_ranges(path, size or PART_BYTES)


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


#: The most jobs a worker is handed at once.  Each hand-over and each result sent back costs the parent about a
#: millisecond of CPU (the pool's threads, pipes and wake-ups): for a million items in 4 MiB parts, a job at a
#: time took 1.7 s of the parent's CPU (competing with the workers for the cores), 8 at a time 0.75 s.
CHUNK = 8


def chunk_size(jobs: int, workers: int) -> int:
    """Jobs handed to a worker at once: up to :data:`CHUNK`, but each worker gets at least eight hand-overs (so
    that none waits long for the last one)."""
    return max(1, min(CHUNK, jobs // (8 * workers)))


def _in_processes(function: Callable[..., Any], jobs: list[Any], workers: int) -> Iterator[Any]:
    """``function(job)`` of each job, in order, computed by ``workers`` forked processes.

    The pool is always wound down the graceful way (close, then join), never terminated: terminating a pool
    while its task-handler thread is still handing jobs over can deadlock on the job queue's lock (seen once in
    CI).  So when the caller stops early (closes this generator), :data:`_STOP` is set for the workers, which
    answer the jobs still queued at once, without doing them, and the remaining results are drained before the pool is
    closed."""
    global _STOP
    workers = min(workers, len(jobs))
    context = multiprocessing.get_context("fork")
    _STOP = context.RawValue("b", 0)
    pool = context.Pool(workers)
    results = pool.imap(function, jobs, chunksize=chunk_size(len(jobs), workers))
    finished = False
    try:
        yield from results
        finished = True
    finally:
        if not finished:
            _STOP.value = 1
            _drain(results)
        pool.close()
        pool.join()


def _drain(results: Iterator[Any]) -> None:
    """Read ``results`` to the end, ignoring what they hold (an error a job raised included)."""
    while True:
        try:
            next(results)
        except StopIteration:
            return
        except Exception:  # a job that failed while the run was being stopped: nothing to report
            continue


def build_index(predictions: str | os.PathLike[str], workers: int = 1) -> PredictionIndex:
    """The :class:`~bench_core.predictions.PredictionIndex` of ``predictions``, its parts read by ``workers``
    processes where they can be forked and the file holds more than one part."""
    if workers > 1 and _can_fork():
        ranges = parts(Path(predictions))
        if len(ranges) > 1:
            return PredictionIndex(predictions, _in_processes(_index_part, [(predictions, r) for r in ranges], workers))
    return PredictionIndex(predictions)


def _index_part(job: tuple[Any, tuple[int, int]]) -> Any:
    if _STOP.value:
        return None
    path, (start, end) = job
    return index_range(path, start, end)


def _score_part(part: tuple[int, int]) -> tuple[str, Any]:
    """("ok", the Part of the items in ``part``), or ("error", message)."""
    from bench_core.report import score_part

    if _STOP.value:
        return "skipped", None
    job = _JOB
    try:
        return "ok", score_part(job["root"], part[0], part[1], job["index"], job["scorer"], job["extra"])
    except BaseException as exc:  # reported to the parent, which scores alone
        return "error", f"{type(exc).__name__}: {exc}"


def score_in_workers(root: str | os.PathLike[str], ranges: list[tuple[int, int]], index: Any, scorer: Any,
                     extra: list[str], workers: int, add: Callable[[Any], None],
                     trace: dict[str, dict[str, set[str]]]) -> bool:
    """Score the ``ranges`` of ``root``'s items file in ``workers`` forked processes, handing each part to
    ``add`` in file order and noting the hooks that ran in ``trace``; False (nothing handed over) where it
    cannot: no fork, a single part, or a worker that met a line it could not score."""
    if not _can_fork() or len(ranges) < 2:
        return False
    _JOB.update(root=root, index=index, scorer=scorer, extra=extra)
    results = _in_processes(_score_part, ranges, workers)
    try:
        for status, part in results:
            if status != "ok":
                return False  # the caller starts again from a fresh tally
            add(part)
            index.mark_asked(part.asked)
            merge_trace(trace, part.trace)
    finally:
        results.close()  # winds the pool down before the job is forgotten
        _JOB.clear()
    return True
