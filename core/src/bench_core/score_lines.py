"""The items of a part of ``items.jsonl`` as ``bench score`` reads them: from its bytes, one line at a time.

A line written as ``Item.to_json`` writes it (``metadata`` the last key) is split as
:mod:`bench_core.item_views` splits it, but kept as bytes: only the keys before the metadata are decoded, a line
of ASCII is never turned into text, and the metadata is decoded only when something reads it.  What a view
returns is what :func:`bench_core.item_views.read_views` gives for the same line, and a line that reading the
file as text would refuse (not UTF-8) is refused here too; any other line goes to the text reader's own
functions.  Line numbers are not counted: a bad line raises without its number, and the caller reads the file
again with :func:`~bench_core.item_views.read_views`, which names it.
"""

from __future__ import annotations

import io
import json
import json.scanner
import os
from pathlib import Path
from typing import Any

from bench_core.dataset import ITEMS
from bench_core.item_views import (
    _FIELD_ORDER,
    _REQUIRED,
    ItemView,
    LazyItem,
    _whole_view,
    head_has_item_types,
    views_of,
)
from bench_core.types import ANSWER_TYPES

_SPLIT = b',"metadata":'
_SPLIT_SIZE = len(_SPLIT)
_JSON_SPACE = b" \t\n\r"
_SPACE = frozenset(_JSON_SPACE)
_COLON = ord(":")
_OPEN, _CLOSE = ord("{"), ord("}")
_KEYS = frozenset(_REQUIRED)
#: The keys before the metadata in the order ``Item.to_json`` writes them.
_HEAD_ORDER = tuple(name for name in _FIELD_ORDER if name != "metadata")
_SCAN = json.scanner.make_scanner(json.JSONDecoder())  # what json.loads reads a value with

try:  # a strict JSON decoder in C: the keys before the metadata read in a third of json's time
    from orjson import JSONDecodeError as _FastError
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - orjson is a dependency; without it every line takes the exact path
    _fast_loads = None


def key_absent(line: bytes, start: int, end: int, key: str) -> bool:
    """True if ``key`` is certainly not a key of the JSON object in ``line[start:end]``: the text holds no escape
    and nowhere the key in quotes followed by a colon (a key at some depth: only one at the top counts, and
    decoding says)."""
    if line.find(b"\\", start, end) != -1:
        return False
    needle = b'"' + key.encode("utf-8", "surrogatepass") + b'"'
    at = line.find(needle, start, end)
    while at != -1:
        after = at + len(needle)
        while after < end and line[after] in _SPACE:
            after += 1
        if after < end and line[after] == _COLON:
            return False
        at = line.find(needle, after, end)
    return True


class LineView(ItemView):
    """An :class:`~bench_core.item_views.ItemView` whose line is bytes; its metadata read by orjson where that
    gives what json gives (:func:`fast_exact`)."""

    __slots__ = ()

    @property
    def metadata(self) -> dict[str, Any]:
        """The item's metadata, decoded now if it was not yet."""
        if self._metadata is None and _fast_loads is not None:
            text = self._line[self._meta : self._end]
            if fast_exact(text):
                try:
                    value = _fast_loads(text)
                except _FastError:
                    pass  # json says what it is
                else:
                    self._metadata = dict(value or {})
        return ItemView.metadata.__get__(self)

    def _absent(self, key: str) -> bool:
        if self._metadata is not None:
            return key not in self._metadata
        return key_absent(self._line, self._meta, self._end, key)


#: A line split as ``Item.to_json`` writes it: (its keys but the metadata, the bytes holding the line, where the
#: line starts in them, where the metadata's text starts and ends).
Entry = tuple[dict, bytes, int, int, int]


def split_line(line: bytes) -> tuple[dict, bytes, int, int] | None:
    """``line`` (no newline) split where ``Item.to_json`` puts the metadata, or None where the text reader would
    decode it whole: the checks of :func:`bench_core.item_views._split_view`, on bytes."""
    split = line.find(_SPLIT)
    if split < 0:
        return None
    head = line[:split].decode("utf-8") + "}"  # UTF-8 already (checked by the caller)
    try:  # json.loads(head), which starts with "{": one value, then the end of the text
        record, stop = _SCAN(head, 0)
    except (StopIteration, ValueError, RecursionError):
        return None
    if stop != len(head) or type(record) is not dict or "metadata" in record or not record.keys() >= _KEYS:
        return None
    end = len(line.rstrip(_JSON_SPACE)) - 1
    meta = split + len(_SPLIT)
    if end <= meta or line[end] != _CLOSE:
        return None
    if not (line[meta] == _OPEN and line[end - 1] == _CLOSE):  # else: what the metadata's text is, spaces aside
        text = line[meta:end].strip(_JSON_SPACE)
        if not (text[:1] == b"{" and text[-1:] == b"}") and text != b"null":
            return None
    if not head_has_item_types(record):
        return None
    return record, line, meta, end



def split_at(data: bytes, start: int, stop: int) -> Entry | None:
    """:func:`split_line` of the line ``data[start:stop]`` (no newline), as an :data:`Entry` whose offsets are in
    ``data``; its keys before the metadata read by orjson where it can.  Where orjson raises (it reads strict JSON
    only: no NaN, no lone surrogate, no float beyond the doubles, nothing but UTF-8) :func:`split_line` reads
    the line with json.  What orjson reads is what json reads but for an integer beyond 64 bits, which it reads
    as a float (:func:`exact_record` reads such a record again).  The bytes after the keys are not checked to
    be UTF-8 here (:func:`entries_in` does)."""
    split = data.find(_SPLIT, start, stop)
    if split < 0:
        return None
    if _fast_loads is None:
        return _offset(split_line(data[start:stop]), data, start)
    try:
        record = _fast_loads(data[start:split] + b"}")
    except _FastError:
        return _offset(split_line(data[start:stop]), data, start)
    if type(record) is not dict or "metadata" in record or not record.keys() >= _KEYS:
        return None  # json's record has the same keys and kinds of value
    end = stop - 1
    while end >= start and data[end] in _SPACE:
        end -= 1
    meta = split + len(_SPLIT)
    if end <= meta or data[end] != _CLOSE:
        return None
    if not (data[meta] == _OPEN and data[end - 1] == _CLOSE):
        text = data[meta:end].strip(_JSON_SPACE)
        if not (text[:1] == b"{" and text[-1:] == b"}") and text != b"null":
            return None
    if not head_has_item_types(record):
        return None
    return record, data, start, meta, end


def _offset(entry: tuple[dict, bytes, int, int] | None, data: bytes, start: int) -> Entry | None:
    """:func:`split_line`'s result for a line starting at ``start`` in ``data``, as an :data:`Entry`."""
    if entry is None:
        return None
    record, _, meta, end = entry
    return record, data, start, start + meta, start + end


#: Each byte as a digit ("0") or not (a space): an integer beyond 64 bits is a run of at least 19 digits.
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_RUN = b"0" * 19


def fast_exact(text: bytes) -> bool:
    """Whether orjson, where it reads ``text``, reads what json reads: it holds no run of 19 digits (orjson reads an
    integer beyond 64 bits as a float; json as an int)."""
    return text.translate(_DIGITS).find(_LONG_RUN) < 0  # (find: "in" costs a TypeError raised and cleared inside)


#: What :func:`metadata_text` gives for a key the metadata does not hold.
ABSENT = object()


def metadata_text(entry: Entry, key: str) -> Any:
    """``item.metadata.get(key, ABSENT)`` of a split line's item where orjson reads its metadata as a mapping whose
    ``key`` is text or absent (orjson reads a text as json does, whatever numbers are around it); None where json
    must say (orjson does not read the metadata, or the value is not text)."""
    if _fast_loads is None:
        return None
    _, data, _, meta, end = entry
    try:
        metadata = _fast_loads(data[meta:end])
    except _FastError:
        return None
    if type(metadata) is not dict:
        return None
    value = metadata.get(key, ABSENT)
    return value if value is ABSENT or type(value) is str else None


def exact_record(entry: Entry) -> dict:
    """The record of a split line as json reads it: the entry's own unless its keys' text holds a run of 19
    digits (which orjson may have read as a float)."""
    record, data, start, meta, _ = entry
    if _fast_loads is None or fast_exact(data[start:meta]):
        return record
    again = split_line(_line(entry))
    assert again is not None  # json reads a superset of what orjson reads, with the same keys and kinds
    return again[0]


def entries_in(root: str | os.PathLike[str], data: bytes, start: int = 0, end: int | None = None,
               ascii: bool | None = None) -> list[Entry | ItemView]:
    """The items in ``data[start:end]`` (default: all of it), whole lines of ``root/items.jsonl``, in order: each a
    split line (an :data:`Entry`, whose offsets are in ``data``; :func:`entry_view` makes its view) or, for a line
    the text reader decodes whole, its view.  ``ascii`` says whether those bytes are all ASCII, if the caller
    knows.  UnicodeDecodeError for bytes that are not UTF-8 and DatasetError for a line that is not an item, as
    reading the file gives them."""
    size = len(data) if end is None else end
    if data.find(b"\r", start, size) >= 0:  # universal newlines end a line at a lone CR too: the text reader
        text = data[start:size].decode("utf-8")  # splits those
        return list(views_of(root, io.StringIO(text, newline=None)))
    if ascii is None:  # else each line is checked: its keys by orjson (or decoded), the rest here
        ascii = (data if start == 0 and size == len(data) else data[start:size]).isascii()
    out: list[Entry | ItemView] = []
    append = out.append
    find, loads = data.find, _fast_loads
    at = start
    while at < size:
        stop = find(b"\n", at, size)
        if stop < 0:  # a last line without a newline: the text reader decodes it whole
            text = data[at:size].decode("utf-8")
            if text.strip():
                append(_whole_view(root, text, _where(root), io.StringIO()))
            break
        entry = None
        if data[at] == _OPEN:
            split = find(_SPLIT, at, stop)
            meta = split + _SPLIT_SIZE
            record = None
            if (loads is not None and split > at and meta < stop - 2 and data[meta] == _OPEN
                    and data[stop - 2] == _CLOSE == data[stop - 1]):
                try:  # the common line: the metadata an object, the line ending at its brace (split_at's checks)
                    record = loads(data[at:split] + b"}")
                except _FastError:  # not orjson's JSON: split_at says what json reads
                    record = None
            if type(record) is dict and tuple(record) == _HEAD_ORDER:  # head_has_item_types, by position
                _, _, _, _, plugin, _, _, params, _, _, _, options, _, answer_type, images, sha256 = record.values()
                if ((plugin is None or type(plugin) is dict) and (params is None or type(params) is dict)
                        and (options is None or type(options) is list) and type(images) is list
                        and type(sha256) is list and answer_type in ANSWER_TYPES):
                    entry = record, data, at, meta, stop - 1
            if entry is None:
                entry = split_at(data, at, stop)
        if entry is None:
            text = data[at:stop].decode("utf-8")
            if text.strip():
                append(_whole_view(root, text + "\n", _where(root), io.StringIO()))
        else:
            if not ascii and not data[entry[3] : stop].isascii():
                data[entry[3] : stop].decode("utf-8")  # the check reading the file as text makes
            append(entry)
        at = stop + 1
    return out


def _line(entry: Entry) -> bytes:
    """The line of a split entry, without its newline."""
    _, data, start, _, end = entry
    stop = data.find(b"\n", end)
    return data[start : stop if stop >= 0 else len(data)]


class _BlockSource(LineView):
    """What reads the keys and metadata of an :func:`entry_item` (see ``LazyItem.of_record``): the record orjson
    read, the metadata's text in the block of lines it was read from (the line itself is cut out only to decode it
    whole)."""

    __slots__ = ("_exact", "_start")

    def _whole(self, line: Any = None) -> dict[str, Any]:
        stop = self._line.find(b"\n", self._end)
        return ItemView._whole(self, self._line[self._start : stop if stop >= 0 else len(self._line)])

    def exact_record(self) -> dict[str, Any]:
        """The record as json reads it (:func:`exact_record`), worked out on first use."""
        if not self._exact:
            self.record = exact_record((self.record, self._line, self._start, self._meta, self._end))
            self._exact = True
        return self.record


def entry_item(root: str | os.PathLike[str], entry: Entry) -> LazyItem:
    """The item of a split entry, without its view (its fields are taken from the entry's record when read)."""
    record, data, start, meta, end = entry
    source = object.__new__(_BlockSource)
    source.record, source._line, source._start, source._meta, source._end = record, data, start, meta, end
    source._where, source._metadata, source._item, source._exact = _where(root), None, None, False
    return LazyItem.of_record(source)


def entry_view(root: str | os.PathLike[str], entry: Entry | ItemView) -> ItemView:
    """The view of an item of :func:`entries_in`."""
    if type(entry) is tuple:
        _, _, start, meta, end = entry
        return LineView(exact_record(entry), _line(entry), meta - start, end - start, _where(root))
    return entry


_WHERE: dict[Any, tuple[Path, int]] = {}


def views_in(root: str | os.PathLike[str], data: bytes) -> list[ItemView]:
    """The views of the items in ``data`` (see :func:`entries_in`)."""
    return [entry_view(root, entry) for entry in entries_in(root, data)]


def _where(root: str | os.PathLike[str]) -> tuple[Path, int]:
    """Where a line of ``root``'s items lies, for errors (its number unknown)."""
    where = _WHERE.get(root)
    if where is None:
        if len(_WHERE) > 16:
            _WHERE.clear()
        where = _WHERE[root] = (Path(root) / ITEMS, 0)
    return where
