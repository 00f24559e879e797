"""Input checks shared by the public API: every refusal is an `InvalidInput` (or subclass)."""

from __future__ import annotations

import re
import unicodedata

from .errors import InvalidInput

__all__ = ["MAX_TEXT", "check_id", "check_namespace", "check_optional_name", "check_text"]

MAX_TEXT = 100_000  # characters in one remembered text or message
MAX_NAME = 256  # characters in a namespace, id, speaker or session
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _encodable(value: str, what: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidInput(f"{what} is not valid Unicode (lone surrogate?)") from e


def check_text(value: object, what: str = "text") -> str:
    """A non-blank text of bounded size, without control characters (tabs, newlines allowed)."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {type(value).__name__}")
    if not _visible(value):
        raise InvalidInput(f"{what} is empty")
    if len(value) > MAX_TEXT:
        raise InvalidInput(f"{what} is too long ({len(value)} characters; limit {MAX_TEXT})")
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
