"""RecallM rules, pinned to the worked example of the write-up (Brandon, coffee, Paris)."""

from __future__ import annotations

from bitemporal_core import ConceptEdge
from bitemporal_core.model import Concept
from bitemporal_core.ranking.recallm import neighbour_pairs, order_concepts, score_concepts


def test_neighbour_pairs_point_from_smaller_key_within_distance() -> None:
    assert neighbour_pairs(["brandon", "coffe"]) == [("brandon", "coffe")]
    assert neighbour_pairs(["zebra", "apple", "mango"]) == [("apple", "zebra"), ("apple", "mango")]
    assert neighbour_pairs(["a", "b", "c"], distance=2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert neighbour_pairs(["a", "a", "b"]) == [("a", "b")]
    assert neighbour_pairs(["solo"]) == []


def test_scores_sum_t_index_times_weight_plus_strength() -> None:
    nodes = [
        Concept(key=k, display=k, t_index=t) for k, t in (("brandon", 2), ("coffe", 1), ("pari", 2))
    ]
    edges = [
        ConceptEdge(src="brandon", dst="coffe", strength=1, t_index=1),
        ConceptEdge(src="brandon", dst="pari", strength=1, t_index=2),
    ]
    scores = score_concepts(nodes, edges, weight=3)
    assert scores == {"brandon": 11.0, "coffe": 4.0, "pari": 7.0}
    ranked = order_concepts(nodes, scores, ["pari"], max_concepts=10)
    assert [(r.key, r.essential) for r in ranked] == [
        ("coffe", False),
        ("brandon", False),
        ("pari", True),
    ]
    capped = order_concepts(nodes, scores, ["pari"], max_concepts=2)
    assert [r.key for r in capped] == ["brandon", "pari"]
