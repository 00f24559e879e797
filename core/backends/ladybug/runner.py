"""The embedded engine's one connection, kept fit for a store that grows (docs/design.md,
"Engines"): statements run with their size class, prepared again as the process's writes
double what it wrote, and the write-ahead log checkpointed by the shape of the writes."""

from __future__ import annotations

from contextlib import suppress
from typing import Any, cast

from bitemporal_core.backends.ladybug import cypher as q
from bitemporal_core.errors import BackendError

__all__ = ["BULK_BATCHES", "REPLAN_FIRST", "Runner"]

REPLAN_FIRST = 64
"""Rows (versions and messages) this process writes before its statements are prepared again."""
BULK_BATCHES = 16
"""A write of this many messages or more is a bulk chunk (`Runner.writing`)."""


class Runner:
    """Runs statements on one LadybugDB connection of `database` (the caller holds the lock).

    Args:
        ladybug: the `ladybug` module.
        database: the open `ladybug.Database`.
        tune_wal: set the checkpoint size by the shape of the writes (only on a database the
            backend opened itself, which starts at `q.WAL_SMALL_BYTES`).
    """

    def __init__(self, ladybug: Any, database: Any, *, tune_wal: bool) -> None:
        self._ladybug, self._db, self._tune_wal = ladybug, database, tune_wal
        self._conn = ladybug.Connection(database)
        self._written, self._replan_at = 0, REPLAN_FIRST
        self._small_writes = BULK_BATCHES  # writes smaller than a bulk chunk, in a row
        self.renewed = 0  # connections opened again (`wrote`)

    def run(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        """The rows of one statement; an engine error is a `BackendError`."""
        try:
            result = self._conn.execute(query + _size_class(params), params or {})
        except RuntimeError as e:
            raise BackendError(f"embedded engine error: {e}") from e
        if isinstance(result, list):  # pragma: no cover - one statement per call here
            result = result[-1]
        return cast(list[list[Any]], result.get_all())

    def rollback(self) -> None:
        with suppress(RuntimeError):  # the engine already rolled back when a statement failed
            self._conn.execute(q.ROLLBACK)

    def writing(self, batches: int) -> None:
        """Before a write of `batches` messages, outside its transaction: the checkpoint size
        is larger from a bulk chunk on (fewer, larger checkpoints) and small again after
        `BULK_BATCHES` smaller writes in a row (lookups slow down as the log grows; a bulk
        import writes a few messages apart between its chunks)."""
        was = self._small_writes
        bulk = batches >= BULK_BATCHES
        self._small_writes = 0 if bulk else was + 1
        if not self._tune_wal:
            return
        if bulk and was >= BULK_BATCHES:
            self.run(q.WAL_BULK)
        elif self._small_writes == BULK_BATCHES:
            self.run(q.WAL_SMALL)

    def wrote(self, rows: int) -> None:
        """After a committed write of `rows` rows: each time this process has doubled what it
        wrote, a new connection prepares every statement afresh. The engine plans a lookup
        over a nearly empty table as a scan joined by hash (an index lookup from a few hundred
        rows on), and the binding keeps each prepared plan for the connection's life: in a
        process that began on an empty store, reading the claims under one key cost 1.3 ms
        after 1,000 messages and 4.8 ms after 6,000, instead of 0.1 (benchmarks/RESULTS.md)."""
        self._written += rows
        if self._written < self._replan_at:
            return
        self._replan_at = 2 * self._written
        stale, self._conn = self._conn, self._ladybug.Connection(self._db)
        stale.close()
        self.renewed += 1

    def close(self) -> None:
        self._conn.close()


def _size_class(params: dict[str, Any] | None) -> str:
    """A suffix that keeps bulk-sized and call-sized lists of one statement apart.

    The binding caches one prepared statement per query text and parameter types, and a
    statement prepared and run with bulk-sized lists (hundreds of rows) stays slow for every
    later small call in the process: a 12-word `remember` after a 2,000-message import cost
    64 ms instead of 12, LINK_TERMS alone 36 ms instead of 0.4 (benchmarks/RESULTS.md).
    Trailing spaces change nothing but the cache key."""
    if not params:
        return ""
    longest = max((len(v) for v in params.values() if isinstance(v, list)), default=0)
    return "" if longest <= 32 else " " if longest <= 256 else "  "
