"""What the memory asks an LLM: does a statement replace a current fact; summarise a concept."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime

from bitemporal_core.language.kinds import KINDS
from bitemporal_core.model import Fact
from bitemporal_core.providers.llm import LLM

__all__ = [
    "ABSTRACT_PROMPT",
    "CONTRADICTION_PROMPT",
    "KIND_PROMPT",
    "MEMORY_PROMPT",
    "RELATIONS_PROMPT",
    "SUMMARY_PROMPT",
    "UPDATE_PROMPT",
    "classify_kinds",
    "contradictions",
    "decide_updates",
    "propose_relations",
    "summarise",
    "summarise_group",
    "worth_remembering",
]

CONTRADICTION_PROMPT = (
    "You maintain a user's memory. Given a NEW statement and numbered CURRENT facts, list the"
    " facts the new statement makes no longer true (it contradicts or updates them). Facts"
    ' that merely share a topic are not replaced. Answer with JSON only: {"replaced": [numbers]}.'
)
SUMMARY_PROMPT = (
    "Summarise what these statements say about the concept, in chronological order, in fewer"
    " than 80 words. Answer with the summary only."
)
KIND_PROMPT = (
    "Classify each numbered statement a user made as one kind: said, belief, preference,"
    " intent, plan or event (belief: an opinion; preference: a like or dislike; intent: a wish"
    " or goal; plan: something scheduled or decided for the future; event: something that"
    ' happened; said: anything else). Answer with JSON only: {"kinds": ["...", ...]}.'
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


MEMORY_PROMPT = (
    "You maintain a user's memory. For each numbered statement from a conversation, say"
    " whether it is worth remembering (it states something about someone or something) or"
    " not (a question, greeting, thanks, acknowledgement or filler). Answer with JSON only:"
    ' {"memory": [true or false, ...]}.'
)
UPDATE_PROMPT = (
    "You maintain a user's memory. Given a NEW statement and numbered CURRENT facts, decide"
    ' for each fact: "update" if the new statement replaces it (a new value of the same'
    ' thing: a new city, job, car, ...), "delete" if it says the fact stopped being true,'
    ' or "none" (facts that merely share a topic, or are about someone else, stay). Answer'
    ' with JSON only: {"actions": [{"fact": number, "action": "update|delete|none"}, ...]}.'
)


def worth_remembering(llm: LLM, texts: Sequence[str]) -> list[bool | None]:
    """The LLM's judgement for each text: worth remembering, or None where it gave none."""
    numbered = "\n".join(f"{i}. {text}" for i, text in enumerate(texts, 1))
    match = _JSON.search(llm.complete(MEMORY_PROMPT, f"STATEMENTS:\n{numbered}"))
    try:
        flags = json.loads(match.group(0)).get("memory", []) if match else []
    except (ValueError, AttributeError):
        flags = []
    flags = flags if isinstance(flags, list) else []
    return [
        flags[i] if i < len(flags) and isinstance(flags[i], bool) else None
        for i in range(len(texts))
    ]


def decide_updates(llm: LLM, statement: str, candidates: Sequence[Fact]) -> list[Fact] | None:
    """The candidates the LLM says `statement` updates or deletes; None if its answer is
    unusable (malformed, or naming no known fact), so the offline rules decide instead."""
    if not candidates:
        return []
    numbered = "\n".join(f"{i}. {fact.text}" for i, fact in enumerate(candidates, 1))
    match = _JSON.search(llm.complete(UPDATE_PROMPT, f"NEW: {statement}\nCURRENT:\n{numbered}"))
    try:
        actions = json.loads(match.group(0)).get("actions") if match else None
    except (ValueError, AttributeError):
        actions = None
    if not isinstance(actions, list):
        return None
    chosen: list[Fact] = []
    for action in actions:
        if not isinstance(action, dict):
            return None
        n, verb = action.get("fact"), action.get("action")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(candidates):
            return None
        if verb in ("update", "delete") and candidates[n - 1] not in chosen:
            chosen.append(candidates[n - 1])
        elif verb not in ("update", "delete", "none"):
            return None
    return chosen


def summarise(llm: LLM, concept: str, mentions: Sequence[tuple[datetime, str]]) -> str:
    """A short chronological summary of a concept's mentions (at most 80 words kept)."""
    lines = "\n".join(f"- ({when:%Y-%m-%d}) {text}" for when, text in sorted(mentions))
    words = llm.complete(SUMMARY_PROMPT, f"CONCEPT: {concept}\nSTATEMENTS:\n{lines}").split()
    return " ".join(words[:80])


def classify_kinds(llm: LLM, texts: Sequence[str]) -> list[str | None]:
    """The LLM's kind for each text; None where its answer is missing or not a known kind."""
    numbered = "\n".join(f"{i}. {text}" for i, text in enumerate(texts, 1))
    match = _JSON.search(llm.complete(KIND_PROMPT, f"STATEMENTS:\n{numbered}"))
    try:
        kinds = json.loads(match.group(0)).get("kinds", []) if match else []
    except (ValueError, AttributeError):
        kinds = []
    kinds = kinds if isinstance(kinds, list) else []
    return [kinds[i] if i < len(kinds) and kinds[i] in KINDS else None for i in range(len(texts))]


ABSTRACT_PROMPT = (
    "These statements share a topic. Write one higher-level memory that summarises them:"
    " a short label, a colon, then the summary, in fewer than 60 words. Answer with it only."
)
RELATIONS_PROMPT = (
    "Given concepts from a user's memory and pairs seen together, propose typed relations"
    " between the listed concepts only (e.g. paris LOCATED_IN france). Answer with JSON only:"
    ' {"relations": [["concept", "TYPE", "concept", confidence 0..1], ...]}.'
)
_TYPE = re.compile(r"[A-Z][A-Z_]{0,39}")


def summarise_group(llm: LLM, topic: str, texts: Sequence[str]) -> str:
    """The LLM's abstraction of statements sharing a topic (at most 60 words kept)."""
    lines = "\n".join(f"- {text}" for text in texts)
    words = llm.complete(ABSTRACT_PROMPT, f"TOPIC: {topic}\nSTATEMENTS:\n{lines}").split()
    return " ".join(words[:60])


def propose_relations(
    llm: LLM, concepts: Sequence[str], pairs: Sequence[tuple[str, str]]
) -> list[tuple[str, str, str, float]]:
    """Typed relations the LLM proposes among `concepts`: (src, TYPE, dst, confidence).

    Unknown concepts, malformed types and confidences outside [0, 1] are dropped.
    """
    known = set(concepts)
    seen = "\n".join(f"- {a} / {b}" for a, b in pairs)
    user = f"CONCEPTS: {', '.join(concepts)}\nSEEN TOGETHER:\n{seen}"
    match = _JSON.search(llm.complete(RELATIONS_PROMPT, user))
    try:
        rows = json.loads(match.group(0)).get("relations", []) if match else []
    except (ValueError, AttributeError):
        rows = []
    out = []
    for row in rows if isinstance(rows, list) else []:
        if not (isinstance(row, list) and len(row) == 4):
            continue
        src, kind, dst, confidence = row
        if (
            src in known
            and dst in known
            and src != dst
            and isinstance(kind, str)
            and _TYPE.fullmatch(kind)
            and isinstance(confidence, int | float)
            and 0.0 <= confidence <= 1.0
        ):
            out.append((src, kind, dst, float(confidence)))
    return out
