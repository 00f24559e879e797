"""Recall: the RecallM concept-graph rank and a BM25 keyword rank, fused by reciprocal rank."""

from __future__ import annotations

from datetime import datetime

import attrs

from bitemporal_core.backends.port import RecallFilter, RecallScope
from bitemporal_core.common.times import utcnow
from bitemporal_core.common.validate import check_count, check_namespace, check_text
from bitemporal_core.errors import InvalidInput
from bitemporal_core.language.extract import content_terms
from bitemporal_core.model import Basis, Fact, Hit
from bitemporal_core.ranking.fusion import rrf
from bitemporal_core.ranking.recallm import (
    RankedConcept,
    order_concepts,
    score_concepts,
)
from bitemporal_core.services.context import Services

__all__ = ["ConceptView", "Ranker", "ranked"]


@attrs.frozen(kw_only=True)
class ConceptView:
    """The concepts RecallM chose for a question, in prompt order, with their contexts."""

    question_concepts: tuple[str, ...]
    concepts: tuple[RankedConcept, ...]
    contexts: dict[str, tuple[Fact, ...]]
    summaries: dict[str, str] = attrs.field(factory=dict)  # LLM summaries known at the basis

    @property
    def essential(self) -> tuple[str, ...]:
        """The question's concepts that exist in the graph."""
        return tuple(c.key for c in self.concepts if c.essential)


class Ranker:
    """Runs the engine reads of one recall and ranks what they return."""

    def __init__(self, ctx: Services) -> None:
        self._reads = ctx.reads
        self._extractor = ctx.analyser.extractor
        self._embedder = ctx.analyser.embedder
        self._params = ctx.params
        self._lifecycle = ctx.lifecycle
        self._uses = ctx.uses
        self.last_view: ConceptView | None = None
        self.recall_hits: list[Hit] = []

    def concepts(self, query: str, scope: RecallScope) -> ConceptView:
        """RecallM's concept selection for a question, with the contexts visible in `scope`."""
        keys = tuple(
            dict.fromkeys(c.key for s in self._extractor.sentences(query) for c in s.concepts)
        )
        p = self._params
        if not keys:
            return ConceptView(question_concepts=(), concepts=(), contexts={})
        ns = scope.namespace
        nodes, edges = self._reads.concept_graph(ns, keys, hops=p.hops, window=p.window)
        present = [k for k in keys if any(n.key == k for n in nodes)]
        scores = score_concepts(nodes, edges, p.weight)
        ranked = order_concepts(nodes, scores, present, p.max_concepts)
        found = self._reads.mentions(scope, [r.key for r in ranked], p.per_concept)
        contexts: dict[str, list[Fact]] = {}
        for key, fact in found:
            contexts.setdefault(key, []).append(fact)
        summaries = self._reads.summaries(ns, [r.key for r in ranked], scope.known_at)
        return ConceptView(
            question_concepts=keys,
            concepts=tuple(ranked),
            contexts={k: tuple(v) for k, v in contexts.items()},
            summaries=summaries,
        )

    def recall(self, query: str, scope: RecallScope, *, k: int, mode: str) -> list[Hit]:
        """The top `k` memories for `query` in `scope`, best first (`last_view` keeps the
        concept view they came from)."""
        view = self.last_view = self.concepts(query, scope)
        facts: dict[str, Fact] = {}
        why: dict[str, set[str]] = {}
        concept_rank = self._concept_rank(view, facts, why, faithful=mode == "recallm")
        rankings: list[list[str]] = [concept_rank]
        sources = {vid: ["concepts"] for vid in concept_rank}
        weights = [1.0]
        if self._lifecycle.inferred_weight > 0 and view.essential:
            inferred = self._inferred_rank(view, scope, facts, why)
            rankings.append(inferred)
            weights.append(self._lifecycle.inferred_weight)
            for vid in inferred:
                sources.setdefault(vid, []).append("inferred")
        if mode == "hybrid" or not concept_rank:
            keyword_rank = self._keyword_rank(query, scope, facts)
            rankings.append(keyword_rank)
            for vid in keyword_rank:
                sources.setdefault(vid, []).append("keyword")
            if self._embedder is not None:
                rankings.append(self._vector_rank(query, scope, k, facts))
                for vid in rankings[-1]:
                    sources.setdefault(vid, []).append("vector")
        weights += [1.0] * (len(rankings) - len(weights))
        fused = rrf(rankings, weights=weights)
        if self._lifecycle.weighs and fused:
            self._weigh(fused, facts, scope.namespace, scope.valid_at)
        essential = set(view.essential)
        best = sorted(fused, key=lambda vid: (-fused[vid], vid))[:k]
        return [
            Hit(
                fact=facts[vid],
                score=fused[vid],
                concepts=tuple(sorted(why.get(vid, ()))),
                sources=tuple(sources[vid]),
                essential=bool(essential & why.get(vid, set())),
            )
            for vid in best
        ]

    def _weigh(
        self, fused: dict[str, float], facts: dict[str, Fact], namespace: str, now: datetime
    ) -> None:
        """Scale fused scores by each memory's decay and use (operational metadata)."""
        ids = list({facts[v].id for v in fused})
        usage = self._uses.merged(namespace, ids)
        for vid in fused:
            fact = facts[vid]
            fused[vid] *= self._lifecycle.rank_weight(fact, usage.get(fact.id), now)

    def _inferred_rank(
        self,
        view: ConceptView,
        scope: RecallScope,
        facts: dict[str, Fact],
        why: dict[str, set[str]],
    ) -> list[str]:
        """Memories of concepts that inferred relationships link to the question's concepts
        (and that RecallM's neighbourhood did not already bring), most confident first."""
        essential = set(view.essential)
        chosen = {c.key for c in view.concepts}
        reached: dict[str, float] = {}
        for edge in self._reads.inferred(scope.namespace, list(essential)):
            if not self._lifecycle.trusts(edge.confidence):
                continue  # below the confidence floor: kept, not followed
            other = edge.dst if edge.src in essential else edge.src
            if other not in chosen:
                reached[other] = max(reached.get(other, 0.0), edge.confidence)
        if not reached:
            return []
        keys = sorted(reached, key=lambda key: (-reached[key], key))[: self._params.max_concepts]
        found = self._reads.mentions(scope, keys, self._params.per_concept)
        order: list[str] = []
        for key, fact in found:
            why.setdefault(fact.version_id, set()).add(key)
            facts.setdefault(fact.version_id, fact)
            if fact.version_id not in order:
                order.append(fact.version_id)
        return order

    @staticmethod
    def _concept_rank(
        view: ConceptView, facts: dict[str, Fact], why: dict[str, set[str]], *, faithful: bool
    ) -> list[str]:
        """Facts ranked by the concepts they were found under.

        Faithful (RecallM): the contexts of the best concept first (essential ones), each
        concept's newest first. Otherwise facts naming more of the question's concepts come
        first, then those of better-scored concepts, then the newest.
        """
        order: list[str] = []
        for concept in reversed(view.concepts):
            for fact in view.contexts.get(concept.key, ()):
                why.setdefault(fact.version_id, set()).add(concept.key)
                if fact.version_id not in facts:
                    facts[fact.version_id] = fact
                    order.append(fact.version_id)
        if faithful:
            return order
        scores = {c.key: c.score for c in view.concepts}
        essential = set(view.essential)

        def key(vid: str) -> tuple[int, float, float]:
            found = why[vid]
            fact = facts[vid]
            return (
                -len(found & essential),
                -sum(scores.get(c, 0.0) for c in found),
                -fact.valid_from.timestamp(),
            )

        return sorted(order, key=key)

    def _vector_rank(
        self, query: str, scope: RecallScope, k: int, facts: dict[str, Fact]
    ) -> list[str]:
        """Nearest visible versions to the query's embedding (filtered inside the engine)."""
        assert self._embedder is not None
        vector = self._embedder.embed_query(query)
        found = self._reads.vector_search(scope, vector, max(3 * k, 20))
        for fact, _ in found:
            facts.setdefault(fact.version_id, fact)
        return [fact.version_id for fact, _ in found]

    def _keyword_rank(self, query: str, scope: RecallScope, facts: dict[str, Fact]) -> list[str]:
        """BM25 over the stems of all content words, filtered by the basis in the engine."""
        terms = list(dict.fromkeys(content_terms(query)))
        found = self._reads.keyword_search(scope, terms, max(3 * self._params.max_concepts, 30))
        for fact, _ in found:
            facts.setdefault(fact.version_id, fact)
        return [fact.version_id for fact, _ in found]


def ranked(
    ctx: Services,
    query: str,
    namespace: str,
    basis: Basis,
    k: int,
    mode: str,
    where: RecallFilter,
) -> Ranker:
    """A ranker that has run one recall (hits and the concept view they came from), at a
    resolved basis; with reinforcement on, each hit counts one use (written behind, see
    `UseRecorder`)."""
    query = check_text(query, "query")
    ns, k = check_namespace(namespace), check_count(k, "k")
    if mode not in ("hybrid", "recallm"):
        raise InvalidInput(f"unknown recall mode {mode!r}")
    assert basis.valid_at is not None and basis.known_at is not None
    ranker = Ranker(ctx)
    scope = RecallScope(namespace=ns, valid_at=basis.valid_at, known_at=basis.known_at, where=where)
    hits = ranker.recall(query, scope, k=k, mode=mode)
    if ctx.lifecycle.reinforce and hits:
        ctx.uses.add(ns, [h.fact.id for h in hits], utcnow())
    ranker.recall_hits = hits
    return ranker
