"""`BitemporalMemoryMiddleware`: memory for `langchain.agents.create_agent`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain.agents.middleware.types import ExtendedModelResponse
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.config import get_config

from bitemporal_core import Basis, MemoryStore, Turn

from ._common import DefaultNamespaceWatch, Defaults, Scope, message_text, resolve_scope

__all__ = ["BitemporalMemoryMiddleware"]

_Result = ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]


class BitemporalMemoryMiddleware(AgentMiddleware):
    """Injects the memories valid at the basis before every model call; stores each new turn.

    Before a model call the memories relevant to the last user message, valid and known at
    the basis, are rendered as the prompt block and appended to the system message (one is
    created if the agent has none). After the model answers, a user message seen for the
    first time (no AI reply after it yet) is remembered as facts, and the AI reply's text is
    stored as a message (as facts too with `remember_replies`).

    The namespace of a run (see README, "Tenancy"): `namespace` in the runtime context
    (`context=` given to `invoke`; a mapping or an object with that attribute) or in the
    config's `configurable`; else the `namespace` given here; else `user_id` in the runtime
    context, then in `configurable`; else "default" (a warning is logged once when turns of
    several threads land there). The session and basis come from the context, else from
    `configurable` (its `thread_id` standing in for the session), else from the options here.

    Args:
        store: the memory store.
        namespace: this agent's namespace; None takes it from each run (`user_id`).
        session: default session.
        basis: default basis; None means now, at each model call.
        k: memories recalled per call, before the token budget.
        max_tokens: budget of the injected block.
        mode: recall mode, "hybrid" or "recallm".
        store_replies: keep the AI replies as messages.
        remember_replies: also remember the AI replies as facts.
        namespace_key, session_key, basis_key, user_key: names looked up in context and
            config.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: str | None = None,
        session: str | None = None,
        basis: Basis | None = None,
        k: int = 30,
        max_tokens: int = 800,
        mode: Literal["hybrid", "recallm"] = "hybrid",
        store_replies: bool = True,
        remember_replies: bool = False,
        namespace_key: str = "namespace",
        session_key: str = "session",
        basis_key: str = "basis",
        user_key: str = "user_id",
    ) -> None:
        super().__init__()
        self.store = store
        self.default = Defaults(namespace=namespace, session=session, basis=basis)
        self.watch = DefaultNamespaceWatch(type(self).__name__)
        self.k = k
        self.max_tokens = max_tokens
        self.mode: Literal["hybrid", "recallm"] = mode
        self.store_replies = store_replies
        self.remember_replies = remember_replies
        self.keys = {
            "namespace_key": namespace_key,
            "session_key": session_key,
            "basis_key": basis_key,
            "user_key": user_key,
        }
        self.tools = []

    # --- hooks ----------------------------------------------------------------------------
    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> _Result:
        """Inject the memory block, call the model, then store the new turn."""
        human = _last_human(request.messages)
        if human is None:
            return handler(request)
        scope = self.scope(request)
        block = self.store.context(message_text(human), **self._recall_options(scope))
        response = handler(_inject(request, block))
        for turn in self._turns(scope, request.messages, human, response):
            self.store.add_turn(turn, namespace=scope.namespace)
            self.watch.wrote(scope)
        return response

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> _Result:
        """Async twin of `wrap_model_call` (the store runs off the event loop)."""
        human = _last_human(request.messages)
        if human is None:
            return await handler(request)
        scope = self.scope(request)
        block = await self.store.acontext(message_text(human), **self._recall_options(scope))
        response = await handler(_inject(request, block))
        for turn in self._turns(scope, request.messages, human, response):
            await self.store.aadd_turn(turn, namespace=scope.namespace)
            self.watch.wrote(scope)
        return response

    # --- scope and writes -----------------------------------------------------------------
    def scope(self, request: ModelRequest[Any]) -> Scope:
        """The namespace, session and basis of this run (context, then config, then ours)."""
        runtime = request.runtime
        context = getattr(runtime, "context", None)
        try:
            configurable = get_config().get("configurable")
        except RuntimeError:  # called outside a graph run
            configurable = None
        return resolve_scope(self.default, context, configurable, **self.keys)

    def _recall_options(self, scope: Scope) -> dict[str, Any]:
        return {
            "namespace": scope.namespace,
            "basis": scope.basis,
            "k": self.k,
            "max_tokens": self.max_tokens,
            "mode": self.mode,
        }

    def _turns(
        self,
        scope: Scope,
        messages: Sequence[AnyMessage],
        human: HumanMessage,
        response: _Result,
    ) -> list[Turn]:
        """The turns to store after a model call, in order: the user message if this call is
        its first, then the replies (if kept)."""
        turns: list[Turn] = []
        if _is_new_turn(messages, human):
            text = message_text(human)
            turn = Turn(
                text=text, role="user", id=human.id, session=scope.session, speaker=human.name
            )
            turns.append(turn)
        if not self.store_replies:
            return turns
        for reply in _replies(response):
            if text := message_text(reply):
                turn = Turn(
                    text=text,
                    role="assistant",
                    id=reply.id,
                    session=scope.session,
                    remember=self.remember_replies,
                )
                turns.append(turn)
        return turns


def _last_human(messages: Sequence[BaseMessage]) -> HumanMessage | None:
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and message_text(message):
            return message
    return None


def _is_new_turn(messages: Sequence[BaseMessage], human: HumanMessage) -> bool:
    """True on the first model call after `human` (no AI message follows it yet)."""
    index = max(i for i, m in enumerate(messages) if m is human)
    return not any(isinstance(m, AIMessage) for m in messages[index + 1 :])


def _replies(response: _Result) -> list[AIMessage]:
    if isinstance(response, ExtendedModelResponse):
        response = response.model_response
    result = [response] if isinstance(response, AIMessage) else response.result
    return [m for m in result if isinstance(m, AIMessage)]


def _inject(request: ModelRequest[Any], block: str) -> ModelRequest[Any]:
    """The request with the memory block appended to its system message."""
    system = request.system_message
    if system is None:
        return request.override(system_message=SystemMessage(content=block))
    content: Any
    if isinstance(system.content, str):
        content = f"{system.content}\n\n{block}" if system.content else block
    else:
        content = [*system.content, {"type": "text", "text": block}]
    return request.override(system_message=system.model_copy(update={"content": content}))
