"""Where the keys of sealed namespaces live: a port (`KeyStore`) and a folder of key files.

A namespace's key never enters the storage engine; destroying it is what makes the
namespace's bytes unreadable wherever copies of them remain (freed store records, logs).
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from typing import Protocol, runtime_checkable

from bitemporal_core.errors import KeyStoreError

__all__ = ["KEY_BYTES", "FileKeyStore", "KeyStore"]

KEY_BYTES = 64  # AES-256-SIV takes a 512-bit key


@runtime_checkable
class KeyStore(Protocol):
    """Keeps one secret key per namespace, outside the storage engine."""

    def key(self, namespace: str, *, create: bool) -> bytes | None:
        """The namespace's key; a new random one if it has none and `create` (else None).
        Two processes creating a namespace's key at once must get the same key."""
        ...

    def destroy(self, namespace: str) -> bool:
        """Delete the namespace's key for good; whether there was one."""
        ...


class FileKeyStore:
    """One key file per namespace in a folder (created mode 0700, files 0600).

    A file is named by the SHA-256 of its namespace, so the folder does not list the
    namespaces. `destroy` overwrites the file with zeros, syncs it and unlinks it.

    Args:
        directory: the folder; created at the first key, never read before a call.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self._dir = Path(directory)

    def __repr__(self) -> str:
        return f"FileKeyStore({str(self._dir)!r})"

    def _path(self, namespace: str) -> Path:
        return self._dir / (hashlib.sha256(namespace.encode("utf-8")).hexdigest() + ".key")

    def key(self, namespace: str, *, create: bool) -> bytes | None:
        path = self._path(namespace)
        try:
            found = _read(path)
            if found is not None or not create:
                return found
            return self._create(path)
        except OSError as e:
            raise KeyStoreError(f"cannot use the key store {str(self._dir)!r}: {e.strerror}") from e

    def _create(self, path: Path) -> bytes:
        self._dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        temp = path.with_suffix(f".{secrets.token_hex(8)}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temp, path)  # fails if another process created the key first
        except FileExistsError:
            pass
        finally:
            os.unlink(temp)  # a second name of the key's inode: unlinked, never overwritten
        _sync_dir(self._dir)
        found = _read(path)
        if found is None:
            raise KeyStoreError(f"the key file {path.name} vanished while it was created")
        return found

    def destroy(self, namespace: str) -> bool:
        path = self._path(namespace)
        try:
            existed = _wipe(path)
            if existed:
                _sync_dir(self._dir)
            return existed
        except OSError as e:
            raise KeyStoreError(f"cannot destroy a key in {str(self._dir)!r}: {e.strerror}") from e


def _read(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    if len(data) != KEY_BYTES:
        raise KeyStoreError(f"the key file {path.name} is damaged ({len(data)} bytes)")
    return data


def _wipe(path: Path) -> bool:
    """Overwrite a file with zeros, sync and unlink it; whether it existed."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except FileNotFoundError:
        return False
    try:
        size = os.fstat(fd).st_size
        os.write(fd, bytes(size))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.unlink(path)
    return True


def _sync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
