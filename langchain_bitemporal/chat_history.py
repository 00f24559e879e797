"""`BitemporalChatMessageHistory`: a LangChain chat message history backed by the store."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import BaseMessage

from bitemporal_core import MemoryStore, Turn

from ._common import message_text, role_of, to_langchain

__all__ = ["BitemporalChatMessageHistory"]


class BitemporalChatMessageHistory(BaseChatMessageHistory):
    """The messages of one session, in order, with facts extracted from what the user says.

    Every message is stored as a raw message of `namespace`/`session_id`; a message whose
    role is in `fact_roles` (default: the user's) is also remembered as facts whose source is
    that message (stored once, under its id). Works with `RunnableWithMessageHistory`.

    Messages without text (e.g. an AI message that only calls tools) are not stored; roles
    come back as `HumanMessage`, `AIMessage`, `SystemMessage` or `ChatMessage` (tool
    messages lose their tool-call id).

    Args:
        store: the memory store.
        session_id: the conversation; messages are kept in order per session.
        namespace: whose memory (facts are shared by all sessions of a namespace).
        fact_roles: stored roles whose messages become facts ("user", "assistant", ...).
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        session_id: str,
        namespace: str = "default",
        fact_roles: Sequence[str] = ("user",),
    ) -> None:
        self.store = store
        self.session_id = session_id
        self.namespace = namespace
        self.fact_roles = tuple(fact_roles)

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The session's messages, oldest first."""
        stored = self.store.messages(self.namespace, session=self.session_id)
        return [to_langchain(m) for m in stored]

    async def aget_messages(self) -> list[BaseMessage]:
        """The session's messages, oldest first (off the event loop)."""
        stored = await self.store.amessages(self.namespace, session=self.session_id)
        return [to_langchain(m) for m in stored]

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Store messages in order; the user's also become facts."""
        for message in messages:
            turn = self._turn(message)
            if turn is not None:
                self.store.add_turn(turn, namespace=self.namespace)

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Async twin of `add_messages`."""
        for message in messages:
            turn = self._turn(message)
            if turn is not None:
                await self.store.aadd_turn(turn, namespace=self.namespace)

    def clear(self) -> None:
        """Delete this session's messages (facts extracted from them stay; `store.forget`
        removes facts)."""
        self.store.delete_messages(self.namespace, session=self.session_id)

    async def aclear(self) -> None:
        """Async twin of `clear`."""
        await self.store.adelete_messages(self.namespace, session=self.session_id)

    def _turn(self, message: BaseMessage) -> Turn | None:
        """The turn that keeps `message` (remembered as facts if its role feeds the memory);
        None if it has no text."""
        text = message_text(message)
        if not text:
            return None
        role = role_of(message)
        return Turn(
            text=text,
            role=role,
            id=message.id,
            session=self.session_id,
            remember=role in self.fact_roles,
            speaker=message.name,
        )

    def __repr__(self) -> str:
        return (
            f"BitemporalChatMessageHistory(namespace={self.namespace!r}, "
            f"session_id={self.session_id!r})"
        )
