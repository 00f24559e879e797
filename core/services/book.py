"""The current facts holding claims, by subject, as one write call of memory formation sees
them (docs/design.md, "Memory formation"): read from the engine under the lookup keys of the
claims that may retire them, then changed by each statement planned."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

import attrs

from bitemporal_core.errors import ReadOnlyStore
from bitemporal_core.model import Claim, Fact
from bitemporal_core.services.claims import Candidate, held_keys, wanted_keys
from bitemporal_core.services.context import Services

__all__ = ["Book"]

_log = logging.getLogger(__name__)


@attrs.define
class Book:
    """The current facts holding claims, by subject, as one write call sees them: read from
    the engine (the claims a new claim may retire, under the lookup keys not read yet), then
    changed by each statement planned (`pending`: planned, not written yet)."""

    loaded: set[str] = attrs.field(factory=set)  # lookup keys (subjects, unkeyed) read
    unkeyed: bool = False  # a namespace written before claims had keys: read by subject
    facts: dict[str, Fact] = attrs.field(factory=dict)
    claims: dict[str, list[tuple[str, Claim]]] = attrs.field(factory=dict)  # subject -> facts
    pending: set[str] = attrs.field(factory=set)
    gone: set[str] = attrs.field(factory=set)  # retired by this call
    order: dict[str, float] = attrs.field(factory=dict)
    held: set[tuple[str, Claim]] = attrs.field(factory=set)  # the pairs in `claims`

    def load(self, rows: Sequence[tuple[Fact, Claim]]) -> None:
        for fact, claim in rows:
            if fact.id in self.gone:
                continue
            if fact.id not in self.facts or fact.id in self.pending:
                self.facts[fact.id] = fact
                self.order[fact.id] = fact.recorded_at.timestamp()
            if (fact.id, claim) not in self.held:
                self.held.add((fact.id, claim))
                self.claims.setdefault(claim.subject, []).append((fact.id, claim))

    def ensure(self, ctx: Services, namespace: str, claims: Sequence[Claim], at: datetime) -> None:
        """Read what these claims may retire and was not read yet: the held claims under
        their lookup keys (`claims.wanted_keys`, one engine read), so the read is bounded by
        what it finds, not by all that was said of the subject. A namespace written before
        claims had keys has its claims filed under keys first (once); on a read-only store,
        everything held about their subjects is read instead."""
        if not self.unkeyed:
            keys = [k for c in claims for k in wanted_keys(c) if k not in self.loaded]
            if not keys:
                return
            rows = ctx.facts.keyed_claims(namespace, list(dict.fromkeys(keys)), at)
            if rows is None and _filed(ctx, namespace):
                rows = ctx.facts.keyed_claims(namespace, list(dict.fromkeys(keys)), at)
            if rows is not None:
                self.load(rows)
                self.loaded.update(keys)
                return
            self.unkeyed, self.loaded = True, set()
        missing = [s for s in dict.fromkeys(c.subject for c in claims) if s not in self.loaded]
        if missing:
            self.load(ctx.facts.claims(namespace, missing, at))
            self.loaded.update(missing)

    def forget_loaded(self) -> None:
        """Read every subject again on its next use (after a write of what was pending)."""
        self.loaded.clear()
        self.pending.clear()
        self.gone.clear()

    def candidates(self, subject: str) -> list[Candidate]:
        found = [
            Candidate(fact_id=f, claim=c, recorded=self.order.get(f, 0.0))
            for f, c in self.claims.get(subject, ())
            if f in self.facts or f in self.pending
        ]
        return sorted(found, key=lambda c: -c.recorded)

    def retire(self, fact_id: str) -> None:
        self.gone.add(fact_id)
        self.facts.pop(fact_id, None)
        self.pending.discard(fact_id)
        for held in self.claims.values():
            self.held.difference_update((f, c) for f, c in held if f == fact_id)
            held[:] = [(f, c) for f, c in held if f != fact_id]

    def add(self, fact_id: str, claims: Sequence[Claim], order: float) -> None:
        self.pending.add(fact_id)
        self.order[fact_id] = order
        for claim in claims:
            self.held.add((fact_id, claim))
            self.claims.setdefault(claim.subject, []).append((fact_id, claim))


def _filed(ctx: Services, namespace: str) -> bool:
    """File the claims of a namespace written before claims had keys under their keys
    (`claims.held_keys`), once; False when it cannot be (a read-only store)."""
    try:
        found = ctx.upkeep.unkeyed_claims(namespace)
        if found is not None:
            ctx.upkeep.file_claims(namespace, {i: held_keys(claim) for i, claim in found})
            _log.info("filed %d claims of namespace %r under lookup keys", len(found), namespace)
    except ReadOnlyStore:
        return False
    return True
