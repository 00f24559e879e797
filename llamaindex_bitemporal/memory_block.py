"""`BitemporalMemoryBlock`: long-term bitemporal memory for LlamaIndex's `Memory` class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.memory.memory import BaseMemoryBlock

from bitemporal_core import Basis, MemoryStore, TimeRegression, render_context

from ._convert import acounter, message_text, message_time, query_text, resolve_basis

__all__ = ["BitemporalMemoryBlock"]


class BitemporalMemoryBlock(BaseMemoryBlock[str]):
    """A `Memory` block that recalls facts valid at a basis and remembers flushed messages.

    `Memory` calls `aget` with its chat history (and the new input): the block recalls what is
    relevant to the latest user messages, valid and known at the basis, as the chronological
    prompt block of the core (each line with its validity). Messages flushed out of the
    short-term queue are remembered as facts, at the time they carry in
    `additional_kwargs[time_key]` when given, else now.

    Args:
        store: the bitemporal memory store.
        namespace: the namespace to recall from and remember into.
        session: session recorded with remembered messages (default: the `Memory` session id).
        basis: what to recall as of; None means "now" at each call. A `basis=` keyword passed
            to `Memory.get`/`aget` overrides it for that call.
        k: how many memories to recall.
        max_tokens: token budget of the rendered block.
        query_window: how many of the latest user messages form the recall query.
        remember_roles: roles of flushed messages that become facts.
        time_key: `additional_kwargs` key holding a message's time.
        **block_options: `BaseMemoryBlock` fields (`description`, `priority`,
            `accept_short_term_memory`).
    """

    name: str = Field(default="bitemporal_memory", description="Name of the memory block.")
    namespace: str = Field(default="default", description="Namespace of the memories.")
    session: str | None = Field(default=None, description="Session of remembered messages.")
    basis: Basis | None = Field(default=None, exclude=True, description="Recall basis.")
    k: int = Field(default=10, gt=0, description="Memories to recall.")
    max_tokens: int = Field(default=800, gt=0, description="Token budget of the block.")
    query_window: int = Field(default=1, gt=0, description="Latest user messages to query.")
    remember_roles: tuple[str, ...] = Field(
        default=(MessageRole.USER.value,), description="Roles remembered as facts."
    )
    time_key: str = Field(default="timestamp", description="additional_kwargs time key.")
    _store: MemoryStore = PrivateAttr()

    def __init__(
        self,
        store: MemoryStore,
        *,
        name: str = "bitemporal_memory",
        namespace: str = "default",
        session: str | None = None,
        basis: Basis | None = None,
        k: int = 10,
        max_tokens: int = 800,
        query_window: int = 1,
        remember_roles: Sequence[str] = (MessageRole.USER.value,),
        time_key: str = "timestamp",
        **block_options: Any,
    ) -> None:
        fields: dict[str, Any] = {
            "name": name,
            "namespace": namespace,
            "session": session,
            "basis": basis,
            "k": k,
            "max_tokens": max_tokens,
            "query_window": query_window,
            "remember_roles": tuple(remember_roles),
            "time_key": time_key,
        }
        super().__init__(**fields, **block_options)
        self._store = store

    @property
    def store(self) -> MemoryStore:
        """The core store behind this block."""
        return self._store

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        """The memories relevant to the latest user messages, valid at the basis ("" if none)."""
        query = query_text(messages, self.query_window)
        if not query:
            return ""
        basis = resolve_basis(self.basis, block_kwargs.get("basis"))
        hits = await self._store.arecall(query, namespace=self.namespace, basis=basis, k=self.k)
        if not hits:
            return ""
        return render_context(
            hits,
            max_tokens=self.max_tokens,
            valid_at=basis.valid_at,
            counter=await acounter(self._store),
        )

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Remember the text of flushed messages (of `remember_roles`) as facts."""
        for message in messages:
            role = MessageRole(message.role).value
            text = message_text(message)
            if role not in self.remember_roles or not text:
                continue
            session = self.session or message.additional_kwargs.get("session_id")
            at = message_time(message, self.time_key)
            options: dict[str, Any] = {
                "namespace": self.namespace,
                "session": session,
                "speaker": role,
            }
            try:
                await self._store.aremember(text, at=at, **options)
            except TimeRegression:
                if at is None:
                    raise
                # Said before the namespace's latest write: recorded now, valid since said.
                await self._store.aremember(text, valid_from=at, **options)
