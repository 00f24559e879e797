"""Supersession helpers: truncating a lineage, following a moved start, LLM replacements."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import attrs

from ._statements import Analysed
from ._versions import new_version
from .backends._port import NewVersion
from .errors import BackendError
from .llm import classify_kinds, contradictions, summarise
from .model import Fact, Lineage

if TYPE_CHECKING:
    from .store import MemoryStore

__all__ = ["llm_kinds", "llm_kinds_many", "moved_predecessor", "replaced_facts", "truncated"]

if TYPE_CHECKING:
    from ._bulk import Item

_log = logging.getLogger(__name__)


def moved_predecessor(
    store: MemoryStore, lineage: Lineage, current: Fact, start: datetime
) -> tuple[Fact, Analysed] | None:
    """The superseded fact's current version whose end must follow a moved start."""
    if lineage.supersedes is None or start == current.valid_from:
        return None
    prev = store._backend.lineage(lineage.supersedes)
    prev_current = prev.current if prev is not None else None
    if prev_current is None or prev_current.valid_to != current.valid_from:
        return None
    return prev_current, store._analyser.analyse_one(prev_current.text)


def replaced_facts(
    store: MemoryStore, namespace: str, statements: list[Analysed], at: datetime | None
) -> list[tuple[Fact, Analysed] | None]:
    """With an LLM: for each statement, the current fact sharing its concepts that the LLM
    says it replaces (checking only those, never the whole namespace)."""
    if store._llm is None:
        return []
    when = at or datetime.now(UTC)
    out: list[tuple[Fact, Analysed] | None] = []
    taken: set[str] = set()
    for st in statements:
        keys = [key for key, _ in st.concepts]
        found = store._backend.mentions(namespace, keys, when, when, 5) if keys else []
        candidates = list({f.id: f for _, f in found if f.id not in taken}.values())[:10]
        replaced = contradictions(store._llm, st.text, candidates)
        if replaced:
            taken.add(replaced[0].id)
            out.append((replaced[0], store._analyser.analyse_one(replaced[0].text)))
        else:
            out.append(None)
    return out


def llm_kinds(store: MemoryStore, statements: list[Analysed], kind: str | None) -> list[Analysed]:
    """With an LLM and no explicit kind: the LLM's kind for each statement (the offline rule's
    where its answer is unusable, or when the LLM cannot be reached: a kind is a label, not
    worth failing a write for)."""
    if store._llm is None or kind is not None or not statements:
        return statements
    try:
        answers = classify_kinds(store._llm, [st.text for st in statements])
    except BackendError as e:
        _log.warning("statement kinds classified offline: %s", e)
        return statements
    return [
        st if answer is None else attrs.evolve(st, kind=answer)
        for st, answer in zip(statements, answers, strict=True)
    ]


def llm_kinds_many(
    store: MemoryStore, items: list[Item], groups: list[list[Analysed]]
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
        found = llm_kinds(store, [groups[i][j] for i, j in part], None)
        for (i, j), st in zip(part, found, strict=True):
            out[i][j] = st
    return out


SUMMARY_EVERY = 3  # new mentions of a concept between two LLM summaries (DESIGN §3)


def concept_summaries(
    store: MemoryStore, namespace: str, statements: list[Analysed], at: datetime | None
) -> tuple[tuple[str, str], ...]:
    """With an LLM: a new summary for each concept whose mentions reach a multiple of
    `SUMMARY_EVERY` with these statements, over its current mentions and the new ones."""
    if store._llm is None:
        return ()
    when = at or datetime.now(UTC)
    new: dict[str, list[str]] = {}
    display: dict[str, str] = {}
    for st in statements:
        for key, shown in st.concepts:
            new.setdefault(key, []).append(st.text)
            display.setdefault(key, shown)
    before = store._backend.mention_counts(namespace, list(new))
    out = []
    for key, texts in new.items():
        count = before.get(key, 0)
        if (count + len(texts)) // SUMMARY_EVERY == count // SUMMARY_EVERY:
            continue
        found = store._backend.mentions(namespace, [key], when, when, 20)
        mentions = [(f.valid_from, f.text) for _, f in found] + [(when, t) for t in texts]
        out.append((key, summarise(store._llm, display[key], mentions)))
    return tuple(out)


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
    return [attrs.evolve(copy, supersedes=version.supersedes)]
