"""Statements: the sentences of a text with their concepts, RELATED pairs, terms and valid time."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime

import attrs

from bitemporal_core.common.times import check_interval
from bitemporal_core.language.extract import (
    ConceptExtractor,
    Sentence,
    Token,
    default_extractor,
)
from bitemporal_core.language.fields import MAX_KEY, Utterance, embedding_text, field_terms
from bitemporal_core.language.kinds import classify
from bitemporal_core.language.temporal import TimeResolver, default_resolver
from bitemporal_core.model import UNSET, Unset
from bitemporal_core.providers.embeddings import Embedder
from bitemporal_core.ranking.recallm import neighbour_pairs

__all__ = ["MAX_KEY", "Analysed", "Analyser", "Utterance"]


@attrs.frozen(kw_only=True)
class Analysed:
    """One statement ready to store."""

    text: str
    concepts: tuple[tuple[str, str], ...]  # (key, display), sentence order, unique keys
    pairs: tuple[tuple[str, str], ...]  # RELATED pairs, smaller key first
    terms: tuple[tuple[str, int], ...]  # (stem, weighted term frequency; see `fields`)
    length: int
    embedding: tuple[float, ...] | None = None
    kind: str = "said"  # classified from the parsed sentence (see `_kinds`)


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

    def analyse(
        self, text: str, *, speaker: str | None = None, before: str | None = None
    ) -> list[Analysed]:
        """One `Analysed` per sentence of `text` (the whole text if no sentence is found);
        `speaker` and `before` (the message said before it) are keyword fields of each."""
        out = []
        for sentence in self.extractor.sentences(text):
            if not sentence.text.strip():
                continue
            keys = [(c.key, c.display) for c in sentence.concepts]
            out.append(self._statement(sentence.text.strip(), [keys], sentence.tokens))
        said = Utterance(text=text, speaker=speaker, before=before)
        return self.finish([out or [self._statement(text, [])]], [said])[0]

    def analyse_many(self, said: Sequence[Utterance]) -> list[list[Analysed]]:
        """`analyse` for many messages, batching the model and the embedder where they can."""
        return self.finish(self.statements_many([u.text for u in said]), said)

    def statements_many(self, texts: Sequence[str]) -> list[list[Analysed]]:
        """The statements of many texts, without their fields and embeddings yet (a bulk
        import's worker runs this)."""
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

    def finish(
        self, groups: Sequence[list[Analysed]], said: Sequence[Utterance]
    ) -> list[list[Analysed]]:
        """The statements of each message with its fields (`fields.field_terms`), embedded in
        one batch when an embedder is configured."""
        fielded = []
        for group, utterance in zip(groups, said, strict=True):
            terms = field_terms([st.text for st in group], utterance)
            fielded.append(
                [
                    attrs.evolve(st, terms=tuple(sorted(t.items())), length=sum(t.values()))
                    for st, t in zip(group, terms, strict=True)
                ]
            )
        if self.embedder is None:
            return fielded
        speakers = [u.speaker for u, group in zip(said, fielded, strict=True) for _ in group]
        flat = self._embed([st for group in fielded for st in group], speakers)
        result, i = [], 0
        for group in fielded:
            result.append(flat[i : i + len(group)])
            i += len(group)
        return result

    def analyse_one(self, text: str, *, speaker: str | None = None) -> Analysed:
        """`text` as a single statement (its sentences' concepts merged), `speaker` a field."""
        sentences = self.extractor.sentences(text)
        groups = [[(c.key, c.display) for c in s.concepts] for s in sentences]
        tokens = tuple(t for s in sentences for t in s.tokens)
        said = Utterance(text=text, speaker=speaker)
        return self.finish([[self._statement(text, groups, tokens)]], [said])[0][0]

    def _embed(self, statements: list[Analysed], speakers: Sequence[str | None]) -> list[Analysed]:
        """Attach a unit vector to each statement (of "speaker: text", see `fields`)."""
        if self.embedder is None:
            return statements
        texts = [embedding_text(st.text, sp) for st, sp in zip(statements, speakers, strict=True)]
        vectors = self.embedder.embed(texts)
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
        return Analysed(
            text=text,
            concepts=tuple(concepts.items()),
            pairs=tuple(pairs),
            terms=(),  # set with the message's fields by `finish`
            length=0,
            kind=classify(tokens),
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
