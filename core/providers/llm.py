"""The LLM port (one method) and its adapters: the `openai` client, LangChain and LlamaIndex
chat models, and a guard that bounds every call's time and errors."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol, runtime_checkable

from bitemporal_core.errors import BackendError, ConfigurationError

__all__ = ["LLM", "FrameworkChat", "GuardedLLM", "OpenAIChat", "as_llm"]


@runtime_checkable
class LLM(Protocol):
    """A chat model: one system and one user message in, text out."""

    @property
    def name(self) -> str:
        """Which model answers (for `MemoryStore.describe`)."""
        ...

    def complete(self, system: str, user: str) -> str:
        """The model's reply to `user` under the `system` instruction."""
        ...


class OpenAIChat:
    """An `LLM` over an `openai.OpenAI` client (any OpenAI-compatible `base_url`).

    Args:
        client: an `openai.OpenAI` the caller owns.
        model: the chat model name.
        temperature: sampling temperature; 0 for repeatable answers.
    """

    def __init__(self, client: Any, *, model: str = "gpt-4o-mini", temperature: float = 0.0):
        if not hasattr(client, "chat"):
            raise ConfigurationError("OpenAIChat needs an openai.OpenAI client")
        self._client = client
        self._model = model
        self._temperature = temperature

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    def __repr__(self) -> str:
        return f"OpenAIChat(model={self._model!r})"  # never the client's key

    def complete(self, system: str, user: str) -> str:
        try:
            reply = self._client.chat.completions.create(
                model=self._model,
                temperature=self._temperature,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
            )
        except Exception as e:  # the openai package's errors have no common base we import
            raise BackendError(f"LLM call failed: {type(e).__name__}") from e
        content = reply.choices[0].message.content
        return content if isinstance(content, str) else ""


class FrameworkChat:
    """An `LLM` over a LangChain `BaseChatModel` (`invoke`) or a LlamaIndex `LLM` (`chat`),
    both given a system and a user message."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self._langchain = hasattr(model, "invoke") and not hasattr(model, "chat")

    @property
    def name(self) -> str:
        kind = "langchain" if self._langchain else "llamaindex"
        label = getattr(self._model, "model_name", None) or getattr(self._model, "model", None)
        return f"{kind}:{label or type(self._model).__name__}"

    def __repr__(self) -> str:
        return f"FrameworkChat({type(self._model).__name__})"

    def complete(self, system: str, user: str) -> str:
        if self._langchain:
            reply = self._model.invoke([("system", system), ("human", user)])
            content = getattr(reply, "content", reply)
        else:
            from llama_index.core.base.llms.types import ChatMessage

            messages = [
                ChatMessage(role="system", content=system),
                ChatMessage(role="user", content=user),
            ]
            content = self._model.chat(messages).message.content
        return content if isinstance(content, str) else ""


class GuardedLLM:
    """An `LLM` whose calls never take longer than `timeout` seconds and never raise anything
    but `BackendError` (naming the failure's type only: a provider's message may quote a key)
    or return anything but text; callers fall back to the offline rules on that error."""

    def __init__(self, llm: LLM, *, timeout: float = 10.0) -> None:
        self._llm = llm
        self._timeout = timeout
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bitemporal-llm")

    @property
    def name(self) -> str:
        return self._llm.name

    def __repr__(self) -> str:
        return repr(self._llm)

    def complete(self, system: str, user: str) -> str:
        try:
            answer = self._pool.submit(self._llm.complete, system, user).result(self._timeout)
        except FutureTimeout:
            raise BackendError(f"LLM call timed out after {self._timeout:g} s") from None
        except BackendError:
            raise
        except Exception as e:  # a custom LLM may raise anything
            raise BackendError(f"LLM call failed: {type(e).__name__}") from None
        if not isinstance(answer, str):
            raise BackendError(f"LLM answered {type(answer).__name__}, not text")
        return answer

    def close(self) -> None:
        """Stop waiting for calls still running (they finish on their own)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _framework_model(obj: object) -> bool:
    module = type(obj).__module__
    if module.startswith(("langchain", "langchain_core")):
        return hasattr(obj, "invoke")
    return module.startswith("llama_index") and hasattr(obj, "chat")


def as_llm(obj: object, *, timeout: float | None = None) -> LLM:
    """An `LLM` from an `LLM`, an `openai.OpenAI` client, a LangChain `BaseChatModel` or a
    LlamaIndex `LLM`; with `timeout`, guarded (see `GuardedLLM`)."""
    llm: LLM
    if isinstance(obj, GuardedLLM):
        return obj
    if isinstance(obj, LLM):
        llm = obj
    elif hasattr(obj, "chat") and hasattr(getattr(obj, "chat", None), "completions"):
        llm = OpenAIChat(obj)
    elif _framework_model(obj):
        llm = FrameworkChat(obj)
    else:
        raise ConfigurationError(
            f"not an LLM, a chat model or an openai client: {type(obj).__name__}"
        )
    return llm if timeout is None else GuardedLLM(llm, timeout=timeout)
