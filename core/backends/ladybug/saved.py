"""The recall index kept on disk beside the database, so a new process's first recall does not
read a whole namespace again.

Reading a namespace's recall index from LadybugDB scans its tables (seconds at 100k facts, and
LadybugDB has no secondary index, so other namespaces' rows are scanned too); a saved index
loads in a fraction of that. `close` saves the index of every namespace it holds, each in its
own file under `<database>.recall/`, with the namespace's counters as read from the database
at that moment. A saved index is used only while it is exact:

- the first write to a namespace in a process deletes its file before anything is written, so
  a crash mid-way leaves no file to trust;
- on reading, the namespace's counters in the database must equal the saved ones, and the file
  must be of this format;

otherwise it is deleted and the namespace read from the database as before. The files hold
what the database holds (pickles of the index's columns); treat them as the database file.

The index's mappings (postings, concepts, edges, mentions) are saved packed, one pickle per
key, and read one key at a time (`lazy`); the embeddings go in a file of their own
(`<name>.vec.npz`), read on the namespace's first vector search. So a first recall reads the
columns and the keys it touches, not the whole namespace. A namespace not written since its
index was loaded is not saved again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from bitemporal_core.backends.ladybug.vectors import UnitRows

__all__ = ["SavedIndexes"]

_FORMAT = 3  # bumped whenever NamespaceIndex's fields change


class SavedIndexes:
    """Saved namespace indexes of one database (see the module docstring)."""

    def __init__(self, folder: Path, *, read_only: bool = False) -> None:
        self.folder = folder
        self.read_only = read_only  # load only: a read-only store changes no file
        self._absent: set[str] = set()  # namespaces known to have no file (no unlink needed)

    def _file(self, namespace: str) -> Path:
        return self.folder / (hashlib.sha256(namespace.encode()).hexdigest()[:32] + ".idx")

    def vectors_file(self, namespace: str) -> Path:
        return self._file(namespace).with_suffix(".vec.npz")

    def invalidate(self, namespace: str) -> None:
        """Before a write to the namespace: its saved index is no longer exact."""
        if namespace in self._absent or self.read_only:
            return
        for path in (self._file(namespace), self.vectors_file(namespace)):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        self._absent.add(namespace)

    def load_vectors(self, namespace: str, rows: int) -> tuple[UnitRows, np.ndarray] | None:
        """The saved embeddings of a namespace's `rows` versions (zero rows where a version
        has none) and which have one, or None when there are none of that size. A file of
        float32 rows (written before the rows were int8) is converted and deleted, so that
        `close` saves the int8 rows in its place."""
        path = self.vectors_file(namespace)
        try:
            with np.load(path) as saved:
                vectors, embedded = UnitRows.from_arrays(saved, rows), saved["embedded"]
                older = "codes" not in saved
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            return None
        if vectors is None or embedded.dtype != bool or len(embedded) != rows:
            return None
        if older and not self.read_only:
            with contextlib.suppress(OSError):
                path.unlink()
        return vectors, embedded

    def load(self, namespace: str, stamp: tuple[Any, ...]) -> Any | None:
        """The saved index of the namespace if it was saved at these counters, else None."""
        path = self._file(namespace)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            self._absent.add(namespace)
            return None
        except OSError:
            return None
        try:
            fmt, saved_ns, saved_stamp, index = pickle.loads(data)
        except Exception:  # a torn or foreign file: never trusted
            fmt, saved_ns, saved_stamp, index = None, None, None, None
        if (fmt, saved_ns, saved_stamp) != (_FORMAT, namespace, stamp):
            self.invalidate(namespace)
            return None
        return index

    def save(self, namespace: str, stamp: tuple[Any, ...], index: Any) -> None:
        """Write the namespace's index atomically (temporary files renamed over the old),
        its embeddings first; a file still there is exact already (a write deletes it), so
        only embeddings read since are added beside it."""
        path, target = self._file(namespace), self.vectors_file(namespace)
        vectors = index.saved_vectors()
        kept = path.exists()
        if kept and (vectors is None or target.exists()):
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        if vectors is not None:
            tmp_vectors = path.with_suffix(".vec.tmp")
            with tmp_vectors.open("wb") as f:
                np.savez(f, **vectors)
            os.replace(tmp_vectors, target)
        else:
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
        if kept:  # embeddings read since the index was saved: they are all that is new
            return
        tmp = path.with_suffix(".tmp")
        payload = (_FORMAT, namespace, stamp, index)
        tmp.write_bytes(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)
        self._absent.discard(namespace)
