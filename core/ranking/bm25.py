"""BM25 keyword ranking shared by the engines: which terms to read, and how to score them."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["POSTINGS_BUDGET", "choose_terms", "score"]

K1 = 1.2
B = 0.75
# Postings read per query at most (rarest terms first): very common terms carry almost no IDF,
# and reading their postings is what makes keyword search slow on long chat histories.
POSTINGS_BUDGET = 1_500


def choose_terms(df: Mapping[str, int], budget: int = POSTINGS_BUDGET) -> list[str]:
    """The query terms worth reading, rarest first, within `budget` postings (never none)."""
    chosen: list[str] = []
    spent = 0
    for term in sorted((t for t in df if df[t] > 0), key=lambda t: (df[t], t)):
        if chosen and spent + df[term] > budget:
            break
        chosen.append(term)
        spent += df[term]
    return chosen


def score(
    postings: Sequence[tuple[str, int, str, int]],
    df: Mapping[str, int],
    n_docs: int,
    avg_len: float,
) -> dict[str, float]:
    """BM25 per version from rows `(version_id, length, term, tf)`."""
    n = max(n_docs, 1)
    avg = avg_len or 1.0
    out: dict[str, float] = {}
    for vid, length, term, tf in postings:
        d = df.get(term, 1)
        idf = math.log(1.0 + (n - d + 0.5) / (d + 0.5))
        norm = tf + K1 * (1 - B + B * (length or 1) / avg)
        out[vid] = out.get(vid, 0.0) + idf * tf * (K1 + 1) / norm
    return out
