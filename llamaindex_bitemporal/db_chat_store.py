"""`BitemporalDBChatStore`: the chat store of LlamaIndex's `Memory`, over the core store."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
from llama_index.core.storage.chat_store.base_db import AsyncDBChatStore, MessageStatus

from bitemporal_core import InvalidInput, MemoryStore, Message

from ._convert import from_record
from ._tenancy import DefaultNamespaceWatch, resolve_namespace
from ._turns import astore_turn

__all__ = ["ARCHIVE_SESSION", "BitemporalDBChatStore", "akept_by_chat_store"]

ARCHIVE_SESSION = "llama-index-memory:archived"
"""The session holding, per key, how far its messages are archived (one small JSON message
each, written with the key's first message); it is not a key."""
_MARKER_ROLE = "archive-mark"


async def akept_by_chat_store(store: MemoryStore, namespace: str, session: str | None) -> bool:
    """Whether a `BitemporalDBChatStore` keeps `session` of `namespace` (it has a mark)."""
    if session is None:
        return False
    marks = await store.amessages(namespace, session=ARCHIVE_SESSION)
    return any(json.loads(m.text)["key"] == session for m in marks)


class BitemporalDBChatStore(AsyncDBChatStore):
    """The chat store `Memory.from_defaults(chat_store=...)` takes, kept in a `MemoryStore`.

    Each key (`Memory`'s `session_id`) is a session of the namespace; its messages are the
    store's raw messages, in order, and every message of `remember_roles` also becomes facts
    the moment it is added, with the message as their source (LlamaIndex's `Memory` hands its
    blocks only what it flushes, about 21k tokens later). A `BitemporalMemoryBlock` over the
    same namespace finds those messages already taken and only recalls.

    `Memory`'s short-term queue is the key's active messages; archiving the oldest moves a
    per-key mark (kept in the session `ARCHIVE_SESSION`) past them, so archived messages stay
    in the store, in order, and in `get_messages(key, status=None)`. An archived message can
    be added only while a key has no active ones (archived messages come first).
    `delete_message(key, idx)` takes the position among all of the key's messages.

    Args:
        store: the bitemporal memory store.
        namespace: the namespace of the keys; None uses `user_id`.
        user_id: the user whose memory this is, when `namespace` is not given; with neither,
            "default" (a warning is logged once when several keys write there).
        remember_roles: roles whose messages become facts as they are added (() for none).
        time_key: the `additional_kwargs` key of a message's own time (None to ignore).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    namespace: str = Field(default="default", description="Namespace of the chat keys.")
    remember_roles: tuple[str, ...] = Field(
        default=(MessageRole.USER.value,), description="Roles remembered as facts."
    )
    time_key: str | None = Field(default="timestamp", description="additional_kwargs time key.")
    _store: MemoryStore = PrivateAttr()
    _watch: DefaultNamespaceWatch = PrivateAttr()

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        remember_roles: Sequence[str] = (MessageRole.USER.value,),
        time_key: str | None = "timestamp",
    ) -> None:
        chosen, defaulted = resolve_namespace(namespace, user_id)
        fields: dict[str, Any] = {
            "namespace": chosen,
            "remember_roles": tuple(remember_roles),
            "time_key": time_key,
        }
        super().__init__(**fields)
        self._store = store
        self._watch = DefaultNamespaceWatch(type(self).__name__, defaulted=defaulted)

    @classmethod
    def class_name(cls) -> str:
        """Name used in serialization."""
        return "BitemporalDBChatStore"

    @property
    def store(self) -> MemoryStore:
        """The core store behind this chat store."""
        return self._store

    # --- the archive mark -------------------------------------------------------------------
    async def _marks(self, key: str) -> list[tuple[Message, int]]:
        """The key's archive marks (normally one) with the last archived message's seq."""
        found = []
        for record in await self._store.amessages(self.namespace, session=ARCHIVE_SESSION):
            mark = json.loads(record.text)
            if mark["key"] == key:
                found.append((record, int(mark["through"])))
        return found

    async def _split(self, key: str) -> tuple[list[Message], list[Message]]:
        """The key's (archived, active) messages, oldest first."""
        if key == ARCHIVE_SESSION:
            raise InvalidInput(f"{ARCHIVE_SESSION!r} is reserved: it is not a chat key")
        records = await self._store.amessages(self.namespace, session=key)
        through = max((seq for _, seq in await self._marks(key)), default=0)
        return [r for r in records if r.seq <= through], [r for r in records if r.seq > through]

    async def _mark(self, key: str, through: int) -> None:
        """Archive the key's messages up to `through` (seq): a new mark, then old ones go."""
        old = [record.id for record, _ in await self._marks(key)]
        await self._store.aadd_message(
            json.dumps({"key": key, "through": through}),
            namespace=self.namespace,
            session=ARCHIVE_SESSION,
            role=_MARKER_ROLE,
            id="li-archive-" + uuid.uuid4().hex,
        )
        if old:
            await self._store.adelete_messages(self.namespace, ids=old)

    # --- AsyncDBChatStore ------------------------------------------------------------------
    async def get_messages(
        self,
        key: str,
        status: MessageStatus | None = MessageStatus.ACTIVE,
        limit: int | None = None,
        offset: int | None = None,
    ) -> list[ChatMessage]:
        """The key's messages of `status` (None: all), oldest first, from `offset`, at most
        `limit`."""
        archived, active = await self._split(key)
        chosen = _of_status(archived, active, status)
        start = offset or 0
        end = None if limit is None else start + limit
        return [from_record(r) for r in chosen[start:end]]

    async def count_messages(
        self, key: str, status: MessageStatus | None = MessageStatus.ACTIVE
    ) -> int:
        """How many messages of `status` (None: all) the key has."""
        archived, active = await self._split(key)
        return len(_of_status(archived, active, status))

    async def add_message(
        self, key: str, message: ChatMessage, status: MessageStatus = MessageStatus.ACTIVE
    ) -> None:
        """Append a message to the key (its facts too, for `remember_roles`)."""
        await self.add_messages(key, [message], status)

    async def add_messages(
        self, key: str, messages: list[ChatMessage], status: MessageStatus = MessageStatus.ACTIVE
    ) -> None:
        """Append messages to the key, in order."""
        _, active = await self._split(key)
        if status == MessageStatus.ARCHIVED and active and messages:
            raise InvalidInput(
                f"key {key!r} has active messages: archived ones cannot be added after them"
            )
        if messages and not await self._marks(key):
            await self._mark(key, 0)  # the key is this chat store's (see the memory block)
        for message in messages:
            await astore_turn(
                self._store,
                message,
                namespace=self.namespace,
                session=key,
                remember_roles=self.remember_roles,
                time_key=self.time_key,
            )
            self._watch.wrote(key)
        if status == MessageStatus.ARCHIVED and messages:
            last = await self._store.amessages(self.namespace, session=key, limit=1)
            await self._mark(key, last[-1].seq)

    async def set_messages(
        self, key: str, messages: list[ChatMessage], status: MessageStatus = MessageStatus.ACTIVE
    ) -> None:
        """Replace every message of the key (facts already remembered stay)."""
        await self.delete_messages(key)
        await self.add_messages(key, messages, status)

    async def delete_message(self, key: str, idx: int) -> ChatMessage | None:
        """Delete the message at position `idx` among all of the key's; None if none."""
        archived, active = await self._split(key)
        records = archived + active
        if not -len(records) <= idx < len(records):
            return None
        await self._store.adelete_messages(self.namespace, ids=[records[idx].id])
        return from_record(records[idx])

    async def delete_messages(self, key: str, status: MessageStatus | None = None) -> None:
        """Delete the key's messages of `status` (None: all, and its archive mark)."""
        archived, active = await self._split(key)
        doomed = _of_status(archived, active, status)
        if status is None:
            doomed += [record for record, _ in await self._marks(key)]
        if doomed:
            await self._store.adelete_messages(self.namespace, ids=[r.id for r in doomed])

    async def delete_oldest_messages(self, key: str, n: int) -> list[ChatMessage]:
        """Delete the oldest `n` active messages of the key and return them."""
        _, active = await self._split(key)
        oldest = active[: max(n, 0)]
        if oldest:
            await self._store.adelete_messages(self.namespace, ids=[r.id for r in oldest])
        return [from_record(r) for r in oldest]

    async def archive_oldest_messages(self, key: str, n: int) -> list[ChatMessage]:
        """Archive the oldest `n` active messages of the key and return them."""
        _, active = await self._split(key)
        oldest = active[: max(n, 0)]
        if oldest:
            await self._mark(key, oldest[-1].seq)
        return [from_record(r) for r in oldest]

    async def get_keys(self) -> list[str]:
        """Every key of the namespace, in order of its first message."""
        sessions = await self._store.asessions(self.namespace)
        return [s for s in sessions if s != ARCHIVE_SESSION]


def _of_status(
    archived: list[Message], active: list[Message], status: MessageStatus | None
) -> list[Message]:
    if status is None:
        return archived + active
    return list(archived if status == MessageStatus.ARCHIVED else active)
