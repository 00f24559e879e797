"""Recall: the RecallM concept-graph, keyword, vector and inferred ranks, fused by reciprocal
rank, boosted by what the question asks about time, diversified across messages."""

from __future__ import annotations

from datetime import datetime

import attrs

from bitemporal_core.backends.port import RecallFilter, RecallScope
from bitemporal_core.common.times import utcnow
from bitemporal_core.common.validate import check_count, check_namespace, check_text, shown
from bitemporal_core.errors import InvalidInput
from bitemporal_core.language.claims import asked_words
from bitemporal_core.language.extract import content_terms
from bitemporal_core.language.families import category_words
from bitemporal_core.language.query import query_time
from bitemporal_core.model import Basis, Fact, Hit, RankContribution
from bitemporal_core.ranking.fusion import Fused, diversify, fuse
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
    asked: tuple[str, ...] = ()  # the keyword terms of the slots the question names

    @property
    def essential(self) -> tuple[str, ...]:
        """The question's concepts that exist in the graph."""
        return tuple(c.key for c in self.concepts if c.essential)


class Ranker:
    """Runs the engine reads of one recall and ranks what they return."""

    def __init__(self, ctx: Services) -> None:
        self._reads = ctx.reads
        self._extractor = ctx.analyser.query_extractor
        self._embedder = ctx.analyser.embedder
        self._resolver = ctx.analyser.resolver
        self._params = ctx.params
        self._lifecycle = ctx.lifecycle
        self._uses = ctx.uses
        self.last_view: ConceptView | None = None
        self.recall_hits: list[Hit] = []

    def concepts(self, query: str, scope: RecallScope) -> ConceptView:
        """RecallM's concept selection for a question, with the contexts visible in `scope`."""
        sentences = self._extractor.sentences(query)
        keys = tuple(dict.fromkeys(c.key for s in sentences for c in s.concepts))
        asked = tuple(asked_words(sentences))
        p = self._params
        if not keys:
            return ConceptView(question_concepts=(), concepts=(), contexts={}, asked=asked)
        ns = scope.namespace
        nodes, edges = self._reads.concept_graph(
            ns, keys, hops=p.hops, window=p.window, known_at=scope.known_at
        )
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
            asked=asked,
        )

    def recall(self, query: str, scope: RecallScope, *, k: int, mode: str) -> list[Hit]:
        """The top `k` memories for `query` in `scope`, best first (`last_view` keeps the
        concept view they came from); see docs/design.md, "Ranking"."""
        view = self.last_view = self.concepts(query, scope)
        facts: dict[str, Fact] = {}
        why: dict[str, set[str]] = {}
        hybrid = mode == "hybrid"
        w = self._params.weights
        depth = max(4 * k, 40)
        rankings: dict[str, list[tuple[str, float]]] = {}
        weights = {"concepts": w.concepts if hybrid else 1.0}
        rankings["concepts"] = self._concept_rank(view, facts, why, faithful=not hybrid)
        if self._lifecycle.inferred_weight > 0 and view.essential:
            rankings["inferred"] = self._inferred_rank(view, scope, facts, why)
            weights["inferred"] = self._lifecycle.inferred_weight * weights["concepts"]
        if hybrid or not rankings["concepts"]:
            rankings["keyword"] = self._keyword_rank(query, scope, depth, facts, view.asked)
            weights["keyword"] = w.keyword if hybrid else 1.0
            if self._embedder is not None:
                rankings["vector"] = self._vector_rank(query, scope, depth, facts)
                weights["vector"] = w.vector if hybrid else 1.0
        fused = fuse({n: r for n, r in rankings.items() if r}, weights, w.rrf_k)
        asks_when = hybrid and self._boost_time(query, scope, fused, facts)
        if self._lifecycle.weighs and fused:
            self._weigh(fused, facts, scope.namespace, scope.valid_at)
        if hybrid:
            order = diversify(
                fused,
                group=lambda vid: facts[vid].source,
                factor=w.sibling,
                exempt=lambda vid: asks_when and _own_time(facts[vid]),
            )
        else:
            order = sorted(fused, key=lambda vid: (-fused[vid].score, vid))
        return self._hits(order[:k], fused, facts, why, set(view.essential))

    @staticmethod
    def _hits(
        best: list[str],
        fused: dict[str, Fused],
        facts: dict[str, Fact],
        why: dict[str, set[str]],
        essential: set[str],
    ) -> list[Hit]:
        """Hits with scores in 0..1 (divided by the best when boosts lift one above 1)."""
        norm = max([1.0, *(fused[vid].score for vid in best)])
        hits = []
        for vid in best:
            f = fused[vid]
            factor = f.score / f.base / norm if f.base else 0.0
            ranks = {
                name: RankContribution(position=pos, raw=raw, share=share * factor)
                for name, (pos, raw, share) in f.ranks.items()
            }
            hits.append(
                Hit(
                    fact=facts[vid],
                    score=f.score / norm,
                    concepts=tuple(sorted(why.get(vid, ()))),
                    sources=tuple(ranks),
                    essential=bool(essential & why.get(vid, set())),
                    ranks=ranks,
                    boosts=dict(f.boosts),
                )
            )
        return hits

    def _boost_time(
        self, query: str, scope: RecallScope, fused: dict[str, Fused], facts: dict[str, Fact]
    ) -> bool:
        """Boost what the question's time asks for (`language.query`); True if it asks when."""
        w = self._params.weights
        asked = query_time(query, self._resolver, scope.valid_at)
        for vid, f in fused.items():
            fact = facts[vid]
            if asked.asks_when and w.time and _own_time(fact):
                f.boosts["time"] = 1.0 + w.time
            if asked.window is not None and w.window:
                start, end = asked.window
                said = fact.said_at or fact.recorded_at
                if start <= said < end or start <= fact.valid_from < end:
                    f.boosts["window"] = 1.0 + w.window
        return asked.asks_when

    def _weigh(
        self, fused: dict[str, Fused], facts: dict[str, Fact], namespace: str, now: datetime
    ) -> None:
        """Scale fused scores by each memory's decay and use (operational metadata)."""
        ids = list({facts[v].id for v in fused})
        usage = self._uses.merged(namespace, ids)
        for vid, f in fused.items():
            fact = facts[vid]
            f.boosts["lifecycle"] = self._lifecycle.rank_weight(fact, usage.get(fact.id), now)

    def _inferred_rank(
        self,
        view: ConceptView,
        scope: RecallScope,
        facts: dict[str, Fact],
        why: dict[str, set[str]],
    ) -> list[tuple[str, float]]:
        """Memories of concepts that inferred relationships link to the question's concepts
        (and that RecallM's neighbourhood did not already bring), most confident first, with
        the confidence of the relationship that reached them."""
        essential = set(view.essential)
        chosen = {c.key for c in view.concepts}
        reached: dict[str, float] = {}
        for edge in self._reads.inferred(scope.namespace, list(essential), scope.known_at):
            if not self._lifecycle.trusts(edge.confidence):
                continue  # below the confidence floor: kept, not followed
            other = edge.dst if edge.src in essential else edge.src
            if other not in chosen:
                reached[other] = max(reached.get(other, 0.0), edge.confidence)
        if not reached:
            return []
        keys = sorted(reached, key=lambda key: (-reached[key], key))[: self._params.max_concepts]
        found = self._reads.mentions(scope, keys, self._params.per_concept)
        order: dict[str, float] = {}
        for key, fact in found:
            why.setdefault(fact.version_id, set()).add(key)
            facts.setdefault(fact.version_id, fact)
            order.setdefault(fact.version_id, reached[key])
        return list(order.items())

    @staticmethod
    def _concept_rank(
        view: ConceptView, facts: dict[str, Fact], why: dict[str, set[str]], *, faithful: bool
    ) -> list[tuple[str, float]]:
        """Facts ranked by the concepts they were found under, each with the score of its best
        concept.

        Faithful (RecallM): the contexts of the best concept first (essential ones), each
        concept's newest first. Otherwise facts naming more of the question's concepts come
        first, then those of better-scored concepts, then the newest.
        """
        order: list[str] = []
        scores = {c.key: c.score for c in view.concepts}
        for concept in reversed(view.concepts):
            for fact in view.contexts.get(concept.key, ()):
                why.setdefault(fact.version_id, set()).add(concept.key)
                if fact.version_id not in facts:
                    facts[fact.version_id] = fact
                    order.append(fact.version_id)

        def best(vid: str) -> tuple[str, float]:
            return vid, max(scores.get(c, 0.0) for c in why[vid])

        if faithful:
            return [best(vid) for vid in order]
        essential = set(view.essential)

        def key(vid: str) -> tuple[int, float, float]:
            found = why[vid]
            fact = facts[vid]
            return (
                -len(found & essential),
                -sum(scores.get(c, 0.0) for c in found),
                -fact.valid_from.timestamp(),
            )

        return [best(vid) for vid in sorted(order, key=key)]

    def _vector_rank(
        self, query: str, scope: RecallScope, depth: int, facts: dict[str, Fact]
    ) -> list[tuple[str, float]]:
        """Nearest visible versions to the query's embedding (filtered inside the engine)."""
        assert self._embedder is not None
        vector = self._embedder.embed_query(query)
        found = self._reads.vector_search(scope, vector, depth)
        for fact, _ in found:
            facts.setdefault(fact.version_id, fact)
        return [(fact.version_id, score) for fact, score in found]

    def _keyword_rank(
        self,
        query: str,
        scope: RecallScope,
        depth: int,
        facts: dict[str, Fact],
        asked: tuple[str, ...] = (),
    ) -> list[tuple[str, float]]:
        """BM25 over the stems of all content words, the names of the kinds of thing they
        are ("handset": phone, the word a fact naming a Pixel is also found by) and the
        words of the slots the question names (`asked`), filtered by the basis in the
        engine."""
        terms = list(dict.fromkeys(content_terms(query)))
        kinds = content_terms(" ".join(category_words(terms)))
        terms += [t for t in dict.fromkeys([*kinds, *asked]) if t not in terms]
        found = self._reads.keyword_search(scope, terms, depth)
        for fact, _ in found:
            facts.setdefault(fact.version_id, fact)
        return [(fact.version_id, score) for fact, score in found]


def _own_time(fact: Fact) -> bool:
    """Whether a statement carries its own time: its valid time is not when it was said."""
    return fact.valid_from != (fact.said_at or fact.recorded_at)


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
        raise InvalidInput(f"unknown recall mode {shown(mode)} (hybrid or recallm)")
    assert basis.valid_at is not None and basis.known_at is not None
    ranker = Ranker(ctx)
    scope = RecallScope(namespace=ns, valid_at=basis.valid_at, known_at=basis.known_at, where=where)
    hits = ranker.recall(query, scope, k=k, mode=mode)
    if ctx.lifecycle.reinforce and hits:
        ctx.uses.add(ns, [h.fact.id for h in hits], utcnow())
    ranker.recall_hits = hits
    return ranker
