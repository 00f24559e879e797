"""`BitemporalRetriever`: nodes with validity and provenance, at a default or per-call basis."""

from __future__ import annotations

import asyncio

from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle

from bitemporal_core import Basis, MemoryStore
from llamaindex_bitemporal import BitemporalRetriever

from .conftest import ALLERGY, LIKE, NS, ON_26, ON_28, t


def texts(nodes: list[NodeWithScore]) -> list[str]:
    return [n.node.get_content() for n in nodes]


def test_now_with_validity_and_provenance(apples: MemoryStore) -> None:
    fact = apples.remember(
        "Bob bakes apple cake on Sundays.",
        namespace=NS,
        speaker="bob",
        source="msg-42",
        session="s7",
    )[0]
    retriever = BitemporalRetriever(apples, namespace=NS)
    nodes = retriever.retrieve("apple")
    assert set(texts(nodes)) == {ALLERGY, "Bob bakes apple cake on Sundays."}
    assert all(n.score is not None and n.score > 0 for n in nodes)
    node = next(n.node for n in nodes if n.node.get_content() == ALLERGY)
    meta = node.metadata
    assert meta["validity"] == "since 2023-10-27"
    assert meta["valid_from"] == "2023-10-27T09:00:00+00:00" and meta["valid_to"] is None
    assert meta["recorded_at"] == "2023-10-27T09:00:00+00:00" and meta["superseded_at"] is None
    assert meta["supersedes"] is not None and meta["version"] == 1
    assert node.get_content(metadata_mode=MetadataMode.LLM) == (
        "validity: since 2023-10-27\n\nI am allergic to apples."
    )
    assert node.get_content(metadata_mode=MetadataMode.EMBED) == ALLERGY
    cake = next(n.node for n in nodes if n.node.node_id == fact.version_id).metadata
    assert (cake["fact_id"], cake["source"], cake["speaker"], cake["session"]) == (
        fact.id,
        "msg-42",
        "bob",
        "s7",
    )
    assert cake["concepts"] and cake["found_by"]


def test_as_of_default_and_per_call_basis(apples: MemoryStore) -> None:
    now = BitemporalRetriever(apples, namespace=NS)
    then = Basis(valid_at=ON_26)
    nodes = now.retrieve("apples", basis=then)
    assert texts(nodes) == [LIKE]
    meta = nodes[0].node.metadata
    assert meta["validity"] == "2023-10-26 -> 2023-10-27"
    assert meta["version"] == 2 and meta["basis_valid_at"] == ON_26.isoformat()
    assert texts(now.retrieve("apples")) == [ALLERGY]  # the override was for one call

    believed = BitemporalRetriever(
        apples, namespace=NS, basis=Basis(valid_at=ON_28, known_at=ON_26)
    )
    nodes = believed.retrieve(QueryBundle("apples"))
    assert texts(nodes) == [LIKE]
    assert nodes[0].node.metadata["validity"] == "since 2023-10-26"  # what we believed then
    assert nodes[0].node.metadata["version"] == 1
    assert texts(believed.retrieve("apples", basis=Basis())) == [ALLERGY]


def test_async_retrieve(apples: MemoryStore) -> None:
    retriever = BitemporalRetriever(apples, namespace=NS)

    async def run() -> tuple[list[NodeWithScore], list[NodeWithScore]]:
        return (
            await retriever.aretrieve("apples"),
            await retriever.aretrieve("apples", basis=Basis(valid_at=ON_26)),
        )

    now, then = asyncio.run(run())
    assert texts(now) == [ALLERGY] and texts(then) == [LIKE]


def test_k_namespace_and_empty_queries(store: MemoryStore) -> None:
    for i in range(5):
        store.remember(f"Apple number {i} is red.", namespace="n1", at=t(f"2024-01-0{i + 1}"))
    store.remember("Apples are everywhere.", namespace="n2")
    assert len(BitemporalRetriever(store, namespace="n1", k=3).retrieve("apple")) == 3
    assert texts(BitemporalRetriever(store, namespace="n2").retrieve("apple")) == [
        "Apples are everywhere."
    ]
    assert BitemporalRetriever(store, namespace="n1").retrieve("   ") == []
    assert BitemporalRetriever(store, namespace="nobody").retrieve("apple") == []
