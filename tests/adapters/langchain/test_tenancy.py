"""Which namespace a LangChain run works in: `user_id` from the frameworks' conventions, and
one warning when the turns of several threads land in the shared "default" namespace."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig

from bitemporal_core import MemoryStore
from langchain_bitemporal import (
    BitemporalMemoryMiddleware,
    BitemporalRetriever,
    create_memory_tools,
)

from .fakes import ALLERGY, RecordingChatModel, apples

QUESTION = {"messages": [{"role": "user", "content": "Can I eat apples?"}]}
WARNING = "several sessions land in the shared namespace 'default'"


@dataclass
class UserCtx:
    user_id: str


def run(
    store: MemoryStore,
    middleware: BitemporalMemoryMiddleware,
    *,
    context: object = None,
    configurable: dict[str, str] | None = None,
) -> RecordingChatModel:
    model = RecordingChatModel()
    agent = create_agent(model=model, tools=[], middleware=[middleware], context_schema=UserCtx)
    agent.invoke(QUESTION, {"configurable": configurable or {}}, context=context)
    return model


def namespaces_with_messages(store: MemoryStore) -> list[str]:
    return [ns for ns in store.namespaces() if store.messages(ns)]


def test_user_id_in_the_runtime_context_is_the_namespace(store: MemoryStore) -> None:
    apples(store, namespace="u-7")
    model = run(store, BitemporalMemoryMiddleware(store), context=UserCtx(user_id="u-7"))
    assert ALLERGY in model.system_texts()
    assert namespaces_with_messages(store) == ["u-7"]


def test_user_id_in_the_config(store: MemoryStore) -> None:
    apples(store, namespace="u-8")
    model = run(store, BitemporalMemoryMiddleware(store), configurable={"user_id": "u-8"})
    assert ALLERGY in model.system_texts()
    assert namespaces_with_messages(store) == ["u-8"]


def test_precedence(store: MemoryStore) -> None:
    # the runtime context's user_id wins over the config's
    run(
        store,
        BitemporalMemoryMiddleware(store),
        context=UserCtx(user_id="ctx"),
        configurable={"user_id": "conf", "thread_id": "t1"},
    )
    assert namespaces_with_messages(store) == ["ctx"]
    # the adapter's own namespace wins over user_id
    run(store, BitemporalMemoryMiddleware(store, namespace="fixed"), context=UserCtx("ctx2"))
    assert "fixed" in namespaces_with_messages(store)
    assert "ctx2" not in store.namespaces()
    # a namespace named for the run wins over both
    run(
        store,
        BitemporalMemoryMiddleware(store, namespace="fixed"),
        configurable={"namespace": "run-ns", "user_id": "conf"},
    )
    assert "run-ns" in namespaces_with_messages(store) and "conf" not in store.namespaces()


def test_one_warning_when_several_threads_share_default(
    store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    middleware = BitemporalMemoryMiddleware(store)
    caplog.set_level(logging.WARNING, logger="langchain_bitemporal")
    run(store, middleware, configurable={"thread_id": "t1"})
    run(store, middleware, configurable={"thread_id": "t1"})
    assert not caplog.records  # one thread alone: nothing to warn about
    run(store, middleware, configurable={"thread_id": "t2"})
    run(store, middleware, configurable={"thread_id": "t3"})
    warnings = [r for r in caplog.records if WARNING in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert "user_id" in warnings[0].getMessage()
    assert namespaces_with_messages(store) == ["default"]


def test_no_warning_when_default_is_chosen_or_users_are_named(
    store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="langchain_bitemporal")
    chosen = BitemporalMemoryMiddleware(store, namespace="default")
    named = BitemporalMemoryMiddleware(store)
    for thread in ("t1", "t2", "t3"):
        run(store, chosen, configurable={"thread_id": thread})
        run(store, named, configurable={"thread_id": thread, "user_id": f"user-{thread}"})
    assert not caplog.records


def test_tools_take_user_id_and_warn_once(
    store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    apples(store, namespace="u-9")
    tools = {t.name: t for t in create_memory_tools(store)}
    found = tools["recall_memories"].invoke(
        {"query": "apples"}, config={"configurable": {"user_id": "u-9"}}
    )
    assert ALLERGY in found
    caplog.set_level(logging.WARNING, logger="langchain_bitemporal")
    for thread in ("a", "b", "c"):
        tools["remember"].invoke(
            {"text": f"Thread {thread} likes tea."}, config={"configurable": {"thread_id": thread}}
        )
    assert len([r for r in caplog.records if WARNING in r.getMessage()]) == 1
    assert len(store.snapshot("default")) == 3


def test_tools_in_an_agent_take_user_id_from_the_context(store: MemoryStore) -> None:
    model = RecordingChatModel(
        replies=[
            AIMessage(
                content="",
                tool_calls=[{"name": "remember", "args": {"text": "I like figs."}, "id": "c1"}],
            ),
            "Noted.",
        ]
    )
    agent = create_agent(model=model, tools=create_memory_tools(store), context_schema=UserCtx)
    agent.invoke(
        {"messages": [{"role": "user", "content": "Remember figs."}]}, context=UserCtx("u-1")
    )
    assert [f.text for f in store.snapshot("u-1")] == ["I like figs."]
    assert store.snapshot("default") == []


def test_retriever_takes_user_id_from_the_config(store: MemoryStore) -> None:
    apples(store, namespace="u-3")
    retriever = BitemporalRetriever(store, k=2)
    docs = retriever.invoke("apples", config={"configurable": {"user_id": "u-3"}})
    assert [d.page_content for d in docs] == [ALLERGY]
    assert docs[0].metadata["concepts"] == ["apples"]  # the display form, not the stem
    assert retriever.invoke("apples") == []  # nothing named a namespace: "default" is empty
    fixed = BitemporalRetriever(store, namespace="u-3", k=2)
    assert [d.page_content for d in fixed.invoke("apples")] == [ALLERGY]


def test_retriever_async_takes_user_id(store: MemoryStore) -> None:
    apples(store, namespace="u-4")
    retriever = BitemporalRetriever(store, k=2)
    config: RunnableConfig = {"configurable": {"user_id": "u-4"}}
    docs = asyncio.run(retriever.ainvoke("apples", config=config))
    assert [d.page_content for d in docs] == [ALLERGY]
    assert docs[0].metadata["concepts"] == ["apples"]
