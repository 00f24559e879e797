"""Data types of the concept-extraction port and the RecallM concept filter.

A statement is split into `Sentence`s; each keeps its UPOS-tagged `Token`s and the
`Concept`s drawn from them (nouns, proper nouns and numbers, keyed by Porter stem).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

import attrs

from bitemporal_core.errors import InvalidInput
from bitemporal_core.language.extract.terms import stem

__all__ = [
    "CONCEPT_POS",
    "Concept",
    "ConceptExtractor",
    "Sentence",
    "Token",
    "build_sentence",
    "concepts_from_tokens",
    "select_concepts",
]

CONCEPT_POS: frozenset[str] = frozenset({"NOUN", "PROPN", "NUM"})
"""Universal POS tags whose tokens become concepts (RecallM; docs/design.md, "Concepts")."""

_MIN_FILTERED = 3  # sentences with at most this many concepts are never windowed


@attrs.frozen(slots=True)
class Token:
    """One word of a sentence with its Universal Dependencies POS tag (UPOS) and, where the
    tagger has one, its own finer tag (spaCy's Penn ``VBD``, jieba's ``ns``, ``t``...)."""

    text: str
    pos: str
    tag: str = ""


@attrs.frozen(slots=True)
class Concept:
    """A concept mention: stem `key`, surface `display`, UPOS `pos`, token `position`."""

    key: str
    display: str
    pos: str
    position: int


@attrs.frozen(slots=True)
class Sentence:
    """One statement of the input text with its tokens, (filtered) concepts and the language
    it was analysed in ("en" or "zh")."""

    text: str
    tokens: tuple[Token, ...]
    concepts: tuple[Concept, ...]
    language: str = "en"


@runtime_checkable
class ConceptExtractor(Protocol):
    """Splits text into sentences and finds the concepts of each."""

    @property
    def name(self) -> str:
        """Visible description of the extractor, e.g. ``"spacy:en_core_web_sm 3.8.0"``."""
        ...

    def sentences(self, text: str) -> list[Sentence]:
        """Split `text` into sentences, each with its tokens and concepts."""
        ...


def select_concepts(concepts: Sequence[Concept], window: int | None) -> tuple[Concept, ...]:
    """Apply the RecallM reference window filter to one sentence's concepts.

    With `window` set and more than 3 concepts, keep those within ±`window` places (in
    the concept list) of the first PROPN concept, or else of the middle concept.
    """
    if window is not None and window < 0:
        raise InvalidInput(f"window must be >= 0 or None, got {window}")
    if window is None or len(concepts) <= _MIN_FILTERED:
        return tuple(concepts)
    anchor = next((i for i, c in enumerate(concepts) if c.pos == "PROPN"), len(concepts) // 2)
    return tuple(concepts[max(0, anchor - window) : anchor + window + 1])


def concepts_from_tokens(tokens: Iterable[Token]) -> tuple[Concept, ...]:
    """Return the NOUN/PROPN/NUM tokens as concepts, first occurrence of each key only."""
    seen: set[str] = set()
    found: list[Concept] = []
    for position, token in enumerate(tokens):
        if token.pos not in CONCEPT_POS:
            continue
        key = stem(token.text)
        if not key or key in seen:
            continue
        seen.add(key)
        found.append(Concept(key=key, display=token.text, pos=token.pos, position=position))
    return tuple(found)


def build_sentence(text: str, tokens: Iterable[Token], window: int | None) -> Sentence:
    """Assemble a `Sentence` from tagged tokens, extracting and windowing its concepts."""
    token_tuple = tuple(tokens)
    concepts = select_concepts(concepts_from_tokens(token_tuple), window)
    return Sentence(text=text, tokens=token_tuple, concepts=concepts)
