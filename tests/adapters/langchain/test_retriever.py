"""`BitemporalRetriever`: langchain-tests' standard retriever suite, and bitemporal metadata and
per-call bases."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_tests.integration_tests import RetrieversIntegrationTests

from bitemporal_core import Basis, MemoryStore
from langchain_bitemporal import BitemporalRetriever

from .fakes import ALLERGY, LIKE, THEN, apples, t

FRUIT = [
    "I enjoy eating apples.",
    "Apples from Normandy are my favourite.",
    "My sister grows apples in her garden.",
    "I bake an apple pie with apples every Sunday.",
    "Green apples are too sour for me.",
]


# The suite's one async test needs pytest-asyncio's mark (strict mode); a class mark also
# lands on the sync tests, which pytest-asyncio then warns about.
@pytest.mark.asyncio
@pytest.mark.filterwarnings("ignore:.*is marked with '@pytest.mark.asyncio' but it is not an async")
class TestStandardRetriever(RetrieversIntegrationTests):
    """The standard suite, on every engine, over a namespace holding five apple facts."""

    @pytest.fixture(autouse=True)
    def _data(self, store: MemoryStore) -> None:
        for text in FRUIT:
            store.remember(text, namespace="fruit")
        self.store = store

    @property
    def retriever_constructor(self) -> type[BitemporalRetriever]:
        return BitemporalRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"store": self.store, "namespace": "fruit"}

    @property
    def retriever_query_example(self) -> str:
        return "apples"


def test_documents_carry_both_intervals_score_and_source(store: MemoryStore) -> None:
    like, allergy = apples(store)
    (doc,) = BitemporalRetriever(store, namespace="alice").invoke("Can I eat apples?")
    assert isinstance(doc, Document)
    assert doc.page_content == ALLERGY and doc.id == allergy.id
    meta = doc.metadata
    assert meta["valid_from"] == "2023-10-27T09:00:00+00:00" and meta["valid_to"] is None
    assert meta["recorded_at"] == "2023-10-27T09:00:00+00:00" and meta["superseded_at"] is None
    assert meta["source"] == allergy.source and meta["supersedes"] == like.id
    assert meta["fact_id"] == allergy.id and meta["version_id"] == allergy.version_id
    assert isinstance(meta["score"], float) and meta["score"] > 0
    assert meta["namespace"] == "alice" and "appl" in " ".join(meta["concepts"]).lower()


def test_per_call_valid_at_and_known_at(store: MemoryStore) -> None:
    like, _ = apples(store)
    retriever = BitemporalRetriever(store, namespace="alice")
    (then,) = retriever.invoke("apples", valid_at=THEN)
    assert then.page_content == LIKE
    assert then.metadata["valid_to"] == "2023-10-27T09:00:00+00:00"  # as we know it now
    assert then.metadata["source"] == like.source
    (believed,) = retriever.invoke(
        "apples", valid_at="2023-10-28T00:00:00+00:00", known_at="2023-10-26T12:00:00Z"
    )
    assert believed.page_content == LIKE and believed.metadata["valid_to"] is None
    assert believed.metadata["superseded_at"] == "2023-10-27T09:00:00+00:00"
    assert retriever.invoke("apples", known_at=t("2023-10-01T00:00")) == []


def test_configured_basis_and_per_call_basis(store: MemoryStore) -> None:
    apples(store)
    retriever = BitemporalRetriever(store, namespace="alice", basis=Basis(valid_at=THEN))
    assert [d.page_content for d in retriever.invoke("apples")] == [LIKE]
    now = retriever.invoke("apples", basis=Basis())
    assert [d.page_content for d in now] == [ALLERGY]


def test_k_and_async(store: MemoryStore) -> None:
    for text in FRUIT:
        store.remember(text, namespace="fruit")
    retriever = BitemporalRetriever(store, namespace="fruit", k=2)
    assert len(retriever.invoke("apples")) == 2
    assert len(retriever.invoke("apples", k=4)) == 4
    docs = asyncio.run(retriever.ainvoke("apples", k=3, valid_at=t("2000-01-01T00:00")))
    assert docs == []
    assert len(asyncio.run(retriever.ainvoke("apples", k=3))) == 3


def test_blank_query_and_other_namespaces(store: MemoryStore) -> None:
    apples(store)
    assert BitemporalRetriever(store, namespace="alice").invoke("  ") == []
    assert BitemporalRetriever(store, namespace="bob").invoke("apples") == []


def test_naive_time_is_refused(store: MemoryStore) -> None:
    from bitemporal_core import NaiveDatetime

    with pytest.raises(NaiveDatetime):
        BitemporalRetriever(store).invoke("apples", valid_at="2023-10-26T12:00")
