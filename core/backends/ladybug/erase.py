"""Erasure that reaches the disk (the database file rewritten without what was forgotten),
and opening a store file, which recovers a WAL whose last record was torn.

LadybugDB deletes a row by marking it deleted; the bytes of its strings stay in the file's
pages, and checkpoints write further copies of pages into free space, until the engine happens
to reuse them (a forgotten sentence was found 55 times in a closed file, 108 times after more
writes). LadybugDB has no statement to compact a file, but it exports a database (its own
Parquet format) and imports such an export into an empty one, and a fresh import holds only
the rows that were exported.

So a committed deletion (`forget`, `delete_messages`) first marks the database path with a
file beside it (`<path>.erase`, created before the deletion's transaction), and the database is
rewritten when the store that deleted closes, and when a store opens a marked path (a process
that died before closing left its mark):

1. the closed database is exported into a work folder beside it (`<path>.erase-work/`);
2. the export is imported into a new database file in that folder, which is closed (no WAL),
   flushed to the device and renamed over the old file (an atomic replace);
3. the old file's WAL, the work folder and the mark are removed.

A crash at any step leaves the old file whole and the mark in place, so the next open rewrites
again. What this cannot reach: copies outside the store's files (backups, filesystem snapshots,
the blocks a filesystem or SSD frees without overwriting).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bitemporal_core.backends.ladybug import cypher as q
from bitemporal_core.errors import BackendError

__all__ = ["is_marked", "mark", "open_database", "rewrite", "rewrite_pool"]

MARK = ".erase"
WORK = ".erase-work"
# The files LadybugDB keeps beside a database while it is open, or after a crash.
_SIDE_FILES = (".wal", ".shadow")
# EXPORT and IMPORT take a folder only as a string literal, and the export's own COPY
# statements quote it again with double quotes: a folder named with neither quote, backslash
# nor control character reaches the engine exactly.
_LITERAL_SAFE = re.compile(r"[^'\"\\`\x00-\x1f\x7f]+")

_log = logging.getLogger(__name__)


def _mark_of(path: Path) -> Path:
    return Path(str(path) + MARK)


def is_marked(path: Path) -> bool:
    """Whether a deletion in the database at `path` has not yet been rewritten away."""
    return _mark_of(path).exists()


def mark(path: Path) -> None:
    """Mark the database at `path` for a rewrite (durably: before the deletion commits)."""
    marker = _mark_of(path)
    if marker.exists():
        return
    marker.touch()
    _sync_folder(marker.parent)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_file(path: Path) -> None:
    with path.open("rb+") as f:
        os.fsync(f.fileno())


@contextlib.contextmanager
def _literal_folder(folder: Path) -> Iterator[str]:
    """`folder` as the engine can read it in a string literal: itself, or a link to it from a
    private temporary folder when its path has a quote or backslash."""
    text = str(folder.resolve())
    if _LITERAL_SAFE.fullmatch(text):
        yield text
        return
    holder = Path(tempfile.mkdtemp(prefix="bitemporal-erase-"))
    try:
        link = holder / "work"
        link.symlink_to(folder.resolve(), target_is_directory=True)
        if not _LITERAL_SAFE.fullmatch(str(link)):
            raise BackendError("the temporary folder's path cannot be named to the engine")
        yield str(link)
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def open_database(ladybug: Any, target: str, pool: int, *, read_only: bool = False) -> Any:
    """Opens the database file. A WAL whose last record is torn (the process died, or the disk
    filled, while writing a transaction that was never acknowledged) is replayed up to that
    record, as the engine's recovery option allows, instead of refusing the whole store."""
    options = {
        "buffer_pool_size": pool,
        "read_only": read_only,
        "checkpoint_threshold": q.WAL_SMALL_BYTES,
    }
    try:
        return ladybug.Database(target, **options)
    except RuntimeError as e:
        if "WAL file is corrupted" not in str(e):
            raise
    _log.warning("%s: the WAL's last record was torn; replayed up to it", target)
    return ladybug.Database(target, **options, throw_on_wal_replay_failure=False)


def _run(ladybug: Any, path: Path, statement: str, buffer_pool_size: int) -> None:
    db = open_database(ladybug, str(path), buffer_pool_size)
    try:
        conn = ladybug.Connection(db)
        try:
            conn.execute(statement)
        finally:
            conn.close()
    finally:
        db.close()


def rewrite_pool(pool: int) -> int:
    """The page cache an export and an import run with: the engine holds a whole table while
    it writes it out, which the store's own cache may not fit (a 745 MB store needed more than
    2 GB), so they may use most of the machine's memory (reserved, taken only as used)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not a POSIX system
        return pool
    return max(pool, memory * 4 // 5)


def rewrite(path: Path, buffer_pool_size: int) -> None:
    """Replace the closed database at `path` by a fresh file of what it holds, then unmark it.

    Raises:
        BackendError: the engine could not export or import (the old file is left whole and
            still marked, so the next open tries again).
    """
    import ladybug

    buffer_pool_size = rewrite_pool(buffer_pool_size)
    work = Path(str(path) + WORK)
    shutil.rmtree(work, ignore_errors=True)  # what an interrupted rewrite left
    work.mkdir()
    fresh = work / "fresh.lbdb"
    try:
        with _literal_folder(work) as folder:
            exported = folder + "/export"
            _run(ladybug, path, q.EXPORT_DATABASE.format(folder=exported), buffer_pool_size)
            _run(ladybug, fresh, q.IMPORT_DATABASE.format(folder=exported), buffer_pool_size)
        _sync_file(fresh)
        os.replace(fresh, path)
        for suffix in _SIDE_FILES:
            with contextlib.suppress(FileNotFoundError):
                Path(str(path) + suffix).unlink()
        _sync_folder(path.parent)
    except (RuntimeError, OSError) as e:
        raise BackendError(f"rewriting the embedded database after a deletion failed: {e}") from e
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _mark_of(path).unlink(missing_ok=True)
    _sync_folder(path.parent)
