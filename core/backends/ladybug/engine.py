"""The embedded engine: LadybugDB (the maintained fork of Kuzu), on disk or in memory.

One connection guarded by a lock; every public write is one explicit transaction, so a
failed call writes nothing. Needs none of LadybugDB's downloadable extensions.
"""

from __future__ import annotations

import threading
import uuid
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.base import (
    CypherBackend,
    Run,
    fix_dim,
    formation_writes,
    inferred_rows,
)
from bitemporal_core.backends.ladybug import cypher as q
from bitemporal_core.backends.ladybug import erase
from bitemporal_core.backends.ladybug.held import RecallIndex
from bitemporal_core.backends.ladybug.opening import (
    claim_path,
    create_schema,
    open_file,
    release_path,
)
from bitemporal_core.backends.ladybug.runner import Runner
from bitemporal_core.backends.ladybug.saved import SavedIndexes
from bitemporal_core.backends.ladybug.writes import (
    file_claim_keys,
    write_abstracts,
    write_claims,
    write_messages,
    write_terms,
)
from bitemporal_core.backends.merge import (
    batch_dim,
    check_closes,
    check_dim,
    concept_rows,
    link_rows,
    mention_rows,
    no_nulls,
    plan,
    relate_rows,
    vector_rows,
    version_row,
)
from bitemporal_core.backends.port import (
    Clock,
    RecallScope,
    WriteBatch,
    WriteResult,
)
from bitemporal_core.backends.rows import WIDTH, open_end, scoped
from bitemporal_core.common.times import END_OF_TIME, EPOCH, to_utc, utcnow
from bitemporal_core.errors import (
    BackendError,
    BitemporalError,
    ConfigurationError,
    EmbeddingMismatch,
    NotCurrent,
)
from bitemporal_core.model import Concept, ConceptEdge, Fact, InferredEdge

__all__ = ["LadybugBackend"]

R = TypeVar("R")
_OPTIONAL = ("source", "speaker", "session", "supersedes", "fact_supersedes")


class LadybugBackend(CypherBackend):
    """The storage port on LadybugDB.

    Args:
        path: a database path on disk, or None for an in-memory database.
        database: an already open `ladybug.Database` the caller owns (not closed by `close`).
        buffer_pool_mb: the engine's page cache (LadybugDB's default is 80% of RAM).
    """

    name = "ladybug"
    _s = q.SHARED

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        database: Any = None,
        buffer_pool_mb: int = 1024,
        read_only: bool = False,
    ) -> None:
        try:
            import ladybug
        except ImportError as e:  # pragma: no cover - ladybug is a hard dependency
            raise BackendError("the embedded engine needs the 'ladybug' package") from e
        if read_only and (path is None or database is not None):
            raise ConfigurationError("read_only opens a database file: give its path")
        self.read_only = read_only
        self._owns_db = database is None
        key = claim_path(path) if database is None and path is not None else None
        # The file this backend rewrites after a deletion (`erase`): only one it opened itself.
        self._erasable = None if key is None or read_only else Path(key)
        self._pool = buffer_pool_mb * 2**20
        try:
            if database is None:
                database = (
                    ladybug.Database(":memory:", buffer_pool_size=self._pool)
                    if key is None
                    else open_file(ladybug, key, self._pool, read_only=read_only)
                )
            self._db = database
            self._runner = Runner(ladybug, database, tune_wal=self._owns_db)
        except (RuntimeError, BitemporalError) as e:
            if key is not None:
                release_path(key)
            if isinstance(e, BitemporalError):
                raise
            raise BackendError(f"cannot open the embedded database: {e}") from e
        # Released on close, or when the backend is collected without one.
        self._release = weakref.finalize(self, release_path, key) if key else None
        self.path = None if path is None else str(path)
        self._lock = threading.RLock()
        self._closed = False
        # This process is the engine's only writer, so each namespace's clock is cached here.
        self._clocks: dict[str, tuple[datetime, int]] = {}
        self._dims: dict[str, int | None] = {}  # each namespace's embedding dimension
        folder = None if path is None else Path(str(Path(path).expanduser()) + ".recall")
        saved = (
            SavedIndexes(folder, read_only=read_only)
            if folder is not None and self._owns_db
            else None
        )
        self._index = RecallIndex(saved=saved)  # what recall reads (see `index`, `saved`)
        if not read_only:  # a read-only file already has its schema
            with self._lock:
                create_schema(self._run)

    def __repr__(self) -> str:
        mode = ", read_only=True" if self.read_only else ""
        return f"LadybugBackend(path={self.path!r}{mode})"

    # --- plumbing ------------------------------------------------------------------------
    def _run(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        if self._closed:
            raise BackendError("the store is closed")
        return self._runner.run(query, params)

    @contextmanager
    def _transaction(self, *, read_only: bool = False) -> Iterator[None]:
        if not read_only:
            self._writable()
        with self._lock:
            self._run(q.BEGIN_READ if read_only else q.BEGIN)
            try:
                yield
            except BaseException:
                self._runner.rollback()
                raise
            self._run(q.COMMIT)

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
        return Clock(last_tx=None if last <= EPOCH else last, t_index=t_index, now=utcnow())

    def _new(self, namespace: str) -> bool:
        """Whether nothing was ever written to the namespace (no clock yet)."""
        return namespace not in self._clocks and not self._run(q.READ_CLOCK, {"ns": namespace})

    def _apply(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        ns = batches[0].namespace
        dim = batch_dim(batches)
        if dim is not None and dim not in q.VECTOR_SEARCH:
            raise EmbeddingMismatch(
                f"the embedded engine supports vectors of {q.VECTOR_DIMS} dimensions, not {dim}"
            )
        with self._lock:  # the caches change with the commit, under the same lock
            self._runner.writing(len(batches))
            self._index.keep(self._run, ns, new=self._new(ns))
            self._index.writing(ns)
            with self._transaction():
                results, last, concepts, related = self._write_chunk(ns, batches, dim)
            self._clocks[ns] = (last, results[-1].t_index)
            if dim is not None:
                self._dims[ns] = dim
            steps = list(zip(batches, results, strict=True))
            self._index.written(ns, steps, concepts, related)
            if any(b.archive for b in batches):
                self._index.drop(ns)  # archived_at is read again on the next recall
            self._runner.wrote(sum(len(b.versions) + len(b.messages) for b in batches))
        return results

    def _write_chunk(
        self, ns: str, batches: Sequence[WriteBatch], dim: int | None
    ) -> tuple[list[WriteResult], datetime, list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """The statements of `apply_many`, inside its transaction: the results, last_tx, and
        the concept and RELATED rows written (for the recall index)."""
        last_tx, t_index, msg_seq = self._run(q.MERGE_NAMESPACE, {"ns": ns, "zero": EPOCH})[0]
        fix_dim(self._run, ns, dim)
        results = plan(ns, to_utc(last_tx), int(t_index), batches)
        check_closes(batches)
        steps = list(zip(batches, results, strict=True))
        self._write_versions(ns, steps)
        self._close_versions(steps)
        concepts, related = self._write_concepts(ns, steps)
        write_terms(self._run, ns, batches)
        self._write_summaries(ns, batches)
        msg_seq = write_messages(self._run, ns, steps, int(msg_seq))
        write_abstracts(self._run, batches)
        write_claims(self._run, ns, batches)
        formation_writes(self._run, q.SHARED, ns, batches)
        last = max(to_utc(last_tx), results[-1].at)
        params = {
            "ns": ns,
            "last_tx": last,
            "t_index": results[-1].t_index,
            "msg_seq": msg_seq,
            "n_versions": sum(len(b.versions) for b in batches),
            "length": sum(v.length for b in batches for v in b.versions),
        }
        self._run(self._s.UPDATE_NAMESPACE, params)
        return results, last, concepts, related

    def _close_versions(self, steps: list[tuple[WriteBatch, WriteResult]]) -> None:
        rows = [{"id": vid, "at": b.at} for b, _ in steps for vid in b.close]
        if not rows:
            return
        closed = self._run(c.CLOSE_VERSIONS, {"rows": rows, "eot": END_OF_TIME})[0][0]
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
        links = link_rows([b for b, _ in steps])
        if links:
            self._run(self._s.LINK_SUPERSEDES, {"rows": links})

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
        mentions = mention_rows(ns, steps)
        if mentions:
            self._run(self._s.LINK_MENTIONS, {"rows": mentions})
        pairs = relate_rows(steps)
        for row in pairs:
            row["a"], row["b"] = scoped(ns, row["a"]), scoped(ns, row["b"])
        if pairs:
            self._run(self._s.RELATE_CONCEPTS, {"rows": pairs})
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
                ids = [scoped(ns, key) for key, _ in b.summaries]
                params = {"eot": END_OF_TIME, "at": b.at}
                self._from_ids(self._run, self._s.CLOSE_SUMMARIES, ids, params)
                self._run(c.WRITE_SUMMARIES, {"rows": rows, "ns": ns, "eot": END_OF_TIME})

    # --- what the shared half needs ------------------------------------------------------
    def _citable(self, run: Run, fact_ids: Sequence[str]) -> list[str]:
        """The facts some version of which an abstraction quotes (`q.CITED`)."""
        return [f for f in dict.fromkeys(fact_ids) if run(q.CITED, {"id": f})]

    def _in_read(self, work: Callable[[Run], R]) -> R:
        with self._lock:
            return work(self._run)

    def _in_write(self, work: Callable[[Run], R]) -> R:
        with self._lock, self._transaction():
            return work(self._run)

    @staticmethod
    def _when(value: Any) -> datetime:
        return to_utc(value)

    @staticmethod
    def _until(value: Any) -> datetime | None:
        return None if value is None else open_end(to_utc(value))

    def _forgetting(self, run: Run, fact_id: str, namespace: str) -> None:
        self._deleting()
        self._index.writing(namespace)
        self._index.drop(namespace)  # read again on its next recall

    # --- port: recall reads and lifecycle -------------------------------------------------

    def _file_claim_keys(self, run: Run, namespace: str, rows: list[dict[str, Any]]) -> None:
        file_claim_keys(run, namespace, rows)

    def write_inferred(self, namespace: str, edges: Sequence[InferredEdge], at: datetime) -> int:
        rows = inferred_rows(namespace, edges)
        with self._lock, self._transaction():
            self._index.writing(namespace)
            for r in rows:
                self._run(q.CLOSE_INFERRED, {"a": r["a"], "b": r["b"], "type": r["type"], "at": at})
            if rows:
                self._run(q.CREATE_INFERRED, {"rows": rows, "at": at})
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
            self._index.writing(namespace)
            self._index.drop(namespace)  # archived_at is read again on the next recall
            return super().archive(namespace, fact_ids, at)

    def concept_graph(
        self,
        namespace: str,
        keys: Sequence[str],
        *,
        hops: int,
        window: int,
        known_at: datetime | None = None,
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        with self._lock:
            index = self._index.get(self._run, namespace)
            top = index.known_top(known_at)
            found, edges = index.neighbourhood(keys, namespace, hops, window, top)
        return [Concept(key=k, display=d, t_index=t) for k, d, t in found.values()], [
            ConceptEdge(src=a, dst=b, strength=s, t_index=t) for a, b, s, t in edges
        ]

    def mentions(
        self, scope: RecallScope, keys: Sequence[str], per_concept: int
    ) -> list[tuple[str, Fact]]:
        """Each concept's newest visible mentions, chosen in the recall index."""
        ns = scope.namespace
        with self._lock:
            index = self._index.get(self._run, ns)
            mask = index.visible(scope.valid_at, scope.known_at, scope.where)
            chosen = {
                key: [
                    index.ids[i] for i in index.newest_mentions(scoped(ns, key), mask, per_concept)
                ]
                for key in keys
            }
            ids = [v for vids in chosen.values() for v in vids]
            facts = index.read_facts(self._run, self._fact, ids)
        return [(key, facts[vid]) for key in keys for vid in chosen[key] if vid in facts]

    def keyword_search(
        self, scope: RecallScope, terms: Sequence[str], k: int
    ) -> list[tuple[Fact, float]]:
        if not terms:
            return []
        with self._lock:
            index = self._index.get(self._run, scope.namespace)
            mask = index.visible(scope.valid_at, scope.known_at, scope.where)
            best = index.keyword(scope.namespace, terms, mask, k, scope.known_at)
            facts = index.read_facts(self._run, self._fact, [vid for vid, _ in best])
        return [(facts[vid], score) for vid, score in best if vid in facts]

    def vector_search(
        self, scope: RecallScope, vector: Sequence[float], k: int
    ) -> list[tuple[Fact, float]]:
        query = q.VECTOR_SEARCH.get(len(vector))
        if query is None:
            raise EmbeddingMismatch(
                f"the embedded engine supports vectors of {q.VECTOR_DIMS} dimensions, "
                f"not {len(vector)}"
            )
        with self._lock:
            check_dim(scope.namespace, self._dim(scope.namespace), len(vector), "recall")
            index = self._index.vectors(self._run, scope.namespace, len(vector))
            if index is not None:
                mask = index.visible(scope.valid_at, scope.known_at, scope.where)
                best = index.nearest(vector, mask, k)
                facts = index.read_facts(self._run, self._fact, [vid for vid, _ in best])
                return [(facts[vid], score) for vid, score in best if vid in facts]
        params = {**scope.params(), "vector": list(vector), "k": k}
        return [(self._fact(r), float(r[WIDTH])) for r in self._read(query, params)]

    def _dim(self, namespace: str) -> int | None:
        """The namespace's embedding dimension (None before its first embedded write)."""
        if namespace not in self._dims:
            rows = self._run(c.NAMESPACE_DIM, {"ns": namespace})
            self._dims[namespace] = int(rows[0][0]) if rows and rows[0][0] is not None else None
        return self._dims[namespace]

    def _may_have_summaries(self, namespace: str) -> bool:
        with self._lock:
            return bool(self._index.get(self._run, namespace).summaries)

    # --- port: forgetting ----------------------------------------------------------------
    def _deleting(self) -> None:
        """Before a deletion commits: mark the file, so that it is rewritten without the
        deleted bytes on close (see `erase`)."""
        if self._erasable is not None:
            erase.mark(self._erasable)

    def delete_messages(
        self, namespace: str, session: str | None, ids: Sequence[str] | None
    ) -> int:
        with self._lock:
            self._deleting()
            return super().delete_messages(namespace, session, ids)

    def forget_namespace(self, namespace: str) -> int:
        removed = 0
        with self._lock, self._transaction():
            self._deleting()
            self._index.writing(namespace)
            self._clocks.pop(namespace, None)
            self._dims.pop(namespace, None)
            self._index.drop(namespace)
            for statement in (
                q.FORGET_NS_VERSIONS,
                q.FORGET_NS_FACTS,
                q.FORGET_NS_CONCEPTS,
                q.FORGET_NS_TERMS,
                q.FORGET_NS_MESSAGES,
                q.FORGET_NS_SUMMARIES,
                q.FORGET_NS_CLAIMS,
                q.FORGET_NS_ENTITIES,
                q.FORGET_NS_CLAIM_KEYS,
                q.FORGET_NS_TAILS,
                c.FORGET_NS_NODE,
            ):
                rows = self._run(statement, {"ns": namespace})
                removed += int(rows[0][0]) if rows else 0
        return removed

    def compact(self) -> bool:
        """Rewrite the file now if a deletion marked it (as `close` does), then reopen it."""
        with self._lock:
            if self._closed:
                raise BackendError("the store is closed")
            if self._erasable is None or not erase.is_marked(self._erasable):
                return False
            import ladybug

            self._runner.close()
            self._db.close()
            try:
                erase.rewrite(self._erasable, self._pool)
            finally:  # rewritten or not, the store goes on with the file at its path
                self._db = erase.open_database(ladybug, str(self._erasable), self._pool)
                self._runner = Runner(ladybug, self._db, tune_wal=True)
            return True

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            # The recall indexes held, for the next process's first recall (a folder that
            # cannot be written: the next process reads the database instead).
            if not self.read_only:
                with suppress(OSError, BackendError):
                    self._index.save_all(self._run)
            self._closed = True
            try:
                self._runner.close()
                if self._owns_db:
                    self._db.close()
                # Closed, so no page of the old file is written any more: rewrite it now.
                if self._erasable is not None and erase.is_marked(self._erasable):
                    erase.rewrite(self._erasable, self._pool)
            except RuntimeError as e:  # pragma: no cover - defensive
                raise BackendError(f"closing the embedded database failed: {e}") from e
            finally:
                if self._release is not None:
                    self._release()
