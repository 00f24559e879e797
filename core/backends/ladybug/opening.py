"""Opening an embedded database file: one store per path in a process, writable or read-only.

LadybugDB's file lock is per process, so a second `Database` on a path this process already
has open would open too, and each would lose the other's writes: the paths open here are
kept in a set and a second open is refused. Another process's write lock, a read-only open
of a path that holds no database, and a torn WAL get their own outcome.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bitemporal_core.backends.ladybug import cypher as q
from bitemporal_core.backends.ladybug import erase
from bitemporal_core.errors import BackendError, ConfigurationError, StoreInUse

__all__ = ["claim_path", "create_schema", "open_file", "release_path"]

_OPEN_PATHS: set[str] = set()  # resolved paths this process has open
_OPEN_LOCK = threading.Lock()


def claim_path(path: str | Path) -> str:
    """Resolve `path` (user, relative, symlinks) and mark it open, or raise `StoreInUse`."""
    key = str(Path(path).expanduser().resolve())
    with _OPEN_LOCK:
        if key in _OPEN_PATHS:
            raise StoreInUse(
                f"the embedded database at {key} is already open in this process; close that "
                "store first, or share it (one store per path)"
            )
        _OPEN_PATHS.add(key)
    return key


def release_path(key: str) -> None:
    """Forget that `key` is open (on close, or when the backend is collected unclosed)."""
    with _OPEN_LOCK:
        _OPEN_PATHS.discard(key)


def open_file(ladybug: Any, key: str, pool: int, *, read_only: bool) -> Any:
    """Open the database file at the claimed path `key`.

    A writable open creates the folder, and first finishes an erasure a dying process left
    marked; a read-only open changes no file, so it needs an existing database.

    Raises:
        StoreInUse: another process holds the file open for writing.
        ConfigurationError: read-only, and no database exists at the path.
        BackendError: the engine could not open the file.
    """
    target = Path(key)
    if read_only and not target.exists():
        raise ConfigurationError(f"no embedded database at {key} to open read-only")
    try:
        if not read_only:
            target.parent.mkdir(parents=True, exist_ok=True)
            if erase.is_marked(target):
                erase.rewrite(target, pool)
        return erase.open_database(ladybug, key, pool, read_only=read_only)
    except RuntimeError as e:
        if "Could not set lock on file" in str(e):
            raise StoreInUse(
                f"another process has the embedded database at {key} open for writing; one "
                "process writes a store file (share it through that process, or use Neo4j)"
            ) from e
        raise BackendError(f"cannot open the embedded database: {e}") from e


def create_schema(run: Callable[..., list[list[Any]]]) -> None:
    """Create the tables, or upgrade a file written by an earlier version (new columns; the
    facts its abstractions quote marked `cited`, once)."""
    try:
        columns = {r[0] for r in run(q.FACT_COLUMNS)}
    except BackendError:  # a new database: no Fact table yet
        columns = set()
    for statement in q.SCHEMA:
        run(statement)
    if columns and "cited" not in columns:
        run(q.MARK_ALL_CITED)
