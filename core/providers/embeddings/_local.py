"""What the packaged offline embedders share: checked optional imports, checksummed model
files, positive settings, and a model loaded lazily once under a lock."""

from __future__ import annotations

import hashlib
import importlib
import threading
from abc import abstractmethod
from pathlib import Path
from typing import Any, Generic, TypeVar

from bitemporal_core.errors import ConfigurationError, InvalidInput
from bitemporal_core.providers.embeddings._base import BaseEmbedder

__all__ = ["LocalEmbedder", "require", "sha256"]

R = TypeVar("R")


def require(module: str, who: str, hint: str) -> Any:
    """Imports `module` or raises ConfigurationError naming who needs it and the pip extra."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ConfigurationError(f"{who} needs the '{module}' package: {hint}") from exc


def sha256(path: Path) -> str:
    """SHA-256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class LocalEmbedder(BaseEmbedder, Generic[R]):
    """An embedder computed in this process from a packaged model: `threads` and
    `batch_size` settings, and a runtime (`_load`) built on first use, thread-safely."""

    def __init__(self, name: str, dim: int, *, threads: int, batch_size: int) -> None:
        """Checks the settings; nothing is loaded yet.

        Raises:
            InvalidInput: a setting is not a positive int.
        """
        super().__init__(name, dim)
        for label, value in (("threads", threads), ("batch_size", batch_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidInput(f"{label} must be a positive int, got {value!r}")
        self._threads = threads
        self._batch_size = batch_size
        self._runtime: R | None = None
        self._load_lock = threading.Lock()

    def load(self) -> None:
        """Loads the model now (otherwise done on first use).

        Raises:
            ConfigurationError: a package or file is missing or not the expected one.
        """
        self._get_runtime()

    def _get_runtime(self) -> R:
        """Returns the runtime, loading it once under a lock."""
        runtime = self._runtime
        if runtime is not None:
            return runtime
        with self._load_lock:
            if self._runtime is None:
                self._runtime = self._load()
            return self._runtime

    @abstractmethod
    def _load(self) -> R:
        """Builds the model's runtime (imports, checksums, sessions)."""
