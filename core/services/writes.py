"""The single writes: remember, supersede, correct, retract, add a message, forget.

Each builds its `WriteBatch` for the transaction time `commit` picks and applies it through the
transaction log; what it must read first (the current version, abstractions quoting it) is
read before, so a failed call writes nothing.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import attrs

from bitemporal_core.backends.port import Link, NewFact, NewMessage, WriteBatch
from bitemporal_core.common.times import check_interval, utcnow
from bitemporal_core.errors import MessageConflict, NotCurrent, NotFound, SupersededFact
from bitemporal_core.language.claims import names_a_date
from bitemporal_core.model import UNSET, Fact, Lineage, Message, Turn, Unset
from bitemporal_core.services.book import Book
from bitemporal_core.services.bulk import remember_batch, repeat_of
from bitemporal_core.services.commit import commit
from bitemporal_core.services.context import Services
from bitemporal_core.services.formation import mentions_for, plan_statements, worthiness
from bitemporal_core.services.items import Item, prepare_item
from bitemporal_core.services.lifecycle import forget_citing
from bitemporal_core.services.supersession import (
    concept_summaries,
    llm_kinds,
    moved_predecessor,
    successor_start,
    truncated,
)
from bitemporal_core.services.versions import check_meta, new_version, to_fact

__all__ = [
    "add_message",
    "add_turn",
    "correct",
    "current",
    "forget_fact",
    "remember",
    "retract",
    "supersede",
]


def _new_id() -> str:
    return uuid.uuid4().hex


def current(ctx: Services, fact: str) -> tuple[Lineage, Fact]:
    """A fact's lineage and its current version (`NotFound`, `NotCurrent` otherwise)."""
    lineage = ctx.facts.lineage(fact)
    if lineage is None:
        raise NotFound(f"no fact with id {fact!r}")
    version = lineage.current
    if version is None:
        raise NotCurrent(f"fact {fact!r} has no current version (retracted or replaced)")
    return lineage, version


def remember(ctx: Services, ns: str, item: Item, *, updates: str | None = None) -> list[Fact]:
    """One new fact per memory-worthy statement of the item, its claims, and the updates
    they make (see `formation`); for a repeat, the facts it already made."""
    repeated = repeat_of(ctx, ns, item)
    if repeated is not None:
        return repeated
    session, speaker = item.meta["session"], item.meta["speaker"]
    before = ctx.dialogue.before(ns, session, item.message_id)
    analysed = ctx.analyser.analyse(
        item.text, item.meta.get("language"), speaker=speaker, before=before
    )
    statements = llm_kinds(ctx, analysed, item.meta["kind"])
    statements = worthiness(ctx, statements)
    mentions = mentions_for(ctx, ns, statements)
    at = item.at or (ctx.clock() if ctx.clock else utcnow())
    plans = plan_statements(
        ctx,
        ns,
        statements,
        speaker=speaker,
        at=at,
        mentions=mentions,
        book=Book(),
        updates=updates or ctx.formation.updates,
    )
    kept = [p.statement for p in plans if p.keep]
    summaries = concept_summaries(ctx, ns, kept, item.at)
    recent = tuple(mentions.recent) if mentions.changed else ()

    def build(when: datetime) -> list[Fact]:
        batch, versions = remember_batch(ctx, ns, when, item, plans, summaries, recent)
        result = ctx.log.apply_many([batch])[0]
        return [to_fact(ns, v, result) for v in versions]

    facts = commit(ctx, ns, item.at, build)
    ctx.dialogue.said(ns, session, item.message_id, item.text)
    return facts


def supersede(
    ctx: Services,
    fact: str,
    text: str,
    *,
    at: datetime | None,
    valid_from: datetime | None,
    valid_to: datetime | Unset | None,
    meta: dict[str, Any],
) -> Fact:
    """Close a current fact and record its successor (see `MemoryStore.supersede`)."""
    lineage, version = current(ctx, fact)
    if lineage.superseded_by:  # its current version is the copy ending at the successor
        raise NotCurrent(f"fact {fact!r} was already superseded by {lineage.superseded_by[0]}")
    ns = lineage.namespace
    speaker = meta["speaker"]
    analysed = ctx.analyser.analyse_one(text, meta.get("language"), speaker=speaker)
    statement = llm_kinds(ctx, [analysed], meta["kind"])[0]
    old = ctx.analyser.analyse_one(version.text, speaker=version.speaker)
    message_id = meta["source"] or "msg-" + _new_id()
    stale = ctx.upkeep.citing_current([version.id])  # abstractions quoting it end too

    def build(when: datetime) -> Fact:
        start, end = ctx.analyser.valid_time(
            text, when, valid_from, valid_to, dated=names_a_date(statement.claims)
        )
        new = new_version(_new_id(), statement, start, end, 1, meta, message_id)
        new = attrs.evolve(new, supersedes=version.id)
        message = NewMessage(
            id=message_id, session=meta["session"], role=meta["speaker"], text=text
        )
        batch = WriteBatch(
            namespace=ns,
            at=when,
            close=(version.version_id, *stale),
            facts=(NewFact(id=new.fact_id, supersedes=version.id),),
            links=(Link(fact=new.fact_id, replaced=version.id),),
            versions=(new, *truncated(version, old, start)),
            messages=(message,),
            concepts=statement.concepts,
            relate=statement.pairs,
            advance_t_index=True,
        )
        return to_fact(ns, new, ctx.log.apply_many([batch])[0])

    successor = commit(ctx, ns, at, build)
    ctx.dialogue.said(ns, meta["session"], message_id, text)
    return successor


def correct(
    ctx: Services,
    fact: str,
    *,
    text: str | None,
    valid_from: datetime | None,
    valid_to: datetime | Unset | None,
    at: datetime | None,
    kind: str | None,
) -> Fact:
    """Record a corrected version of a current fact (see `MemoryStore.correct`); one that
    changes nothing writes nothing and returns the current version."""
    lineage, version = current(ctx, fact)
    new_text = version.text if text is None else text
    start = version.valid_from if valid_from is None else valid_from
    end = version.valid_to if isinstance(valid_to, Unset) else valid_to
    new_kind = version.kind if kind is None else kind
    check_interval(start, end)
    _check_successor(ctx, lineage, end)
    if (new_text, start, end, new_kind) == (
        version.text,
        version.valid_from,
        version.valid_to,
        version.kind,
    ):
        return version
    statement = ctx.analyser.analyse_one(new_text, speaker=version.speaker)
    retold = new_text != version.text
    meta = {
        "source": version.source,
        "speaker": version.speaker,
        "session": version.session,
        "kind": new_kind,
        "said_at": None if retold else version.said_at,
    }
    moved = moved_predecessor(ctx, lineage, version, start)
    stale = ctx.upkeep.citing_current([version.id, *([moved[0].id] if moved else [])])

    def build(when: datetime) -> Fact:
        new = new_version(version.id, statement, start, end, version.version + 1, meta, None)
        new = attrs.evolve(new, supersedes=version.supersedes)
        versions, close = [new], [version.version_id, *stale]
        if moved is not None:
            prev, _, follows = moved
            close.append(prev.version_id)
            versions.extend([follows] if follows is not None else [])
        batch = WriteBatch(
            namespace=lineage.namespace,
            at=when,
            close=tuple(close),
            versions=tuple(versions),
            concepts=statement.concepts if retold else (),
            relate=statement.pairs if retold else (),
            advance_t_index=retold,
        )
        return to_fact(lineage.namespace, new, ctx.log.apply_many([batch])[0])

    return commit(ctx, lineage.namespace, at, build)


def _check_successor(ctx: Services, lineage: Lineage, end: datetime | None) -> None:
    """A superseded fact may be corrected only within its own time: valid past its
    successor's start, both would be true at once while the history says one replaced the
    other (`undo_update` makes a replaced fact true again)."""
    bound = successor_start(ctx, lineage)
    if bound is not None and (end is None or end > bound):
        raise SupersededFact(
            f"fact {lineage.fact_id!r} was superseded by {lineage.superseded_by[0]!r} from "
            f"{bound.isoformat()}: its valid time must end by then (undo_update restores it)"
        )


def retract(ctx: Services, fact: str, *, at: datetime | None) -> Fact:
    """Close a fact's current version; nothing replaces it. Returns the closed version."""
    lineage, version = current(ctx, fact)
    stale = ctx.upkeep.citing_current([version.id])

    def build(when: datetime) -> Fact:
        close = (version.version_id, *stale)
        ctx.log.apply_many([WriteBatch(namespace=lineage.namespace, at=when, close=close)])
        return attrs.evolve(version, superseded_at=when)

    return commit(ctx, lineage.namespace, at, build)


def add_message(
    ctx: Services,
    ns: str,
    text: str,
    *,
    msg_id: str,
    session: str | None,
    role: str | None,
    at: datetime | None,
) -> Message:
    """Store a raw message (no facts). Idempotent by id: the same message again returns the
    stored one; another message under a stored id is a `MessageConflict` (nothing written)."""
    known = ctx.messages.message(ns, msg_id)
    wrote = known is None
    if known is None:

        def build(when: datetime) -> Message:
            message = NewMessage(id=msg_id, session=session, role=role, text=text)
            ctx.log.apply_many([WriteBatch(namespace=ns, at=when, messages=(message,))])
            return Message(id=msg_id, namespace=ns, session=session, role=role, text=text, at=when)

        written = commit(ctx, ns, at, build)
        known = ctx.messages.message(ns, msg_id) or written  # a concurrent writer may have won
    if (known.text, known.session, known.role) != (text, session, role):
        raise MessageConflict(
            f"message id {msg_id!r} already holds another message in namespace {ns!r}"
        )
    if wrote:
        ctx.dialogue.said(ns, session, msg_id, text)
    return known


def forget_fact(ctx: Services, fact_id: str) -> int:
    """Delete a lineage and the abstractions quoting it; the number of nodes removed."""
    if ctx.facts.lineage(fact_id) is None:
        raise NotFound(f"no fact with id {fact_id!r}")
    return forget_citing(ctx, fact_id) + ctx.erasure.forget_fact(fact_id)


def add_turn(ctx: Services, ns: str, turn: Turn, *, msg_id: str) -> list[Fact]:
    """Store a conversation turn as a message and, if it feeds the memory, remember its text
    with the message as source (one write when the message is the text itself)."""
    at = turn.at
    if at is not None and ctx.log.clock(ns).last_tx is not None:
        last = ctx.log.clock(ns).last_tx
        at = None if last is not None and at < last else at  # said before the latest write
    if turn.message is not None or not turn.remember:
        body = turn.text if turn.message is None else turn.message
        add_message(ctx, ns, body, msg_id=msg_id, session=turn.session, role=turn.role, at=at)
    if not turn.remember:
        return []
    speaker = turn.speaker or turn.role
    meta = check_meta(speaker=speaker, source=msg_id, session=turn.session, kind=None)
    item = prepare_item(turn.text, at=at, valid_to=UNSET, meta=meta)
    if turn.at is not None and at is None:
        item = attrs.evolve(item, said_at=turn.at)
    return remember(ctx, ns, item)
