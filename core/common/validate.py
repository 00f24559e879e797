"""Input checks shared by the public API: every refusal is an `InvalidInput` (or subclass)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from bitemporal_core.errors import InvalidInput

__all__ = [
    "MAX_TEXT",
    "check_count",
    "check_id",
    "check_ids",
    "check_items",
    "check_kind",
    "check_namespace",
    "check_optional_name",
    "check_text",
    "shown",
]

MAX_TEXT = 100_000  # characters in one remembered text or message
MAX_NAME = 256  # characters in a namespace, id, speaker or session
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def shown(value: object, limit: int = 60) -> str:
    """A value as an error message quotes it: its repr, cut to `limit` characters (a refused
    argument may be megabytes long, and an error must stay short)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _encodable(value: str, what: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidInput(f"{what} is not valid Unicode (lone surrogate?)") from e


def check_text(value: object, what: str = "text") -> str:
    """A non-blank text of bounded size, without control characters (tabs, newlines allowed)."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {type(value).__name__}")
    if len(value) > MAX_TEXT:  # first: every other pass is bounded by this length
        raise InvalidInput(f"{what} is too long ({len(value)} characters; limit {MAX_TEXT})")
    if not _visible(value):
        raise InvalidInput(f"{what} is empty")
    if _CONTROL.search(value):
        raise InvalidInput(f"{what} contains control characters")
    _encodable(value, what)
    return value.strip()


def _visible(value: str) -> bool:
    """True if the text has a character that is neither whitespace nor an invisible format
    character (zero-width space, BOM, word joiner...)."""
    return any(not ch.isspace() and unicodedata.category(ch) != "Cf" for ch in value)


def check_namespace(value: object) -> str:
    """A namespace: a non-blank short string without control characters."""
    return _check_name(value, "namespace")


def check_id(value: object, what: str = "fact id") -> str:
    """An id given by the caller (fact, message)."""
    return _check_name(value, what)


def check_optional_name(value: object, what: str) -> str | None:
    """An optional short label (speaker, session, source)."""
    return None if value is None else _check_name(value, what)


def _check_name(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {type(value).__name__}")
    if not value.strip():
        raise InvalidInput(f"{what} is empty")
    if len(value) > MAX_NAME:
        raise InvalidInput(f"{what} is too long ({len(value)} characters; limit {MAX_NAME})")
    if _NAME_CONTROL.search(value):
        raise InvalidInput(f"{what} contains control characters")
    _encodable(value, what)
    return value


def check_count(value: object, what: str, *, minimum: int = 1) -> int:
    """An integer (not a bool) of at least `minimum`: a k, limit, chunk size or hop count."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(f"{what} must be an integer, not {type(value).__name__}")
    if value < minimum:
        raise InvalidInput(f"{what} must be at least {minimum}, not {value}")
    return value


def check_kind(value: object) -> str:
    """A statement kind: a short word ("said", "belief", "plan"...)."""
    if not isinstance(value, str) or not value.isidentifier() or len(value) > MAX_NAME:
        shown = repr(value) if isinstance(value, str) and len(value) <= 40 else type(value).__name__
        raise InvalidInput(f"kind must be a short word, not {shown}")
    return value


def _many(values: object, what: str) -> list[object]:
    """A collection of values given as a list, tuple, set or other iterable, never a bare
    string, bytes or mapping (iterating those would take characters or keys one by one)."""
    if isinstance(values, str | bytes | bytearray | Mapping) or not isinstance(values, Iterable):
        raise InvalidInput(f"{what} must be a list, not {type(values).__name__}")
    return list(values)


def check_items(items: object) -> list[object]:
    """The items of a bulk import: a list of texts or mappings (checked one by one later)."""
    return _many(items, "items")


def check_ids(ids: object, what: str) -> list[str]:
    """A list of ids (message ids, concept keys), each a short label."""
    return [check_id(i, what) for i in _many(ids, f"{what}s")]
