"""The `Embedder` port and the validation every adapter applies to the vectors it returns."""

from __future__ import annotations

import math
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from bitemporal_core.errors import BackendError, BitemporalError, EmbeddingMismatch, InvalidInput

__all__ = ["BaseEmbedder", "Embedder", "check_texts", "check_vectors", "unit_vector"]

A = TypeVar("A")


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors for the vector rank of hybrid recall.

    Vectors are compared by cosine similarity; the library's own embedders return them
    normalized to unit length, so a dot product is the cosine.

    Attributes:
        name: Identifies the vector space (model); vectors of different names never mix.
        dim: Length of every vector, or None until the first call reveals it.
    """

    @property
    def name(self) -> str:
        """The model / vector-space identifier."""
        ...

    @property
    def dim(self) -> int | None:
        """The vector length, None until known."""
        ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embeds documents (facts), one vector per text, in order."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """Embeds one search query (some models embed queries differently from documents)."""
        ...


def check_texts(texts: Sequence[str]) -> list[str]:
    """Returns `texts` as a list after checking it is a sequence of strings (not one string).

    Raises:
        InvalidInput: `texts` is a bare string or holds a non-string.
    """
    if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
        raise InvalidInput(f"texts must be a sequence of strings, got {type(texts).__name__}")
    out = list(texts)
    for i, text in enumerate(out):
        if not isinstance(text, str):
            raise InvalidInput(f"texts[{i}] is {type(text).__name__}, not str")
    return out


def unit_vector(raw: object, *, where: str = "vector") -> list[float]:
    """Checks one vector (non-empty, finite real numbers, not all zero) and scales it to length 1.

    Raises:
        InvalidInput: the vector is not a non-empty sequence of finite numbers, or is zero.
    """
    if isinstance(raw, str | bytes) or not isinstance(raw, Iterable):
        raise InvalidInput(f"{where} must be a sequence of floats, got {type(raw).__name__}")
    values: list[float] = []
    for x in raw:
        if isinstance(x, str | bytes | bool):
            raise InvalidInput(f"{where} holds a {type(x).__name__}, not a number")
        try:
            values.append(float(x))
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"{where} holds {type(x).__name__}, not a number") from exc
    if not values:
        raise InvalidInput(f"{where} is empty")
    if not all(math.isfinite(v) for v in values):
        raise InvalidInput(f"{where} holds a NaN or infinite value")
    norm = math.hypot(*values)
    if norm == 0.0 or not math.isfinite(norm):
        raise InvalidInput(f"{where} has zero (or overflowing) length and cannot be normalized")
    return [v / norm for v in values]


def check_vectors(raw: object, count: int, dim: int | None = None) -> list[list[float]]:
    """Checks a batch of vectors and normalizes each to unit length (for cosine similarity).

    Args:
        raw: What the model returned: a sequence of `count` vectors.
        count: How many texts were embedded.
        dim: The length every vector must have, if already known.

    Raises:
        InvalidInput: wrong number of vectors, unequal or unexpected lengths, bad values.
    """
    if isinstance(raw, str | bytes) or not isinstance(raw, Iterable):
        raise InvalidInput(f"the embedder returned {type(raw).__name__}, not a list of vectors")
    vectors = [unit_vector(v, where=f"vector {i}") for i, v in enumerate(raw)]
    if len(vectors) != count:
        raise InvalidInput(f"the embedder returned {len(vectors)} vectors for {count} texts")
    lengths = {len(v) for v in vectors}
    if len(lengths) > 1:
        raise EmbeddingMismatch(
            f"the embedder returned vectors of unequal lengths {sorted(lengths)}"
        )
    if dim is not None and lengths and lengths != {dim}:
        raise EmbeddingMismatch(
            f"the embedder returned {lengths.pop()}-d vectors, expected {dim}-d"
        )
    return vectors


class BaseEmbedder(ABC):
    """An `Embedder` that validates and unit-normalizes whatever its backend returns.

    Subclasses implement `_embed_raw` (and `_embed_query_raw` when queries differ). The
    first batch fixes `dim`; later vectors of another length raise `InvalidInput`.
    """

    def __init__(self, name: str, dim: int | None = None) -> None:
        """Sets the vector-space name and, if known, the dimension."""
        if not isinstance(name, str) or not name:
            raise InvalidInput("an embedder needs a non-empty name")
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim < 1):
            raise InvalidInput(f"dim must be a positive int or None, got {dim!r}")
        self._name = name
        self._dim = dim
        self._dim_lock = threading.Lock()

    @property
    def name(self) -> str:
        """The model / vector-space identifier."""
        return self._name

    @property
    def dim(self) -> int | None:
        """The vector length, None until the first call reveals it."""
        return self._dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embeds documents; returns one unit-length vector per text, in order."""
        items = check_texts(texts)
        if not items:
            return []
        raw = self._provider(self._embed_raw, items)
        return self._accept(check_vectors(raw, len(items), self._dim))

    def embed_query(self, text: str) -> list[float]:
        """Embeds one search query; returns a unit-length vector."""
        if not isinstance(text, str):
            raise InvalidInput(f"text must be a str, got {type(text).__name__}")
        vector = unit_vector(self._provider(self._embed_query_raw, text), where="query vector")
        return self._accept([vector])[0]

    def _provider(self, call: Callable[[A], object], arg: A) -> object:
        """Calls the model or API; its failures (network, auth, quota) become `BackendError`,
        named by type only: a provider's message may quote a key or the texts."""
        try:
            return call(arg)
        except BitemporalError:
            raise
        except Exception as e:
            raise BackendError(f"the embedder {self._name} failed: {type(e).__name__}") from e

    def _accept(self, vectors: list[list[float]]) -> list[list[float]]:
        """Fixes `dim` from the first vectors and rejects any later change of length."""
        if not vectors:
            return vectors
        length = len(vectors[0])
        with self._dim_lock:
            if self._dim is None:
                self._dim = length
        if length != self._dim:
            raise EmbeddingMismatch(
                f"the embedder returned {length}-d vectors, expected {self._dim}-d"
            )
        return vectors

    @abstractmethod
    def _embed_raw(self, texts: list[str]) -> object:
        """Returns the backend's vectors for `texts` (validated by the caller)."""

    def _embed_query_raw(self, text: str) -> object:
        """Returns the backend's vector for a query; by default the document embedding."""
        return check_vectors(self._embed_raw([text]), 1)[0]

    def __repr__(self) -> str:
        """Shows the class, name and dimension."""
        return f"{type(self).__name__}(name={self._name!r}, dim={self._dim!r})"
