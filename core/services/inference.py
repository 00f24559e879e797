"""Derived memory: abstraction texts and relationships inferred between concepts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

from bitemporal_core.model import Concept, ConceptEdge, Fact, InferredEdge
from bitemporal_core.providers.llm import LLM
from bitemporal_core.services.llm_tasks import propose_relations, summarise_group

__all__ = ["DIGEST_WORDS", "abstract_text", "digest", "llm_relations", "rule_relations"]

DIGEST_WORDS = 60  # the length of an offline abstraction


def digest(topic: str, members: Sequence[Fact]) -> str:
    """An extractive abstraction: the topic, then its facts verbatim, oldest first, as many as
    fit in 60 words (at least one)."""
    words = f"{topic}:".split()
    for i, fact in enumerate(members):
        sentence = fact.text.strip()
        sentence += "" if sentence[-1:] in ".!?" else "."
        if i and len(words) + len(sentence.split()) > DIGEST_WORDS:
            return " ".join(words) + " ..."
        words.extend(sentence.split())
    return " ".join(words)


def abstract_text(llm: LLM | None, topic: str, members: Sequence[Fact]) -> str:
    """The LLM's abstraction when one is configured and answers, else the digest."""
    if llm is not None:
        text = summarise_group(llm, topic, [f.text for f in members])
        if text.strip():
            return text
    return digest(topic, members)


def rule_relations(
    edges: Sequence[ConceptEdge], *, min_strength: int, min_shared: int
) -> list[InferredEdge]:
    """Relationships by rule over RELATED edges: strong co-occurrence (ASSOCIATED_WITH) and
    shared neighbours of concepts never mentioned together (SIMILAR_TO; confidence from the
    Adamic-Adar score, so neighbours shared through hubs count little)."""
    out = [
        InferredEdge(
            src=e.src,
            dst=e.dst,
            type="ASSOCIATED_WITH",
            confidence=round(e.strength / (e.strength + min_strength), 4),
            provenance="rule:co-occurrence",
        )
        for e in edges
        if e.strength >= min_strength and e.src != e.dst
    ]
    neighbours: dict[str, set[str]] = {}
    for e in edges:
        neighbours.setdefault(e.src, set()).add(e.dst)
        neighbours.setdefault(e.dst, set()).add(e.src)
    similar = []
    for a, b in combinations(sorted(neighbours), 2):
        shared = neighbours[a] & neighbours[b]
        if b not in neighbours[a] and len(shared) >= min_shared:
            # Adamic-Adar: a shared neighbour that is a hub says little
            score = sum(1.0 / math.log(1 + len(neighbours[z])) for z in shared)
            similar.append(
                InferredEdge(
                    src=a,
                    dst=b,
                    type="SIMILAR_TO",
                    confidence=round(score / (score + 1.0), 4),
                    provenance="rule:shared-neighbours",
                )
            )
    # hubs make many weak pairs: keep the strongest, about one per concept
    similar.sort(key=lambda e: (-e.confidence, e.src, e.dst))
    return out + similar[: len(neighbours)]


def llm_relations(
    llm: LLM, concepts: Sequence[Concept], edges: Sequence[ConceptEdge]
) -> list[InferredEdge]:
    """Typed relations an LLM proposes among the namespace's concepts (LOCATED_IN, ...)."""
    keys = [c.key for c in concepts]
    pairs = [(e.src, e.dst) for e in sorted(edges, key=lambda e: -e.strength)[:100]]
    return [
        InferredEdge(
            src=src, dst=dst, type=kind, confidence=confidence, provenance=f"llm:{llm.name}"
        )
        for src, kind, dst, confidence in propose_relations(llm, keys, pairs)
    ]
