"""Hybrid recall with a real small embedding model (offline int8 MiniLM), on every engine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import Basis, EmbeddingMismatch, MemoryStore
from bitemporal_core.providers.embeddings import CallableEmbedder, Embedder, MiniLMEmbedder

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    pytest.importorskip("onnxruntime")
    return MiniLMEmbedder()


@pytest.fixture
def vstore(store: MemoryStore, minilm: Embedder) -> MemoryStore:
    return MemoryStore(store.backend, embedder=minilm, resolver=None, owns_backend=False)


def test_semantic_recall_finds_what_words_do_not(vstore: MemoryStore) -> None:
    like = vstore.remember("I enjoy eating apples.", namespace="a", at=T0)[0]
    vstore.remember("My brother plays chess on Sundays.", namespace="a", at=T0)
    vstore.remember("The train to Lyon leaves at noon.", namespace="a", at=T0)
    vstore.supersede(like.id, "I am allergic to apples.", at=T0 + timedelta(days=1))
    now = Basis(valid_at=T0 + timedelta(days=2), known_at=T0 + timedelta(days=2))
    hits = vstore.recall("Which fruit must she avoid?", namespace="a", basis=now, k=2)
    assert hits[0].fact.text == "I am allergic to apples."
    assert "vector" in hits[0].sources
    assert "I enjoy eating apples." not in [h.fact.text for h in hits], "superseded is absent"
    then = Basis(valid_at=T0 + timedelta(hours=1), known_at=T0 + timedelta(days=2))
    hits = vstore.recall("Which fruit does she like?", namespace="a", basis=then, k=1)
    assert [h.fact.text for h in hits] == ["I enjoy eating apples."]


def test_without_an_embedder_the_same_question_finds_nothing(store: MemoryStore) -> None:
    plain = MemoryStore(store.backend, resolver=None, owns_backend=False)
    plain.remember("I am allergic to apples.", namespace="a", at=T0)
    assert plain.recall("Which fruit must she avoid?", namespace="a") == []


def test_vectors_stay_in_their_namespace(vstore: MemoryStore) -> None:
    vstore.remember("I am allergic to apples.", namespace="a", at=T0)
    vstore.remember("I love pears.", namespace="b", at=T0)
    hits = vstore.recall("Which fruit must she avoid?", namespace="b", k=5)
    assert [h.fact.text for h in hits] == ["I love pears."]
    assert "embedder=sentence-transformers/all-MiniLM-L6-v2" in vstore.describe()


def _hashed(dim: int) -> CallableEmbedder:
    return CallableEmbedder(
        lambda texts: [[1.0 + (hash(w) % 7) for w in (t * dim)[:dim]] for t in texts],
        name=f"hashed-{dim}",
    )


def test_a_namespace_keeps_the_dimension_of_its_first_embedded_write(store: MemoryStore) -> None:
    small = MemoryStore(store.backend, embedder=_hashed(32), resolver=None, owns_backend=False)
    small.remember("I am allergic to apples.", namespace="a", at=T0)
    other = MemoryStore(store.backend, embedder=_hashed(64), resolver=None, owns_backend=False)
    before = store.backend.versions("a", None)
    with pytest.raises(EmbeddingMismatch, match="32-d"):
        other.remember("I love pears.", namespace="a", at=T0 + timedelta(hours=1))
    with pytest.raises(EmbeddingMismatch, match="32-d"):
        other.recall("Which fruit must she avoid?", namespace="a")
    assert store.backend.versions("a", None) == before, "nothing was written"
    other.remember("I love pears.", namespace="b", at=T0)  # another namespace, another size
    assert [h.fact.text for h in other.recall("pears", namespace="b")] == ["I love pears."]
    assert [h.fact.text for h in small.recall("apples", namespace="a")] == [
        "I am allergic to apples."
    ]
