"""Optional LLM features behind a small port: contradiction checks, concept summaries,
statement kinds, abstractions and relations between concepts.

Any OpenAI-compatible chat endpoint works through the `openai` client (`base_url=` for local
servers). Without an LLM everything else works, deterministically.
"""

from __future__ import annotations

from ._checks import (
    ABSTRACT_PROMPT,
    CONTRADICTION_PROMPT,
    KIND_PROMPT,
    RELATIONS_PROMPT,
    SUMMARY_PROMPT,
    classify_kinds,
    contradictions,
    propose_relations,
    summarise,
    summarise_group,
)
from ._client import LLM, OpenAIChat, as_llm

__all__ = [
    "ABSTRACT_PROMPT",
    "CONTRADICTION_PROMPT",
    "KIND_PROMPT",
    "LLM",
    "RELATIONS_PROMPT",
    "SUMMARY_PROMPT",
    "OpenAIChat",
    "as_llm",
    "classify_kinds",
    "contradictions",
    "propose_relations",
    "summarise",
    "summarise_group",
]
