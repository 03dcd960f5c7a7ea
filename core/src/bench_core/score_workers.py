"""``bench score --workers N``: the items file scored in parts by forked worker processes.

The parent indexes the predictions (:class:`bench_core.predictions.PredictionIndex`), cuts ``items.jsonl`` into
parts of about 4 MiB that end at a newline, and forks the workers, which inherit the index, the host and the
scorer.  A worker reads its part, scores its items (:func:`bench_core.report.item_results`) and sends back, for
each item, its group keys, score and metrics, with the index entries it found and the hooks that ran; the
parent adds the results up part after part, in item order, so the sums are those of one process to the last
bit.  A worker that meets anything it cannot score (a bad line) stops the run: the parent then scores alone,
to raise the error that line deserves with its line number.  Where processes cannot be forked, or the file
holds a single part, the parent scores alone.
"""

from __future__ import annotations

import io
import multiprocessing
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from bench_core.dataset import ITEMS
from bench_core.host import trace_json
from bench_core.item_views import views_of

PART_BYTES = 1 << 22
_JOB: dict[str, Any] = {}  # what the workers inherit when they are forked


def parts(path: Path, size: int | None = None) -> list[tuple[int, int]]:
    """Byte ranges covering ``path`` of about ``size`` bytes (default :data:`PART_BYTES`), each ending just
    after a newline (the last one at the end of the file)."""
    size = size or PART_BYTES
    total = path.stat().st_size
    out = []
    start = 0
    with open(path, "rb") as handle:
        while start < total:
            end = min(total, start + size)
            if end < total:
                handle.seek(end - 1)
                end += len(handle.readline()) - 1  # up to and including the next newline
            out.append((start, end))
            start = end
    return out


def _score_part(part: tuple[int, int]) -> tuple[str, Any, Any, Any]:
    """("ok", results, index entries found, hooks that ran) of one part, or ("error", message, ...)."""
    from bench_core.report import item_results

    start, end = part
    job = _JOB
    index, scorer = job["index"], job["scorer"]
    try:
        with open(job["path"], "rb") as handle:
            handle.seek(start)
            text = handle.read(end - start).decode("utf-8")
        index.asked = []
        with scorer.host.tracing() as trace:
            results = list(item_results(views_of(job["root"], io.StringIO(text, newline=None)), index, scorer,
                                        job["extra"]))
        return "ok", results, index.asked, trace_json(trace)
    except BaseException as exc:  # reported to the parent, which scores alone
        return "error", f"{type(exc).__name__}: {exc}", None, None


def score_in_workers(root: str | os.PathLike[str], index: Any, scorer: Any, extra: list[str], workers: int,
                     add: Callable[[Iterable[Any]], None], trace: dict[str, dict[str, set[str]]]) -> bool:
    """Score the items of ``root`` in ``workers`` forked processes, handing each part's results to ``add`` in
    file order and noting the hooks that ran in ``trace``; False (nothing handed over) where it cannot: no
    fork, a single part, or a worker that met a line it could not score."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    path = Path(root) / ITEMS
    ranges = parts(path)
    if len(ranges) < 2:
        return False
    _JOB.update(path=path, root=root, index=index, scorer=scorer, extra=extra)
    try:
        with multiprocessing.get_context("fork").Pool(min(workers, len(ranges))) as pool:
            for status, results, asked, ran in pool.imap(_score_part, ranges):
                if status != "ok":
                    return False  # the caller starts again from a fresh tally
                add(results)
                index.mark_asked(asked)
                for task_id, hooks in ran.items():
                    for hook, names in hooks.items():
                        trace.setdefault(task_id, {}).setdefault(hook, set()).update(names)
    finally:
        _JOB.clear()
    return True
