"""Reciprocal rank fusion: several rankings of the same ids into one score per id."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["RRF_K", "rrf"]

RRF_K = 60  # the usual reciprocal-rank-fusion constant


def rrf(
    rankings: Sequence[Sequence[str]], k: int = RRF_K, weights: Sequence[float] = ()
) -> dict[str, float]:
    """Reciprocal rank fusion: each id scores the sum of w / (k + rank) over the rankings
    (w = the ranking's weight, 1 unless given)."""
    scores: dict[str, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if i < len(weights) else 1.0
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return scores
