"""`BitemporalStore` under real agents: the example's `create_agent` with tools on
`runtime.store`, and LangMem's memory tools (manage + search) driven by a scripted fake model."""

from __future__ import annotations

import asyncio
import json
import runpy
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from bitemporal_core import Basis, MemoryStore
from langchain_bitemporal import BitemporalStore

from ...conftest import ROOT


def test_the_example_agent_keeps_memories_in_the_store(store: MemoryStore) -> None:
    example = runpy.run_path(str(ROOT / "examples" / "langgraph_store_agent.py"))
    shown = example["main"](BitemporalStore(store))
    assert shown["recalled"] == "- diet: The user eats fish now."
    assert shown["answer"] == "You eat fish."
    assert shown["now"].value == {"content": "The user eats fish now."}
    assert shown["then"].value == {"content": "The user is vegetarian."}
    assert shown["history"] == ["The user is vegetarian.", "The user eats fish now."]


class ScriptedChatModel(BaseChatModel):
    """A fake chat model whose next message is computed from the conversation so far."""

    script: Callable[[list[BaseMessage]], AIMessage]

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.script(list(messages)))])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        return self


def _call(name: str, **args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"c-{name}"}])


def _langmem_script(messages: list[BaseMessage]) -> AIMessage:
    """Create on "I love", search then update on "switched", search then delete on "Forget"."""
    last = messages[-1]
    if isinstance(last, HumanMessage):
        text = str(last.content)
        if text.startswith("I love"):
            return _call("manage_memory", content="The user loves hiking.", action="create")
        return _call("search_memory", query="hobby hiking climbing")
    assert isinstance(last, ToolMessage)
    if last.name == "manage_memory":
        return AIMessage(f"Done ({last.content}).")
    hits = json.loads(str(last.content))
    asked = next(str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage))
    if asked.startswith("Forget"):
        return _call("manage_memory", action="delete", id=hits[0]["key"])
    return _call(
        "manage_memory", content="The user loves climbing.", action="update", id=hits[0]["key"]
    )


# LangMem 0.0.30 imports `Send` from its pre-1.0 place in LangGraph, which warns.
@pytest.mark.filterwarnings("ignore:Importing Send from langgraph.constants")
def test_langmem_memory_tools_run_on_the_store(store: MemoryStore) -> None:
    from langmem import create_manage_memory_tool, create_search_memory_tool

    kv = BitemporalStore(store)
    namespace = ("memories", "{langgraph_user_id}")
    agent = create_agent(
        ScriptedChatModel(script=_langmem_script),
        tools=[create_manage_memory_tool(namespace), create_search_memory_tool(namespace)],
        store=kv,
    )
    config = {"configurable": {"langgraph_user_id": "u1"}}
    ns = ("memories", "u1")

    def say(text: str) -> None:
        agent.invoke({"messages": [{"role": "user", "content": text}]}, config)

    say("I love hiking.")
    (created,) = kv.search(ns)
    assert created.value == {"content": "The user loves hiking."}
    say("I switched to climbing.")
    (updated,) = kv.search(ns, query="climbing")
    assert updated.key == created.key and updated.value == {"content": "The user loves climbing."}
    assert updated.score is not None and updated.created_at == created.created_at
    (fact,) = kv.fact_ids(ns, created.key)
    lineage = store.history(fact)
    assert store.history(str(lineage.supersedes)).versions[0].text == "The user loves hiking."

    messages = [{"role": "user", "content": "Forget my hobby."}]
    asyncio.run(agent.ainvoke({"messages": messages}, config))  # LangMem's async tools
    assert kv.search(ns) == [] and kv.get(ns, created.key) is None
    then = kv.as_of(Basis(known_at=updated.updated_at))
    assert then.get(ns, created.key).value == {"content": "The user loves climbing."}  # type: ignore[union-attr]
    assert [i.value["content"] for i in kv.history(ns, created.key)] == [
        "The user loves hiking.",
        "The user loves climbing.",
    ]
