"""`BitemporalMemory`: a LlamaIndex `BaseMemory` for chat engines and workflow agents."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
from llama_index.core.memory.types import BaseMemory
from llama_index.core.utils import get_tokenizer

from bitemporal_core import Basis, Hit, MemoryStore, Message, TokenCounter, render_context

from ._convert import (
    acounter,
    astore_message,
    from_record,
    message_text,
    query_text,
    resolve_basis,
    store_message,
)
from ._tenancy import DefaultNamespaceWatch, resolve_namespace

__all__ = ["BitemporalMemory"]

DEFAULT_TOKEN_LIMIT = 3000


class BitemporalMemory(BaseMemory):
    """Chat history of one session plus the memories valid at a basis, for LlamaIndex.

    `get` returns the session's latest messages within `token_limit`, preceded by a system
    message with the memories relevant to the input (else the latest user message), valid
    and known at the basis, rendered chronologically with their validity. Memories already
    in the returned history (same source message) are not repeated. `put` stores each
    message; user messages (`remember_roles`) also become facts. Works with
    `SimpleChatEngine`, `CondensePlusContextChatEngine` (`memory=`) and the workflow agents
    (`agent.run(user_msg, memory=...)`).

    Args:
        store: the bitemporal memory store.
        namespace: the namespace of messages and memories; None uses `user_id`.
        user_id: the user whose memory this is, when `namespace` is not given; with neither,
            "default" (a warning is logged once when several sessions write there).
        session: the chat session (one history per session).
        basis: what to recall as of; None means "now" at each call. `get(basis=...)`
            overrides it for one call. The chat history itself is never filtered.
        k: how many memories to recall.
        max_tokens: token budget of the memory block (reserved within `token_limit`).
        token_limit: token budget of memory block plus history.
        remember_roles: roles whose messages become facts.
        insert: where the memories go: a leading "system" message or the latest "user" one.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    namespace: str = Field(default="default", description="Namespace of the memory.")
    session: str = Field(default="default", description="Chat session (history key).")
    basis: Basis | None = Field(default=None, exclude=True, description="Recall basis.")
    k: int = Field(default=10, gt=0, description="Memories to recall.")
    max_tokens: int = Field(default=800, gt=0, description="Token budget of the memories.")
    token_limit: int = Field(default=DEFAULT_TOKEN_LIMIT, gt=0, description="Total budget.")
    remember_roles: tuple[str, ...] = Field(
        default=(MessageRole.USER.value,), description="Roles remembered as facts."
    )
    insert: Literal["system", "user"] = Field(default="system", description="Where to inject.")
    tokenizer_fn: Callable[[str], list[Any]] = Field(
        default_factory=get_tokenizer, exclude=True, description="Token counter for history."
    )
    _store: MemoryStore = PrivateAttr()
    _watch: DefaultNamespaceWatch = PrivateAttr()

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        session: str = "default",
        basis: Basis | None = None,
        k: int = 10,
        max_tokens: int = 800,
        token_limit: int = DEFAULT_TOKEN_LIMIT,
        remember_roles: Sequence[str] = (MessageRole.USER.value,),
        insert: Literal["system", "user"] = "system",
        tokenizer_fn: Callable[[str], list[Any]] | None = None,
    ) -> None:
        chosen, defaulted = resolve_namespace(namespace, user_id)
        fields: dict[str, Any] = {
            "namespace": chosen,
            "session": session,
            "basis": basis,
            "k": k,
            "max_tokens": max_tokens,
            "token_limit": token_limit,
            "remember_roles": tuple(remember_roles),
            "insert": insert,
            "tokenizer_fn": tokenizer_fn or get_tokenizer(),
        }
        super().__init__(**fields)
        self._store = store
        self._watch = DefaultNamespaceWatch(type(self).__name__, defaulted=defaulted)

    @classmethod
    def class_name(cls) -> str:
        """Name used in serialization."""
        return "BitemporalMemory"

    @classmethod
    def from_defaults(
        cls,
        store: MemoryStore | None = None,
        chat_history: list[ChatMessage] | None = None,
        llm: Any = None,
        **options: Any,
    ) -> BitemporalMemory:
        """A memory over `store` (default: a new in-memory embedded store), seeded with
        `chat_history`; `llm` is accepted for compatibility and unused."""
        memory = cls(store or MemoryStore.embedded(), **options)
        if chat_history:
            memory.set(chat_history)
        return memory

    @property
    def store(self) -> MemoryStore:
        """The core store behind this memory."""
        return self._store

    # --- assembling the prompt ----------------------------------------------------------
    def _tokens(self, message: ChatMessage) -> int:
        return len(self.tokenizer_fn(message_text(message) or message.model_dump_json()))

    def _window(
        self, records: Sequence[Message], initial_token_count: int
    ) -> tuple[list[ChatMessage], set[str]]:
        """The latest messages within budget (never starting with an assistant or tool turn
        after trimming; at least the newest one) and their stored ids."""
        if initial_token_count > self.token_limit:
            raise ValueError("Initial token count exceeds token limit")
        messages = [from_record(r) for r in records]
        budget = self.token_limit - initial_token_count - self.max_tokens
        costs = [self._tokens(m) for m in messages]
        count = len(messages)
        while count > 1 and sum(costs[-count:]) > budget:
            count -= 1
            while count > 1 and messages[-count].role in (MessageRole.TOOL, MessageRole.ASSISTANT):
                count -= 1
        kept = messages[-count:] if count else []
        return kept, {r.id for r in records[len(records) - len(kept) :]}

    def _render(self, hits: list[Hit], shown: set[str], basis: Basis, counter: TokenCounter) -> str:
        fresh = [h for h in hits if h.fact.source not in shown][: self.k]
        if not fresh:
            return ""
        return render_context(
            fresh, max_tokens=self.max_tokens, valid_at=basis.valid_at, counter=counter
        )

    def _inject(self, history: list[ChatMessage], block: str) -> list[ChatMessage]:
        if not block:
            return history
        if self.insert == "user":
            for i in range(len(history) - 1, -1, -1):
                if history[i].role == MessageRole.USER:
                    message = history[i].model_copy(deep=True)
                    message.blocks = [TextBlock(text=block + "\n\n"), *message.blocks]
                    return [*history[:i], message, *history[i + 1 :]]
        return [ChatMessage(role=MessageRole.SYSTEM, content=block), *history]

    @staticmethod
    def _query(input: str | ChatMessage | None, history: list[ChatMessage]) -> str:
        if isinstance(input, ChatMessage):
            return message_text(input)
        return input or query_text(history)

    # --- BaseMemory -----------------------------------------------------------------------
    def get(
        self,
        input: str | ChatMessage | None = None,
        initial_token_count: int = 0,
        **kwargs: Any,
    ) -> list[ChatMessage]:
        """History within budget, preceded by the memories relevant to `input` (default: the
        latest user message) at the basis (`basis=` overrides it for this call)."""
        records = self._store.messages(self.namespace, session=self.session)
        history, shown = self._window(records, initial_token_count)
        query = self._query(input, history)
        if not query.strip():
            return history
        basis = resolve_basis(self.basis, kwargs.get("basis"))
        hits = self._store.recall(
            query, namespace=self.namespace, basis=basis, k=self.k + len(shown)
        )
        return self._inject(history, self._render(hits, shown, basis, self._store.counter))

    async def aget(
        self,
        input: str | ChatMessage | None = None,
        initial_token_count: int = 0,
        **kwargs: Any,
    ) -> list[ChatMessage]:
        """Async twin of `get` (the store's async twins, off the event loop)."""
        records = await self._store.amessages(self.namespace, session=self.session)
        history, shown = self._window(records, initial_token_count)
        query = self._query(input, history)
        if not query.strip():
            return history
        basis = resolve_basis(self.basis, kwargs.get("basis"))
        hits = await self._store.arecall(
            query, namespace=self.namespace, basis=basis, k=self.k + len(shown)
        )
        counter = await acounter(self._store)
        return self._inject(history, self._render(hits, shown, basis, counter))

    def get_all(self) -> list[ChatMessage]:
        """Every message of the session, oldest first."""
        return [from_record(r) for r in self._store.messages(self.namespace, session=self.session)]

    async def aget_all(self) -> list[ChatMessage]:
        """Async twin of `get_all`."""
        records = await self._store.amessages(self.namespace, session=self.session)
        return [from_record(r) for r in records]

    def put(self, message: ChatMessage) -> None:
        """Store a message in the session (user messages also become facts)."""
        self._put(message, self.remember_roles)

    async def aput(self, message: ChatMessage) -> None:
        """Async twin of `put`."""
        await astore_message(
            self._store,
            message,
            namespace=self.namespace,
            session=self.session,
            remember_roles=self.remember_roles,
        )
        self._watch.wrote(self.session)

    async def aput_messages(self, messages: list[ChatMessage]) -> None:
        """Store several messages, in order."""
        for message in messages:
            await self.aput(message)

    def set(self, messages: list[ChatMessage]) -> None:
        """Replace the session's messages (raw messages only; remembered facts stay)."""
        self._store.delete_messages(self.namespace, session=self.session)
        for message in messages:
            self._put(message, ())

    async def aset(self, messages: list[ChatMessage]) -> None:
        """Async twin of `set`."""
        await self._store.adelete_messages(self.namespace, session=self.session)
        for message in messages:
            await astore_message(
                self._store, message, namespace=self.namespace, session=self.session
            )

    def reset(self) -> None:
        """Delete the session's messages; facts stay (use `store.forget` to erase them)."""
        self._store.delete_messages(self.namespace, session=self.session)

    async def areset(self) -> None:
        """Async twin of `reset`."""
        await self._store.adelete_messages(self.namespace, session=self.session)

    def _put(self, message: ChatMessage, roles: Sequence[str]) -> None:
        store_message(
            self._store,
            message,
            namespace=self.namespace,
            session=self.session,
            remember_roles=roles,
        )
        self._watch.wrote(self.session)
