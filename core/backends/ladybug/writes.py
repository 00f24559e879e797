"""What a LadybugDB write chunk stores besides versions and concepts: keyword terms, messages,
abstraction links and claims. Nodes are looked up by primary key and CREATEd when missing
(`create_new`), since the engine plans MERGE under UNWIND as a scan of the whole table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.base import Run
from bitemporal_core.backends.ladybug import cypher as q
from bitemporal_core.backends.merge import (
    abstract_rows,
    claim_key_rows,
    claim_rows,
    entity_rows,
    message_row,
    no_nulls,
)
from bitemporal_core.backends.port import WriteBatch, WriteResult
from bitemporal_core.backends.rows import scoped
from bitemporal_core.backends.tails import tail_rows

__all__ = [
    "create_new",
    "file_claim_keys",
    "write_abstracts",
    "write_claims",
    "write_messages",
    "write_terms",
]


def create_new(
    run: Run, exists: str, create: str, ns: str, rows: Sequence[dict[str, Any]], key: str = "id"
) -> None:
    """CREATE the nodes of `rows` whose id (`row[key]`) `exists` does not find."""
    if not rows:
        return
    found = {r[0] for r in run(exists, {"ids": [r[key] for r in rows]})}
    new = [r for r in rows if r[key] not in found]
    if new:
        run(create, {"rows": new, "ns": ns})


def write_terms(run: Run, ns: str, batches: Sequence[WriteBatch]) -> None:
    """The keyword terms of new versions (created when new), each linked with its count."""
    rows = [
        {"v": v.version_id, "t": scoped(ns, stem), "stem": stem, "tf": tf}
        for b in batches
        for v in b.versions
        for stem, tf in v.terms
    ]
    if not rows:
        return
    stems = {r["t"]: r["stem"] for r in rows}
    terms = [{"t": t, "stem": stem} for t, stem in stems.items()]
    create_new(run, q.EXISTING_TERMS, q.CREATE_TERMS, ns, terms, key="t")
    run(q.SHARED.LINK_TERMS, {"rows": rows})


def write_messages(
    run: Run, ns: str, steps: Sequence[tuple[WriteBatch, WriteResult]], seq: int
) -> int:
    """Store new messages (in order) and link every version to the message it came from;
    returns the namespace's last message sequence number."""
    by_message: dict[str, list[str]] = {}
    for b, _ in steps:
        for v in b.versions:
            if v.source is not None:
                by_message.setdefault(v.source, []).append(v.version_id)
    ids = [scoped(ns, m.id) for b, _ in steps for m in b.messages]
    existing = {r[0] for r in run(q.EXISTING_MESSAGES, {"ids": ids})} if ids else set()
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for b, _ in steps:
        for m in b.messages:
            if scoped(ns, m.id) in existing or m.id in seen:
                continue  # a message is stored once; its versions are linked below
            seen.add(m.id)
            seq += 1
            row = no_nulls(message_row(scoped(ns, m.id), m, seq, b.at), "session", "role")
            rows.append({**row, "versions": by_message.pop(m.id, [])})
    if rows:
        run(q.WRITE_MESSAGES, {"rows": rows, "ns": ns})
        tails = tail_rows(ns, rows)
        create_new(run, q.EXISTING_TAILS, q.CREATE_TAILS, ns, tails)
        if tails:
            run(c.UPDATE_TAILS, {"rows": tails})
    # Versions whose message an earlier call stored (new versions of an old statement).
    links = [{"v": vid, "m": scoped(ns, mid)} for mid, vids in by_message.items() for vid in vids]
    if links:
        run(q.SHARED.LINK_MESSAGES, {"rows": links})
    return seq


def write_abstracts(run: Run, batches: Sequence[WriteBatch]) -> None:
    """ABSTRACTS links, and the facts they quote marked `cited` (`q.CITED`)."""
    links = abstract_rows(batches)
    if not links:
        return
    run(q.SHARED.WRITE_ABSTRACTS, {"rows": links})
    for quoted in dict.fromkeys(r["b"] for r in links):
        run(q.MARK_CITED, {"id": quoted})


def write_claims(run: Run, ns: str, batches: Sequence[WriteBatch]) -> None:
    """Claims of new versions, the entities they are about and the lookup keys they are
    filed under (both created when new)."""
    claims = claim_rows(ns, batches)
    if not claims:
        return
    create_new(run, q.EXISTING_ENTITIES, q.CREATE_ENTITIES, ns, entity_rows(ns, batches))
    run(q.WRITE_CLAIMS, {"rows": claims, "ns": ns})
    file_claim_keys(run, ns, claim_key_rows(ns, batches))


def file_claim_keys(run: Run, ns: str, keyed: Sequence[dict[str, Any]]) -> None:
    """Lookup keys (created when new) linked to claims: rows `{k: key id, c: claim id}`."""
    if keyed:
        keys = [{"id": k} for k in dict.fromkeys(r["k"] for r in keyed)]
        create_new(run, q.EXISTING_CLAIM_KEYS, q.CREATE_CLAIM_KEYS, ns, keys)
        run(q.LINK_CLAIM_KEYS, {"rows": keyed})
