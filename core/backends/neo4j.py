"""The server engine: Neo4j 5.26 LTS or newer, through the official `neo4j` driver.

Same graph model and semantics as the embedded engine. Every public write is one managed
write transaction (`execute_write`, so transient errors retry) that first takes the
namespace's write lock; reads are managed read transactions. Transaction time comes from
the server (`datetime.transaction()`), so many application servers agree on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit, urlunsplit

from .. import _bm25 as bm25
from .._time import END_OF_TIME
from ..errors import BackendError, ConfigurationError
from ..model import Concept, Fact, Lineage, Message
from . import neo4j_cypher as q
from ._lifecycle import LifecycleOps, inferred_rows
from ._neo4j_tx import (
    _ZERO,
    Rows,
    _apply_many,
    _concept_graph,
    _dt,
    _forget_fact,
    _forget_rest,
    _run,
)
from ._port import ALL, Clock, ConceptEdge, InferredEdge, RecallFilter, WriteBatch, WriteResult
from ._rows import fact_from_row, scoped

__all__ = ["Neo4jBackend"]

R = TypeVar("R")

_FORGET_BATCH = 10_000
_AWAIT_SECONDS = 300
_EXACT_SCAN_MAX = 2_000  # namespaces up to this many versions are scanned exactly
_OVERFETCH = 10  # vector candidates fetched per wanted hit before filtering
_ANN_FETCH_MAX = 10_000


def _open(value: Any) -> datetime | None:
    """Engine value to domain value: the END_OF_TIME sentinel means an open interval."""
    out = None if value is None else _dt(value)
    return None if out is None or out >= END_OF_TIME else out


def _fact(row: Sequence[Any]) -> Fact:
    return fact_from_row(row, _dt, _open)


def _plain(value: Any) -> Any:
    """A property value with driver temporals turned into Python datetimes."""
    return value.to_native() if hasattr(value, "to_native") else value


def _safe_uri(uri: str) -> str:
    """The URI without user info, path or query (never shows credentials)."""
    try:
        parts = urlsplit(uri)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "<invalid uri>"
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def _split_userinfo(uri: str, auth: Any) -> tuple[str, Any]:
    """Move credentials written into the URI (`bolt://user:pw@host`) into `auth`."""
    try:
        parts = urlsplit(uri)
        user, password = parts.username, parts.password
    except ValueError:
        raise ConfigurationError("the Neo4j URI is not a valid URI") from None
    if user is None:
        return uri, auth
    if auth is not None:
        raise ConfigurationError("credentials are given both in the Neo4j URI and as auth")
    netloc = parts.netloc.rsplit("@", 1)[1]
    clean = urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return clean, (unquote(user), unquote(password or ""))


class Neo4jBackend(LifecycleOps):
    """Storage port on Neo4j 5.26+.

    Args:
        uri: a Bolt or Neo4j URI (`bolt://`, `neo4j://`, `neo4j+s://`...); the backend then
            creates its own driver and closes it in `close()`.
        auth: credentials for `uri`, e.g. `("neo4j", "password")`.
        database: the database to use; None means the server's default.
        driver: an open `neo4j.Driver` the caller owns (never closed by `close()`).
        max_transaction_retry_time: seconds the driver keeps retrying a transaction that
            fails transiently (server down, leader switch); the driver's default is 30.
            Only with `uri` (a caller's driver has its own setting).
    """

    name = "neo4j"
    _q = q

    def __init__(
        self,
        uri: str | None = None,
        *,
        auth: Any = None,
        database: str | None = None,
        driver: Any = None,
        max_transaction_retry_time: float | None = None,
    ) -> None:
        neo4j = _import_driver()
        if (uri is None) == (driver is None):
            raise ConfigurationError("give either a Neo4j URI or a driver, not both or neither")
        if driver is not None and (auth, max_transaction_retry_time) != (None, None):
            raise ConfigurationError(
                "auth and max_transaction_retry_time go with a URI; a caller's driver is "
                "already set up"
            )
        options = _driver_options(max_transaction_retry_time)
        self._uri = None if uri is None else _safe_uri(uri)
        self._database = database
        self._owns_driver = driver is None
        self._exceptions = neo4j.exceptions
        if uri is not None:
            uri, auth = _split_userinfo(uri, auth)
            try:
                driver = neo4j.GraphDatabase.driver(uri, auth=auth, **options)
            except (ValueError, self._exceptions.ConfigurationError) as e:
                raise ConfigurationError(
                    f"cannot use Neo4j URI {self._uri}: {type(e).__name__}"
                ) from e
        self._driver = driver
        self._lock = threading.Lock()
        self._schema_ready = False
        self._vector_dim: int | None = None
        self.exact_scan_max = _EXACT_SCAN_MAX  # above this namespace size, the vector index
        self._closed = False

    def __repr__(self) -> str:
        where = f"uri={self._uri!r}" if self._uri is not None else "driver=<caller's driver>"
        return f"Neo4jBackend({where}, database={self._database!r})"

    # --- plumbing ------------------------------------------------------------------------
    def _wrap(self, e: Exception) -> BackendError:
        """A library error for a driver error, without secrets (codes and server messages)."""
        code = getattr(e, "code", None)
        message = getattr(e, "message", None) or str(e)
        label = f"{type(e).__name__} {code}" if code else type(e).__name__
        return BackendError(f"Neo4j error ({label}): {message}")

    def _session(self) -> Any:
        if self._closed:
            raise BackendError("the store is closed")
        return self._driver.session(
            database=self._database,
            bookmark_manager=self._driver.execute_query_bookmark_manager,
            notifications_min_severity="OFF",  # e.g. "property does not exist" for NULLs
        )

    def _execute(self, work: Callable[[Any], R], *, write: bool) -> R:
        """Run `work(tx)` as one managed transaction (retried on transient errors)."""
        self.ensure_schema()
        errors = (self._exceptions.Neo4jError, self._exceptions.DriverError)
        try:
            with self._session() as session:
                if write:
                    return session.execute_write(work)  # type: ignore[no-any-return]
                return session.execute_read(work)  # type: ignore[no-any-return]
        except errors as e:
            raise self._wrap(e) from e

    def _read(self, query: str, params: dict[str, Any]) -> Rows:
        return self._execute(lambda tx: _run(tx, query, params), write=False)

    def _write(self, query: str, params: dict[str, Any]) -> Rows:
        return self._execute(lambda tx: _run(tx, query, params), write=True)

    @staticmethod
    def _time(value: Any) -> datetime | None:
        return None if value is None else _dt(value)

    def write_inferred(self, namespace: str, edges: Sequence[InferredEdge], at: datetime) -> int:
        rows = inferred_rows(namespace, edges)
        return int(self._write(q.WRITE_INFERRED, {"rows": rows, "at": at})[0][0]) if rows else 0

    def ensure_schema(self) -> None:
        """Create the constraints and indexes if missing and wait until they are online.

        Idempotent; runs once per backend, on first use.
        """
        if self._schema_ready:
            return
        with self._lock:
            if self._schema_ready:
                return
            errors = (self._exceptions.Neo4jError, self._exceptions.DriverError)
            try:
                with self._session() as session:
                    for statement in q.SCHEMA:
                        self._create_schema_rule(session, statement)
                    session.run(q.AWAIT_INDEXES, {"seconds": _AWAIT_SECONDS}).consume()
            except errors as e:
                raise self._wrap(e) from e
            self._schema_ready = True

    def _create_schema_rule(
        self, session: Any, statement: str, params: dict[str, Any] | None = None
    ) -> None:
        try:
            session.execute_write(lambda tx: tx.run(statement, params or {}).consume())
        except self._exceptions.ClientError as e:
            if not str(e.code).endswith("AlreadyExists"):  # else another client just made it
                raise

    # --- port: clock and writes ----------------------------------------------------------
    def clock(self, namespace: str) -> Clock:
        rows = self._read(q.CLOCK, {"ns": namespace})
        last, t_index, now = rows[0]
        last_tx = None if last is None or _dt(last) <= _ZERO else _dt(last)
        return Clock(last_tx=last_tx, t_index=int(t_index or 0), now=_dt(now))

    def apply(self, batch: WriteBatch) -> WriteResult:
        return self.apply_many([batch])[0]

    def apply_many(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        """Apply batches of one namespace, in order, in one managed transaction.

        Rows of all batches are merged into the same few statements, each row carrying its
        own batch's transaction time and t_index, so a bulk import costs a handful of
        statements per chunk rather than per message.
        """
        if not batches:
            return []
        if len({b.namespace for b in batches}) != 1:
            raise BackendError("apply_many takes batches of one namespace")
        dims = {len(v.embedding) for b in batches for v in b.versions if v.embedding is not None}
        if dims:
            self._ensure_vector_index(dims)
        return self._execute(lambda tx: _apply_many(tx, batches), write=True)

    def _ensure_vector_index(self, dims: set[int]) -> None:
        """Create the vector index for this dimension (schema writes need their own
        transaction); one dimension per database."""
        if len(dims) != 1:
            raise ConfigurationError(f"embeddings of mixed dimensions: {sorted(dims)}")
        dim = dims.pop()
        if self._vector_dim == dim:
            return
        rows = self._read(q.VECTOR_INDEX_DIMS, {})
        if not rows:
            errors = (self._exceptions.Neo4jError, self._exceptions.DriverError)
            try:
                with self._session() as session:
                    self._create_schema_rule(session, q.CREATE_VECTOR_INDEX, {"dim": dim})
                    session.run(q.AWAIT_INDEXES, {"seconds": _AWAIT_SECONDS}).consume()
            except errors as e:
                raise self._wrap(e) from e
            rows = self._read(q.VECTOR_INDEX_DIMS, {})
        if int(rows[0][0]) != dim:
            raise ConfigurationError(
                f"this database's vector index has {rows[0][0]} dimensions, not {dim}"
            )
        self._vector_dim = dim

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
        params: dict[str, Any] = {
            "ns": namespace,
            "vector": list(vector),
            "k": k,
            "valid_at": valid_at,
            "known_at": known_at,
            **where.params(),
        }
        size_rows = self._read(q.NAMESPACE_SIZE, {"ns": namespace})
        size = int(size_rows[0][0] or 0) if size_rows else 0
        if size == 0 or not self._read(q.VECTOR_INDEX_DIMS, {}):
            return []
        rows: Rows = []
        if size > self.exact_scan_max:
            fetch = max(k * _OVERFETCH, 100)
            while True:
                rows = self._read(q.VECTOR_QUERY, {**params, "fetch": min(fetch, size)})
                if len(rows) >= k or fetch >= min(size, _ANN_FETCH_MAX):
                    break
                fetch *= 4
        if len(rows) < k:  # a small namespace, or a basis the index barely covers
            rows = self._read(q.VECTOR_EXACT, params)
        return [(_fact(r), float(r[16])) for r in rows]

    # --- port: reads ---------------------------------------------------------------------
    def lineage(self, fact_id: str) -> Lineage | None:
        def work(tx: Any) -> tuple[Rows, Rows]:
            rows = _run(tx, q.LINEAGE, {"id": fact_id})
            return rows, (_run(tx, q.SUPERSEDED_BY, {"id": fact_id}) if rows else [])

        rows, successors = self._execute(work, write=False)
        if not rows:
            return None
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
        ids = [scoped(namespace, k) for k in keys]
        found, edges = self._execute(lambda tx: _concept_graph(tx, ids, hops, window), write=False)
        return list(found.values()), [
            ConceptEdge(src=a, dst=b, strength=int(s), t_index=int(t)) for a, b, s, t in edges
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
        ids = [scoped(namespace, key) for key in keys]
        params = {
            "ids": ids,
            "valid_at": valid_at,
            "known_at": known_at,
            "limit": per_concept,
            **where.params(),
        }
        rows = self._read(q.MENTIONS_OF, params) if ids else []  # one query for all concepts
        rows.sort(key=lambda r: (_dt(r[4]), _dt(r[6])), reverse=True)  # newest first,
        rows.sort(key=lambda r: int(r[16]))  # grouped by concept in the order of keys (stable)
        return [(keys[int(r[16])], _fact(r)) for r in rows]

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
        ids = [scoped(namespace, t) for t in terms]

        def work(tx: Any) -> list[tuple[Fact, float]]:
            df = {r[0]: int(r[1]) for r in _run(tx, q.TERM_DF, {"ids": ids})}
            chosen = [scoped(namespace, t) for t in bm25.choose_terms(df)]
            if not chosen:
                return []
            params = {"ids": chosen, "valid_at": valid_at, "known_at": known_at, **where.params()}
            rows = [(r[0], int(r[1] or 0), r[2], int(r[3])) for r in _run(tx, q.POSTINGS, params)]
            stats = _run(tx, q.READ_NAMESPACE, {"ns": namespace})
            n_docs, total = (int(stats[0][3]), int(stats[0][4])) if stats else (0, 0)
            scores = bm25.score(rows, df, n_docs, total / n_docs if n_docs else 0.0)
            best = sorted(scores, key=lambda vid: (-scores[vid], vid))[:k]
            found = {f.version_id: f for f in map(_fact, _run(tx, q.VERSIONS_BY_ID, {"ids": best}))}
            return [(found[vid], scores[vid]) for vid in best if vid in found]

        return self._execute(work, write=False)

    def concepts(self, namespace: str, limit: int) -> list[Concept]:
        rows = self._read(q.CONCEPTS_OF_NAMESPACE, {"ns": namespace, "limit": limit})
        return [Concept(key=r[0], display=r[1], t_index=int(r[2])) for r in rows]

    def mention_counts(self, namespace: str, keys: Sequence[str]) -> dict[str, int]:
        ids = [scoped(namespace, k) for k in keys]
        return {r[0]: int(r[1]) for r in self._read(q.MENTION_COUNTS, {"ids": ids})} if ids else {}

    def summaries(self, namespace: str, keys: Sequence[str], known_at: datetime) -> dict[str, str]:
        ids = [scoped(namespace, k) for k in keys]
        if not ids:
            return {}
        rows = self._read(q.SUMMARIES_KNOWN, {"ids": ids, "known_at": known_at})
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
                at=_dt(r[5]),
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
        if ids is not None:
            if not ids:
                return 0
            scoped_ids = list(dict.fromkeys(scoped(namespace, i) for i in ids))
            rows = self._write(q.DELETE_MESSAGES_BY_ID, {"ids": scoped_ids})
        else:
            rows = self._write(q.DELETE_SESSION_MESSAGES, {"ns": namespace, "session": session})
        return int(rows[0][0]) if rows else 0

    def namespaces(self) -> list[str]:
        return [r[0] for r in self._read(q.LIST_NAMESPACES, {})]

    # --- port: forgetting ----------------------------------------------------------------
    def forget_namespace(self, namespace: str) -> int:
        """Delete a namespace: in batches (one transaction each), then whatever concurrent
        writers added meanwhile and the namespace node, in one transaction under its lock."""
        removed = 0
        params = {"ns": namespace, "batch": _FORGET_BATCH}
        for statement in q.FORGET_NS_BATCHES:
            while True:
                rows = self._write(statement, params)
                count = int(rows[0][0]) if rows else 0
                removed += count
                if count < _FORGET_BATCH:
                    break
        return removed + self._execute(lambda tx: _forget_rest(tx, namespace), write=True)

    def forget_fact(self, fact_id: str) -> int:
        return self._execute(lambda tx: _forget_fact(tx, fact_id), write=True)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._owns_driver:
                try:
                    self._driver.close()
                except (self._exceptions.Neo4jError, self._exceptions.DriverError) as e:
                    raise self._wrap(e) from e

    def raw_dump(self) -> list[dict[str, Any]]:
        """Every node's properties (tests scan this to prove `forget` leaves no trace)."""

        def work(tx: Any) -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []
            for statement in q.RAW_SCAN:
                out.extend({k: _plain(v) for k, v in row[0].items()} for row in _run(tx, statement))
            return out

        return self._execute(work, write=False)


# --- module helpers and transaction functions (each runs inside one managed transaction) -------
def _driver_options(max_transaction_retry_time: object) -> dict[str, Any]:
    """Driver settings from the backend's keyword options, checked."""
    if max_transaction_retry_time is None:
        return {}
    value = max_transaction_retry_time
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e6:
        raise ConfigurationError("max_transaction_retry_time must be a number of seconds >= 0")
    return {"max_transaction_retry_time": float(value)}


def _import_driver() -> Any:
    try:
        import neo4j
    except ImportError as e:
        raise ConfigurationError(
            "the Neo4j engine needs the 'neo4j' package: pip install 'bitemporal-memory[neo4j]'"
        ) from e
    return neo4j
