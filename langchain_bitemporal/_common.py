"""Shared helpers of the LangChain adapters: message conversion, scopes, times, ids."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import attrs
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
)

from bitemporal_core import Basis, InvalidInput, Message

__all__ = [
    "Scope",
    "lookup",
    "message_text",
    "parse_time",
    "resolve_scope",
    "role_of",
    "to_langchain",
]

_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def message_text(message: BaseMessage) -> str:
    """The plain text of a message (text blocks of list content joined), stripped."""
    return str(message.text).strip()


def role_of(message: BaseMessage) -> str:
    """The stored role of a LangChain message: user, assistant, system, tool, or its own."""
    if isinstance(message, ChatMessage):
        return message.role
    return _ROLES.get(message.type, message.type)


def to_langchain(message: Message) -> BaseMessage:
    """A stored message as a LangChain message of the matching type (same id)."""
    role = message.role or "user"
    if role in ("user", "human"):
        return HumanMessage(content=message.text, id=message.id)
    if role in ("assistant", "ai"):
        return AIMessage(content=message.text, id=message.id)
    if role == "system":
        return SystemMessage(content=message.text, id=message.id)
    return ChatMessage(content=message.text, role=role, id=message.id)


def parse_time(
    value: datetime | str | None, name: str, *, assume_utc: bool = False
) -> datetime | None:
    """A datetime from a datetime or an ISO-8601 string. A naive one is read as UTC when
    `assume_utc` (text from a model), else left for the core to refuse."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError as e:
            raise InvalidInput(f"{name} is not an ISO-8601 date or time: {value!r}") from e
    if not isinstance(value, datetime):
        raise InvalidInput(f"{name} must be a datetime or ISO-8601 string")
    if value.tzinfo is None and assume_utc:
        value = value.replace(tzinfo=UTC)
    return value


def lookup(source: Any, key: str) -> Any:
    """`source[key]` for a mapping, `source.key` for an object, else None."""
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


@attrs.frozen
class Scope:
    """Where a call reads and writes: namespace, session and basis."""

    namespace: str
    session: str | None
    basis: Basis | None


def resolve_scope(
    default: Scope,
    context: Any,
    configurable: Mapping[str, Any] | None,
    *,
    namespace_key: str = "namespace",
    session_key: str = "session",
    basis_key: str = "basis",
) -> Scope:
    """The scope of one run: the runtime context wins, then the config's `configurable`
    (its `thread_id` stands in for a missing session), then the adapter's defaults."""
    conf = configurable or {}

    def pick(key: str) -> Any:
        found = lookup(context, key)
        return found if found is not None else conf.get(key)

    namespace = pick(namespace_key) or default.namespace
    session = pick(session_key) or conf.get("thread_id") or default.session
    basis = pick(basis_key) or default.basis
    if not isinstance(basis, Basis | None):
        raise InvalidInput(f"basis must be a Basis, not {type(basis).__name__}")
    return Scope(
        namespace=str(namespace),
        session=None if session is None else str(session),
        basis=basis,
    )
