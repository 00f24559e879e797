"""Rank fusion: several rankings of the same ids into one score per id, in 0..1, explained.

Each rank gives an id at position r (1-based) the share `(k + 1) / (k + r)` of its weight
(reciprocal rank fusion, scaled so that first place is worth the whole weight); the fused score
is the sum over the ranks divided by the sum of their weights, so 1 means "first in every
rank". Boosts then multiply it (a time-seeking question and statements with their own time, a
question's time window, decay and use), and a statement whose message already gave a better
hit counts `sibling` times its score, so that k hits cover k messages where they can. Every
part is kept per id (`Fused`), to show why a memory was recalled.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence

import attrs

from bitemporal_core.errors import InvalidInput

__all__ = ["RRF_K", "Fused", "Weights", "diversify", "fuse", "rrf"]

RRF_K = 60  # the usual reciprocal-rank-fusion constant


def _weight(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise InvalidInput(f"{attribute.name} must be a number >= 0")


def _factor(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise InvalidInput(f"{attribute.name} must lie in [0, 1]")


def _count(_: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"{attribute.name} must be an int >= 1")


@attrs.frozen(kw_only=True)
class Weights:
    """How recall fuses its ranks (chosen on the long-conversation development set,
    benchmarks/quality/LONGCONV.md; the inferred rank's weight is `Lifecycle.inferred_weight`).

    Attributes:
        concepts: weight of the RecallM concept-graph rank.
        keyword: weight of the BM25 keyword rank (statement, message, message before, speaker).
        vector: weight of the vector rank (when an embedder is configured).
        time: a question asking when (or naming a time) multiplies the score of statements
            that carry their own time expression by `1 + time`.
        window: a question naming a period ("in May 2023") multiplies the score of memories
            said or valid in it by `1 + window`.
        sibling: the factor on a statement whose message already gave a better hit (1: no
            diversity; 0: every other message first). A time-seeking question exempts
            statements with their own time: they are the answer's day.
        rrf_k: the rank-fusion constant (larger: later positions count more).
    """

    concepts: float = attrs.field(default=0.1, validator=_weight)
    keyword: float = attrs.field(default=1.0, validator=_weight)
    vector: float = attrs.field(default=1.0, validator=_weight)
    time: float = attrs.field(default=1.0, validator=_weight)
    window: float = attrs.field(default=0.5, validator=_weight)
    sibling: float = attrs.field(default=0.5, validator=_factor)
    rrf_k: int = attrs.field(default=RRF_K, validator=_count)


@attrs.define
class Fused:
    """One id's fused score and its parts: per rank (position, raw score, share of the fused
    score before boosts), and the boosts applied, by name."""

    ranks: dict[str, tuple[int, float, float]] = attrs.field(factory=dict)
    boosts: dict[str, float] = attrs.field(factory=dict)

    @property
    def base(self) -> float:
        return sum(share for _, _, share in self.ranks.values())

    @property
    def score(self) -> float:
        value = self.base
        for factor in self.boosts.values():
            value *= factor
        return value


def fuse(
    rankings: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    k: int = RRF_K,
) -> dict[str, Fused]:
    """Weighted reciprocal rank fusion of named rankings of `(id, raw score)`, best first;
    shares are normalised by the weights of the ranks that ran, so scores lie in 0..1."""
    total = sum(weights.get(name, 0.0) for name in rankings) or 1.0
    out: dict[str, Fused] = {}
    for name, ranking in rankings.items():
        weight = weights.get(name, 0.0) / total
        for position, (key, raw) in enumerate(ranking, start=1):
            fused = out.setdefault(key, Fused())
            if name not in fused.ranks:  # a rank lists an id once; keep its best place
                fused.ranks[name] = (position, raw, weight * (k + 1) / (k + position))
    return out


def diversify(
    fused: Mapping[str, Fused],
    group: Callable[[str], str | None],
    factor: float,
    exempt: Callable[[str], bool] = lambda _: False,
) -> list[str]:
    """The ids best first, greedily: an id whose group (its message) already has a chosen id
    counts `factor` times its score (recorded as the boost "sibling"), unless `exempt`.
    Scores only go down, so a lazy heap gives the greedy order in O(n log n)."""
    heap = [(-f.score, key, False) for key, f in fused.items()]
    heapq.heapify(heap)
    seen: set[str] = set()
    order: list[str] = []
    while heap:
        negative, key, penalised = heapq.heappop(heap)
        g = group(key)
        if not penalised and g is not None and g in seen and not exempt(key) and factor < 1:
            fused[key].boosts["sibling"] = factor
            heapq.heappush(heap, (negative * factor, key, True))
            continue
        if g is not None:
            seen.add(g)
        order.append(key)
    return order


def rrf(
    rankings: Sequence[Sequence[str]], k: int = RRF_K, weights: Sequence[float] = ()
) -> dict[str, float]:
    """Plain reciprocal rank fusion: each id scores the sum of w / (k + rank) over the
    rankings (w = the ranking's weight, 1 unless given)."""
    scores: dict[str, float] = {}
    for i, ranking in enumerate(rankings):
        weight = weights[i] if i < len(weights) else 1.0
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return scores
