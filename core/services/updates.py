"""The updates memory formation finds, beyond those it applies as it writes: what the stored
claims say should be replaced (`updates="suggest"`), applying one, and undoing one without
losing anything."""

from __future__ import annotations

from datetime import datetime

import attrs

from bitemporal_core.backends.port import Link, WriteBatch
from bitemporal_core.errors import InvalidInput, NotCurrent, NotFound
from bitemporal_core.language.topics import TOPIC
from bitemporal_core.model import Fact, Update
from bitemporal_core.services.claims import Candidate, restated, retired_by
from bitemporal_core.services.commit import commit
from bitemporal_core.services.context import Services
from bitemporal_core.services.formation import TALK
from bitemporal_core.services.supersession import ends_at, truncated
from bitemporal_core.services.versions import new_version, to_fact
from bitemporal_core.services.writes import current

__all__ = ["apply_update", "pending_updates", "undo_update"]


def pending_updates(ctx: Services, namespace: str, at: datetime) -> list[Update]:
    """The replacements the offline rules find among the facts current at `at`: each fact's
    claims against those of the facts recorded before it (the oldest pair first)."""
    facts = [f for f in ctx.facts.snapshot(namespace, at, at) if f.kind != TALK]
    claims = ctx.facts.version_claims(namespace, [f.version_id for f in facts])
    facts.sort(key=lambda f: (f.recorded_at, f.id))
    seen: list[tuple[Fact, Candidate]] = []
    out = []
    for fact in facts:
        mine = claims.get(fact.version_id, ())
        earlier_of = {
            s: sorted((c for _, c in seen if c.claim.subject == s), key=lambda c: -c.recorded)
            for s in {c.subject for c in mine}
        }
        kept = {f for c in mine for f in restated(c, earlier_of[c.subject])}
        for claim in mine:
            for replaced in retired_by(claim, earlier_of[claim.subject]):
                if claim.slot == TOPIC and replaced in kept:
                    continue
                out.append(
                    Update(
                        fact=fact.id,
                        replaced=replaced,
                        reason="rule:" + claim.rule,
                        confidence=0.8,
                    )
                )
        for claim in claims.get(fact.version_id, ()):
            seen.append(
                (
                    fact,
                    Candidate(fact_id=fact.id, claim=claim, recorded=fact.recorded_at.timestamp()),
                )
            )
    return list({(u.fact, u.replaced): u for u in out}.values())


def apply_update(ctx: Services, update: Update, *, at: datetime | None) -> Fact:
    """Let `update.fact` supersede `update.replaced`: the replaced fact's current version is
    closed and its lineage ends where the new fact begins (a plan not begun when the new fact
    was said: when it was said, `ends_at`). Returns the new fact's version."""
    lineage, new = current(ctx, update.fact)
    old_lineage, old = current(ctx, update.replaced)
    if old_lineage.namespace != lineage.namespace:
        raise InvalidInput("an update must stay within one namespace")
    if old_lineage.superseded_by:
        raise NotCurrent(f"fact {update.replaced!r} was already superseded")
    statement = ctx.analyser.analyse_one(old.text)
    stale = ctx.upkeep.citing_current([old.id])
    link = Link(fact=new.id, replaced=old.id, reason=update.reason, confidence=update.confidence)
    said = new.said_at or new.recorded_at

    def build(when: datetime) -> Fact:
        batch = WriteBatch(
            namespace=lineage.namespace,
            at=when,
            close=(old.version_id, *stale),
            versions=tuple(truncated(old, statement, ends_at(old, new.valid_from, said))),
            links=(link,),
        )
        ctx.log.apply_many([batch])
        return new

    return commit(ctx, lineage.namespace, at, build)


def undo_update(
    ctx: Services, fact: str, *, replaced: str | None, at: datetime | None
) -> list[Fact]:
    """Undo the supersessions `fact` made (of `replaced` only, if given): each replaced fact
    is believed again with the valid time it had, the link is kept and marked undone.
    Returns the restored versions."""
    lineage = ctx.facts.lineage(fact)
    if lineage is None:
        raise NotFound(f"no fact with id {fact!r}")
    changes = [
        c
        for c in lineage.changes
        if c.fact == fact and c.undone_at is None and replaced in (None, c.replaced)
    ]
    if not changes:
        raise NotFound(f"fact {fact!r} supersedes nothing that can be undone")
    restored, close, undo = [], [], []
    for change in changes:
        old_lineage = ctx.facts.lineage(change.replaced)
        if old_lineage is None:
            raise NotFound(f"no fact with id {change.replaced!r}")
        old = old_lineage.current
        closed = [v for v in old_lineage.versions if v.superseded_at == change.at]
        if not closed:
            raise NotCurrent(f"fact {change.replaced!r} changed again since; correct it instead")
        original = closed[-1]
        if old is not None:
            close.append(old.version_id)
        statement = ctx.analyser.analyse_one(original.text)
        meta = {
            "source": original.source,
            "speaker": original.speaker,
            "session": original.session,
            "kind": original.kind,
            "said_at": original.said_at,
        }
        number = max(v.version for v in old_lineage.versions) + 1
        version = new_version(
            original.id, statement, original.valid_from, original.valid_to, number, meta, None
        )
        restored.append(attrs.evolve(version, supersedes=original.supersedes))
        undo.append((fact, change.replaced))

    def build(when: datetime) -> list[Fact]:
        batch = WriteBatch(
            namespace=lineage.namespace,
            at=when,
            close=tuple(close),
            versions=tuple(restored),
            undo=tuple(undo),
        )
        result = ctx.log.apply_many([batch])[0]
        return [to_fact(lineage.namespace, v, result) for v in restored]

    return commit(ctx, lineage.namespace, at, build)
