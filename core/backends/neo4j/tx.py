"""Transaction functions of the Neo4j engine: each runs inside one managed transaction."""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.base import (
    Rows,
    Run,
    fix_dim,
    formation_writes,
)
from bitemporal_core.backends.merge import (
    abstract_rows,
    check_closes,
    claim_key_rows,
    claim_rows,
    concept_rows,
    entity_rows,
    link_rows,
    mention_rows,
    message_row,
    plan,
    relate_rows,
    vector_rows,
    version_row,
)
from bitemporal_core.backends.neo4j import cypher as q
from bitemporal_core.backends.port import WriteBatch, WriteResult
from bitemporal_core.backends.rows import scoped
from bitemporal_core.backends.tails import tail_rows
from bitemporal_core.common.times import END_OF_TIME, EPOCH, to_utc
from bitemporal_core.errors import BackendError, NotCurrent
from bitemporal_core.model import Concept

Steps = list[tuple[WriteBatch, WriteResult]]
_UNLIMITED = 2**62
_LOCK_ATTEMPTS = 3


def _dt(value: Any) -> datetime:
    """Epoch microseconds or a driver temporal value as an aware UTC Python datetime."""
    if isinstance(value, int):
        return EPOCH + timedelta(microseconds=value)
    if hasattr(value, "to_native"):
        value = value.to_native()
    if not isinstance(value, datetime):
        raise BackendError(f"expected a datetime from the engine, got {type(value).__name__}")
    return to_utc(value)


def _run(tx: Any, query: str, params: dict[str, Any] | None = None) -> Rows:
    """Run one statement inside a managed transaction and fetch all rows."""
    rows: Rows = [list(r.values()) for r in tx.run(query, params or {})]
    return rows


_PARAM = re.compile(r"\$(\w+)")
_RETURNS = re.compile(r"\bRETURN\b", re.IGNORECASE)


class _Writes:
    """A write transaction's statements that return nothing, held and sent together as one
    statement of unit subqueries when a statement needs an answer or at `flush`: a write's
    dozen statements cost the client one round trip to the server, not a dozen. Order is kept,
    and within one statement each subquery sees what the ones before it wrote."""

    __slots__ = ("_parts", "_tx")

    def __init__(self, tx: Any) -> None:
        self._tx = tx
        self._parts: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, query: str, params: dict[str, Any]) -> Rows:
        if _RETURNS.search(query):
            self.flush()
            return _run(self._tx, query, params)
        self._parts.append((query, params))
        return []

    def flush(self) -> None:
        """Send what is held."""
        parts, self._parts = self._parts, []
        if len(parts) == 1:
            _run(self._tx, *parts[0])
        elif parts:
            merged = {f"p{i}": p for i, (_, p) in enumerate(parts)}
            _run(self._tx, _combined(tuple(query for query, _ in parts)), merged)


@functools.lru_cache(maxsize=256)
def _combined(queries: tuple[str, ...]) -> str:
    """One statement running `queries` in order, each as a unit subquery whose parameters are
    read from one map per subquery (`$rows` of the third is `$p2.rows`).

    Planning it takes the server a few hundred milliseconds, so there must be few plans: a
    write's statements are always the same list (empty lists where nothing is written), the
    parameters are maps (the server keys a plan by its parameters' types too, and an empty
    list is of another type than a list of maps), and a plan is kept as statistics change
    (`replan=skip`: every step is a lookup by a unique key)."""
    return "CYPHER replan=skip " + " ".join(
        "CALL () { " + _PARAM.sub(f"$p{i}.\\1", query) + " }" for i, query in enumerate(queries)
    )


def _apply_many(tx: Any, batches: Sequence[WriteBatch], dim: int | None) -> list[WriteResult]:
    """Check the batches' preconditions under the namespace lock and write them, merged into a
    handful of statements (each row with its own batch's time and t_index).

    Raising here rolls the transaction back; library errors are never retried by the driver.
    """
    ns = batches[0].namespace
    last_tx, t_index, msg_seq = _lock_namespace(tx, ns)
    run = _Writes(tx)
    fix_dim(run, ns, dim)
    results = plan(ns, last_tx, t_index, batches)
    check_closes(batches)
    steps = list(zip(batches, results, strict=True))
    _write_facts(run, ns, steps)
    if dim is not None:  # the label its dimension's vector index covers
        ids = [v.version_id for b in batches for v in b.versions if v.embedding is not None]
        run(q.LABEL_EMBEDDED, {"ids": ids, "label": q.vector_label(dim)})
    _close_versions(run, steps)
    msg_seq = _write_messages(run, ns, steps, msg_seq)
    _write_concepts(run, ns, steps)
    _write_links(run, ns, steps)
    run(q.SHARED.WRITE_ABSTRACTS, {"rows": abstract_rows(batches)})
    _write_claims(run, ns, batches)
    formation_writes(run, q.SHARED, ns, batches)
    params = {
        "ns": ns,
        "last_tx": max(last_tx, results[-1].at),
        "t_index": results[-1].t_index,
        "msg_seq": msg_seq,
        "n_versions": sum(len(b.versions) for b in batches),
        "length": sum(v.length for b in batches for v in b.versions),
    }
    run(q.SHARED.UPDATE_NAMESPACE, params)
    run.flush()
    for b in batches:  # in order: a later batch's summary replaces an earlier one's; rare, so
        _write_summaries(tx, b)  # apart from the held statement, whose text stays the same
    return results


def _close_versions(run: Run, steps: Steps) -> None:
    rows = [{"id": vid, "at": b.at} for b, _ in steps for vid in b.close]
    if rows and run(c.CLOSE_VERSIONS, {"rows": rows, "eot": END_OF_TIME})[0][0] != len(rows):
        raise NotCurrent("the fact's current version was closed by another write")


def _lock_namespace(tx: Any, ns: str) -> tuple[datetime, int, int]:
    """Take the namespace's write lock (creating it if needed); its last_tx, t_index, msg_seq.

    If a concurrent `forget` deleted the node while this transaction waited for its lock, the
    node is merged again: the write lands in a fresh namespace, counters from zero.
    """
    for _ in range(_LOCK_ATTEMPTS):
        last_tx, t_index, msg_seq, gone = _run(tx, q.LOCK_NAMESPACE, {"ns": ns, "zero": EPOCH})[0]
        if not gone:
            return _dt(last_tx), int(t_index), int(msg_seq)
    raise BackendError(f"namespace {ns!r} is being forgotten: the write was not applied; retry")


def _write_claims(run: Run, ns: str, batches: Sequence[WriteBatch]) -> None:
    """Claims of new versions and the entities they are about (merged: a retried
    transaction writes nothing twice)."""
    run(q.MERGE_ENTITIES, {"rows": entity_rows(ns, batches), "ns": ns})
    run(q.MERGE_CLAIMS, {"rows": claim_rows(ns, batches), "ns": ns})
    run(q.MERGE_CLAIM_KEYS, {"rows": claim_key_rows(ns, batches), "ns": ns})


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
        ids = [r["c"] for r in rows]
        params = {"ids": ids, "at": batch.at, "eot": END_OF_TIME}
        _run(tx, q.SHARED.CLOSE_SUMMARIES, params)
        _run(tx, c.WRITE_SUMMARIES, {"rows": rows, "ns": batch.namespace, "eot": END_OF_TIME})


def _write_messages(run: Run, ns: str, steps: Steps, seq: int) -> int:
    """Messages in order; one already stored (or repeated in the chunk) is kept as it is."""
    rows = []
    for b, _ in steps:
        for m in b.messages:
            seq += 1
            rows.append(message_row(scoped(ns, m.id), m, seq, b.at))
    run(q.MERGE_MESSAGES, {"rows": rows, "ns": ns})
    tails = tail_rows(ns, rows)
    run(q.MERGE_TAILS, {"rows": tails, "ns": ns})
    run(c.UPDATE_TAILS, {"rows": tails})
    return seq


def _write_facts(run: Run, ns: str, steps: Steps) -> None:
    facts = [
        {"id": f.id, "supersedes": f.supersedes, "at": b.at} for b, _ in steps for f in b.facts
    ]
    run(q.MERGE_FACTS, {"rows": facts, "ns": ns})
    run(q.SHARED.LINK_SUPERSEDES, {"rows": link_rows([b for b, _ in steps])})
    versions = [version_row(v, b.at, r.t_index) for b, r in steps for v in b.versions]
    run(q.MERGE_VERSIONS, {"rows": versions, "ns": ns, "eot": END_OF_TIME})
    run(q.SET_EMBEDDINGS, {"rows": vector_rows([b for b, _ in steps])})


def _write_concepts(run: Run, ns: str, steps: Steps) -> None:
    rows = concept_rows(steps)
    for row in rows:
        row["id"] = scoped(ns, row["key"])
    run(q.MERGE_CONCEPTS, {"rows": rows, "ns": ns})
    pairs = relate_rows(steps)
    for row in pairs:
        row["a"], row["b"] = scoped(ns, row["a"]), scoped(ns, row["b"])
    run(q.SHARED.RELATE_CONCEPTS, {"rows": pairs})


def _write_links(run: Run, ns: str, steps: Steps) -> None:
    versions = [v for b, _ in steps for v in b.versions]
    run(q.SHARED.LINK_MENTIONS, {"rows": mention_rows(ns, steps)})
    terms = {stem for v in versions for stem, _ in v.terms}
    rows = [{"id": scoped(ns, s), "stem": s} for s in sorted(terms)]
    run(q.MERGE_TERMS, {"rows": rows, "ns": ns})
    links = [
        {"v": v.version_id, "t": scoped(ns, stem), "tf": tf}
        for v in versions
        for stem, tf in v.terms
    ]
    run(q.SHARED.LINK_TERMS, {"rows": links})
    sources = [
        {"v": v.version_id, "m": scoped(ns, v.source)} for v in versions if v.source is not None
    ]
    run(q.SHARED.LINK_MESSAGES, {"rows": sources})


def _known_top(tx: Any, namespace: str, known_at: datetime | None) -> int | None:
    """The namespace's t_index as known at `known_at`, or None when nothing was written after
    it (the graph as it is now is the graph then)."""
    if known_at is None:
        return None
    rows = _run(tx, c.READ_NAMESPACE, {"ns": namespace})
    if not rows or rows[0][0] is None or _dt(rows[0][0]) <= known_at:
        return None
    top = _run(tx, q.TOP_KNOWN, {"ns": namespace, "known_at": known_at})
    return int(top[0][0]) if top and top[0][0] is not None else 0


def _concept_graph(
    tx: Any, ids: list[str], hops: int, window: int, top: int | None
) -> tuple[dict[str, Concept], Rows]:
    """Hop-by-hop expansion from the start concepts, bounded by the t_index window; the graph
    as it was at t_index `top` (`_known_top`), or as it is if None."""
    found: dict[str, Concept] = {}
    as_of = {} if top is None else {"top": top}
    starts = _run(
        tx, q.CONCEPTS_BY_ID if top is None else q.CONCEPTS_BY_ID_AT, {"ids": ids, **as_of}
    )
    for cid, key, display, t in starts:
        found[cid] = Concept(key=key, display=display, t_index=int(t))
    for cid, _key, _display, t in starts:
        frontier = [cid]
        for _ in range(hops):
            params = {"ids": frontier, "low": int(t) - window, "high": int(t), "limit": 800}
            rows = _run(tx, q.NEIGHBOURS if top is None else q.NEIGHBOURS_AT, {**params, **as_of})
            frontier = [r[0] for r in rows if r[0] not in found]
            for nid, nkey, ndisplay, nt in rows:
                found.setdefault(nid, Concept(key=nkey, display=ndisplay, t_index=int(nt)))
            if not frontier:
                break
    everything = {"top": _UNLIMITED if top is None else top}
    edges = _run(tx, q.EDGES_AMONG, {"ids": list(found), **everything}) if found else []
    return found, edges


def _forget_rest(tx: Any, namespace: str) -> int:
    """Lock the namespace, delete what is left of it and its node; the number removed."""
    _run(tx, q.LOCK_EXISTING_NAMESPACE, {"ns": namespace})
    params = {"ns": namespace, "batch": _UNLIMITED}
    removed = 0
    for statement in (*q.FORGET_NS_BATCHES, c.FORGET_NS_NODE):
        rows = _run(tx, statement, params)
        removed += int(rows[0][0]) if rows else 0
    return removed
