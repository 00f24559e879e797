"""Concept extraction port (RecallM; docs/design.md, "Concepts"): sentences, UPOS tokens and
keyed concepts, per language (docs/chinese.md).

Concepts are the NOUN, PROPN and NUM tokens of a sentence, keyed by Porter stem in English and
by their simplified form in Chinese. English backends: spaCy (default), Stanza (the
reference's tagger) and a dependency-free fallback; Chinese: rjieba (jieba's dictionary and
tags) or Stanza. `MultilingualExtractor` picks one per sentence.
"""

from __future__ import annotations

from bitemporal_core.language.extract.base import (
    Concept,
    ConceptExtractor,
    Sentence,
    Token,
    select_concepts,
)
from bitemporal_core.language.extract.chinese import ChineseExtractor
from bitemporal_core.language.extract.multilingual import (
    EXTRACTOR_NAMES,
    MultilingualExtractor,
    content_terms,
    default_extractor,
    multilingual,
)
from bitemporal_core.language.extract.simple import SimpleExtractor
from bitemporal_core.language.extract.spacy import SpacyExtractor
from bitemporal_core.language.extract.stanza import StanzaExtractor
from bitemporal_core.language.extract.terms import english_terms, stem

__all__ = [
    "EXTRACTOR_NAMES",
    "ChineseExtractor",
    "Concept",
    "ConceptExtractor",
    "MultilingualExtractor",
    "Sentence",
    "SimpleExtractor",
    "SpacyExtractor",
    "StanzaExtractor",
    "Token",
    "content_terms",
    "default_extractor",
    "english_terms",
    "multilingual",
    "select_concepts",
    "stem",
]
