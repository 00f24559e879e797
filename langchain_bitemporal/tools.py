"""Memory tools for agents that manage their memory themselves: recall, remember, supersede,
correct, retract, history."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.runtime import get_runtime
from pydantic import BaseModel, Field

from bitemporal_core import (
    Basis,
    BitemporalError,
    Fact,
    Lineage,
    MemoryStore,
    ScopedStore,
    format_line,
)

from ._common import DefaultNamespaceWatch, Defaults, Scope, parse_time, resolve_scope

__all__ = ["TOOL_NAMES", "create_memory_tools"]

P = ParamSpec("P")
R = TypeVar("R")

TOOL_NAMES = (
    "recall_memories",
    "remember",
    "supersede_memory",
    "correct_memory",
    "retract_memory",
    "memory_history",
)

_TIME = "ISO-8601 date or time, e.g. 2024-06-05 or 2024-06-05T09:00:00Z (UTC if no zone)"


class _RecallArgs(BaseModel):
    query: str = Field(description="What to look for, in words.")
    valid_at: str | None = Field(None, description=f"True at this moment; default now. {_TIME}")
    known_at: str | None = Field(
        None, description=f"As the memory knew it at this moment; default now. {_TIME}"
    )


class _RememberArgs(BaseModel):
    text: str = Field(description="The fact(s) to remember, as plain sentences.")
    valid_from: str | None = Field(
        None, description=f"When it became true; default from the text, else now. {_TIME}"
    )
    valid_to: str | None = Field(None, description=f"When it stops being true. {_TIME}")


class _SupersedeArgs(BaseModel):
    fact_id: str = Field(description="The id of the memory that is no longer true.")
    text: str = Field(description="What is true instead, as a plain sentence.")
    valid_from: str | None = Field(None, description=f"Since when; default now. {_TIME}")


class _CorrectArgs(BaseModel):
    fact_id: str = Field(description="The id of the memory that was recorded wrongly.")
    text: str | None = Field(None, description="The corrected text, if the text was wrong.")
    valid_from: str | None = Field(None, description=f"The corrected start. {_TIME}")
    valid_to: str | None = Field(None, description=f"The corrected end. {_TIME}")


class _FactArgs(BaseModel):
    fact_id: str = Field(description="The id of a memory, as shown by recall_memories.")


def _errors(func: Callable[P, R]) -> Callable[P, R]:
    """Report the store's refusals to the model as tool errors."""

    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except BitemporalError as e:
            raise ToolException(str(e)) from e

    return run


def _line(fact: Fact, valid_at: datetime | None = None) -> str:
    past = valid_at is not None and fact.valid_to is not None and fact.valid_to <= valid_at
    return f"{format_line(fact, past=past)} [id: {fact.id}]"


def _interval(start: datetime, end: datetime | None, open_end: str) -> str:
    return f"{start.isoformat()} -> {end.isoformat() if end else open_end}"


def _history_text(lineage: Lineage) -> str:
    lines = [f"Memory {lineage.fact_id}, every version, oldest first:"]
    for v in lineage.versions:
        lines.append(
            f"- v{v.version}: {v.text} | valid {_interval(v.valid_from, v.valid_to, 'open')}"
            f" | believed {_interval(v.recorded_at, v.superseded_at, 'now')}"
        )
    if lineage.supersedes:
        lines.append(f"It replaced memory {lineage.supersedes}.")
    if lineage.superseded_by:
        lines.append(f"It was replaced by {', '.join(lineage.superseded_by)}.")
    return "\n".join(lines)


class _MemoryTools:
    """The tool functions, bound to a store and a default scope."""

    def __init__(self, store: MemoryStore, default: Defaults, k: int, keys: dict[str, str]) -> None:
        self.store, self.default, self.k, self.keys = store, default, k, keys
        self.watch = DefaultNamespaceWatch("create_memory_tools")

    def scope(self, config: RunnableConfig | None) -> Scope:
        """This run's scope: runtime context, then config, then the defaults."""
        try:
            context = get_runtime().context
        except (RuntimeError, KeyError, AttributeError):  # not inside a graph run
            context = None
        configurable = (config or {}).get("configurable")
        return resolve_scope(self.default, context, configurable, **self.keys)

    def tenant(self, config: RunnableConfig | None) -> tuple[Scope, ScopedStore]:
        """This run's scope and the store's handle on its namespace (on which another
        namespace's fact ids are unknown)."""
        scope = self.scope(config)
        return scope, self.store.scope(scope.namespace)

    @_errors
    def recall(
        self,
        query: str,
        valid_at: str | None = None,
        known_at: str | None = None,
        *,
        config: RunnableConfig,
    ) -> str:
        scope, memory = self.tenant(config)
        base = scope.basis or Basis()
        basis = Basis(
            valid_at=parse_time(valid_at, "valid_at", assume_utc=True) or base.valid_at,
            known_at=parse_time(known_at, "known_at", assume_utc=True) or base.known_at,
        ).resolved()
        hits = memory.recall(query, basis=basis, k=self.k)
        if not hits:
            return "No memories match that at this time."
        facts = sorted((h.fact for h in hits), key=lambda f: (f.valid_from, f.recorded_at))
        header = "Memories (each true during the period shown; most recent last):"
        return "\n".join([header, *(_line(f, basis.valid_at) for f in facts)])

    @_errors
    def remember(
        self,
        text: str,
        valid_from: str | None = None,
        valid_to: str | None = None,
        *,
        config: RunnableConfig,
    ) -> str:
        scope, memory = self.tenant(config)
        options: dict[str, Any] = {}
        if valid_to is not None:
            options["valid_to"] = parse_time(valid_to, "valid_to", assume_utc=True)
        facts = memory.remember(
            text,
            valid_from=parse_time(valid_from, "valid_from", assume_utc=True),
            speaker="agent",
            **options,
        )
        self.watch.wrote(scope)
        return "\n".join(["Remembered:", *(_line(f) for f in facts)])

    @_errors
    def supersede(
        self, fact_id: str, text: str, valid_from: str | None = None, *, config: RunnableConfig
    ) -> str:
        scope, memory = self.tenant(config)
        new = memory.supersede(
            fact_id,
            text,
            valid_from=parse_time(valid_from, "valid_from", assume_utc=True),
            speaker="agent",
        )
        self.watch.wrote(scope)
        return f"Memory {fact_id} ends where the new one starts:\n{_line(new)}"

    @_errors
    def correct(
        self,
        fact_id: str,
        text: str | None = None,
        valid_from: str | None = None,
        valid_to: str | None = None,
        *,
        config: RunnableConfig,
    ) -> str:
        _, memory = self.tenant(config)
        options: dict[str, Any] = {}
        if valid_to is not None:
            options["valid_to"] = parse_time(valid_to, "valid_to", assume_utc=True)
        fixed = memory.correct(
            fact_id,
            text=text,
            valid_from=parse_time(valid_from, "valid_from", assume_utc=True),
            **options,
        )
        return f"Corrected (version {fixed.version}):\n{_line(fixed)}"

    @_errors
    def retract(self, fact_id: str, *, config: RunnableConfig) -> str:
        closed = self.tenant(config)[1].retract(fact_id)
        return f"Retracted memory {fact_id} ({closed.text}); its history is kept."

    @_errors
    def history(self, fact_id: str, *, config: RunnableConfig) -> str:
        return _history_text(self.tenant(config)[1].history(fact_id))


_SPECS: dict[str, tuple[str, type[BaseModel], str]] = {
    "recall_memories": (
        "recall",
        _RecallArgs,
        "Look up what you remember about the user that is true now (or at `valid_at`, as "
        "known at `known_at`). Each memory shows when it is true and its id.",
    ),
    "remember": ("remember", _RememberArgs, "Remember a new fact about the user."),
    "supersede_memory": (
        "supersede",
        _SupersedeArgs,
        "A remembered fact stopped being true and something else is true instead: keep the "
        "old one as history and remember the new one from `valid_from`.",
    ),
    "correct_memory": (
        "correct",
        _CorrectArgs,
        "A remembered fact was recorded wrongly (wrong text or dates): record the fix.",
    ),
    "retract_memory": (
        "retract",
        _FactArgs,
        "A remembered fact was never true: stop believing it (its history is kept).",
    ),
    "memory_history": (
        "history",
        _FactArgs,
        "Every version of a memory: when it was true and when it was believed.",
    ),
}


def create_memory_tools(
    store: MemoryStore,
    *,
    namespace: str | None = None,
    basis: Basis | None = None,
    k: int = 10,
    include: Sequence[str] = TOOL_NAMES,
    namespace_key: str = "namespace",
    basis_key: str = "basis",
    user_key: str = "user_id",
) -> list[BaseTool]:
    """Tools that let an agent read and edit its memory (see `TOOL_NAMES`).

    The namespace is never a tool argument. It is `namespace_key` in the runtime context or
    the config's `configurable`; else `namespace`; else `user_key` (`user_id`) in the
    runtime context, then in `configurable`; else "default" (a warning is logged once when
    writes of several threads land there). Every tool acts through `store.scope(namespace)`,
    so a fact id from another namespace is reported as unknown. `basis` (None: now) is the
    default for recall. Errors from the store come back to the model as tool errors.
    """
    unknown = set(include) - set(TOOL_NAMES)
    if unknown:
        raise ValueError(f"unknown memory tools: {sorted(unknown)}")
    keys = {
        "namespace_key": namespace_key,
        "session_key": "session",
        "basis_key": basis_key,
        "user_key": user_key,
    }
    impl = _MemoryTools(store, Defaults(namespace=namespace, session=None, basis=basis), k, keys)
    return [_tool(impl, name) for name in TOOL_NAMES if name in include]


def _tool(impl: _MemoryTools, name: str) -> BaseTool:
    method, schema, description = _SPECS[name]
    func: Callable[..., str] = getattr(impl, method)

    async def coroutine(config: RunnableConfig, **kwargs: Any) -> str:
        """Run the tool off the event loop (it may call the store more than once)."""
        return await asyncio.to_thread(func, config=config, **kwargs)

    return StructuredTool.from_function(
        func=func,
        coroutine=coroutine,
        name=name,
        description=description,
        args_schema=schema,
        handle_tool_error=True,
    )
