"""``bench verify``: prove a dataset correct from disk, and (``--reproduce``) re-derive it and compare.

First the manifest must vouch for the folder: the last run finished, ids are unique, the count per task
and the checksums of ``items.jsonl`` and of every image are the ones it recorded.

The proof reads only what was written: each item's JSON record (with its scene record) and its PNGs,
whose bytes must match the recorded SHA-256; the tasks' ``bench_verify`` hooks re-derive every answer
from those.  Reproduction is a separate check: regenerate each item from its recorded identity and compare
answers and records exactly, and images exactly or, where a task states one, within its pixel tolerance.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import attrs

from bench_core.dataset import check_manifest, read_items
from bench_core.errors import BenchError, DatasetError, PluginError
from bench_core.generation import build_item, run_jobs, verify_item
from bench_core.host import Host, default_host
from bench_core.images import decode_png, sha256
from bench_core.task import PixelTolerance, implementation
from bench_core.types import Item

#: Item fields that must be identical when an item is derived again.
COMPARED_FIELDS = ("question", "options", "answer", "answer_type", "variant", "pair", "metadata")


@attrs.frozen
class VerifyReport:
    """How many items were checked, what failed item by item, and how images were reproduced per task."""

    checked: int
    failures: tuple[tuple[str, str], ...]
    reproduced: tuple[tuple[str, str], ...] = ()  # (task id, "identical bytes" or the tolerance used)

    @property
    def ok(self) -> bool:
        return not self.failures


def load_images(root: Path, item: Item) -> tuple[list[object], list[str]]:
    """The item's decoded images and the problems met reading them (missing file, checksum mismatch)."""
    images, problems = [], []
    if len(item.image_sha256) != len(item.images):
        problems.append(f"the record lists {len(item.images)} images but {len(item.image_sha256)} checksums")
    for rel, digest in zip(item.images, item.image_sha256, strict=False):
        path = root / rel
        if not path.is_file():
            problems.append(f"image {rel} is missing")
            continue
        data = path.read_bytes()
        if sha256(data) != digest:
            problems.append(f"image {rel} does not match its recorded SHA-256")
            continue
        try:
            images.append(decode_png(data))
        except Exception as exc:  # a PNG that Pillow cannot read is a finding, not a crash
            problems.append(f"image {rel} cannot be decoded: {type(exc).__name__}: {exc}")
    return images, problems


def check_artefact(host: Host, root: Path, item: Item) -> list[str]:
    """Failures of ``item`` proved from disk: its files, then every ``bench_verify`` hook on its record and pixels."""
    task = host.tasks.get(item.task_id)
    if task is None:
        return [f"task {item.task_id} is not installed; cannot verify"]
    if task.version != item.version:
        return [f"item made by {item.task_id} {item.version}, installed version is {task.version}"]
    images, problems = load_images(root, item)
    if problems:
        return problems
    try:
        return verify_item(host, task, item, images)
    except PluginError as exc:  # a verifier that crashes on an item has not proved it (named by verify_item)
        return [str(exc)]
    except Exception as exc:
        return [f"verify raised {type(exc).__name__}: {exc}"]


def check_reproduction(host: Host, root: Path, item: Item) -> list[str]:
    """Differences between ``item`` as recorded and as derived again (empty list when it reproduces)."""
    task = host.tasks.get(item.task_id)
    if task is None:
        return [f"task {item.task_id} is not installed; cannot re-derive"]
    if task.version != item.version:
        return [f"item made by {item.task_id} {item.version}, installed version is {task.version}"]
    try:
        suffix = item.id[len(f"{item.family}.{item.task}.{item.seed}.{item.index:06d}") :]
        built = build_item(host, task, item.seed, item.index, item.params, suffix)
    except BenchError as exc:
        return [f"re-derivation failed: {exc}"]
    problems = []
    if built.item.id != item.id:
        problems.append(f"re-derived id {built.item.id} differs")
    for field in COMPARED_FIELDS:
        old, new = getattr(item, field), getattr(built.item, field)
        if _normal(old) != _normal(new):
            problems.append(f"{field} differs: recorded {_short(old)}, derived {_short(new)}")
    tolerance = implementation(task).pixel_tolerance
    for k, (rel, png) in enumerate(zip(item.images, built.pngs, strict=False)):
        path = root / rel
        if not path.is_file():
            problems.append(f"image {rel} is missing")
            continue
        data = path.read_bytes()
        if data == png:
            continue
        if tolerance is None:
            problems.append(f"image {k} differs from the re-rendered one (this task promises identical bytes)")
            continue
        problem = compare_pixels(decode_png(data), decode_png(png), tolerance)
        if problem:
            problems.append(f"image {k}: {problem}")
    return problems


def compare_pixels(stored: object, fresh: object, tolerance: PixelTolerance) -> str | None:
    """None if ``fresh`` matches ``stored`` within ``tolerance``, else what is out of bounds."""
    import numpy as np

    a, b = np.asarray(stored, dtype=np.int16), np.asarray(fresh, dtype=np.int16)
    if a.shape != b.shape:
        return f"re-rendered image is {b.shape}, stored is {a.shape}"
    diff = np.abs(a - b).reshape(-1, a.shape[-1] if a.ndim == 3 else 1).max(axis=1)
    fraction, largest = float((diff > 0).mean()), int(diff.max(initial=0))
    if largest > tolerance.max_difference or fraction > tolerance.max_fraction:
        return (f"re-rendered pixels differ: {fraction:.4%} of pixels, by up to {largest}/255; the task allows "
                f"{tolerance.describe()}")
    return None


def _normal(value: object) -> object:
    # items read back from JSON hold lists where fresh ones hold tuples
    return json.loads(json.dumps(value, default=lambda v: v.tolist() if hasattr(v, "tolist") else list(v)))


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_worker_state: tuple[Path, bool] | None = None


def _check_job(item: Item) -> tuple[str, list[str]]:
    assert _worker_state is not None
    root, reproduce = _worker_state
    return item.id, check_item(default_host(), root, item, reproduce)


def check_item(host: Host, root: Path, item: Item, reproduce: bool = False) -> list[str]:
    """The artefact proof of ``item`` and, with ``reproduce``, its re-derivation."""
    problems = check_artefact(host, root, item)
    if reproduce:
        problems += [p for p in check_reproduction(host, root, item) if p not in problems]
    return problems


def verify_dataset(
    root: str | os.PathLike[str], *, workers: int = 1, host: Host | None = None, reproduce: bool = False,
    progress: Callable[[int], None] | None = None,
) -> VerifyReport:
    """Prove every item of ``root`` from disk (and with ``reproduce`` re-derive it); report every failure."""
    global _worker_state
    root = Path(root)
    items = read_items(root)
    if not items:
        raise DatasetError(f"{root / 'items.jsonl'} holds no items; there is nothing to verify")
    failures: list[tuple[str, str]] = [("manifest", problem) for problem in check_manifest(root, items)]
    if host is not None:
        results = ((item.id, check_item(host, root, item, reproduce)) for item in items)
    else:
        _worker_state = (root, reproduce)
        results = run_jobs(items, workers, _check_job)
    for item_id, problems in results:
        failures.extend((item_id, p) for p in problems)
        if progress:
            progress(1)
    modes: dict[str, str] = {}
    if reproduce:
        lookup = host or default_host()
        for item in items:
            task = lookup.tasks.get(item.task_id)
            if task is not None and item.task_id not in modes:
                tolerance = implementation(task).pixel_tolerance
                modes[item.task_id] = "identical bytes" if tolerance is None else f"within {tolerance.describe()}"
    return VerifyReport(len(items), tuple(failures), tuple(sorted(modes.items())))
