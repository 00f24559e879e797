"""`BitemporalMemory` with chat engines: what the LLM is sent, as of which basis."""

from __future__ import annotations

import asyncio

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import CondensePlusContextChatEngine, SimpleChatEngine
from llama_index.core.llms.mock import MockLLMWithChatMemoryOfLastCall

from bitemporal_core import Basis, MemoryStore
from llamaindex_bitemporal import BitemporalMemory, BitemporalRetriever

from .conftest import ALLERGY_NOW, LIKE_BELIEVED, LIKE_THEN, NS, ON_26, ON_28


def sent(llm: MockLLMWithChatMemoryOfLastCall) -> list[tuple[str, str]]:
    """(role, text) of each message of the LLM's last chat call."""
    assert llm.last_chat_messages is not None
    return [(m.role.value, m.content or "") for m in llm.last_chat_messages]


def test_simple_chat_engine_gets_what_is_true_now(apples: MemoryStore) -> None:
    llm = MockLLMWithChatMemoryOfLastCall()
    memory = BitemporalMemory(apples, namespace=NS, session="s1")
    engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory, system_prompt="Be brief.")
    engine.chat("Can I bake an apple pie?")
    prompt = sent(llm)
    assert prompt[0] == ("system", "Be brief.")
    assert prompt[1][0] == "system" and ALLERGY_NOW in prompt[1][1]
    assert "enjoy" not in prompt[1][1]
    assert prompt[2:] == [("user", "Can I bake an apple pie?")]
    roles = [m.role.value for m in memory.get_all()]
    assert roles == ["user", "assistant"]  # the turn is stored in the session


def test_as_of_filtering(apples: MemoryStore) -> None:
    llm = MockLLMWithChatMemoryOfLastCall()
    then = BitemporalMemory(apples, namespace=NS, session="then", basis=Basis(valid_at=ON_26))
    SimpleChatEngine.from_defaults(llm=llm, memory=then).chat("Can I eat apples?")
    block = sent(llm)[0][1]
    assert LIKE_THEN in block and "allergic" not in block

    believed = BitemporalMemory(
        apples, namespace=NS, session="believed", basis=Basis(valid_at=ON_28, known_at=ON_26)
    )
    SimpleChatEngine.from_defaults(llm=llm, memory=believed).chat("Can I eat apples?")
    block = sent(llm)[0][1]
    assert LIKE_BELIEVED in block and "allergic" not in block


def test_async_and_per_call_basis(apples: MemoryStore) -> None:
    llm = MockLLMWithChatMemoryOfLastCall()
    memory = BitemporalMemory(apples, namespace=NS)
    engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
    asyncio.run(engine.achat("Can I eat apples?"))
    assert ALLERGY_NOW in sent(llm)[0][1]
    then = asyncio.run(memory.aget(basis=Basis(valid_at=ON_26)))
    assert LIKE_THEN in (then[0].content or "")
    assert LIKE_THEN in (memory.get("apples?", basis=Basis(valid_at=ON_26))[0].content or "")


def test_user_messages_become_memories_of_later_sessions(store: MemoryStore) -> None:
    llm = MockLLMWithChatMemoryOfLastCall()
    first = BitemporalMemory(store, namespace=NS, session="monday")
    engine = SimpleChatEngine.from_defaults(llm=llm, memory=first)
    engine.chat("I adopted a cat called Tom.")
    engine.chat("Tom likes tuna.")
    # within the session, remembered lines are already in the history: not repeated
    assert [r for r, _ in sent(llm)] == ["user", "assistant", "user"]

    later = BitemporalMemory(store, namespace=NS, session="tuesday")
    SimpleChatEngine.from_defaults(llm=llm, memory=later).chat("What does my cat Tom eat?")
    role, block = sent(llm)[0]
    assert role == "system"
    assert "I adopted a cat called Tom. (user, event, said" in block
    assert "Tom likes tuna. (user, preference, said" in block
    assert sent(llm)[1:] == [("user", "What does my cat Tom eat?")]


def test_token_limit_keeps_the_newest_turns(store: MemoryStore) -> None:
    memory = BitemporalMemory(
        store, token_limit=30, max_tokens=10, remember_roles=(), tokenizer_fn=str.split
    )
    for i in range(6):
        memory.put(ChatMessage(role="user", content=f"question {i} with five words"))
        memory.put(ChatMessage(role="assistant", content=f"answer {i}"))
    texts = [m.content for m in memory.get()]
    assert texts == [
        "question 4 with five words",
        "answer 4",
        "question 5 with five words",
        "answer 5",
    ]
    texts = [m.content for m in memory.get(initial_token_count=7)]
    assert texts == ["question 5 with five words", "answer 5"]
    with pytest.raises(ValueError, match="exceeds token limit"):
        memory.get(initial_token_count=31)
    assert len(memory.get_all()) == 12


def test_set_reset_and_chat_history(apples: MemoryStore) -> None:
    llm = MockLLMWithChatMemoryOfLastCall()
    history = [
        ChatMessage(role="user", content="Hi, I'm Alice."),
        ChatMessage(role="assistant", content="Hello Alice."),
    ]
    memory = BitemporalMemory.from_defaults(apples, chat_history=history, namespace=NS)
    assert memory.get_all() == history
    engine = SimpleChatEngine.from_defaults(llm=llm, memory=memory)
    engine.chat("I like apples.", chat_history=history[:1])  # replaces the stored history
    assert [r for r, _ in sent(llm)] == ["system", "user", "user"]
    engine.reset()
    assert memory.get_all() == []
    assert asyncio.run(memory.aget_all()) == []
    asyncio.run(memory.aset(history))
    assert memory.get_all() == history
    asyncio.run(memory.areset())
    assert memory.get_all() == []
    assert [f.text for f in apples.snapshot(NS)][-1] == "I like apples."  # facts stay


def test_insert_into_the_user_message(apples: MemoryStore) -> None:
    memory = BitemporalMemory(apples, namespace=NS, insert="user")
    memory.put(ChatMessage(role="user", content="Can I eat apples?"))
    (message,) = memory.get()
    assert message.role.value == "user"
    assert (message.content or "").startswith("Memories (")
    assert ALLERGY_NOW in (message.content or "")
    assert (message.content or "").endswith("\n\nCan I eat apples?")
    assert memory.get_all()[0].content == "Can I eat apples?"  # stored unchanged


def test_condense_plus_context_engine(apples: MemoryStore) -> None:
    """The retriever answers as of the 26th; the memory says what is true now."""
    llm = MockLLMWithChatMemoryOfLastCall(is_chat_model=True)
    memory = BitemporalMemory(apples, namespace=NS)
    retriever = BitemporalRetriever(apples, namespace=NS, basis=Basis(valid_at=ON_26))
    engine = CondensePlusContextChatEngine.from_defaults(
        retriever=retriever, llm=llm, memory=memory
    )
    response = engine.chat("Can I eat apples?")
    prompt = sent(llm)
    context, block = prompt[0][1], prompt[1][1]
    assert "validity: 2023-10-26 -> 2023-10-27\n\nI enjoy eating apples." in context
    assert "allergic" not in context
    assert prompt[1][0] == "system" and ALLERGY_NOW in block
    assert prompt[-1] == ("user", "Can I eat apples?")
    assert [n.node.get_content() for n in response.source_nodes] == ["I enjoy eating apples."]

    asyncio.run(engine.achat("And apple juice?"))
    assert ALLERGY_NOW in sent(llm)[1][1]
    assert sent(llm)[-1] == ("user", "And apple juice?")
    assert [m.role.value for m in memory.get_all()] == ["user", "assistant"] * 2
