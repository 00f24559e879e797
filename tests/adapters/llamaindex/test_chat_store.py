"""`BitemporalChatStore`: LlamaIndex's chat store contract over the core's raw messages."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage, ImageBlock, TextBlock, ToolCallBlock
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms.mock import MockLLMWithChatMemoryOfLastCall
from llama_index.core.memory import ChatMemoryBuffer

from bitemporal_core import MemoryStore
from llamaindex_bitemporal import BitemporalChatStore


def conversation() -> list[ChatMessage]:
    """Plain messages and ones that only round-trip as JSON."""
    return [
        ChatMessage(role="system", content="You are terse."),
        ChatMessage(role="user", content="What do apples cost?"),
        ChatMessage(
            role="assistant",
            blocks=[
                ToolCallBlock(tool_call_id="c1", tool_name="price", tool_kwargs={"f": "apple"})
            ],
        ),
        ChatMessage(role="tool", content="2 EUR", additional_kwargs={"tool_call_id": "c1"}),
        ChatMessage(role="assistant", content="  Two euros.\n"),  # surrounding whitespace kept
        ChatMessage(
            role="user", blocks=[TextBlock(text="Look:"), ImageBlock(url="http://x/a.png")]
        ),
        ChatMessage(role="assistant", content=""),
    ]


def test_messages_round_trip_in_order(store: MemoryStore) -> None:
    chats = BitemporalChatStore(store, namespace="alice")
    for message in conversation():
        chats.add_message("s1", message)
    assert chats.get_messages("s1") == conversation()
    assert chats.get_messages("nobody") == []
    # plain messages are stored as plain text in the core (they are the provenance of facts)
    stored = store.messages("alice", session="s1")
    assert [(m.role, m.text) for m in stored[:2]] == [
        ("system", "You are terse."),
        ("user", "What do apples cost?"),
    ]


def test_keys_are_the_sessions_of_one_namespace(store: MemoryStore) -> None:
    alice = BitemporalChatStore(store, namespace="alice")
    bob = BitemporalChatStore(store, namespace="bob")
    alice.add_message("a", ChatMessage(role="user", content="one"))
    alice.add_message("b", ChatMessage(role="user", content="two"))
    alice.add_message("a", ChatMessage(role="assistant", content="three"))
    bob.add_message("c", ChatMessage(role="user", content="four"))
    assert alice.get_keys() == ["a", "b"]
    assert bob.get_keys() == ["c"]
    assert [m.content for m in alice.get_messages("a")] == ["one", "three"]
    assert bob.get_messages("a") == []


def test_set_and_delete(store: MemoryStore) -> None:
    chats = BitemporalChatStore(store)
    msgs = [ChatMessage(role="user", content=f"m{i}") for i in range(5)]
    chats.set_messages("k", msgs[:2])
    chats.set_messages("k", msgs)  # replaces
    assert chats.get_messages("k") == msgs
    assert chats.delete_message("k", 1) == msgs[1]
    assert chats.delete_message("k", 9) is None
    assert chats.delete_message("k", -1) == msgs[4]
    assert chats.delete_last_message("k") == msgs[3]
    assert chats.get_messages("k") == [msgs[0], msgs[2]]
    assert chats.delete_messages("k") == [msgs[0], msgs[2]]
    assert chats.delete_messages("k") is None
    assert chats.delete_last_message("k") is None
    assert chats.get_keys() == []


def test_async_twins(store: MemoryStore) -> None:
    chats = BitemporalChatStore(store)
    msgs = conversation()

    async def run() -> dict[str, Any]:
        await chats.aset_messages("k", msgs[:1])
        for message in msgs[1:]:
            await chats.async_add_message("k", message)
        out: dict[str, Any] = {"all": await chats.aget_messages("k")}
        out["keys"] = await chats.aget_keys()
        out["one"] = await chats.adelete_message("k", 1)
        out["last"] = await chats.adelete_last_message("k")
        out["rest"] = await chats.adelete_messages("k")
        out["none"] = await chats.adelete_messages("k")
        return out

    out = asyncio.run(run())
    assert out["all"] == msgs
    assert out["keys"] == ["k"]
    assert out["one"] == msgs[1]
    assert out["last"] == msgs[-1]
    assert out["rest"] == [msgs[0], *msgs[2:-1]]
    assert out["none"] is None


def test_async_methods_use_the_async_twins(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blocking store call from a coroutine would block the event loop."""
    chats = BitemporalChatStore(store, remember_roles=("user",))
    for name in ("messages", "add_message", "remember", "delete_messages", "sessions"):
        monkeypatch.setattr(store, name, _blocking(name))

    async def run() -> list[ChatMessage] | None:
        await chats.aset_messages("k", conversation())
        await chats.aget_keys()
        await chats.adelete_message("k", 0)
        await chats.adelete_last_message("k")
        return await chats.adelete_messages("k")

    assert asyncio.run(run()) == conversation()[1:-1]


def _blocking(name: str) -> Any:
    def fail(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"blocking MemoryStore.{name} called from a coroutine")

    return fail


def test_remember_roles_turn_messages_into_facts(store: MemoryStore) -> None:
    plain = BitemporalChatStore(store, namespace="plain")
    plain.add_message("k", ChatMessage(role="user", content="I am allergic to apples."))
    assert store.snapshot("plain") == []

    chats = BitemporalChatStore(store, namespace="alice", remember_roles=("user",))
    chats.add_message("k", ChatMessage(role="user", content="I am allergic to apples."))
    chats.add_message("k", ChatMessage(role="assistant", content="Noted: no apples."))
    rich = ChatMessage(role="user", content="My cat is Tom.", additional_kwargs={"lang": "en"})
    chats.add_message("k", rich)
    facts = store.snapshot("alice")
    assert sorted(f.text for f in facts) == ["I am allergic to apples.", "My cat is Tom."]
    assert {f.session for f in facts} == {"k"}
    ids = [m.id for m in store.messages("alice", session="k")]
    assert {f.source for f in facts} == {ids[0], ids[2]}  # facts point at their message
    assert chats.get_messages("k")[2] == rich  # stored once, round-trips


def test_backs_a_chat_memory_buffer(store: MemoryStore) -> None:
    """The chat store persists a `ChatMemoryBuffer` across engines (e.g. processes)."""
    llm = MockLLMWithChatMemoryOfLastCall()

    def engine() -> SimpleChatEngine:
        buffer = ChatMemoryBuffer.from_defaults(
            chat_store=BitemporalChatStore(store, namespace="alice"), chat_store_key="s1"
        )
        return SimpleChatEngine.from_defaults(llm=llm, memory=buffer)

    engine().chat("My name is Alice.")
    engine().chat("What is my name?")
    assert llm.last_chat_messages is not None
    sent = [(m.role.value, m.content) for m in llm.last_chat_messages]
    assert sent[0] == ("user", "My name is Alice.")
    assert sent[-1] == ("user", "What is my name?")
    assert store.sessions("alice") == ["s1"]
