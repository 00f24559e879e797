"""`BitemporalMemory` with the workflow agents (`agent.run(user_msg, memory=...)`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent, ReActAgent
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLMWithChatMemoryOfLastCall
from llama_index.core.tools import FunctionTool

from bitemporal_core import Basis, MemoryStore
from llamaindex_bitemporal import BitemporalMemory

from .conftest import ALLERGY_NOW, LIKE_THEN, NS, ON_26

# Raised by llama-index-core/llama-index-workflows themselves, not by the adapters: building
# a workflow agent runs `inspect.getmembers` over a pydantic model (deprecated attribute
# access), and `ReActAgent.take_step` reads `ctx.is_running` inside a step.
pytestmark = [
    pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20:inspect"),
    pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince211:inspect"),
    pytest.mark.filterwarnings("ignore:is_running called from within a step:DeprecationWarning"),
]


def fruit_price(fruit: str = "apple") -> str:
    """The price of a fruit."""
    return f"{fruit}: 2 EUR a kilo"


def sent(llm: MockFunctionCallingLLMWithChatMemoryOfLastCall) -> list[ChatMessage]:
    assert llm.last_chat_messages is not None
    return list(llm.last_chat_messages)


def test_function_agent_with_a_tool_call(apples: MemoryStore) -> None:
    # Without a recorded tool result the mock calls every tool; with one, it answers.
    llm = MockFunctionCallingLLMWithChatMemoryOfLastCall()
    agent = FunctionAgent(
        tools=[FunctionTool.from_defaults(fruit_price)], llm=llm, system_prompt="Help."
    )
    memory = BitemporalMemory(apples, namespace=NS, session="agent")

    async def run() -> tuple[Any, list[ChatMessage], Any, list[ChatMessage]]:
        first = await agent.run(user_msg="What do apples cost?", memory=memory)
        prompt = sent(llm)
        second = await agent.run(user_msg="Can I eat apples?", memory=memory)
        return first, prompt, second, sent(llm)

    first, prompt, second, prompt2 = asyncio.run(run())
    assert str(first) == "Tool calls complete."
    assert [m.role.value for m in prompt] == ["system", "system", "user", "assistant", "tool"]
    assert ALLERGY_NOW in (prompt[1].content or "")
    assert isinstance(prompt[3].blocks[0], ToolCallBlock)
    assert prompt[4].content == "apple: 2 EUR a kilo"
    # the whole turn, tool call and result included, round-trips through the store
    stored = memory.get_all()
    roles = ["user", "assistant", "tool", "assistant", "user", "assistant"]
    assert [m.role.value for m in stored] == roles
    assert stored[1] == prompt[3] and stored[2] == prompt[4]
    assert str(second) == "Tool calls complete."  # the mock saw the stored tool result
    assert [m.role.value for m in prompt2][:2] == ["system", "system"]
    assert ALLERGY_NOW in (prompt2[1].content or "")
    assert prompt2[-1].content == "Can I eat apples?"


def run_agent(agent: ReActAgent, question: str, memory: BitemporalMemory) -> Any:
    async def run() -> Any:
        return await agent.run(user_msg=question, memory=memory)

    return asyncio.run(run())


def react_llm() -> MockFunctionCallingLLMWithChatMemoryOfLastCall:
    """A mock that always answers in the ReAct format."""

    def answer(messages: Any, **kwargs: Any) -> ChatMessage:
        return ChatMessage(role="assistant", content="Thought: I know.\nAnswer: No apples.")

    return MockFunctionCallingLLMWithChatMemoryOfLastCall(response_generator=answer)


def test_react_agent_as_of_a_basis(apples: MemoryStore) -> None:
    llm = react_llm()
    agent = ReActAgent(tools=[FunctionTool.from_defaults(fruit_price)], llm=llm, system_prompt="Hi")
    memory = BitemporalMemory(apples, namespace=NS, basis=Basis(valid_at=ON_26))
    result = run_agent(agent, "Can I eat apples?", memory)
    assert str(result) == "No apples."
    prompt = sent(llm)
    assert prompt[0].role.value == "system" and "Hi" in (prompt[0].content or "")  # ReAct header
    assert prompt[1].role.value == "system" and LIKE_THEN in (prompt[1].content or "")
    assert "allergic" not in (prompt[1].content or "")
    assert prompt[-1].content == "Can I eat apples?"
    assert [m.content for m in memory.get_all()] == [
        "Can I eat apples?",
        "Thought: I know.\nAnswer: No apples.",
    ]


def test_react_agent_without_system_prompt_needs_user_insertion(apples: MemoryStore) -> None:
    """ReActAgent drops a leading system message (it folds its own system prompt into the
    ReAct header), so without a `system_prompt` the memories go into the user message."""
    llm = react_llm()
    agent = ReActAgent(tools=[FunctionTool.from_defaults(fruit_price)], llm=llm)
    memory = BitemporalMemory(apples, namespace=NS, insert="user")
    run_agent(agent, "Can I eat apples?", memory)
    prompt = sent(llm)
    assert [m.role.value for m in prompt] == ["system", "user"]
    assert ALLERGY_NOW in (prompt[1].content or "")
    assert (prompt[1].content or "").endswith("Can I eat apples?")
