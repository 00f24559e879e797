"""Statements: the sentences of a text with their concepts, RELATED pairs, terms and valid time."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

import attrs

from bitemporal_core.common.times import check_interval
from bitemporal_core.language.claims import ClaimDraft, claims_of, mentioned, slot_words
from bitemporal_core.language.extract import (
    ConceptExtractor,
    Sentence,
    Token,
    content_terms,
    default_extractor,
)
from bitemporal_core.language.kinds import classify
from bitemporal_core.language.temporal import TimeResolver, default_resolver
from bitemporal_core.language.worthiness import MEMORY, category
from bitemporal_core.model import UNSET, Unset
from bitemporal_core.providers.embeddings import Embedder
from bitemporal_core.ranking.recallm import neighbour_pairs

__all__ = ["MAX_KEY", "Analysed", "Analyser"]

# Longer "words" (URLs, base64, keyboard mashing) are kept in the text but get no concept or
# keyword node: they would not index on Neo4j and never match a question anyway.
MAX_KEY = 64
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@attrs.frozen(kw_only=True)
class Analysed:
    """One statement ready to store."""

    text: str
    concepts: tuple[tuple[str, str], ...]  # (key, display), sentence order, unique keys
    pairs: tuple[tuple[str, str], ...]  # RELATED pairs, smaller key first
    terms: tuple[tuple[str, int], ...]  # (stem, term frequency)
    length: int
    embedding: tuple[float, ...] | None = None
    kind: str = "said"  # classified from the parsed sentence (see `kinds`)
    category: str = MEMORY  # memory, or the kind of talk it is (see `worthiness`)
    claims: tuple[ClaimDraft, ...] = ()  # what it says about whom (see `claims`)
    language: str | None = None
    people: tuple[str, ...] = ()  # the names it mentions (to resolve pronouns)


class Analyser:
    """Splits texts into statements and resolves their valid time; models load lazily."""

    def __init__(
        self,
        *,
        extractor: ConceptExtractor | None = None,
        resolver: TimeResolver | Unset | None = UNSET,
        embedder: Embedder | None = None,
        distance: int = 1,
    ) -> None:
        self._extractor = extractor
        self._resolver = resolver
        self.embedder = embedder
        self._distance = distance
        self._lock = threading.Lock()

    @property
    def distance(self) -> int:
        """How far apart (in concepts) two concepts of a sentence may be to be RELATED."""
        return self._distance

    @property
    def extractor(self) -> ConceptExtractor:
        """The concept extractor (the default one is chosen on first use)."""
        if self._extractor is None:
            with self._lock:
                if self._extractor is None:
                    self._extractor = default_extractor()
        return self._extractor

    @property
    def resolver(self) -> TimeResolver | None:
        """The valid-time resolver, or None when disabled."""
        if isinstance(self._resolver, Unset):
            self._resolver = default_resolver()
        return self._resolver

    @property
    def extractor_name(self) -> str:
        return self.extractor.name

    @property
    def resolver_name(self) -> str:
        return "off" if self.resolver is None else self.resolver.name

    def analyse(self, text: str) -> list[Analysed]:
        """One `Analysed` per sentence of `text` (the whole text if no sentence is found)."""
        out = []
        for sentence in self.extractor.sentences(text):
            if not sentence.text.strip():
                continue
            keys = [(c.key, c.display) for c in sentence.concepts]
            out.append(self._statement(sentence.text.strip(), [keys], sentence.tokens))
        return self._embed(out or [self._statement(text, [])])

    def analyse_many(self, texts: Sequence[str]) -> list[list[Analysed]]:
        """`analyse` for many texts, batching the model and the embedder where they can."""
        return self.embed_groups(self.statements_many(texts))

    def statements_many(self, texts: Sequence[str]) -> list[list[Analysed]]:
        """The statements of many texts, not embedded yet (a bulk import's worker runs this)."""
        batched = getattr(self.extractor, "sentences_many", None)
        if callable(batched):
            parsed: list[list[Sentence]] = batched(texts)
        else:
            parsed = [self.extractor.sentences(text) for text in texts]
        groups = []
        for text, sentences in zip(texts, parsed, strict=True):
            out = [
                self._statement(
                    s.text.strip(), [[(c.key, c.display) for c in s.concepts]], s.tokens
                )
                for s in sentences
                if s.text.strip()
            ]
            groups.append(out or [self._statement(text, [])])
        return groups

    def embed_groups(self, groups: list[list[Analysed]]) -> list[list[Analysed]]:
        """Embed every statement of these groups in one batch (no-op without an embedder)."""
        if self.embedder is None:
            return groups
        flat = self._embed([st for group in groups for st in group])
        result, i = [], 0
        for group in groups:
            result.append(flat[i : i + len(group)])
            i += len(group)
        return result

    def analyse_one(self, text: str) -> Analysed:
        """`text` as a single statement (its sentences' concepts merged)."""
        sentences = self.extractor.sentences(text)
        groups = [[(c.key, c.display) for c in s.concepts] for s in sentences]
        tokens = tuple(t for s in sentences for t in s.tokens)
        return self._embed([self._statement(text, groups, tokens)])[0]

    def _embed(self, statements: list[Analysed]) -> list[Analysed]:
        """Attach a unit vector to each statement when an embedder is configured."""
        if self.embedder is None:
            return statements
        vectors = self.embedder.embed([st.text for st in statements])
        return [
            attrs.evolve(st, embedding=tuple(vec))
            for st, vec in zip(statements, vectors, strict=True)
        ]

    def _statement(
        self, text: str, groups: list[list[tuple[str, str]]], tokens: Sequence[Token] = ()
    ) -> Analysed:
        concepts: dict[str, str] = {}
        pairs: list[tuple[str, str]] = []
        for group in groups:
            group = [(k, d) for k, d in group if len(k) <= MAX_KEY]
            for key, display in group:
                concepts.setdefault(key, display)
            pairs.extend(neighbour_pairs([k for k, _ in group], self._distance))
        terms = Counter(t for t in content_terms(text) if len(t) <= MAX_KEY)
        talk = category(text, tokens)
        drafts = claims_of(text, tokens) if talk == MEMORY else ()
        for word in slot_words(d.slot for d in drafts):
            terms.setdefault(word, 1)
        return Analysed(
            text=text,
            concepts=tuple(concepts.items()),
            pairs=tuple(pairs),
            terms=tuple(sorted(terms.items())),
            length=sum(terms.values()),
            kind=classify(tokens),
            category=talk,
            claims=drafts,
            language="zh" if _CJK.search(text) else "en",
            people=tuple(mentioned(tokens)),
        )

    def valid_time(
        self,
        text: str,
        when: datetime,
        valid_from: datetime | None,
        valid_to: datetime | Unset | None,
    ) -> tuple[datetime, datetime | None]:
        """The valid interval of a statement recorded at `when`: an explicit `valid_from` wins,
        else a temporal expression in the text, else `when`."""
        explicit_to = None if isinstance(valid_to, Unset) else valid_to
        if valid_from is not None:
            start, end = valid_from, explicit_to
        else:
            resolved = self.resolver.resolve(text, when) if self.resolver else None
            if resolved is None:
                start, end = when, explicit_to
            else:
                start = resolved.valid_from
                end = resolved.valid_to if isinstance(valid_to, Unset) else explicit_to
        check_interval(start, end)
        return start, end
