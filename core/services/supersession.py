"""Supersession helpers: truncating a lineage, following a moved start, LLM replacements."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import attrs

from bitemporal_core.backends.port import NewVersion, RecallScope
from bitemporal_core.errors import BackendError
from bitemporal_core.language.analysis import Analysed
from bitemporal_core.model import Fact, Lineage
from bitemporal_core.services.context import Services
from bitemporal_core.services.items import Item
from bitemporal_core.services.llm_tasks import classify_kinds, summarise
from bitemporal_core.services.versions import new_version

__all__ = [
    "concept_summaries",
    "ends_at",
    "llm_kinds",
    "llm_kinds_many",
    "moved_predecessor",
    "successor_start",
    "truncated",
]


_log = logging.getLogger(__name__)


def moved_predecessor(
    ctx: Services, lineage: Lineage, current: Fact, start: datetime
) -> tuple[Fact, Analysed, NewVersion | None] | None:
    """The superseded fact's current version whose end must follow a moved start, and the
    version replacing it (None: it is never valid any more). The end follows the start both
    ways, but never past the end the superseded fact had before it was superseded."""
    if lineage.supersedes is None or start == current.valid_from:
        return None
    prev = ctx.facts.lineage(lineage.supersedes)
    prev_current = prev.current if prev is not None else None
    if prev is None or prev_current is None or prev_current.valid_to != current.valid_from:
        return None
    statement = ctx.analyser.analyse_one(prev_current.text, speaker=prev_current.speaker)
    end = start
    own = _end_before_supersession(prev, lineage)
    if own is not None:
        end = min(own, start)
    if end == prev_current.valid_to:
        return None
    moved = truncated(attrs.evolve(prev_current, valid_to=None), statement, end)
    return prev_current, statement, moved[0] if moved else None


def _end_before_supersession(prev: Lineage, successor: Lineage) -> datetime | None:
    """The valid_to the superseded lineage had just before `successor` superseded it (None:
    open or unknown)."""
    at = next(
        (c.at for c in successor.changes if c.replaced == prev.fact_id and c.undone_at is None),
        None,
    )
    if at is None and successor.versions:
        at = successor.versions[0].recorded_at
    if at is None:
        return None
    closed = [v for v in prev.versions if v.superseded_at == at and v.recorded_at < at]
    return closed[-1].valid_to if closed else None


def successor_start(ctx: Services, lineage: Lineage) -> datetime | None:
    """Where a superseded fact's successor starts to be valid (None: not superseded)."""
    if not lineage.superseded_by:
        return None
    successor = ctx.facts.lineage(lineage.superseded_by[0])
    if successor is None or not successor.versions:
        return None
    version = successor.current or successor.versions[-1]
    return version.valid_from


def llm_kinds(ctx: Services, statements: list[Analysed], kind: str | None) -> list[Analysed]:
    """With an LLM and no explicit kind: the LLM's kind for each statement (the offline rule's
    where its answer is unusable, or when the LLM cannot be reached: a kind is a label, not
    worth failing a write for)."""
    if ctx.llm is None or kind is not None or not statements:
        return statements
    try:
        answers = classify_kinds(ctx.llm, [st.text for st in statements])
    except BackendError as e:
        _log.warning("statement kinds classified offline: %s", e)
        return statements
    return [
        st if answer is None else attrs.evolve(st, kind=answer)
        for st, answer in zip(statements, answers, strict=True)
    ]


def llm_kinds_many(
    ctx: Services, items: list[Item], groups: list[list[Analysed]]
) -> list[list[Analysed]]:
    """`llm_kinds` for a bulk chunk, asking about up to 40 statements per LLM call."""
    todo = [
        (i, j)
        for i, item in enumerate(items)
        if item.meta["kind"] is None
        for j in range(len(groups[i]))
    ]
    out = [list(group) for group in groups]
    for start in range(0, len(todo), 40):
        part = todo[start : start + 40]
        found = llm_kinds(ctx, [groups[i][j] for i, j in part], None)
        for (i, j), st in zip(part, found, strict=True):
            out[i][j] = st
    return out


# New mentions of a concept between two LLM summaries (docs/design.md, "Concept summaries").
SUMMARY_EVERY = 3


def concept_summaries(
    ctx: Services, namespace: str, statements: list[Analysed], at: datetime | None
) -> tuple[tuple[str, str], ...]:
    """With an LLM: a new summary for each concept whose mentions reach a multiple of
    `SUMMARY_EVERY` with these statements, over its current mentions and the new ones."""
    if ctx.llm is None:
        return ()
    when = at or datetime.now(UTC)
    new: dict[str, list[str]] = {}
    display: dict[str, str] = {}
    for st in statements:
        for key, shown in st.concepts:
            new.setdefault(key, []).append(st.text)
            display.setdefault(key, shown)
    before = ctx.reads.mention_counts(namespace, list(new))
    out = []
    for key, texts in new.items():
        count = before.get(key, 0)
        if (count + len(texts)) // SUMMARY_EVERY == count // SUMMARY_EVERY:
            continue
        scope = RecallScope(namespace=namespace, valid_at=when, known_at=when)
        found = ctx.reads.mentions(scope, [key], 20)
        mentions = [(f.valid_from, f.text) for _, f in found] + [(when, t) for t in texts]
        try:
            out.append((key, summarise(ctx.llm, display[key], mentions)))
        except BackendError as e:  # a summary is a convenience, not worth failing a write for
            _log.warning("concept summary skipped: %s", e)
    return tuple(out)


def ends_at(replaced: Fact, start: datetime, said: datetime) -> datetime:
    """Where memory formation ends a replaced fact: where its successor starts, or, for a
    plan that had not begun when the change was said (a trip cancelled or moved before it),
    when it was said: it never happened as planned, whenever the successor's time falls ("the
    Lisbon trip is cancelled, the wedding got postponed to next year")."""
    return min(start, said) if replaced.valid_from > said else start


def truncated(version: Fact, statement: Analysed, end: datetime) -> list[NewVersion]:
    """A copy of `version` ending at `end`, or nothing if that leaves no valid time."""
    new_end = end if version.valid_to is None else min(version.valid_to, end)
    if new_end <= version.valid_from:
        return []
    meta = {
        "source": version.source,
        "speaker": version.speaker,
        "session": version.session,
        "kind": version.kind,
        "said_at": version.said_at,
    }
    copy = new_version(
        version.id, statement, version.valid_from, new_end, version.version + 1, meta, None
    )
    return [attrs.evolve(copy, supersedes=version.supersedes, language=version.language)]
