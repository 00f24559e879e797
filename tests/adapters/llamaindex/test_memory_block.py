"""`BitemporalMemoryBlock` inside LlamaIndex's `Memory`: what reaches the LLM, and flushing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockLLMWithChatMemoryOfLastCall
from llama_index.core.memory import Memory
from sqlalchemy.ext.asyncio import create_async_engine

from bitemporal_core import Basis, MemoryStore
from llamaindex_bitemporal import BitemporalMemoryBlock

from .conftest import ALLERGY_NOW, LIKE_BELIEVED, LIKE_THEN, NS, ON_26, ON_28, t

R = TypeVar("R")


def with_memory(
    block: BitemporalMemoryBlock, body: Callable[[Memory], Awaitable[R]], **options: Any
) -> R:
    """Run `body` with a `Memory` holding `block`, closing its SQL engine afterwards."""

    async def run() -> R:
        engine = create_async_engine("sqlite+aiosqlite:///:memory:")
        memory = Memory.from_defaults(
            session_id="s1", memory_blocks=[block], async_engine=engine, **options
        )
        try:
            return await body(memory)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def injected(llm: MockLLMWithChatMemoryOfLastCall) -> list[tuple[str, str]]:
    assert llm.last_chat_messages is not None
    return [(m.role.value, m.content or "") for m in llm.last_chat_messages]


def chat_once(block: BitemporalMemoryBlock, question: str) -> list[tuple[str, str]]:
    """One `SimpleChatEngine.achat` turn; what the LLM was sent."""
    llm = MockLLMWithChatMemoryOfLastCall()

    async def body(memory: Memory) -> None:
        engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
        await engine.achat(question)

    with_memory(block, body)
    return injected(llm)


def test_injects_what_is_true_now(apples: MemoryStore) -> None:
    sent = chat_once(BitemporalMemoryBlock(apples, namespace=NS), "Can I eat apples?")
    system = sent[0][1]
    assert sent[0][0] == "system" and ALLERGY_NOW in system
    assert "<bitemporal_memory>" in system and "enjoy" not in system
    assert sent[-1] == ("user", "Can I eat apples?")


def test_as_of_a_basis(apples: MemoryStore) -> None:
    then = BitemporalMemoryBlock(apples, namespace=NS, basis=Basis(valid_at=ON_26))
    system = chat_once(then, "Can I eat apples?")[0][1]
    assert LIKE_THEN in system and "allergic" not in system
    believed = Basis(valid_at=ON_28, known_at=ON_26)  # what we believed on the 26th
    system = chat_once(BitemporalMemoryBlock(apples, namespace=NS, basis=believed), "apples?")[0][1]
    assert LIKE_BELIEVED in system and "allergic" not in system


def test_per_call_basis_and_nothing_to_say(apples: MemoryStore) -> None:
    block = BitemporalMemoryBlock(apples, namespace=NS)

    async def body(memory: Memory) -> list[list[ChatMessage]]:
        await memory.aput(ChatMessage(role="user", content="Can I eat apples?"))
        return [
            await memory.aget(),
            await memory.aget(basis=Basis(valid_at=ON_26)),
            await memory.aget(basis=Basis(valid_at=t("2020-01-01"))),
        ]

    now, then, before = with_memory(block, body)
    assert ALLERGY_NOW in (now[0].content or "")
    assert LIKE_THEN in (then[0].content or "")
    assert [m.role.value for m in before] == ["user"]  # no memories: no block at all


def test_flushed_messages_become_facts_with_their_time(store: MemoryStore) -> None:
    block = BitemporalMemoryBlock(store, namespace="bob")
    said = "2024-05-10T08:00:00+00:00"

    async def body(memory: Memory) -> list[ChatMessage]:
        await memory.aput(
            ChatMessage(
                role="user",
                content="I moved to Berlin last month.",
                additional_kwargs={"timestamp": said},
            )
        )
        await memory.aput(ChatMessage(role="assistant", content="Berlin is a lovely city."))
        await memory.aput(ChatMessage(role="user", content="Tell me about museums there."))
        await memory.aput(ChatMessage(role="assistant", content="Many."))
        return await memory.aget(input="Do I live in Berlin?")

    messages = with_memory(block, body, token_limit=40, chat_history_token_ratio=0.5)
    facts = store.snapshot("bob")
    berlin = next(f for f in facts if "Berlin" in f.text)
    assert berlin.recorded_at == t("2024-05-10T08:00")  # said then
    assert berlin.valid_from == t("2024-04-01")  # "last month", relative to when it was said
    assert (berlin.session, berlin.speaker) == ("s1", "user")
    assert not any("lovely" in f.text for f in facts)  # assistant turns are not facts
    assert "[since 2024-04-01] I moved to Berlin last month." in (messages[0].content or "")
    assert all("Berlin last month" not in (m.content or "") for m in messages[1:])  # flushed


def test_flushed_message_older_than_the_namespace(store: MemoryStore) -> None:
    """A time before the namespace's latest write is refused as a transaction time by the
    core; the fact is then recorded now and valid since the message's time."""
    store.remember("Paris is in France.", namespace="bob")
    block = BitemporalMemoryBlock(store, namespace="bob", session="chat")
    message = ChatMessage(
        role="user", content="I adopted a cat.", additional_kwargs={"timestamp": t("2024-01-02")}
    )
    asyncio.run(block.aput([message]))
    fact = next(f for f in store.snapshot("bob") if "cat" in f.text)
    assert fact.valid_from == t("2024-01-02") and fact.recorded_at > t("2025-01-01")
    assert fact.session == "chat"
