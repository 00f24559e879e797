"""LlamaIndex's `Memory`, natively: `BitemporalDBChatStore` as its chat store, and the memory
block taking every turn as it arrives (or, on request, only what `Memory` flushes)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockLLMWithChatMemoryOfLastCall
from llama_index.core.memory import Memory
from llama_index.core.storage.chat_store.base_db import MessageStatus
from sqlalchemy.ext.asyncio import create_async_engine

from bitemporal_core import InvalidInput, MemoryStore
from llamaindex_bitemporal import (
    BitemporalDBChatStore,
    BitemporalMemory,
    BitemporalMemoryBlock,
    BitemporalRetriever,
)
from llamaindex_bitemporal.db_chat_store import ARCHIVE_SESSION

from .conftest import t

R = TypeVar("R")
TURNS = ["I am allergic to apples.", "My sister Anna lives in Lyon.", "I started learning piano."]


def user(text: str, **kwargs: Any) -> ChatMessage:
    return ChatMessage(role="user", content=text, additional_kwargs=kwargs)


def assistant(text: str) -> ChatMessage:
    return ChatMessage(role="assistant", content=text)


def chat(memory: Memory, questions: list[str]) -> MockLLMWithChatMemoryOfLastCall:
    """One `SimpleChatEngine` turn per question; the LLM remembers what it was last sent."""
    llm = MockLLMWithChatMemoryOfLastCall()
    engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)

    async def run() -> None:
        for question in questions:
            await engine.achat(question)

    asyncio.run(run())
    return llm


def with_sql_memory(body: Callable[[Memory], Awaitable[R]], **options: Any) -> R:
    """Run `body` with a `Memory` on LlamaIndex's own SQL chat store (closed afterwards)."""

    async def run() -> R:
        engine = create_async_engine("sqlite+aiosqlite:///:memory:")
        memory = Memory.from_defaults(session_id="s1", async_engine=engine, **options)
        try:
            return await body(memory)
        finally:
            await engine.dispose()

    return asyncio.run(run())


# --- the chat store in Memory ------------------------------------------------------------------


def test_memory_takes_the_chat_store_and_remembers_every_turn(store: MemoryStore) -> None:
    chats = BitemporalDBChatStore(store, user_id="alice")
    memory = Memory.from_defaults(
        session_id="chat-1",
        chat_store=chats,
        memory_blocks=[BitemporalMemoryBlock(store, user_id="alice")],
    )
    chat(memory, TURNS)
    facts = store.snapshot("alice")
    assert sorted(f.text for f in facts) == sorted(TURNS)  # three turns, three facts
    stored = store.messages("alice", session="chat-1")
    assert [m.role for m in stored] == ["user", "assistant"] * 3  # each message once
    assert {f.source for f in facts} <= {m.id for m in stored}  # the message is the source
    assert [m.content for m in memory.get_all()][::2] == TURNS
    # What the short-term history still holds is not repeated as a memory...
    llm = chat(memory, ["Can I bake an apple pie?"])
    assert llm.last_chat_messages is not None
    assert llm.last_chat_messages[-1].content == "Can I bake an apple pie?"
    assert all("<bitemporal_memory>" not in (m.content or "") for m in llm.last_chat_messages)
    # ...and another session of the same user recalls it.
    later = Memory.from_defaults(
        session_id="chat-2",
        chat_store=chats,
        memory_blocks=[BitemporalMemoryBlock(store, user_id="alice")],
    )
    llm = chat(later, ["Can I bake an apple pie?"])
    assert llm.last_chat_messages is not None
    system = llm.last_chat_messages[0]
    assert system.role.value == "system" and "I am allergic to apples." in (system.content or "")


def test_short_term_queue_archives_and_the_block_shows_what_left_it(store: MemoryStore) -> None:
    chats = BitemporalDBChatStore(store, namespace="bob")
    block = BitemporalMemoryBlock(store, namespace="bob")
    memory = Memory.from_defaults(
        session_id="s1",
        chat_store=chats,
        memory_blocks=[block],
        token_limit=60,
        chat_history_token_ratio=0.5,
        token_flush_size=10,
    )

    async def run() -> list[ChatMessage]:
        await memory.aput(user("I moved to Berlin last month."))
        await memory.aput(assistant("Berlin is a lovely city, with many museums to see."))
        await memory.aput(user("Tell me about the museums there, in some detail please."))
        await memory.aput(assistant("There are many of them, on an island in the river."))
        return await memory.aget(input="Do I live in Berlin?")

    messages = asyncio.run(run())
    archived = asyncio.run(chats.get_messages("s1", status=MessageStatus.ARCHIVED))
    active = asyncio.run(chats.get_messages("s1"))
    assert archived and archived[0].content == "I moved to Berlin last month."
    assert [m.content for m in archived + active] == [
        m.content for m in asyncio.run(chats.get_messages("s1", status=None))
    ]
    assert len(store.messages("bob", session="s1")) == 4  # archiving keeps them all, once
    assert [f.text for f in store.snapshot("bob")].count("I moved to Berlin last month.") == 1
    system = messages[0].content or ""
    assert "I moved to Berlin last month." in system  # left the short-term queue: recalled
    assert all("Berlin last month" not in (m.content or "") for m in messages[1:])


def test_chat_store_contract(tmp_path: Path) -> None:
    path = tmp_path / "memory.lbdb"
    with MemoryStore.embedded(path) as store:
        chats = BitemporalDBChatStore(store, namespace="c", remember_roles=())

        async def fill() -> None:
            await chats.set_messages("k", [user("one"), assistant("two"), user("three")])
            await chats.add_messages("k", [assistant("four"), user("five")])
            assert await chats.archive_oldest_messages("k", 2) == [user("one"), assistant("two")]
            await chats.add_message("other", user("six"))

        asyncio.run(fill())
    with MemoryStore.embedded(path) as store:  # the archive mark is stored, not held
        chats = BitemporalDBChatStore(store, namespace="c")

        async def check() -> None:
            texts = [m.content for m in await chats.get_messages("k")]
            assert texts == ["three", "four", "five"]
            assert await chats.count_messages("k", status=MessageStatus.ARCHIVED) == 2
            assert await chats.count_messages("k", status=None) == 5
            page = await chats.get_messages("k", status=None, offset=1, limit=2)
            assert [m.content for m in page] == ["two", "three"]
            assert await chats.get_keys() == ["k", "other"]  # the marks' session is no key
            assert await chats.delete_message("k", 0) == user("one")
            assert await chats.delete_oldest_messages("k", 1) == [user("three")]
            await chats.delete_messages("k", status=MessageStatus.ACTIVE)
            assert [m.content for m in await chats.get_messages("k", status=None)] == ["two"]
            await chats.delete_messages("k")
            assert await chats.count_messages("k", status=None) == 0
            assert await chats.delete_message("k", 0) is None

        asyncio.run(check())
        assert store.snapshot("c") == []  # remember_roles=(): chat history only
        assert all(json_mark not in m.text for m in store.messages("c") for json_mark in ['"k"'])


def test_archived_messages_come_first(store: MemoryStore) -> None:
    chats = BitemporalDBChatStore(store, namespace="d")

    async def run() -> None:
        await chats.add_messages("k", [user("old")], status=MessageStatus.ARCHIVED)
        await chats.add_message("k", user("new"))
        with pytest.raises(InvalidInput, match="active messages"):
            await chats.add_message("k", user("late"), status=MessageStatus.ARCHIVED)
        with pytest.raises(InvalidInput, match="reserved"):
            await chats.add_message(ARCHIVE_SESSION, user("x"))
        assert [m.content for m in await chats.get_messages("k")] == ["new"]
        assert [m.content for m in await chats.get_messages("k", status=None)] == ["old", "new"]

    asyncio.run(run())
    assert sorted(m.text for m in store.messages("d", session="k")) == ["new", "old"]


# --- the block on LlamaIndex's own chat store ---------------------------------------------------


def test_block_takes_every_turn_once_by_default(store: MemoryStore) -> None:
    block = BitemporalMemoryBlock(store, namespace="e")

    async def body(memory: Memory) -> None:
        for text in TURNS:
            await memory.aput(user(text))
            await memory.aget()
            await memory.aget()  # reading again takes nothing twice
            await memory.aput(assistant("Noted."))
        await memory.aget()

    with_sql_memory(body, memory_blocks=[block])
    assert sorted(f.text for f in store.snapshot("e")) == sorted(TURNS)
    stored = store.messages("e", session="s1")
    assert [m.role for m in stored] == ["user", "assistant"] * 3
    assert all(f.session == "s1" and f.speaker == "user" for f in store.snapshot("e"))


def test_a_repeated_message_is_a_new_turn(store: MemoryStore) -> None:
    block = BitemporalMemoryBlock(store, namespace="f")

    async def body(memory: Memory) -> None:
        for text in ("I live in Paris.", "I live in Lyon.", "I live in Paris."):
            await memory.aput(user(text))
            await memory.aget()
            await memory.aput(assistant("OK"))
        await memory.aget()

    with_sql_memory(body, memory_blocks=[block])
    texts = [m.text for m in store.messages("f", session="s1")]
    assert texts == ["I live in Paris.", "OK", "I live in Lyon.", "OK", "I live in Paris.", "OK"]


def test_every_turn_at_its_own_time(store: MemoryStore) -> None:
    block = BitemporalMemoryBlock(store, namespace="g")

    async def body(memory: Memory) -> None:
        await memory.aput(user("I moved to Berlin last month.", timestamp="2024-05-10T08:00Z"))
        await memory.aget()

    with_sql_memory(body, memory_blocks=[block])
    (fact,) = store.snapshot("g")
    assert fact.recorded_at == t("2024-05-10T08:00") and fact.valid_from == t("2024-04-01")


def test_flushed_only_on_request(store: MemoryStore) -> None:
    block = BitemporalMemoryBlock(store, namespace="h", take="flushed")

    async def body(memory: Memory) -> None:
        for text in TURNS:
            await memory.aput(user(text))
            await memory.aget()
            await memory.aput(assistant("Noted."))

    with_sql_memory(body, memory_blocks=[block])
    assert store.snapshot("h") == []  # nothing was flushed: LlamaIndex's own contract
    assert store.messages("h") == []


# --- tenancy ------------------------------------------------------------------------------------


def test_user_id_names_the_namespace_and_namespace_wins(store: MemoryStore) -> None:
    assert BitemporalMemoryBlock(store, user_id="u1").namespace == "u1"
    assert BitemporalMemoryBlock(store, user_id="u1", namespace="n").namespace == "n"
    assert BitemporalMemoryBlock(store).namespace == "default"
    assert BitemporalDBChatStore(store, user_id="u2").namespace == "u2"
    assert BitemporalMemory(store, user_id="u3").namespace == "u3"
    store.remember("I am allergic to apples.", namespace="u4")
    retriever = BitemporalRetriever(store, user_id="u4")
    (found,) = retriever.retrieve("apples")
    assert found.node.get_content() == "I am allergic to apples."
    assert found.node.metadata["concepts"] == ["apples"]  # the display form, not 'appl'
    (again,) = asyncio.run(retriever.aretrieve("apples"))
    assert again.node.metadata["concepts"] == ["apples"]


def test_one_warning_when_sessions_share_default(
    store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="llamaindex_bitemporal")
    shared = BitemporalDBChatStore(store)
    named = BitemporalDBChatStore(store, user_id="carol")
    chosen = BitemporalDBChatStore(store, namespace="default")

    async def run() -> None:
        for key in ("a", "b", "c"):
            await named.add_message(key, user(f"Session {key} of carol."))
            await chosen.add_message(key, user(f"Session {key}, chosen default."))
        assert not caplog.records
        await shared.add_message("a", user("First user."))
        await shared.add_message("a", user("First user again."))
        assert not caplog.records
        await shared.add_message("b", user("Second user."))
        await shared.add_message("c", user("Third user."))

    asyncio.run(run())
    warnings = [r for r in caplog.records if "shared namespace 'default'" in r.getMessage()]
    assert len(warnings) == 1 and "user_id" in warnings[0].getMessage()
