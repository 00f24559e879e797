"""Taking chat messages into the store: each one once, at its own time when it carries one.

A LlamaIndex `ChatMessage` has no id, so what the memory block has already taken is read back
from the store: the messages it stored in the session, in order. `fresh` lines a run of
messages up against them (the latest messages of a conversation overlap the newest stored
ones), and the messages past the overlap are new. Their ids are derived from the last stored
message and their position, so retrying the same call stores nothing twice.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole

from bitemporal_core import MemoryStore, Message, TimeRegression

from ._convert import from_record, message_text, message_time, to_turn

__all__ = ["astore_turn", "fresh", "signature", "turn_ids", "without_session_mark"]

Signature = tuple[str, str]


def signature(message: ChatMessage) -> Signature:
    """What identifies a message for lining up: its role and its text (its blocks if it has
    no text); extra kwargs, which `Memory` adds when it flushes, do not count."""
    text = message_text(message)
    if not text:
        text = "\x00" + "".join(b.model_dump_json() for b in message.blocks)
    return MessageRole(message.role).value, text


def fresh(messages: Sequence[ChatMessage], taken: Sequence[Message]) -> tuple[int, list[str]]:
    """Where `messages` stop being among the `taken` ones (stored, oldest first), and the ids
    of the stored messages the ones before that are.

    The index is after the longest start of `messages` that ends the taken ones, or 0 past
    nothing; `len(messages)` when they all lie within the taken ones.
    """
    seen = [signature(m) for m in messages]
    done = [signature(from_record(r)) for r in taken]
    for overlap in range(min(len(seen), len(done)), 0, -1):
        if seen[:overlap] == done[len(done) - overlap :]:
            return overlap, [r.id for r in taken[len(taken) - overlap :]]
    width = len(seen)
    for i in range(len(done) - width, -1, -1) if width else ():
        if done[i : i + width] == seen:
            return width, [r.id for r in taken[i : i + width]]
    return 0, []


def turn_ids(namespace: str, session: str | None, after: str | None, count: int) -> list[str]:
    """Ids for `count` new messages following the stored message `after` (None: the first)."""
    base = "\x1f".join((namespace, session or "", after or ""))
    return [
        "li-turn-" + hashlib.sha1(f"{base}\x1f{i}".encode()).hexdigest()[:24] for i in range(count)
    ]


def without_session_mark(message: ChatMessage) -> ChatMessage:
    """The message without the `session_id` that `Memory` writes into flushed messages."""
    if "session_id" not in message.additional_kwargs:
        return message
    kwargs = {k: v for k, v in message.additional_kwargs.items() if k != "session_id"}
    return message.model_copy(update={"additional_kwargs": kwargs})


async def astore_turn(
    store: MemoryStore,
    message: ChatMessage,
    *,
    namespace: str,
    session: str | None,
    remember_roles: Sequence[str],
    time_key: str | None,
    msg_id: str | None = None,
) -> None:
    """Store one chat message as a turn; messages of `remember_roles` also become facts.

    The one place where a message's own time (`additional_kwargs[time_key]`) is used. The
    core's `Turn` has no time yet, so a timed message is written as the same two parts at that
    time: its message (`add_message`, unless `remember` stores it with its facts), then its
    facts (`remember` with the message as source). A time before the namespace's latest write
    cannot be a transaction time: the message is then recorded now and its facts are valid
    since it was said.
    """
    turn = to_turn(message, session, remember_roles, msg_id=msg_id or "li-" + uuid.uuid4().hex)
    at = None if time_key is None else message_time(message, time_key)
    if at is None:
        await store.aadd_turn(turn, namespace=namespace)
        return
    if turn.message is not None or not turn.remember:
        body, role = turn.message or turn.text, turn.role
        try:
            await store.aadd_message(
                body, namespace=namespace, session=session, role=role, id=turn.id, at=at
            )
        except TimeRegression:
            await store.aadd_message(
                body, namespace=namespace, session=session, role=role, id=turn.id
            )
    if not turn.remember:
        return
    facts: dict[str, Any] = {
        "namespace": namespace,
        "session": session,
        "speaker": turn.role,
        "source": turn.id,
    }
    try:
        await store.aremember(turn.text, at=at, **facts)
    except TimeRegression:
        await store.aremember(turn.text, valid_from=at, **facts)
