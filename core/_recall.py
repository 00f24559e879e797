"""Recall: the RecallM concept-graph rank and a BM25 keyword rank, fused by reciprocal rank."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import attrs

from ._statements import Analyser
from ._time import utcnow
from ._uses import UseRecorder
from ._validate import check_count, check_namespace, check_text
from .backends._port import ALL, Backend, RecallFilter
from .errors import InvalidInput
from .extract import content_terms
from .lifecycle import Lifecycle
from .model import Basis, Fact, Hit
from .recallm import RankedConcept, RecallParams, order_concepts, score_concepts

if TYPE_CHECKING:
    from .store import MemoryStore

__all__ = ["ConceptView", "Ranker", "ranked", "rrf"]

RRF_K = 60  # the usual reciprocal-rank-fusion constant


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


def rrf(
    rankings: Sequence[Sequence[str]], k: int = RRF_K, weights: Sequence[float] = ()
) -> dict[str, float]:
    """Reciprocal rank fusion: each id scores the sum of w / (k + rank) over the rankings
    (w = the ranking's weight, 1 unless given)."""
    scores: dict[str, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if i < len(weights) else 1.0
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return scores


class Ranker:
    """Runs the engine reads of one recall and ranks what they return."""

    def __init__(
        self,
        backend: Backend,
        analyser: Analyser,
        params: RecallParams,
        lifecycle: Lifecycle | None = None,
        uses: UseRecorder | None = None,
    ) -> None:
        self._backend = backend
        self._extractor = analyser.extractor
        self._embedder = analyser.embedder
        self._params = params
        self._lifecycle = lifecycle or Lifecycle()
        self._uses = uses
        self._where = ALL
        self.last_view: ConceptView | None = None
        self.recall_hits: list[Hit] = []

    def concepts(
        self, query: str, namespace: str, valid_at: datetime, known_at: datetime
    ) -> ConceptView:
        """RecallM's concept selection for a question, with the contexts valid at the basis."""
        keys = tuple(
            dict.fromkeys(c.key for s in self._extractor.sentences(query) for c in s.concepts)
        )
        p = self._params
        if not keys:
            return ConceptView(question_concepts=(), concepts=(), contexts={})
        nodes, edges = self._backend.concept_graph(namespace, keys, hops=p.hops, window=p.window)
        present = [k for k in keys if any(n.key == k for n in nodes)]
        scores = score_concepts(nodes, edges, p.weight)
        ranked = order_concepts(nodes, scores, present, p.max_concepts)
        found = self._backend.mentions(
            namespace, [r.key for r in ranked], valid_at, known_at, p.per_concept, where=self._where
        )
        contexts: dict[str, list[Fact]] = {}
        for key, fact in found:
            contexts.setdefault(key, []).append(fact)
        summaries = self._backend.summaries(namespace, [r.key for r in ranked], known_at)
        return ConceptView(
            question_concepts=keys,
            concepts=tuple(ranked),
            contexts={k: tuple(v) for k, v in contexts.items()},
            summaries=summaries,
        )

    def recall(
        self,
        query: str,
        namespace: str,
        valid_at: datetime,
        known_at: datetime,
        *,
        k: int,
        mode: str,
        where: RecallFilter = ALL,
    ) -> list[Hit]:
        """The top `k` memories for `query` at the basis, best first (`last_view` keeps the
        concept view they came from)."""
        self._where = where
        view = self.last_view = self.concepts(query, namespace, valid_at, known_at)
        facts: dict[str, Fact] = {}
        why: dict[str, set[str]] = {}
        concept_rank = self._concept_rank(view, facts, why, faithful=mode == "recallm")
        rankings: list[list[str]] = [concept_rank]
        sources = {vid: ["concepts"] for vid in concept_rank}
        weights = [1.0]
        if self._lifecycle.inferred_weight > 0 and view.essential:
            inferred = self._inferred_rank(view, namespace, valid_at, known_at, facts, why)
            rankings.append(inferred)
            weights.append(self._lifecycle.inferred_weight)
            for vid in inferred:
                sources.setdefault(vid, []).append("inferred")
        if mode == "hybrid" or not concept_rank:
            keyword_rank = self._keyword_rank(query, namespace, valid_at, known_at, facts)
            rankings.append(keyword_rank)
            for vid in keyword_rank:
                sources.setdefault(vid, []).append("keyword")
            if self._embedder is not None:
                rankings.append(self._vector_rank(query, namespace, valid_at, known_at, k, facts))
                for vid in rankings[-1]:
                    sources.setdefault(vid, []).append("vector")
        weights += [1.0] * (len(rankings) - len(weights))
        fused = rrf(rankings, weights=weights)
        if self._lifecycle.weighs and fused:
            self._weigh(fused, facts, namespace, valid_at)
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
        usage = (
            self._uses.merged(namespace, ids) if self._uses else self._backend.usage(namespace, ids)
        )
        for vid in fused:
            fact = facts[vid]
            fused[vid] *= self._lifecycle.rank_weight(fact, usage.get(fact.id), now)

    def _inferred_rank(
        self,
        view: ConceptView,
        namespace: str,
        valid_at: datetime,
        known_at: datetime,
        facts: dict[str, Fact],
        why: dict[str, set[str]],
    ) -> list[str]:
        """Memories of concepts that inferred relationships link to the question's concepts
        (and that RecallM's neighbourhood did not already bring), most confident first."""
        essential = set(view.essential)
        chosen = {c.key for c in view.concepts}
        reached: dict[str, float] = {}
        for edge in self._backend.inferred(namespace, list(essential)):
            other = edge.dst if edge.src in essential else edge.src
            if other not in chosen:
                reached[other] = max(reached.get(other, 0.0), edge.confidence)
        if not reached:
            return []
        keys = sorted(reached, key=lambda key: (-reached[key], key))[: self._params.max_concepts]
        found = self._backend.mentions(
            namespace, keys, valid_at, known_at, self._params.per_concept, where=self._where
        )
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
        self,
        query: str,
        namespace: str,
        valid_at: datetime,
        known_at: datetime,
        k: int,
        facts: dict[str, Fact],
    ) -> list[str]:
        """Nearest visible versions to the query's embedding (filtered inside the engine)."""
        assert self._embedder is not None
        vector = self._embedder.embed_query(query)
        found = self._backend.vector_search(
            namespace, vector, valid_at, known_at, max(3 * k, 20), where=self._where
        )
        for fact, _ in found:
            facts.setdefault(fact.version_id, fact)
        return [fact.version_id for fact, _ in found]

    def _keyword_rank(
        self,
        query: str,
        namespace: str,
        valid_at: datetime,
        known_at: datetime,
        facts: dict[str, Fact],
    ) -> list[str]:
        """BM25 over the stems of all content words, filtered by the basis in the engine."""
        terms = list(dict.fromkeys(content_terms(query)))
        found = self._backend.keyword_search(
            namespace,
            terms,
            valid_at,
            known_at,
            max(3 * self._params.max_concepts, 30),
            where=self._where,
        )
        for fact, _ in found:
            facts.setdefault(fact.version_id, fact)
        return [fact.version_id for fact, _ in found]


def ranked(
    store: MemoryStore,
    query: str,
    namespace: str,
    basis: Basis | None,
    k: int,
    mode: str,
    where: RecallFilter,
) -> Ranker:
    """A ranker that has run one recall of `store` (hits and the concept view they came from);
    with reinforcement on, each hit counts one use (written behind, see `UseRecorder`)."""
    query = check_text(query, "query")
    ns, k = check_namespace(namespace), check_count(k, "k")
    if mode not in ("hybrid", "recallm"):
        raise InvalidInput(f"unknown recall mode {mode!r}")
    b = store._basis(basis)
    assert b.valid_at is not None and b.known_at is not None
    ranker = Ranker(store._backend, store._analyser, store._params, store._lifecycle, store._uses)
    hits = ranker.recall(query, ns, b.valid_at, b.known_at, k=k, mode=mode, where=where)
    if store._lifecycle.reinforce and hits:
        store._uses.add(ns, [h.fact.id for h in hits], utcnow())
    ranker.recall_hits = hits
    return ranker
