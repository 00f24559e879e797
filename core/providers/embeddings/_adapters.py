"""Adapters from callables, LangChain, LlamaIndex and OpenAI objects to the `Embedder` port.

Everything is duck-typed: nothing here imports langchain, llama_index or openai.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, cast

from bitemporal_core.errors import ConfigurationError, InvalidInput
from bitemporal_core.providers.embeddings._base import BaseEmbedder, Embedder

__all__ = [
    "CallableEmbedder",
    "LangChainEmbedder",
    "LlamaIndexEmbedder",
    "OpenAIEmbedder",
    "as_embedder",
]

_OPENAI_DIMS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}
_OPENAI_MAX_INPUTS = 2048  # the API's limit on inputs per request


def _model_label(obj: object, prefix: str) -> str:
    """Builds a name like `langchain:OpenAIEmbeddings:text-embedding-3-small`."""
    label = f"{prefix}:{type(obj).__name__}"
    for attr in ("model", "model_name", "deployment"):
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            return f"{label}:{value}"
    return label


def _reject_async(fn: object, what: str) -> None:
    """Raises ConfigurationError if `fn` is a coroutine function (async APIs are unsupported)."""
    if inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(type(fn), "__call__", None)  # noqa: B004 - an async __call__
    ):
        raise ConfigurationError(f"{what} is async; pass a synchronous embedder")


class CallableEmbedder(BaseEmbedder):
    """Wraps a plain callable `texts -> vectors` (e.g. a function around any model).

    Vectors are validated and normalized to unit length (cosine similarity).
    """

    def __init__(
        self,
        fn: Callable[[list[str]], Sequence[Sequence[float]]],
        *,
        name: str | None = None,
        dim: int | None = None,
        query_fn: Callable[[str], Sequence[float]] | None = None,
    ) -> None:
        """Wraps `fn`; `query_fn`, if given, embeds queries (else `fn([query])[0]`).

        Raises:
            ConfigurationError: `fn` is not callable or is async.
        """
        if not callable(fn) or isinstance(fn, type):
            raise ConfigurationError(f"expected a callable texts -> vectors, got {fn!r}")
        _reject_async(fn, "the embedding callable")
        label = getattr(fn, "__qualname__", None) or type(fn).__name__
        super().__init__(name or f"callable:{label}", dim)
        self._fn = fn
        self._query_fn = query_fn

    def _embed_raw(self, texts: list[str]) -> object:
        """Calls the wrapped function."""
        return self._fn(texts)

    def _embed_query_raw(self, text: str) -> object:
        """Calls `query_fn` if given, else embeds the query as a one-text batch."""
        if self._query_fn is not None:
            return self._query_fn(text)
        return super()._embed_query_raw(text)


class LangChainEmbedder(BaseEmbedder):
    """Wraps a LangChain `Embeddings` (`embed_documents` / `embed_query`), duck-typed.

    Vectors are validated and normalized to unit length (cosine similarity).
    """

    def __init__(self, embeddings: Any, *, name: str | None = None) -> None:
        """Wraps `embeddings`; the name defaults to its class and model."""
        super().__init__(name or _model_label(embeddings, "langchain"))
        self._inner = embeddings

    def _embed_raw(self, texts: list[str]) -> object:
        """Calls `embed_documents`."""
        return self._inner.embed_documents(texts)

    def _embed_query_raw(self, text: str) -> object:
        """Calls `embed_query`."""
        return self._inner.embed_query(text)


class LlamaIndexEmbedder(BaseEmbedder):
    """Wraps a LlamaIndex `BaseEmbedding` (`get_text_embedding_batch` / `get_query_embedding`).

    Vectors are validated and normalized to unit length (cosine similarity).
    """

    def __init__(self, embedding: Any, *, name: str | None = None) -> None:
        """Wraps `embedding`; the name defaults to its class and `model_name`."""
        super().__init__(name or _model_label(embedding, "llamaindex"))
        self._inner = embedding

    def _embed_raw(self, texts: list[str]) -> object:
        """Calls `get_text_embedding_batch`."""
        return self._inner.get_text_embedding_batch(texts)

    def _embed_query_raw(self, text: str) -> object:
        """Calls `get_query_embedding`."""
        return self._inner.get_query_embedding(text)


class OpenAIEmbedder(BaseEmbedder):
    """Embeds through an OpenAI-compatible client (`client.embeddings.create`), duck-typed.

    Vectors are validated and normalized to unit length (cosine similarity). Batches
    larger than the API's 2048 inputs are split.
    """

    def __init__(
        self,
        client: Any,
        model: str = "text-embedding-3-small",
        dimensions: int | None = None,
    ) -> None:
        """Wraps `client` (an `openai.OpenAI` or compatible object).

        Args:
            client: Object with `.embeddings.create(model=..., input=[...])`.
            model: The embedding model name.
            dimensions: Shortened output length (text-embedding-3 models only).

        Raises:
            ConfigurationError: the client has no synchronous `embeddings.create`.
        """
        create = getattr(getattr(client, "embeddings", None), "create", None)
        if not callable(create):
            raise ConfigurationError("the OpenAI client has no embeddings.create method")
        _reject_async(create, "the OpenAI client (AsyncOpenAI?)")
        if not isinstance(model, str) or not model:
            raise ConfigurationError("OpenAIEmbedder needs a model name")
        super().__init__(f"openai:{model}", dimensions or _OPENAI_DIMS.get(model))
        self._create = create
        self._model = model
        self._dimensions = dimensions

    def _embed_raw(self, texts: list[str]) -> object:
        """Calls `embeddings.create` per chunk and returns the vectors in input order."""
        out: list[object] = []
        for start in range(0, len(texts), _OPENAI_MAX_INPUTS):
            chunk = texts[start : start + _OPENAI_MAX_INPUTS]
            out.extend(self._create_chunk(chunk))
        return out

    def _create_chunk(self, texts: list[str]) -> list[object]:
        """One API call; orders the returned items by their `index` when present."""
        kwargs: dict[str, Any] = {"model": self._model, "input": texts}
        if self._dimensions is not None:
            kwargs["dimensions"] = self._dimensions
        response = self._create(**kwargs)
        data = getattr(response, "data", None)
        if data is None:
            raise InvalidInput("the OpenAI response has no .data")
        items = list(data)
        if all(isinstance(getattr(item, "index", None), int) for item in items):
            items.sort(key=lambda item: cast(int, item.index))
        try:
            return [item.embedding for item in items]
        except AttributeError as exc:
            raise InvalidInput("an OpenAI response item has no .embedding") from exc


class _ProtocolEmbedder(BaseEmbedder):
    """Adds validation and normalization to a third-party object that meets `Embedder`."""

    def __init__(self, inner: Embedder) -> None:
        """Wraps `inner`, taking its name and dimension."""
        super().__init__(str(inner.name), inner.dim)
        self._inner = inner

    def _embed_raw(self, texts: list[str]) -> object:
        """Calls `embed`."""
        return self._inner.embed(texts)

    def _embed_query_raw(self, text: str) -> object:
        """Calls `embed_query`."""
        return self._inner.embed_query(text)


def _has_methods(obj: object, *names: str) -> bool:
    """True if `obj` has a callable attribute for every name."""
    return all(callable(getattr(obj, n, None)) for n in names)


def as_embedder(obj: object) -> Embedder:
    """Adapts `obj` to the `Embedder` port; every result returns unit-length vectors.

    Accepted: an `Embedder`; a LangChain `Embeddings` (`embed_documents`/`embed_query`);
    a LlamaIndex `BaseEmbedding` (`get_text_embedding_batch`/`get_query_embedding`); an
    OpenAI client (`.embeddings.create`, model text-embedding-3-small — use `OpenAIEmbedder`
    for another model); a callable `texts -> vectors`.

    Raises:
        ConfigurationError: `obj` is none of these (or is async, or a class).
    """
    if isinstance(obj, BaseEmbedder):
        return obj
    if obj is None or isinstance(obj, type | str | bytes):  # never echoed: a str may be a key
        what = f"the class {obj.__name__}" if isinstance(obj, type) else type(obj).__name__
        raise ConfigurationError(f"cannot use {what} as an embedder (pass an instance)")
    if isinstance(obj, Embedder):
        return _ProtocolEmbedder(obj)
    if _has_methods(obj, "embed_documents", "embed_query"):
        return LangChainEmbedder(obj)
    if _has_methods(obj, "get_text_embedding_batch", "get_query_embedding"):
        return LlamaIndexEmbedder(obj)
    if _has_methods(getattr(obj, "embeddings", None), "create"):
        return OpenAIEmbedder(obj)
    if callable(obj):
        return CallableEmbedder(obj)
    raise ConfigurationError(
        f"cannot use a {type(obj).__name__} as an embedder: expected a callable texts -> vectors, "
        "a LangChain Embeddings, a LlamaIndex BaseEmbedding or an OpenAI client"
    )
