"""The dataset directory: ``items.jsonl``, ``manifest.json`` and the PNGs under ``images/``.

Writes are atomic per item: PNGs go to a temporary name and are renamed into place before the item's
line is appended in one write; a line cut short by an interruption is dropped when the directory is
opened again, so running the same command again resumes with no duplicate and no torn line.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bench_core.errors import DatasetError
from bench_core.images import sha256
from bench_core.types import Item

ITEMS = "items.jsonl"
MANIFEST = "manifest.json"


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class DatasetWriter:
    """Appends items to a dataset directory, resuming what an earlier run of the directory left."""

    def __init__(self, out_dir: str | os.PathLike[str]) -> None:
        self.root = Path(out_dir)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatasetError(f"cannot create output directory {self.root}: {exc.strerror}") from exc
        self.items_path = self.root / ITEMS
        self.ids: set[str] = set()
        self._repair_and_index()
        self._handle = open(self.items_path, "ab")  # noqa: SIM115 - closed by close()

    def _repair_and_index(self) -> None:
        if not self.items_path.exists():
            return
        data = self.items_path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end != len(data):  # an interrupted append: drop the torn tail
            with open(self.items_path, "r+b") as handle:
                handle.truncate(end)
        for number, line in enumerate(data[:end].splitlines(), 1):
            if not line.strip():
                continue
            try:
                self.ids.add(json.loads(line)["id"])
            except (ValueError, KeyError, TypeError) as exc:
                raise DatasetError(
                    f"{self.items_path}:{number} is not an item record ({exc}); fix or remove that line"
                ) from exc

    def __contains__(self, item_id: str) -> bool:
        return item_id in self.ids

    def write(self, item_json: str, image_paths: tuple[str, ...], pngs: tuple[bytes, ...]) -> None:
        """Store one item: its PNGs first, then its line, flushed to disk."""
        for rel, png in zip(image_paths, pngs, strict=True):
            _atomic_write(self.root / rel, png)
        self._handle.write(item_json.encode("utf-8") + b"\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.ids.add(json.loads(item_json)["id"])

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def iter_records(root: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Decoded lines of ``root/items.jsonl``; DatasetError names the file and line of a bad one."""
    path = Path(root) / ITEMS
    if not path.exists():
        raise DatasetError(f"{path} does not exist; is {root} a directory written by 'bench generate'?")
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except ValueError as exc:
                raise DatasetError(f"{path}:{number}: not valid JSON ({exc})") from exc


def read_items(root: str | os.PathLike[str]) -> list[Item]:
    """Every item of a dataset directory, in file order."""
    items = []
    for record in iter_records(root):
        try:
            items.append(Item.from_record(record))
        except (TypeError, ValueError) as exc:
            raise DatasetError(f"{Path(root) / ITEMS}: record {record.get('id')!r} is not an item: {exc}") from exc
    return items


#: Libraries whose versions can change pixels or floats; the manifest records each one installed.
RECORDED_LIBRARIES = ("numpy", "Pillow", "shapely", "matplotlib", "pluggy", "attrs")


def environment() -> dict[str, str | None]:
    """Python, the platform's machine type and the versions of ``RECORDED_LIBRARIES`` (None if absent)."""
    import importlib.metadata
    import platform

    versions: dict[str, str | None] = {"python": platform.python_version(), "machine": platform.machine()}
    for name in RECORDED_LIBRARIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def write_manifest(root: str | os.PathLike[str], run: Mapping[str, Any]) -> dict[str, Any]:
    """Write ``manifest.json``: versions, the runs' arguments, item counts per task, and SHA-256 checksums."""
    root = Path(root)
    manifest_path = root / MANIFEST
    runs: list[Any] = []
    if manifest_path.exists():
        try:
            runs = json.loads(manifest_path.read_text())["runs"]
        except (ValueError, KeyError, TypeError):
            runs = []
    if not runs or runs[-1] != run:
        runs.append(dict(run))
    counts: dict[str, int] = {}
    versions: dict[str, str] = {}
    plugins: dict[str, str] = {}
    checksums: dict[str, str] = {}
    for record in iter_records(root):
        task_id = f"{record['family']}/{record['task']}"
        counts[task_id] = counts.get(task_id, 0) + 1
        versions[task_id] = record["version"]
        plugin = record.get("plugin") or {}
        if plugin.get("distribution"):
            plugins[plugin["distribution"]] = plugin.get("version")
        digests = record.get("image_sha256") or [None] * len(record["images"])
        for rel, digest in zip(record["images"], digests, strict=True):
            checksums[rel] = digest
    from bench_core import __version__

    manifest = {
        "format": 1,
        "bench_core": __version__,
        "environment": environment(),
        "plugins": dict(sorted(plugins.items())),
        "task_versions": dict(sorted(versions.items())),
        "counts": dict(sorted(counts.items())),
        "total": sum(counts.values()),
        "runs": runs,
        "checksums": {ITEMS: sha256((root / ITEMS).read_bytes()), **dict(sorted(checksums.items()))},
    }
    _atomic_write(manifest_path, (json.dumps(manifest, indent=1, sort_keys=False) + "\n").encode())
    return manifest
