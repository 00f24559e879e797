"""Keyword fields of a statement: the words a question may find it by besides its own.

A statement said in a conversation is found by more than its own words (docs/design.md,
"Ranking"): who said it (a question names the speaker: "What breed of dog did Aria adopt?"),
the rest of its message (the sentence "A lurcher!" is the answer the message is about), and the
message before it in the conversation, which it usually answers ("How did the half marathon
go?" / "2:04:37!"). Each field's stemmed terms are added to the statement's keyword terms with
an integer weight (BM25F with the fields' term frequencies summed before saturation); the
concept graph and the statement's text stay its own. On the development conversations
(benchmarks/quality/LONGCONV.md) the speaker field and the message before are what lift the
keyword rank above a plain BM25 over whole turns.

The embedding of a statement is of "speaker: text" when the speaker is known, for the same
reason (measured there: evidence recall@10 of the vector rank 0.35 without the speaker, 0.53
with it); the message before is left out of the embedding, where it blurs the statement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import attrs

from bitemporal_core.language.extract import content_terms

__all__ = ["FIELD_WEIGHTS", "MAX_KEY", "Utterance", "embedding_text", "field_terms"]

# Longer "words" (URLs, base64, keyboard mashing) are kept in the text but get no concept or
# keyword node: they would not index on Neo4j and never match a question anyway.
MAX_KEY = 64

FIELD_WEIGHTS: Mapping[str, int] = MappingProxyType(
    {
        "statement": 1,  # the statement's own words, on top of the message's
        "message": 3,  # every word of the message the statement is part of
        "before": 3,  # the message said just before it in its session (none without one)
        "speaker": 3,  # the speaker's name
    }
)
"""Integer weight of each field's term frequencies in a statement's keyword terms."""


@attrs.frozen(kw_only=True)
class Utterance:
    """A message to analyse with what surrounds it: who said it and what was said before."""

    text: str
    speaker: str | None = None
    before: str | None = None  # the previous message of its session, if known
    language: str | None = None  # the `language=` it is analysed in (None: the analyser's)


def _terms(text: str | None) -> Counter[str]:
    if not text:
        return Counter()
    return Counter(t for t in content_terms(text) if len(t) <= MAX_KEY)


def field_terms(
    statements: Sequence[str],
    said: Utterance,
    weights: Mapping[str, int] = FIELD_WEIGHTS,
) -> list[Counter[str]]:
    """The weighted keyword terms of each statement of one message."""
    shared: Counter[str] = Counter()
    for name, text in (("message", said.text), ("before", said.before), ("speaker", said.speaker)):
        weight = weights.get(name, 0)
        if weight:
            for term, tf in _terms(text).items():
                shared[term] += weight * tf
    own = weights.get("statement", 0)
    out = []
    for statement in statements:
        terms = Counter(shared)
        if own:
            for term, tf in _terms(statement).items():
                terms[term] += own * tf
        out.append(terms)
    return out


def embedding_text(text: str, speaker: str | None) -> str:
    """What is embedded for a statement: "speaker: text" when the speaker is known."""
    return f"{speaker}: {text}" if speaker else text
