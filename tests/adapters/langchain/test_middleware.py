"""`BitemporalMemoryMiddleware` in a real `create_agent` graph with a recording fake model."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool

from bitemporal_core import Basis, MemoryStore
from langchain_bitemporal import BitemporalMemoryMiddleware

from .fakes import ALLERGY, LIKE, THEN, RecordingChatModel, apples, t

QUESTION = {"messages": [{"role": "user", "content": "Can I eat apples?"}]}


@dataclass
class Ctx:
    namespace: str
    session: str | None = None


def agent_with(model: RecordingChatModel, middleware: BitemporalMemoryMiddleware, **kw: object):
    return create_agent(model=model, tools=[], middleware=[middleware], **kw)


def test_injects_current_memories_into_the_system_prompt(
    store: MemoryStore, model: RecordingChatModel
) -> None:
    apples(store)
    mw = BitemporalMemoryMiddleware(store, namespace="alice")
    agent_with(model, mw, system_prompt="You are a cook.").invoke(QUESTION)
    (received,) = model.received
    assert isinstance(received[0], SystemMessage)
    system = str(received[0].text)
    assert system.startswith("You are a cook.\n\nMemories (")
    assert f"- [since 2023-10-27] {ALLERGY}" in system
    assert LIKE not in system  # superseded: not valid now
    assert isinstance(received[-1], HumanMessage)


def test_without_system_prompt_the_block_is_the_system_message(
    store: MemoryStore, model: RecordingChatModel
) -> None:
    apples(store)
    agent_with(model, BitemporalMemoryMiddleware(store, namespace="alice")).invoke(QUESTION)
    first = model.received[0][0]
    assert isinstance(first, SystemMessage)
    assert str(first.text).startswith("Memories (")


def test_as_of_basis_is_honoured(store: MemoryStore, model: RecordingChatModel) -> None:
    apples(store)
    mw = BitemporalMemoryMiddleware(store, namespace="alice", basis=Basis(valid_at=THEN))
    agent_with(model, mw).invoke(QUESTION)
    system = model.system_texts()
    assert LIKE in system
    assert ALLERGY not in system


def test_known_at_basis_shows_what_was_believed_then(
    store: MemoryStore, model: RecordingChatModel
) -> None:
    apples(store)
    basis = Basis(valid_at=t("2023-10-28T00:00"), known_at=THEN)
    agent_with(model, BitemporalMemoryMiddleware(store, namespace="alice", basis=basis)).invoke(
        QUESTION
    )
    system = model.system_texts()
    assert LIKE in system and "(no longer true)" not in system
    assert ALLERGY not in system


def test_namespace_from_runtime_context(store: MemoryStore, model: RecordingChatModel) -> None:
    apples(store, namespace="bob")
    mw = BitemporalMemoryMiddleware(store, namespace="alice")
    agent = agent_with(model, mw, context_schema=Ctx)
    agent.invoke(QUESTION, context=Ctx(namespace="bob", session="s9"))
    assert ALLERGY in model.system_texts()
    (stored,) = [m for m in store.messages("bob") if m.text == "Can I eat apples?"]
    assert stored.session == "s9"
    assert store.messages("alice") == []


def test_namespace_and_session_from_config(store: MemoryStore, model: RecordingChatModel) -> None:
    apples(store, namespace="bob")
    mw = BitemporalMemoryMiddleware(store, namespace="alice")
    config = {"configurable": {"namespace": "bob", "thread_id": "thread-1"}}
    agent_with(model, mw).invoke(QUESTION, config=config)
    assert ALLERGY in model.system_texts()
    assert [m.role for m in store.messages("bob", session="thread-1")] == ["user", "assistant"]


def test_stores_the_turn_after_the_model(store: MemoryStore, model: RecordingChatModel) -> None:
    model.replies = ["Sure, noted."]
    mw = BitemporalMemoryMiddleware(store, namespace="alice", session="s1")
    out = agent_with(model, mw).invoke(
        {"messages": [{"role": "user", "content": "I moved to Paris last year."}]}
    )
    human, ai = out["messages"]
    # The current message is not injected as a memory of itself.
    assert "Paris" not in model.system_texts()
    stored = store.messages("alice", session="s1")
    assert [(m.id, m.role, m.text) for m in stored] == [
        (human.id, "user", "I moved to Paris last year."),
        (ai.id, "assistant", "Sure, noted."),
    ]
    (fact,) = store.snapshot("alice")
    assert fact.source == human.id and fact.speaker == "user" and fact.session == "s1"
    # The next turn sees it.
    agent_with(model, mw).invoke({"messages": [{"role": "user", "content": "Where is Paris?"}]})
    assert "I moved to Paris last year." in model.system_texts()


def test_tool_loop_injects_every_call_and_stores_the_user_once(
    store: MemoryStore, model: RecordingChatModel
) -> None:
    apples(store)

    @tool
    def menu() -> str:
        """Today's menu."""
        return "apple pie"

    call = AIMessage(content="", tool_calls=[{"name": "menu", "args": {}, "id": "c1"}])
    model.replies = [call, "Skip the pie."]
    mw = BitemporalMemoryMiddleware(store, namespace="alice")
    agent = create_agent(model=model, tools=[menu], middleware=[mw])
    agent.invoke(QUESTION)
    assert len(model.received) == 2
    assert all(ALLERGY in model.system_texts(i) for i in (0, 1))
    new = [m for m in store.messages("alice") if m.at > t("2024-01-01T00:00")]
    assert [(m.role, m.text) for m in new] == [
        ("user", "Can I eat apples?"),
        ("assistant", "Skip the pie."),
    ]
    # a question is kept as a message, once, not as a fact (memory formation)
    assert "Can I eat apples?" not in [f.text for f in store.snapshot("alice")]


def test_remember_replies_and_no_replies(store: MemoryStore, model: RecordingChatModel) -> None:
    model.replies = ["Your cat is called Tom."]
    mw = BitemporalMemoryMiddleware(store, namespace="a", remember_replies=True)
    agent_with(model, mw).invoke({"messages": [{"role": "user", "content": "My cat is Tom."}]})
    assert {f.speaker for f in store.snapshot("a")} == {"user", "assistant"}
    mw = BitemporalMemoryMiddleware(store, namespace="b", store_replies=False)
    agent_with(model, mw).invoke({"messages": [{"role": "user", "content": "My dog is Rex."}]})
    assert [m.role for m in store.messages("b")] == ["user"]


def test_async_agent(store: MemoryStore, model: RecordingChatModel) -> None:
    apples(store)
    mw = BitemporalMemoryMiddleware(store, namespace="alice", basis=Basis(valid_at=THEN))
    agent = agent_with(model, mw, system_prompt="Be brief.")
    asyncio.run(agent.ainvoke(QUESTION))
    system = model.system_texts()
    assert system.startswith("Be brief.") and LIKE in system and ALLERGY not in system
    assert [m.text for m in store.messages("alice")][-2:] == ["Can I eat apples?", "ok"]


def test_list_content_system_message_gets_a_text_block(
    store: MemoryStore, model: RecordingChatModel
) -> None:
    apples(store)
    system = SystemMessage(content=[{"type": "text", "text": "You are a cook."}])
    mw = BitemporalMemoryMiddleware(store, namespace="alice")
    agent_with(model, mw, system_prompt=system).invoke(QUESTION)
    content = model.received[0][0].content
    assert isinstance(content, list) and content[0] == {"type": "text", "text": "You are a cook."}
    assert ALLERGY in content[-1]["text"]


def test_basis_per_run_from_a_mapping_context(
    store: MemoryStore, model: RecordingChatModel
) -> None:
    apples(store)
    agent = agent_with(model, BitemporalMemoryMiddleware(store))
    agent.invoke(QUESTION, context={"namespace": "alice", "basis": Basis(valid_at=THEN)})
    system = model.system_texts()
    assert LIKE in system and ALLERGY not in system
    agent.invoke(QUESTION, context={"namespace": "alice"})
    assert ALLERGY in model.system_texts()
