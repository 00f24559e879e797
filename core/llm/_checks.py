"""What the memory asks an LLM: does a statement replace a current fact; summarise a concept."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime

from ..model import Fact
from ._client import LLM

__all__ = ["CONTRADICTION_PROMPT", "SUMMARY_PROMPT", "contradictions", "summarise"]

CONTRADICTION_PROMPT = (
    "You maintain a user's memory. Given a NEW statement and numbered CURRENT facts, list the"
    " facts the new statement makes no longer true (it contradicts or updates them). Facts"
    ' that merely share a topic are not replaced. Answer with JSON only: {"replaced": [numbers]}.'
)
SUMMARY_PROMPT = (
    "Summarise what these statements say about the concept, in chronological order, in fewer"
    " than 80 words. Answer with the summary only."
)
_JSON = re.compile(r"\{.*\}", re.S)


def contradictions(llm: LLM, statement: str, candidates: Sequence[Fact]) -> list[Fact]:
    """The candidates the LLM says `statement` replaces (unparseable answers replace nothing)."""
    if not candidates:
        return []
    numbered = "\n".join(f"{i}. {fact.text}" for i, fact in enumerate(candidates, 1))
    answer = llm.complete(CONTRADICTION_PROMPT, f"NEW: {statement}\nCURRENT:\n{numbered}")
    match = _JSON.search(answer)
    if not match:
        return []
    try:
        numbers = json.loads(match.group(0)).get("replaced", [])
    except (ValueError, AttributeError):
        return []
    chosen = []
    for n in numbers if isinstance(numbers, list) else []:
        if isinstance(n, int) and 1 <= n <= len(candidates) and candidates[n - 1] not in chosen:
            chosen.append(candidates[n - 1])
    return chosen


def summarise(llm: LLM, concept: str, mentions: Sequence[tuple[datetime, str]]) -> str:
    """A short chronological summary of a concept's mentions (at most 80 words kept)."""
    lines = "\n".join(f"- ({when:%Y-%m-%d}) {text}" for when, text in sorted(mentions))
    words = llm.complete(SUMMARY_PROMPT, f"CONCEPT: {concept}\nSTATEMENTS:\n{lines}").split()
    return " ".join(words[:80])
