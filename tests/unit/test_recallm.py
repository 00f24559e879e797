"""RecallM rules, pinned to the worked example of the write-up (Brandon, coffee, Paris)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core import MemoryStore
from bitemporal_core.backends import ConceptEdge
from bitemporal_core.extract import ConceptExtractor, SimpleExtractor
from bitemporal_core.model import Concept
from bitemporal_core.recallm import neighbour_pairs, order_concepts, score_concepts

T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


def test_neighbour_pairs_point_from_smaller_key_within_distance() -> None:
    assert neighbour_pairs(["brandon", "coffe"]) == [("brandon", "coffe")]
    assert neighbour_pairs(["zebra", "apple", "mango"]) == [("apple", "zebra"), ("apple", "mango")]
    assert neighbour_pairs(["a", "b", "c"], distance=2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert neighbour_pairs(["a", "a", "b"]) == [("a", "b")]
    assert neighbour_pairs(["solo"]) == []


def test_scores_sum_t_index_times_weight_plus_strength() -> None:
    nodes = [Concept(key=k, display=k, t_index=t) for k, t in
             (("brandon", 2), ("coffe", 1), ("pari", 2))]
    edges = [ConceptEdge(src="brandon", dst="coffe", strength=1, t_index=1),
             ConceptEdge(src="brandon", dst="pari", strength=1, t_index=2)]
    scores = score_concepts(nodes, edges, weight=3)
    assert scores == {"brandon": 11.0, "coffe": 4.0, "pari": 7.0}
    ranked = order_concepts(nodes, scores, ["pari"], max_concepts=10)
    assert [(r.key, r.essential) for r in ranked] == [
        ("coffe", False), ("brandon", False), ("pari", True)]
    capped = order_concepts(nodes, scores, ["pari"], max_concepts=2)
    assert [r.key for r in capped] == ["brandon", "pari"]


@pytest.fixture(params=["default", "simple"])
def example_store(request: pytest.FixtureRequest, extractor: ConceptExtractor) -> MemoryStore:
    chosen = extractor if request.param == "default" else SimpleExtractor()
    store = MemoryStore.embedded(None, extractor=chosen, resolver=None)
    store.remember("Brandon loves coffee.", namespace="b", at=T0)
    store.remember("Brandon wants to travel to Paris.", namespace="b", at=T0.replace(hour=10))
    return store


def test_worked_example_graph(example_store: MemoryStore) -> None:
    nodes, edges = example_store.concept_graph(["brandon", "coffe", "pari"], namespace="b")
    assert {(n.key, n.t_index) for n in nodes} == {("brandon", 2), ("coffe", 1), ("pari", 2)}
    assert {(e.src, e.dst, e.strength, e.t_index) for e in edges} == {
        ("brandon", "coffe", 1, 1), ("brandon", "pari", 1, 2)}


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
    assert block.splitlines()[-1].endswith("Brandon wants to travel to Paris. (said 2024-01-01)")


def test_concepts_are_scoped_to_their_namespace(example_store: MemoryStore) -> None:
    example_store.remember("Brandon hates coffee.", namespace="other", at=T0)
    nodes, edges = example_store.concept_graph(["brandon", "coffe"], namespace="b")
    assert {(e.src, e.dst, e.strength) for e in edges} == {("brandon", "coffe", 1)}
    assert example_store.recall("Paris", namespace="other") == []
