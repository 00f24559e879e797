"""The LLM port (one method) and its adapter for the `openai` client."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bitemporal_core.errors import BackendError, ConfigurationError

__all__ = ["LLM", "OpenAIChat", "as_llm"]


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


def as_llm(obj: object) -> LLM:
    """An `LLM` from an `LLM` or an `openai.OpenAI` client."""
    if isinstance(obj, LLM):
        return obj
    if hasattr(obj, "chat") and hasattr(getattr(obj, "chat", None), "completions"):
        return OpenAIChat(obj)
    raise ConfigurationError(f"not an LLM or an openai client: {type(obj).__name__}")
