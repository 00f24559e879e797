"""The embedded engine: LadybugDB (the maintained fork of Kuzu), on disk or in memory.

One connection guarded by a lock; every public write is one explicit transaction, so a
failed call writes nothing. Needs none of LadybugDB's downloadable extensions.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from .._time import END_OF_TIME, to_utc, utcnow
from ..errors import BackendError, ConfigurationError, NotCurrent
from ..model import Concept, Fact, Lineage, Message
from . import ladybug_cypher as q
from ._ladybug_index import RecallIndex
from ._ladybug_rows import _ZERO, _fact, _open, no_nulls
from ._lifecycle import LifecycleOps, abstract_rows, inferred_rows
from ._merge import (
    check_closes,
    concept_rows,
    message_row,
    plan,
    relate_rows,
    vector_rows,
    version_row,
)
from ._port import ALL, Clock, ConceptEdge, InferredEdge, RecallFilter, WriteBatch, WriteResult
from ._rows import scoped

__all__ = ["LadybugBackend"]

_OPTIONAL = ("source", "speaker", "session", "supersedes", "fact_supersedes")


class LadybugBackend(LifecycleOps):
    """Storage port on LadybugDB.

    Args:
        path: a database path on disk, or None for an in-memory database.
        database: an already open `ladybug.Database` the caller owns (not closed by `close`).
        buffer_pool_mb: the engine's page cache (LadybugDB's default is 80% of RAM).
    """

    name = "ladybug"
    _q = q

    def __init__(
        self, path: str | Path | None = None, *, database: Any = None, buffer_pool_mb: int = 1024
    ) -> None:
        try:
            import ladybug
        except ImportError as e:  # pragma: no cover - ladybug is a hard dependency
            raise BackendError("the embedded engine needs the 'ladybug' package") from e
        self._owns_db = database is None
        try:
            if database is None:
                target = ":memory:" if path is None else str(Path(path).expanduser())
                if path is not None:
                    Path(target).parent.mkdir(parents=True, exist_ok=True)
                database = ladybug.Database(target, buffer_pool_size=buffer_pool_mb * 2**20)
            self._db = database
            self._conn = ladybug.Connection(database)
        except RuntimeError as e:
            raise BackendError(f"cannot open the embedded database: {e}") from e
        self.path = None if path is None else str(path)
        self._lock = threading.RLock()
        self._closed = False
        # This process is the engine's only writer, so each namespace's clock is cached here.
        self._clocks: dict[str, tuple[datetime, int]] = {}
        self._index = RecallIndex()  # what recall reads, in memory (see `_ladybug_index`)
        with self._lock:
            for statement in q.SCHEMA:
                self._run(statement)

    def __repr__(self) -> str:
        return f"LadybugBackend(path={self.path!r})"

    # --- plumbing ------------------------------------------------------------------------
    def _run(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        if self._closed:
            raise BackendError("the store is closed")
        try:
            result = self._conn.execute(query, params or {})
        except RuntimeError as e:
            raise BackendError(f"embedded engine error: {e}") from e
        if isinstance(result, list):  # pragma: no cover - one statement per call here
            result = result[-1]
        rows = cast(list[list[Any]], result.get_all())
        return rows

    @contextmanager
    def _transaction(self, *, read_only: bool = False) -> Iterator[None]:
        with self._lock:
            self._run(q.BEGIN_READ if read_only else q.BEGIN)
            try:
                yield
            except BaseException:
                self._rollback()
                raise
            self._run(q.COMMIT)

    def _rollback(self) -> None:
        with suppress(RuntimeError):  # the engine already rolled back when a statement failed
            self._conn.execute(q.ROLLBACK)

    # --- port: clock and writes ----------------------------------------------------------
    def clock(self, namespace: str) -> Clock:
        with self._lock:
            cached = self._clocks.get(namespace)
            if cached is None:
                rows = self._run(q.READ_CLOCK, {"ns": namespace})
                if not rows:
                    return Clock(last_tx=None, t_index=0, now=utcnow())
                cached = (to_utc(rows[0][0]), int(rows[0][1]))
                self._clocks[namespace] = cached
        last, t_index = cached
        return Clock(last_tx=None if last <= _ZERO else last, t_index=t_index, now=utcnow())

    def apply(self, batch: WriteBatch) -> WriteResult:
        return self.apply_many([batch])[0]

    def apply_many(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        """Apply batches of one namespace, in order, in one transaction.

        Rows of all batches are merged into the same few statements, each row carrying its
        own batch's transaction time and t_index, so a bulk import costs a handful of
        statements per chunk rather than per message.
        """
        if not batches:
            return []
        ns = batches[0].namespace
        if any(b.namespace != ns for b in batches):
            raise BackendError("apply_many takes batches of one namespace")
        with self._lock:  # the caches change with the commit, under the same lock
            with self._transaction():
                results, last, concepts, related = self._write_chunk(ns, batches)
            self._clocks[ns] = (last, results[-1].t_index)
            steps = list(zip(batches, results, strict=True))
            self._index.written(ns, steps, concepts, related)
        return results

    def _write_chunk(
        self, ns: str, batches: Sequence[WriteBatch]
    ) -> tuple[list[WriteResult], datetime, list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """The statements of `apply_many`, inside its transaction: the results, last_tx, and
        the concept and RELATED rows written (for the recall index)."""
        last_tx, t_index, msg_seq = self._run(q.MERGE_NAMESPACE, {"ns": ns, "zero": _ZERO})[0]
        results = plan(ns, to_utc(last_tx), int(t_index), batches)
        check_closes(batches)
        steps = list(zip(batches, results, strict=True))
        self._write_versions(ns, steps)
        self._close_versions(steps)
        concepts, related = self._write_concepts(ns, steps)
        self._write_terms(ns, batches)
        self._write_summaries(ns, batches)
        msg_seq = self._write_messages(ns, steps, int(msg_seq))
        if links := abstract_rows(batches):
            self._run(q.WRITE_ABSTRACTS, {"rows": links})
        last = max(to_utc(last_tx), results[-1].at)
        params = {
            "ns": ns,
            "last_tx": last,
            "t_index": results[-1].t_index,
            "msg_seq": msg_seq,
            "n_versions": sum(len(b.versions) for b in batches),
            "length": sum(v.length for b in batches for v in b.versions),
        }
        self._run(q.UPDATE_NAMESPACE, params)
        return results, last, concepts, related

    def _close_versions(self, steps: list[tuple[WriteBatch, WriteResult]]) -> None:
        rows = [{"id": vid, "at": b.at} for b, _ in steps for vid in b.close]
        if not rows:
            return
        closed = self._run(q.CLOSE_VERSIONS, {"rows": rows, "eot": END_OF_TIME})[0][0]
        if closed != len(rows):
            raise NotCurrent("the fact's current version was closed by another write")

    def _write_versions(self, ns: str, steps: list[tuple[WriteBatch, WriteResult]]) -> None:
        lineage = {f.id: f.supersedes for b, _ in steps for f in b.facts}
        rows = [
            no_nulls(
                {**version_row(v, b.at, r.t_index), "fact_supersedes": lineage.get(v.fact_id)},
                *_OPTIONAL,
            )
            for b, r in steps
            for v in b.versions
        ]
        params = {"ns": ns, "eot": END_OF_TIME}
        first: dict[str, str] = {}  # a new fact is created with its first version
        for b, _ in steps:
            for v in b.versions:
                if v.fact_id in lineage:
                    first.setdefault(v.fact_id, v.version_id)
        creating = set(first.values())
        for statement, chosen in (
            (q.WRITE_NEW_FACTS, [r for r in rows if r["id"] in creating]),
            (q.WRITE_VERSIONS, [r for r in rows if r["id"] not in creating]),
        ):
            if chosen:
                self._run(statement, {**params, "rows": chosen})
        vectors = vector_rows([b for b, _ in steps])
        if vectors:
            self._run(q.SET_EMBEDDINGS, {"rows": vectors})
        links = [{"id": f, "supersedes": s} for f, s in lineage.items() if s]
        if links:
            self._run(q.LINK_SUPERSEDES, {"rows": links})

    def _write_concepts(
        self, ns: str, steps: list[tuple[WriteBatch, WriteResult]]
    ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """Concepts and RELATED strengths as `concept_rows` and `relate_rows` define them (the
        same on every engine); returns the (id, key, display, t_index) rows created or touched
        and the (a, b, n, t_index) rows added."""
        rows = concept_rows(steps)
        for row in rows:
            row["c"] = scoped(ns, row["key"])
        ids = [row["c"] for row in rows]
        existing = {r[0] for r in self._run(q.EXISTING_CONCEPTS, {"ids": ids})} if ids else set()
        new = [
            {
                "c": r["c"],
                "key": r["key"],
                "display": r["display"],
                "t_index": r["t_index"] if r["touch"] is None else r["touch"],
            }
            for r in rows
            if r["c"] not in existing
        ]
        if new:
            self._run(q.CREATE_CONCEPTS, {"rows": new, "ns": ns})
        bump = [{"c": r["c"], "t_index": r["touch"]} for r in rows if r["c"] in existing]
        bump = [r for r in bump if r["t_index"] is not None]
        if bump:
            self._run(q.TOUCH_CONCEPTS, {"rows": bump})
        mentions = [
            {"v": v.version_id, "c": scoped(ns, key)}
            for b, _ in steps
            for v in b.versions
            for key in dict(v.concepts)
        ]
        if mentions:
            self._run(q.LINK_MENTIONS, {"rows": mentions})
        pairs = relate_rows(steps)
        for row in pairs:
            row["a"], row["b"] = scoped(ns, row["a"]), scoped(ns, row["b"])
        if pairs:
            self._run(q.RELATE_CONCEPTS, {"rows": pairs})
        touched = [(r["c"], r["key"], r["display"], r["t_index"]) for r in new]
        touched += [(r["c"], None, None, r["t_index"]) for r in bump]
        return touched, [(r["a"], r["b"], r["n"], r["t_index"]) for r in pairs]

    def _write_summaries(self, ns: str, batches: Sequence[WriteBatch]) -> None:
        for b in batches:  # in order: a later batch's summary replaces an earlier one's
            rows = [
                {"id": uuid.uuid4().hex, "c": scoped(ns, key), "key": key, "text": text, "at": b.at}
                for key, text in b.summaries
            ]
            if rows:
                self._run(q.CLOSE_SUMMARIES, {"rows": rows, "eot": END_OF_TIME})
                self._run(q.WRITE_SUMMARIES, {"rows": rows, "ns": ns, "eot": END_OF_TIME})

    def _write_terms(self, ns: str, batches: Sequence[WriteBatch]) -> None:
        rows = [
            {"v": v.version_id, "t": scoped(ns, stem), "stem": stem, "tf": tf}
            for b in batches
            for v in b.versions
            for stem, tf in v.terms
        ]
        if not rows:
            return
        stems = {r["t"]: r["stem"] for r in rows}
        existing = {r[0] for r in self._run(q.EXISTING_TERMS, {"ids": list(stems)})}
        new = [{"t": t, "stem": s} for t, s in stems.items() if t not in existing]
        if new:
            self._run(q.CREATE_TERMS, {"rows": new, "ns": ns})
        self._run(q.LINK_TERMS, {"rows": rows})

    def _write_messages(
        self, ns: str, steps: list[tuple[WriteBatch, WriteResult]], seq: int
    ) -> int:
        """Store new messages (in order) and link every version to the message it came from."""
        by_message: dict[str, list[str]] = {}
        for b, _ in steps:
            for v in b.versions:
                if v.source is not None:
                    by_message.setdefault(v.source, []).append(v.version_id)
        ids = [scoped(ns, m.id) for b, _ in steps for m in b.messages]
        existing = {r[0] for r in self._run(q.EXISTING_MESSAGES, {"ids": ids})} if ids else set()
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
            self._run(q.WRITE_MESSAGES, {"rows": rows, "ns": ns})
        # Versions whose message an earlier call stored (new versions of an old statement).
        links = [
            {"v": vid, "m": scoped(ns, mid)} for mid, vids in by_message.items() for vid in vids
        ]
        if links:
            self._run(q.LINK_MESSAGES, {"rows": links})
        return seq

    # --- port: reads ---------------------------------------------------------------------
    def _read(self, query: str, params: dict[str, Any]) -> list[list[Any]]:
        with self._lock:
            return self._run(query, params)

    def _write(self, query: str, params: dict[str, Any]) -> list[list[Any]]:
        with self._transaction():
            return self._run(query, params)

    _time = staticmethod(_open)

    def write_inferred(self, namespace: str, edges: Sequence[InferredEdge], at: datetime) -> int:
        rows = inferred_rows(namespace, edges)
        with self._transaction():
            found = {tuple(r) for r in self._run(q.EXISTING_INFERRED, {"rows": rows, "at": at})}
            new = [r for r in rows if (r["a"], r["b"], r["type"]) not in found]
            if new:
                self._run(q.CREATE_INFERRED, {"rows": new, "at": at})
            self._index.drop_inferred(namespace)
        return len(rows)

    def _inferred_rows(self, namespace: str, keys: Sequence[str] | None) -> list[list[Any]]:
        if keys is None:  # listing them all: no reason to read the namespace's index
            return super()._inferred_rows(namespace, None)
        with self._lock:
            rows = self._index.inferred(self._run, namespace)
        chosen = set(keys)
        return [r for r in rows if r[0] in chosen or r[1] in chosen]

    def archive(self, namespace: str, fact_ids: Sequence[str], at: datetime) -> int:
        with self._lock:
            self._index.drop(namespace)  # archived_at is read again on the next recall
            return super().archive(namespace, fact_ids, at)

    def lineage(self, fact_id: str) -> Lineage | None:
        with self._lock:
            rows = self._run(q.LINEAGE, {"id": fact_id})
            if not rows:
                return None
            successors = self._run(q.SUPERSEDED_BY, {"id": fact_id})
        return Lineage(
            fact_id=fact_id,
            namespace=rows[0][16],
            versions=tuple(_fact(r) for r in rows),
            supersedes=rows[0][17],
            superseded_by=tuple(r[0] for r in successors),
        )

    def snapshot(self, namespace: str, valid_at: datetime, known_at: datetime) -> list[Fact]:
        params = {"ns": namespace, "valid_at": valid_at, "known_at": known_at}
        return [_fact(r) for r in self._read(q.SNAPSHOT, params)]

    def versions(self, namespace: str, known_at: datetime | None) -> list[Fact]:
        if known_at is None:
            return [_fact(r) for r in self._read(q.VERSIONS_ALL, {"ns": namespace})]
        params = {"ns": namespace, "known_at": known_at}
        return [_fact(r) for r in self._read(q.VERSIONS_KNOWN, params)]

    def concept_graph(
        self, namespace: str, keys: Sequence[str], *, hops: int, window: int
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        with self._lock:
            index = self._index.get(self._run, namespace)
            found, edges = index.neighbourhood(keys, namespace, hops, window)
        return [Concept(key=k, display=d, t_index=t) for k, d, t in found.values()], [
            ConceptEdge(src=a, dst=b, strength=s, t_index=t) for a, b, s, t in edges
        ]

    def mentions(
        self,
        namespace: str,
        keys: Sequence[str],
        valid_at: datetime,
        known_at: datetime,
        per_concept: int,
        *,
        where: RecallFilter = ALL,
    ) -> list[tuple[str, Fact]]:
        """Each concept's newest visible mentions, chosen in the recall index."""
        with self._lock:
            index = self._index.get(self._run, namespace)
            mask = index.visible(valid_at, known_at, where)
            chosen = {
                key: [
                    index.ids[i]
                    for i in index.newest_mentions(scoped(namespace, key), mask, per_concept)
                ]
                for key in keys
            }
            ids = [v for vids in chosen.values() for v in vids]
            facts = index.read_facts(self._run, _fact, ids)
        return [(key, facts[vid]) for key in keys for vid in chosen[key] if vid in facts]

    def keyword_search(
        self,
        namespace: str,
        terms: Sequence[str],
        valid_at: datetime,
        known_at: datetime,
        k: int,
        *,
        where: RecallFilter = ALL,
    ) -> list[tuple[Fact, float]]:
        if not terms:
            return []
        with self._lock:
            index = self._index.get(self._run, namespace)
            best = index.keyword(namespace, terms, index.visible(valid_at, known_at, where), k)
            facts = index.read_facts(self._run, _fact, [vid for vid, _ in best])
        return [(facts[vid], score) for vid, score in best if vid in facts]

    def vector_search(
        self,
        namespace: str,
        vector: Sequence[float],
        valid_at: datetime,
        known_at: datetime,
        k: int,
        *,
        where: RecallFilter = ALL,
    ) -> list[tuple[Fact, float]]:
        query = q.VECTOR_SEARCH.get(len(vector))
        if query is None:
            raise ConfigurationError(
                f"the embedded engine supports vectors of {q.VECTOR_DIMS} dimensions, "
                f"not {len(vector)}"
            )
        with self._lock:
            index = self._index.vectors(self._run, namespace, len(vector))
            if index is not None:
                best = index.nearest(vector, index.visible(valid_at, known_at, where), k)
                facts = index.read_facts(self._run, _fact, [vid for vid, _ in best])
                return [(facts[vid], score) for vid, score in best if vid in facts]
        params = {
            "ns": namespace,
            "vector": list(vector),
            "valid_at": valid_at,
            "known_at": known_at,
            "k": k,
            **where.params(),
        }
        return [(_fact(r), float(r[16])) for r in self._read(query, params)]

    def concepts(self, namespace: str, limit: int) -> list[Concept]:
        rows = self._read(q.CONCEPTS_OF_NAMESPACE, {"ns": namespace, "limit": limit})
        return [Concept(key=r[0], display=r[1], t_index=int(r[2])) for r in rows]

    def mention_counts(self, namespace: str, keys: Sequence[str]) -> dict[str, int]:
        ids = [scoped(namespace, k) for k in keys]
        return {r[0]: int(r[1]) for r in self._read(q.MENTION_COUNTS, {"ids": ids})} if ids else {}

    def summaries(self, namespace: str, keys: Sequence[str], known_at: datetime) -> dict[str, str]:
        ids = [scoped(namespace, k) for k in keys]
        with self._lock:
            if not ids or not self._index.get(self._run, namespace).summaries:
                return {}
            rows = self._run(q.SUMMARIES_KNOWN, {"ids": ids, "known_at": known_at})
        return {r[0]: r[1] for r in rows}

    def messages(self, namespace: str, session: str | None, limit: int | None) -> list[Message]:
        if session is None:
            rows = self._read(q.MESSAGES_ALL, {"ns": namespace})
        else:
            rows = self._read(q.MESSAGES_SESSION, {"ns": namespace, "session": session})
        if limit is not None:
            rows = rows[-limit:] if limit > 0 else []
        return [
            Message(
                id=r[0],
                namespace=r[1],
                session=r[2],
                role=r[3],
                text=r[4],
                at=to_utc(r[5]),
                seq=int(r[6]),
            )
            for r in rows
        ]

    def remembered(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str, Fact]]:
        rows = self._read(q.REMEMBERED, {"ids": [scoped(namespace, i) for i in ids]})
        return [(r[16], r[17], _fact(r)) for r in rows]

    def sessions(self, namespace: str) -> list[str]:
        return [r[0] for r in self._read(q.SESSIONS, {"ns": namespace})]

    def delete_messages(
        self, namespace: str, session: str | None, ids: Sequence[str] | None
    ) -> int:
        with self._transaction():
            if ids is not None:
                scoped_ids = [scoped(namespace, i) for i in ids]
                rows = self._run(q.DELETE_MESSAGES_BY_ID, {"ids": scoped_ids}) if ids else []
            else:
                rows = self._run(q.DELETE_SESSION_MESSAGES, {"ns": namespace, "session": session})
        return int(rows[0][0]) if rows else 0

    def namespaces(self) -> list[str]:
        return [r[0] for r in self._read(q.LIST_NAMESPACES, {})]

    # --- port: forgetting ----------------------------------------------------------------
    def forget_namespace(self, namespace: str) -> int:
        removed = 0
        with self._lock, self._transaction():
            self._clocks.pop(namespace, None)
            self._index.drop(namespace)
            for statement in (
                q.FORGET_NS_VERSIONS,
                q.FORGET_NS_FACTS,
                q.FORGET_NS_CONCEPTS,
                q.FORGET_NS_TERMS,
                q.FORGET_NS_MESSAGES,
                q.FORGET_NS_SUMMARIES,
                q.FORGET_NS_NODE,
            ):
                rows = self._run(statement, {"ns": namespace})
                removed += int(rows[0][0]) if rows else 0
        return removed

    def forget_fact(self, fact_id: str) -> int:
        with self._transaction():
            rows = self._run(q.FACT_TOUCHES, {"id": fact_id})
            if not rows or not rows[0][0]:
                return 0
            versions, concepts, terms, messages, namespace = rows[0]
            self._index.drop(namespace)  # read again on its next recall
            live = [c for c in concepts if c is not None]
            if live:
                self._run(q.FORGET_SUMMARIES_OF, {"ids": live})
            self._run(q.FORGET_VERSIONS, {"ids": versions})
            self._run(q.FORGET_FACT, {"id": fact_id})
            self._run(q.UNLINK_SUPERSEDES, {"id": fact_id})
            self._run(q.UNLINK_VERSION_SUPERSEDES, {"id": fact_id})
            for statement, ids in (
                (q.FORGET_ORPHAN_CONCEPTS, concepts),
                (q.FORGET_ORPHAN_TERMS, terms),
                (q.FORGET_ORPHAN_MESSAGES, messages),
            ):
                if ids:
                    self._run(statement, {"ids": [i for i in ids if i is not None]})
        return len(versions) + 1

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._conn.close()
                if self._owns_db:
                    self._db.close()
            except RuntimeError as e:  # pragma: no cover - defensive
                raise BackendError(f"closing the embedded database failed: {e}") from e

    def raw_dump(self) -> list[dict[str, Any]]:
        """Every node's properties (tests scan this to prove `forget` leaves no trace)."""
        out: list[dict[str, Any]] = []
        with self._lock:
            for statement in q.RAW_SCAN:
                out.extend(dict(node) for (node,) in self._run(statement, {}))
        return out
