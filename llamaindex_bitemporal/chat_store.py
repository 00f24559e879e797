"""`BitemporalChatStore`: a LlamaIndex `BaseChatStore` over the core store's raw messages."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
from llama_index.core.storage.chat_store.base import BaseChatStore

from bitemporal_core import MemoryStore, Message

from ._convert import astore_message, from_record, store_message

__all__ = ["BitemporalChatStore"]


class BitemporalChatStore(BaseChatStore):
    """Chat histories kept as raw messages of a `MemoryStore` namespace, one session per key.

    Plain text messages are stored as text; messages with tool calls, images or extra kwargs
    round-trip as JSON. Messages are provenance in the store: `forget(namespace=...)` removes
    them, and messages of `remember_roles` also become facts.

    Args:
        store: the bitemporal memory store.
        namespace: the namespace the keys live in.
        remember_roles: roles whose messages are also remembered as facts (default none).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    namespace: str = Field(default="default", description="Namespace of the chat keys.")
    remember_roles: tuple[str, ...] = Field(
        default=(), description="Roles whose messages are also remembered as facts."
    )
    _store: MemoryStore = PrivateAttr()

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: str = "default",
        remember_roles: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        fields: dict[str, Any] = {"namespace": namespace, "remember_roles": remember_roles}
        super().__init__(**fields, **kwargs)
        self._store = store

    @classmethod
    def class_name(cls) -> str:
        """Name used in serialization."""
        return "BitemporalChatStore"

    @property
    def store(self) -> MemoryStore:
        """The core store behind this chat store."""
        return self._store

    # --- sync ---------------------------------------------------------------------------
    def _records(self, key: str) -> list[Message]:
        return self._store.messages(self.namespace, session=key)

    def set_messages(self, key: str, messages: list[ChatMessage]) -> None:
        """Replace the messages of `key`."""
        self._store.delete_messages(self.namespace, session=key)
        for message in messages:
            self.add_message(key, message)

    def get_messages(self, key: str) -> list[ChatMessage]:
        """The messages of `key`, oldest first."""
        return [from_record(r) for r in self._records(key)]

    def add_message(self, key: str, message: ChatMessage) -> None:
        """Append a message to `key`."""
        store_message(
            self._store,
            message,
            namespace=self.namespace,
            session=key,
            remember_roles=self.remember_roles,
        )

    def delete_messages(self, key: str) -> list[ChatMessage] | None:
        """Delete every message of `key`; return them (None if there were none)."""
        records = self._records(key)
        if not records:
            return None
        self._store.delete_messages(self.namespace, session=key)
        return [from_record(r) for r in records]

    def delete_message(self, key: str, idx: int) -> ChatMessage | None:
        """Delete the message at position `idx` of `key`; None if there is none."""
        records = self._records(key)
        if not -len(records) <= idx < len(records):
            return None
        self._store.delete_messages(self.namespace, ids=[records[idx].id])
        return from_record(records[idx])

    def delete_last_message(self, key: str) -> ChatMessage | None:
        """Delete the newest message of `key`; None if there is none."""
        records = self._store.messages(self.namespace, session=key, limit=1)
        if not records:
            return None
        self._store.delete_messages(self.namespace, ids=[records[-1].id])
        return from_record(records[-1])

    def get_keys(self) -> list[str]:
        """Every key (session) of the namespace, in order of its first message."""
        return self._store.sessions(self.namespace)

    # --- async (the store's async twins, off the event loop) ----------------------------
    async def _arecords(self, key: str) -> list[Message]:
        return await self._store.amessages(self.namespace, session=key)

    async def aset_messages(self, key: str, messages: list[ChatMessage]) -> None:
        """Async twin of `set_messages`."""
        await self._store.adelete_messages(self.namespace, session=key)
        for message in messages:
            await self.async_add_message(key, message)

    async def aget_messages(self, key: str) -> list[ChatMessage]:
        """Async twin of `get_messages`."""
        return [from_record(r) for r in await self._arecords(key)]

    async def async_add_message(self, key: str, message: ChatMessage) -> None:
        """Async twin of `add_message`."""
        await astore_message(
            self._store,
            message,
            namespace=self.namespace,
            session=key,
            remember_roles=self.remember_roles,
        )

    async def adelete_messages(self, key: str) -> list[ChatMessage] | None:
        """Async twin of `delete_messages`."""
        records = await self._arecords(key)
        if not records:
            return None
        await self._store.adelete_messages(self.namespace, session=key)
        return [from_record(r) for r in records]

    async def adelete_message(self, key: str, idx: int) -> ChatMessage | None:
        """Async twin of `delete_message`."""
        records = await self._arecords(key)
        if not -len(records) <= idx < len(records):
            return None
        await self._store.adelete_messages(self.namespace, ids=[records[idx].id])
        return from_record(records[idx])

    async def adelete_last_message(self, key: str) -> ChatMessage | None:
        """Async twin of `delete_last_message`."""
        records = await self._store.amessages(self.namespace, session=key, limit=1)
        if not records:
            return None
        await self._store.adelete_messages(self.namespace, ids=[records[-1].id])
        return from_record(records[-1])

    async def aget_keys(self) -> list[str]:
        """Async twin of `get_keys`."""
        return await self._store.asessions(self.namespace)
