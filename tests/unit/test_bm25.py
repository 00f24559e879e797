"""BM25 scoring and the choice of which postings to read."""

from __future__ import annotations

from bitemporal_core.ranking.bm25 import choose_terms, score


def test_rarest_terms_first_within_the_budget() -> None:
    df = {"coffe": 3, "like": 900, "paris": 12, "absent": 0}
    assert choose_terms(df, budget=100) == ["coffe", "paris"]
    assert choose_terms(df, budget=10_000) == ["coffe", "paris", "like"]
    assert choose_terms({"like": 900}, budget=10) == ["like"], "never no term at all"
    assert choose_terms({}) == []


def test_rare_terms_and_short_documents_score_higher() -> None:
    rows = [
        ("v1", 4, "paris", 1),
        ("v2", 4, "like", 1),
        ("v3", 12, "paris", 1),
        ("v4", 4, "paris", 1),
        ("v4", 4, "like", 1),
    ]
    scores = score(rows, {"paris": 3, "like": 50}, n_docs=100, avg_len=6.0)
    assert scores["v4"] > scores["v1"] > scores["v3"] > scores["v2"] > 0
