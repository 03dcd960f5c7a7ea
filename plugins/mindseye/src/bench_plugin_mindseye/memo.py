"""Measurements memoised on immutable objects (Mind's Eye kit layer: imports no task).

Generators measure the same shapely geometry many times over (a mark shared by a dozen candidate panels, a
panel measured for every check it meets).  ``memoised(obj, name, compute)`` returns ``compute(obj)``, computed
once per live object: entries are keyed by the object's identity, hold only a weak reference to it, and leave
when it is collected, so memory follows the objects still in use.  Only for objects that never change (shapely
geometries, frozen records) and pure ``compute`` functions: the result is then the same with or without the
memo.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_ENTRIES: dict[tuple[str, int], tuple[weakref.ref, Any]] = {}


def memoised(obj: Any, name: str, compute: Callable[[Any], T]) -> T:
    """``compute(obj)`` for the measurement ``name``, computed at most once while ``obj`` lives."""
    key = (name, id(obj))
    entry = _ENTRIES.get(key)
    if entry is not None and entry[0]() is obj:
        return entry[1]
    value = compute(obj)

    # the table is bound here: at interpreter exit the module's globals may already be gone when a weakref fires
    def forget(ref: weakref.ref, key: tuple[str, int] = key, table: dict = _ENTRIES) -> None:
        current = table.get(key)
        if current is not None and current[0] is ref:
            del table[key]

    _ENTRIES[key] = (weakref.ref(obj, forget), value)
    return value


def entries() -> int:
    """How many measurements are held (for tests: it falls back as objects are collected)."""
    return len(_ENTRIES)
