"""Predictions files (JSONL of ``{"id": ..., "response": ...}``) as ``bench score`` reads them, streamed.

A file is read as UTF-8 with undecodable bytes replaced, split into lines at ``\\n``, ``\\r\\n`` and a lone
``\\r`` (Python's universal newlines); blank lines are skipped.  A line that is not JSON, not an object, has no
string ``id`` or no ``response`` is malformed: counted, never fatal.  A repeated id keeps its last response.

:class:`PredictionIndex` reads a file once and keeps, for each distinct id, only a 64-bit hash and where its
last line lies (24 bytes an id, whatever the responses' length); a response is read again (``pread``: no map
of the file, whose pages would count as the process's memory) when an item asks for it.  Ids whose hashes
collide are told apart by reading them back.
"""

from __future__ import annotations

import heapq
import json
import os
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from bench_core.errors import DatasetError

_CHUNK = 1 << 23


def _pieces(handle: Any) -> Iterator[tuple[int, bytes]]:
    """(offset, bytes) of every line of a binary file, split as universal newlines split text."""
    offset = 0
    rest = b""
    while True:
        chunk = handle.read(_CHUNK)
        if not chunk:
            break
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        for line in lines:
            if b"\r" in line:
                yield from _split_cr(offset, line)
            else:
                yield offset, line
            offset += len(line) + 1
    if rest:
        yield from _split_cr(offset, rest) if b"\r" in rest else ((offset, rest),)


def _split_cr(offset: int, line: bytes) -> Iterator[tuple[int, bytes]]:
    body = line[:-1] if line.endswith(b"\r") else line  # "\r\n" (or a final "\r") ends the line once
    for part in body.split(b"\r"):
        yield offset, part
        offset += len(part) + 1


def decode_record(text: str) -> dict[str, Any] | None:
    """The prediction record of one line's text, or None if the line is malformed."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("id"), str) or "response" not in record:
        return None
    return record


def _open(path: str | os.PathLike[str]) -> Any:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise DatasetError(f"cannot read predictions {path}: {exc.strerror}") from exc


def iter_predictions(path: str | os.PathLike[str]) -> Iterator[tuple[int, int, dict[str, Any] | None]]:
    """(offset, length in bytes, record or None if malformed) of every non-blank line of ``path``, in file
    order.  DatasetError if the file cannot be read."""
    with _open(path) as handle:
        try:
            for offset, raw in _pieces(handle):
                text = raw.decode("utf-8", "replace")
                if text.strip():
                    yield offset, len(raw), decode_record(text)
        except OSError as exc:
            raise DatasetError(f"cannot read predictions {path}: {exc.strerror}") from exc


class PredictionIndex:
    """Where the last response of each id of a predictions file lies; built in one pass over the file.

    ``lines``, ``malformed`` and ``duplicates`` count as :func:`bench_core.report.load_predictions` does.
    :meth:`lookup` returns an id's response; after every item has looked its id up, :meth:`unknown` gives
    the ids no item asked for.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.lines = self.malformed = 0
        hashes, starts, lengths = array("q"), array("q"), array("q")
        for offset, length, record in iter_predictions(path):
            self.lines += 1
            if record is None:
                self.malformed += 1
                continue
            hashes.append(hash(record["id"]))
            starts.append(offset)
            lengths.append(length)
        valid = len(hashes)
        order = np.argsort(np.frombuffer(hashes, dtype=np.int64), kind="stable")  # equal hashes in file order
        self._hashes = np.frombuffer(hashes, dtype=np.int64)[order]
        self._starts = np.frombuffer(starts, dtype=np.int64)[order]
        self._lengths = np.frombuffer(lengths, dtype=np.int64)[order]
        del hashes, starts, lengths, order
        self._handle = _open(path)
        self._fd = self._handle.fileno()
        self._keep_last()
        self.duplicates = valid - len(self._hashes)
        self._matched = np.zeros(len(self._hashes), dtype=bool)
        self.asked: list[int] | None = None  # a list: the entries :meth:`lookup` finds are noted there too

    def close(self) -> None:
        """Close the file."""
        self._handle.close()

    def __enter__(self) -> PredictionIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(self, i: int) -> dict[str, Any]:
        """The record of entry ``i`` (a line that was valid when the index was built)."""
        length = int(self._lengths[i])
        try:
            data = os.pread(self._fd, length, int(self._starts[i]))
        except OSError as exc:
            raise DatasetError(f"cannot read predictions {self.path}: {exc.strerror}") from exc
        record = decode_record(data.decode("utf-8", "replace")) if len(data) == length else None
        if record is None:
            raise DatasetError(f"predictions {self.path} changed while it was being scored")
        return record

    def _keep_last(self) -> None:
        """Keep one entry per distinct id, its last line: entries sharing a hash are read back and grouped."""
        if len(self._hashes) < 2:
            return
        same = self._hashes[1:] == self._hashes[:-1]
        if not same.any():
            return
        keep = np.ones(len(self._hashes), dtype=bool)
        starts = np.flatnonzero(np.diff(np.concatenate(([False], same, [False])).astype(np.int8)) == 1)
        for first in starts:
            last = first + 1
            while last + 1 < len(self._hashes) and self._hashes[last + 1] == self._hashes[first]:
                last += 1
            seen: set[str] = set()
            for i in range(last, first - 1, -1):  # from the last line: the first seen of an id is kept
                item_id = self.record(i)["id"]
                keep[i] = item_id not in seen
                seen.add(item_id)
        self._hashes, self._starts, self._lengths = self._hashes[keep], self._starts[keep], self._lengths[keep]

    def positions(self, ids: list[str]) -> np.ndarray:
        """For each id, the first index entry whose hash is the id's (``len`` of the index if none)."""
        wanted = np.fromiter((hash(i) for i in ids), dtype=np.int64, count=len(ids))
        return np.searchsorted(self._hashes, wanted)

    def lookup(self, item_id: str, position: int) -> tuple[bool, Any]:
        """(found, response) of ``item_id``, starting at ``position`` (from :meth:`positions`); marks it asked."""
        hashes = self._hashes
        h = hash(item_id)
        while position < len(hashes) and hashes[position] == h:
            record = self.record(position)
            if record["id"] == item_id:
                self._matched[position] = True
                if self.asked is not None:
                    self.asked.append(position)
                return True, record["response"]
            position += 1
        return False, None

    def mark_asked(self, positions: list[int]) -> None:
        """Note entries found by lookups made elsewhere (in a worker process)."""
        self._matched[positions] = True

    def forget_asked(self) -> None:
        """Forget every lookup: no id has been asked for."""
        self._matched[:] = False

    def unknown(self, examples: int = 20) -> tuple[int, list[str]]:
        """(number of ids no item asked for, the first ``examples`` of them in sorted order)."""
        left = np.flatnonzero(~self._matched)
        smallest = heapq.nsmallest(examples, (self.record(int(i))["id"] for i in left))
        return len(left), smallest
