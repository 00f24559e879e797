"""The RecallM worked example (Brandon, coffee, Paris) on every engine and extractor."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core import MemoryStore
from bitemporal_core.language.extract import SimpleExtractor

T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["default", "simple"])
def example_store(request: pytest.FixtureRequest, store: MemoryStore) -> MemoryStore:
    if request.param == "simple":
        store = MemoryStore(
            store.backend, extractor=SimpleExtractor(), resolver=None, owns_backend=False
        )
    store.remember("Brandon loves coffee.", namespace="b", at=T0)
    store.remember("Brandon wants to travel to Paris.", namespace="b", at=T0.replace(hour=10))
    return store


def test_worked_example_graph(example_store: MemoryStore) -> None:
    nodes, edges = example_store.concept_graph(["brandon", "coffe", "pari"], namespace="b")
    assert {(n.key, n.t_index) for n in nodes} == {("brandon", 2), ("coffe", 1), ("pari", 2)}
    assert {(e.src, e.dst, e.strength, e.t_index) for e in edges} == {
        ("brandon", "coffe", 1, 1),
        ("brandon", "pari", 1, 2),
    }


def test_worked_example_question(example_store: MemoryStore) -> None:
    view = example_store.concepts_for("Who wants to travel to Paris?", namespace="b")
    assert view.question_concepts == ("pari",)
    assert view.essential == ("pari",)
    assert [c.key for c in view.concepts] == ["coffe", "brandon", "pari"]
    assert [f.text for f in view.contexts["pari"]] == ["Brandon wants to travel to Paris."]
    hits = example_store.recall("Who wants to travel to Paris?", namespace="b", mode="recallm")
    assert hits[0].fact.text == "Brandon wants to travel to Paris."
    assert hits[0].essential
    block = example_store.context("Who wants to travel to Paris?", namespace="b")
    assert block.splitlines()[-1].endswith(
        "Brandon wants to travel to Paris. (intent, said 2024-01-01)"
    )


def test_concepts_are_scoped_to_their_namespace(example_store: MemoryStore) -> None:
    example_store.remember("Brandon hates coffee.", namespace="other", at=T0)
    _, edges = example_store.concept_graph(["brandon", "coffe"], namespace="b")
    assert {(e.src, e.dst, e.strength) for e in edges} == {("brandon", "coffe", 1)}
    assert example_store.recall("Paris", namespace="other") == []
