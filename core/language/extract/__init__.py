"""Concept extraction port (RecallM; docs/design.md, "Concepts"): sentences, UPOS tokens and
stemmed concepts.

Concepts are the NOUN, PROPN and NUM tokens of a sentence, keyed by Porter stem.
Backends: spaCy (default), Stanza (the reference's tagger) and a dependency-free fallback.
"""

from __future__ import annotations

from bitemporal_core.errors import ExtractorUnavailable
from bitemporal_core.language.extract.base import (
    Concept,
    ConceptExtractor,
    Sentence,
    Token,
    select_concepts,
)
from bitemporal_core.language.extract.simple import SimpleExtractor
from bitemporal_core.language.extract.spacy import SpacyExtractor
from bitemporal_core.language.extract.stanza import StanzaExtractor
from bitemporal_core.language.extract.terms import content_terms, stem

__all__ = [
    "Concept",
    "ConceptExtractor",
    "Sentence",
    "SimpleExtractor",
    "SpacyExtractor",
    "StanzaExtractor",
    "Token",
    "content_terms",
    "default_extractor",
    "select_concepts",
    "stem",
]


def default_extractor(*, window: int | None = None) -> ConceptExtractor:
    """Return a loaded `SpacyExtractor` if spaCy and its model load, else `SimpleExtractor`."""
    spacy_extractor = SpacyExtractor(window=window)
    try:
        spacy_extractor.load()
    except ExtractorUnavailable:
        return SimpleExtractor(window=window)
    return spacy_extractor
