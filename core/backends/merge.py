"""Merging the batches of a bulk write into one set of rows, the same for every engine.

`apply_many` writes a chunk of batches in one transaction with a handful of statements: each row
carries its own batch's transaction time and t_index, and the result equals applying the batches
one after another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bitemporal_core.backends.port import NewMessage, NewVersion, WriteBatch, WriteResult
from bitemporal_core.backends.rows import scoped
from bitemporal_core.common.times import END_OF_TIME
from bitemporal_core.errors import EmbeddingMismatch, NotCurrent, TimeRegression

__all__ = [
    "abstract_rows",
    "batch_dim",
    "check_closes",
    "check_dim",
    "claim_key_rows",
    "claim_rows",
    "concept_rows",
    "entity_rows",
    "link_rows",
    "mention_rows",
    "message_row",
    "no_nulls",
    "plan",
    "relate_rows",
    "vector_rows",
    "version_row",
]

Steps = Sequence[tuple[WriteBatch, WriteResult]]


def plan(
    ns: str, last_tx: datetime, t_index: int, batches: Sequence[WriteBatch]
) -> list[WriteResult]:
    """Each batch's transaction time (never before the previous one) and t_index."""
    results = []
    for b in batches:
        if last_tx > b.at:
            raise TimeRegression(
                f"transaction time {b.at.isoformat()} is earlier than namespace "
                f"{ns!r}'s latest ({last_tx.isoformat()})"
            )
        last_tx = b.at
        t_index += 1 if b.advance_t_index else 0
        results.append(WriteResult(at=b.at, t_index=t_index))
    return results


def check_closes(batches: Sequence[WriteBatch]) -> None:
    """Refuse what applying the batches one by one would refuse before the engine is asked:
    a version closed twice, or closed before the batch that creates it."""
    created = {v.version_id: i for i, b in enumerate(batches) for v in b.versions}
    seen: set[str] = set()
    for i, b in enumerate(batches):
        for vid in b.close:
            if vid in seen or created.get(vid, -1) > i:
                raise NotCurrent("the fact's current version was closed by another write")
            seen.add(vid)


def concept_rows(steps: Steps) -> list[dict[str, Any]]:
    """One row per concept of the chunk: `display` and `t_index` of the batch that first names
    it (used if the concept is new) and `touch`, the t_index of the last batch whose new
    statements mention it (None if none: an existing concept keeps its t_index)."""
    rows: dict[str, dict[str, Any]] = {}
    for b, r in steps:
        displays = {key: display for v in b.versions for key, display in v.concepts}
        displays.update(dict(b.concepts))
        for key, display in displays.items():
            rows.setdefault(key, {"key": key, "display": display, "t_index": r.t_index})
            rows[key].setdefault("touch", None)
        for key, _ in b.concepts:
            rows[key]["touch"] = r.t_index
    return list(rows.values())


def relate_rows(steps: Steps) -> list[dict[str, Any]]:
    """RELATED increments of the chunk, one per pair and t_index: `n` co-mentions at that
    t_index (each is stored as an edge of its own, so the graph as known at any earlier
    transaction time can be read again)."""
    pairs: dict[tuple[str, str, int], dict[str, Any]] = {}
    for b, r in steps:
        for a, c in b.relate:
            row = pairs.setdefault((a, c, r.t_index), {"a": a, "b": c, "n": 0})
            row["n"] += 1
            row["t_index"] = r.t_index
    return list(pairs.values())


def mention_rows(ns: str, steps: Steps) -> list[dict[str, Any]]:
    """MENTIONS links of the chunk's versions; `touch` is the batch's t_index where the batch
    touched the concept (its statements name it: the concept's t_index moves there), else -1
    (a copy or an unchanged text), so a concept's t_index as known at any time can be read."""
    rows = []
    for b, r in steps:
        touched = {key for key, _ in b.concepts}
        for v in b.versions:
            for key in dict(v.concepts):
                touch = r.t_index if key in touched else -1
                rows.append({"v": v.version_id, "c": scoped(ns, key), "touch": touch})
    return rows


def version_row(v: NewVersion, at: datetime, t_index: int) -> dict[str, Any]:
    """A version's properties as a statement row (an open valid time ends at END_OF_TIME)."""
    return {
        "id": v.version_id,
        "fact_id": v.fact_id,
        "text": v.text,
        "valid_from": v.valid_from,
        "valid_to": v.valid_to or END_OF_TIME,
        "version": v.version,
        "said_at": v.said_at or at,
        "source": v.source,
        "speaker": v.speaker,
        "session": v.session,
        "kind": v.kind,
        "supersedes": v.supersedes,
        "language": v.language,
        "length": v.length,
        "category": v.category,
        "at": at,
        "t_index": t_index,
    }


def message_row(engine_id: str, m: NewMessage, seq: int, at: datetime) -> dict[str, Any]:
    """A message's properties as a statement row."""
    return {
        "id": engine_id,
        "msg_id": m.id,
        "session": m.session,
        "role": m.role,
        "text": m.text,
        "seq": seq,
        "at": at,
    }


def no_nulls(row: dict[str, Any], *fields: str) -> dict[str, Any]:
    """The row with these optional names as '' for None, for an engine whose statements read
    '' as NULL (LadybugDB plans a statement again whenever a parameter holds a NULL)."""
    return {**row, **{f: "" for f in fields if row.get(f) is None}}


def vector_rows(batches: Sequence[WriteBatch]) -> list[dict[str, Any]]:
    """The embeddings of the chunk's versions, where they have one."""
    return [
        {"id": v.version_id, "embedding": list(v.embedding)}
        for b in batches
        for v in b.versions
        if v.embedding is not None
    ]


def batch_dim(batches: Sequence[WriteBatch]) -> int | None:
    """The one length of the chunk's embeddings (None when it has none), checked before any
    statement runs: vectors of unequal lengths, empty or non-finite ones are refused."""
    dims = set()
    for b in batches:
        for v in b.versions:
            if v.embedding is None:
                continue
            if not v.embedding or not all(math.isfinite(x) for x in v.embedding):
                raise EmbeddingMismatch("an embedding is empty or holds a NaN or infinite value")
            dims.add(len(v.embedding))
    if len(dims) > 1:
        raise EmbeddingMismatch(f"embeddings of mixed dimensions in one write: {sorted(dims)}")
    return dims.pop() if dims else None


def check_dim(namespace: str, stored: int | None, dim: int, what: str) -> None:
    """Refuses vectors of `dim` dimensions in a namespace fixed at `stored` (None: not yet)."""
    if stored is not None and stored != dim:
        raise EmbeddingMismatch(
            f"namespace {namespace!r} holds {stored}-d embeddings; this {what} has {dim}-d"
            " vectors (use the embedder the namespace was written with, or another namespace)"
        )


def abstract_rows(batches: Sequence[WriteBatch]) -> list[dict[str, str]]:
    """The ABSTRACTS links of some batches as statement rows."""
    return [{"a": a, "b": b} for batch in batches for a, b in batch.abstracts]


def claim_rows(namespace: str, batches: Sequence[WriteBatch]) -> list[dict[str, Any]]:
    """The claims of some batches as statement rows (entity ids scoped to the namespace)."""
    return [
        {
            "id": n.id,
            "v": n.version_id,
            "e": scoped(namespace, n.claim.subject),
            "subject": n.claim.subject,
            "slot": n.claim.slot,
            "value": n.claim.value,
            "value_keys": " ".join(n.claim.keys),
            "positive": n.claim.positive,
            "one_value": n.claim.single,
            "claim_mode": n.claim.mode,
            "context_keys": " ".join(n.claim.context),
            "rule": n.claim.rule,
        }
        for b in batches
        for n in b.claims
    ]


def claim_key_rows(namespace: str, batches: Sequence[WriteBatch]) -> list[dict[str, Any]]:
    """The lookup keys of some batches' claims, a row per key and claim."""
    return [
        {"k": scoped(namespace, key), "c": n.id}
        for b in batches
        for n in b.claims
        for key in dict.fromkeys(n.lookups)
    ]


def entity_rows(namespace: str, batches: Sequence[WriteBatch]) -> list[dict[str, Any]]:
    """The subject entities of some batches' claims, one row each."""
    rows: dict[str, dict[str, Any]] = {}
    for b in batches:
        for n in b.claims:
            key = n.claim.subject
            rows.setdefault(
                key,
                {
                    "id": scoped(namespace, key),
                    "key": key,
                    "name": n.entity_name,
                    "kind": n.entity_kind,
                },
            )
    return list(rows.values())


def link_rows(batches: Sequence[WriteBatch]) -> list[dict[str, Any]]:
    """The SUPERSEDES links of some batches, each with its batch's time."""
    return [
        {
            "id": link.fact,
            "supersedes": link.replaced,
            "reason": link.reason,
            "confidence": float(link.confidence),
            "at": b.at,
        }
        for b in batches
        for link in b.links
    ]
