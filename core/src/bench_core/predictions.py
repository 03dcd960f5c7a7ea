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
from collections.abc import Iterable, Iterator
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


_SCAN_STRING = json.decoder.scanstring  # the C scanner json.loads reads strings with
_LITERALS = {"null": None, "true": True, "false": False}

try:  # a strict JSON decoder in C, several times faster than json's on these lines
    from orjson import JSONDecodeError as _FastError
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - orjson is a dependency; without it every line takes the exact path
    _fast_loads = None
#: Responses orjson reads as json does (it reads an integer beyond 64 bits as a float, and a float or a container
#: may hold one): any other response is read again by json.
_EXACT_RESPONSES = frozenset({str, type(None), bool, int})


def decode_line(raw: bytes) -> dict[str, Any] | None:
    """``decode_record(raw.decode("utf-8", "replace"))``, read by orjson where that is certain to give the same:
    orjson reads only strict UTF-8 JSON (anything else raises, and the line is read as text by json), and a
    record it accepts is kept only if its id is a string and its response a string, null, a bool or an integer
    (orjson reads those as json does); any other record is read again by :func:`decode_record`."""
    if _fast_loads is not None:
        try:
            record = _fast_loads(raw)
        except _FastError:
            return decode_record(raw.decode("utf-8", "replace"))
        if type(record) is not dict or type(record.get("id")) is not str or "response" not in record:
            return None  # json gives a record of the same shape: not a prediction either
        if type(record["response"]) in _EXACT_RESPONSES:
            return record
    return decode_record(raw.decode("utf-8", "replace"))


def decode_lines(raws: list[bytes]) -> list[dict[str, Any] | None]:
    """``[decode_line(raw) for raw in raws]`` for lines that each held a prediction when the file was indexed: read
    by one orjson call on the lines joined into an array where orjson reads it and it has one element a line (each
    line one JSON value, as it was when indexed), each record checked as :func:`decode_line` checks it; else one
    line at a time."""
    if _fast_loads is None or not raws:
        return [decode_line(raw) for raw in raws]
    try:
        records = _fast_loads(b"[" + b",".join(raws) + b"]")
    except _FastError:  # a line orjson does not read (NaN, a long integer, not UTF-8, changed): one at a time
        return [decode_line(raw) for raw in raws]
    if len(records) != len(raws):
        return [decode_line(raw) for raw in raws]
    out: list[dict[str, Any] | None] = records
    for k, record in enumerate(records):
        if type(record) is not dict or type(record.get("id")) is not str or "response" not in record:
            out[k] = None
        elif type(record["response"]) not in _EXACT_RESPONSES:
            out[k] = decode_record(raws[k].decode("utf-8", "replace"))
    return out


def decode_record(text: str) -> dict[str, Any] | None:
    """The prediction record of one line's text, or None if the line is malformed."""
    record = _quick_record(text)
    if record is not None:
        return record
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("id"), str) or "response" not in record:
        return None
    return record


def _quick_record(text: str) -> dict[str, Any] | None:
    """``json.loads(text)`` for a line written as ``{"id": "...", "response": "..."}`` (a space after each colon
    and comma or none; a string, null, true or false response; whitespace after the brace), read with the
    decoder's own string scanner; None for any other line, which :func:`decode_record` decodes whole."""
    if text.startswith('{"id": "'):
        at = 8
    elif text.startswith('{"id":"'):
        at = 7
    else:
        return None
    try:
        item_id, at = _SCAN_STRING(text, at)
        if text.startswith(', "response": ', at):
            at += 14
        elif text.startswith(',"response":', at):
            at += 12
        else:
            return None
        if text.startswith('"', at):
            response, at = _SCAN_STRING(text, at + 1)
        else:
            end = text.find("}", at)
            if end < 0 or text[at:end] not in _LITERALS:
                return None
            response, at = _LITERALS[text[at:end]], end
    except ValueError:
        return None
    if not text.startswith("}", at) or text[at + 1 :].strip(" \t\n\r"):
        return None
    return {"id": item_id, "response": response}


def _open(path: str | os.PathLike[str]) -> Any:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise DatasetError(f"cannot read predictions {path}: {exc.strerror}") from exc


#: Bytes in a part of a file read at once (a predictions file when it is indexed, an items file when scored).
PART_BYTES = 1 << 22


def line_ranges(path: str | os.PathLike[str], size: int | None = None) -> list[tuple[int, int]]:
    """Byte ranges covering ``path`` of about ``size`` bytes (default :data:`PART_BYTES`), each ending just
    after a newline (the last one at the end of the file); DatasetError if the file cannot be read."""
    size = size or PART_BYTES
    out = []
    try:
        with open(path, "rb") as handle:
            total = os.fstat(handle.fileno()).st_size
            start = 0
            while start < total:
                end = min(total, start + size)
                if end < total:
                    handle.seek(end - 1)
                    end += len(handle.readline()) - 1  # up to and including the next newline
                out.append((start, end))
                start = end
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror}") from exc
    return out


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


def index_range(path: str | os.PathLike[str], start: int, end: int) -> tuple[int, int, bytes, bytes, bytes]:
    """(lines, malformed lines, then the hashes of the valid lines' ids, their offsets and their lengths as
    int64 bytes, in file order) of the lines of ``path`` in bytes ``[start, end)``, which must start a line and
    end just after a newline or at the end of the file: :class:`PredictionIndex` of a part, for a worker."""
    with _open(path) as handle:
        try:
            handle.seek(start)
            data = handle.read(end - start)
        except OSError as exc:
            raise DatasetError(f"cannot read predictions {path}: {exc.strerror}") from exc
    lines = malformed = 0
    starts, lengths = array("q"), array("q")
    ids: list[str] = []
    offset = start
    loads = _fast_loads
    returns = data.find(b"\r") >= 0  # (find: "in" costs a TypeError raised and cleared inside)
    for piece in data.split(b"\n"):
        if piece[:1] == b"{" and (not returns or piece.find(b"\r") < 0):  # the common line: not blank, one line
            lines += 1
            record = None
            if loads is None:
                record = decode_line(piece)
            else:  # decode_line's checks but the response's kind: only the id is kept, which json reads alike
                try:
                    record = loads(piece)
                except _FastError:
                    record = decode_line(piece)
                else:
                    if type(record) is not dict or type(record.get("id")) is not str or "response" not in record:
                        record = None
            if record is None:
                malformed += 1
            else:
                ids.append(record["id"])
                starts.append(offset)
                lengths.append(len(piece))
            offset += len(piece) + 1
            continue
        for at, raw in _split_cr(offset, piece) if piece.find(b"\r") >= 0 else ((offset, piece),):
            if raw[:1] != b"{" and not raw.decode("utf-8", "replace").strip():
                continue
            lines += 1
            record = decode_line(raw)
            if record is None:
                malformed += 1
                continue
            ids.append(record["id"])
            starts.append(at)
            lengths.append(len(raw))
        offset += len(piece) + 1
    hashes = np.fromiter(map(hash, ids), dtype=np.int64, count=len(ids))
    return lines, malformed, hashes.tobytes(), starts.tobytes(), lengths.tobytes()


_TEXT = {str}  # the kinds of a list of texts

#: The most bytes :meth:`PredictionIndex.lookup_many` reads at once to find a batch's lines.
SPAN_BYTES = 1 << 21


class PredictionIndex:
    """Where the last response of each id of a predictions file lies; built in one pass over the file.

    ``lines``, ``malformed`` and ``duplicates`` count as :func:`bench_core.report.load_predictions` does.
    :meth:`lookup` (one id) and :meth:`lookup_many` (a batch) return responses; after every item has looked its
    id up, :meth:`unknown` gives the ids no item asked for.  ``parts``, if given, is what :func:`index_range`
    gave for consecutive byte ranges covering the file, in file order (made in worker processes); by default
    the file is read here.
    """

    def __init__(self, path: str | os.PathLike[str],
                 parts: Iterable[tuple[int, int, bytes, bytes, bytes]] | None = None) -> None:
        self.path = Path(path)
        if parts is None:
            _open(path).close()  # an unreadable file is named as a predictions file
            parts = (index_range(path, start, end) for start, end in line_ranges(path))
        self.lines = self.malformed = 0
        hashes, starts, lengths = [], [], []
        for lines, malformed, h, s, n in parts:
            self.lines += lines
            self.malformed += malformed
            hashes.append(np.frombuffer(h, dtype=np.int64))
            starts.append(np.frombuffer(s, dtype=np.int64))
            lengths.append(np.frombuffer(n, dtype=np.int64))
        empty = np.zeros(0, dtype=np.int64)
        all_hashes = np.concatenate(hashes) if hashes else empty
        valid = len(all_hashes)
        order = np.argsort(all_hashes, kind="stable")  # equal hashes in file order
        self._hashes = all_hashes[order]
        self._starts = (np.concatenate(starts) if starts else empty)[order]
        self._lengths = (np.concatenate(lengths) if lengths else empty)[order]
        del hashes, starts, lengths, order, all_hashes
        self._handle = _open(path)
        self._fd = self._handle.fileno()
        self._keep_last()
        self.duplicates = valid - len(self._hashes)
        self._matched = np.zeros(len(self._hashes), dtype=bool)
        self.asked: list[int] | None = None  # a list: the entries the lookups find are noted there too

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
        record = decode_line(data) if len(data) == length else None
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

    def lookup_many(self, ids: list[Any]) -> list[tuple[bool, Any]]:
        """(found, response) of each id of ``ids`` (an id that is not a string is never found), as
        :meth:`lookup` from :meth:`positions` gives them one by one; marks them asked."""
        count = len(self._hashes)
        if not count:
            return [(False, None)] * len(ids)
        texts = set(map(type, ids)) == _TEXT
        hashes = map(hash, ids) if texts else (hash(i) if isinstance(i, str) else 0 for i in ids)
        wanted = np.fromiter(hashes, dtype=np.int64, count=len(ids))
        order = wanted.argsort()  # searched in order: numpy starts each search where the one before ended
        positions = np.empty(len(ids), dtype=np.intp)
        positions[order] = np.searchsorted(self._hashes, wanted[order])
        clipped = np.minimum(positions, count - 1)
        hits = np.flatnonzero((self._hashes[clipped] == wanted) & (positions < count))
        out: list[tuple[bool, Any]] = [(False, None)] * len(ids)
        if not len(hits):
            return out
        if not texts:  # an id that is not a string is never found
            hits = hits[[isinstance(ids[k], str) for k in hits.tolist()]]
        starts, lengths, positions = self._starts[clipped[hits]], self._lengths[clipped[hits]], positions[hits]
        ends = starts + lengths
        first, last = int(starts.min()), int(ends.max())
        if last - first <= SPAN_BYTES:  # one read for the batch's lines
            data = self._pread(last - first, first)
            if len(data) != last - first:
                raise DatasetError(f"predictions {self.path} changed while it was being scored")
            lines = [data[a:b] for a, b in zip((starts - first).tolist(), (ends - first).tolist(), strict=True)]
        else:
            lines = [self._pread(n, a) for a, n in zip(starts.tolist(), lengths.tolist(), strict=True)]
            if any(len(line) != n for line, n in zip(lines, lengths.tolist(), strict=True)):
                raise DatasetError(f"predictions {self.path} changed while it was being scored")
        found: list[int] = []
        keep = found.append
        for k, position, record in zip(hits.tolist(), positions.tolist(), decode_lines(lines), strict=True):
            if record is None:
                raise DatasetError(f"predictions {self.path} changed while it was being scored")
            item_id = ids[k]
            if record["id"] == item_id:
                keep(position)
                out[k] = (True, record["response"])
            else:  # another id with the same hash: walk the entries that share it
                out[k] = self.lookup(item_id, position)
        self._matched[found] = True
        if self.asked is not None:
            self.asked.extend(found)
        return out

    def _pread(self, length: int, offset: int) -> bytes:
        try:
            return os.pread(self._fd, length, offset)
        except OSError as exc:
            raise DatasetError(f"cannot read predictions {self.path}: {exc.strerror}") from exc

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
