"""`BitemporalMemory`: the classic LangChain `BaseMemory` (langchain_classic) over the store."""

from __future__ import annotations

from typing import Any, Literal

from langchain_classic.base_memory import BaseMemory
from langchain_classic.memory.utils import get_prompt_input_key
from langchain_core.messages import BaseMessage, SystemMessage, get_buffer_string

from bitemporal_core import Basis, MemoryStore, Message, Turn, render_context

from ._common import message_text, to_langchain

__all__ = ["BitemporalMemory"]


class BitemporalMemory(BaseMemory):
    """Memories valid at a basis, for chains that take a classic `memory=`.

    `load_memory_variables` recalls what is relevant to the input and valid at `basis`
    (None: now, at each call) and renders it as the prompt block under `memory_key` (a
    `SystemMessage` holding it when `return_messages`); with `window > 0` the last `window`
    messages of the session come too, under `history_key`. `save_context` stores both sides
    in order, each at its own transaction time: the input as facts (its message kept as
    their source), the output as a message (and facts too with `remember_outputs`).
    `clear` forgets the namespace physically.

    Example:
        ```python
        memory = BitemporalMemory(store, namespace="alice", session="s1")
        memory.load_memory_variables({"input": "Can I eat apples?"})["memories"]
        ```
    """

    store: MemoryStore
    namespace: str = "default"
    session: str | None = None
    basis: Basis | None = None
    k: int = 30
    max_tokens: int = 800
    mode: Literal["hybrid", "recallm"] = "hybrid"
    memory_key: str = "memories"
    history_key: str = "history"
    window: int = 0
    input_key: str | None = None
    output_key: str | None = None
    return_messages: bool = False
    remember_outputs: bool = False
    human_prefix: str = "Human"
    ai_prefix: str = "AI"

    def __init__(self, store: MemoryStore | None = None, /, **data: Any) -> None:
        """Build from a store (positional or `store=`) and keyword-only options."""
        if store is not None:
            data["store"] = store
        super().__init__(**data)

    @property
    def memory_variables(self) -> list[str]:
        """The memory block's key, and the history's when `window > 0`."""
        return [self.memory_key, self.history_key] if self.window else [self.memory_key]

    # --- load -----------------------------------------------------------------------------
    def load_memory_variables(self, inputs: dict[str, Any]) -> dict[str, Any]:
        """The memories relevant to the input, valid and known at the basis."""
        query = self._query(inputs)
        block = (
            self.store.context(query, **self._recall_options())
            if query
            else render_context([], max_tokens=self.max_tokens)
        )
        recent = self._recent() if self.window else None
        return self._variables(block, recent)

    async def aload_memory_variables(self, inputs: dict[str, Any]) -> dict[str, Any]:
        """Async twin of `load_memory_variables`."""
        query = self._query(inputs)
        block = (
            await self.store.acontext(query, **self._recall_options())
            if query
            else render_context([], max_tokens=self.max_tokens)
        )
        recent = await self._arecent() if self.window else None
        return self._variables(block, recent)

    def _recall_options(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "basis": self.basis,
            "max_tokens": self.max_tokens,
            "k": self.k,
            "mode": self.mode,
        }

    def _recent(self) -> list[Message]:
        return self.store.messages(self.namespace, session=self.session, limit=self.window)

    async def _arecent(self) -> list[Message]:
        return await self.store.amessages(self.namespace, session=self.session, limit=self.window)

    def _variables(self, block: str, recent: list[Message] | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            self.memory_key: [SystemMessage(content=block)] if self.return_messages else block
        }
        if recent is not None:
            history = [to_langchain(m) for m in recent]
            out[self.history_key] = (
                history
                if self.return_messages
                else get_buffer_string(
                    history, human_prefix=self.human_prefix, ai_prefix=self.ai_prefix
                )
            )
        return out

    def _query(self, inputs: dict[str, Any]) -> str:
        key = self.input_key or get_prompt_input_key(inputs, self.memory_variables)
        return _as_text(inputs[key])

    # --- save -----------------------------------------------------------------------------
    def save_context(self, inputs: dict[str, Any], outputs: dict[str, str]) -> None:
        """Store the input (as facts) and then the output, each at its own time."""
        for turn in self._turns(inputs, outputs):
            self.store.add_turn(turn, namespace=self.namespace)

    async def asave_context(self, inputs: dict[str, Any], outputs: dict[str, str]) -> None:
        """Async twin of `save_context`."""
        for turn in self._turns(inputs, outputs):
            await self.store.aadd_turn(turn, namespace=self.namespace)

    def _turns(self, inputs: dict[str, Any], outputs: dict[str, Any]) -> list[Turn]:
        """The turns of one exchange, input first (remembered as facts), then the output."""
        sides = [
            ("user", self._query(inputs), True),
            ("assistant", _as_text(outputs[self._output_key(outputs)]), self.remember_outputs),
        ]
        return [
            Turn(text=text, role=role, session=self.session, remember=as_facts)
            for role, text, as_facts in sides
            if text
        ]

    def _output_key(self, outputs: dict[str, Any]) -> str:
        if self.output_key is not None:
            return self.output_key
        if len(outputs) == 1:
            return next(iter(outputs))
        if "output" in outputs:
            return "output"
        raise ValueError(
            f"got several output keys {sorted(outputs)}; set output_key to the one to store"
        )

    # --- clear ----------------------------------------------------------------------------
    def clear(self) -> None:
        """Physically forget the namespace: every fact and message, nothing remains."""
        self.store.forget(namespace=self.namespace)

    async def aclear(self) -> None:
        """Async twin of `clear`."""
        await self.store.aforget(namespace=self.namespace)


def _as_text(value: Any) -> str:
    """Chain values as text: strings as they are, messages by their text."""
    if isinstance(value, BaseMessage):
        return message_text(value)
    if isinstance(value, list) and value and isinstance(value[-1], BaseMessage):
        return message_text(value[-1])
    return str(value).strip()
