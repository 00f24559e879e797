"""Fakes for the LangChain adapter tests: a chat model that records what it received, and the
apples conversation at fixed times."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from bitemporal_core import Fact, MemoryStore


def t(s: str) -> datetime:
    """An aware UTC datetime from an ISO string without zone."""
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


class RecordingChatModel(BaseChatModel):
    """A fake chat model: answers from `replies` (then "ok") and records every input."""

    replies: list[Any] = Field(default_factory=list)  # AIMessage or str
    received: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "recording-fake"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        reply = self.replies.pop(0) if self.replies else "ok"
        message = AIMessage(content=reply) if isinstance(reply, str) else reply
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RecordingChatModel:
        return self

    def system_texts(self, call: int = -1) -> str:
        """The text of the system messages of one recorded call."""
        return "\n".join(str(m.text) for m in self.received[call] if isinstance(m, SystemMessage))


def apples(store: MemoryStore, namespace: str = "alice") -> tuple[Fact, Fact]:
    """the design's example: liked apples from 10-26, allergic from 10-27 09:00."""
    like = store.remember(
        "I enjoy eating apples.",
        namespace=namespace,
        at=t("2023-10-26T10:00"),
        valid_from=t("2023-10-26T00:00"),
        speaker="user",
    )[0]
    allergy = store.supersede(like.id, "I am allergic to apples.", at=t("2023-10-27T09:00"))
    return like, allergy


LIKE = "I enjoy eating apples."
ALLERGY = "I am allergic to apples."
THEN = t("2023-10-26T12:00")  # after the like, before the allergy
