"""`BitemporalMemory` (classic `BaseMemory`): loading at a basis, saving both sides, clearing,
in an LCEL chain and a classic `LLMChain` with a recording fake model."""

from __future__ import annotations

import asyncio
import warnings
from operator import itemgetter

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from bitemporal_core import Basis, MemoryStore
from langchain_bitemporal import BitemporalMemory

from .fakes import ALLERGY, LIKE, THEN, RecordingChatModel, apples, t

ASK = {"input": "Can I eat apples?"}


def test_memory_variables(store: MemoryStore) -> None:
    assert BitemporalMemory(store).memory_variables == ["memories"]
    memory = BitemporalMemory(store=store, memory_key="facts", window=4, history_key="chat")
    assert memory.memory_variables == ["facts", "chat"]


def test_no_deprecation_warning_for_the_subclass(store: MemoryStore) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BitemporalMemory(store)


def test_load_renders_memories_valid_now(store: MemoryStore) -> None:
    apples(store)
    block = BitemporalMemory(store, namespace="alice").load_memory_variables(ASK)["memories"]
    assert block.startswith("Memories (")
    assert f"[since 2023-10-27] {ALLERGY}" in block
    assert LIKE not in block


def test_load_at_a_basis(store: MemoryStore) -> None:
    apples(store)
    then = BitemporalMemory(store, namespace="alice", basis=Basis(valid_at=THEN))
    block = then.load_memory_variables(ASK)["memories"]
    assert LIKE in block and ALLERGY not in block
    believed = BitemporalMemory(
        store, namespace="alice", basis=Basis(valid_at=t("2023-10-28T00:00"), known_at=THEN)
    )
    assert LIKE in believed.load_memory_variables(ASK)["memories"]


def test_return_messages_and_window(store: MemoryStore) -> None:
    apples(store)
    memory = BitemporalMemory(
        store, namespace="alice", session="s1", return_messages=True, window=2
    )
    memory.save_context({"input": "Hello there."}, {"output": "Hi!"})
    got = memory.load_memory_variables(ASK)
    (system,) = got["memories"]
    assert isinstance(system, SystemMessage) and ALLERGY in str(system.text)
    assert got["history"] == [
        HumanMessage(content="Hello there.", id=got["history"][0].id),
        AIMessage(content="Hi!", id=got["history"][1].id),
    ]
    memory.return_messages = False
    assert memory.load_memory_variables(ASK)["history"] == "Human: Hello there.\nAI: Hi!"


def test_save_context_stores_both_sides_in_order(store: MemoryStore) -> None:
    memory = BitemporalMemory(store, namespace="alice", session="s1")
    memory.save_context({"input": "I moved to Paris."}, {"output": "Welcome to Paris!"})
    user, ai = store.messages("alice", session="s1")
    assert (user.role, user.text, ai.role, ai.text) == (
        "user",
        "I moved to Paris.",
        "assistant",
        "Welcome to Paris!",
    )
    assert user.at < ai.at
    (fact,) = store.snapshot("alice")
    assert (fact.text, fact.source, fact.speaker, fact.session) == (
        "I moved to Paris.",
        user.id,
        "user",
        "s1",
    )
    assert fact.recorded_at == user.at
    block = memory.load_memory_variables({"input": "Where do I live? Paris?"})["memories"]
    assert "I moved to Paris." in block


def test_save_context_keys(store: MemoryStore) -> None:
    memory = BitemporalMemory(store, input_key="q", output_key="a", remember_outputs=True)
    memory.save_context({"q": "I like jazz.", "other": "x"}, {"a": "Jazz noted.", "b": "y"})
    assert {f.speaker for f in store.snapshot()} == {"user", "assistant"}
    with pytest.raises(ValueError, match="output_key"):
        BitemporalMemory(store).save_context({"input": "x"}, {"a": "1", "b": "2"})


def test_clear_forgets_the_namespace(store: MemoryStore) -> None:
    apples(store)
    apples(store, namespace="bob")
    memory = BitemporalMemory(store, namespace="alice")
    memory.clear()
    assert store.snapshot("alice") == [] and store.messages("alice") == []
    assert "Memories: none" in memory.load_memory_variables(ASK)["memories"]
    assert len(store.snapshot("bob")) == 1


def test_async_twins(store: MemoryStore) -> None:
    apples(store)
    memory = BitemporalMemory(store, namespace="alice", basis=Basis(valid_at=THEN))

    async def run() -> str:
        await memory.asave_context({"input": "Pears are fine too."}, {"output": "Ok."})
        block = (await memory.aload_memory_variables(ASK))["memories"]
        await memory.aclear()
        return block

    assert LIKE in asyncio.run(run())
    assert store.snapshot("alice") == []


def test_in_an_lcel_chain(store: MemoryStore, model: RecordingChatModel) -> None:
    apples(store)
    memory = BitemporalMemory(store, namespace="alice")
    prompt = ChatPromptTemplate.from_messages([("system", "{memories}"), ("human", "{input}")])
    load = RunnableLambda(memory.load_memory_variables) | itemgetter("memories")
    chain = RunnablePassthrough.assign(memories=load) | prompt | model
    reply = chain.invoke(ASK)
    memory.save_context(ASK, {"output": str(reply.text)})
    system, human = model.received[0]
    assert ALLERGY in str(system.text) and LIKE not in str(system.text)
    assert human.text == "Can I eat apples?"
    assert [m.role for m in store.messages("alice")][-2:] == ["user", "assistant"]


@pytest.mark.filterwarnings("ignore::langchain_core._api.LangChainDeprecationWarning")
def test_in_a_classic_llm_chain(store: MemoryStore, model: RecordingChatModel) -> None:
    from langchain_classic.chains import LLMChain

    apples(store)
    memory = BitemporalMemory(store, namespace="alice", basis=Basis(valid_at=THEN))
    prompt = ChatPromptTemplate.from_messages([("system", "{memories}"), ("human", "{input}")])
    chain = LLMChain(llm=model, prompt=prompt, memory=memory)
    chain.invoke(ASK)
    system = str(model.received[0][0].text)
    assert LIKE in system and ALLERGY not in system
    assert [m.text for m in store.messages("alice")][-2:] == ["Can I eat apples?", "ok"]
