"""Helpers of `BitemporalStore`: the namespace codec, item records, value filters, and the
driver that runs one plan of store calls either blocking or on the store's async twins."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Generator, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import unquote

import attrs
from langgraph.store.base import MatchCondition, get_text_at_path

from bitemporal_core import InvalidInput, MemoryStore, Message

__all__ = [
    "ROLE",
    "Call",
    "Plan",
    "Record",
    "check_value",
    "decode_namespace",
    "encode_namespace",
    "encode_record",
    "item_text",
    "key_session",
    "matches",
    "matches_condition",
    "parse_record",
    "run_async",
    "run_sync",
]

T = TypeVar("T")

ROLE = "lg-item"  # the role of record messages: nothing else in the store writes it
FORMAT = 1  # the record layout's version, for a later reader
MAX_TEXT = 10_000  # characters of an item's text that are remembered (and so ranked)
MAX_VALUE = 90_000  # characters of a value's JSON (the core keeps messages to 100,000)
DEFAULT_FIELDS = ("text", "content", "memory")

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ESCAPED = re.compile(r"[%/\x00-\x1f\x7f\ud800-\udfff]")


# --- plans: one sequence of store calls, run blocking or on the async twins -------------------
@attrs.frozen
class Call:
    """One `MemoryStore` call of a plan: the method's name (its twin is `"a" + name`)."""

    name: str
    kwargs: dict[str, Any]


Plan = Generator[Call, Any, T]


def run_sync(store: MemoryStore, plan: Plan[T]) -> T:
    """Run a plan with the store's blocking methods; a call's exception is raised in the plan."""
    result: Any = None
    error: Exception | None = None
    while True:
        try:
            call = plan.send(result) if error is None else plan.throw(error)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        try:
            result, error = getattr(store, call.name)(**call.kwargs), None
        except Exception as e:  # handed to the plan, which decides
            result, error = None, e


async def run_async(store: MemoryStore, plan: Plan[T]) -> T:
    """Run a plan with the store's async twins (each runs off the event loop)."""
    result: Any = None
    error: Exception | None = None
    while True:
        try:
            call = plan.send(result) if error is None else plan.throw(error)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        try:
            result, error = await getattr(store, "a" + call.name)(**call.kwargs), None
        except Exception as e:
            result, error = None, e


# --- namespaces and keys ------------------------------------------------------------------
def _escape(label: str) -> str:
    def one(match: re.Match[str]) -> str:
        raw = match.group(0).encode("utf-8", "surrogatepass")
        return "".join(f"%{b:02X}" for b in raw)

    return _ESCAPED.sub(one, label)


def encode_namespace(root: str, namespace: tuple[str, ...]) -> str:
    """The memory namespace of a LangGraph namespace: `root`, then `/label` per label, each
    label with `%`, `/`, control characters and lone surrogates percent-escaped."""
    for label in namespace:
        if not isinstance(label, str):
            raise InvalidInput(
                f"namespace labels must be strings, not {type(label).__name__}: {namespace!r}"
            )
    return root + "".join("/" + _escape(label) for label in namespace)


def decode_namespace(root: str, name: str) -> tuple[str, ...] | None:
    """The LangGraph namespace of a memory namespace, or None if it is not under `root`."""
    if name == root:
        return ()
    if not name.startswith(root + "/"):
        return None
    return tuple(unquote(p, errors="surrogatepass") for p in name[len(root) + 1 :].split("/"))


def key_session(key: str) -> str:
    """The session that holds one key's records and facts (a digest: keys may be any text)."""
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return "lgkey-" + digest[:32]


# --- records: the exact value of one put, in a message of the key's session ------------------
@attrs.frozen(kw_only=True)
class Record:
    """One put of a key as stored: the value (None for a delete), its times, its facts."""

    key: str
    value: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    facts: tuple[str, ...] = ()
    indexed: bool = True

    @property
    def deleted(self) -> bool:
        """True for the record of a delete."""
        return self.value is None


def _dumps(obj: object) -> str:
    """Compact JSON the core accepts as message text (no DEL character, valid UTF-8)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("\x7f", "\\u007f")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: escape everything instead
        text = json.dumps(obj, ensure_ascii=True, separators=(",", ":"))
    return text


def check_value(value: Mapping[str, Any]) -> dict[str, Any]:
    """A put's value as a plain dict of JSON data, within the size a record can hold."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"an item's value must be a dict or None, not {type(value).__name__}")
    try:
        text = _dumps(dict(value))
    except (TypeError, ValueError) as e:
        raise InvalidInput(f"an item's value must be JSON-serializable: {e}") from e
    if len(text) > MAX_VALUE:
        raise InvalidInput(
            f"an item's value is too large ({len(text)} characters of JSON; limit {MAX_VALUE})"
        )
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def encode_record(record: Record) -> str:
    """The message text of a record."""
    return _dumps(
        {
            "format": FORMAT,
            "key": record.key,
            "value": record.value,
            "deleted": record.deleted,
            "created_at": record.created_at.isoformat(),
            "updated_at": record.updated_at.isoformat(),
            "facts": list(record.facts),
            "indexed": record.indexed,
        }
    )


def parse_record(message: Message, key: str | None = None) -> Record | None:
    """The record a message holds (of `key`, if given), or None if it holds none."""
    if message.role != ROLE:
        return None
    try:
        raw = json.loads(message.text)
        record = Record(
            key=raw["key"],
            value=None if raw["deleted"] else dict(raw["value"]),
            created_at=datetime.fromisoformat(raw["created_at"]),
            updated_at=datetime.fromisoformat(raw["updated_at"]),
            facts=tuple(str(f) for f in raw["facts"]),
            indexed=bool(raw.get("indexed", True)),
        )
    except (ValueError, KeyError, TypeError):  # not written by this adapter
        return None
    if key is not None and record.key != key:
        return None
    return record


# --- the text that recall ranks -------------------------------------------------------------
def _visible(text: str) -> bool:
    return any(not ch.isspace() and unicodedata.category(ch) != "Cf" for ch in text)


def _clean(text: str) -> str:
    text = _CONTROL.sub(" ", text).encode("utf-8", "replace").decode("utf-8")
    return text[:MAX_TEXT].strip()


def item_text(value: dict[str, Any], paths: Sequence[str] | None) -> str:
    """The text remembered for a value: the texts at `paths` (LangGraph's field syntax), else
    the first of `text`, `content`, `memory` that is set, else the value rendered as JSON."""
    texts: list[str] = []
    if paths:
        texts = [t for path in paths for t in get_text_at_path(value, path)]
    else:
        for field in DEFAULT_FIELDS:
            if value.get(field) is not None:
                texts = get_text_at_path(value, field)
                break
    text = _clean("\n".join(t for t in texts if t.strip()))
    if not _visible(text):
        text = _clean(json.dumps(value, ensure_ascii=False, sort_keys=True))
    return text


# --- filters and namespace conditions, as LangGraph's InMemoryStore applies them ------------
def matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """True if a value passes a search filter (exact values, nested dicts, `$eq`, `$ne`,
    `$gt`, `$gte`, `$lt`, `$lte`)."""
    if not filter:
        return True
    return all(_compare(value.get(key), wanted) for key, wanted in filter.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(actual, op, operand) for op, operand in wanted.items())
        if not isinstance(actual, dict):
            return False
        return all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise InvalidInput(f"unsupported filter operator {op!r}")
    try:
        a, b = float(actual), float(operand)
    except (TypeError, ValueError):  # a missing or non-numeric field never compares
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]


def matches_condition(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """True if a namespace meets a `list_namespaces` prefix or suffix condition (`*` is any
    label)."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise InvalidInput(f"unsupported namespace match type {condition.match_type!r}")
    return all(p == "*" or n == p for n, p in pairs)
