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
        """A view of the same line that reads only its metadata (as this one would) and keeps no item."""
        view = object.__new__(type(self))
        view._line, view._meta, view._end, view._where = self._line, self._meta, self._end, self._where
        view._metadata, view._item = self._metadata, None
        return view

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


_SLOT = {name: Item.__dict__[name] for name in FIELDS}  # each field's slot in an Item
_SET = object.__setattr__


class LazyItem(Item):
    """The :class:`~bench_core.Item` of a split line, whose metadata (most of a line's bytes and of the time
    spent decoding it) is decoded from the line when something first reads ``item.metadata``: a task's
    ``score`` that never reads it never pays for it.  Every field reads as the Item's; an equal Item compares
    equal, the repr and a pickle are the Item's.  Only ``type(item) is Item`` tells them apart."""

    __slots__ = ("_view",)

    @classmethod
    def of_view(cls, view: ItemView) -> LazyItem:
        """The item of ``view`` (a split line, whose keys ``Item.from_record`` accepts), as ``Item(**fields)``
        converts them."""
        return cls.of_record(view.record, view.detached())

    @classmethod
    def of_record(cls, record: dict[str, Any], source: ItemView) -> LazyItem:
        """The item of a split line's ``record`` (keys ``Item.from_record`` accepts, as json reads them), whose
        metadata ``source`` (a view of the line that keeps no item) reads."""
        item = object.__new__(cls)
        for set_slot, name in _PLAIN_SLOTS:
            set_slot(item, record[name])
        _SET_PLUGIN(item, dict(record["plugin"] or {}))
        _SET_PARAMS(item, dict(record["params"] or {}))
        options = record["options"]
        _SET_OPTIONS(item, None if options is None else tuple(options))
        answer_type = record["answer_type"]
        if answer_type not in ANSWER_TYPES:  # checked when the line was split
            raise ValueError(f"'answer_type' must be in {ANSWER_TYPES!r} (got {answer_type!r})")
        _SET_ANSWER_TYPE(item, answer_type)
        _SET_IMAGES(item, tuple(record["images"]))
        _SET_SHA256(item, tuple(record.get("image_sha256", ())))
        _SET_VIEW(item, source)
        return item

    @property  # type: ignore[override]
    def metadata(self) -> dict[str, Any]:
        slot = _SLOT["metadata"]
        try:
            return slot.__get__(self)
        except AttributeError:
            value = dict(self._view.metadata or {})  # the converter's copy
            slot.__set__(self, value)
            return value

    @metadata.setter
    def metadata(self, value: Any) -> None:  # Item's __init__ (attrs.evolve makes a LazyItem) sets it converted
        _SLOT["metadata"].__set__(self, value)

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


def _item_of(values: tuple[Any, ...]) -> Item:
    """The Item of these field values (in the order of its fields)."""
    return Item(**dict(zip(_FIELD_ORDER, values, strict=True)))


#: The fields Item's __init__ converts with nothing, and the setter of each one's slot.
_PLAIN_SLOTS = tuple((_SLOT[name].__set__, name) for name in ("id", "family", "task", "version", "seed", "index",
                                                              "variant", "pair", "question", "answer"))
_SET_PLUGIN, _SET_PARAMS, _SET_OPTIONS, _SET_ANSWER_TYPE, _SET_IMAGES, _SET_SHA256 = (
    _SLOT[name].__set__ for name in ("plugin", "params", "options", "answer_type", "images", "image_sha256"))
_SET_VIEW = LazyItem.__dict__["_view"].__set__


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
