"""A LangChain agent whose tools keep long-term memory in a `BitemporalStore` (`runtime.store`).

The agent saves what it learns under a key per topic; saving a key again supersedes the old
value, which stays in the store's history, and `store.as_of(basis)` reads what the agent knew
then. The model is a scripted fake, so this runs offline: swap in any chat model.

    python examples/langgraph_store_agent.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain.agents import create_agent
from langchain.tools import ToolRuntime
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool

from bitemporal_core import Basis, MemoryStore
from langchain_bitemporal import BitemporalStore


@dataclass
class Context:
    """Who the agent is talking to: their memories live in ("memories", user_id)."""

    user_id: str


@tool
def save_memory(topic: str, memory: str, runtime: ToolRuntime[Context]) -> str:
    """Remember something about the user under a one-word topic (replaces that topic)."""
    assert runtime.store is not None
    runtime.store.put(("memories", runtime.context.user_id), topic, {"content": memory})
    return f"Saved under {topic!r}."


@tool
def recall_memories(query: str, runtime: ToolRuntime[Context]) -> str:
    """Look up what you remember about the user."""
    assert runtime.store is not None
    items = runtime.store.search(("memories", runtime.context.user_id), query=query, limit=3)
    return "\n".join(f"- {i.key}: {i.value['content']}" for i in items) or "Nothing yet."


class ScriptedModel(FakeMessagesListChatModel):
    """A fake chat model that answers from a list and accepts tools."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:
        return self


def call(name: str, **args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"call-{name}"}])


def main(store: BitemporalStore | None = None) -> dict[str, Any]:
    """Three conversations with one user; returns what the example shows."""
    store = store or BitemporalStore(MemoryStore.embedded())
    model = ScriptedModel(
        responses=[
            call("save_memory", topic="diet", memory="The user is vegetarian."),
            AIMessage("Noted: vegetarian."),
            call("save_memory", topic="diet", memory="The user eats fish now."),
            AIMessage("Noted: you eat fish now."),
            call("recall_memories", query="What does the user eat?"),
            AIMessage("You eat fish."),
        ]
    )
    agent = create_agent(
        model, tools=[save_memory, recall_memories], store=store, context_schema=Context
    )
    alice = Context(user_id="alice")

    def say(text: str) -> list[Any]:
        messages = [{"role": "user", "content": text}]
        return list(agent.invoke({"messages": messages}, context=alice)["messages"])

    say("I'm vegetarian.")
    before = store.get(("memories", "alice"), "diet")
    assert before is not None
    say("Actually, I eat fish now.")
    answer = say("What do I eat?")
    then = store.as_of(Basis(known_at=before.updated_at)).get(("memories", "alice"), "diet")
    return {
        "recalled": answer[-2].content,  # the recall tool's result the model saw
        "answer": answer[-1].content,
        "now": store.get(("memories", "alice"), "diet"),
        "then": then,
        "history": [i.value["content"] for i in store.history(("memories", "alice"), "diet")],
    }


if __name__ == "__main__":
    shown = main()
    print("recalled:", shown["recalled"])  # - diet: The user eats fish now.
    print("now:", shown["now"].value)  # {'content': 'The user eats fish now.'}
    print("then:", shown["then"].value)  # {'content': 'The user is vegetarian.'}
    print("history:", shown["history"])  # both values, oldest first
