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
from bench_core.item_views import _REQUIRED, ItemView, _whole_view, head_has_item_types, views_of

_SPLIT = b',"metadata":'
_JSON_SPACE = b" \t\n\r"
_SPACE = frozenset(_JSON_SPACE)
_COLON = ord(":")
_OPEN, _CLOSE = ord("{"), ord("}")
_KEYS = frozenset(_REQUIRED)
_SCAN = json.scanner.make_scanner(json.JSONDecoder())  # what json.loads reads a value with


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
    """An :class:`~bench_core.item_views.ItemView` whose line is bytes."""

    __slots__ = ()

    def _absent(self, key: str) -> bool:
        if self._metadata is not None:
            return key not in self._metadata
        return key_absent(self._line, self._meta, self._end, key)


#: A line split as ``Item.to_json`` writes it: (its keys but the metadata, the line, where the metadata's text
#: starts and ends).
Entry = tuple[dict, bytes, int, int]


def split_line(line: bytes) -> Entry | None:
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


def entries_in(root: str | os.PathLike[str], data: bytes) -> list[Entry | ItemView]:
    """The items in ``data``, whole lines of ``root/items.jsonl``, in order: each a split line (an
    :data:`Entry`; :func:`entry_view` makes its view) or, for a line the text reader decodes whole, its view.
    UnicodeDecodeError for bytes that are not UTF-8 and DatasetError for a line that is not an item, as reading
    the file gives them."""
    if b"\r" in data:  # universal newlines end a line at a lone CR too: the text reader splits those
        return list(views_of(root, io.StringIO(data.decode("utf-8"), newline=None)))
    lines = data.split(b"\n")
    last = lines.pop()  # what follows the last newline: nothing, or a last line without one
    out: list[Entry | ItemView] = []
    for line in lines:
        if not line.isascii():
            line.decode("utf-8")  # the check reading the file as text makes
        entry = split_line(line) if line[:1] == b"{" else None
        if entry is None:
            text = line.decode("utf-8")
            if not text.strip():
                continue
            out.append(_whole_view(root, text + "\n", _where(root), io.StringIO()))
        else:
            out.append(entry)
    text = last.decode("utf-8")
    if text.strip():
        out.append(_whole_view(root, text, _where(root), io.StringIO()))
    return out


def entry_view(root: str | os.PathLike[str], entry: Entry | ItemView) -> ItemView:
    """The view of an item of :func:`entries_in`."""
    if type(entry) is tuple:
        record, line, meta, end = entry
        return LineView(record, line, meta, end, _where(root))
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
