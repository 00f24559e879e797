"""`BitemporalChatMessageHistory`: order, roles, facts from the user, clear, and
`RunnableWithMessageHistory` with a recording fake model."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import AIMessage, ChatMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables.history import RunnableWithMessageHistory

from bitemporal_core import MemoryStore
from langchain_bitemporal import BitemporalChatMessageHistory

from .fakes import RecordingChatModel


def history(store: MemoryStore, session: str = "s1") -> BitemporalChatMessageHistory:
    return BitemporalChatMessageHistory(store, session_id=session, namespace="alice")


def test_messages_in_order_with_their_types_and_ids(store: MemoryStore) -> None:
    h = history(store)
    sent = [
        SystemMessage(content="Be kind.", id="m0"),
        HumanMessage(content="I live in Lyon.", id="m1"),
        AIMessage(content="Lovely city.", id="m2"),
        ChatMessage(content="note", role="critic", id="m3"),
    ]
    h.add_messages(sent[:2])
    h.add_message(sent[2])
    h.add_messages(sent[3:])
    assert h.messages == sent
    assert [m.role for m in store.messages("alice", session="s1")] == [
        "system",
        "user",
        "assistant",
        "critic",
    ]


def test_facts_come_from_user_messages_stored_once(store: MemoryStore) -> None:
    h = history(store)
    h.add_messages(
        [HumanMessage(content="I live in Lyon. I own a bike.", id="u1"), AIMessage(content="Ok.")]
    )
    facts = store.snapshot("alice")
    assert sorted(f.text for f in facts) == ["I live in Lyon.", "I own a bike."]
    assert {(f.source, f.session, f.speaker) for f in facts} == {("u1", "s1", "user")}
    assert [m.id for m in store.messages("alice")].count("u1") == 1
    assert len(store.messages("alice")) == 2


def test_ids_are_generated_and_empty_messages_skipped(store: MemoryStore) -> None:
    h = history(store)
    tool_call = AIMessage(content="", tool_calls=[{"name": "x", "args": {}, "id": "c1"}])
    h.add_messages([HumanMessage(content="Hello there"), tool_call, AIMessage(content="Hi!")])
    got = h.messages
    assert [type(m) for m in got] == [HumanMessage, AIMessage]
    assert all(m.id for m in got) and got[0].id != got[1].id


def test_sessions_are_separate_and_clear_removes_only_the_session(store: MemoryStore) -> None:
    one, two = history(store, "s1"), history(store, "s2")
    one.add_user_message("I like tea.")
    two.add_user_message("I like coffee.")
    one.add_ai_message("Tea it is.")
    assert [m.text for m in one.messages] == ["I like tea.", "Tea it is."]
    one.clear()
    assert one.messages == []
    assert [m.text for m in two.messages] == ["I like coffee."]
    # Facts are the namespace's memory: clearing a chat keeps them.
    assert sorted(f.text for f in store.snapshot("alice")) == ["I like coffee.", "I like tea."]


def test_async_twins(store: MemoryStore) -> None:
    h = history(store)

    async def run() -> list[str]:
        await h.aadd_messages([HumanMessage(content="I am Ana."), AIMessage(content="Hi Ana.")])
        got = [str(m.text) for m in await h.aget_messages()]
        await h.aclear()
        assert await h.aget_messages() == []
        return got

    assert asyncio.run(run()) == ["I am Ana.", "Hi Ana."]
    assert [f.text for f in store.snapshot("alice")] == ["I am Ana."]


def test_fact_roles_option(store: MemoryStore) -> None:
    h = BitemporalChatMessageHistory(
        store, session_id="s", namespace="n", fact_roles=("user", "assistant")
    )
    h.add_messages([HumanMessage(content="I drink tea."), AIMessage(content="Green tea is ready.")])
    assert {f.speaker for f in store.snapshot("n")} == {"user", "assistant"}


# Deprecated in langchain-core 1.x in favour of LangGraph persistence, but still shipped.
@pytest.mark.filterwarnings(
    "ignore:RunnableWithMessageHistory is deprecated"
    ":langchain_core._api.LangChainDeprecationWarning"
)
def test_runnable_with_message_history(store: MemoryStore, model: RecordingChatModel) -> None:
    model.replies = ["Nice to meet you, Ana.", "You are Ana."]
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Be brief."), MessagesPlaceholder("history"), ("human", "{question}")]
    )

    def get_history(session_id: str) -> BaseChatMessageHistory:
        return BitemporalChatMessageHistory(store, session_id=session_id, namespace="alice")

    chain = RunnableWithMessageHistory(
        prompt | model,
        get_history,
        input_messages_key="question",
        history_messages_key="history",
    )
    config = {"configurable": {"session_id": "chat-1"}}
    chain.invoke({"question": "I am Ana."}, config=config)
    chain.invoke({"question": "Who am I?"}, config=config)
    second = [(type(m).__name__, m.text) for m in model.received[1]]
    assert second == [
        ("SystemMessage", "Be brief."),
        ("HumanMessage", "I am Ana."),
        ("AIMessage", "Nice to meet you, Ana."),
        ("HumanMessage", "Who am I?"),
    ]
    assert [m.role for m in store.messages("alice", session="chat-1")] == [
        "user",
        "assistant",
        "user",
        "assistant",
    ]
    # the question stays a message (memory formation): only the statement is a fact
    assert sorted(f.text for f in store.snapshot("alice")) == ["I am Ana."]
    asyncio.run(chain.ainvoke({"question": "Again?"}, config=config))
    assert len(model.received[2]) == 6
