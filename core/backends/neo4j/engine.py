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

from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.base import CypherBackend, Rows, Run, inferred_rows
from bitemporal_core.backends.merge import batch_dim, check_dim
from bitemporal_core.backends.neo4j import cypher as q
from bitemporal_core.backends.neo4j.tx import (
    _apply_many,
    _concept_graph,
    _dt,
    _forget_rest,
    _known_top,
    _run,
)
from bitemporal_core.backends.port import (
    Clock,
    RecallScope,
    WriteBatch,
    WriteResult,
)
from bitemporal_core.backends.rows import WIDTH, open_end, scoped
from bitemporal_core.common.times import EPOCH
from bitemporal_core.errors import (
    BackendError,
    BitemporalError,
    ConfigurationError,
    ReadOnlyStore,
)
from bitemporal_core.model import Concept, ConceptEdge, Fact, InferredEdge
from bitemporal_core.ranking import bm25

__all__ = ["Neo4jBackend"]

R = TypeVar("R")

_FORGET_BATCH = 10_000
_AWAIT_SECONDS = 300
_EXACT_SCAN_MAX = 2_000  # namespaces up to this many versions are scanned exactly
_OVERFETCH = 10  # vector candidates fetched per wanted hit before filtering
_ANN_FETCH_MAX = 10_000
# The server refuses a write: the database (or this session) is read-only.
_READ_ONLY_CODES = frozenset(
    {
        "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase",
        "Neo.ClientError.Statement.AccessMode",
    }
)


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


class Neo4jBackend(CypherBackend):
    """The storage port on Neo4j 5.26+.

    Args:
        uri: a Bolt or Neo4j URI (`bolt://`, `neo4j://`, `neo4j+s://`...); the backend then
            creates its own driver and closes it in `close()`.
        auth: credentials for `uri`, e.g. `("neo4j", "password")`.
        database: the database to use; None means the server's default.
        driver: an open `neo4j.Driver` the caller owns (never closed by `close()`).
        max_transaction_retry_time: seconds the driver keeps retrying a transaction that
            fails transiently (server down, leader switch); the driver's default is 30.
            Only with `uri` (a caller's driver has its own setting).
        read_only: read sessions only (a cluster routes them to any member); every write
            raises `ReadOnlyStore` before reaching the server, and no schema is created.
    """

    name = "neo4j"
    _s = q.SHARED

    def __init__(
        self,
        uri: str | None = None,
        *,
        auth: Any = None,
        database: str | None = None,
        driver: Any = None,
        max_transaction_retry_time: float | None = None,
        read_only: bool = False,
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
        self.read_only = read_only
        self._access = neo4j.READ_ACCESS if read_only else neo4j.WRITE_ACCESS
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
        self._vector_dims: set[int] = set()  # dimensions whose vector index exists
        self.exact_scan_max = _EXACT_SCAN_MAX  # above this namespace size, the vector index
        self._closed = False

    def __repr__(self) -> str:
        where = f"uri={self._uri!r}" if self._uri is not None else "driver=<caller's driver>"
        mode = ", read_only=True" if self.read_only else ""
        return f"Neo4jBackend({where}, database={self._database!r}{mode})"

    # --- plumbing ------------------------------------------------------------------------
    def _wrap(self, e: Exception) -> BitemporalError:
        """A library error for a driver error, without secrets (codes and server messages)."""
        code = getattr(e, "code", None)
        message = getattr(e, "message", None) or str(e)
        label = f"{type(e).__name__} {code}" if code else type(e).__name__
        if code in _READ_ONLY_CODES:
            return ReadOnlyStore(f"the Neo4j database is read-only ({label})")
        return BackendError(f"Neo4j error ({label}): {message}")

    def _session(self) -> Any:
        if self._closed:
            raise BackendError("the store is closed")
        return self._driver.session(
            database=self._database,
            default_access_mode=self._access,
            bookmark_manager=self._driver.execute_query_bookmark_manager,
            notifications_min_severity="OFF",  # e.g. "property does not exist" for NULLs
        )

    def _execute(self, work: Callable[[Any], R], *, write: bool) -> R:
        """Run `work(tx)` as one managed transaction (retried on transient errors)."""
        if write:
            self._writable()
        self.ensure_schema()
        errors = (self._exceptions.Neo4jError, self._exceptions.DriverError)
        try:
            with self._session() as session:
                if write:
                    return session.execute_write(work)  # type: ignore[no-any-return]
                return session.execute_read(work)  # type: ignore[no-any-return]
        except errors as e:
            raise self._wrap(e) from e

    def _in_read(self, work: Callable[[Run], R]) -> R:
        return self._execute(lambda tx: work(lambda query, p: _run(tx, query, p)), write=False)

    def _in_write(self, work: Callable[[Run], R]) -> R:
        return self._execute(lambda tx: work(lambda query, p: _run(tx, query, p)), write=True)

    _when = staticmethod(_dt)

    @staticmethod
    def _until(value: Any) -> datetime | None:
        return None if value is None else open_end(_dt(value))

    @staticmethod
    def _plain(node: Any) -> dict[str, Any]:
        return {k: v.to_native() if hasattr(v, "to_native") else v for k, v in node.items()}

    def _file_claim_keys(self, run: Run, namespace: str, rows: list[dict[str, Any]]) -> None:
        run(q.MERGE_CLAIM_KEYS, {"rows": rows, "ns": namespace})

    def write_inferred(self, namespace: str, edges: Sequence[InferredEdge], at: datetime) -> int:
        rows = inferred_rows(namespace, edges)
        return int(self._write(q.WRITE_INFERRED, {"rows": rows, "at": at})[0][0]) if rows else 0

    def ensure_schema(self) -> None:
        """Create the constraints and indexes if missing and wait until they are online.

        Idempotent; runs once per backend, on first use; never on a read-only backend.
        """
        if self._schema_ready or self.read_only:
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
        last_tx = None if last is None or _dt(last) <= EPOCH else _dt(last)
        return Clock(last_tx=last_tx, t_index=int(t_index or 0), now=_dt(now))

    def _apply(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        """One managed transaction, retried by the driver on transient errors."""
        dim = batch_dim(batches)
        if dim is not None:
            self._ensure_vector_index(dim)
        return self._execute(lambda tx: _apply_many(tx, batches, dim), write=True)

    def _ensure_vector_index(self, dim: int) -> None:
        """Create the vector index of this dimension if missing (schema writes need their
        own transaction); namespaces of other dimensions have their own."""
        if dim in self._vector_dims:
            return
        name = q.vector_index(dim)
        if not self._read(q.VECTOR_INDEX_EXISTS, {"name": name}):
            errors = (self._exceptions.Neo4jError, self._exceptions.DriverError)
            try:
                with self._session() as session:
                    self._create_schema_rule(session, q.create_vector_index(dim), {"dim": dim})
                    session.run(q.AWAIT_INDEXES, {"seconds": _AWAIT_SECONDS}).consume()
            except errors as e:
                raise self._wrap(e) from e
        with self._lock:
            self._vector_dims.add(dim)

    def vector_search(
        self, scope: RecallScope, vector: Sequence[float], k: int
    ) -> list[tuple[Fact, float]]:
        dim = len(vector)
        params: dict[str, Any] = {**scope.params(), "vector": list(vector), "k": k}
        namespace = scope.namespace
        size_rows = self._read(q.NAMESPACE_SIZE, {"ns": namespace})
        size, stored = (int(size_rows[0][0] or 0), size_rows[0][1]) if size_rows else (0, None)
        check_dim(namespace, None if stored is None else int(stored), dim, "recall")
        if size == 0:
            return []
        rows: Rows = []
        # A read known before the latest write scans exactly: what the approximate index
        # returns depends on the vectors written since.
        now = size_rows[0][2] is not None and _dt(size_rows[0][2]) <= scope.known_at
        if size > self.exact_scan_max and stored is not None and now:
            params["index"] = q.vector_index(dim)
            fetch = max(k * _OVERFETCH, 100)
            while True:
                rows = self._read(q.VECTOR_QUERY, {**params, "fetch": min(fetch, size)})
                if len(rows) >= k or fetch >= min(size, _ANN_FETCH_MAX):
                    break
                fetch *= 4
        if len(rows) < k:  # a small namespace, or a basis the index barely covers
            rows = self._read(q.VECTOR_EXACT, params)
        # Neo4j's cosine scores are (1 + cosine) / 2; the port's are cosines.
        return [(self._fact(r), 2.0 * float(r[WIDTH]) - 1.0) for r in rows]

    # --- port: reads ---------------------------------------------------------------------

    def concept_graph(
        self,
        namespace: str,
        keys: Sequence[str],
        *,
        hops: int,
        window: int,
        known_at: datetime | None = None,
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        ids = [scoped(namespace, k) for k in keys]

        def work(tx: Any) -> tuple[dict[str, Concept], Rows]:
            top = _known_top(tx, namespace, known_at)
            return _concept_graph(tx, ids, hops, window, top)

        found, edges = self._execute(work, write=False)
        return list(found.values()), [
            ConceptEdge(src=a, dst=b, strength=int(s), t_index=int(t)) for a, b, s, t in edges
        ]

    def mentions(
        self, scope: RecallScope, keys: Sequence[str], per_concept: int
    ) -> list[tuple[str, Fact]]:
        ids = [scoped(scope.namespace, key) for key in keys]
        params = {**scope.params(), "ids": ids, "limit": per_concept}
        rows = self._read(q.MENTIONS_OF, params) if ids else []  # one query for all concepts
        rows.sort(key=lambda r: (_dt(r[4]), _dt(r[6]), r[0]), reverse=True)  # newest first,
        rows.sort(key=lambda r: int(r[WIDTH]))  # grouped by concept in the order of keys (stable)
        return [(keys[int(r[WIDTH])], self._fact(r)) for r in rows]

    def keyword_search(
        self, scope: RecallScope, terms: Sequence[str], k: int
    ) -> list[tuple[Fact, float]]:
        if not terms:
            return []
        namespace = scope.namespace
        ids = [scoped(namespace, t) for t in terms]

        def work(tx: Any) -> list[tuple[Fact, float]]:
            df, n_docs, total = _bm25_stats(tx, namespace, ids, scope.known_at)
            chosen = [scoped(namespace, t) for t in bm25.choose_terms(df)]
            if not chosen:
                return []
            params = {**scope.params(), "ids": chosen}
            rows = [(r[0], int(r[1] or 0), r[2], int(r[3])) for r in _run(tx, q.POSTINGS, params)]
            scores = bm25.score(rows, df, n_docs, total / n_docs if n_docs else 0.0)
            best = sorted(scores, key=lambda vid: (-scores[vid], vid))[:k]
            found = {
                f.version_id: f
                for f in map(self._fact, _run(tx, self._s.VERSIONS_BY_ID, {"ids": best}))
            }
            return [(found[vid], scores[vid]) for vid in best if vid in found]

        return self._execute(work, write=False)

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
        """Delete a lineage under its namespace's write lock (writers of it wait)."""

        def work(run: Run) -> int:
            locked = run(q.LOCK_FACT_NAMESPACE, {"id": fact_id})
            removed = self._forget_fact(run, fact_id)
            if locked:
                run(q.UNLOCK_NAMESPACE, {"ns": locked[0][0]})
            return removed

        return self._in_write(work)

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


# --- module helpers and transaction functions (each runs inside one managed transaction) -------
def _bm25_stats(
    tx: Any, namespace: str, ids: list[str], known_at: datetime
) -> tuple[dict[str, int], int, int]:
    """Document frequencies of the terms `ids`, the number of documents and their total
    length, counting the versions recorded by `known_at` (the running totals when nothing was
    recorded after it)."""
    stats = _run(tx, c.READ_NAMESPACE, {"ns": namespace})
    if not stats:
        return {}, 0, 0
    last, n_docs, total = stats[0][0], int(stats[0][3] or 0), int(stats[0][4] or 0)
    if last is None or _dt(last) <= known_at:
        return {r[0]: int(r[1]) for r in _run(tx, q.TERM_DF, {"ids": ids})}, n_docs, total
    params = {"ids": ids, "known_at": known_at}
    df = {r[0]: int(r[1]) for r in _run(tx, q.TERM_DF_KNOWN, params)}
    later = _run(tx, q.RECORDED_AFTER, {"ns": namespace, "known_at": known_at})
    return df, n_docs - int(later[0][0] or 0), total - int(later[0][1] or 0)


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
