"""Malformed item records are verification failures, never crashes.

A record read back from disk can be anything: a scene without a key the verifier reads, a number where a list
belongs, a list too short for its index.  ``guarded`` wraps a task's verifier so that the error such a record
raises (KeyError, IndexError, TypeError, ValueError, AttributeError) comes back as one failure that says the
record is malformed and names what was wrong, as the core reports a verifier's other findings.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

Verifier = Callable[..., list[str]]
#: The errors a malformed record raises in a verifier that reads it.
MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def describe(exc: BaseException) -> str:
    """One line naming what is wrong with the record, from the error reading it raised."""
    if isinstance(exc, KeyError):
        return f"the item's record is malformed: it lacks the key {exc.args[0]!r} (a required field of its scene)"
    if isinstance(exc, IndexError):
        return f"the item's record is malformed: a list in it is shorter than its layout needs ({exc})"
    kind = "type" if isinstance(exc, (TypeError, AttributeError)) else "value"
    return f"the item's record is malformed: a field has the wrong {kind} ({type(exc).__name__}: {exc})"


def guarded(verify: Verifier) -> Verifier:
    """``verify`` that returns ``[describe(error)]`` when reading a malformed record raises (the failures found
    until then are kept before it)."""

    @functools.wraps(verify)
    def checked(item, images, *args, **kwargs) -> list[str]:
        if not isinstance(getattr(item, "metadata", None), dict) or not isinstance(item.metadata.get("scene"), dict):
            return ["the item's record is malformed: metadata.scene is missing or not an object"]
        try:
            return verify(item, images, *args, **kwargs)
        except MALFORMED as exc:
            return [describe(exc)]

    return checked
