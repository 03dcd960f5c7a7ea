"""``bench verify``: re-derive every item of a dataset from its recorded identity and compare."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import attrs

from bench_core.dataset import read_items
from bench_core.errors import BenchError
from bench_core.generation import build_item, run_jobs
from bench_core.host import Host, default_host
from bench_core.images import sha256
from bench_core.types import Item

#: Item fields that must be identical when an item is derived again.
COMPARED_FIELDS = ("question", "options", "answer", "answer_type", "variant", "pair", "metadata", "image_sha256")


@attrs.frozen
class VerifyReport:
    """How many items were checked and what differed, item by item."""

    checked: int
    failures: tuple[tuple[str, str], ...]

    @property
    def ok(self) -> bool:
        return not self.failures


def check_item(host: Host, root: Path, item: Item) -> list[str]:
    """Differences between ``item`` as recorded and as derived again (empty list when identical)."""
    task = host.tasks.get(item.task_id)
    if task is None:
        return [f"task {item.task_id} is not installed; cannot re-derive"]
    if task.version != item.version:
        return [f"item made by {item.task_id} {item.version}, installed version is {task.version}"]
    problems = []
    for rel, digest in zip(item.images, item.image_sha256, strict=False):
        path = root / rel
        if not path.exists():
            problems.append(f"image {rel} is missing")
        elif sha256(path.read_bytes()) != digest:
            problems.append(f"image {rel} does not match its recorded SHA-256")
    try:
        suffix = item.id[len(f"{item.family}.{item.task}.{item.seed}.{item.index:06d}") :]
        built = build_item(host, task, item.seed, item.index, item.params, suffix).item
    except BenchError as exc:
        return [*problems, f"re-derivation failed: {exc}"]
    if built.id != item.id:
        problems.append(f"re-derived id {built.id} differs")
    for field in COMPARED_FIELDS:
        old, new = getattr(item, field), getattr(built, field)
        if _normal(old) != _normal(new):
            problems.append(f"{field} differs: recorded {_short(old)}, derived {_short(new)}")
    return problems


def _normal(value: object) -> object:
    # items read back from JSON hold lists where fresh ones hold tuples
    import json

    return json.loads(json.dumps(value, default=lambda v: v.tolist() if hasattr(v, "tolist") else list(v)))


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_worker_root: Path | None = None


def _check_job(item: Item) -> tuple[str, list[str]]:
    assert _worker_root is not None
    return item.id, check_item(default_host(), _worker_root, item)


def verify_dataset(
    root: str | os.PathLike[str], *, workers: int = 1, host: Host | None = None,
    progress: Callable[[int], None] | None = None,
) -> VerifyReport:
    """Re-derive every item in ``root`` and run the verify hooks; report every difference."""
    global _worker_root
    root = Path(root)
    items = read_items(root)
    failures: list[tuple[str, str]] = []
    if host is not None:
        results = ((item.id, check_item(host, root, item)) for item in items)
    else:
        _worker_root = root
        results = run_jobs(items, workers, _check_job)
    for item_id, problems in results:
        failures.extend((item_id, p) for p in problems)
        if progress:
            progress(1)
    return VerifyReport(len(items), tuple(failures))
