"""Transaction functions of the Neo4j engine: each runs inside one managed transaction."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from .._time import END_OF_TIME, to_utc
from ..errors import BackendError, NotCurrent, TimeRegression
from ..model import Concept
from . import neo4j_cypher as q
from ._lifecycle import abstract_rows
from ._port import WriteBatch

Rows = list[list[Any]]

_ZERO = datetime(1970, 1, 1, tzinfo=UTC)
_SEP = "\x1f"  # namespace/key separator inside ids; control characters never reach a namespace
_UNLIMITED = 2**62
_LOCK_ATTEMPTS = 3


def scoped(namespace: str, key: str) -> str:
    """The engine id of a namespace-scoped node (concept, term, message)."""
    return namespace + _SEP + key


def _dt(value: Any) -> datetime:
    """Epoch microseconds or a driver temporal value as an aware UTC Python datetime."""
    if isinstance(value, int):
        return _ZERO + timedelta(microseconds=value)
    if hasattr(value, "to_native"):
        value = value.to_native()
    if not isinstance(value, datetime):
        raise BackendError(f"expected a datetime from the engine, got {type(value).__name__}")
    return to_utc(value)


def _run(tx: Any, query: str, params: dict[str, Any] | None = None) -> Rows:
    """Run one statement inside a managed transaction and fetch all rows."""
    rows: Rows = [list(r.values()) for r in tx.run(query, params or {})]
    return rows


def _apply(tx: Any, batch: WriteBatch) -> int:
    """Check the batch's preconditions under the namespace lock and write it; the new t_index.

    Raising here rolls the transaction back; library errors are never retried by the driver.
    """
    ns = batch.namespace
    last_tx, t_index, msg_seq = _lock_namespace(tx, ns)
    if last_tx > batch.at:
        raise TimeRegression(
            f"transaction time {batch.at.isoformat()} is earlier than namespace "
            f"{ns!r}'s latest ({last_tx.isoformat()})"
        )
    if batch.close:
        params = {"ids": list(batch.close), "eot": END_OF_TIME, "at": batch.at}
        closed = _run(tx, q.CLOSE_VERSIONS, params)[0][0]
        if closed != len(batch.close):
            raise NotCurrent("the fact's current version was closed by another write")
    t_index = t_index + (1 if batch.advance_t_index else 0)
    msg_seq = _write_messages(tx, batch, msg_seq)
    _write_facts(tx, batch, t_index)
    _write_concepts(tx, batch, t_index)
    _write_links(tx, batch)
    _write_summaries(tx, batch)
    if links := abstract_rows([batch]):
        _run(tx, q.WRITE_ABSTRACTS, {"rows": links})
    params = {
        "ns": ns,
        "last_tx": max(last_tx, batch.at),
        "t_index": t_index,
        "msg_seq": msg_seq,
        "n_versions": len(batch.versions),
        "length": sum(v.length for v in batch.versions),
    }
    _run(tx, q.UPDATE_NAMESPACE, params)
    return t_index


def _lock_namespace(tx: Any, ns: str) -> tuple[datetime, int, int]:
    """Take the namespace's write lock (creating it if needed); its last_tx, t_index, msg_seq.

    If a concurrent `forget` deleted the node while this transaction waited for its lock, the
    node is merged again: the write lands in a fresh namespace, counters from zero.
    """
    for _ in range(_LOCK_ATTEMPTS):
        last_tx, t_index, msg_seq, gone = _run(tx, q.LOCK_NAMESPACE, {"ns": ns, "zero": _ZERO})[0]
        if not gone:
            return _dt(last_tx), int(t_index), int(msg_seq)
    raise BackendError(f"namespace {ns!r} is being forgotten: the write was not applied; retry")


def _write_summaries(tx: Any, batch: WriteBatch) -> None:
    """Each summary replaces its concept's current one (closed at the batch's time)."""
    rows = [
        {
            "id": uuid.uuid4().hex,
            "c": scoped(batch.namespace, key),
            "key": key,
            "text": text,
            "at": batch.at,
        }
        for key, text in batch.summaries
    ]
    if rows:
        _run(tx, q.CLOSE_SUMMARIES, {"rows": rows, "eot": END_OF_TIME})
        _run(tx, q.WRITE_SUMMARIES, {"rows": rows, "ns": batch.namespace, "eot": END_OF_TIME})


def _write_messages(tx: Any, batch: WriteBatch, seq: int) -> int:
    if not batch.messages:
        return seq
    rows = []
    for m in batch.messages:
        seq += 1
        rows.append(
            {
                "id": scoped(batch.namespace, m.id),
                "msg_id": m.id,
                "session": m.session,
                "role": m.role,
                "text": m.text,
                "seq": seq,
            }
        )
    _run(tx, q.MERGE_MESSAGES, {"rows": rows, "ns": batch.namespace, "at": batch.at})
    return seq


def _write_facts(tx: Any, batch: WriteBatch, t_index: int) -> None:
    ns, at = batch.namespace, batch.at
    if batch.facts:
        rows = [{"id": f.id, "supersedes": f.supersedes} for f in batch.facts]
        _run(tx, q.MERGE_FACTS, {"rows": rows, "ns": ns, "at": at})
        links = [r for r in rows if r["supersedes"]]
        if links:
            _run(tx, q.LINK_SUPERSEDES, {"rows": links})
    if batch.versions:
        vrows: list[dict[str, Any]] = [
            {
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
                "length": v.length,
            }
            for v in batch.versions
        ]
        params = {"rows": vrows, "ns": ns, "at": at, "eot": END_OF_TIME, "t_index": t_index}
        _run(tx, q.MERGE_VERSIONS, params)
        vectors = [
            {"id": v.version_id, "embedding": list(v.embedding)}
            for v in batch.versions
            if v.embedding is not None
        ]
        if vectors:
            _run(tx, q.SET_EMBEDDINGS, {"rows": vectors})


def _write_concepts(tx: Any, batch: WriteBatch, t_index: int) -> None:
    ns = batch.namespace
    displays = {key: display for v in batch.versions for key, display in v.concepts}
    displays.update(dict(batch.concepts))
    if displays:
        rows = [{"id": scoped(ns, k), "key": k, "display": d} for k, d in displays.items()]
        _run(tx, q.MERGE_CONCEPTS, {"rows": rows, "ns": ns, "t_index": t_index})
    if batch.concepts:
        ids = [scoped(ns, k) for k, _ in batch.concepts]
        _run(tx, q.TOUCH_CONCEPTS, {"ids": ids, "t_index": t_index})
    if batch.relate:
        counts = Counter(batch.relate)
        rows2 = [{"a": scoped(ns, a), "b": scoped(ns, b), "n": n} for (a, b), n in counts.items()]
        _run(tx, q.RELATE_CONCEPTS, {"rows": rows2, "t_index": t_index})


def _write_links(tx: Any, batch: WriteBatch) -> None:
    ns = batch.namespace
    mentions = [
        {"v": v.version_id, "c": scoped(ns, key)}
        for v in batch.versions
        for key in dict(v.concepts)
    ]
    if mentions:
        _run(tx, q.LINK_MENTIONS, {"rows": mentions})
    terms = {stem for v in batch.versions for stem, _ in v.terms}
    if terms:
        rows = [{"id": scoped(ns, s), "stem": s} for s in sorted(terms)]
        _run(tx, q.MERGE_TERMS, {"rows": rows, "ns": ns})
        links = [
            {"v": v.version_id, "t": scoped(ns, stem), "tf": tf}
            for v in batch.versions
            for stem, tf in v.terms
        ]
        _run(tx, q.LINK_TERMS, {"rows": links})
    sources = [
        {"v": v.version_id, "m": scoped(ns, v.source)}
        for v in batch.versions
        if v.source is not None
    ]
    if sources:
        _run(tx, q.LINK_MESSAGES, {"rows": sources})


def _concept_graph(
    tx: Any, ids: list[str], hops: int, window: int
) -> tuple[dict[str, Concept], Rows]:
    """Hop-by-hop expansion from the start concepts, bounded by the t_index window."""
    found: dict[str, Concept] = {}
    starts = _run(tx, q.CONCEPTS_BY_ID, {"ids": ids})
    for cid, key, display, t in starts:
        found[cid] = Concept(key=key, display=display, t_index=int(t))
    for cid, _key, _display, t in starts:
        frontier = [cid]
        for _ in range(hops):
            params = {"ids": frontier, "low": int(t) - window, "high": int(t), "limit": 800}
            rows = _run(tx, q.NEIGHBOURS, params)
            frontier = [r[0] for r in rows if r[0] not in found]
            for nid, nkey, ndisplay, nt in rows:
                found.setdefault(nid, Concept(key=nkey, display=ndisplay, t_index=int(nt)))
            if not frontier:
                break
    edges = _run(tx, q.EDGES_AMONG, {"ids": list(found)}) if found else []
    return found, edges


def _forget_rest(tx: Any, namespace: str) -> int:
    """Lock the namespace, delete what is left of it and its node; the number removed."""
    _run(tx, q.LOCK_EXISTING_NAMESPACE, {"ns": namespace})
    params = {"ns": namespace, "batch": _UNLIMITED}
    removed = 0
    for statement in (*q.FORGET_NS_BATCHES, q.FORGET_NS_NODE):
        rows = _run(tx, statement, params)
        removed += int(rows[0][0]) if rows else 0
    return removed


def _forget_fact(tx: Any, fact_id: str) -> int:
    """Delete a lineage and whatever only it used, under its namespace's lock."""
    locked = _run(tx, q.LOCK_FACT_NAMESPACE, {"id": fact_id})
    rows = _run(tx, q.FACT_TOUCHES, {"id": fact_id})
    removed = _forget_rows(tx, fact_id, rows[0]) if rows and rows[0][0] else 0
    if locked:
        _run(tx, q.UNLOCK_NAMESPACE, {"ns": locked[0][0]})
    return removed


def _forget_rows(tx: Any, fact_id: str, touched: list[Any]) -> int:
    versions, concepts, terms, messages = touched
    live = [c for c in concepts if c is not None]
    if live:
        _run(tx, q.FORGET_SUMMARIES_OF, {"ids": live})
    _run(tx, q.FORGET_VERSIONS, {"ids": versions})
    _run(tx, q.FORGET_FACT, {"id": fact_id})
    _run(tx, q.UNLINK_SUPERSEDES, {"id": fact_id})
    _run(tx, q.UNLINK_VERSION_SUPERSEDES, {"id": fact_id})
    for statement, ids in (
        (q.FORGET_ORPHAN_CONCEPTS, concepts),
        (q.FORGET_ORPHAN_TERMS, terms),
        (q.FORGET_ORPHAN_MESSAGES, messages),
    ):
        if ids:
            _run(tx, statement, {"ids": [i for i in ids if i is not None]})
    return len(versions) + 1
