"""Memory tools: direct calls and an agent that manages its memory through them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool

from bitemporal_core import Basis, MemoryStore
from langchain_bitemporal import TOOL_NAMES, create_memory_tools

from .fakes import ALLERGY, LIKE, THEN, RecordingChatModel, apples, t

ALICE = {"configurable": {"namespace": "alice"}}


def tools(store: MemoryStore, **kw: Any) -> dict[str, BaseTool]:
    return {tool.name: tool for tool in create_memory_tools(store, **kw)}


def call(name: str, args: dict[str, Any], id: str = "c1") -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": id}])


def test_tool_set_and_schemas(store: MemoryStore) -> None:
    got = tools(store)
    assert tuple(got) == TOOL_NAMES
    assert set(got["recall_memories"].args) == {"query", "valid_at", "known_at"}
    assert set(got["supersede_memory"].args) == {"fact_id", "text", "valid_from"}
    assert "namespace" not in str(got["remember"].args)
    assert list(tools(store, include=["recall_memories"])) == ["recall_memories"]
    with pytest.raises(ValueError, match="unknown"):
        create_memory_tools(store, include=["drop_database"])


def test_recall_now_then_and_as_believed(store: MemoryStore) -> None:
    _, allergy = apples(store)
    recall = tools(store)["recall_memories"]
    now = recall.invoke({"query": "apples"}, config=ALICE)
    assert ALLERGY in now and f"[id: {allergy.id}]" in now and LIKE not in now
    then = recall.invoke({"query": "apples", "valid_at": "2023-10-26T12:00:00Z"}, config=ALICE)
    assert LIKE in then and ALLERGY not in then
    believed = recall.invoke(
        {"query": "apples", "valid_at": "2023-10-28", "known_at": "2023-10-26T12:00"},
        config=ALICE,
    )
    assert LIKE in believed and "[since 2023-10-26]" in believed
    assert "No memories" in recall.invoke({"query": "apples"})  # default namespace is empty


def test_remember_supersede_correct_retract_history(store: MemoryStore) -> None:
    got = tools(store, namespace="alice")
    out = got["remember"].invoke({"text": "I live in Lyon.", "valid_from": "2020-01-01"})
    (fact,) = store.snapshot("alice")
    assert f"[id: {fact.id}]" in out and fact.valid_from == t("2020-01-01T00:00")
    out = got["supersede_memory"].invoke(
        {"fact_id": fact.id, "text": "I live in Paris.", "valid_from": "2024-03-01"}
    )
    (paris,) = store.snapshot("alice")
    assert paris.text == "I live in Paris." and paris.supersedes == fact.id
    got["correct_memory"].invoke({"fact_id": paris.id, "valid_from": "2024-02-01"})
    assert store.snapshot("alice")[0].valid_from == t("2024-02-01T00:00")
    history = got["memory_history"].invoke({"fact_id": fact.id})
    assert "I live in Lyon." in history and f"replaced by {paris.id}" in history
    assert "valid 2020-01-01T00:00:00+00:00 -> 2024-02-01T00:00:00+00:00" in history
    got["retract_memory"].invoke({"fact_id": paris.id})
    assert store.snapshot("alice") == []
    assert len(store.history(paris.id)) == 2 and store.history(paris.id).current is None


def test_other_namespaces_facts_are_unknown(store: MemoryStore) -> None:
    _, allergy = apples(store)
    got = tools(store, namespace="bob")
    for name in ("memory_history", "retract_memory"):
        assert "no fact with id" in got[name].invoke({"fact_id": allergy.id})
    out = got["supersede_memory"].invoke({"fact_id": allergy.id, "text": "x"})
    assert "no fact with id" in out
    assert store.history(allergy.id).current is not None  # untouched


def test_store_errors_reach_the_model(store: MemoryStore) -> None:
    _, allergy = apples(store)
    got = tools(store, namespace="alice")
    got["retract_memory"].invoke({"fact_id": allergy.id})
    out = got["correct_memory"].invoke({"fact_id": allergy.id, "text": "x"})
    assert "no current version" in out
    assert "ISO-8601" in got["remember"].invoke({"text": "x", "valid_from": "soon"})


def test_async_tools(store: MemoryStore) -> None:
    apples(store)
    got = tools(store, basis=Basis(valid_at=THEN))
    out = asyncio.run(got["recall_memories"].ainvoke({"query": "apples"}, config=ALICE))
    assert LIKE in out and ALLERGY not in out


@dataclass
class Ctx:
    namespace: str


def test_agent_manages_its_memory(store: MemoryStore) -> None:
    _, allergy = apples(store)
    model = RecordingChatModel(
        replies=[
            call("recall_memories", {"query": "apples"}),
            call(
                "supersede_memory",
                {
                    "fact_id": allergy.id,
                    "text": "I eat apples again.",
                    "valid_from": "2024-05-01",
                },
                id="c2",
            ),
            "Updated.",
        ]
    )
    agent = create_agent(model=model, tools=create_memory_tools(store), context_schema=Ctx)
    agent.invoke(
        {"messages": [{"role": "user", "content": "I'm not allergic anymore."}]},
        context=Ctx(namespace="alice"),
    )
    recalled = model.received[1][-1]
    assert isinstance(recalled, ToolMessage) and ALLERGY in str(recalled.content)
    assert "Memory " in str(model.received[2][-1].content)
    (now,) = store.snapshot("alice")
    assert now.text == "I eat apples again." and now.supersedes == allergy.id
    assert store.snapshot("alice", basis=Basis(valid_at=t("2024-01-01T00:00")))[0].text == ALLERGY
