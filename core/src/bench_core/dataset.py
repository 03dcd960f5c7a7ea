"""The dataset directory: ``items.jsonl``, ``manifest.json`` and the PNGs under ``images/``.

Writes are atomic per item: PNGs go to a temporary name and are renamed into place before the item's
line is appended in one write; a line cut short by an interruption is dropped when the directory is
opened again, so running the same command again resumes with no duplicate and no torn line.  One writer
at a time: a writer holds an exclusive lock on ``.bench.lock`` (with its pid inside) until it closes, and a
second one fails at once naming the holder.  Files are created with the permissions the umask allows.

The manifest records every run's arguments; it is written when a run starts (``complete: false``) and
again when it ends, with counts and checksums, so ``bench verify`` can tell a finished dataset from an
interrupted one, a deleted or duplicated line, or a file changed after the fact.
"""

from __future__ import annotations

import contextlib
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
LOCK = ".bench.lock"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place, with umask permissions;
    an OSError becomes a DatasetError naming the file and the cause."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise DatasetError(f"cannot write {path}: {exc.strerror or exc}") from exc
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise DatasetError(f"cannot write {path}: {exc.strerror or exc}") from exc
        raise


class DatasetLock:
    """An exclusive, non-blocking lock on a dataset directory, held by one writer process at a time."""

    def __init__(self, root: Path) -> None:
        import fcntl

        self.path = root / LOCK
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise DatasetError(f"cannot write to {root}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(self._fd, 64).decode(errors="replace").strip() or "unknown"
            os.close(self._fd)
            raise DatasetError(
                f"{root} is being written by another bench process (pid {holder}); wait for it to finish, "
                "or write to another folder"
            ) from None
        os.ftruncate(self._fd, 0)
        os.write(self._fd, f"{os.getpid()}\n".encode())

    def release(self) -> None:
        import fcntl

        if self._fd >= 0:
            os.ftruncate(self._fd, 0)  # no stale pid is left behind
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = -1


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
        self._lock = DatasetLock(self.root)
        try:
            self._repair_and_index()
            self._handle = open(self.items_path, "ab")  # noqa: SIM115 - closed by close()
        except OSError as exc:
            self._lock.release()
            raise DatasetError(f"cannot write {self.items_path}: {exc.strerror or exc}") from exc
        except BaseException:
            self._lock.release()
            raise

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
        line = item_json.encode("utf-8") + b"\n"
        try:
            self._handle.write(line)
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as exc:
            # drop whatever part of the line reached the file, so the dataset stays consistent
            self._handle = _reopen_truncated(self._handle, self.items_path)
            raise DatasetError(
                f"cannot write {self.items_path}: {exc.strerror or exc}; the {len(self.ids)} items written before "
                "are intact: free the cause and run the same command again to resume"
            ) from exc
        self.ids.add(json.loads(item_json)["id"])

    def close(self) -> None:
        try:
            self._handle.close()
        except OSError:
            pass
        finally:
            self._lock.release()

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _reopen_truncated(handle: Any, path: Path) -> Any:
    """Close ``handle``, cut ``path`` back to its last complete line, and open it again for appending."""
    with contextlib.suppress(OSError):
        handle.close()
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end != len(data):
        with open(path, "r+b") as fix:
            fix.truncate(end)
    return open(path, "ab")


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
                if not line.endswith("\n") and handle.read(1) == "":
                    raise DatasetError(
                        f"{path}:{number}: the last line is cut short (an interrupted write); run the same "
                        "'bench generate' command again to repair it and finish the run"
                    ) from exc
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


def read_manifest(root: str | os.PathLike[str]) -> dict[str, Any]:
    """The decoded ``manifest.json`` of ``root``; DatasetError if it is missing or not a manifest."""
    path = Path(root) / MANIFEST
    if not path.is_file():
        raise DatasetError(f"{path} is missing: the dataset's runs, counts and checksums are unknown")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{path} is not readable JSON ({exc}); it cannot vouch for the dataset") from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("runs"), list):
        raise DatasetError(f"{path} is not a bench manifest (no list of runs)")
    return manifest


def has_dataset(root: str | os.PathLike[str]) -> bool:
    """True if ``root`` holds items or a manifest."""
    root = Path(root)
    items = root / ITEMS
    return (items.is_file() and items.stat().st_size > 0) or (root / MANIFEST).exists()


def describe_run(run: Mapping[str, Any]) -> str:
    """A run's arguments as the command line that made it."""
    words = ["bench generate", *run.get("selectors", [])]
    if run.get("count") is not None:
        words.append(f"--count {run['count']}")
    words.append(f"--seed {run.get('seed', 0)}")
    words += [f"--set {k}={v}" for k, v in sorted((run.get("settings") or {}).items())]
    return " ".join(words)


def check_run(root: str | os.PathLike[str], run: Mapping[str, Any], append: bool) -> list[Any]:
    """The runs the manifest will list once ``run`` is recorded; writes nothing.

    A folder with no dataset starts one.  A folder whose last run had the same arguments resumes it.  Any
    other run is refused unless ``append`` says to add it.  A dataset without a readable manifest is refused:
    its history is unknown.
    """
    root = Path(root)
    runs: list[Any] = []
    if has_dataset(root):
        try:
            runs = list(read_manifest(root)["runs"])
        except DatasetError as exc:
            raise DatasetError(
                f"{root} holds items but {exc}; check them with 'bench verify {root}' or generate into a new folder"
            ) from None
        if runs and not append and dict(runs[-1]) != dict(run):
            raise DatasetError(
                f"{root} already holds a dataset made by '{describe_run(runs[-1])}'; repeat those arguments to "
                "resume it, pass --append to add this run to it, or choose another --out"
            )
    if not runs or dict(runs[-1]) != dict(run):
        runs.append(dict(run))
    return runs


def has_torn_tail(root: str | os.PathLike[str]) -> bool:
    """True if ``root/items.jsonl`` ends in a line cut short (an interrupted write the writer repairs)."""
    path = Path(root) / ITEMS
    if not path.is_file() or path.stat().st_size == 0:
        return False
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) != b"\n"


def is_complete(root: str | os.PathLike[str]) -> bool:
    """True if the manifest of ``root`` says its last run finished."""
    try:
        return read_manifest(root).get("complete", True) is not False
    except DatasetError:
        return False


def existing_ids(root: str | os.PathLike[str]) -> set[str]:
    """Ids of the complete lines of ``root/items.jsonl`` (none if it does not exist); reads only."""
    path = Path(root) / ITEMS
    if not path.is_file():
        return set()
    data = path.read_bytes()
    ids = set()
    for number, line in enumerate(data[: data.rfind(b"\n") + 1].splitlines(), 1):
        if line.strip():
            try:
                ids.add(json.loads(line)["id"])
            except (ValueError, KeyError, TypeError) as exc:
                raise DatasetError(f"{path}:{number} is not an item record ({exc}); fix or remove that line") from exc
    return ids


def write_manifest(
    root: str | os.PathLike[str], runs: list[Any], complete: bool = True, hooks: Mapping[str, Any] | None = None,
    trace: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write ``manifest.json``: the runs' arguments, whether the last run finished, the environment, the
    plugins extending verify/score/distractors hooks (``hook_extensions``), for each task the plugins whose
    hooks ran on its items (``hooks_ran``: ``trace`` joined with what the manifest recorded before, so a
    resumed dataset keeps the record of its earlier items), item counts and versions per task, and SHA-256
    checksums of ``items.jsonl`` and every image."""
    from bench_core.host import merge_traces

    root = Path(root)
    try:
        earlier = read_manifest(root).get("hooks_ran") or {}
    except DatasetError:
        earlier = {}
    counts: dict[str, int] = {}
    versions: dict[str, str] = {}
    plugins: dict[str, str] = {}
    checksums: dict[str, str] = {}
    items_path = root / ITEMS
    if items_path.exists():
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
        "format": 2,
        "bench_core": __version__,
        "environment": environment(),
        "complete": complete,
        "plugins": dict(sorted(plugins.items())),
        "hook_extensions": dict(hooks or {}),
        "hooks_ran": {t: hooks for t, hooks in merge_traces(earlier, trace or {}).items() if t in counts},
        "task_versions": dict(sorted(versions.items())),
        "counts": dict(sorted(counts.items())),
        "total": sum(counts.values()),
        "runs": runs,
        "checksums": {
            ITEMS: sha256(items_path.read_bytes()) if items_path.exists() else None, **dict(sorted(checksums.items()))
        },
    }
    _atomic_write(root / MANIFEST, (json.dumps(manifest, indent=1, sort_keys=False) + "\n").encode())
    return manifest


def check_manifest(root: str | os.PathLike[str], items: list[Item]) -> list[str]:
    """What the manifest and the items disagree on: unfinished run, duplicate ids, counts per task, total,
    the checksum of ``items.jsonl``, image checksums.  Missing or unreadable manifest: DatasetError.

    An unfinished run is one problem: its manifest was written before the items, so counts and checksums
    are not compared (they would list every item written since)."""
    root = Path(root)
    manifest = read_manifest(root)
    problems = []
    seen: dict[str, int] = {}
    for item in items:
        seen[item.id] = seen.get(item.id, 0) + 1
    duplicates = sorted(i for i, n in seen.items() if n > 1)
    if duplicates:
        problems.append(f"{len(duplicates)} ids occur more than once in {ITEMS}, e.g. {duplicates[0]}")
    if manifest.get("complete") is False:
        last = manifest["runs"][-1] if manifest["runs"] else {}
        return [f"the last run did not finish; run '{describe_run(last)}' again to complete it", *problems]
    counts: dict[str, int] = {}
    for item in items:
        counts[item.task_id] = counts.get(item.task_id, 0) + 1
    recorded = manifest.get("counts") or {}
    for task_id in sorted(set(counts) | set(recorded)):
        if counts.get(task_id, 0) != recorded.get(task_id, 0):
            problems.append(
                f"{task_id}: {counts.get(task_id, 0)} items in {ITEMS}, the manifest records {recorded.get(task_id, 0)}"
            )
    checksums = manifest.get("checksums") or {}
    if not problems and checksums.get(ITEMS) != sha256((root / ITEMS).read_bytes()):
        problems.append(f"{ITEMS} was changed after the manifest was written (its SHA-256 differs)")
    for item in items:
        for rel, digest in zip(item.images, item.image_sha256, strict=False):
            if checksums.get(rel) != digest:
                problems.append(f"image {rel} of {item.id}: the manifest records another checksum or none")
    return problems
