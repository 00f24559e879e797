"""Optional LLM features behind a small port: contradiction checks and concept summaries.

Any OpenAI-compatible chat endpoint works through the `openai` client (`base_url=` for local
servers). Without an LLM everything else works, deterministically.
"""

from __future__ import annotations

from ._checks import CONTRADICTION_PROMPT, SUMMARY_PROMPT, contradictions, summarise
from ._client import LLM, OpenAIChat, as_llm

__all__ = [
    "CONTRADICTION_PROMPT",
    "LLM",
    "SUMMARY_PROMPT",
    "OpenAIChat",
    "as_llm",
    "contradictions",
    "summarise",
]
