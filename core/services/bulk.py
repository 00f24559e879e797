"""Bulk import: many messages remembered in a few transactions (one per chunk)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime

import attrs

from bitemporal_core.backends.port import (
    Link,
    NewClaim,
    NewFact,
    NewMessage,
    NewVersion,
    WriteBatch,
)
from bitemporal_core.common.times import TICK
from bitemporal_core.common.validate import check_items
from bitemporal_core.errors import InvalidInput, TimeRegression
from bitemporal_core.language.analysis import Analysed, Utterance
from bitemporal_core.language.claims import names_a_date
from bitemporal_core.language.detect import check_language
from bitemporal_core.language.worthiness import MEMORY
from bitemporal_core.model import UNSET, Fact
from bitemporal_core.services.book import Book
from bitemporal_core.services.commit import check_ahead, commit
from bitemporal_core.services.context import Services
from bitemporal_core.services.formation import TALK, Planned, plan_statements, worthiness
from bitemporal_core.services.items import Item, prepare_item
from bitemporal_core.services.mentions import Mentions
from bitemporal_core.services.supersession import ends_at, llm_kinds_many, truncated
from bitemporal_core.services.versions import check_meta, new_version, to_fact

__all__ = ["remember_batch", "remember_many", "repeat_of"]

_FIELDS = {"text", "at", "valid_from", "valid_to", "speaker", "source", "id", "session", "kind"}
_FIELDS |= {"language"}


def remember_batch(
    ctx: Services,
    namespace: str,
    when: datetime,
    item: Item,
    planned: Sequence[Planned],
    summaries: tuple[tuple[str, str], ...] = (),
    recent: tuple[str, ...] = (),
) -> tuple[WriteBatch, list[NewVersion]]:
    """The write of one message at transaction time `when`: the message, a fact per kept
    statement (with its claims), and for each fact a statement retires, what `supersede`
    would write: its current version closed, its lineage ending where the new fact starts,
    a SUPERSEDES link with the reason."""
    versions, facts, extra, close = [], [], [], []
    claims: list[NewClaim] = []
    links: list[Link] = []
    for plan in (p for p in planned if p.keep):
        st = plan.statement
        said = item.said_at or when
        start, end = ctx.analyser.valid_time(
            st.text, said, item.valid_from, item.valid_to, dated=names_a_date(st.claims)
        )
        meta = (
            item.meta if st.category == MEMORY else {**item.meta, "kind": item.meta["kind"] or TALK}
        )
        if item.said_at is not None:
            meta = {**meta, "said_at": item.said_at}
        new = new_version(plan.fact_id, st, start, end, 1, meta, item.message_id)
        retired = [r for r in plan.retire if r.fact is not None]
        if retired:
            new = attrs.evolve(new, supersedes=retired[0].fact_id)
        for r in retired:
            assert r.fact is not None
            old = ctx.analyser.analyse_one(r.fact.text)
            close.append(r.fact.version_id)
            close.extend(ctx.upkeep.citing_current([r.fact_id]))
            extra.extend(truncated(r.fact, old, ends_at(r.fact, start, said)))
            new = _inherit(new, old)
            links.append(
                Link(
                    fact=plan.fact_id, replaced=r.fact_id, reason=r.reason, confidence=r.confidence
                )
            )
        versions.append(new)
        facts.append(NewFact(id=new.fact_id, supersedes=new.supersedes))
        claims.extend(attrs.evolve(c, version_id=new.version_id) for c in plan.claims)
    kept = [p.statement for p in planned if p.keep]
    message = NewMessage(
        id=item.message_id, session=item.meta["session"], role=item.meta["speaker"], text=item.text
    )
    batch = WriteBatch(
        namespace=namespace,
        at=when,
        close=tuple(dict.fromkeys(close)),
        facts=tuple(facts),
        versions=(*versions, *extra),
        messages=(message,),
        concepts=tuple(c for st in kept for c in st.concepts),
        relate=tuple(p for st in kept for p in st.pairs),
        advance_t_index=bool(kept),
        summaries=summaries,
        claims=tuple(claims),
        links=tuple(links),
        recent=recent,
    )
    return batch, versions


def _inherit(new: NewVersion, old: Analysed) -> NewVersion:
    """An update keeps the keyword terms of what it replaces (once each), so that a question
    in the old fact's words ("Do I still play in an orchestra?") finds the new one ("I gave up
    the cello")."""
    have = dict(new.terms)
    added = {t: 1 for t, _ in old.terms if t not in have}
    if not added:
        return new
    return attrs.evolve(
        new, terms=tuple(sorted({**have, **added}.items())), length=new.length + len(added)
    )


def _item(ctx: Services, index: int, raw: object) -> Item:
    if isinstance(raw, str):
        raw = {"text": raw}
    if not isinstance(raw, Mapping):
        raise InvalidInput(
            f"item {index}: expected a mapping with 'text', not {type(raw).__name__}"
        )
    unknown = set(raw) - _FIELDS
    if unknown:
        raise InvalidInput(f"item {index}: unknown fields {sorted(unknown)}")
    try:
        meta = check_meta(
            speaker=raw.get("speaker"),
            source=raw.get("source", raw.get("id")),
            session=raw.get("session"),
            kind=raw.get("kind"),
        )
        language = raw.get("language")
        meta["language"] = None if language is None else check_language(language)
        return prepare_item(
            raw.get("text"),
            at=raw.get("at"),
            valid_from=raw.get("valid_from"),
            valid_to=raw.get("valid_to", UNSET),
            meta=meta,
        )
    except InvalidInput as e:
        raise type(e)(f"item {index}: {e}") from e


def repeat_of(ctx: Services, namespace: str, item: Item) -> list[Fact] | None:
    """The facts already remembered from the item's message id and text, if it is a repeat."""
    key = item.key
    if key is None:
        return None
    return _remembered(ctx, namespace, [key[0]]).get(key)


def _remembered(ctx: Services, namespace: str, ids: list[str]) -> dict[tuple[str, str], list[Fact]]:
    """(message id, message text) -> the latest version of each fact remembered from it, in
    the order of the statements in the text."""
    found: dict[tuple[str, str], dict[str, Fact]] = {}
    said: dict[str, str] = {}  # fact id -> the text of its first version
    for message_id, text, fact in ctx.messages.remembered(namespace, ids):
        latest = found.setdefault((message_id, text), {})
        if fact is None:  # stored as a message only: a repeat that gives no fact
            continue
        if fact.id not in latest or latest[fact.id].version < fact.version:
            latest[fact.id] = fact
        if fact.version == 1:
            said[fact.id] = fact.text
    return {
        (mid, text): sorted(facts.values(), key=lambda f: (text.find(said.get(f.id, "")), f.id))
        for (mid, text), facts in found.items()
    }


def remember_many(
    ctx: Services, items: object, namespace: str, chunk: int, parallel: bool | None = None
) -> list[list[Fact]]:
    """Validate every item, then remember them in order, one transaction per chunk.

    Items already remembered (a stored message id with the same text, whether it gave facts
    or was kept as a message only; or a repeat of an earlier item of this call) are not
    written again: their facts are returned.
    """
    checked = [_item(ctx, i, raw) for i, raw in enumerate(check_items(items))]
    keys = [item.key for item in checked if item.key is not None]
    done = _remembered(ctx, namespace, list(dict.fromkeys(k[0] for k in keys))) if keys else {}
    fresh, seen = [], set(done)
    for item in checked:
        if item.key in seen:
            continue
        fresh.append(item)
        if item.key is not None:
            seen.add(item.key)
    prepared = _stamp(ctx, namespace, fresh)
    parts = [prepared[start : start + chunk] for start in range(0, len(prepared), chunk)]
    befores = iter(ctx.dialogue.befores(namespace, prepared))
    said = [
        [
            Utterance(
                text=p.text,
                speaker=p.meta["speaker"],
                before=next(befores),
                language=p.meta.get("language"),
            )
            for p in part
        ]
        for part in parts
    ]
    analysed_parts = ctx.pool.analysed(said, parallel=parallel)
    written: list[list[Fact]] = []
    for part, analysed in zip(parts, analysed_parts, strict=True):
        if ctx.llm is not None:
            analysed = llm_kinds_many(ctx, part, analysed)
            analysed = [worthiness(ctx, group) for group in analysed]
        written.extend(_write_chunk(ctx, namespace, part, analysed))
        ctx.dialogue.said_many(namespace, part)
    new = iter(written)
    out = []
    for item in checked:
        if item.key is not None and item.key in done:
            out.append(done[item.key])
        else:
            out.append(next(new))
            if item.key is not None:
                done[item.key] = out[-1]
    return out


def _stamp(ctx: Services, namespace: str, items: list[Item]) -> list[Item]:
    """Check transaction times before anything is written: an item without one that follows an
    item with one gets the previous time plus a microsecond; explicit times going backwards
    (against each other or the namespace's latest) are refused. Leading items without a time
    keep none: they take the engine's clock when written (and are rebuilt if overtaken)."""
    clock = ctx.log.clock(namespace)
    floor = clock.last_tx
    previous: datetime | None = None  # the time of the last item that has one
    out = []
    for i, item in enumerate(items):
        when = item.at if item.at is not None else None
        if when is None and previous is not None:
            when = previous + TICK
        if when is None:  # written at the clock's time, so nothing after it may be earlier
            floor = clock.now if floor is None else max(floor, clock.now)
            out.append(item)
            continue
        if item.at is not None:
            check_ahead(when, clock, ctx.max_clock_skew, f"item {i}: at")
        if floor is not None and when < floor:
            raise TimeRegression(
                f"item {i}: at={when.isoformat()} is earlier than {floor.isoformat()}, the latest "
                f"transaction time before it"
            )
        floor = previous = when
        out.append(attrs.evolve(item, at=when))
    return out


def _write_chunk(
    ctx: Services, namespace: str, part: list[Item], analysed: list[list[Analysed]]
) -> list[list[Fact]]:
    """Plan each item in order, then write the chunk in one transaction (items without a
    time follow the chunk's clock time). An item that retires a fact planned earlier in the
    chunk first has the items before it written, so that it closes a stored version."""
    mentions = Mentions(list(ctx.facts.recent(namespace)))
    book, updates = Book(), ctx.formation.updates
    written: list[list[Fact]] = []
    pending: list[tuple[Item, list[Planned]]] = []
    now = ctx.clock() if ctx.clock else ctx.log.clock(namespace).now
    for item, statements in zip(part, analysed, strict=True):
        at = item.at or now
        plan = functools.partial(
            plan_statements,
            ctx,
            namespace,
            statements,
            speaker=item.meta["speaker"],
            at=at,
            mentions=mentions,
            book=book,
            updates=updates,
        )
        plans = plan()
        if pending and any(r.fact is None for p in plans for r in p.retire):
            written.extend(_write_planned(ctx, namespace, pending, tuple(mentions.recent)))
            pending = []
            book.forget_loaded()
            plans = plan()
        pending.append((item, plans))
    if pending:
        written.extend(_write_planned(ctx, namespace, pending, tuple(mentions.recent)))
    return written


def _write_planned(
    ctx: Services,
    namespace: str,
    planned: list[tuple[Item, list[Planned]]],
    recent: tuple[str, ...],
) -> list[list[Fact]]:
    """One transaction for planned items."""

    def build(first: datetime) -> list[list[Fact]]:
        batches, all_versions, when = [], [], first
        for i, (item, plans) in enumerate(planned):
            if item.at is not None:
                when = item.at
            elif i:
                when = when + TICK
            last = i == len(planned) - 1
            batch, versions = remember_batch(
                ctx, namespace, when, item, plans, recent=recent if last else ()
            )
            batches.append(batch)
            all_versions.append(versions)
        results = ctx.log.apply_many(batches)
        return [
            [to_fact(namespace, v, result) for v in versions]
            for versions, result in zip(all_versions, results, strict=True)
        ]

    return commit(ctx, namespace, planned[0][0].at, build)
