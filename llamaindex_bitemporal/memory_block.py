"""`BitemporalMemoryBlock`: long-term bitemporal memory for LlamaIndex's `Memory` class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.memory.memory import BaseMemoryBlock

from bitemporal_core import Basis, MemoryStore, render_context

from ._convert import acounter, query_text, resolve_basis
from ._tenancy import DefaultNamespaceWatch, resolve_namespace
from ._turns import astore_turn, fresh, turn_ids, without_session_mark
from .db_chat_store import akept_by_chat_store

__all__ = ["BitemporalMemoryBlock"]

Take = Literal["every_turn", "flushed"]


class BitemporalMemoryBlock(BaseMemoryBlock[str]):
    """A `Memory` block that recalls facts valid at a basis and remembers the conversation.

    `Memory` calls `aget` with its chat history (and the new input) whenever the agent or
    chat engine reads its memory: the block recalls what is relevant to the latest user
    messages, valid and known at the basis, as the chronological prompt block of the core
    (each line with its validity). Memories whose source message is still in that history are
    not repeated.

    What it remembers depends on `take`:

    - `"every_turn"` (the default, what a memory is expected to do): each message is stored
      as it arrives, when the block first sees it in `aget` (or, if `Memory` flushes it
      before any read, in `aput`), and the messages of `remember_roles` become facts. The
      block recognises the messages it stored before (by role and text, in order), so each is
      taken once.
    - A session that a `BitemporalDBChatStore` keeps in the same namespace is left to it: the
      chat store stores each message as it is added (its `remember_roles` decide the facts),
      and the block only recalls.
    - `"flushed"`: LlamaIndex's own contract, only what `Memory` flushes out of its
      short-term queue (once the history passes `token_limit * chat_history_token_ratio`,
      about 21k tokens by default).

    A message's own time in `additional_kwargs[time_key]` is its transaction time (one before
    the namespace's latest write: recorded now, valid since then); else now.

    Args:
        store: the bitemporal memory store.
        namespace: the namespace to recall from and remember into; None uses `user_id`.
        user_id: the user whose memory this is, when `namespace` is not given; with neither,
            "default" (a warning is logged once when several sessions write there).
        session: session of the stored messages (default: the `Memory` session id).
        basis: what to recall as of; None means "now" at each call. A `basis=` keyword passed
            to `Memory.get`/`aget` overrides it for that call.
        k: how many memories to recall.
        max_tokens: token budget of the rendered block.
        query_window: how many of the latest user messages form the recall query.
        remember_roles: roles of messages that become facts.
        take: `"every_turn"` or `"flushed"` (see above).
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
    take: Take = Field(default="every_turn", description="Remember every turn, or flushed.")
    time_key: str = Field(default="timestamp", description="additional_kwargs time key.")
    _store: MemoryStore = PrivateAttr()
    _watch: DefaultNamespaceWatch = PrivateAttr()

    def __init__(
        self,
        store: MemoryStore,
        *,
        name: str = "bitemporal_memory",
        namespace: str | None = None,
        user_id: str | None = None,
        session: str | None = None,
        basis: Basis | None = None,
        k: int = 10,
        max_tokens: int = 800,
        query_window: int = 1,
        remember_roles: Sequence[str] = (MessageRole.USER.value,),
        take: Take = "every_turn",
        time_key: str = "timestamp",
        **block_options: Any,
    ) -> None:
        chosen, defaulted = resolve_namespace(namespace, user_id)
        fields: dict[str, Any] = {
            "name": name,
            "namespace": chosen,
            "session": session,
            "basis": basis,
            "k": k,
            "max_tokens": max_tokens,
            "query_window": query_window,
            "remember_roles": tuple(remember_roles),
            "take": take,
            "time_key": time_key,
        }
        super().__init__(**fields, **block_options)
        self._store = store
        self._watch = DefaultNamespaceWatch(type(self).__name__, defaulted=defaulted)

    @property
    def store(self) -> MemoryStore:
        """The core store behind this block."""
        return self._store

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        """The memories relevant to the latest user messages, valid at the basis ("" if none);
        with `take="every_turn"`, then the messages not taken yet are stored."""
        messages = [without_session_mark(m) for m in messages or ()]
        session = self.session or block_kwargs.get("session_id")
        shown: list[str] = []
        start, after = len(messages), None
        kept = bool(messages) and await self._kept(session)
        if messages and (kept or self.take == "every_turn"):
            taken = await self._store.amessages(
                self.namespace, session=session, limit=len(messages)
            )
            start, shown = fresh(messages, taken)
            after = taken[-1].id if taken else None
        block = await self._recall(messages, shown, block_kwargs.get("basis"))
        if not kept and start < len(messages):
            await self._take(messages[start:], session, after)
        return block

    async def _recall(
        self, messages: list[ChatMessage], shown: list[str], basis: Basis | None
    ) -> str:
        query = query_text(messages, self.query_window)
        if not query:
            return ""
        pinned = resolve_basis(self.basis, basis)
        hits = await self._store.arecall(
            query, namespace=self.namespace, basis=pinned, k=self.k + len(shown)
        )
        in_history = set(shown)
        fresh_hits = [h for h in hits if h.fact.source not in in_history][: self.k]
        if not fresh_hits:
            return ""
        return render_context(
            fresh_hits,
            max_tokens=self.max_tokens,
            valid_at=pinned.valid_at,
            counter=await acounter(self._store),
        )

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Messages flushed out of `Memory`'s short-term queue: with `take="flushed"` those of
        `remember_roles` become facts; with `"every_turn"`, those not taken yet are taken."""
        session = self.session or (
            messages[0].additional_kwargs.get("session_id") if messages else None
        )
        if not messages or await self._kept(session):
            return
        cleaned = [without_session_mark(m) for m in messages]
        if self.take == "flushed":
            kept = [m for m in cleaned if MessageRole(m.role).value in self.remember_roles]
            await self._take(kept, session, None, fixed_ids=False)
            return
        taken = await self._store.amessages(self.namespace, session=session)
        start, _ = fresh(cleaned, taken)
        if start < len(cleaned):
            await self._take(cleaned[start:], session, taken[-1].id if taken else None)

    async def _kept(self, session: str | None) -> bool:
        """Whether a `BitemporalDBChatStore` keeps this session (then it stores the turns)."""
        return await akept_by_chat_store(self._store, self.namespace, session)

    async def _take(
        self,
        messages: Sequence[ChatMessage],
        session: str | None,
        after: str | None,
        *,
        fixed_ids: bool = True,
    ) -> None:
        """Store messages in order (ids that follow `after`, so a retry adds nothing)."""
        ids = turn_ids(self.namespace, session, after, len(messages)) if fixed_ids else None
        for i, message in enumerate(messages):
            await astore_turn(
                self._store,
                message,
                namespace=self.namespace,
                session=session,
                remember_roles=self.remember_roles,
                time_key=self.time_key,
                msg_id=None if ids is None else ids[i],
            )
            self._watch.wrote(session)
