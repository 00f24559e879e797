"""Shared helpers of the LangChain adapters: message conversion, scopes, times, ids."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
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

from bitemporal_core import Basis, Hit, InvalidInput, MemoryStore, Message

__all__ = [
    "DEFAULT_NAMESPACE",
    "DefaultNamespaceWatch",
    "Defaults",
    "Scope",
    "concept_displays",
    "lookup",
    "message_text",
    "parse_time",
    "resolve_scope",
    "role_of",
    "to_langchain",
]

_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}
DEFAULT_NAMESPACE = "default"
LOG = logging.getLogger("langchain_bitemporal")


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


def concept_displays(store: MemoryStore, namespace: str, hits: Sequence[Hit]) -> dict[str, str]:
    """The display form ("apples") of each concept key ("appl") that found these hits, read in
    one call, for the metadata people and models see. (Seam: once `Hit` carries its concepts'
    display forms, read them from the hit.)"""
    keys = sorted({key for hit in hits for key in hit.concepts})
    if not keys:
        return {}
    nodes, _ = store.concept_graph(keys, namespace=namespace)
    return {c.key: c.display for c in nodes}


def lookup(source: Any, key: str) -> Any:
    """`source[key]` for a mapping, `source.key` for an object, else None."""
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


@attrs.frozen
class Defaults:
    """An adapter's own namespace (None: not given), session and basis."""

    namespace: str | None
    session: str | None
    basis: Basis | None


@attrs.frozen
class Scope:
    """Where a call reads and writes: namespace, session and basis. `defaulted` is true when
    nothing named the namespace, so the shared "default" one is used."""

    namespace: str
    session: str | None
    basis: Basis | None
    defaulted: bool = False


def resolve_scope(
    default: Defaults,
    context: Any,
    configurable: Mapping[str, Any] | None,
    *,
    namespace_key: str = "namespace",
    session_key: str = "session",
    basis_key: str = "basis",
    user_key: str = "user_id",
) -> Scope:
    """The scope of one run.

    The namespace is, in this order: `namespace_key` in the runtime context, then in the
    config's `configurable` (a namespace named for this run); the adapter's own `namespace`;
    `user_key` (LangGraph's `user_id`) in the runtime context, then in `configurable`; else
    "default". The session and basis come from the context, then `configurable` (its
    `thread_id` standing in for a missing session), then the adapter's defaults.
    """
    conf = configurable or {}

    def pick(key: str) -> Any:
        found = lookup(context, key)
        return found if found is not None else conf.get(key)

    namespace = pick(namespace_key) or default.namespace or pick(user_key)
    session = pick(session_key) or conf.get("thread_id") or default.session
    basis = pick(basis_key) or default.basis
    if not isinstance(basis, Basis | None):
        raise InvalidInput(f"basis must be a Basis, not {type(basis).__name__}")
    return Scope(
        namespace=DEFAULT_NAMESPACE if namespace is None else str(namespace),
        session=None if session is None else str(session),
        basis=basis,
        defaulted=namespace is None,
    )


class DefaultNamespaceWatch:
    """Logs one warning when the writes of several sessions (threads) land in the "default"
    namespace because nothing named one: every user then shares one memory.

    A log record (logger `langchain_bitemporal`, level WARNING) rather than a Python warning:
    it reports a configuration, and must not fail the agent run it is noticed in.
    """

    def __init__(self, adapter: str) -> None:
        self._adapter = adapter
        self._sessions: set[str | None] = set()
        self._warned = False
        self._lock = threading.Lock()

    def wrote(self, scope: Scope) -> None:
        """Note a write in `scope`; warn (once) at the second session writing to "default"."""
        if not scope.defaulted or self._warned:
            return
        with self._lock:
            self._sessions.add(scope.session)
            if len(self._sessions) < 2 or self._warned:
                return
            self._warned = True
        LOG.warning(
            "%s: writes of several sessions land in the shared namespace %r, so all users "
            "share one memory. Give the adapter namespace=..., or put user_id in the run's "
            "context or in config['configurable'].",
            self._adapter,
            DEFAULT_NAMESPACE,
        )
