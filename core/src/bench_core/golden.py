"""Golden digests: a committed fingerprint of a few items per task version, so that output which changes
without a version bump is caught.

A golden file ``<task name>.json`` holds the task id, the task version and one digest per (seed, index) of
``GOLDEN_ITEMS``.  A digest is the SHA-256 of the item's JSON record; for a task that promises identical
image bytes the record includes the PNG checksums, for one with a pixel tolerance they are left out (its
pixels may move within the tolerance on another CPU; its answers and records may not).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bench_core.generation import build_item, plan
from bench_core.host import Host
from bench_core.task import implementation
from bench_core.types import Item, Task

#: Environment variable that makes the golden test (re)write the files instead of comparing.
GOLDEN_ENV = "BENCH_WRITE_GOLDEN"
#: The (seed, index) pairs fingerprinted per task.
GOLDEN_ITEMS: tuple[tuple[int, int], ...] = ((0, 0), (0, 1), (7, 0), (7, 3))


def item_digest(item: Item, include_images: bool) -> str:
    """SHA-256 of the item's record (with or without its image checksums)."""
    record = json.loads(item.to_json())
    if not include_images:
        record.pop("image_sha256", None)
    record.pop("plugin", None)  # the distribution version may move without the task changing
    return hashlib.sha256(json.dumps(record, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def task_digests(host: Host, task: Task) -> dict[str, str]:
    """``{"seed:index": digest}`` over ``GOLDEN_ITEMS`` at the task's default parameters."""
    exact = implementation(task).pixel_tolerance is None
    digests = {}
    for seed, index in GOLDEN_ITEMS:
        job = plan(task, {}, seed, index + 1)[index]
        built = build_item(host, task, seed, index, job.params, job.suffix)
        digests[f"{seed}:{index}"] = item_digest(built.item, exact)
    return digests


def check_golden(host: Host, task: Task, folder: Path, write: bool = False) -> list[str]:
    """Compare ``task``'s digests with ``folder/<task name>.json``; with ``write``, store them instead.

    Returns what is wrong: a missing file, a version that was bumped without new digests, or digests that
    changed while the version did not.
    """
    path = folder / f"{task.name}.json"
    digests = task_digests(host, task)
    if write:
        folder.mkdir(parents=True, exist_ok=True)
        record = {"task": task.id, "version": task.version, "digests": digests}
        path.write_text(json.dumps(record, indent=1) + "\n")
        return []
    how = f"run the tests with {GOLDEN_ENV}=1 to write it, and say why in the plugin's CHANGELOG"
    if not path.is_file():
        return [f"{task.id}: no golden file {path}; {how}"]
    stored = json.loads(path.read_text())
    if stored.get("version") != task.version:
        return [f"{task.id}: golden digests are for version {stored.get('version')}, the task is {task.version}; "
                f"{how}"]
    changed = [key for key, digest in digests.items() if stored.get("digests", {}).get(key) != digest]
    if changed:
        return [f"{task.id} {task.version}: items {', '.join(changed)} changed without a version bump; bump the task "
                f"version (and CHANGELOG), then {how}"]
    return []
