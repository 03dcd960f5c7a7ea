"""Items of a dataset streamed for scoring: every key of an ``items.jsonl`` line decoded but its metadata.

The metadata (the task's scene record: most of a line's bytes, and most of the time spent decoding it) is
decoded only when something reads it: a task's own ``score``, a ``--by`` field that is not a parameter.  A
line is split the way ``Item.to_json`` writes it (``metadata`` the last key); any other line, and the last
line of a file that does not end with a newline (a write cut short), is decoded whole, with the errors
:func:`bench_core.dataset.read_items` gives.  A view whose keys would not make an :class:`~bench_core.Item`
(a key missing, options not a list) is decoded whole too, so that the same error is raised.

The JSON inside a split line's metadata is checked only when it is decoded (``bench verify`` checks every
line); what a view returns is what :func:`~bench_core.dataset.read_items` would have given.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from bench_core.dataset import ITEMS
from bench_core.errors import DatasetError
from bench_core.types import ANSWER_TYPES, Item

FIELDS = frozenset(a.name for a in attrs.fields(Item))
_REQUIRED = tuple(sorted(FIELDS - {"metadata", "image_sha256"}))
_SPLIT = ',"metadata":'
_JSON_SPACE = " \t\n\r"


class ItemView:
    """One item as read from its line; ``metadata`` is decoded on first use, ``item()`` builds the Item."""

    __slots__ = ("_end", "_item", "_line", "_meta", "_metadata", "_where", "options", "params", "record")

    def __init__(self, record: dict[str, Any], line: str = "", meta: int = -1, end: int = -1,
                 where: tuple[Path, int] | None = None, item: Item | None = None) -> None:
        self.record = record  # every key of the line but metadata
        self.params: dict[str, Any] = dict(record["params"] or {}) if item is None else item.params
        options = record["options"]
        self.options: tuple[Any, ...] | None = None if options is None else tuple(options)
        self._line, self._meta, self._end, self._where = line, meta, end, where
        self._metadata: dict[str, Any] | None = None if item is None else item.metadata
        self._item = item

    @property
    def id(self) -> Any:
        return self.record["id"]

    @property
    def answer(self) -> Any:
        return self.record["answer"]

    @property
    def answer_type(self) -> Any:
        return self.record["answer_type"]

    @property
    def version(self) -> Any:
        return self.record["version"]

    @property
    def task_id(self) -> str:
        return f"{self.record['family']}/{self.record['task']}"

    @property
    def metadata(self) -> dict[str, Any]:
        """The item's metadata, decoded now if it was not yet."""
        if self._metadata is None:
            text = self._line[self._meta : self._end]
            try:
                value = json.loads(text)
            except (ValueError, RecursionError):
                value = self._whole()["metadata"]
            self._metadata = dict(value or {})
        return self._metadata

    def detached(self) -> ItemView:
        """A view of the same line that reads its record and metadata (as this one would) and keeps no item."""
        view = object.__new__(type(self))
        view._line, view._meta, view._end, view._where = self._line, self._meta, self._end, self._where
        view._metadata, view._item, view.record = self._metadata, None, self.record
        return view

    def exact_record(self) -> dict[str, Any]:
        """The line's keys but the metadata as json reads them (a view's record is)."""
        return self.record

    def _whole(self, line: Any = None) -> dict[str, Any]:
        """The line (default: this view's) decoded whole (its metadata would not decode alone): the error
        read_items gives."""
        assert self._where is not None
        path, number = self._where
        try:
            record = json.loads(self._line if line is None else line)
        except ValueError as exc:
            raise DatasetError(f"{path}:{number}: not valid JSON ({exc})") from exc
        return record

    def _absent(self, key: str) -> bool:
        """True if ``key`` is certainly not a key of the metadata: its text holds no such characters and no
        escape (so no decoded key can be ``key``)."""
        if self._metadata is not None:
            return key not in self._metadata
        line, start, end = self._line, self._meta, self._end
        return line.find("\\", start, end) == -1 and line.find(key, start, end) == -1

    def metadata_has(self, key: str) -> bool:
        """``key in item.metadata``, decoding the metadata only if its text may hold the key."""
        return False if self._absent(key) else key in self.metadata

    def metadata_get(self, key: str) -> Any:
        """``item.metadata.get(key)``, decoding the metadata only if its text may hold the key."""
        return None if self._absent(key) else self.metadata.get(key)

    def attribute(self, name: str) -> Any:
        """``getattr(item, name, None)`` of the Item this view stands for."""
        if name not in FIELDS:
            return getattr(self.item(), name, None) if hasattr(Item, name) else None
        if self._item is not None:
            return getattr(self._item, name)
        if name == "metadata":
            return self.metadata
        if name == "params":
            return self.params
        if name == "options":
            return self.options
        if name in ("plugin",):
            return dict(self.record[name] or {})
        if name in ("images", "image_sha256"):
            return tuple(self.record.get(name, ()))
        return self.record[name]

    def item(self) -> Item:
        """The Item of this line (a :class:`LazyItem`: its metadata is decoded when first read)."""
        if self._item is None:  # Item.from_record, whose key check the line passed when it was split
            self._item = LazyItem.of_view(self)
        return self._item

    def standard_keys(self, category: str) -> tuple[str, str, str]:
        """The values of the ``task``, ``category`` and ``variant`` fields (:func:`bench_core.report.field_value`)."""
        variant = self.attribute("variant")
        if type(variant) is not str:  # no variant of its own: the setting, else a recorded value
            variant = self.params.get("variant")
        if variant is None:
            variant = self.metadata["variant"] if self.metadata_has("variant") else self.attribute("variant")
        if isinstance(variant, (list, dict, tuple)):
            variant = json.dumps(variant, sort_keys=True)
        return self.task_id, category, "null" if variant is None else str(variant)


class LazyItem(Item):
    """The :class:`~bench_core.Item` of a split line, whose fields are taken from the line's record (and its
    metadata, most of a line's bytes and of the time spent decoding it, decoded from the line) when something
    first reads them: a task's ``scoring_hints`` that reads the answer type pays for nothing else.  Every field
    reads as the Item's (converted as ``Item(**fields)`` converts it); an equal Item compares equal, the repr and a
    pickle are the Item's.  Only ``type(item) is Item`` tells them apart."""

    __slots__ = ("_fields", "_view")

    @classmethod
    def of_view(cls, view: ItemView) -> LazyItem:
        """The item of ``view`` (a split line, whose keys ``Item.from_record`` accepts)."""
        return cls.of_record(view.detached())

    @classmethod
    def of_record(cls, source: ItemView) -> LazyItem:
        """The item of a split line whose keys (``Item.from_record`` accepts them) and metadata ``source`` (a view
        of the line that keeps no item) reads: its ``record``, as json or orjson read it, and its
        ``exact_record()``, as json reads it."""
        item = object.__new__(cls)
        _SET_FIELDS(item, {})
        _SET_VIEW(item, source)
        return item

    def whole(self) -> Item:
        """The same item as an :class:`~bench_core.Item`."""
        return _item_of(tuple(getattr(self, name) for name in _FIELD_ORDER))

    def __eq__(self, other: object) -> bool:
        if type(other) is Item or type(other) is LazyItem:
            return all(getattr(self, name) == getattr(other, name) for name in _FIELD_ORDER)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = Item.__hash__

    def __repr__(self) -> str:
        return repr(self.whole())

    def __reduce_ex__(self, protocol: Any) -> Any:  # a copy or a pickle is the Item
        return _item_of, (tuple(getattr(self, name) for name in _FIELD_ORDER),)


_FIELD_ORDER = tuple(a.name for a in attrs.fields(Item))
_SET_FIELDS, _SET_VIEW = (LazyItem.__dict__[name].__set__ for name in ("_fields", "_view"))
_UNSET = object()
#: Kinds of value orjson reads as json does (any number orjson reads otherwise is a float).
_EXACT_KINDS = frozenset({str, int, bool, type(None)})


def _item_of(values: tuple[Any, ...]) -> Item:
    """The Item of these field values (in the order of its fields)."""
    return Item(**dict(zip(_FIELD_ORDER, values, strict=True)))


def _floatless(value: Any) -> bool:
    """Whether a decoded JSON list or dict holds no float at any depth (orjson then read each of its numbers as
    json does); False where it is nested too deep to tell."""
    values = value.values() if type(value) is dict else value
    kinds = set(map(type, values))
    if kinds <= _EXACT_KINDS:
        return True
    if float in kinds:
        return False
    try:
        return all(_floatless(one) for one in values if type(one) is dict or type(one) is list)
    except RecursionError:
        return False


def _answer_type(value: Any) -> Any:
    """``value``, an answer type, as Item's validator lets it through (ValueError for an unknown one)."""
    if value not in ANSWER_TYPES:  # checked when the line was split
        raise ValueError(f"'answer_type' must be in {ANSWER_TYPES!r} (got {value!r})")
    return value


#: How ``Item(**fields)`` converts each field (the others are kept as they are).
_CONVERT: dict[str, Any] = {
    "plugin": lambda value: dict(value or {}),
    "params": lambda value: dict(value or {}),
    "options": lambda value: None if value is None else tuple(value),
    "answer_type": _answer_type,
    "images": tuple,
    "image_sha256": tuple,
}


def _lazy_field(name: str) -> property:
    """The property of field ``name`` of a :class:`LazyItem`: its value converted as ``Item(**fields)`` converts
    it, from the line on first use (the metadata from its text; ``image_sha256`` empty where the line has none).
    A value orjson read as json does (a text, an integer, true, false, null, or a list or dict of those) is the
    record's own; any other is the exact record's."""
    convert = _CONVERT.get(name)
    default = () if name == "image_sha256" else None

    def get(self: LazyItem) -> Any:
        fields = self._fields
        value = fields.get(name, _UNSET)
        if value is not _UNSET:
            return value
        if name == "metadata":
            value = dict(self._view.metadata or {})  # the converter's copy
        else:
            source = self._view
            value = source.record.get(name, default)
            kind = type(value)
            if kind not in _EXACT_KINDS and not ((kind is dict or kind is list) and _floatless(value)):
                value = source.exact_record().get(name, default)
            if convert is not None:
                value = convert(value)
        fields[name] = value
        return value

    def set(self: LazyItem, value: Any) -> None:  # Item's __init__ (attrs.evolve makes a LazyItem) sets it converted
        try:
            fields = self._fields
        except AttributeError:
            fields = {}
            _SET_FIELDS(self, fields)
        fields[name] = value

    return property(get, set, doc=f"The item's ``{name}``.")


for _name in _FIELD_ORDER:
    setattr(LazyItem, _name, _lazy_field(_name))
del _name


def _items_path(root: str | os.PathLike[str]) -> Path:
    path = Path(root) / ITEMS
    if not path.exists():
        raise DatasetError(f"{path} does not exist; is {root} a directory written by 'bench generate'?")
    return path


def _split_view(line: str, where: tuple[Path, int]) -> ItemView | None:
    """A view of a line written as ``Item.to_json`` writes it, or None to decode the line whole."""
    split = line.find(_SPLIT)
    if split < 0:
        return None
    try:
        record = json.loads(line[:split] + "}")
    except (ValueError, RecursionError):
        return None
    if type(record) is not dict or "metadata" in record or any(k not in record for k in _REQUIRED):
        return None
    end = len(line.rstrip(_JSON_SPACE)) - 1
    meta = split + len(_SPLIT)
    if end <= meta or line[end] != "}":
        return None
    text = line[meta:end].strip(_JSON_SPACE)
    if not (text[:1] == "{" and text[-1:] == "}") and text != "null":
        return None
    if not head_has_item_types(record):
        return None
    return ItemView(record, line, meta, end, where)


def head_has_item_types(record: dict[str, Any]) -> bool:
    """Whether the keys before the metadata of a split line hold an item's kinds of value (plugin and params
    a mapping or null, options a list or null, images and image_sha256 lists, a known answer type): else the
    line is decoded whole, where ``Item.from_record`` names what is wrong."""
    plugin, params, options = record["plugin"], record["params"], record["options"]
    return ((plugin is None or type(plugin) is dict) and (params is None or type(params) is dict)
            and (options is None or type(options) is list) and type(record["images"]) is list
            and type(record.get("image_sha256", [])) is list and record["answer_type"] in ANSWER_TYPES)


def _whole_view(root: str | os.PathLike[str], line: str, where: tuple[Path, int], handle: Any) -> ItemView:
    """A view of a line decoded whole, with read_items' errors for a line or record that is not an item."""
    path, number = where
    try:
        record = json.loads(line)
    except ValueError as exc:
        if not line.endswith("\n") and handle.read(1) == "":
            raise DatasetError(
                f"{path}:{number}: the last line is cut short (an interrupted write); run the same "
                "'bench generate' command again to repair it and finish the run"
            ) from exc
        raise DatasetError(f"{path}:{number}: not valid JSON ({exc})") from exc
    try:
        item = Item.from_record(record)
    except (TypeError, ValueError) as exc:
        raise DatasetError(f"{Path(root) / ITEMS}: record {record.get('id')!r} is not an item: {exc}") from exc
    fields = {name: getattr(item, name) for name in FIELDS if name != "metadata"}
    fields["options"] = None if item.options is None else list(item.options)
    return ItemView(fields, item=item)


def read_views(root: str | os.PathLike[str]) -> Iterator[ItemView]:
    """A view of every item of ``root/items.jsonl``, in file order; DatasetError names a bad line."""
    path = _items_path(root)
    with open(path, encoding="utf-8") as handle:
        yield from views_of(root, handle)


def views_of(root: str | os.PathLike[str], handle: Any, first_line: int = 1) -> Iterator[ItemView]:
    """A view of every item in the lines of ``handle`` (text, universal newlines: an open ``items.jsonl`` or a
    part of it), numbered from ``first_line`` in errors."""
    path = Path(root) / ITEMS
    for number, line in enumerate(handle, first_line):
        if not line.strip():
            continue
        view = _split_view(line, (path, number)) if line.endswith("\n") else None
        yield view if view is not None else _whole_view(root, line, (path, number), handle)
