"""The memory-lifecycle methods of `MemoryStore`: abstract, prune, infer relationships."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, TypeVar

import attrs

from ._async import twin
from ._inference import abstract_text, llm_relations, rule_relations
from ._time import require_tx_time, utcnow
from ._validate import check_namespace
from ._versions import new_version
from .backends._port import NewFact, RecallFilter, WriteBatch
from .errors import InvalidInput
from .lifecycle import ABSTRACTION, Abstraction, InferredEdge, Lifecycle
from .model import Basis, Fact

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._statements import Analyser
    from ._uses import UseRecorder
    from .backends._port import Backend, NewVersion, WriteResult
    from .llm import LLM

__all__ = ["LifecycleMixin", "recall_filter"]

_R = TypeVar("_R")

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
        raise InvalidInput(f"kinds must be non-empty short words, not {kinds!r}")
    return RecallFilter(kinds=checked, include_archived=include_archived)


def _positive(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"{name} must be a positive integer")
    return value


def _abstraction_id(namespace: str, key: str) -> str:
    """Each concept's abstraction is one lineage, so a rewrite is a new version of it."""
    return "abs-" + hashlib.sha1(f"{namespace}\x1f{key}".encode()).hexdigest()[:24]


def _groups(
    backend: Backend, ns: str, now: datetime, min_facts: int, max_facts: int
) -> list[tuple[str, str, list[Fact]]]:
    """(key, display, current facts) per concept shared by at least `min_facts` facts; a group
    mostly covered by bigger ones is dropped."""
    concepts = {c.key: c.display for c in backend.concepts(ns, 1000)}
    found = backend.mentions(ns, list(concepts), now, now, max_facts, where=_HIDDEN_TOO)
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


class LifecycleMixin:
    """Abstractions, pruning and inferred relationships (DESIGN §4 "Memory lifecycle")."""

    if TYPE_CHECKING:  # provided by MemoryStore
        _backend: Backend
        _analyser: Analyser
        _llm: LLM | None
        _lifecycle: Lifecycle
        _uses: UseRecorder

        def _commit(
            self, namespace: str, at: datetime | None, build: Callable[[datetime], _R]
        ) -> _R: ...

        @staticmethod
        def _fact(namespace: str, v: NewVersion, result: WriteResult) -> Fact: ...

        def snapshot(self, namespace: str = ..., *, basis: Basis | None = ...) -> list[Fact]: ...

    def abstract(
        self,
        namespace: str = "default",
        *,
        min_facts: int = 3,
        max_facts: int = 12,
        at: datetime | None = None,
    ) -> list[Abstraction]:
        """Summarise groups of related current facts (sharing a concept) as abstractions.

        Each group's abstraction is a fact of kind "abstraction" linked (ABSTRACTS) to the
        versions it summarises, written by the LLM when one is configured, else an extractive
        digest. A group whose members changed gets a new version (the old one stays as known
        then); an unchanged group is left alone. Returns the abstractions written.
        """
        ns = check_namespace(namespace)
        low, high = _positive(min_facts, "min_facts"), _positive(max_facts, "max_facts")
        if high < low:
            raise InvalidInput("max_facts must be at least min_facts")
        now = utcnow() if at is None else require_tx_time(at)
        groups = []
        for key, display, members in _groups(self._backend, ns, now, low, high):
            fact_id = _abstraction_id(ns, key)
            groups.append((key, display, members, fact_id, self._backend.lineage(fact_id)))
        currents = [g[4].current.version_id for g in groups if g[4] and g[4].current]
        known = self._backend.abstraction_members(currents)  # one read for every group
        planned = []
        for key, display, members, fact_id, lineage in groups:
            current = lineage.current if lineage else None
            number = max((v.version for v in lineage.versions), default=0) + 1 if lineage else 1
            ids = tuple(sorted(m.version_id for m in members))
            if current is not None and known.get(current.version_id) == ids:
                continue
            text = abstract_text(self._llm, display, members)
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

        statements = [self._analyser.analyse_one(p.text) for p in planned]

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
            result = self._backend.apply(batch)
            return [
                Abstraction(fact=self._fact(ns, v, result), concept=p.key, members=p.ids)
                for p, v in zip(planned, versions, strict=True)
            ]

        return self._commit(ns, at, build)

    def abstractions(
        self, namespace: str = "default", *, basis: Basis | None = None
    ) -> list[Abstraction]:
        """The abstractions valid and known at the basis, with the versions they summarise."""
        facts = [f for f in self.snapshot(namespace, basis=basis) if f.kind == ABSTRACTION]
        members = self._backend.abstraction_members([f.version_id for f in facts])
        return [
            Abstraction(
                fact=f,
                concept=(f.source or "").removeprefix(SOURCE),
                members=members.get(f.version_id, ()),
            )
            for f in facts
        ]

    def prune(
        self,
        namespace: str = "default",
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
        ns = check_namespace(namespace)
        if isinstance(min_weight, bool) or not isinstance(min_weight, int | float):
            raise InvalidInput("min_weight must be a number")
        if not isinstance(dry_run, bool):
            raise InvalidInput("dry_run must be True or False")
        policy = self._lifecycle
        if half_life is not None:
            policy = Lifecycle(half_life=half_life, use_weight=policy.use_weight)
        if policy.half_life is None:
            raise InvalidInput("prune needs a half_life (here or in the store's Lifecycle)")
        now = utcnow() if at is None else require_tx_time(at)
        self._uses.flush()
        current = self._backend.snapshot(ns, now, now)
        usage = self._backend.usage(ns, [f.id for f in current])
        weak = [f for f in current if policy.strength(f, usage.get(f.id), now) < min_weight]
        if weak and not dry_run:
            self._backend.archive(ns, [f.id for f in weak], now)
        return weak

    def infer_relationships(
        self,
        namespace: str = "default",
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
        ns = check_namespace(namespace)
        strength = _positive(min_strength, "min_strength")
        shared = _positive(min_shared, "min_shared")
        limit = _positive(max_concepts, "max_concepts")
        now = utcnow() if at is None else require_tx_time(at)
        concepts = self._backend.concepts(ns, limit)
        keys = [c.key for c in concepts]
        _, edges = self._backend.concept_graph(ns, keys, hops=0, window=2**62) if keys else ([], [])
        found = rule_relations(edges, min_strength=strength, min_shared=shared)
        if self._llm is not None and keys:
            found += llm_relations(self._llm, concepts, edges)
        if found:
            self._backend.write_inferred(ns, found, now)
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

    def relationships(
        self, namespace: str = "default", *, keys: Sequence[str] | None = None
    ) -> list[InferredEdge]:
        """Inferred relationships of a namespace (touching `keys`, if given), best first."""
        ns = check_namespace(namespace)
        if keys is not None and (
            isinstance(keys, str) or not all(isinstance(k, str) for k in keys)
        ):
            raise InvalidInput("keys must be a sequence of concept keys")
        return self._backend.inferred(ns, None if keys is None else list(keys))

    def _forget_citing(self, fact_id: str) -> int:
        """Forget the abstractions that quote a fact about to be forgotten."""
        removed = 0
        for cited in self._backend.citing(fact_id):
            if cited != fact_id:
                removed += self._backend.forget_fact(cited)
        return removed

    aabstract = twin(abstract)
    aabstractions = twin(abstractions)
    aprune = twin(prune)
    ainfer_relationships = twin(infer_relationships)
    arelationships = twin(relationships)
