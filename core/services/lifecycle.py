"""The memory-lifecycle methods of `MemoryStore`: abstract, prune, infer relationships."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta

import attrs

from bitemporal_core.backends.port import (
    NewFact,
    RecallFilter,
    RecallReads,
    RecallScope,
    WriteBatch,
)
from bitemporal_core.common.validate import shown
from bitemporal_core.errors import InvalidInput
from bitemporal_core.language.kinds import ABSTRACTION
from bitemporal_core.model import Abstraction, Basis, Fact, InferredEdge
from bitemporal_core.ranking.decay import Lifecycle
from bitemporal_core.services.commit import commit, tx_time
from bitemporal_core.services.context import Services
from bitemporal_core.services.inference import abstract_text, llm_relations, rule_relations
from bitemporal_core.services.versions import new_version, to_fact

__all__ = [
    "abstract",
    "abstractions",
    "forget_citing",
    "infer_relationships",
    "prune",
    "recall_filter",
    "relationships",
]

_HIDDEN_TOO = RecallFilter(include_archived=True)
SOURCE = "abstraction:"  # an abstraction's source names the concept that grouped its facts


def recall_filter(kinds: object, include_archived: object) -> RecallFilter:
    """The checked recall filter of `recall(kinds=..., include_archived=...)`."""
    if not isinstance(include_archived, bool):
        raise InvalidInput("include_archived must be True or False")
    if kinds is None:
        return RecallFilter(include_archived=include_archived)
    if isinstance(kinds, str) or not isinstance(kinds, Sequence | set | frozenset):
        raise InvalidInput("kinds must be a sequence of kind names, e.g. ['preference']")
    checked = tuple(dict.fromkeys(kinds))
    if not checked or not all(isinstance(k, str) and k.isidentifier() for k in checked):
        raise InvalidInput(f"kinds must be non-empty short words, not {shown(kinds)}")
    return RecallFilter(kinds=checked, include_archived=include_archived)


def _positive(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"{name} must be a positive integer")
    return value


def _abstraction_id(namespace: str, key: str) -> str:
    """Each concept's abstraction is one lineage, so a rewrite is a new version of it."""
    return "abs-" + hashlib.sha1(f"{namespace}\x1f{key}".encode()).hexdigest()[:24]


def _groups(
    reads: RecallReads, ns: str, now: datetime, min_facts: int, max_facts: int
) -> list[tuple[str, str, list[Fact]]]:
    """(key, display, current facts) per concept shared by at least `min_facts` facts; a group
    mostly covered by bigger ones is dropped."""
    concepts = {c.key: c.display for c in reads.concepts(ns, 1000)}
    scope = RecallScope(namespace=ns, valid_at=now, known_at=now, where=_HIDDEN_TOO)
    found = reads.mentions(scope, list(concepts), max_facts)
    by_key: dict[str, dict[str, Fact]] = {}
    for key, fact in found:
        if fact.kind != ABSTRACTION:
            by_key.setdefault(key, {})[fact.version_id] = fact
    sized = sorted(
        ((k, facts) for k, facts in by_key.items() if len(facts) >= min_facts),
        key=lambda kv: (-len(kv[1]), kv[0]),
    )
    covered: set[str] = set()
    out = []
    for key, facts in sized:
        if len(set(facts) - covered) * 2 < len(facts):
            continue
        covered |= set(facts)
        members = sorted(facts.values(), key=lambda f: (f.valid_from, f.recorded_at))
        out.append((key, concepts[key], members))
    return out


@attrs.frozen(kw_only=True)
class _Planned:
    """One abstraction to write: its concept, lineage, current version and members."""

    key: str
    fact_id: str
    current: Fact | None
    number: int  # the new version's number (1: a new lineage)
    members: list[Fact]
    ids: tuple[str, ...]
    text: str


def abstract(
    ctx: Services,
    ns: str,
    *,
    min_facts: int = 3,
    max_facts: int = 12,
    at: datetime | None = None,
) -> list[Abstraction]:
    """`MemoryStore.abstract` (its docstring says what is written and when)."""
    low, high = _positive(min_facts, "min_facts"), _positive(max_facts, "max_facts")
    if high < low:
        raise InvalidInput("max_facts must be at least min_facts")
    now = tx_time(ctx, ns, at)
    groups = []
    for key, display, members in _groups(ctx.reads, ns, now, low, high):
        fact_id = _abstraction_id(ns, key)
        groups.append((key, display, members, fact_id, ctx.facts.lineage(fact_id)))
    currents = [g[4].current.version_id for g in groups if g[4] and g[4].current]
    known = ctx.upkeep.abstraction_members(currents)  # one read for every group
    planned = []
    for key, display, members, fact_id, lineage in groups:
        current = lineage.current if lineage else None
        number = max((v.version for v in lineage.versions), default=0) + 1 if lineage else 1
        ids = tuple(sorted(m.version_id for m in members))
        if current is not None and known.get(current.version_id) == ids:
            continue
        text = abstract_text(ctx.llm, display, members)
        planned.append(
            _Planned(
                key=key,
                fact_id=fact_id,
                current=current,
                number=number,
                members=members,
                ids=ids,
                text=text,
            )
        )
    if not planned:
        return []

    statements = [ctx.analyser.analyse_one(p.text) for p in planned]

    def build(when: datetime) -> list[Abstraction]:
        versions = []
        for p, statement in zip(planned, statements, strict=True):
            start = max(m.valid_from for m in p.members)
            end = min((m.valid_to for m in p.members if m.valid_to), default=None)
            meta = {
                "source": SOURCE + p.key,
                "speaker": None,
                "session": None,
                "kind": ABSTRACTION,
            }
            versions.append(new_version(p.fact_id, statement, start, end, p.number, meta, None))
        batch = WriteBatch(
            namespace=ns,
            at=when,
            close=tuple(p.current.version_id for p in planned if p.current),
            facts=tuple(NewFact(id=p.fact_id) for p in planned if p.number == 1),
            versions=tuple(versions),
            abstracts=tuple(
                (v.version_id, m) for p, v in zip(planned, versions, strict=True) for m in p.ids
            ),
        )
        result = ctx.log.apply_many([batch])[0]
        return [
            Abstraction(fact=to_fact(ns, v, result), concept=p.key, members=p.ids)
            for p, v in zip(planned, versions, strict=True)
        ]

    return commit(ctx, ns, at, build)


def abstractions(ctx: Services, ns: str, basis: Basis) -> list[Abstraction]:
    """The abstractions valid and known at the basis, with the versions they summarise."""
    assert basis.valid_at is not None and basis.known_at is not None
    facts = [
        f for f in ctx.facts.snapshot(ns, basis.valid_at, basis.known_at) if f.kind == ABSTRACTION
    ]
    members = ctx.upkeep.abstraction_members([f.version_id for f in facts])
    return [
        Abstraction(
            fact=f,
            concept=(f.source or "").removeprefix(SOURCE),
            members=members.get(f.version_id, ()),
        )
        for f in facts
    ]


def prune(
    ctx: Services,
    ns: str,
    *,
    min_weight: float = 0.1,
    half_life: timedelta | None = None,
    at: datetime | None = None,
    dry_run: bool = False,
) -> list[Fact]:
    """Archive weak current memories out of default recall; returns them.

    A memory's weight decays with age (`half_life`, default the store's lifecycle) and grows
    with use. Archived memories stay in history, snapshots, timelines and in recalls whose
    basis is known before the archiving; `recall(include_archived=True)` shows them too.
    """
    if isinstance(min_weight, bool) or not isinstance(min_weight, int | float):
        raise InvalidInput("min_weight must be a number")
    if not isinstance(dry_run, bool):
        raise InvalidInput("dry_run must be True or False")
    policy = ctx.lifecycle
    if half_life is not None:
        policy = Lifecycle(half_life=half_life, use_weight=policy.use_weight)
    if policy.half_life is None:
        raise InvalidInput("prune needs a half_life (here or in the store's Lifecycle)")
    ctx.uses.flush()

    def weak_at(when: datetime) -> list[Fact]:
        current = ctx.facts.snapshot(ns, when, when)
        usage = ctx.upkeep.usage(ns, [f.id for f in current])
        return [f for f in current if policy.strength(f, usage.get(f.id), when) < min_weight]

    if dry_run:
        return weak_at(tx_time(ctx, ns, at))

    def build(when: datetime) -> list[Fact]:
        weak = weak_at(when)
        if weak:  # archived in one batch, at a time the namespace's clock allows
            batch = WriteBatch(namespace=ns, at=when, archive=tuple(f.id for f in weak))
            ctx.log.apply_many([batch])
        return weak

    return commit(ctx, ns, at, build)


def infer_relationships(
    ctx: Services,
    ns: str,
    *,
    min_strength: int = 3,
    min_shared: int = 2,
    max_concepts: int = 200,
    at: datetime | None = None,
) -> list[InferredEdge]:
    """Infer typed relationships between concepts, kept apart from stated facts.

    Rules: concepts co-mentioned at least `min_strength` times are ASSOCIATED_WITH each
    other; unrelated concepts sharing `min_shared` neighbours are SIMILAR_TO each other
    (confidence from the Adamic-Adar score). With an LLM, it proposes typed relations too
    (e.g. paris LOCATED_IN france). Recall follows them at a lower weight.
    """
    strength = _positive(min_strength, "min_strength")
    shared = _positive(min_shared, "min_shared")
    limit = _positive(max_concepts, "max_concepts")
    concepts = ctx.reads.concepts(ns, limit)
    keys = [c.key for c in concepts]
    _, edges = ctx.reads.concept_graph(ns, keys, hops=0, window=2**62) if keys else ([], [])
    found = rule_relations(edges, min_strength=strength, min_shared=shared)
    if ctx.llm is not None and keys:
        found += llm_relations(ctx.llm, concepts, edges)

    def build(when: datetime) -> datetime:
        if found:  # the clock check and move first, then the edges at that time
            ctx.log.apply_many([WriteBatch(namespace=ns, at=when)])
            ctx.upkeep.write_inferred(ns, found, when)
        return when

    now = commit(ctx, ns, at, build) if found else tx_time(ctx, ns, at)
    return [
        InferredEdge(
            src=e.src,
            dst=e.dst,
            type=e.type,
            confidence=e.confidence,
            provenance=e.provenance,
            recorded_at=now,
        )
        for e in found
    ]


def relationships(ctx: Services, ns: str, keys: Sequence[str] | None) -> list[InferredEdge]:
    """Inferred relationships of a namespace (touching `keys`, if given), best first, at or
    above the lifecycle's confidence floor (`Lifecycle.min_inferred_confidence`)."""
    if keys is not None and (isinstance(keys, str) or not all(isinstance(k, str) for k in keys)):
        raise InvalidInput("keys must be a sequence of concept keys")
    found = ctx.reads.inferred(ns, None if keys is None else list(keys))
    return [e for e in found if ctx.lifecycle.trusts(e.confidence)]


def forget_citing(ctx: Services, fact_id: str) -> int:
    """Forget the abstractions that quote a fact about to be forgotten."""
    removed = 0
    for cited in ctx.upkeep.citing(fact_id):
        if cited != fact_id:
            removed += ctx.erasure.forget_fact(cited)
    return removed
