"""Shared helpers: LlamaIndex chat messages <-> stored core messages, and query text."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock

from bitemporal_core import Basis, Hit, MemoryStore, Message, TokenCounter, Turn

__all__ = [
    "JSON_ID_PREFIX",
    "acounter",
    "astore_message",
    "concept_displays",
    "from_record",
    "message_text",
    "message_time",
    "query_text",
    "resolve_basis",
    "store_message",
]

JSON_ID_PREFIX = "li-json-"
"""Id prefix of stored messages whose text is a serialized `ChatMessage` (tool calls, images,
extra kwargs): plain text messages are stored as they are, everything else round-trips as JSON."""

_ROLES = {r.value for r in MessageRole}
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def message_text(message: ChatMessage) -> str:
    """The text blocks of a message, joined by newlines ("" if it has none)."""
    parts = [b.text for b in message.blocks if isinstance(b, TextBlock)]
    return "\n".join(p for p in parts if p.strip()).strip()


def _is_plain(message: ChatMessage) -> bool:
    """True if the message survives storage as bare text (one text block, nothing else)."""
    if message.additional_kwargs or len(message.blocks) != 1:
        return False
    block = message.blocks[0]
    if not isinstance(block, TextBlock):
        return False
    text = block.text
    return bool(text.strip()) and text == text.strip() and not _CONTROL.search(text)


def _record(message: ChatMessage) -> tuple[str, str, str | None]:
    """(text, role, id) to store: plain text, or the JSON of the message under a marked id."""
    role = MessageRole(message.role).value
    if _is_plain(message):
        return message_text(message), role, None
    return message.model_dump_json(), role, JSON_ID_PREFIX + uuid.uuid4().hex


def from_record(record: Message) -> ChatMessage:
    """The `ChatMessage` a stored message stands for (unknown roles read as "user")."""
    if record.id.startswith(JSON_ID_PREFIX):
        return ChatMessage.model_validate_json(record.text)
    role = record.role if record.role in _ROLES else MessageRole.USER.value
    return ChatMessage(role=role, content=record.text)


def to_turn(
    message: ChatMessage,
    session: str | None,
    remember_roles: Sequence[str],
    *,
    msg_id: str | None = None,
) -> Turn:
    """The turn that keeps `message`: its text as facts if its role feeds the memory, and the
    message itself, serialised under a marked id unless it is plain text. `msg_id` names the
    message (a JSON message's id gets the marking prefix); None makes one."""
    role = MessageRole(message.role).value
    text = message_text(message)
    remember = role in remember_roles and bool(text)
    name = message.additional_kwargs.get("name")
    speaker = name if isinstance(name, str) and name.strip() else None
    if _is_plain(message):
        return Turn(
            text=text, role=role, id=msg_id, session=session, remember=remember, speaker=speaker
        )
    body, _, made = _record(message)
    marked = made if msg_id is None else JSON_ID_PREFIX + msg_id
    return Turn(
        text=text or body,
        role=role,
        id=marked,
        session=session,
        remember=remember,
        message=body,
        speaker=speaker,
    )


def store_message(
    store: MemoryStore,
    message: ChatMessage,
    *,
    namespace: str,
    session: str,
    remember_roles: Sequence[str] = (),
) -> None:
    """Store one chat message; messages of `remember_roles` also become facts (with the
    message kept as their provenance)."""
    store.add_turn(to_turn(message, session, remember_roles), namespace=namespace)


async def astore_message(
    store: MemoryStore,
    message: ChatMessage,
    *,
    namespace: str,
    session: str,
    remember_roles: Sequence[str] = (),
) -> None:
    """Async twin of `store_message` (the store's async twins, off the event loop)."""
    await store.aadd_turn(to_turn(message, session, remember_roles), namespace=namespace)


def query_text(messages: Sequence[ChatMessage] | None, window: int = 1) -> str:
    """The text of the latest `window` user messages (oldest first), to recall with."""
    users = [m for m in messages or () if m.role == MessageRole.USER and message_text(m)]
    return "\n".join(message_text(m) for m in users[-window:]) if window > 0 else ""


def message_time(message: ChatMessage, key: str) -> datetime | None:
    """The time a message carries in `additional_kwargs[key]` (aware datetime, ISO 8601 string,
    or POSIX seconds), or None."""
    value = message.additional_kwargs.get(key)
    if value is None:
        return None
    if isinstance(value, datetime):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, tz=UTC)
    if isinstance(value, str):
        return datetime.fromisoformat(value)
    raise TypeError(f"additional_kwargs[{key!r}] is not a time: {value!r}")


async def acounter(store: MemoryStore) -> TokenCounter:
    """The store's token counter, loaded off the event loop (the first use reads its files)."""
    return await asyncio.to_thread(lambda: store.counter)


def concept_displays(store: MemoryStore, namespace: str, hits: Sequence[Hit]) -> dict[str, str]:
    """The display form ("apples") of each concept key ("appl") that found these hits, read in
    one call. (Seam: once `Hit` carries its concepts' display forms, read them from the hit.)"""
    keys = sorted({key for hit in hits for key in hit.concepts})
    if not keys:
        return {}
    nodes, _ = store.concept_graph(keys, namespace=namespace)
    return {c.key: c.display for c in nodes}


def resolve_basis(default: Basis | None, override: Basis | None = None) -> Basis:
    """The basis of one call: the override, else the default, with "now" pinned."""
    return (override or default or Basis()).resolved()
