"""One extractor per language, chosen per sentence (docs/chinese.md, "Language").

A text without Han characters goes to the English extractor whole, exactly as before Chinese
existed. A text with Han characters is cut at Chinese sentence ends (。！？；, line breaks);
each piece is analysed in its own language (`detect.language_of`, or the language the caller
gave): Chinese pieces by the Chinese extractor, English ones by the English extractor, whose
Han tokens ("I met 小王") are then segmented by the Chinese rules. Keyword terms follow the
same split (`content_terms`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bitemporal_core.common.validate import shown
from bitemporal_core.errors import ExtractorUnavailable, InvalidInput
from bitemporal_core.language.detect import LANGUAGES, has_han, language_of
from bitemporal_core.language.extract.base import (
    CONCEPT_POS,
    Concept,
    ConceptExtractor,
    Sentence,
    Token,
    select_concepts,
)
from bitemporal_core.language.extract.chinese import (
    ChineseExtractor,
    chinese_terms,
    split_sentences,
    zh_concepts,
)
from bitemporal_core.language.extract.simple import SimpleExtractor
from bitemporal_core.language.extract.spacy import SpacyExtractor
from bitemporal_core.language.extract.stanza import StanzaExtractor
from bitemporal_core.language.extract.terms import english_terms, stem

__all__ = [
    "EXTRACTOR_NAMES",
    "MultilingualExtractor",
    "content_terms",
    "default_extractor",
    "multilingual",
]

EXTRACTOR_NAMES = ("auto", "spacy", "simple", "stanza")
"""The names `extractor=` accepts: the default choice, spaCy (English) with rjieba (Chinese),
the built-in English tagger with rjieba, Stanza for both languages."""


def default_extractor(*, window: int | None = None) -> ConceptExtractor:
    """Return a loaded `SpacyExtractor` if spaCy and its model load, else `SimpleExtractor`."""
    spacy_extractor = SpacyExtractor(window=window)
    try:
        spacy_extractor.load()
    except ExtractorUnavailable:
        return SimpleExtractor(window=window)
    return spacy_extractor


def content_terms(text: str) -> list[str]:
    """The keyword terms of `text` for BM25: English stems, and Chinese content words for
    text with Han characters (the same terms on the statement and the question side)."""
    return chinese_terms(text) if has_han(text) else english_terms(text)


class MultilingualExtractor:
    """Sentences analysed by the extractor of their language ("en", "zh")."""

    def __init__(self, extractors: Mapping[str, ConceptExtractor]) -> None:
        missing = set(LANGUAGES) - set(extractors)
        if missing:
            raise InvalidInput(f"MultilingualExtractor needs an extractor for {sorted(missing)}")
        self._by_language: dict[str, ConceptExtractor] = {
            lang: extractors[lang] for lang in LANGUAGES
        }
        self.languages = LANGUAGES

    @property
    def extractors(self) -> dict[str, ConceptExtractor]:
        """The extractor of each language."""
        return dict(self._by_language)

    @property
    def name(self) -> str:
        """Each language's extractor, e.g. ``"en=spacy:... zh=rjieba 0.2.2+opencc-t2s"``."""
        return ",".join(f"{lang}={ex.name}" for lang, ex in self._by_language.items())

    def __reduce__(self) -> tuple[Any, ...]:
        return (MultilingualExtractor, (self._by_language,))

    def sentences(self, text: str, language: str | None = None) -> list[Sentence]:
        """The sentences of `text`, each analysed in its language (`language` forces one)."""
        if language is None and not has_han(text):
            return self._by_language["en"].sentences(text)
        if language == "zh":
            return self._by_language["zh"].sentences(text)
        out: list[Sentence] = []
        for piece in _pieces(text):
            lang = language or language_of(piece)
            out.extend(self._english(piece) if lang == "en" else self._chinese(piece))
        return out

    def sentences_many(
        self, texts: Sequence[str], languages: Sequence[str | None] | None = None
    ) -> list[list[Sentence]]:
        """`sentences` for many texts; English-only texts in one batch where the English
        extractor batches (spaCy's `pipe`)."""
        langs = list(languages) if languages is not None else [None] * len(texts)
        plain = [i for i, t in enumerate(texts) if langs[i] in (None, "en") and not has_han(t)]
        english = self._by_language["en"]
        batched = getattr(english, "sentences_many", None)
        out: list[list[Sentence]] = [[] for _ in texts]
        if callable(batched) and plain:
            for i, sentences in zip(plain, batched([texts[i] for i in plain]), strict=True):
                out[i] = sentences
        done = set(plain) if callable(batched) else set()
        for i, text in enumerate(texts):
            if i not in done:
                out[i] = self.sentences(text, langs[i])
        return out

    def _chinese(self, piece: str) -> list[Sentence]:
        chinese = self._by_language["zh"]
        if isinstance(chinese, ChineseExtractor):
            return [chinese.sentence(piece)]  # already cut at sentence ends
        return chinese.sentences(piece)

    def _english(self, piece: str) -> list[Sentence]:
        sentences = self._by_language["en"].sentences(piece)
        return [self._with_han(s) if has_han(s.text) else s for s in sentences]

    def _with_han(self, sentence: Sentence) -> Sentence:
        """An English sentence whose Han tokens are segmented and keyed as Chinese."""
        chinese = self._by_language["zh"]
        tokens: list[Token] = []
        concepts: list[Concept] = []
        seen: set[str] = set()
        for token in sentence.tokens:
            if not has_han(token.text):
                key = stem(token.text) if token.pos in CONCEPT_POS else ""
                found = [Concept(key, token.text, token.pos, len(tokens))] if key else []
                tokens.append(token)
            else:
                parsed = [s for s in _han_sentences(chinese, token.text)]
                found = [
                    Concept(c.key, c.display, c.pos, len(tokens) + c.position)
                    for s in parsed
                    for c in s.concepts
                ]
                tokens.extend(t for s in parsed for t in s.tokens)
            for concept in found:
                if concept.key not in seen:
                    seen.add(concept.key)
                    concepts.append(concept)
        window = getattr(self._by_language["en"], "window", None)
        return Sentence(
            text=sentence.text,
            tokens=tuple(tokens),
            concepts=select_concepts(concepts, window),
            language="en",
        )

    def __repr__(self) -> str:
        return f"MultilingualExtractor({self._by_language!r})"


_LATIN_END = re.compile(
    r"(?<=[A-Za-z0-9)'\"][.!?])\s*(?=[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])"
)


def _pieces(text: str) -> list[str]:
    """A text with Han characters cut at Chinese sentence ends and where an English sentence
    ends right before Han text ("I moved to Hangzhou. 我很喜欢这里。")."""
    out = []
    for start, end in split_sentences(text):
        piece, at = text[start:end], 0
        for m in _LATIN_END.finditer(piece):
            out.append(piece[at : m.start()])
            at = m.end()
        out.append(piece[at:])
    return [p.strip() for p in out if p.strip()]


def _han_sentences(chinese: ConceptExtractor, text: str) -> list[Sentence]:
    if isinstance(chinese, ChineseExtractor):
        words = chinese.words(text)
        return [
            Sentence(
                text=text,
                tokens=tuple(Token(text[w.start : w.end], w.upos, w.tag) for w in words),
                concepts=zh_concepts(text, words),
                language="zh",
            )
        ]
    return chinese.sentences(text)


def _named(name: str, window: int | None) -> dict[str, ConceptExtractor]:
    if name == "stanza":
        return {
            "en": StanzaExtractor(lang="en", window=window),
            "zh": StanzaExtractor(lang="zh", window=window),
        }
    english: ConceptExtractor
    if name == "spacy":
        english = SpacyExtractor(window=window)
    elif name == "simple":
        english = SimpleExtractor(window=window)
    else:
        english = default_extractor(window=window)
    return {"en": english, "zh": ChineseExtractor(window=window, english=english)}


def multilingual(extractor: object = None, *, window: int | None = None) -> MultilingualExtractor:
    """The extractor a store runs, from its `extractor=` option: None or a name of
    `EXTRACTOR_NAMES`, a `MultilingualExtractor` (used as is), or any `ConceptExtractor` (used
    for the languages in its `languages` attribute, English if it has none; the defaults for
    the others)."""
    if isinstance(extractor, MultilingualExtractor):
        return extractor
    if extractor is None or isinstance(extractor, str):
        name = extractor or "auto"
        if name not in EXTRACTOR_NAMES:
            choices = ", ".join(EXTRACTOR_NAMES)
            raise InvalidInput(f"extractor must be one of {choices}, not {shown(name)}")
        return MultilingualExtractor(_named(name, window))
    if not isinstance(extractor, ConceptExtractor):
        raise InvalidInput(
            f"extractor must be a ConceptExtractor or a name, not {type(extractor).__name__}"
        )
    given = tuple(getattr(extractor, "languages", ("en",)))
    extractors: dict[str, ConceptExtractor] = {lang: extractor for lang in given}
    if "en" not in extractors:
        extractors["en"] = default_extractor(window=window)
    if "zh" not in extractors:
        extractors["zh"] = ChineseExtractor(window=window, english=extractors["en"])
    return MultilingualExtractor(extractors)
