"""The RecallM concept graph rules (Kynoch et al., arXiv 2307.02738), with its known defects fixed.

Pure functions: which concept pairs a sentence relates, how concepts of a neighbourhood are
scored (`t_index * weight + strength`), and in what order their contexts reach the prompt.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from bitemporal_core.errors import InvalidInput
from bitemporal_core.model import Concept, ConceptEdge
from bitemporal_core.ranking.fusion import Weights

__all__ = ["RankedConcept", "RecallParams", "neighbour_pairs", "order_concepts", "score_concepts"]


def _weights(_: object, __: object, value: object) -> None:
    if not isinstance(value, Weights):
        raise InvalidInput(f"weights must be a Weights, not {type(value).__name__}")


@attrs.frozen(kw_only=True)
class RecallParams:
    """Recall's knobs: RecallM's, with the reference's defaults, and the fusion weights.

    Attributes:
        distance: concepts this far apart within one sentence are related.
        hops: neighbourhood depth around the question's concepts.
        window: keep concepts with t_index in `[t_q - window, t_q]`.
        max_concepts: concepts whose contexts reach the prompt (essential ones included).
        weight: the multiplier of t_index in `t_index * weight + strength`.
        per_concept: newest mentions read per concept.
        weights: how the ranks are fused and boosted (`Weights`).
    """

    distance: int = attrs.field(default=1, validator=attrs.validators.ge(1))
    hops: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    window: int = attrs.field(default=15, validator=attrs.validators.ge(0))
    max_concepts: int = attrs.field(default=10, validator=attrs.validators.ge(1))
    weight: float = 3.0
    per_concept: int = attrs.field(default=8, validator=attrs.validators.ge(1))
    weights: Weights = attrs.field(factory=Weights, validator=_weights)


@attrs.frozen(kw_only=True)
class RankedConcept:
    """A concept chosen for a question, with its score and whether the question names it."""

    key: str
    display: str
    score: float
    essential: bool


def neighbour_pairs(keys: Sequence[str], distance: int = 1) -> list[tuple[str, str]]:
    """RELATED pairs of one sentence: concepts at most `distance` apart, smaller key first.

    Unlike the reference, positions never cross sentence boundaries; repeated keys count once.
    """
    unique = list(dict.fromkeys(keys))
    pairs: list[tuple[str, str]] = []
    for i, a in enumerate(unique):
        for b in unique[i + 1 : i + 1 + distance]:
            pairs.append((a, b) if a < b else (b, a))
    return pairs


def score_concepts(
    concepts: Iterable[Concept], edges: Iterable[ConceptEdge], weight: float = 3.0
) -> dict[str, float]:
    """Each concept's score: the sum over its RELATED edges inside the subgraph of
    `t_index * weight + strength`."""
    scores = {c.key: 0.0 for c in concepts}
    for edge in edges:
        value = edge.t_index * weight + edge.strength
        for key in (edge.src, edge.dst):
            if key in scores:
                scores[key] += value
    return scores


def order_concepts(
    concepts: Iterable[Concept],
    scores: dict[str, float],
    essential: Iterable[str],
    max_concepts: int,
) -> list[RankedConcept]:
    """Keep the essential concepts plus the best-scored others, up to `max_concepts`; order them
    lowest score first and the essential ones last (nearest the question)."""
    by_key = {c.key: c for c in concepts}
    must = [k for k in dict.fromkeys(essential) if k in by_key]
    others = sorted((k for k in by_key if k not in must), key=lambda k: (-scores.get(k, 0.0), k))[
        : max(0, max_concepts - len(must))
    ]

    def ranked(key: str, is_essential: bool) -> RankedConcept:
        concept = by_key[key]
        return RankedConcept(
            key=key, display=concept.display, score=scores.get(key, 0.0), essential=is_essential
        )

    tail = sorted((ranked(k, True) for k in must), key=lambda r: (r.score, r.key))
    head = sorted((ranked(k, False) for k in others), key=lambda r: (r.score, r.key))
    return head + tail
