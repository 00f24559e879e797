"""How near two statements are, measured from what the embedder gives unrelated text
(the nearest-fact rule of memory formation, docs/design.md "Memory formation").

Embedders differ in their floor: all-MiniLM-L6-v2 puts unrelated English sentences near 0.1,
E5 puts any two Chinese sentences above 0.85. A cosine is rescaled against the statement's
mean cosine to a fixed set of statements about nothing in particular (`data/neutral.json`,
per language): 0 is "as near as unrelated text", 1 is "the same vector".
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np

from bitemporal_core.language.fields import embedding_text
from bitemporal_core.providers.embeddings import Embedder

__all__ = ["Floors"]


@cache
def _neutral() -> dict[str, tuple[str, ...]]:
    text = resources.files("bitemporal_core.language").joinpath("data/neutral.json")
    data = json.loads(text.read_text(encoding="utf-8"))
    return {lang: tuple(data[lang]) for lang in ("en", "zh")}


class Floors:
    """The neutral statements' unit vectors per language and speaker, embedded on first use
    by the store's embedder (once per process and speaker, at most `keep` speakers)."""

    def __init__(self, embedder: Embedder, keep: int = 64) -> None:
        self._embedder = embedder
        self._keep = keep
        self._vectors: dict[tuple[str, str | None], np.ndarray] = {}
        self._lock = threading.Lock()

    def _matrix(self, language: str, speaker: str | None) -> np.ndarray:
        key = (language if language in ("en", "zh") else "en", speaker)
        with self._lock:
            found = self._vectors.get(key)
        if found is not None:
            return found
        texts = [embedding_text(t, speaker) for t in _neutral()[key[0]]]
        matrix = np.asarray(self._embedder.embed(texts), dtype=np.float32)
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        with self._lock:
            if len(self._vectors) >= self._keep:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[key] = matrix
        return matrix

    def rescaled(
        self,
        vector: Sequence[float],
        cosines: Sequence[float],
        *,
        language: str,
        speaker: str | None,
    ) -> list[float]:
        """Each cosine (of `vector` to a candidate) rescaled from the floor `vector` has
        against unrelated statements of its language to 1."""
        v = np.asarray(vector, dtype=np.float32)
        v /= max(float(np.linalg.norm(v)), 1e-12)
        floor = float(np.mean(self._matrix(language, speaker) @ v))
        span = max(1.0 - floor, 1e-6)
        return [(c - floor) / span for c in cosines]
