"""Statements: the sentences of a text with their concepts, RELATED pairs, terms and valid time."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime

import attrs

from bitemporal_core.common.times import check_interval
from bitemporal_core.language.claims import (
    ClaimDraft,
    change_cue,
    claim_words,
    claims_of,
    mentioned,
    truecased,
)
from bitemporal_core.language.clauses import dependent, plain_fragment, timed_text
from bitemporal_core.language.detect import AUTO, check_language, has_han, language_of
from bitemporal_core.language.extract import (
    EXTRACTOR_NAMES,
    ConceptExtractor,
    MultilingualExtractor,
    Sentence,
    Token,
    multilingual,
)
from bitemporal_core.language.fields import MAX_KEY, Utterance, embedding_text, field_terms
from bitemporal_core.language.kinds import classify
from bitemporal_core.language.nearness import Floors
from bitemporal_core.language.people_zh import zh_mentioned
from bitemporal_core.language.temporal import TimeResolver, default_resolver
from bitemporal_core.language.topics import SLOTLESS
from bitemporal_core.language.worthiness import MEMORY, category
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
    kind: str = "said"  # classified from the parsed sentence (see `kinds`)
    category: str = MEMORY  # memory, or the kind of talk it is (see `worthiness`)
    claims: tuple[ClaimDraft, ...] = ()  # what it says about whom (see `claims`)
    change: str = ""  # the cue by which it says something changed (see `topics`)
    language: str = "en"  # the language it was analysed in (docs/chinese.md)
    people: tuple[str, ...] = ()  # the names it mentions (to resolve pronouns)


_VERBS = frozenset({"VERB", "AUX"})


def _fragment(sentence: Sentence) -> bool:
    """An English sentence without a verb that names something and says nothing of its own
    about time or change ("CBT mostly."; `plain_fragment`)."""
    return (
        sentence.language == "en"
        and bool(sentence.concepts)
        and not any(t.pos in _VERBS for t in sentence.tokens)
        and plain_fragment(sentence.text)
    )


def statement_spans(text: str, sentences: Sequence[Sentence]) -> list[tuple[str, list[Sentence]]]:
    """The statements of `text`: its sentences, except that a fragment (`_fragment`) after a
    sentence with a verb that asks nothing belongs to that sentence's statement ("seeing a
    therapist, Dr Hughes. CBT mostly" is one memory, retired as one). Each statement's text is
    its span of `text`."""
    spans: list[tuple[int, int, list[Sentence]]] = []
    cursor = 0
    for sentence in sentences:
        said = sentence.text.strip()
        if not said:
            continue
        start = text.find(said, cursor)
        if start < 0:  # not verbatim in the text: a statement of its own
            spans.append((-1, -1, [sentence]))
            continue
        cursor = start + len(said)
        if spans and spans[-1][0] >= 0 and _belongs(sentence, spans[-1][2]):
            spans[-1] = (spans[-1][0], cursor, [*spans[-1][2], sentence])
        else:
            spans.append((start, cursor, [sentence]))
    return [(text[a:b] if a >= 0 else part[0].text.strip(), part) for a, b, part in spans]


def _belongs(sentence: Sentence, part: Sequence[Sentence]) -> bool:
    """Whether a sentence is part of the statement of the sentences before it: a fragment,
    or a dependent clause after a sentence that did not close ("my number's 07700 900312 if
    u need it for the booking" is one memory), or any sentence after an unclosed lead-in
    without a verb ("back in sixth form | i worked weekends at a garden centre")."""
    last = part[-1]
    open_ = last.language == "en" and not last.text.rstrip().endswith((".", "!", "?", "…"))
    lead_in = open_ and len(part) == 1 and not any(t.pos in _VERBS for t in last.tokens)
    return (_fragment(sentence) and _joins(part)) or (
        open_ and (lead_in or dependent(sentence.text))
    )


def _joins(part: Sequence[Sentence]) -> bool:
    """Whether a fragment may join the statement of these sentences."""
    last = part[-1]
    return (
        last.language == "en"
        and not last.text.rstrip().endswith("?")
        and any(t.pos in _VERBS for s in part for t in s.tokens)
    )


class Analyser:
    """Splits texts into statements and resolves their valid time; models load lazily.

    `extractor` is what `extract.multilingual` accepts (None, a name, an extractor);
    `language` is "auto" (each statement's language from its script), "en" or "zh".
    """

    def __init__(
        self,
        *,
        extractor: ConceptExtractor | str | None = None,
        resolver: TimeResolver | Unset | None = UNSET,
        embedder: Embedder | None = None,
        distance: int = 1,
        language: str = AUTO,
    ) -> None:
        self._option = extractor
        self._extractor: MultilingualExtractor | None = (
            extractor if isinstance(extractor, MultilingualExtractor) else None
        )
        if isinstance(extractor, str) and extractor not in EXTRACTOR_NAMES:
            multilingual(extractor)  # raises InvalidInput naming the choices
        self.language = check_language(language)
        self._resolver = resolver
        self.embedder = embedder
        self.floors = None if embedder is None else Floors(embedder)
        self._distance = distance
        self._query_extractor: MultilingualExtractor | None = None
        self._lock = threading.Lock()

    def preload(self) -> threading.Thread:
        """Choose and load the extractors now, in a daemon thread (the returned one), so that
        the first statement or query analysed does not wait for a model's load (spaCy's takes
        seconds) unless it comes sooner. A load that fails is left to the first use, which
        raises it as before."""

        def load() -> None:
            try:
                _ = self.extractor
            except Exception:  # raised again, with its cause, on first use
                return

        thread = threading.Thread(target=load, name="bitemporal-preload", daemon=True)
        thread.start()
        return thread

    @property
    def distance(self) -> int:
        """How far apart (in concepts) two concepts of a sentence may be to be RELATED."""
        return self._distance

    @property
    def extractor(self) -> MultilingualExtractor:
        """The concept extractors by language (the defaults are chosen on first use)."""
        if self._extractor is None:
            with self._lock:
                if self._extractor is None:
                    self._extractor = multilingual(self._option)
        return self._extractor

    @property
    def query_extractor(self) -> MultilingualExtractor:
        """The extractors questions are read with: with the default choice, the built-in
        English tagger (and rjieba for Chinese), so a recall never waits for a model's load;
        a question's concepts only select among those statements put in the graph, and the
        tagger reads them as the model does on the benchmarks (docs/design.md, "Questions").
        A chosen extractor reads questions too."""
        if self._option not in (None, "auto"):
            return self.extractor
        if self._query_extractor is None:
            with self._lock:
                if self._query_extractor is None:
                    self._query_extractor = multilingual("simple")
        return self._query_extractor

    def _forced(self, language: str | None) -> str | None:
        """The language statements are analysed in: the call's, else the analyser's; None
        detects it per sentence."""
        chosen = language or self.language
        return None if chosen == AUTO else chosen

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
        self,
        text: str,
        language: str | None = None,
        *,
        speaker: str | None = None,
        before: str | None = None,
    ) -> list[Analysed]:
        """One `Analysed` per sentence of `text` (the whole text if no sentence is found);
        `language` ("en", "zh") overrides the analyser's; `speaker` and `before` (the message
        said before it) are keyword fields of each."""
        said = Utterance(text=text, speaker=speaker, before=before, language=language)
        return self.analyse_many([said])[0]

    def analyse_many(self, said: Sequence[Utterance]) -> list[list[Analysed]]:
        """`analyse` for many messages, batching the model and the embedder where they can."""
        groups = self.statements_many([u.text for u in said], [u.language for u in said])
        return self.finish(groups, said)

    def statements_many(
        self, texts: Sequence[str], languages: Sequence[str | None] | None = None
    ) -> list[list[Analysed]]:
        """The statements of many texts, without their fields and embeddings yet (a bulk
        import's worker runs this)."""
        forced = [
            self._forced(None if languages is None else lang)
            for lang in (languages if languages is not None else [None] * len(texts))
        ]
        parsed = self.extractor.sentences_many(texts, forced)
        groups = []
        for text, sentences, lang in zip(texts, parsed, forced, strict=True):
            out = [
                self._from_sentences(t, part, lang) for t, part in statement_spans(text, sentences)
            ]
            groups.append(out or [self._statement(text, [], (), lang)])
        return groups

    def finish(
        self, groups: Sequence[list[Analysed]], said: Sequence[Utterance]
    ) -> list[list[Analysed]]:
        """The statements of each message with its fields (`fields.field_terms`), embedded in
        one batch when an embedder is configured."""
        fielded = []
        for group, utterance in zip(groups, said, strict=True):
            terms = field_terms([st.text for st in group], utterance)
            slotted: list[ClaimDraft] = []  # the slot claims of the message's statement before
            for st, t in zip(group, terms, strict=True):  # "Where do I live?" finds a move
                own = [c for c in st.claims if c.slot not in SLOTLESS]
                # a statement no slot reads goes on with the one before: 终于搬完家了！新家在苏州
                carried = slotted if not own and st.category == MEMORY else []
                named = [k for k, _ in st.concepts]
                for word in claim_words([*st.claims, *carried], st.language, named=named):
                    t.setdefault(word, 1)
                slotted = own
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

    def analyse_one(
        self, text: str, language: str | None = None, *, speaker: str | None = None
    ) -> Analysed:
        """`text` as a single statement (its sentences' concepts merged), `speaker` a field."""
        forced = self._forced(language)
        sentences = self.extractor.sentences(text, forced)
        groups = [[(c.key, c.display) for c in s.concepts] for s in sentences]
        tokens = tuple(t for s in sentences for t in s.tokens)
        said = Utterance(text=text, speaker=speaker)
        return self.finish([[self._statement(text, groups, tokens, forced)]], [said])[0][0]

    def _from_sentences(
        self, text: str, sentences: Sequence[Sentence], forced: str | None
    ) -> Analysed:
        groups = [[(c.key, c.display) for c in s.concepts] for s in sentences]
        tokens = tuple(t for s in sentences for t in s.tokens)
        return self._statement(text, groups, tokens, forced or sentences[0].language)

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
        self,
        text: str,
        groups: list[list[tuple[str, str]]],
        tokens: Sequence[Token],
        language: str | None,
    ) -> Analysed:
        concepts: dict[str, str] = {}
        pairs: list[tuple[str, str]] = []
        for group in groups:
            group = [(k, d) for k, d in group if len(k) <= MAX_KEY]
            for key, display in group:
                concepts.setdefault(key, display)
            pairs.extend(neighbour_pairs([k for k, _ in group], self._distance))
        lang = language or language_of(text)
        talk = category(text, tokens)
        drafts = claims_of(text, tokens) if talk == MEMORY else ()
        change = change_cue(text, tokens) if talk == MEMORY else ""
        return Analysed(
            text=text,
            concepts=tuple(concepts.items()),
            pairs=tuple(pairs),
            terms=(),  # set with the message's fields by `finish`
            length=0,
            kind=classify(tokens, lang),
            category=talk,
            claims=drafts,
            change=change,
            language=lang,
            people=tuple(mentioned(truecased(tokens)) if lang == "en" else zh_mentioned(text)),
        )

    def valid_time(
        self,
        text: str,
        when: datetime,
        valid_from: datetime | None,
        valid_to: datetime | Unset | None,
        *,
        dated: bool = False,
    ) -> tuple[datetime, datetime | None]:
        """The valid interval of a statement recorded at `when`: an explicit `valid_from` wins,
        else a temporal expression in the text (not in a wish or plan said after the main
        clause), else `when`. A `dated` statement (an appointment: `names_a_date`) is true
        from `when` though the date it names is later."""
        explicit_to = None if isinstance(valid_to, Unset) else valid_to
        if valid_from is not None:
            start, end = valid_from, explicit_to
        else:
            resolved = None
            if self.resolver is not None:
                resolved = self.resolver.resolve(timed_text(text, chinese=has_han(text)), when)
            if resolved is None or (dated and resolved.valid_from > when):
                start, end = when, explicit_to
            else:
                start = resolved.valid_from
                end = resolved.valid_to if isinstance(valid_to, Unset) else explicit_to
        check_interval(start, end)
        return start, end
